"""Positions for the bot tests: full server states and the views they give.

Everything goes through the real pieces: ``engine.game.Game`` for the
hand, ``server.table_state.TableState`` for the table and
``server.redaction.seat_view`` for what a seat sees — the way the server
hands views to bots (the arena builds the same views from the same
function, ``protocol.seat_view``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from engine.cards import card, card_text, cards_of, mask_of
from engine.game import Game
from engine.hand import Hand, Phase
from engine.rules import Rules
from protocol.view import SeatView
from server.redaction import seat_view
from server.table_state import Seat, TableState

HOLD = Rules(pass_cycle=("hold",))
LEVELS = ("easy", "medium", "hard")


def mask(texts: str) -> int:
    """``"AC QS"`` -> bitmask."""
    return mask_of(card(t) for t in texts.split())


def texts(m: int) -> str:
    """Bitmask -> ``"2C AC QS"``."""
    return " ".join(card_text(c) for c in cards_of(m))


def deal_from(seats: Sequence[str], rules: Rules = HOLD) -> list[int]:
    """Hands from per-seat card texts; unnamed cards go round robin to the
    seats still short (ascending), so a test names only what matters."""
    t = rules.tables
    hands = [mask(s) if s else 0 for s in seats]
    given = 0
    for h in hands:
        assert not h & given, "a card was named twice"
        given |= h
    seat = 0
    for c in cards_of(t.deck & ~given):
        while hands[seat].bit_count() >= t.hand_size:
            seat = (seat + 1) % t.players
        hands[seat] |= 1 << c
        seat = (seat + 1) % t.players
    return hands


def bot_table(rules: Rules, levels: Sequence[str], seed: int) -> TableState:
    """A table of bots, as the server holds it, with a fresh game."""
    seats = [
        Seat(kind="bot", name=f"{level.title()} bot", bot_level=level, connected=True)
        for level in levels
    ]
    return TableState(
        table_id="arena",
        code="ARENA",
        name="Arena",
        public=False,
        rules=rules,
        seed=seed,
        seats=seats,
        status="playing",
        game=Game(rules),
    )


def table_of(hand: Hand, totals: Sequence[int] | None = None) -> TableState:
    """A table of bots whose current hand is ``hand``."""
    table = bot_table(hand.rules, ["medium"] * hand.players, 7)
    assert table.game is not None  # bot_table starts a game
    table.game.hand = hand
    if totals is not None:
        table.game.totals = list(totals)
    return table


def scripted(
    seats: Sequence[str], plays: str = "", rules: Rules = HOLD, hand_number: int = 1
) -> TableState:
    """A table after the given (checked) plays from the given deal."""
    hand = Hand(rules, hand_number, deal_from(seats, rules))
    for text in plays.split():
        hand.play(hand.turn, card(text))
    return table_of(hand)


def view_of(table: TableState, seat: int) -> SeatView:
    """What ``seat`` sees."""
    return seat_view(table, seat)


def random_table(seed: int, rules: Rules | None = None, plays: int | None = None) -> TableState:
    """A random position: a random deal (hand number by seed, so every pass
    direction shows up), random passes, then ``plays`` random legal cards
    (random count if None). May stop in the pass phase (``plays == -1``)."""
    rules = rules or Rules()
    rng = random.Random(seed)
    hand = Hand.deal(rules, seed % 4 + 1, rng)
    if plays is None:
        plays = rng.randrange(-1, 52)
    if plays >= 0 and hand.phase is Phase.PASS:
        for s in range(hand.players):
            hand.pass_cards(s, rng.sample(hand.legal_pass_cards(s), rules.pass_count))
    elif hand.phase is Phase.PASS:
        # Some seats may already have locked their passes.
        for s in range(hand.players):
            if rng.random() < 0.5 and s != 0:
                hand.pass_cards(s, rng.sample(hand.legal_pass_cards(s), rules.pass_count))
    for _ in range(max(plays, 0)):
        if hand.phase is not Phase.PLAY:
            break
        hand.play(hand.turn, rng.choice(hand.legal_cards()))
    return table_of(hand)


def deciding_seats(table: TableState) -> list[int]:
    """The seats asked for a decision in this position."""
    assert table.game is not None and table.game.hand is not None
    hand = table.game.hand
    if hand.phase is Phase.PASS:
        return [s for s in range(hand.players) if hand.passes[s] is None]
    if hand.phase is Phase.PLAY:
        return [hand.turn]
    if hand.phase is Phase.MOON_CHOICE:
        assert hand.shooter is not None
        return [hand.shooter]
    return []


def random_positions(count: int, seed: int = 0, rules: Rules | None = None) -> Iterator[TableState]:
    """``count`` random positions where some seat has a decision to make."""
    made = 0
    s = seed
    while made < count:
        table = random_table(s, rules)
        s += 1
        if deciding_seats(table):
            made += 1
            yield table


def copy_table(table: TableState) -> TableState:
    """An independent copy of a table's hand and totals."""
    assert table.game is not None and table.game.hand is not None
    return table_of(table.game.hand.copy(), table.game.totals)


def public_restrictions(hand: Hand) -> set[int]:
    """Seats whose suit make-up the public history constrains: they showed
    out of a suit or led a heart before hearts were broken. Recomputed from
    the history here, independently of ``bots.knowledge``."""
    seats: set[int] = set()
    broken = False
    tricks = [(leader, list(cards)) for leader, cards, _ in hand.history]
    if hand.trick:
        tricks.append((hand.leader, list(hand.trick)))
    n = hand.players
    for index, (leader, cards) in enumerate(tricks):
        led = cards[0] // 13
        if index and not broken and led == 2:
            seats.add(leader)
        for i, c in enumerate(cards):
            if c // 13 != led:
                seats.add((leader + i) % n)
            if 1 << c & hand.rules.tables.breakers:
                broken = True
    return seats


def swap_hidden(table: TableState, viewer: int, rng: random.Random) -> TableState | None:
    """Another full state the viewer cannot tell apart from ``table``: two
    unplayed cards change hands between two other seats. Same-suit swaps keep
    every seat's suit make-up; a cross-suit swap is only made between seats
    the public history says nothing about. Cards the viewer passed stay put
    (it knows where they are), and so do cards in a locked pass."""
    assert table.game is not None and table.game.hand is not None
    hand = table.game.hand
    n = hand.players
    others = [s for s in range(n) if s != viewer]
    fixed = 0
    if hand.phase is Phase.PASS:
        for p in hand.passes:
            fixed |= p or 0
    elif hand.passes[viewer]:
        fixed |= hand.passes[viewer] or 0
    restricted = public_restrictions(hand)
    options: list[tuple[int, int, int, int]] = []
    for i, a in enumerate(others):
        for b in others[i + 1 :]:
            for x in cards_of(hand.hands[a] & ~fixed):
                for y in cards_of(hand.hands[b] & ~fixed):
                    same = x // 13 == y // 13
                    if same or not ({a, b} & restricted):
                        options.append((a, b, x, y))
    if not options:
        return None
    a, b, x, y = rng.choice(options)
    other = copy_table(table)
    assert other.game is not None and other.game.hand is not None
    h = other.game.hand
    h.hands[a] ^= 1 << x | 1 << y
    h.hands[b] ^= 1 << x | 1 << y
    return other


def hand_of(table: TableState) -> Hand:
    """The table's current hand."""
    assert table.game is not None and table.game.hand is not None
    return table.game.hand


def stocked_hand(rules: Rules, seats: Sequence[str], stock: str = "", hand_number: int = 1) -> Hand:
    """A hand of a variant with face-down cards (a widow, a domino stock):
    ``stock`` names face-down cards (top first), ``seats`` some of each
    seat's cards; the other cards fill the seats round robin as in
    ``deal_from``, and what does not fit joins the stock, ascending."""
    from engine.dealing import new_hand

    t = rules.tables
    hands = [mask(s) if s else 0 for s in seats]
    face_down = [card(x) for x in stock.split()]
    given = mask_of(face_down)
    for h in hands:
        assert not h & given, "a card was named twice"
        given |= h
    seat = 0
    for c in cards_of(t.deck & ~given):
        if all(h.bit_count() >= t.hand_size for h in hands):
            face_down.append(c)
            continue
        while hands[seat].bit_count() >= t.hand_size:
            seat = (seat + 1) % t.players
        hands[seat] |= 1 << c
        seat = (seat + 1) % t.players
    return new_hand(rules, hand_number, hands, face_down)
