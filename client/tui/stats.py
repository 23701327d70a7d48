"""The player's statistics: games, wins, average points and moons shot, per
difficulty (the bots' level, or a table with other people) and per variant
(the table's rules where they differ from the standard game).

Kept in ``$XDG_DATA_HOME/hearts/stats.json`` (``~/.local/share`` by
default): it is what the player has done, not a preference, so it lives in
the data directory, not beside the settings. Only a game we sat through to
its end counts; a spectator's game does not.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Final

from protocol.common import RulesModel
from protocol.view import SeatView

STANDARD: Final = ""  # the variant key of the standard game
PEOPLE: Final = "people"  # the difficulty of a table with another human
MIXED: Final = "mixed"  # bots of different levels
DIFFICULTIES: Final = ("easy", "medium", "hard", MIXED, PEOPLE)
VERSION: Final = 1


def default_stats_file() -> Path:
    """``$XDG_DATA_HOME/hearts/stats.json`` (``~/.local/share`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "hearts" / "stats.json"


@dataclass(frozen=True)
class GameResult:
    """One finished game, as the statistics count it."""

    difficulty: str
    variant: str
    points: int
    won: bool
    moons: int


def difficulty_of(view: SeatView) -> str:
    """The bots' level when all three are the same, ``mixed`` when they
    differ, ``people`` when another human sat at the table."""
    others = [info for info in view.seats if info.seat != view.seat]
    if any(info.kind == "human" for info in others):
        return PEOPLE
    levels = {info.bot_level or "medium" for info in others if info.kind == "bot"}
    return levels.pop() if len(levels) == 1 else MIXED


def variant_of(rules: RulesModel) -> str:
    """The rules that differ from the standard game, as canonical JSON
    (``""`` for the standard game): the same variant always has one key."""
    standard = RulesModel().model_dump(mode="json")
    given = rules.model_dump(mode="json")
    changed = {k: v for k, v in given.items() if standard.get(k) != v}
    return json.dumps(changed, sort_keys=True, separators=(",", ":")) if changed else STANDARD


def variant_rules(key: str) -> RulesModel | None:
    """The rules of a variant key (None for a key we cannot read)."""
    if key == STANDARD:
        return RulesModel()
    try:
        return RulesModel.model_validate_json(key)
    except ValueError:
        return None


def game_result(view: SeatView) -> GameResult | None:
    """Our result of the finished game the view shows (None when it is not
    over or we do not sit at the table)."""
    me = view.seat
    if view.status != "game_over" or me is None or len(view.totals) <= me:
        return None
    return GameResult(
        difficulty=difficulty_of(view),
        variant=variant_of(view.rules),
        points=view.totals[me],
        won=view.winner == me,
        moons=sum(1 for hand in view.hands if hand.shooter == me),
    )


@dataclass
class Tally:
    """The counts of one row of the statistics."""

    games: int = 0
    wins: int = 0
    points: int = 0
    moons: int = 0

    def add(self, result: GameResult) -> None:
        """Count one more game."""
        self.games += 1
        self.wins += int(result.won)
        self.points += result.points
        self.moons += result.moons

    @property
    def average(self) -> float:
        """Average final points per game (0 with no game)."""
        return self.points / self.games if self.games else 0.0

    @classmethod
    def from_json(cls, data: object) -> Tally | None:
        """A tally read back (None when it is not one)."""
        if not isinstance(data, Mapping):
            return None
        values = [data.get(name) for name in ("games", "wins", "points", "moons")]
        if not all(type(v) is int for v in values):
            return None
        games, wins, points, moons = (int(v) for v in values if isinstance(v, int))
        return cls(games, wins, points, moons)


@dataclass
class Stats:
    """Every game counted twice: under its difficulty and under its variant."""

    by_difficulty: dict[str, Tally] = field(default_factory=dict)
    by_variant: dict[str, Tally] = field(default_factory=dict)

    def record(self, result: GameResult) -> None:
        """Count a finished game."""
        self.by_difficulty.setdefault(result.difficulty, Tally()).add(result)
        self.by_variant.setdefault(result.variant, Tally()).add(result)

    def total(self) -> Tally:
        """All games together."""
        whole = Tally()
        for tally in self.by_difficulty.values():
            whole.games += tally.games
            whole.wins += tally.wins
            whole.points += tally.points
            whole.moons += tally.moons
        return whole

    @classmethod
    def load(cls, path: Path | None) -> Stats:
        """The saved statistics (none when there is no readable file)."""
        stats = cls()
        if path is None or not path.exists():
            return stats
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return stats
        if not isinstance(data, dict) or data.get("version") != VERSION:
            return stats
        for name, table in (
            ("by_difficulty", stats.by_difficulty),
            ("by_variant", stats.by_variant),
        ):
            rows = data.get(name)
            if not isinstance(rows, dict):
                continue
            for key, row in rows.items():
                tally = Tally.from_json(row)
                if isinstance(key, str) and tally is not None:
                    table[key] = tally
        return stats

    def save(self, path: Path | None) -> bool:
        """Write the file atomically; False when it cannot be written (the
        statistics are then kept for this run only)."""
        if path is None:
            return False
        data = {
            "version": VERSION,
            "by_difficulty": {k: asdict(v) for k, v in self.by_difficulty.items()},
            "by_variant": {k: asdict(v) for k, v in self.by_variant.items()},
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(path.name + ".tmp")
            partial.write_text(json.dumps(data, indent=1), encoding="utf-8")
            partial.replace(path)
        except OSError:
            return False
        return True
