"""Fixtures more than one test folder uses: Debian's Chromium.

The browser tests (tests/web) and the installed wheel's browser check
(tests/packaging) share one Chromium per session: Playwright's sync API runs
one instance per thread, so two session- or module-scoped ones alive at
once (as on a pytest-xdist worker that runs tests of both folders) fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

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


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless (never downloaded: without it the test
    skips locally and fails in CI)."""
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} is missing (bash .ci/services installs it)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
