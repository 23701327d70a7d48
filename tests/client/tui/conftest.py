"""Fixtures for the terminal client's tests: a real in-process server (bots
think in a thread, with a small budget), a TCP proxy that can drop and
refuse connections, and helpers to drive the app with Textual's pilot and
read what it shows."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot

from client.tui.app import HeartsApp
from client.tui.i18n import Msg
from client.tui.launch import Launch
from client.tui.pacing import INSTANT, Pacing
from client.tui.screens.replay import ReplayScreen
from client.tui.settings import Settings
from protocol import server_messages as sm
from protocol.view import SeatView
from server.app import RunningServer, start_server
from server.bot_runner import BotRunner, Decided, decide_in_worker
from server.config import ServerConfig

from ..proxy import Proxy

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "tui"
TIMEOUT = 20.0
# The game-over screen asks for the game's review: a few deals per decision
# keep it to a fraction of a second of the workers' time.
REVIEW_WORLDS = 20


class ThreadBots(BotRunner):
    """Bots deciding in a thread: the same decision function as the worker
    processes, without spawning any (fast to start, fine for easy bots)."""

    async def decide(self, view: SeatView, level: str, seed: int, table: str = "") -> Decided:
        """The bot's move."""
        return await asyncio.to_thread(decide_in_worker, view, level, seed, self.budget_ms)


@pytest.fixture
async def server() -> AsyncIterator[RunningServer]:
    """A server on a free port, in the test's event loop."""
    config = ServerConfig(
        port=0, bot_budget_ms=20, bot_workers=1, grace_seconds=30.0, analysis_worlds=REVIEW_WORLDS
    )
    running = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    try:
        yield running
    finally:
        await running.close()


@contextlib.asynccontextmanager
async def seeded_server(seed: int, worlds: int = REVIEW_WORLDS) -> AsyncIterator[RunningServer]:
    """A server like ``server`` whose tables all have the seed ``seed``: the
    same deals (and bot draws) every run, so a test can pick one where what
    it checks happens. ``worlds``: deals per decision of its reviews."""
    config = ServerConfig(
        port=0,
        bot_budget_ms=20,
        bot_workers=1,
        grace_seconds=30.0,
        table_seed=seed,
        analysis_worlds=worlds,
    )
    running = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    try:
        yield running
    finally:
        await running.close()


@pytest.fixture
async def proxy(server: RunningServer) -> AsyncIterator[Proxy]:
    """A proxy in front of ``server``."""
    p = Proxy(server.port)
    await p.start()
    try:
        yield p
    finally:
        await p.close()


def quick(server: RunningServer, **kw: object) -> Launch:
    """``hearts play`` against easy bots on the test's server."""
    return Launch(mode="play", server=server.url, seats=("easy", "easy", "easy"), **kw)  # type: ignore[arg-type]


def make_app(
    launch: Launch, language: str = "en", pacing: Pacing = INSTANT, fast: bool = False
) -> HeartsApp:
    """An app with fixed settings (nothing read from or written to disk)."""
    settings = Settings(language=language, fast=fast)  # type: ignore[arg-type]
    return HeartsApp(launch, settings, settings_path=None, pacing=pacing)


async def wait_for(
    pilot: object, predicate: Callable[[], bool], what: str, timeout: float = TIMEOUT
) -> None:
    """Let the app run until ``predicate()`` holds (polling, with a deadline)."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(
                f"timed out waiting for {what}; the screen shows:\n{screen_text(pilot.app)}"
            )
        await pilot.pause(0.02)


def screen_text(app: object) -> str:
    """What the screen shows, as plain lines, one a row.

    The screen's cells as text (Rich's plain export), as Textual's own
    ``export_screenshot`` renders them but without building an SVG: the
    tests read the screen while they wait for something to show, many times
    a second, and the SVG (and parsing it back) costs far more than the
    text. Uses the compositor as ``export_screenshot`` does (Textual 8)."""
    from textual.app import App

    assert isinstance(app, App)
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    rows = console.export_text(styles=False).split("\n")[:height]
    return "\n".join(row.replace("\xa0", " ").rstrip() for row in rows)


def save_svg(app: object, name: str) -> str:
    """Save the screen as ``test-artifacts/tui/NAME.svg``; returns its text
    (``screen_text``: the same lines the SVG shows)."""
    from textual.app import App

    assert isinstance(app, App)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    svg = app.export_screenshot(title=name)
    (ARTIFACTS / f"{name}.svg").write_text(svg, encoding="utf-8")
    return screen_text(app)


def first_legal_key(app: HeartsApp) -> str:
    """The key of the first card we may play now."""
    view = app.model.view
    assert view is not None
    for card in app.model.hand():
        if card in view.legal:
            return app.model.key_of(card)
    raise AssertionError("no legal card")


def first_illegal_key(app: HeartsApp) -> str | None:
    """The key of a card we may not play now, if there is one."""
    view = app.model.view
    assert view is not None
    for card in app.model.hand():
        if card not in view.legal:
            return app.model.key_of(card)
    return None


async def pass_by_keys(pilot: object, app: HeartsApp, keys: str = "abc") -> None:
    """Pick cards by their keys and pass them (if a pass is asked)."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    if app.model.passing():
        await pilot.press(*keys, "p")
        await wait_for(pilot, lambda: not app.model.passing(), "the pass to lock")


async def play_out_hand(pilot: object, app: HeartsApp) -> None:
    """Pass, then play the first legal card on every turn until the hand ends."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    model = app.model
    assert model.view is not None
    number = model.view.hand_number
    await wait_for(
        pilot, lambda: model.passing() or model.my_turn() or _phase(app) != "pass", "the deal"
    )
    await pass_by_keys(pilot, app)

    def over() -> bool:
        v = model.view
        return v is not None and (v.status != "playing" or v.hand_number != number)

    while not over():
        await wait_for(pilot, lambda: model.my_turn() or over(), "our turn")
        if over():
            break
        assert model.view is not None
        played = hand_below(app, len(model.view.hand), over)
        await pilot.press(first_legal_key(app))
        await wait_for(pilot, played, "our card to be played")


def _phase(app: HeartsApp) -> str:
    view = app.model.view
    return (view.phase or "") if view is not None else "pass"


def hand_below(
    app: HeartsApp, size: int, or_else: Callable[[], bool] = lambda: False
) -> Callable[[], bool]:
    """A predicate: we hold fewer than ``size`` cards (or ``or_else()``)."""
    return lambda: or_else() or (app.model.view is not None and len(app.model.view.hand) < size)


def under(text: str, name: str) -> str:
    """The ring panel's second line under ``name`` (its fan, or "out")."""
    lines = text.split("\n")
    for row, line in enumerate(lines[:-1]):
        column = line.find(name)
        if column >= 0 and row + 1 < len(lines):
            below = lines[row + 1][column : column + 15].split()
            return below[0] if below else ""
    raise AssertionError(f"{name} is not on the screen:\n{text}")


async def play_to_game_over(pilot: object, app: HeartsApp, hands: int = 6) -> None:
    """Play hands out (Ready after each) until the game is over and its
    screen shows: a game of one hand takes another when the lowest ties."""
    from textual.pilot import Pilot

    from client.tui.screens.dialogs import GameOverScreen

    assert isinstance(pilot, Pilot)

    def dealt() -> bool:
        return bool(app.model.view and app.model.view.status == "playing")

    for _ in range(hands):
        await play_out_hand(pilot, app)
        view = app.model.view
        assert view is not None
        if view.status == "game_over":
            break
        await pilot.press("n")  # a tie for the lowest total: another hand
        await wait_for(pilot, dealt, "deal")
    await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "game over")


async def review_from_game_over(
    pilot: Pilot[object], app: HeartsApp, timeout: float = TIMEOUT
) -> tuple[ReplayScreen, sm.Analysis | Msg]:
    """From the game-over screen: close it, open the replay (``v``) and wait
    for the review of its first hand; returns the replay screen and what it
    got (the ``Analysis``, or the sentence of a refusal)."""
    from client.tui.screens.dialogs import GameOverScreen

    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, GameOverScreen), "the table")
    await pilot.press("v")
    await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
    replay = app.screen
    assert isinstance(replay, ReplayScreen)
    await wait_for(pilot, lambda: 1 in replay.reviews, "the review", timeout=timeout)
    return replay, replay.reviews[1]
