"""Fixtures of the browser tests: a server in a thread, Debian's Chromium
driven by Playwright (sync API; the session's ``browser`` is in
tests/conftest.py), pages that record console errors, and, when
``HEARTS_TEST_SCREENSHOTS=1``, screenshots under ``test-artifacts/web/``
for people to look at (no test reads them; taking them is a fair share of
the browser's work, so a plain run takes none); ``HEARTS_TEST_CPU_SLOWDOWN``
slows every page's CPU down (see below) to find timing-dependent tests.

Chromium is ``/usr/bin/chromium`` (``bash .ci/services`` installs it); it is
never downloaded. Without it these tests skip locally and fail in CI
(``CI=true``). The server must serve the browser's msgpack modules (vendored
in client/web/vendor/msgpack), or every test fails saying so.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    ViewportSize,
)

from ..conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: F401  (the browser fixture is there)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
SCREENSHOTS = os.environ.get("HEARTS_TEST_SCREENSHOTS", "") not in ("", "0")
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1366, "height": 900}
# Before any script of every page: the presenter makes no pauses between
# table events (client/web/js/storage.js, loadPaced). about:blank has no
# localStorage, hence the try.
NO_PACING = "try { localStorage.setItem('hearts.pace', '0'); } catch {}"
# ``HEARTS_TEST_CPU_SLOWDOWN=4``: every page runs its scripts, styles and
# layout four times slower (Chromium's CPU throttling, as in DevTools), to
# shake out tests that read the page before it has caught up, as on a busy
# machine. Off (1) in a plain run.
CPU_SLOWDOWN = float(os.environ.get("HEARTS_TEST_CPU_SLOWDOWN", "1") or "1")


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"browser tests cannot run in CI: {reason}")
    pytest.skip(reason)


class ServerThread:
    """``server.app.start_server`` on its own event loop in a thread, so the
    tests can use Playwright's sync API in the main thread. ``port`` 0 picks
    a free one; a given port lets a test start a fresh server where an old
    one listened (a restart). ``settings`` override ``ServerConfig`` fields
    (e.g. ``free_code_misses``)."""

    def __init__(self, port: int = 0, **settings: Any) -> None:
        self.port = port
        self.settings = settings
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: Any = None
        self.url = ""

    def start(self) -> str:
        from server.app import start_server
        from server.config import ServerConfig

        self.thread.start()
        # A short grace period, so a test can watch a bot cover for an away
        # player; Hard bots (and hints) think for 30 ms, as in the server
        # tests: the browser tests check what the page shows of a move, not
        # how good it is, and a Hard bot takes its whole budget every time.
        defaults: dict[str, Any] = {"bot_budget_ms": 30, "bot_workers": 2, "grace_seconds": 4.0}
        config = ServerConfig(port=self.port, **{**defaults, **self.settings})
        future: Future[Any] = asyncio.run_coroutine_threadsafe(start_server(config), self.loop)
        self.server = future.result(timeout=60)
        self.url = f"http://127.0.0.1:{self.server.port}"
        return self.url

    def drop_connections(self) -> int:
        """Close every WebSocket from the server's side (a dropped network)."""

        async def drop() -> int:
            connections = list(self.server.ws_server.connections)
            for conn in connections:
                await conn.close(1001, "test: network dropped")
            return len(connections)

        return asyncio.run_coroutine_threadsafe(drop(), self.loop).result(timeout=30)

    def stop(self) -> None:
        if self.server is not None:
            asyncio.run_coroutine_threadsafe(self.server.close(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def server() -> Iterator[ServerThread]:
    """A running server with the browser client (``server.url``)."""
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} is missing (bash .ci/services installs it)")
    # Every test's pages come from 127.0.0.1: one address for the whole run,
    # which creates more tables a minute than one address of a real site
    # may. Each page is its own player and keeps the player budget.
    runner = ServerThread(tables_burst_per_address=0)
    runner.start()
    try:
        with urllib.request.urlopen(f"{runner.url}/vendor/msgpack/index.mjs", timeout=10) as reply:
            assert reply.status == 200
    except Exception:
        runner.stop()
        pytest.fail(
            "the server does not serve /vendor/msgpack/index.mjs "
            "(client/web/vendor/msgpack; make vendor-msgpack restores it)"
        )
    yield runner
    runner.stop()


StartServer = Callable[..., ServerThread]


@pytest.fixture
def start_server() -> Iterator[StartServer]:
    """``start_server(port, **settings)``: a fresh in-memory server of the
    test's own on ``port`` (0: any free one), with ``ServerConfig`` fields
    overridden by ``settings``. The session's ``server`` is shared by every
    test and must not be restarted, nor its per-address budget of wrong
    invite codes spent (every test comes from 127.0.0.1). Every one still
    running is stopped at the end."""
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} is missing (bash .ci/services installs it)")
    started: list[ServerThread] = []

    def start(port: int, **settings: Any) -> ServerThread:
        runner = ServerThread(port, **settings)
        runner.start()
        started.append(runner)
        return runner

    yield start
    for runner in started:
        if runner.thread.is_alive():
            runner.stop()


@pytest.fixture(scope="session")
def base_url(server: ServerThread) -> str:
    """The server's http:// URL."""
    return server.url


@dataclass
class Problems:
    """Console errors and warnings, and uncaught exceptions, of every page."""

    messages: list[str] = field(default_factory=list)
    # Console lines a test expects (a server it stopped refuses connections).
    expected: list[re.Pattern[str]] = field(default_factory=list)

    def console(self, msg: ConsoleMessage) -> None:
        if msg.type in ("error", "warning"):
            if any(pattern.search(msg.text) for pattern in self.expected):
                return
            self.messages.append(f"console {msg.type}: {msg.text} ({msg.location})")

    def page_error(self, error: Exception) -> None:
        self.messages.append(f"pageerror: {error}")


NewPage = Callable[..., Page]


@pytest.fixture
def new_page(browser: Browser, base_url: str, start_server: StartServer) -> Iterator[NewPage]:
    """``new_page(viewport=PHONE, locale="en-GB", motion="reduce")``: a page in
    a fresh browser context (its own localStorage: a different player),
    without the pauses between table events unless ``paced=True`` (for the
    tests of the pacing and the trick animations themselves);
    ``server_url`` points it at another server than the session's. At the end
    of the test no page may have logged an error or warning, except those a
    test declared with ``new_page.expect_console(regex)``. It asks for
    ``start_server`` so that its pages close before the test's own servers
    stop (fixtures end in the reverse order): a page still open would log a
    card face it could not load from a stopped server."""
    problems = Problems()
    contexts: list[BrowserContext] = []

    def make(
        viewport: ViewportSize | None = None,
        locale: str = "en-GB",
        motion: Literal["reduce", "no-preference"] = "reduce",
        server_url: str | None = None,
        paced: bool = False,
    ) -> Page:
        context = browser.new_context(
            viewport=viewport or PHONE,
            locale=locale,
            base_url=server_url or base_url,
            reduced_motion=motion,
        )
        if not paced:
            context.add_init_script(NO_PACING)
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        if CPU_SLOWDOWN > 1:
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        watch(page)
        return page

    def watch(page: Page) -> None:
        page.on("console", problems.console)
        page.on("pageerror", problems.page_error)

    def expect_console(pattern: str) -> None:
        problems.expected.append(re.compile(pattern))

    make.watch = watch  # type: ignore[attr-defined]
    make.expect_console = expect_console  # type: ignore[attr-defined]
    yield make
    for context in contexts:
        context.close()
    assert problems.messages == [], "\n".join(problems.messages)


def save_screenshot(page: Page, name: str, full_page: bool = False) -> None:
    """Save ``name.png`` of the page as it is now, if screenshots are asked
    for (``HEARTS_TEST_SCREENSHOTS=1``)."""
    if SCREENSHOTS:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def shoot(page: Page, name: str) -> None:
    """Save ``name-phone.png`` and ``name-desktop.png`` of the page as it is
    now, if screenshots are asked for (``HEARTS_TEST_SCREENSHOTS=1``)."""
    if not SCREENSHOTS:
        return
    original = page.viewport_size
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        save_screenshot(page, f"{name}-{label}", full_page=label == "phone")
    if original is not None:
        page.set_viewport_size(original)
