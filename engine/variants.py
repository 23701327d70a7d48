"""The named variants as data (docs/rules.md "Variants").

A ``Variant`` says what a variant changes: the seat counts it allows, its
decks, how cards are dealt (a face-down stock, a widow, a rest), the penalty
of each card, which options it fixes and which it leaves to the host, and
the few mechanics that are steps of the hand state machine rather than data
(the widow's take-and-discard, the domino stock's draws and seats dropping
out, the cancellation of identical cards). ``engine.rules`` turns a variant
and the host's options into the lookup tables the hand reads; nothing else
in the engine asks for a variant by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .cards import CLUBS, DIAMONDS, HEARTS, QUEEN_SPADES, SPADES

VARIANT_NAMES: tuple[str, ...] = (
    "standard",
    "omnibus",
    "spot",
    "greek",
    "black_maria",
    "domino",
    "widow",
    "cancellation",
)

# Cards removed so a deck divides evenly: deuces of the minor suits first
# (3 players: 2♦; 5 players: 2♣ and 2♦), then the next lowest minor cards,
# so hearts, Q♠ and the Omnibus bonus cards always stay in (9 players, the
# most removed, lose 2♦ 2♣ 3♦ 3♣ 4♦ 4♣ 5♦).
TRIM_ORDER: tuple[int, ...] = tuple(
    suit * 13 + rank for rank in range(13) for suit in (DIAMONDS, CLUBS)
)
TWO_SPADES = SPADES * 13
KING_SPADES = SPADES * 13 + 11
ACE_SPADES = SPADES * 13 + 12


def standard_penalty(c: int) -> int:
    """Each heart 1, Q♠ 13 (docs/rules.md "A hand" 8)."""
    if c // 13 == HEARTS:
        return 1
    return 13 if c == QUEEN_SPADES else 0


def spot_penalty(c: int) -> int:
    """Spot Hearts: a heart costs its rank (2-10 face value, J 11, Q 12, K 13,
    A 14); Q♠ costs nothing."""
    return c % 13 + 2 if c // 13 == HEARTS else 0


def hearts_only_penalty(c: int) -> int:
    """Domino Hearts: each heart 1, nothing else."""
    return 1 if c // 13 == HEARTS else 0


def black_maria_penalty(c: int) -> int:
    """Black Maria: Q♠ 13, K♠ 10, A♠ 7, each heart 1."""
    if c // 13 == HEARTS:
        return 1
    return {QUEEN_SPADES: 13, KING_SPADES: 10, ACE_SPADES: 7}.get(c, 0)


@dataclass(frozen=True)
class Variant:
    """What one named variant changes (see docs/rules.md for each)."""

    name: str
    title: str
    # seat counts it may be played with, and the count a table gets by default
    players: tuple[int, ...]
    default_players: int
    # 1, or 2 for Cancellation Hearts (card c + 52 is the second copy)
    decks: int
    # one-deck penalty of a card (both copies cost the same)
    penalty: str
    # options the host may choose, and their defaults; a tuple of one value
    # means the variant fixes it.
    moons: tuple[str, ...]
    first_tricks: tuple[str, ...]
    bonus_cards: tuple[str | None, ...]
    # None: the usual cycle for the seat count; else the variant's cycle
    default_pass_cycle: tuple[str, ...] | None
    passing: bool
    # how the deck is dealt: "trim" (remove the lowest minor cards until it
    # divides evenly, all dealt), "widow" (a widow of the leftover cards),
    # "domino" (6 each, the rest a stock), "rest" (as many as go round
    # equally, the rest face down to the first trick's winner)
    deal: str
    # the first lead: "lowest_club" (2♣, or the lowest club dealt) or
    # "rotating" (seat (hand - 1) % n leads any card)
    first_lead: str


def _v(**kw: object) -> Variant:
    return Variant(**kw)  # type: ignore[arg-type]


_STANDARD_OPTIONS: dict[str, object] = {
    "moons": ("add", "subtract", "choice"),
    "first_tricks": ("no_points", "no_queen", "anything"),
    "bonus_cards": (None, "JD", "TD"),
    "default_pass_cycle": None,
    "passing": True,
    "decks": 1,
    "deal": "trim",
    "first_lead": "lowest_club",
    "penalty": "standard",
}
_ALL_COUNTS = tuple(range(3, 11))

VARIANTS: MappingProxyType[str, Variant] = MappingProxyType(
    {
        "standard": _v(
            **_STANDARD_OPTIONS,
            name="standard",
            title="Hearts",
            players=_ALL_COUNTS,
            default_players=4,
        ),
        "omnibus": _v(
            **{
                **_STANDARD_OPTIONS,
                "bonus_cards": ("JD", "TD"),
                "moons": ("jackpot",),
                "default_pass_cycle": ("right",),
            },
            name="omnibus",
            title="Omnibus Hearts",
            players=_ALL_COUNTS,
            default_players=4,
        ),
        "spot": _v(
            **{**_STANDARD_OPTIONS, "bonus_cards": (None,), "penalty": "spot"},
            name="spot",
            title="Spot Hearts",
            players=_ALL_COUNTS,
            default_players=4,
        ),
        "greek": _v(
            **{
                **_STANDARD_OPTIONS,
                "bonus_cards": (None,),
                "moons": ("transfer",),
                "default_pass_cycle": ("right",),
            },
            name="greek",
            title="Greek Hearts",
            players=_ALL_COUNTS,
            default_players=4,
        ),
        "black_maria": _v(
            **{
                **_STANDARD_OPTIONS,
                "bonus_cards": (None,),
                "moons": ("add", "subtract", "choice", "none"),
                "penalty": "black_maria",
            },
            name="black_maria",
            title="Black Maria",
            players=(3,),
            default_players=3,
        ),
        "domino": _v(
            **{
                **_STANDARD_OPTIONS,
                "bonus_cards": (None,),
                "moons": ("none",),
                "first_tricks": ("anything",),
                "passing": False,
                "default_pass_cycle": ("hold",),
                "penalty": "hearts_only",
                "deal": "domino",
                "first_lead": "rotating",
            },
            name="domino",
            title="Domino Hearts",
            players=(3, 4, 5, 6, 7),
            default_players=4,
        ),
        "widow": _v(
            **{**_STANDARD_OPTIONS, "deal": "widow"},
            name="widow",
            title="Hearts with a widow",
            players=(3, 4, 5, 6),
            default_players=4,
        ),
        "cancellation": _v(
            **{
                **_STANDARD_OPTIONS,
                "bonus_cards": (None,),
                "first_tricks": ("no_hearts", "anything"),
                "passing": False,
                "default_pass_cycle": ("hold",),
                "decks": 2,
                "deal": "rest",
            },
            name="cancellation",
            title="Cancellation Hearts",
            players=(7, 8, 9, 10),
            default_players=8,
        ),
    }
)

PENALTIES = MappingProxyType(
    {
        "standard": standard_penalty,
        "spot": spot_penalty,
        "hearts_only": hearts_only_penalty,
        "black_maria": black_maria_penalty,
    }
)

DOMINO_HAND = 6  # cards each in Domino Hearts
