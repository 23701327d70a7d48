"""Past hands in the browser: after a hand, its number in the score table
opens a replay: your deal, pass and received cards, then each trick with
Previous / Next (and the arrow keys)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, NewPage
from .helpers import TABLE, create_table, fast_play, pass_three, play_legal, start, status


@pytest.mark.slow
def test_the_score_table_opens_a_replay_of_the_hand(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    create_table(page, "Replayer", seats=("easy", "easy", "easy"), hands=2)
    fast_play(page)
    start(page)
    pass_three(page)
    while status(page) == "playing":
        play_legal(page)
    page.wait_for_selector(
        f'{TABLE}[data-status="between_hands"], {TABLE}[data-status="game_over"]'
    )
    page.click("#tab-scores")
    page.click('.replay-link[data-hand="1"]')
    dialog = page.locator("dialog.replay")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Hand 1")
    expect(dialog.locator(".replay-cards")).to_have_count(3)  # dealt, passed, received
    expect(dialog.locator(".replay-step")).to_have_text("Trick 1 of 13")
    expect(dialog.locator(".replay-card")).to_have_count(4)
    expect(dialog.locator('.replay-card[data-card="2C"]')).to_have_count(1)
    expect(dialog.locator(".replay-prev")).to_be_disabled()
    dialog.locator(".replay-next").click()
    expect(dialog.locator(".replay-step")).to_have_text("Trick 2 of 13")
    page.keyboard.press("ArrowRight")
    expect(dialog.locator(".replay-step")).to_have_text("Trick 3 of 13")
    page.keyboard.press("ArrowLeft")
    expect(dialog.locator(".replay-step")).to_have_text("Trick 2 of 13")
    dialog.locator(".replay-close").click()
    expect(page.locator("dialog.replay")).to_have_count(0)
