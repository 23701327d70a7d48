"""The interface every bot implements, ours and anyone's: ``decide(view)``.

A bot is any object with

    def decide(self, view: SeatView) -> Decision

and, if it keeps anything between decisions, ``reset()``, called before the
first decision of every hand. ``view`` is the ``SeatView`` the server sends
that seat (``protocol.view``); ``Decision`` is what our levels return
(``bots.api.Decision``: a pass, a play or a moon choice, cards as texts).
``decide`` is only called when the view asks something of the seat
(``bots.api.needs_decision``) and must answer exactly that. Whoever runs a
bot (``hearts bot``, ``hearts arena``) checks the answer against the view:
an illegal card or pass is refused, never played.

A bot is made by a *factory* named ``pkg.module:factory`` (``load_factory``):
any callable returning a bot, called with the spec's options as keyword
arguments of type ``str`` (``pkg.module:factory?depth=3`` gives
``depth="3"``), plus ``seed`` (an ``int``) when the factory has a parameter
of that name, so that runs can be reproduced.

``LevelBot`` is Easy, Medium or Hard behind this interface.
"""

from __future__ import annotations

import importlib
import inspect
import os
import random
import sys
import time
from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable
from urllib.parse import parse_qsl

from protocol.view import SeatView

from .api import LEVELS, Decision, decide, needs_decision
from .budget import Budget


@runtime_checkable
class Bot(Protocol):
    """A bot: one decision for one seat's view."""

    def decide(self, view: SeatView) -> Decision:
        """What the seat does now; ``needs_decision(view)`` says what is asked."""
        ...


@runtime_checkable
class Resettable(Protocol):
    """A bot that keeps state between decisions: ``reset()`` is called before
    the first decision of every hand (a ``Bot`` without it keeps none)."""

    def reset(self) -> None:
        """Forget the previous hand."""
        ...


BotFactory = Callable[..., Bot]


class BotSpecError(ValueError):
    """A bot spec that names nothing loadable (said in a sentence)."""


class LevelBot:
    """One of our levels ("easy", "medium", "hard") as a ``Bot``.

    Its random choices come from one ``random.Random(seed)`` for its life,
    so a bot made with the same seed decides the same in the same views
    (Hard: unless it runs into ``budget``'s time cap). ``budget_ms`` caps
    Hard's thinking per decision, counted from the call to ``decide``.
    """

    def __init__(
        self,
        level: str,
        seed: int | str | None = None,
        budget: Budget | None = None,
        budget_ms: int | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (easy, medium or hard)")
        self.level = level
        self.rng = random.Random(seed)
        self.budget = budget
        self.budget_ms = budget_ms

    def decide(self, view: SeatView) -> Decision:
        """The level's decision (``bots.api.decide``)."""
        budget = self.budget
        if self.budget_ms is not None:
            base = budget or Budget()
            budget = Budget(
                worlds=base.worlds,
                max_seconds=max(self.budget_ms, 1) / 1000.0,
                started=time.perf_counter(),
            )
        return decide(view, self.level, self.rng, budget)

    def __repr__(self) -> str:
        return f"LevelBot({self.level!r})"


def easy(seed: int | None = None) -> LevelBot:
    """Factory of Easy (``bots.interface:easy``)."""
    return LevelBot("easy", seed)


def medium(seed: int | None = None) -> LevelBot:
    """Factory of Medium (``bots.interface:medium``)."""
    return LevelBot("medium", seed)


def hard(
    seed: int | None = None, budget_ms: str | None = None, worlds: str | None = None
) -> LevelBot:
    """Factory of Hard (``bots.interface:hard?budget_ms=900&worlds=1000``)."""
    budget = Budget(worlds=int(worlds)) if worlds is not None else None
    return LevelBot("hard", seed, budget, int(budget_ms) if budget_ms is not None else None)


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"pkg.module:factory?a=1&b=x"`` -> ``("pkg.module:factory", {"a": "1", "b": "x"})``."""
    target, _, query = spec.partition("?")
    try:
        options = dict(parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)))
    except ValueError:
        raise BotSpecError(
            f"bad options in bot spec {spec!r} (expected key=value&key=value)"
        ) from None
    return target.strip(), options


def load_factory(target: str) -> BotFactory:
    """The callable ``pkg.module:factory`` names (imported now), looked for
    on ``sys.path`` and in the current directory (as ``python -m`` would:
    ``hearts bot --bot mybot:make`` next to ``mybot.py``).

    Raises ``BotSpecError`` when the module cannot be imported or holds no
    such callable."""
    module_name, colon, attr = target.partition(":")
    if not colon or not module_name or not attr:
        raise BotSpecError(f"a bot is named pkg.module:factory, not {target!r}")
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotSpecError(f"cannot import {module_name!r}: {exc}") from None
    obj: object = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise BotSpecError(f"{module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise BotSpecError(f"{target!r} is not callable")
    return obj


def make_bot(factory: BotFactory, options: Mapping[str, str], seed: int | None = None) -> Bot:
    """Call ``factory`` with ``options`` (and ``seed`` if it takes one) and
    check that it made a bot."""
    kwargs: dict[str, object] = dict(options)
    if seed is not None and _takes_seed(factory):
        kwargs["seed"] = seed
    try:
        bot = factory(**kwargs)
    except TypeError as exc:
        raise BotSpecError(f"the bot factory refused its options {dict(options)}: {exc}") from None
    if not isinstance(bot, Bot):
        raise BotSpecError(f"the factory made {type(bot).__name__}, which has no decide(view)")
    return bot


def load_bot(spec: str, seed: int | None = None) -> Bot:
    """The bot ``spec`` (``pkg.module:factory[?key=value&…]``) names, made now."""
    target, options = split_spec(spec)
    return make_bot(load_factory(target), options, seed)


def reset_bot(bot: Bot) -> None:
    """Call the bot's ``reset()`` if it has one (at the start of a hand)."""
    if isinstance(bot, Resettable):
        bot.reset()


def decision_problem(view: SeatView, decision: object) -> str | None:
    """What is wrong with ``decision`` as the answer to ``view``, or None when
    it may be played: the kind the view asks for, a pass of
    ``rules.pass_count`` different cards of the hand, a card of
    ``view.legal``, a widow discard of ``view.discard_count`` different
    cards of the hand, a moon choice of "add" or "subtract"."""
    if not isinstance(decision, Decision):
        return f"decide() returned {type(decision).__name__}, not a Decision"
    asked = needs_decision(view)
    if asked is None:
        return "the view asks nothing of this seat"
    if decision.kind != asked:
        return f"the view asks for a {asked}, not a {decision.kind}"
    if asked == "pass":
        return _cards_problem("pass", decision.cards, view.rules.pass_count, view.hand)
    if asked == "play":
        if decision.card not in view.legal:
            return f"{decision.card} is not a legal card now (legal: {list(view.legal)})"
        return None
    if asked == "discard":
        return _cards_problem("discard", decision.cards, view.discard_count, view.hand)
    if decision.moon not in ("add", "subtract"):
        return f"the moon choice is add or subtract, not {decision.moon!r}"
    return None


def _cards_problem(
    what: str, cards: tuple[str, ...], count: int, hand: tuple[str, ...]
) -> str | None:
    """What is wrong with ``cards`` as a ``what`` ("pass" or "discard") of
    ``count`` different cards of ``hand``, or None."""
    if len(cards) != count or len(set(cards)) != len(cards):
        return f"a {what} is {count} different cards, not {list(cards)}"
    missing = [c for c in cards if c not in hand]
    if missing:
        return f"cannot {what} {missing}: not in the hand"
    return None


def _takes_seed(factory: BotFactory) -> bool:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params


__all__ = [
    "Bot",
    "BotFactory",
    "BotSpecError",
    "LevelBot",
    "Resettable",
    "decision_problem",
    "easy",
    "hard",
    "load_bot",
    "load_factory",
    "make_bot",
    "reset_bot",
    "split_spec",
]
