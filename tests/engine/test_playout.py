"""Fast random playouts (engine/playout.py): their draws and distributions
(the kernel against the checked ``Hand``: tests/engine/test_fast_path.py)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from hypothesis import strategies as st

from engine.cards import cards_of, mask_of
from engine.hand import Hand, Phase
from engine.playout import (
    random_card,
    random_hand,
    random_pass,
    random_pass_mask,
    random_playout,
    score_taken,
)
from engine.rules import Rules

from .support import (
    MOON_DEAL,
    MOON_PLAYS,
    build_deal,
    cached_rules,
    make_hand,
    mask,
    play_script,
    random_rules,
    refused,
    snapshot,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def fixed(*values: float) -> Callable[[], float]:
    """An ``rnd`` returning ``values`` in turn."""
    it = iter(values)
    return lambda: next(it)


def test_random_card_picks_the_kth_lowest_card() -> None:
    m = mask("2C 9D QS AH")  # display order 2C 9D AH QS
    assert random_card(m, fixed(0.0)) == cards_of(m)[0]
    assert random_card(m, fixed(0.5)) == cards_of(m)[2]
    assert random_card(m, fixed(0.9999)) == cards_of(m)[3]


def test_random_card_is_roughly_uniform() -> None:
    rng = random.Random(5)
    m = mask("2C 9D QS AH")
    counts = dict.fromkeys(cards_of(m), 0)
    for _ in range(4000):
        counts[random_card(m, rng.random)] += 1
    assert all(850 < n < 1150 for n in counts.values())


def test_a_playout_needs_the_play_phase() -> None:
    rules = Rules()
    hand = Hand(rules, 1, build_deal(["", "", "", ""], rules))
    with refused(ValueError, "random_playout needs a hand in the play phase"):
        random_playout(hand, random.Random(1))


@pytest.mark.parametrize(
    ("moon", "points"),
    [("add", [0, 26, 26, 26]), ("subtract", [-26, 0, 0, 0]), ("choice", [0, 26, 26, 26])],
)
def test_every_playout_of_the_one_suit_deal_is_a_moon(moon: str, points: list[int]) -> None:
    # seat 0 leads clubs every trick and nobody else holds one
    hand = make_hand(MOON_DEAL, cached_rules(pass_cycle=("hold",), moon=moon))
    for seed in range(5):
        assert random_playout(hand, random.Random(seed)) == points


def test_a_playout_leaves_the_hand_unchanged() -> None:
    hand = make_hand(["", "", "", ""])
    play_script(hand, "2C")
    before = snapshot(hand)
    random_playout(hand, random.Random(3))
    assert snapshot(hand) == before


def test_score_taken_matches_the_hands_own_scoring() -> None:
    hand = make_hand(MOON_DEAL, cached_rules(pass_cycle=("hold",), moon="subtract"))
    play_script(hand, MOON_PLAYS)
    assert hand.scores is not None
    assert score_taken(hand, hand.taken) == list(hand.scores)


def test_random_pass_gives_three_different_held_cards() -> None:
    rules = Rules()
    rng = random.Random(11)
    hand = Hand.deal(rules, 1, rng)
    for seat in range(4):
        chosen = random_pass(hand, seat, rng)
        assert len(set(chosen)) == 3
        assert hand.can_pass(seat, chosen)


def test_random_hand_passes_then_plays_out() -> None:
    rng = random.Random(2)
    hand = Hand.deal(Rules(), 1, rng)
    points = random_hand(hand, rng)
    assert hand.phase is Phase.PLAY  # passed in place, played out on copies
    assert all(p is not None for p in hand.passes)
    assert sum(h.bit_count() for h in hand.hands) == 52
    assert sum(points) in (26, 78)


def test_random_card_is_the_kth_lowest_in_every_suit() -> None:
    rng = random.Random(8)
    for _ in range(2000):
        m = rng.getrandbits(52) or 1
        held = cards_of(m)
        x = rng.random()
        assert random_card(m, fixed(x)) == held[int(x * len(held))]


def test_random_card_is_uniform() -> None:
    rng = random.Random(9)
    m = mask("2C 9C 3D KD 2H 5H AH QS AS")  # every suit, several cards in most
    counts = dict.fromkeys(cards_of(m), 0)
    draws = 9000
    for _ in range(draws):
        counts[random_card(m, rng.random)] += 1
    # 8 degrees of freedom: p(chi2 > 40) is about 3e-6
    assert chi_square(list(counts.values()), draws / len(counts)) < 40


def test_random_pass_mask_draws_what_random_pass_draws() -> None:
    rng = random.Random(4)
    for _ in range(300):
        rules = random_rules(random.Random(rng.randrange(16)))
        hand = Hand.deal(rules, 1, rng)
        seat = rng.randrange(rules.players)
        seed = rng.getrandbits(32)
        chosen = random_pass(hand, seat, random.Random(seed))
        fast = random_pass_mask(hand.hands[seat], rules.pass_count, random.Random(seed).random)
        assert fast == mask_of(chosen)
        assert fast.bit_count() == rules.pass_count
        assert fast & ~hand.hands[seat] == 0


def test_random_pass_mask_is_uniform_over_the_three_card_sets() -> None:
    rng = random.Random(10)
    h = Hand.deal(Rules(), 1, rng).hands[0]
    draws = 28600  # 100 per set of three of 13 cards
    counts = dict.fromkeys((mask_of(s) for s in itertools.combinations(cards_of(h), 3)), 0)
    for _ in range(draws):
        counts[random_pass_mask(h, 3, rng.random)] += 1
    assert len(counts) == 286
    # 285 degrees of freedom (sd about 24): the bound is 6 sd above the mean
    assert chi_square(list(counts.values()), draws / 286) < 285 + 6 * 24


def exact_outcomes(hand: Hand) -> dict[tuple[int, ...], float]:
    """The exact distribution of the points when every play is uniform among
    the legal cards, by enumerating every line of play (checked path)."""
    if hand.phase is Phase.MOON_CHOICE:
        assert hand.shooter is not None
        hand.choose_moon(hand.shooter, "add")
    if hand.phase is Phase.DONE:
        assert hand.scores is not None
        return {hand.scores: 1.0}
    legal = hand.legal_cards()
    out: dict[tuple[int, ...], float] = {}
    for c in legal:
        twin = hand.copy()
        twin.play(twin.turn, c)
        for points, p in exact_outcomes(twin).items():
            out[points] = out.get(points, 0.0) + p / len(legal)
    return out


# seeds and cuts picked for many distinct outcomes: on a lead and after one,
# two or three cards of a trick; odd seeds let Q♠ break hearts
@pytest.mark.parametrize(("seed", "plays_left"), [(8, 16), (30, 16), (22, 15), (9, 14), (7, 13)])
def test_playout_outcomes_follow_the_exact_distribution(seed: int, plays_left: int) -> None:
    # Uniform legal play, checked at the level of what comes out: from a
    # position a few plays before the end (on a lead or mid-trick), the
    # frequencies of each points outcome over many playouts against the
    # exact probabilities. A bias toward any card shifts them.
    rng = random.Random(seed)
    rules = cached_rules(pass_cycle=("hold",), bonus_card="JD", queen_breaks_hearts=seed % 2 == 1)
    hand = Hand.deal(rules, 1, rng)
    while 52 - len(hand.plays) > plays_left:
        hand.play(hand.turn, rng.choice(hand.legal_cards()))
    exact = exact_outcomes(hand.copy())
    assert len(exact) >= 20
    runs = 20000
    seen: dict[tuple[int, ...], int] = {}
    for _ in range(runs):
        points = tuple(random_playout(hand, rng))
        assert points in exact
        seen[points] = seen.get(points, 0) + 1
    # cells expecting fewer than 20 are pooled so the chi-square holds
    big = [o for o, p in exact.items() if p * runs >= 20]
    observed = [seen.get(o, 0) for o in big] + [runs - sum(seen.get(o, 0) for o in big)]
    expected = [exact[o] * runs for o in big] + [runs * (1 - sum(exact[o] for o in big))]
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)
    df = len(big)
    assert stat < df + 6 * (2 * df) ** 0.5 + 10


def chi_square(counts: list[int], expected: float) -> float:
    return sum((c - expected) ** 2 / expected for c in counts)
