"""Screenshots of the browser client's table for docs/browser.md.

Starts a server of its own (in memory, on a free port of 127.0.0.1), opens
the page in Debian's Chromium (``/usr/bin/chromium``) with Playwright, plays
"Play vs bots" up to a trick in progress and photographs the table at
1920×1080, 1366×768 and 390×844 (a phone), then the lobby and the
statistics page; then a six-seat table (the standard game) and a nine-seat
one (Cancellation Hearts) at the same sizes; then, at 1366×768, a table
with a turn timer of 30 s counting down on our turn. Nothing is staged: it is a real game against the Medium
bots, so each run shows other cards.

``python -m tools.maintenance.browser_screenshots [FOLDER]`` (default ``docs/images``);
``make screenshots`` runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
SIZES = ((1920, 1080), (1366, 768), (390, 844))
TABLE = "#table"


def serve() -> tuple[str, asyncio.AbstractEventLoop, Any]:
    """A server on a free port in a thread of its own: (url, loop, server)."""
    from server.app import start_server
    from server.config import ServerConfig

    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    config = ServerConfig(port=0, store_url="memory://", bot_budget_ms=100, bot_workers=1)
    future: Future[Any] = asyncio.run_coroutine_threadsafe(start_server(config), loop)
    server = future.result(timeout=60)
    return f"http://127.0.0.1:{server.port}", loop, server


def play_a_little(page: Page) -> None:
    """Pass the first three cards, then play three tricks' worth of our
    cards (the first legal one each time) and stop on our next turn."""
    page.wait_for_selector(f'{TABLE}[data-phase="pass"] #pass-button')
    for card in page.eval_on_selector_all(
        ".hand .card", "els => els.slice(0, 3).map(e => e.dataset.card)"
    ):
        page.click(f'.hand .card[data-card="{card}"]', position={"x": 6, "y": 30})
    page.click("#pass-button")
    for _ in range(3):
        page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
        before = page.get_attribute(TABLE, "data-played")
        page.locator('.hand .card[data-legal="true"]').first.click(position={"x": 6, "y": 30})
        page.wait_for_function(
            "n => document.querySelector('#table').dataset.played !== n", arg=before
        )
    page.wait_for_selector(f'{TABLE}[data-myturn="true"]')


def host_table(page: Page, url: str, variant: str, players: int, turn_timer: str = "off") -> None:
    """From the lobby: a table of ``players`` seats of ``variant`` with a
    Medium bot in every other seat (and the form's "Time per move"),
    started."""
    page.goto(url + "/")
    page.wait_for_selector("#lobby")
    page.fill("#player-name", "Ada")
    page.select_option("#opt-variant", variant)
    page.select_option("#opt-players", str(players))
    for select in page.locator(".seat-selects select").all():
        select.select_option("medium")
    page.select_option("#opt-turn-timer", turn_timer)
    page.click("#create-table")
    page.click(".start-game")
    page.wait_for_selector(f'{TABLE}[data-status="playing"]')


def play_tricks(page: Page, tricks: int) -> None:
    """Pass if the hand passes, then play ``tricks`` of our cards (the first
    legal one each time) and stop on our next turn."""
    page.wait_for_selector(f'{TABLE}[data-myturn="true"], {TABLE}[data-phase="pass"] #pass-button')
    if page.get_attribute(TABLE, "data-phase") == "pass":
        for card in page.eval_on_selector_all(
            ".hand .card", "els => els.slice(0, 3).map(e => e.dataset.card)"
        ):
            page.click(f'.hand .card[data-card="{card}"]', position={"x": 6, "y": 30})
        page.click("#pass-button")
    for _ in range(tricks):
        page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
        before = page.get_attribute(TABLE, "data-played")
        page.locator('.hand .card[data-legal="true"]').first.click(position={"x": 6, "y": 30})
        page.wait_for_function(
            "n => document.querySelector('#table').dataset.played !== n", arg=before
        )
    page.wait_for_selector(f'{TABLE}[data-myturn="true"]')


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.maintenance.browser_screenshots", description=__doc__
    )
    parser.add_argument("folder", nargs="?", default=str(REPO / "docs" / "images"))
    folder = Path(parser.parse_args(argv).folder)
    folder.mkdir(parents=True, exist_ok=True)
    url, loop, server = serve()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-GB")
            page.goto(url + "/")
            page.wait_for_selector("#lobby")
            page.fill("#player-name", "Ada")
            page.screenshot(path=str(folder / "lobby-1366x768.png"))
            page.click("#quick-play")
            play_a_little(page)
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_timeout(400)  # the layout settles (no animation is caught mid-way)
                page.screenshot(path=str(folder / f"table-{width}x{height}.png"))
            # Tables of six (the standard game) and nine (Cancellation
            # Hearts, two decks): the opponents round an ellipse.
            for variant, players, name in (("standard", 6, "six"), ("cancellation", 9, "nine")):
                # A fresh context: a new player, not one already seated.
                page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-GB")
                host_table(page, url, variant, players)
                play_tricks(page, 2)
                for width, height in SIZES:
                    page.set_viewport_size({"width": width, "height": height})
                    page.wait_for_timeout(400)
                    page.screenshot(path=str(folder / f"table-{name}-{width}x{height}.png"))
            # A turn timer of 30 s: our seat's countdown running on our turn,
            # a few seconds in (long before a bot would move for us).
            page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-GB")
            host_table(page, url, "standard", 4, turn_timer="30")
            play_tricks(page, 1)
            page.wait_for_selector(".turn-timer.countdown")
            page.wait_for_timeout(3000)
            page.screenshot(path=str(folder / "table-turn-timer-1366x768.png"))
            browser.close()
    finally:
        asyncio.run_coroutine_threadsafe(server.close(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
    print(f"screenshots in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
