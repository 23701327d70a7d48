"""The hand review (``bots.review``): each decision of one seat, judged from
what that seat knew then."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from bots.budget import Budget
from bots.review.evaluator import ReviewBudget, ReviewError, review_hand
from bots.review.labels import accuracy_of, label_of
from engine.record import hand_record
from engine.rules import Rules
from tools.arena.hands import arena_table, finish_hand, make_bots

LINEUP = ("easy", "medium", "hard", "medium")
SMALL = ReviewBudget(worlds=40)


def bot_hand(
    seed: int, hand_number: int = 1, rules: Rules | None = None, lineup: tuple[str, ...] = LINEUP
) -> dict[str, Any]:
    """The record of one hand played by bots (Hard with a small budget)."""
    rules = rules or Rules()
    table = arena_table(rules, lineup)
    game = table.game
    bots = make_bots(lineup, f"review:{seed}", Budget(worlds=60, max_seconds=None))
    for _ in range(hand_number):
        game.start_hand(random.Random(seed))
        finish_hand(table, bots, lineup)
    assert game.hand is not None
    return hand_record(game.hand)


def test_labels_follow_the_documented_thresholds() -> None:
    assert [label_of(x) for x in (None, 0.0, 0.49, 0.5, 1.49, 1.5, 3.99, 4.0, 20.0)] == [
        None,
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    acc = accuracy_of([0.0, 0.6, 2.0, 5.0, None])
    assert (acc.decisions, acc.inaccuracies, acc.mistakes, acc.blunders) == (4, 1, 1, 1)
    assert acc.mean_loss == pytest.approx(7.6 / 4)


def test_review_lists_the_pass_and_every_play_of_the_seat() -> None:
    record = bot_hand(1)
    review = review_hand(record, 0, SMALL)
    kinds = [d.kind for d in review.decisions]
    assert kinds == ["pass"] + ["play"] * 13
    assert list(review.decisions[0].chosen) == sorted(record["passes"][0], key=_order)
    plays = [d.chosen[0] for d in review.decisions[1:]]
    # The seat's plays, in order, are the ones in the record.
    assert all(c in record["deal"][0] or c in record["passes"][3] for c in plays)
    assert [d.trick for d in review.decisions[1:]] == list(range(13))
    for d in review.decisions:
        assert d.loss is not None and d.loss >= 0.0
        assert d.best is not None
        assert (d.loss == 0.0) == (d.best == d.chosen)
        assert d.label == label_of(d.loss)


def _order(text: str) -> int:
    from engine.cards import card

    return card(text)


def test_review_is_reproducible_from_its_seed() -> None:
    record = bot_hand(2)
    first = review_hand(record, 1, SMALL, seed=7)
    again = review_hand(record, 1, SMALL, seed=7)
    assert first == again


def test_review_never_reads_the_other_seats_deals_or_passes() -> None:
    # Seat 1 passes left to seat 2. Swap one card of seat 1's pass for one
    # that seat 2 kept: the two seats hold the same cards after the pass, so
    # every play is the same, and seat 3 (which saw neither deal nor pass)
    # must get the very same review; seat 1's own review changes.
    record = bot_hand(3)
    assert record["hand"] == 1  # passing left
    x = record["passes"][1][0]
    z = next(c for c in record["deal"][2] if c not in record["passes"][2])
    other = copy.deepcopy(record)
    other["deal"][1] = [z if c == x else c for c in record["deal"][1]]
    other["passes"][1] = [z if c == x else c for c in record["passes"][1]]
    other["deal"][2] = [x if c == z else c for c in record["deal"][2]]
    assert review_hand(other, 3, SMALL, seed=1) == review_hand(record, 3, SMALL, seed=1)
    assert review_hand(other, 1, SMALL, seed=1).decisions[0].chosen != (
        review_hand(record, 1, SMALL, seed=1).decisions[0].chosen
    )


def test_review_ranks_easy_below_hard() -> None:
    easy: list[float | None] = []
    hard: list[float | None] = []
    for seed in range(3):
        record = bot_hand(10 + seed)
        easy += [d.loss for d in review_hand(record, 0, SMALL).decisions]
        hard += [d.loss for d in review_hand(record, 2, SMALL).decisions]
    assert accuracy_of(easy).mean_loss > accuracy_of(hard).mean_loss


def test_review_judges_the_widow_discard() -> None:
    rules = Rules(variant="widow", players=4, pass_cycle=("hold",))
    record = bot_hand(4, rules=rules, lineup=("medium",) * 4)
    taker = next(
        s for s in range(4) if set(record["discard"]) <= set(record["deal"][s] + record["stock"])
    )
    review = review_hand(record, taker, SMALL)
    discards = [d for d in review.decisions if d.kind == "discard"]
    assert len(discards) == 1
    assert set(discards[0].chosen) == set(record["discard"])
    assert discards[0].loss is not None and discards[0].best is not None


def test_review_judges_the_moon_choice_by_the_game() -> None:
    # Seat 0 shoots the moon (``_moon_record``). Ahead in a game to 100, subtracting would leave it
    # at -26 and the others at 90: the game goes on. Adding puts the others
    # on 116 and ends the game won: the best choice by 60 points (a game).
    rules = Rules(moon="choice")
    record = _moon_record(rules, "subtract")
    review = review_hand(record, 0, SMALL, history=[(0, 90, 90, 90)])
    moon = [d for d in review.decisions if d.kind == "moon_choice"]
    assert len(moon) == 1
    assert moon[0].chosen == ("subtract",) and moon[0].best == ("add",)
    assert moon[0].loss == 60.0 and moon[0].label == "blunder"
    assert (
        review_hand(_moon_record(rules, "add"), 0, SMALL, history=[(0, 90, 90, 90)])
        .decisions[-1]
        .loss
        == 0.0
    )


def test_a_moon_choice_that_ties_the_other_is_the_best() -> None:
    # Early in a game to 100 neither choice ends it: they are worth the
    # same, so the one made is the best (as for a play), whichever Hard
    # would have made.
    rules = Rules(moon="choice")
    for choice in ("add", "subtract"):
        review = review_hand(_moon_record(rules, choice), 0, SMALL)
        moon = review.decisions[-1]
        assert moon.kind == "moon_choice"
        assert (moon.chosen, moon.best, moon.loss, moon.label) == ((choice,), (choice,), 0.0, None)


def _moon_record(rules: Rules, choice: str) -> dict[str, Any]:
    from engine.cards import card, card_text
    from engine.dealing import new_hand
    from engine.hand import Phase

    # Seat 0 wins trick 1 with A♣, then leads A♠ K♠ Q♠ and its nine top
    # hearts: the others must follow with their four low hearts.
    seats = [
        "AC AS KS QS AH KH QH JH TH 9H 8H 7H 6H",
        "2C 3C 4C 5C 2D 3D 4D 5D 6D 7D 8D 9D 2H",
        "6C 7C 8C 9C TD JD QD KD AD 2S 3S 4S 3H",
        "TC JC QC KC 5S 6S 7S 8S 9S TS JS 4H 5H",
    ]
    hand = new_hand(rules, 4, [sum(1 << card(c) for c in s.split()) for s in seats])
    while hand.phase is Phase.PLAY:
        seat = hand.turn
        legal = hand.legal_cards()
        hand.play(seat, max(legal) if seat == 0 else min(legal))
    record = hand_record(hand)
    if hand.phase is Phase.MOON_CHOICE:
        hand.choose_moon(0, choice)
        record = hand_record(hand)
    assert record.get("moon_choice") == choice, [card_text(c) for c in hand.plays]
    return record


def test_review_refuses_an_unfinished_hand_and_a_seat_it_has_not() -> None:
    record = bot_hand(5)
    partial = {**record, "plays": record["plays"][:10]}
    with pytest.raises(ReviewError, match="not finished"):
        review_hand(partial, 0, SMALL)
    with pytest.raises(ReviewError, match="seat must be 0 to 3"):
        review_hand(record, 4, SMALL)
    bad = {**record, "plays": ["2C", "2C", *record["plays"][2:]]}
    with pytest.raises(ReviewError, match="does not verify"):
        review_hand(bad, 0, SMALL)


def test_one_decision_alone_is_judged_as_in_the_whole_review() -> None:
    # The server judges a hand a decision per worker job.
    from bots.review.evaluator import decision_count, review_decision

    record = bot_hand(6)
    whole = review_hand(record, 1, SMALL, seed=4)
    assert decision_count(record, 1) == len(whole.decisions) == 14
    for index in (0, 5, 13):
        assert review_decision(record, 1, index, SMALL, seed=4) == whole.decisions[index]
    with pytest.raises(ReviewError):
        review_decision(record, 1, 14, SMALL)


def test_a_pass_in_the_widow_game_is_judged() -> None:
    widow = bot_hand(7, rules=Rules(variant="widow", players=4), lineup=("medium",) * 4)
    judged = review_hand(widow, 0, SMALL).decisions[0]
    assert judged.kind == "pass" and set(judged.chosen) == set(widow["passes"][0])
    assert judged.best is not None and judged.loss is not None
