"""Medium: the habits of a careful player (seed 000, "Поради").

* pass the cards hardest to get rid of (``bots.passing.careful_pass``);
* void a club or diamond suit early: discard from the shortest suit;
* keep low cards to duck late: duck with the *highest* card that still loses;
* without Q♠, lead low spades to smoke it out;
* dump Q♠ (and A♠/K♠ while Q♠ is out), then the highest hearts, on others;
* count the cards: a lead is chosen by how many lower cards are still out;
* stop a moon: when another seat has all the points so far, take a heart
  from it and never feed it points;
* shoot the moon itself when its hand can win every trick that matters.

Variants whose costly cards are not hearts and Q♠ are played by the card
penalties (``penalty_play``), Domino Hearts by the lead while the stock
lasts (``domino_play``); see docs/bots.md "The variants".

Medium is deterministic: the same view always gives the same card.
"""

from __future__ import annotations

from engine.cards import QUEEN_SPADES, RANK_OF, SUIT_OF, cards_of

from .bits import (
    HEARTS_MASK,
    HIGH_SPADES,
    LOW_SPADES,
    NOT_QS,
    QS_BIT,
    SUIT_MASKS,
    below,
    highest,
    lowest,
    rank,
)
from .knowledge import Knowledge
from .moon import moon_threat, shooting


def trick_state(k: Knowledge) -> tuple[int, int, int]:
    """The current trick's best card, the seat winning it and its cards."""
    best = k.trick[0]
    at = 0
    mask = 0
    for i, c in enumerate(k.trick):
        mask |= 1 << c
        if SUIT_OF[c] == SUIT_OF[best] and c > best:
            best, at = c, i
    return best, (k.trick_leader + at) % k.players, mask


def medium_play(k: Knowledge) -> int:
    """Medium's card for its turn (``k.legal`` must not be empty)."""
    legal = k.legal
    if legal.bit_count() == 1:
        return lowest(legal)
    if k.rules.deal_kind == "domino":
        return domino_play(k)
    if k.rules.variant in PENALTY_VARIANTS:
        return penalty_play(k)
    if shooting(k):
        return moon_play(k)
    if not k.trick:
        return lead(k)
    f = legal & SUIT_MASKS[SUIT_OF[k.trick[0]]]
    if f:
        return follow(k, f)
    return discard(k, legal)


def lead(k: Knowledge) -> int:
    """A lead likely to lose the trick; low spades to smoke out Q♠."""
    legal = k.legal
    smoke = _smoke_out_queen(k)
    if smoke is not None:
        return smoke
    best_card = -1
    best_key: tuple[int, int, int] = (1 << 30, 0, 0)
    for suit in range(4):
        m = legal & SUIT_MASKS[suit]
        if not m:
            continue
        c = lowest(m & NOT_QS or m)
        key = (_lead_risk(k, suit, c), m.bit_count(), c)
        if key < best_key:
            best_key, best_card = key, c
    return best_card if best_card >= 0 else lowest(legal)


def _smoke_out_queen(k: Knowledge) -> int | None:
    """The lowest low spade to lead while Q♠ is out and our own high spades
    are none or well covered by low ones; None when that lead does not fit."""
    low = k.legal & LOW_SPADES
    if not (k.unseen & QS_BIT and low):
        return None
    high = (k.hand & HIGH_SPADES).bit_count()
    if not high or (k.hand & LOW_SPADES).bit_count() >= high + 3:
        return lowest(low)
    return None


def _lead_risk(k: Knowledge, suit: int, c: int) -> int:
    """How likely leading ``c`` (our lowest of ``suit``) wins the trick and
    what that costs: four per lower card still out, plus the penalties of
    the leads that invite Q♠ or the discards."""
    out = k.unseen & SUIT_MASKS[suit]
    lower_out = (out & below(c)).bit_count()
    penalty = 0
    if not out:
        penalty += 100  # nobody can follow: we win and eat the discards
    if suit == 3 and k.hand & QS_BIT:
        penalty += 50  # never invite the spade that drops Q♠ on us
    if c == QUEEN_SPADES:
        penalty += 200
    if suit == 3 and k.unseen & QS_BIT and c > QUEEN_SPADES:
        penalty += 60  # leading A♠/K♠ while Q♠ is out
    return lower_out * 4 + penalty


def follow(k: Knowledge, f: int) -> int:
    """Follow suit with ``f`` (the legal cards of the led suit)."""
    best, winner, trick_mask = trick_state(k)
    stop = _take_from_moon(k, f, best, winner, trick_mask)
    if stop is not None:
        return stop
    if k.trick_index == 0 and k.rules.first_trick_banned & HEARTS_MASK:
        return highest(f)  # the first trick carries no points: shed a high club
    if SUIT_OF[best] == 3 and f & QS_BIT and best > QUEEN_SPADES:
        return QUEEN_SPADES  # A♠ or K♠ is winning: drop the queen under it
    points = bool(trick_mask & k.rules.point_cards)
    return _duck(f, best, len(k.trick) == k.players - 1, points)


def _take_from_moon(k: Knowledge, f: int, best: int, winner: int, trick_mask: int) -> int | None:
    """The card of ``f`` that takes this trick's points (or hearts) from the
    seat winning it when that seat is shooting the moon, Q♠ only when
    nothing else wins; None when there is no moon to stop here."""
    if not trick_mask & (k.rules.point_cards | HEARTS_MASK) or not _feeding_moon(k, winner):
        return None
    over = f & ~below(best)
    if not over:
        return None
    return highest(over & NOT_QS or over)  # take a point to stop the moon


def _feeding_moon(k: Knowledge, winner: int) -> bool:
    """Whether the seat winning the trick is the one shooting the moon."""
    threat = moon_threat(k)
    return threat is not None and winner == threat


def _duck(f: int, best: int, last: bool, points: bool) -> int:
    """The highest card of ``f`` that still loses to ``best``; when each
    wins, the lowest, or the highest when ``last`` (never Q♠ if another
    will do)."""
    if last and not points:
        # Winning costs nothing: shed the highest card (never the queen).
        return highest(f & NOT_QS or f)
    under = f & below(best)
    if under:
        return highest(under)
    safe = f & NOT_QS or f
    if last:
        return highest(safe)
    return lowest(safe)


def discard(k: Knowledge, legal: int) -> int:
    """Throw away a card when void in the led suit."""
    _best, winner, _ = trick_state(k)
    if not _feeding_moon(k, winner):
        if legal & QS_BIT:
            return QUEEN_SPADES
        if k.unseen & QS_BIT and legal & HIGH_SPADES:
            return highest(legal & HIGH_SPADES)
        hearts = legal & HEARTS_MASK
        if hearts:
            return highest(hearts)
    safe = legal & ~k.rules.point_cards or legal
    return shed(k, safe)


def shed(k: Knowledge, cards: int) -> int:
    """The most dangerous card of ``cards``: high, and from a short suit
    (discarding from the shortest suit voids it soonest)."""
    tops = [highest(cards & SUIT_MASKS[suit]) for suit in range(4) if cards & SUIT_MASKS[suit]]

    def danger(c: int) -> tuple[int, int]:
        suit = SUIT_MASKS[c // 13]
        lower_out = (k.unseen & suit & below(c)).bit_count()
        held = (k.hand & suit).bit_count()
        return (lower_out * 2 + rank(c) - held, c)

    return max(tops, key=danger)


def moon_play(k: Knowledge) -> int:
    """Play for every point: lead and follow high, discard low non-points."""
    legal = k.legal
    if not k.trick:
        return max(
            cards_of(legal), key=lambda c: (rank(c), (k.hand & SUIT_MASKS[c // 13]).bit_count())
        )
    f = legal & SUIT_MASKS[SUIT_OF[k.trick[0]]]
    if f:
        best, _, _ = trick_state(k)
        over = f & ~below(best)
        return highest(over) if over else lowest(f)
    safe = legal & ~k.rules.point_cards or legal
    return min(cards_of(safe), key=lambda c: (rank(c), c))


PENALTY_VARIANTS = frozenset({"spot", "black_maria", "domino", "cancellation"})
"""Variants whose costly cards are not the standard hearts and Q♠ (or that
deal two decks): Medium plays them by the card penalties instead."""


def penalty_play(k: Knowledge) -> int:
    """Medium's card under a variant's own penalties (docs/rules.md
    "Variants"): the same habits read from the penalty of each card rather
    than hearts and Q♠.

    * lead a costly card that cannot win (every unseen card of its suit is
      higher: Spot's 2♥ once hearts are broken), which makes the others
      follow with theirs; else the free card (one that costs nothing) most
      likely to lose: the fewest unseen lower cards of its suit, the
      lowest first; but first a
      low card of a side suit whose costly cards (Black Maria's A♠ K♠ Q♠)
      are all out, to make their holders play them, and never a suit in
      which it holds a costly card itself (that invites the trick that
      forces it out);
    * follow with the highest card that still loses; when it must win, the
      lowest, or the highest when it plays last to a trick worth nothing;
    * void in the led suit: shed the costliest card, the highest first;
    * stop a moon: when another seat has every moon card taken so far
      (``SPOT_MOON_ALERT`` or more) and is winning a trick with one, take
      it from it if we can, and never throw it a point.
    """
    if not k.trick:
        return _penalty_lead(k)
    return _penalty_follow(k)


def _penalty_lead(k: Knowledge) -> int:
    """``penalty_play``'s lead: a costly sure loser, else the free card
    likeliest to lose, side suits ranked by ``_suit_tier``."""
    pen = k.rules.penalty
    unseen = k.unseen
    # Hearts are no side suit: their tier is always 1.
    tier = [1 if suit == 2 else _suit_tier(k, suit) for suit in range(4)]
    return min(cards_of(k.legal), key=lambda c: _penalty_lead_key(c, pen, unseen, tier))


def _suit_tier(k: Knowledge, suit: int) -> int:
    """How a lead of side suit ``suit`` fares: 0 when its costly cards are
    all out (smoke them out), 2 when we hold one (do not invite), else 1."""
    pen = k.rules.penalty
    costly = sum(1 << c for c in range(k.rules.deck_limit) if SUIT_OF[c] == suit and pen[c] > 0)
    if not costly:
        return 1
    if k.hand & costly:
        return 2
    return 0 if k.unseen & costly else 1


def _penalty_lead_key(
    c: int, pen: tuple[int, ...], unseen: int, tier: list[int]
) -> tuple[bool, int, int, int, int, int]:
    """How bad a lead ``c`` is, the smallest best: a costly card that may
    win last, then by its suit's tier, the unseen cards that undercut it
    and its rank."""
    lower = sum(1 for u in cards_of(unseen) if SUIT_OF[u] == SUIT_OF[c] and RANK_OF[u] < RANK_OF[c])
    # A costly card none of the unseen cards of its suit can
    # undercut loses for sure and makes the others follow with
    # theirs: the best lead of all.
    suit = SUIT_MASKS[SUIT_OF[c]] * (1 | 1 << 52)
    sure_loser = pen[c] > 0 and not lower and bool(unseen & suit)
    return (
        pen[c] > 0 and not sure_loser,
        -sure_loser,
        tier[SUIT_OF[c]],
        lower,
        RANK_OF[c],
        c,
    )


def _penalty_follow(k: Knowledge) -> int:
    """``penalty_play``'s card to a trick already led: stop a moon, else
    shed the costliest card when void, else duck (``_penalty_duck``)."""
    pen = k.rules.penalty
    cards = cards_of(k.legal)
    led = SUIT_OF[k.trick[0]]
    follow = [c for c in cards if SUIT_OF[c] == led]
    best = max(RANK_OF[c] for c in k.trick if SUIT_OF[c] == led)
    stop = _stop_moon(k, follow, best)
    if stop is not None:
        return stop
    if not follow:
        return max(cards, key=lambda c: (pen[c], RANK_OF[c], c))
    return _penalty_duck(k, follow, best)


def _penalty_duck(k: Knowledge, follow: list[int], best: int) -> int:
    """The costliest, highest card of ``follow`` that loses to rank
    ``best``; when each wins, the lowest free card, or the highest when
    last to a trick worth nothing."""
    pen = k.rules.penalty
    under = [c for c in follow if RANK_OF[c] < best]
    if under:
        return max(under, key=lambda c: (pen[c], RANK_OF[c], c))
    worth = sum(pen[c] for c in k.trick)
    last = not any(
        k.cards_left[s] and s != k.seat and s not in k.trick_seats for s in range(k.players)
    )
    if last and worth <= 0:
        return max(follow, key=lambda c: (-pen[c], RANK_OF[c], c))
    return min(follow, key=lambda c: (pen[c] > 0, RANK_OF[c], c))


def domino_play(k: Knowledge) -> int:
    """Medium's card in Domino Hearts (docs/rules.md "Domino Hearts").

    While the stock holds cards a seat that cannot follow draws until it
    can, so a trick of a suit other than hearts carries no points: it only
    decides who leads next. The leader never draws, and whoever draws holds
    more cards, drops out later and risks being the last seat holding
    cards, which takes what is left of the stock. So while the stock lasts
    Medium plays for the lead:

    * lead the highest card of the suit the others are likeliest to lack
      (the fewest unseen cards), so they draw and we keep the lead;
    * follow such a trick with a card that wins it when one can (the
      lowest that surely wins, else the highest), otherwise shed the
      highest card that loses;

    and with hearts in play or the stock empty it plays the penalty habits
    (``penalty_play``).
    """
    if not k.stock:
        return penalty_play(k)
    if not k.trick:
        return _domino_lead(k)
    return _domino_follow(k)


def _domino_lead(k: Knowledge) -> int:
    """``domino_play``'s lead: the highest card of the free suit the others
    are likeliest to lack (the penalty habits when no suit is free)."""
    pen = k.rules.penalty
    unseen = k.unseen
    legal = k.legal
    free = [s for s in range(4) if legal & SUIT_MASKS[s] and not pen[lowest(legal & SUIT_MASKS[s])]]
    if not free:
        return penalty_play(k)

    def scarce(s: int) -> tuple[int, int, int]:
        return ((unseen & SUIT_MASKS[s]).bit_count(), -(k.hand & SUIT_MASKS[s]).bit_count(), s)

    suit = min(free, key=scarce)
    return highest(legal & SUIT_MASKS[suit])


def _domino_follow(k: Knowledge) -> int:
    """``domino_play``'s card to a free trick of a side suit: the lowest
    card that surely wins it, else the highest that may, else the highest
    that loses (the penalty habits when the trick or our cards cost)."""
    pen = k.rules.penalty
    led = SUIT_OF[k.trick[0]]
    worth = sum(pen[c] for c in k.trick)
    f = k.legal & SUIT_MASKS[led]
    if not f or worth > 0 or any(pen[c] for c in cards_of(f)):
        return penalty_play(k)
    best, _, _ = trick_state(k)
    over = f & ~below(best)
    if over:
        # The lowest card above every unseen card of the suit wins surely.
        out = k.unseen & SUIT_MASKS[led]
        sure = over & ~below(highest(out)) if out else over
        return lowest(sure) if sure else highest(over)
    return highest(f)


SPOT_MOON_ALERT = 5
"""Moon cards one other seat must hold alone before Medium stops its moon
in a penalty variant (a Spot moon costs every other seat 104)."""


def _stop_moon(k: Knowledge, follow: list[int], best: int) -> int | None:
    """The card that keeps a moon from the seat winning this trick, or
    None when there is no moon to stop (or nothing to stop it with)."""
    if not k.rules.moon_cards or k.rules.decks != 1:
        return None
    threat = moon_threat(k, SPOT_MOON_ALERT)
    if threat is None or trick_state(k)[1] != threat:
        return None
    if follow:
        return _overtake_moon(k, follow, best)
    return _moon_free_discard(k)


def _overtake_moon(k: Knowledge, follow: list[int], best: int) -> int | None:
    """The card of ``follow`` that takes a trick holding a moon card from
    the seat shooting, or None (no moon card in it, or nothing higher)."""
    if not any(k.rules.moon_cards >> c & 1 for c in k.trick):
        return None
    over = [c for c in follow if RANK_OF[c] > best]
    if not over:
        return None
    last = len(k.trick) == k.players - 1
    # Last to play, the lowest winner will do; otherwise make sure.
    return min(over, key=lambda c: (RANK_OF[c], c)) if last else max(over)


def _moon_free_discard(k: Knowledge) -> int | None:
    """Void in the led suit: the highest card that is no moon card (a free
    one first), so the seat shooting gets no point; None when every card is
    a moon card."""
    pen = k.rules.penalty
    free = [c for c in cards_of(k.legal) if not k.rules.moon_cards >> c & 1]
    if not free:
        return None
    return max(free, key=lambda c: (pen[c] == 0, RANK_OF[c], c))
