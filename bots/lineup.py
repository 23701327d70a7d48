"""Who sits in the arena: a player spec names any bot.

    hard                          one of our levels: easy, medium, hard
    py:pkg.module:factory?k=v     a bot of your own (``bots.interface``)
    openspiel:ismcts?sims=4500    an OpenSpiel bot (``bots.openspiel_bots``)

Options after ``?`` reach the factory as text. A spec stays a string until
a bot is made from it (``PlayerSpec.make(seed)``), so line-ups travel to the
arena's worker processes as they are and every process makes its own bots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .api import LEVELS
from .budget import Budget
from .interface import Bot, BotSpecError, LevelBot, load_factory, make_bot, split_spec

PY_PREFIX = "py:"
OPENSPIEL_PREFIX = "openspiel:"


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A parsed player spec; ``make(seed)`` builds a fresh bot."""

    spec: str
    budget: Budget | None = None  # Hard's budget, for the ``hard`` level

    @property
    def level(self) -> str | None:
        """The level's name, for one of ours; None otherwise."""
        return self.spec if self.spec in LEVELS else None

    def make(self, seed: int) -> Bot:
        """A new bot for one seat (one hand, or one whole game)."""
        if self.spec in LEVELS:
            return LevelBot(self.spec, seed, self.budget if self.spec == "hard" else None)
        if self.spec.startswith(PY_PREFIX):
            target, options = split_spec(self.spec[len(PY_PREFIX) :])
            return make_bot(load_factory(target), options, seed)
        if self.spec.startswith(OPENSPIEL_PREFIX):
            kind, options = split_spec(self.spec[len(OPENSPIEL_PREFIX) :])
            from .openspiel_bots import KINDS, openspiel_factory

            if kind not in KINDS:
                raise BotSpecError(f"unknown OpenSpiel bot {kind!r} ({', '.join(KINDS)})")
            factory: Callable[..., Bot] = openspiel_factory(kind)
            try:
                return factory(seed=seed, **options)
            except (ImportError, ValueError) as exc:
                raise BotSpecError(str(exc)) from None
        raise BotSpecError(
            f"unknown player {self.spec!r}: easy, medium, hard, py:pkg.module:factory "
            "or openspiel:ismcts"
        )


def parse_lineup(text: str, budget: Budget | None = None) -> list[PlayerSpec]:
    """``"hard,py:m:f,openspiel:ismcts?sims=4500,medium"`` as specs.

    Commas separate seats; a spec's options use ``&``, never a comma."""
    return [PlayerSpec(part.strip(), budget) for part in text.split(",") if part.strip()]


def check_players(players: list[PlayerSpec], seats: int) -> None:
    """One player per seat, each able to make a bot (imported and built once
    here, so a wrong name is said before any deal is played)."""
    if len(players) != seats:
        raise BotSpecError(f"the line-up needs {seats} players, not {len(players)}")
    for p in players:
        p.make(0)


__all__ = ["OPENSPIEL_PREFIX", "PY_PREFIX", "PlayerSpec", "check_players", "parse_lineup"]
