"""Fixtures more than one test folder uses: Debian's Chromium.

The browser tests (tests/web) and the installed wheel's browser check
(tests/packaging) share one Chromium, started when a test first asks for
``browser`` and kept while the tests that run next ask for it too. It is
stopped before any other test: Playwright's sync API keeps an event loop
running in the main thread while it lives, which no asyncio test can run
beside (pytest-xdist mixes both kinds on a worker), and it allows only one
instance per thread.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.ci import unavailable

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class Chromium:
    """One Playwright with one headless Chromium, started on demand."""

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def get(self) -> Browser:
        """The running browser (started now if it is not running)."""
        if self._browser is None:
            if not CHROMIUM.exists():
                unavailable(f"{CHROMIUM} is missing (bash .ci/services installs it)")
            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
            )
        return self._browser

    def stop(self) -> None:
        """Close the browser and stop Playwright (its event loop with it)."""
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._playwright is not None:
            self._playwright.stop()
            self._playwright = None


CHROMIUM_KEY = pytest.StashKey[Chromium]()


def pytest_configure(config: pytest.Config) -> None:
    """Nothing is started yet: the first test that asks for ``browser`` starts it."""
    config.stash[CHROMIUM_KEY] = Chromium()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test that does not use the browser (and before its fixtures),
    stop it: see the module's docstring."""
    if "browser" not in getattr(item, "fixturenames", ()):
        item.config.stash[CHROMIUM_KEY].stop()


def pytest_unconfigure(config: pytest.Config) -> None:
    """The browser does not outlive the run."""
    config.stash[CHROMIUM_KEY].stop()


@pytest.fixture
def browser(pytestconfig: pytest.Config) -> Browser:
    """Debian's Chromium, headless (never downloaded: without it the test
    skips locally and fails in CI); shared with the tests around it that use
    it too."""
    return pytestconfig.stash[CHROMIUM_KEY].get()
