"""The rules and tips pages (F2) in three languages, this table's options
marked; statistics (F3) counted at game over, per difficulty and variant,
kept in the user's data directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from client.tui.app import HeartsApp
from client.tui.pacing import INSTANT
from client.tui.screens.dialogs import GameOverScreen
from client.tui.screens.rules import RulesScreen
from client.tui.screens.stats import StatsScreen
from client.tui.settings import Settings
from client.tui.stats import Stats, default_stats_file
from protocol.common import RulesModel
from server.app import RunningServer

from .conftest import (
    make_app,
    play_to_game_over,
    quick,
    save_svg,
    screen_text,
    wait_for,
)

PAGES = {
    "en": (
        "The aim",
        "Shooting the moon",
        "the shooter chooses one of the two",
        "Pass Q♠, K♠ and A♠",
    ),
    "uk": ("Мета", "Постріл у місяць", "стрілець вибирає одне з двох", "Передавайте Q♠, K♠ і A♠"),
    "ru": ("Цель", "Выстрел в луну", "стрелок выбирает одно из двух", "Передавайте Q♠, K♠ и A♠"),
}


@pytest.mark.parametrize("language", ["en", "uk", "ru"])
async def test_rules_options_and_tips_pages(server: RunningServer, language: str) -> None:
    rules = RulesModel(moon="choice", bonus_card="JD")
    app = make_app(quick(server, rules=rules), language=language)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules")
        aim, moon, choice, tip = PAGES[language]
        text = save_svg(app, f"rules-game-{language}-80x24")
        assert aim in text and moon not in text
        await pilot.press("end")  # the page scrolls: the moon is further down
        await wait_for(pilot, lambda: moon in screen_text(app), "the end of the page")
        await pilot.press("2")
        await wait_for(pilot, lambda: choice in screen_text(app), "the table options")
        text = save_svg(app, f"rules-options-{language}-80x24")
        # This table's choices are ticked: the shooter chooses, J♦ is a bonus.
        assert f"✓ {choice}" in text
        await pilot.press("3")
        await wait_for(pilot, lambda: tip in screen_text(app), "the tips")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, RulesScreen), "the table")
        await pilot.press("f2", "2")
        await wait_for(pilot, lambda: choice in screen_text(app), "the options again")
        # Scrolled to the end, the bonus card option shows J♦ ticked.
        await pilot.press("end")
        await wait_for(pilot, lambda: "✓ J♦" in screen_text(app), "the bonus card ticked")


@pytest.mark.slow
async def test_a_finished_game_is_counted_and_shown(server: RunningServer, tmp_path: Path) -> None:
    path = tmp_path / "data" / "hearts" / "stats.json"
    rules = RulesModel(end="hands", end_at=1, moon="subtract")
    app = HeartsApp(quick(server, rules=rules), Settings(), pacing=INSTANT, stats_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await pilot.press("f3")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen), "the statistics")
        assert "No finished game yet" in screen_text(app)
        await pilot.press("escape")
        await play_to_game_over(pilot, app)
        view = app.model.view
        assert view is not None and view.seat is not None
        mine = view.totals[view.seat]
        won = int(view.winner == view.seat)
        saved = json.loads(path.read_text(encoding="utf-8"))
        easy = saved["by_difficulty"]["easy"]
        assert (easy["games"], easy["wins"], easy["points"]) == (1, won, mine)
        variant = next(iter(saved["by_variant"]))
        assert json.loads(variant) == {"end": "hands", "end_at": 1, "moon": "subtract"}
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, GameOverScreen), "the table")
        await pilot.press("f3")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen), "the statistics")
        text = save_svg(app, "stats-80x24")
        row = next(line for line in text.splitlines() if "Easy bots" in line).split("█")[1]
        assert row.split()[2:6] == ["1", str(won), f"{mine:.1f}", str(easy["moons"])]
        assert "moon: shooter −26 · 1 hand " in text
    # The next run reads them back.
    assert Stats.load(path).by_difficulty["easy"].games == 1


def test_statistics_live_in_the_xdg_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_stats_file() == tmp_path / "hearts" / "stats.json"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_stats_file() == tmp_path / ".local" / "share" / "hearts" / "stats.json"


def test_a_damaged_statistics_file_starts_afresh(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    path.write_text("{not json", encoding="utf-8")
    assert Stats.load(path).total().games == 0
    path.write_text(json.dumps({"version": 1, "by_difficulty": {"easy": {"games": "x"}}}))
    assert Stats.load(path).by_difficulty == {}
