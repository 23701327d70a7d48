"""Everything about shooting the moon: spotting a moon hand, spotting a
shooter to stop, and the shooter's scoring choice.

The choice (rules with ``moon = "choice"``) is about the game, not the hand:
"add" (others +26) and "subtract" (shooter -26) move every gap between the
shooter and the others by the same 26 points, so they differ only in whether
the game ends. Adding brings the end nearer, which is good for the leader
and bad for anyone behind; and an option that ends the game decides it.
"""

from __future__ import annotations

from engine.cards import cards_of

from .bits import HEARTS_MASK, HIGH_SPADES, QS_BIT, SUIT_MASKS, rank
from .knowledge import Knowledge

MoonChoice = str


def moon_hand(hand: int) -> bool:
    """Whether a fresh hand is strong enough to try for the moon.

    Deliberately strict: at least seven hearts headed by A-K-Q, the queen of
    spades with a high spade (or no spade problem at all), and every club or
    diamond suit either void or headed by its ace.
    """
    hearts = hand & HEARTS_MASK
    top = [rank(c) for c in cards_of(hearts)][-3:]
    if hearts.bit_count() < 7 or top != [10, 11, 12]:
        return False
    spades = hand & SUIT_MASKS[3]
    if spades and not (spades & QS_BIT and spades & HIGH_SPADES):
        return False
    for suit in (0, 1):
        m = hand & SUIT_MASKS[suit]
        if m and not m >> (suit * 13 + 12) & 1:
            return False
    return True


def losers(hand: int, unseen: int, players: int) -> int:
    """A rough count of cards in ``hand`` that will lose a trick.

    A card wins when the outstanding cards above it can all fall under our
    higher cards of the suit, or when the suit will have run out for the
    others after we have led our higher cards.
    """
    lost = 0
    for suit in range(4):
        mine = cards_of(hand & SUIT_MASKS[suit])
        out = unseen & SUIT_MASKS[suit]
        n_out = out.bit_count()
        for i, c in enumerate(mine):
            above_mine = len(mine) - 1 - i
            above_out = (out >> (c + 1)).bit_count()
            if above_out <= above_mine or n_out <= above_mine * (players - 1) - above_out:
                continue
            lost += 1
    return lost


def moon_points_taken(k: Knowledge) -> list[int]:
    """Each seat's moon cards taken so far, counted as points (hearts 1, Q♠ 13)."""
    out = []
    for m in k.taken:
        m &= k.rules.moon_cards
        out.append((m & HEARTS_MASK).bit_count() + (13 if m & QS_BIT else 0))
    return out


def moon_threat(k: Knowledge, threshold: int = 7) -> int | None:
    """Another seat that has taken every point so far (at least
    ``threshold``), i.e. one that may be shooting the moon; else None."""
    pts = moon_points_taken(k)
    holders = [s for s, p in enumerate(pts) if p > 0]
    if len(holders) == 1 and holders[0] != k.seat and pts[holders[0]] >= threshold:
        return holders[0]
    return None


def shooting(k: Knowledge) -> bool:
    """Whether we are (still) going for the moon: nobody else has a point
    and our hand can win every remaining trick that matters."""
    pts = moon_points_taken(k)
    if any(p for s, p in enumerate(pts) if s != k.seat):
        return False
    n_lost = losers(k.hand, k.unseen, k.players)
    if n_lost:
        return False
    if pts[k.seat] >= 14:
        return True
    return moon_hand(k.hand | k.taken[k.seat]) or (k.hand & HEARTS_MASK).bit_count() >= 6


def game_ends(totals: list[int], end: str, end_at: int, hands_played: int) -> bool:
    """Whether a game with these totals is over (a unique lowest total and
    the end condition met)."""
    reached = hands_played >= end_at if end == "hands" else max(totals) >= end_at
    low = min(totals)
    return reached and totals.count(low) == 1


def moon_totals(k: Knowledge, choice: str) -> list[int]:
    """The game totals after this hand if the shooter (``k.seat``) makes
    ``choice`` ("add" or "subtract")."""
    me = k.seat
    raw = [k.rules.pile_points(m) for m in k.taken]
    worth = k.rules.moon_points
    if choice == "add":
        return [
            t + p + (-worth if s == me else worth)
            for s, (t, p) in enumerate(zip(k.totals, raw, strict=True))
        ]
    return [
        t + p - (2 * worth if s == me else 0)
        for s, (t, p) in enumerate(zip(k.totals, raw, strict=True))
    ]


def choose_moon(k: Knowledge, hands_played: int) -> str:
    """The shooter's choice, "add" or "subtract", best for the game score.

    ``hands_played`` counts finished hands before this one.
    """
    me = k.seat
    options = {"add": moon_totals(k, "add"), "subtract": moon_totals(k, "subtract")}

    def value(choice: str) -> float:
        new = options[choice]
        others = min(v for s, v in enumerate(new) if s != me)
        if game_ends(new, k.rules.end, k.rules.end_at, hands_played + 1):
            return 1000.0 if new[me] < others else -1000.0 - (new[me] - others)
        leading = new[me] < others
        # Adding hastens the end: good for the leader, bad for the others.
        return (1.0 if leading else -1.0) * (1.0 if choice == "add" else -1.0)

    return max(("add", "subtract"), key=value)
