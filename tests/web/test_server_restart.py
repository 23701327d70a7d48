"""The browser keeps its game through a server crash: ``hearts serve --data
DIR`` (the default SQLite store) is SIGKILLed in the second hand and the same
command started again; the open page reconnects by itself and shows the same
hand, the same cards, the same tricks and the same scores, and play goes on.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from ..serve_process import ServeProcess
from .conftest import PHONE
from .helpers import (
    TABLE,
    WAIT_FOR_US,
    create_table,
    fast_play,
    hand_cards,
    pass_three,
    play_legal,
    start,
    status,
)


def where_it_is(page: Page) -> dict[str, object]:
    """What the page shows of the game: hand number and phase, our cards, the
    trick on the table, the tricks taken, the score table, the seats."""
    return {
        "hand": page.get_attribute(TABLE, "data-hand"),
        "phase": page.get_attribute(TABLE, "data-phase"),
        "played": page.get_attribute(TABLE, "data-played"),
        "cards": hand_cards(page),
        "trick": page.eval_on_selector_all(".trick .card", "els => els.map(e => e.dataset.card)"),
        "tricks": page.locator(".trick-row").count(),
        "scores": page.locator(".score-table").text_content(),
        "seats": page.eval_on_selector_all(".seat", "els => els.map(e => e.textContent)"),
    }


def play_first_hand(page: Page) -> None:
    """Play hand 1 to its end (moon choices included) and start hand 2."""
    while True:
        page.wait_for_selector(WAIT_FOR_US)
        if status(page) == "between_hands":
            page.click(".next-hand")
            page.wait_for_selector(f'{TABLE}[data-status="playing"][data-hand="2"]')
            return
        phase = page.get_attribute(TABLE, "data-phase")
        if phase == "pass":
            pass_three(page)
        elif phase == "moon_choice":
            page.click(".moon-add")
        else:
            play_legal(page)


@pytest.mark.slow
def test_the_page_resumes_its_hand_after_the_server_is_killed_and_restarted(
    browser: Browser, tmp_path: Path
) -> None:
    def args(port: int) -> list[str]:
        return [
            *("--data", str(tmp_path / "data"), "--port", str(port), "--grace", "30"),
            *("--bot-workers", "1", "--bot-budget-ms", "30"),
        ]

    log = tmp_path / "serve.log"
    problems: list[str] = []
    with contextlib.ExitStack() as running:
        # The first server binds a free port itself; the second binds it again.
        first = running.enter_context(ServeProcess(args(0), log))
        first.start()
        port = first.port
        assert port is not None
        second = running.enter_context(ServeProcess(args(port), log))
        # Chromium logs each refused reconnect while the server is down; any
        # other console error or warning fails the test.
        refused = re.compile(rf"WebSocket connection to 'ws://127\.0\.0\.1:{port}/ws' failed")

        def console(msg: ConsoleMessage) -> None:
            if msg.type in ("error", "warning") and not refused.search(msg.text):
                problems.append(f"console {msg.type}: {msg.text}")

        context = browser.new_context(
            viewport=PHONE,
            locale="en-GB",
            base_url=f"http://127.0.0.1:{port}",
            reduced_motion="reduce",
        )
        context.set_default_timeout(20_000)
        try:
            page = context.new_page()
            page.on("console", console)
            page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
            code = create_table(page, "Rita", seats=("easy", "easy", "easy"), hands=2)
            fast_play(page)
            start(page)
            play_first_hand(page)
            pass_three(page)
            play_legal(page)
            play_legal(page)
            page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
            before = where_it_is(page)
            assert before["scores"] and before["tricks"] >= 1

            assert first.kill() == -9
            page.wait_for_selector('#conn-status:not([data-status="online"])')
            second.start()
            # Reconnecting with backoff, the page says hello and resumes.
            page.wait_for_selector('#conn-status[data-status="online"]', timeout=30_000)
            page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
            assert where_it_is(page) == before
            assert page.url.endswith(f"/t/{code}")
            # And the game goes on from there.
            left = play_legal(page)
            assert left not in hand_cards(page)
            expect(page.locator(".hand .card")).to_have_count(len(before["cards"]) - 1)  # type: ignore[arg-type]
        finally:
            context.close()
        assert second.stop() == 0
    assert problems == [], "\n".join(problems)
