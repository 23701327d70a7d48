"""The bot interface: our levels behind ``decide(view)``, the
``pkg.module:factory`` loader, and the check of a decision against its view."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bots.api import Decision, decide, needs_decision
from bots.budget import Budget
from bots.interface import (
    Bot,
    BotSpecError,
    LevelBot,
    Resettable,
    decision_problem,
    load_bot,
    reset_bot,
    split_spec,
)

from .support import LEVELS, deciding_seats, random_positions, view_of

SMALL = Budget(worlds=6, max_seconds=None)


class Counting:
    """A bot with state: counts its decisions, forgets them on reset."""

    def __init__(self, seed: int | None = None, step: str = "1") -> None:
        self.seed = seed
        self.step = int(step)
        self.decisions = 0

    def decide(self, view: object) -> Decision:
        self.decisions += self.step
        return Decision("moon_choice", moon="add")

    def reset(self) -> None:
        self.decisions = 0


def not_a_bot() -> object:
    return object()


def test_each_level_is_a_bot_and_decides_as_the_level_does() -> None:
    for table in random_positions(12, seed=3):
        for seat in deciding_seats(table):
            view = view_of(table, seat)
            for level in LEVELS:
                bot = LevelBot(level, seed=seat, budget=SMALL)
                assert isinstance(bot, Bot) and not isinstance(bot, Resettable)
                d = bot.decide(view)
                assert decision_problem(view, d) is None
                assert d == decide(view, level, random.Random(seat), SMALL)


def test_the_factories_of_our_levels_load_by_spec() -> None:
    bot = load_bot("bots.interface:hard?worlds=5&budget_ms=50", seed=4)
    assert isinstance(bot, LevelBot) and bot.level == "hard"
    assert bot.budget is not None and bot.budget.worlds == 5 and bot.budget_ms == 50
    assert isinstance(load_bot("bots.interface:easy"), LevelBot)


def test_options_are_strings_and_seed_goes_to_factories_that_take_it() -> None:
    assert split_spec("a.b:make?x=1&y=two") == ("a.b:make", {"x": "1", "y": "two"})
    assert split_spec("a.b:make") == ("a.b:make", {})
    bot = load_bot("tests.bots.test_interface:Counting?step=3", seed=9)
    assert isinstance(bot, Counting) and bot.seed == 9 and bot.step == 3
    assert isinstance(bot, Resettable)
    bot.decisions = 5
    reset_bot(bot)
    assert bot.decisions == 0


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("nocolon", "pkg.module:factory"),
        ("no.such.module:make", "cannot import"),
        ("bots.interface:nothing_here", "has no"),
        ("bots.interface:LEVELS", "not callable"),
        ("tests.bots.test_interface:not_a_bot", r"no decide\(view\)"),
        ("tests.bots.test_interface:Counting?colour=red", "refused its options"),
        ("bots.interface:easy?=&&", "bad options"),
    ],
)
def test_a_spec_that_names_no_bot_is_refused_in_a_sentence(spec: str, said: str) -> None:
    with pytest.raises(BotSpecError, match=said):
        load_bot(spec)


def test_a_decision_the_view_does_not_allow_is_caught() -> None:
    table = next(iter(random_positions(1, seed=11)))
    seat = deciding_seats(table)[0]
    view = view_of(table, seat)
    good = decide(view, "medium", random.Random(1))
    assert decision_problem(view, good) is None
    assert decision_problem(view, "QS") is not None
    wrong_kind = Decision("moon_choice", moon="add")
    assert "asks for a" in (decision_problem(view, wrong_kind) or "")
    if good.kind == "play":
        illegal = next(c for c in (*view.hand, "2C") if c not in view.legal)
        assert "not a legal card" in (decision_problem(view, replace(good, card=illegal)) or "")
    else:
        assert good.kind == "pass"
        short = replace(good, cards=good.cards[:2])
        assert decision_problem(view, short) is not None
        twice = replace(good, cards=(good.cards[0],) * 3)
        assert decision_problem(view, twice) is not None
    others = view.model_copy(update={"turn": None, "phase": "play", "legal": ()})
    assert needs_decision(others) is None
    assert "asks nothing" in (decision_problem(others, good) or "")
