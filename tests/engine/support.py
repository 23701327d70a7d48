"""Helpers for the engine tests: readable deals, play scripts, state snapshots.

A deal is written per seat as a short string of card texts (``"AC QS 2H"``);
cards a seat is not given explicitly are filled in deterministically: the
rest of the rules' deck, ascending, dealt round robin to the seats that are
still short. Tests that care about every card write all of them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

from engine.cards import card, card_text, cards_of, mask_of
from engine.hand import Hand, Phase
from engine.rules import Rules
from engine.variants import VARIANTS

HOLD = Rules(pass_cycle=("hold",))
"""Standard rules without passing: a hand starts in the play phase."""

CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
DIAMONDS = "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"
HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
SPADES = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"


def cards(texts: str) -> list[int]:
    """``"AC QS"`` -> the card ints."""
    return [card(t) for t in texts.split()]


def mask(texts: str) -> int:
    """``"AC QS"`` -> the bitmask."""
    return mask_of(cards(texts))


def texts(m: int) -> str:
    """A bitmask as ``"2C AC QS"`` (display order)."""
    return " ".join(card_text(c) for c in cards_of(m))


def build_deal(seats: Sequence[str], rules: Rules = HOLD) -> list[int]:
    """Masks for a deal from per-seat card texts, filling the rest.

    ``seats`` has one string per seat (possibly empty). The cards nobody was
    given go, ascending, round robin to the seats still short of a full hand.
    """
    t = rules.tables
    if len(seats) != t.players:
        raise ValueError(f"need {t.players} seats, got {len(seats)}")
    hands = [mask(s) for s in seats]
    given = 0
    for h in hands:
        if h & given:
            raise ValueError("a card was given to two seats")
        if h.bit_count() > t.hand_size:
            raise ValueError("a seat was given too many cards")
        given |= h
    rest = cards_of(t.deck & ~given)
    seat = 0
    for c in rest:
        while hands[seat].bit_count() >= t.hand_size:
            seat = (seat + 1) % t.players
        hands[seat] |= 1 << c
        seat = (seat + 1) % t.players
    return hands


def make_hand(seats: Sequence[str], rules: Rules = HOLD, hand_number: int = 1) -> Hand:
    """A ``Hand`` of the deal ``build_deal(seats, rules)``."""
    return Hand(rules, hand_number, build_deal(seats, rules))


def play_script(hand: Hand, script: str) -> None:
    """Play the cards of ``script`` in order, each by the seat to move (checked)."""
    for text in script.split():
        hand.play(hand.turn, card(text))


def snapshot(hand: Hand) -> tuple[Any, ...]:
    """Every field of ``hand`` as immutable values, to compare before/after."""
    out: list[Any] = []
    for name in Hand.__slots__:
        value = getattr(hand, name)
        if isinstance(value, list):
            value = tuple(value)
        out.append((name, value))
    return tuple(out)


@functools.cache
def _cached_rules(options: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules(**dict(options))


def cached_rules(**options: Any) -> Rules:
    """``Rules(**options)``, built once per distinct options (building the
    derived tables takes a few tens of milliseconds)."""
    return _cached_rules(tuple(sorted(options.items())))


def random_rules(rng: random.Random, players: int | None = None) -> Rules:
    """Rules with every option drawn at random (valid combinations only)."""
    n = players if players is not None else rng.choice((3, 4, 4, 4, 5, 6, 7, 8, 9, 10))
    cycles: list[tuple[str, ...]] = [("left",), ("right",), ("hold",), ("left", "right", "hold")]
    if n % 2 == 0:
        cycles += [("left", "right", "across", "hold"), ("left", "across", "right", "hold")]
    return cached_rules(
        players=n,
        pass_cycle=rng.choice(cycles),
        moon=rng.choice(("add", "subtract", "choice")),
        first_trick=rng.choice(("no_points", "no_queen", "anything")),
        queen_breaks_hearts=rng.choice((False, True)),
        end=rng.choice(("points", "hands")),
        end_at=rng.choice((1, 3, 50, 100)),
        bonus_card=rng.choice((None, "JD", "TD")),
    )


def random_passes(hand: Hand, rng: random.Random) -> None:
    """Every seat passes random cards through the checked path."""
    if hand.phase is not Phase.PASS:
        return
    for seat in rng.sample(range(hand.players), hand.players):
        hand.pass_cards(seat, rng.sample(hand.legal_pass_cards(seat), hand.rules.pass_count))


def random_step(hand: Hand, rng: random.Random) -> None:
    """One random legal action (checked path): one seat's pass, a play or the moon choice."""
    if hand.phase is Phase.PASS:
        seat = rng.choice([s for s in range(hand.players) if hand.passes[s] is None])
        hand.pass_cards(seat, rng.sample(hand.legal_pass_cards(seat), hand.rules.pass_count))
    elif hand.phase is Phase.PLAY:
        hand.play(hand.turn, rng.choice(hand.legal_cards()))
    elif hand.phase is Phase.MOON_CHOICE:
        assert hand.shooter is not None
        hand.choose_moon(hand.shooter, rng.choice(("add", "subtract")))


@contextmanager
def refused(kind: type[Exception], sentence: str) -> Iterator[None]:
    """Expect ``kind`` with exactly ``sentence`` as its message."""
    with pytest.raises(kind) as info:
        yield
    assert str(info.value) == sentence


def _tricks(*seat_cards: str) -> str:
    """Interleave per-seat card lists into one play script, trick by trick."""
    columns = [s.split() for s in seat_cards]
    return " ".join(" ".join(trick) for trick in zip(*columns, strict=True))


# Each seat holds one suit: seat 0 leads clubs every trick, nobody can follow,
# and seat 0 takes all 52 cards: a moon. Seat 3 (hearts only) may throw a heart
# on the first trick; seat 2 keeps Q♠ until trick 11.
MOON_DEAL = [CLUBS, DIAMONDS, SPADES, HEARTS]
MOON_PLAYS = _tricks(CLUBS, DIAMONDS, SPADES, HEARTS)

# Seat 1 wins trick 1 with A♣ (taking 2♥: 1 point) and leads 2♦ into seat 0's
# A♦; seat 0 then leads clubs to the end and takes 12 hearts and Q♠: 25
# points, which is not a moon. Seat 1 throws J♦ and 10♦ on seat 0's tricks.
TWENTY_FIVE_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD",
    "AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    SPADES,
    HEARTS,
]
TWENTY_FIVE_PLAYS = "2C AC 2S 2H  2D 3S 3H AD  " + _tricks(
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "4H 5H 6H 7H 8H 9H TH JH QH KH AH",
)

# Seat 3 must throw J♦ on trick 1 (its only card that is not a point), which
# seat 1 wins with A♣; seat 0 takes every other trick: all 13 hearts and Q♠
# (a moon) while J♦ went to seat 1 and 10♦ to seat 0.
MOON_BONUS_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD",
    "AC 2D 3D 4D 5D 6D 7D 8D 9D TD QD KD 2S",
    "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS AH",
    "JD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
]
MOON_BONUS_PLAYS = "2C AC 3S JD  2D 4S 2H AD  " + _tricks(
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "3D 4D 5D 6D 7D 8D 9D TD QD KD 2S",
    "5S 6S 7S 8S 9S TS JS QS KS AS AH",
    "3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
)


def rotate(seats: Sequence[str], k: int) -> list[str]:
    """The same deal moved ``k`` seats to the left: seat i's cards go to seat i+k."""
    n = len(seats)
    out = [""] * n
    for i, s in enumerate(seats):
        out[(i + k) % n] = s
    return out


# Seat 0 wins the first trick ("2C 3C 4C AC") and is left with Q♠ and hearts only.
QUEEN_AND_HEARTS_DEAL = ["AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "2C", "3C", "4C"]
# Seat 0 wins the first trick and is left with hearts only.
ALL_HEARTS_DEAL = ["AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "2C", "3C", "4C"]
# After "2C 3C 4C AC" seat 0 leads 2♠, seat 1 drops Q♠ on it and wins; seat 1
# holds 5♥ and 5♦ besides.
QUEEN_FIRST_DEAL = ["AC 2S", "2C QS 5H 5D", "3C 3S", "4C 4S"]
# Seat 3 wins the first trick ("2C 3C 4C AC") and leads 2♦; seat 0 holds 3♦ and 5♣.
FOLLOW_DEAL = ["2C 3D 5C", "3C 4D", "4C 5D", "AC 2D"]


def checked_playout(hand: Hand, rng: random.Random) -> list[int]:
    """What ``random_playout`` promises, through the checked path: each card
    uniformly among ``legal_cards()`` (index ``int(rng.random() * count)``,
    the first lead being forced and drawing nothing), "add" for a moon choice."""
    hand = hand.copy()
    while hand.phase is Phase.PLAY:
        legal = hand.legal_cards()
        if hand.trick_index == 0 and not hand.trick:
            assert len(legal) == 1
            choice = legal[0]
        else:
            choice = legal[int(rng.random() * len(legal))]
        hand.play(hand.turn, choice)
    if hand.phase is Phase.MOON_CHOICE:
        assert hand.shooter is not None
        hand.choose_moon(hand.shooter, "add")
    assert hand.scores is not None
    return list(hand.scores)


def random_variant_rules(variant: str, players: int, rng: random.Random) -> Rules:
    """Rules of ``variant`` with the host's free options drawn at random."""
    v = VARIANTS[variant]
    cycles: list[tuple[str, ...]] = [("left",), ("right",), ("hold",), ("left", "right", "hold")]
    if v.default_pass_cycle is not None:
        cycles = [v.default_pass_cycle]
    return Rules(
        variant=variant,
        players=players,
        pass_cycle=rng.choice(cycles),
        moon=rng.choice(v.moons),
        first_trick=rng.choice(v.first_tricks),
        queen_breaks_hearts=rng.choice((False, True)),
        bonus_card=rng.choice(v.bonus_cards),
    )
