"""The turn timer in the browser: the host chooses it in the lobby's form,
the table says it, the seat whose move it is shows a live countdown, and
when the time runs out a bot moves and the player is told."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import DESKTOP, NewPage, StartServer, shoot
from .helpers import TABLE, hand_cards, start

# Real seconds per timer second: the 15 s timer runs out in 3 s.
SCALE = 0.2


def test_the_hosts_turn_timer_counts_down_then_a_bot_passes(
    new_page: NewPage, start_server: StartServer
) -> None:
    server = start_server(0, turn_timer_scale=SCALE)
    host = new_page(viewport=DESKTOP, server_url=server.url)
    host.goto("/")
    host.wait_for_selector("#lobby")
    host.fill("#player-name", "Tess")
    expect(host.locator("#opt-turn-timer")).to_have_value("off")  # off unless chosen
    host.select_option("#opt-turn-timer", "15")
    host.select_option("#opt-end", "hands")
    host.fill("#opt-end-hands", "1")
    for k in (1, 2, 3):
        host.select_option(f"#seat-{k}", "easy")
    host.click("#create-table")
    host.wait_for_selector(f'{TABLE}[data-status="waiting"]')
    expect(host.locator("#panel-info .turn-timer-note")).to_have_text(
        "Turn timer: 15 s per move; then a bot moves for the player."
    )

    start(host)
    host.wait_for_selector(f'{TABLE}[data-phase="pass"]')
    dealt = set(hand_cards(host))
    countdown = host.locator(".seat.me .badge.turn-timer")
    expect(countdown).to_have_text(re.compile(r"[0-3] s to move"))
    # Only the seat whose move it is counts down; bots never do.
    expect(host.locator(".seat:not(.me) .badge.turn-timer")).to_have_count(0)
    shoot(host, "turn-timer")

    # The host does nothing: the time runs out and a bot passes for them.
    report = host.locator(".bot-report")
    expect(report).to_be_visible()
    text = report.locator("p").inner_text()
    assert re.fullmatch(r"Your time ran out: a bot passed \S+\xa0\S+\xa0\S+ for you\.", text), text
    host.wait_for_selector(f'{TABLE}[data-phase="play"]')
    assert len(dealt - set(hand_cards(host))) >= 3  # passed (and maybe one played since)
