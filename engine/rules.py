"""A table's rules as data.

``Rules`` holds every option docs/rules.md names (defaults = the standard game of
seed 000). Nothing else in the engine asks "how many players" or "which
variant": the hand state machine reads the derived tables built here once per
rules object (deck, cards per seat, first lead, penalty per card, the cards a
moon needs). That is how 3-6 players, other penalty schemes or a bonus card
change the game without ``if players == 4`` anywhere else.

JSON form (hand records, the wire): ``Rules.to_json()`` / ``Rules.from_json()``;
see docs/hand-record.md.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from .cards import (
    CLUBS,
    DIAMONDS,
    FULL_DECK,
    HEARTS,
    HEARTS_MASK,
    QUEEN_SPADES,
    SUIT_MASK13,
    card,
    card_text,
)

PassDirection = Literal["left", "right", "across", "hold"]
MoonScoring = Literal["add", "subtract", "choice"]
FirstTrick = Literal["no_points", "no_queen", "anything"]
GameEnd = Literal["points", "hands"]

PASS_DIRECTIONS: tuple[str, ...] = ("left", "right", "across", "hold")
MOON_SCORINGS: tuple[str, ...] = ("add", "subtract", "choice")
FIRST_TRICK_RULES: tuple[str, ...] = ("no_points", "no_queen", "anything")
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

# docs/rules.md "Variants": cards removed so the deck divides evenly. Deuces of
# the minor suits go first (3 players: 2♦; 5 players: 2♣ and 2♦), then the
# next lowest minor cards, so hearts and Q♠ (the 26 points) always stay in.
_TRIM_ORDER = tuple(suit * 13 + rank for rank in range(13) for suit in (DIAMONDS, CLUBS))


# A card's playout code (``RuleTables.play_codes``) packs what the random
# playout needs to know about a played card into one small int, so a trick is
# scored by adding codes: its moon-card penalty in the low byte, one
# ``CODE_BONUS`` if it is the bonus card and one ``CODE_BREAK`` if it breaks
# hearts. Summed over a trick or a taken pile the fields cannot overflow into
# each other (moon points <= 26, one bonus card, at most 14 breakers). The
# playout relies on the point cards being hearts, Q♠ and a diamond bonus.
CODE_BONUS = 1 << 8
CODE_BREAK = 1 << 12


class RulesError(ValueError):
    """Rules that cannot be played (unknown option, bad value)."""


@dataclass(frozen=True)
class RuleTables:
    """Derived lookup tables; built once per ``Rules``."""

    players: int
    deck: int
    deck_cards: tuple[int, ...]
    hand_size: int
    first_lead: int
    penalty: tuple[int, ...]
    # penalty of a 13-bit suit mask, per suit: scoring a taken pile costs
    # four lookups instead of a loop over its cards.
    suit_penalty: tuple[tuple[int, ...], ...]
    moon_cards: int
    # what the moon cards are worth together (26 in the standard game)
    moon_points: int
    point_cards: int
    # Cards that may not be discarded on the first trick (docs/rules.md rule 5).
    first_trick_banned: int
    # Cards whose play breaks hearts (rule 6; Q♠ too when the option says so).
    breakers: int
    pass_offsets: tuple[int, ...]
    bonus: int
    bonus_points: int
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


@dataclass(frozen=True)
class Rules:
    """A table's rules. Every field is an option of docs/rules.md; defaults are
    the standard game."""

    players: int = 4
    # () means the usual cycle for the player count: left, right, across, hold
    # with an even count; left, right, hold with an odd one (no seat is across).
    pass_cycle: tuple[str, ...] = ()
    pass_count: int = 3
    moon: str = "add"
    first_trick: str = "no_points"
    queen_breaks_hearts: bool = False
    end: str = "points"
    end_at: int = 100
    bonus_card: str | None = None
    tables: RuleTables = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 3 <= self.players <= 6:
            raise RulesError("players must be between 3 and 6")
        if self.pass_cycle == ():
            default = (
                ("left", "right", "hold")
                if self.players % 2
                else PASS_CYCLES["left,right,across,hold"]
            )
            object.__setattr__(self, "pass_cycle", default)
        if not self.pass_cycle or any(d not in PASS_DIRECTIONS for d in self.pass_cycle):
            raise RulesError("pass_cycle must list left, right, across or hold")
        if "across" in self.pass_cycle and self.players % 2:
            raise RulesError("passing across needs an even number of players")
        if self.moon not in MOON_SCORINGS:
            raise RulesError("moon must be add, subtract or choice")
        if self.first_trick not in FIRST_TRICK_RULES:
            raise RulesError("first_trick must be no_points, no_queen or anything")
        if self.end not in GAME_ENDS:
            raise RulesError("end must be points or hands")
        if not isinstance(self.end_at, int) or self.end_at < 1:
            raise RulesError("end_at must be a positive number")
        if self.bonus_card is not None and self.bonus_card not in BONUS_CARDS:
            raise RulesError("bonus_card must be JD, TD or null")
        object.__setattr__(
            self,
            "tables",
            _build_tables(
                self.players,
                self.pass_cycle,
                self.first_trick,
                self.queen_breaks_hearts,
                self.bonus_card,
            ),
        )
        if not isinstance(self.pass_count, int) or not (
            0 <= self.pass_count <= self.tables.hand_size
        ):
            raise RulesError("pass_count is out of range")

    def pass_direction(self, hand_number: int) -> str:
        """The pass direction of 1-based hand ``hand_number``."""
        return self.pass_cycle[(hand_number - 1) % len(self.pass_cycle)]

    def pass_offset(self, hand_number: int) -> int:
        """Seats to count to the left to find the receiver (0 = hold)."""
        offsets = self.tables.pass_offsets
        return offsets[(hand_number - 1) % len(offsets)]

    def to_json(self) -> dict[str, Any]:
        """The JSON object of docs/hand-record.md."""
        return {
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

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Build rules from their JSON object; missing fields take defaults.

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
        kwargs: dict[str, Any] = dict(data)
        cycle = kwargs.get("pass_cycle")
        if isinstance(cycle, str):
            if cycle not in PASS_CYCLES:
                raise RulesError(f"unknown pass_cycle {cycle!r}")
            kwargs["pass_cycle"] = PASS_CYCLES[cycle]
        elif isinstance(cycle, list):
            kwargs["pass_cycle"] = tuple(cycle)
        elif cycle is not None:
            raise RulesError("pass_cycle must be a list or a named cycle")
        for name in ("players", "pass_count", "end_at"):
            if name in kwargs and (
                not isinstance(kwargs[name], int) or isinstance(kwargs[name], bool)
            ):
                raise RulesError(f"{name} must be an integer")
        if "queen_breaks_hearts" in kwargs and not isinstance(kwargs["queen_breaks_hearts"], bool):
            raise RulesError("queen_breaks_hearts must be true or false")
        bonus = kwargs.get("bonus_card")
        if isinstance(bonus, str):
            try:
                kwargs["bonus_card"] = card_text(card(bonus))
            except ValueError as exc:
                raise RulesError(str(exc)) from None
            if kwargs["bonus_card"] not in BONUS_CARDS:
                raise RulesError("bonus_card must be JD, TD or null")
        return cls(**kwargs)


@functools.cache
def _build_tables(
    players: int,
    pass_cycle: tuple[str, ...],
    first_trick: str,
    queen_breaks_hearts: bool,
    bonus_card: str | None,
) -> RuleTables:
    """The lookup tables of a rules combination. Cached: building them costs
    milliseconds (8192-entry suit tables) and tables, hands and hand records
    build rules objects often."""
    n = players
    deck = FULL_DECK
    for c in _TRIM_ORDER[: 52 % n]:
        deck &= ~(1 << c)
    clubs = deck & SUIT_MASK13
    first_lead = (clubs & -clubs).bit_length() - 1  # 2♣, or 3♣ when 2♣ is out
    penalty = [0] * 52
    for c in range(HEARTS * 13, HEARTS * 13 + 13):
        penalty[c] = 1
    penalty[QUEEN_SPADES] = 13
    bonus = -1
    bonus_points = 0
    if bonus_card is not None:
        bonus = card(bonus_card)
        bonus_points = -10
        penalty[bonus] = bonus_points
    suit_penalty = tuple(
        tuple(sum(penalty[s * 13 + r] for r in range(13) if m >> r & 1) for m in range(1 << 13))
        for s in range(4)
    )
    moon_cards = (HEARTS_MASK | 1 << QUEEN_SPADES) & deck
    if first_trick == "no_points":
        banned = moon_cards
    elif first_trick == "no_queen":
        banned = 1 << QUEEN_SPADES
    else:
        banned = 0
    breakers = HEARTS_MASK | (1 << QUEEN_SPADES if queen_breaks_hearts else 0)
    offsets = {"left": 1, "right": n - 1, "across": n // 2, "hold": 0}
    deck_cards = tuple(c for c in range(52) if deck >> c & 1)
    size = len(deck_cards) // n
    # Moon cards all have positive penalties, so a pile's moon part reaches
    # moon_points exactly when the pile holds every moon card.
    codes = [
        (penalty[c] if moon_cards >> c & 1 else 0)
        + (CODE_BONUS if c == bonus else 0)
        + (CODE_BREAK if breakers >> c & 1 else 0)
        for c in range(52)
    ]
    return RuleTables(
        players=n,
        deck=deck,
        deck_cards=deck_cards,
        hand_size=size,
        first_lead=first_lead,
        penalty=tuple(penalty),
        suit_penalty=suit_penalty,
        moon_cards=moon_cards,
        moon_points=sum(penalty[c] for c in range(52) if moon_cards >> c & 1),
        point_cards=moon_cards | (1 << bonus if bonus >= 0 else 0),
        first_trick_banned=banned,
        breakers=breakers,
        pass_offsets=tuple(offsets[d] for d in pass_cycle),
        bonus=bonus,
        bonus_points=bonus_points,
        deck_bits=tuple(1 << c for c in deck_cards),
        deal_steps=tuple(
            (
                seat,
                tuple(
                    (i, float(i + 1)) for i in range(seat * size + size - 1, seat * size - 1, -1)
                ),
            )
            for seat in range(n - 1, 0, -1)
        ),
        followers=tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n)),
        play_codes=tuple(tuple(codes[s * 13 : s * 13 + 13]) for s in range(4)),
        first_trick_allowed=tuple(~banned >> (s * 13) & SUIT_MASK13 for s in range(4)),
    )


STANDARD = Rules()
