"""A table's rules as data.

``Rules`` holds every option docs/rules.md names (defaults = the standard game of
seed 000) and the named variant (``engine.variants``). Nothing else in the
engine asks "how many players" or "which variant": the hand state machine
reads the derived tables built here once per rules object (deck, cards per
seat, the face-down stock, first lead, penalty per card, the cards a moon
needs and how it scores). That is how 3-10 players, other penalty schemes,
a bonus card or two decks change the game without ``if players == 4``
anywhere else; the few mechanics that are not data (the widow, the domino
stock, cancelled cards) are steps of ``engine.variant_hand``.

JSON form (hand records, the wire): ``Rules.to_json()`` / ``Rules.from_json()``;
see docs/hand-record.md. A standard game's JSON has no ``variant`` field,
exactly as before variants existed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from .cards import (
    FULL_DECK,
    FULL_DECK2,
    HEARTS,
    QUEEN_SPADES,
    SUIT_MASK13,
    SUIT_MASKS,
    SUIT_MASKS2,
    card,
    card_label,
    card_text,
)
from .variants import (
    DOMINO_HAND,
    PENALTIES,
    TRIM_ORDER,
    TWO_SPADES,
    VARIANT_NAMES,
    VARIANTS,
    Variant,
)

PassDirection = Literal["left", "right", "across", "hold"]
MoonScoring = Literal["add", "subtract", "choice", "jackpot", "transfer", "none"]
FirstTrick = Literal["no_points", "no_queen", "no_hearts", "anything"]
GameEnd = Literal["points", "hands"]

PASS_DIRECTIONS: tuple[str, ...] = ("left", "right", "across", "hold")
MOON_SCORINGS: tuple[str, ...] = ("add", "subtract", "choice", "jackpot", "transfer", "none")
FIRST_TRICK_RULES: tuple[str, ...] = ("no_points", "no_queen", "no_hearts", "anything")
GAME_ENDS: tuple[str, ...] = ("points", "hands")
BONUS_CARDS: tuple[str, ...] = ("JD", "TD")

# Named pass cycles from the seeds (000, 001, 003): the host picks one.
PASS_CYCLES: dict[str, tuple[str, ...]] = {
    "left,right,across,hold": ("left", "right", "across", "hold"),
    "left,across,right,hold": ("left", "across", "right", "hold"),
    "left": ("left",),
    "right": ("right",),
    "none": ("hold",),
}

# A card's playout code (``RuleTables.play_codes``) packs what the random
# playout needs to know about a played card into one small int, so a trick is
# scored by adding codes: its positive penalty in the low byte, one
# ``CODE_BONUS`` if it is the bonus card and one ``CODE_BREAK`` if it breaks
# hearts. Summed over a trick or a taken pile the fields cannot overflow into
# each other (positive points <= 104, one bonus card, at most 14 breakers).
# The playout relies on the positive cards being hearts and spades and the
# bonus a diamond (true of every variant it plays fast).
CODE_BONUS = 1 << 8
CODE_BREAK = 1 << 12


class RulesError(ValueError):
    """Rules that cannot be played (unknown option, bad value, or an option
    the variant forbids)."""


@dataclass(frozen=True)
class RuleTables:
    """Derived lookup tables; built once per ``Rules``."""

    players: int
    variant: str
    # 1, or 2: card c + 52 is the second copy of card c
    decks: int
    # every card int of these rules is below this (52 or 104)
    card_limit: int
    deck: int
    deck_cards: tuple[int, ...]
    hand_size: int
    # cards dealt face down (widow, domino stock, cancellation rest)
    stock_size: int
    # "trim", "widow", "domino" or "rest" (engine.variants.Variant.deal)
    deal_kind: str
    # The first lead: the lowest club in the deck (``-1`` for "rotating":
    # seat (hand - 1) % n leads any card). With a stock the card may lie
    # face down; the hand then asks for the lowest club dealt.
    first_lead: int
    rotating_lead: bool
    # follow-suit masks (both copies of a suit with two decks)
    suit_masks: tuple[int, int, int, int]
    hearts: int
    penalty: tuple[int, ...]
    # penalty of a 13-bit suit mask, per suit (one deck's cards; a second
    # copy costs the same): scoring a taken pile costs four lookups (eight
    # with two decks) instead of a loop over its cards.
    suit_penalty: tuple[tuple[int, ...], ...]
    # the sum of every card's penalty in the deck (the bonus card included)
    total_penalty: int
    moon: str
    # the cards a moon needs; 0 when the rules have no moon
    moon_cards: int
    # what the moon cards are worth together (26 in the standard game; 16
    # in Omnibus, whose jackpot includes the -10 bonus card)
    moon_points: int
    # what a moon is worth: the positive penalties of the deck (26; Spot 104,
    # Black Maria 43, Cancellation 52)
    moon_value: int
    point_cards: int
    # Cards that may not be discarded on the first trick (docs/rules.md rule 5).
    first_trick_banned: int
    first_trick_refusal: str
    # Cards whose play breaks hearts (rule 6; Q♠ too when the option says so).
    breakers: int
    pass_offsets: tuple[int, ...]
    bonus: int
    bonus_points: int
    # the standard hand state machine and the fast playout kernel play
    # these rules (no stock, one deck, every seat in every trick)
    fast: bool
    # ``1 << card`` per card of ``deck_cards``: the deal shuffles these.
    deck_bits: tuple[int, ...]
    # The deal's Fisher-Yates steps, per seat from the last to the second:
    # ``(seat, ((i, float(i + 1)), ...))`` for the deck positions ``i`` that
    # seat receives. The first seat gets what is left, so it draws nothing.
    deal_steps: tuple[tuple[int, tuple[tuple[int, float], ...]], ...]
    # followers[s]: the seats that play after ``s`` leads, in play order.
    followers: tuple[tuple[int, ...], ...]
    # play_codes[suit][rank]: the card's playout code (see ``CODE_BONUS``).
    play_codes: tuple[tuple[int, ...], ...]
    # Per suit, the 13-bit mask of ranks not banned on the first trick.
    first_trick_allowed: tuple[int, ...]


# Fields a JSON ``null`` (or absence) leaves to the variant's default.
_VARIANT_DEFAULTED = ("players", "pass_cycle", "moon", "first_trick")


@dataclass(frozen=True)
class Rules:
    """A table's rules. Every field is an option of docs/rules.md; defaults are
    the standard game, or the variant's own (docs/rules.md "Variants")."""

    # 0 means the variant's usual count (4; Black Maria 3; Cancellation 8)
    players: int = 0
    # () means the variant's cycle, else the usual one for the player count:
    # left, right, across, hold with an even count; left, right, hold with an
    # odd one (no seat is across).
    pass_cycle: tuple[str, ...] = ()
    pass_count: int = 3
    # "" means the variant's default (add; Omnibus jackpot; Greek transfer;
    # Domino none)
    moon: str = ""
    # "" means the variant's default (no_points; Domino anything;
    # Cancellation no_hearts)
    first_trick: str = ""
    queen_breaks_hearts: bool = False
    end: str = "points"
    end_at: int = 100
    # "" means the variant's default (none; JD in Omnibus)
    bonus_card: str | None = ""
    variant: str = "standard"
    tables: RuleTables = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise RulesError(f"variant must be one of {', '.join(VARIANT_NAMES)}")
        v = VARIANTS[self.variant]
        # Each option is settled (the variant's default filled in) and then
        # checked against the variant, in the order docs/rules.md lists them.
        self._settle_players(v)
        self._settle_pass_cycle(v)
        self._settle_moon(v)
        self._settle_first_trick(v)
        if self.end not in GAME_ENDS:
            raise RulesError("end must be points or hands")
        if not isinstance(self.end_at, int) or self.end_at < 1:
            raise RulesError("end_at must be a positive number")
        self._settle_bonus_card(v)
        object.__setattr__(
            self,
            "tables",
            _build_tables(
                self.variant,
                self.players,
                self.pass_cycle,
                self.first_trick,
                self.queen_breaks_hearts,
                self.bonus_card,
                self.moon,
            ),
        )
        if not isinstance(self.pass_count, int) or not (
            0 <= self.pass_count <= self.tables.hand_size
        ):
            raise RulesError("pass_count is out of range")

    def _settle(self, name: str, value: object) -> None:
        # The dataclass is frozen: defaults are filled in once, here.
        object.__setattr__(self, name, value)

    def _settle_players(self, v: Variant) -> None:
        if self.players == 0:
            self._settle("players", v.default_players)
        if isinstance(self.players, int) and self.players in v.players:
            return
        low, high = v.players[0], v.players[-1]
        if self.variant == "standard":
            raise RulesError(f"players must be between {low} and {high}")
        count = f"{low} players" if low == high else f"{low} to {high} players"
        raise RulesError(f"{v.title} is played by {count}")

    def _settle_pass_cycle(self, v: Variant) -> None:
        if self.pass_cycle == ():
            self._settle("pass_cycle", _default_pass_cycle(v, self.players))
        problem = _pass_cycle_problem(v, self.pass_cycle, self.players, self.pass_count)
        if problem:
            raise RulesError(problem)

    def _settle_moon(self, v: Variant) -> None:
        if self.moon == "":
            self._settle("moon", v.moons[0])
        if self.moon not in MOON_SCORINGS:
            raise RulesError("moon must be add, subtract or choice")
        if self.moon not in v.moons:
            raise RulesError(f"{v.title} scores the moon as {' or '.join(v.moons)}")

    def _settle_first_trick(self, v: Variant) -> None:
        if self.first_trick == "":
            self._settle("first_trick", v.first_tricks[0])
        if self.first_trick not in FIRST_TRICK_RULES:
            raise RulesError("first_trick must be no_points, no_queen or anything")
        if self.first_trick not in v.first_tricks:
            raise RulesError(f"{v.title} allows first_trick {' or '.join(v.first_tricks)}")

    def _settle_bonus_card(self, v: Variant) -> None:
        if self.bonus_card == "":
            self._settle("bonus_card", v.bonus_cards[0])
        if self.bonus_card is not None and self.bonus_card not in BONUS_CARDS:
            raise RulesError("bonus_card must be JD, TD or null")
        if self.bonus_card in v.bonus_cards:
            return
        if self.bonus_card is None:
            raise RulesError(f"{v.title} needs a bonus card (JD or TD)")
        raise RulesError(f"{v.title} has no bonus card")

    def pass_direction(self, hand_number: int) -> str:
        """The pass direction of 1-based hand ``hand_number``."""
        return self.pass_cycle[(hand_number - 1) % len(self.pass_cycle)]

    def pass_offset(self, hand_number: int) -> int:
        """Seats to count to the left to find the receiver (0 = hold)."""
        offsets = self.tables.pass_offsets
        return offsets[(hand_number - 1) % len(offsets)]

    def to_json(self) -> dict[str, Any]:
        """The JSON object of docs/hand-record.md (``variant`` only when it is
        not the standard game, so older readers see what they always saw)."""
        out: dict[str, Any] = {
            "players": self.players,
            "pass_cycle": list(self.pass_cycle),
            "pass_count": self.pass_count,
            "moon": self.moon,
            "first_trick": self.first_trick,
            "queen_breaks_hearts": self.queen_breaks_hearts,
            "end": self.end,
            "end_at": self.end_at,
            "bonus_card": self.bonus_card,
        }
        if self.variant != "standard":
            out["variant"] = self.variant
        return out

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Build rules from their JSON object; missing fields take defaults
        (``null`` for players, pass_cycle, moon or first_trick too: the
        variant's own).

        Raises ``RulesError`` naming the offending field.
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesError("rules must be a JSON object")
        known = {f.name for f in fields(cls) if f.init}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rules field {unknown[0]!r}")
        kwargs: dict[str, Any] = {
            k: v for k, v in data.items() if not (v is None and k in _VARIANT_DEFAULTED)
        }
        _read_json_fields(kwargs)
        return cls(**kwargs)


def _read_json_fields(kwargs: dict[str, Any]) -> None:
    """Check the JSON types of the rules fields in ``kwargs`` and turn them
    into the fields' own (a named pass cycle, a bonus card's canonical
    spelling), in place; ``RulesError`` names the first field that is wrong."""
    if "variant" in kwargs and not isinstance(kwargs["variant"], str):
        raise RulesError("variant must be a name")
    if kwargs.get("pass_cycle") is not None:
        kwargs["pass_cycle"] = _pass_cycle_of(kwargs["pass_cycle"])
    _check_json_integers(kwargs)
    if "queen_breaks_hearts" in kwargs and not isinstance(kwargs["queen_breaks_hearts"], bool):
        raise RulesError("queen_breaks_hearts must be true or false")
    if isinstance(kwargs.get("bonus_card"), str):
        kwargs["bonus_card"] = _bonus_card_of(kwargs["bonus_card"])


def _check_json_integers(kwargs: dict[str, Any]) -> None:
    """``RulesError`` when a count in ``kwargs`` is no JSON integer (a JSON
    ``true`` is no count, though Python calls it an int)."""
    for name in ("players", "pass_count", "end_at"):
        if name in kwargs and (not isinstance(kwargs[name], int) or isinstance(kwargs[name], bool)):
            raise RulesError(f"{name} must be an integer")


def _pass_cycle_of(cycle: object) -> tuple[str, ...]:
    """A JSON pass_cycle: a named cycle or a list of directions."""
    if isinstance(cycle, str):
        if cycle not in PASS_CYCLES:
            raise RulesError(f"unknown pass_cycle {cycle!r}")
        return PASS_CYCLES[cycle]
    if isinstance(cycle, list):
        return tuple(cycle)
    raise RulesError("pass_cycle must be a list or a named cycle")


def _bonus_card_of(text: str) -> str:
    """A JSON bonus_card in its canonical spelling ("jd" is "JD")."""
    try:
        canonical = card_text(card(text))
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    if canonical not in BONUS_CARDS:
        raise RulesError("bonus_card must be JD, TD or null")
    return canonical


def moon_scores(raw: list[int], shooter: int, t: RuleTables, mode: str) -> list[int]:
    """A hand's points after ``shooter`` took every moon card, scored as
    ``mode`` ("add", "subtract", "jackpot" or "transfer"; docs/rules.md).

    The shooter's moon cards stop counting (its other cards, such as a bonus
    card that is not part of the moon, still do); then "add" gives every
    other seat the moon's value, "subtract" and "jackpot" take it from the
    shooter, and "transfer" (Greek) does both: each other seat pays the
    value to the shooter.
    """
    out = raw[:]
    out[shooter] -= t.moon_points
    value = t.moon_value
    if mode in ("subtract", "jackpot"):
        out[shooter] -= value
        return out
    for s in range(len(out)):
        if s != shooter:
            out[s] += value
    if mode == "transfer":
        out[shooter] -= value * (len(out) - 1)
    return out


def _deal_shape(variant: str, players: int) -> tuple[int, int, int]:
    """(deck, hand size, stock size) of a variant and seat count."""
    v = VARIANTS[variant]
    n = players
    if v.deal == "trim":
        deck = FULL_DECK
        for c in TRIM_ORDER[: 52 % n]:
            deck &= ~(1 << c)
        return deck, 52 // n, 0
    if v.deal == "widow":
        # 3 or 4 players: 2♠ out (51 cards), 16 or 12 each, 3 in the widow;
        # 5 or 6: the full deck, 10 or 8 each, 2 or 4 in the widow.
        deck = FULL_DECK & ~(1 << TWO_SPADES) if n <= 4 else FULL_DECK
        count = deck.bit_count()
        size = (count - 1) // n
        return deck, size, count - size * n
    if v.deal == "domino":
        return FULL_DECK, DOMINO_HAND, 52 - DOMINO_HAND * n
    size = 104 // n
    return FULL_DECK2, size, 104 - size * n


def _first_trick_sentence(banned: int) -> str:
    base = banned | banned >> 52
    if not base:
        return ""
    hearts = bool(base & SUIT_MASKS[HEARTS])
    others = [card_label(c) for c in range(52) if base >> c & 1 and c // 13 != HEARTS]
    parts = (["hearts"] if hearts else []) + others
    if len(parts) == 1:
        return f"no {parts[0]} on the first trick"
    return f"no {', '.join(parts[:-1])} or {parts[-1]} on the first trick"


def _default_pass_cycle(v: Variant, players: int) -> tuple[str, ...]:
    """The variant's own cycle, else the usual one for the seat count: left,
    right, across, hold with an even count; left, right, hold with an odd
    one (no seat is across)."""
    if v.default_pass_cycle is not None:
        return v.default_pass_cycle
    if players % 2:
        return ("left", "right", "hold")
    return PASS_CYCLES["left,right,across,hold"]


def _pass_cycle_problem(v: Variant, cycle: tuple[str, ...], players: int, count: int) -> str:
    """Why ``cycle`` is no pass cycle of the variant at ``players`` seats
    ("" when it is one)."""
    problem = _directions_problem(cycle, players)
    if problem:
        return problem
    if not v.passing and set(cycle) != {"hold"}:
        return f"{v.title} has no passing"
    if v.name == "greek" and (cycle != ("right",) or count != 3):
        return "Greek Hearts passes 3 cards to the right every hand"
    return ""


def _directions_problem(cycle: tuple[str, ...], players: int) -> str:
    """Why ``cycle`` is no list of pass directions at ``players`` seats, in
    any variant ("" when it is one)."""
    if not cycle or any(d not in PASS_DIRECTIONS for d in cycle):
        return "pass_cycle must list left, right, across or hold"
    if "across" in cycle and players % 2:
        return "passing across needs an even number of players"
    return ""


def _penalties(v: Variant, limit: int, bonus_card: str | None) -> tuple[list[int], int, int]:
    """(penalty of each card, the bonus card or -1, the bonus card's points):
    the variant's penalties, with the bonus card's -10 where it is played."""
    base_penalty = PENALTIES[v.penalty]
    penalty = [base_penalty(c % 52) for c in range(limit)]
    if bonus_card is None:
        return penalty, -1, 0
    bonus = card(bonus_card)
    penalty[bonus] = -10
    return penalty, bonus, -10


def _moon_cards(moon: str, positive: int, bonus: int) -> int:
    """The cards a shooter must take: every penalty card, plus the bonus card
    in the jackpot scoring (Omnibus); none where the moon is not scored."""
    if moon == "none":
        return 0
    if moon == "jackpot" and bonus >= 0:
        return positive | 1 << bonus
    return positive


def _mask(cards: Iterable[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def _points(penalty: list[int], cards: int) -> int:
    """The penalty points of the cards of mask ``cards``."""
    return sum(p for c, p in enumerate(penalty) if cards >> c & 1)


def _suit_penalties(penalty: list[int]) -> tuple[tuple[int, ...], ...]:
    """Per suit, the points of every 13-bit rank mask (8192 entries a suit):
    a trick's points are four lookups, not a loop over its cards."""

    tables: list[tuple[int, ...]] = []
    for s in range(4):
        row = [0] * (1 << 13)
        for ranks in range(1, 1 << 13):
            # A mask's points are those of the mask without its lowest
            # rank plus that rank's: one addition an entry, not thirteen.
            low = ranks & -ranks
            row[ranks] = row[ranks ^ low] + penalty[s * 13 + low.bit_length() - 1]
        tables.append(tuple(row))
    return tuple(tables)


def _play_codes(
    penalty: list[int], positive: int, bonus: int, breakers: int
) -> tuple[tuple[int, ...], ...]:
    """Per suit and rank, a card's code for the fast trick loop: its penalty
    (penalty cards only) plus the bonus and heart-breaking flags."""

    def code(c: int) -> int:
        points = penalty[c] if positive >> c & 1 else 0
        flags = (CODE_BONUS if c == bonus else 0) | (CODE_BREAK if breakers >> c & 1 else 0)
        return points + flags

    return tuple(tuple(code(s * 13 + r) for r in range(13)) for s in range(4))


def _deal_steps(players: int, size: int) -> tuple[tuple[int, tuple[tuple[int, float], ...]], ...]:
    """The fast deal's Fisher–Yates steps, seat by seat from the last."""

    def steps(seat: int) -> tuple[tuple[int, float], ...]:
        top = seat * size + size - 1
        return tuple((i, float(i + 1)) for i in range(top, seat * size - 1, -1))

    return tuple((seat, steps(seat)) for seat in range(players - 1, 0, -1))


def _penalty_cards(deck: int, penalty: list[int]) -> int:
    """The cards of ``deck`` that cost points (the bonus card does not)."""
    return _mask(c for c, p in enumerate(penalty) if deck >> c & 1 and p > 0)


def _first_trick_and_breakers(
    deck: int, two: bool, first_trick: str, queen_breaks_hearts: bool, positive: int
) -> tuple[int, int]:
    """(the cards of ``deck`` banned on the first trick, the cards that
    break hearts) under the first-trick rule and the Q♠ option; ``positive``
    are the deck's penalty cards, ``two``: a second deck (a second Q♠)."""
    hearts = (SUIT_MASKS2 if two else SUIT_MASKS)[HEARTS]
    queens = 1 << QUEEN_SPADES | (1 << QUEEN_SPADES + 52 if two else 0)
    banned = {
        "no_points": positive,
        "no_queen": queens & deck,
        "no_hearts": hearts & deck,
    }.get(first_trick, 0)
    return banned, hearts | (queens if queen_breaks_hearts else 0)


def _followers(n: int) -> tuple[tuple[int, ...], ...]:
    """Per leading seat, the seats that play after it, in play order."""
    return tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n))


@functools.cache
def _build_tables(
    variant: str,
    players: int,
    pass_cycle: tuple[str, ...],
    first_trick: str,
    queen_breaks_hearts: bool,
    bonus_card: str | None,
    moon: str,
) -> RuleTables:
    """The lookup tables of a rules combination. Cached: building them costs
    milliseconds (8192-entry suit tables) and tables, hands and hand records
    build rules objects often."""
    v = VARIANTS[variant]
    n = players
    deck, size, stock_size = _deal_shape(variant, n)
    limit = 52 * v.decks
    two = v.decks == 2
    clubs = deck & SUIT_MASK13
    first_lead = (clubs & -clubs).bit_length() - 1  # 2♣, or 3♣ when 2♣ is out
    penalty, bonus, bonus_points = _penalties(v, limit, bonus_card)
    positive = _penalty_cards(deck, penalty)
    moon_value = _points(penalty, positive)
    moon_cards = _moon_cards(moon, positive, bonus)
    suit_masks = SUIT_MASKS2 if two else SUIT_MASKS
    hearts = suit_masks[HEARTS]
    banned, breakers = _first_trick_and_breakers(
        deck, two, first_trick, queen_breaks_hearts, positive
    )
    offsets = {"left": 1, "right": n - 1, "across": n // 2, "hold": 0}
    deck_cards = tuple(c for c in range(limit) if deck >> c & 1)
    fast = v.deal == "trim"
    codes = _play_codes(penalty, positive, bonus, breakers)
    return RuleTables(
        players=n,
        variant=variant,
        decks=v.decks,
        card_limit=limit,
        deck=deck,
        deck_cards=deck_cards,
        hand_size=size,
        stock_size=stock_size,
        deal_kind=v.deal,
        first_lead=first_lead,
        rotating_lead=v.first_lead == "rotating",
        suit_masks=suit_masks,
        hearts=hearts,
        penalty=tuple(penalty),
        suit_penalty=_suit_penalties(penalty),
        total_penalty=sum(penalty[c] for c in deck_cards),
        moon=moon,
        moon_cards=moon_cards,
        moon_points=_points(penalty, moon_cards),
        moon_value=moon_value,
        point_cards=positive | (1 << bonus if bonus >= 0 else 0),
        first_trick_banned=banned,
        first_trick_refusal=_first_trick_sentence(banned),
        breakers=breakers,
        pass_offsets=tuple(offsets[d] for d in pass_cycle),
        bonus=bonus,
        bonus_points=bonus_points,
        fast=fast,
        deck_bits=tuple(1 << c for c in deck_cards),
        deal_steps=_deal_steps(n, size) if fast else (),
        followers=_followers(n),
        play_codes=codes,
        first_trick_allowed=tuple(~banned >> (s * 13) & SUIT_MASK13 for s in range(4)),
    )


STANDARD = Rules()
