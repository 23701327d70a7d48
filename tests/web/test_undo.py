"""Undo in the browser, with bots alone: after your card and the bots'
replies, Undo puts your card back in your hand and the table back to the
moment before it; the button is not offered before your first card."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import DESKTOP, NewPage
from .helpers import TABLE, card, create_table, pass_three, play_legal, played, start


def test_undo_puts_your_last_card_back(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    create_table(page, "Undoer", seats=("easy", "easy", "easy"))
    start(page)
    pass_three(page)
    page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
    undo = page.locator(".undo-button")
    expect(undo).to_be_hidden()  # no card of ours in this hand yet
    before = played(page)
    text = play_legal(page)
    assert text
    page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
    expect(card(page, text)).to_have_count(0)
    expect(undo).to_be_visible()
    undo.click()
    expect(card(page, text)).to_have_count(1)
    expect(page.locator(TABLE)).to_have_attribute("data-played", str(before))
    expect(page.locator(TABLE)).to_have_attribute("data-myturn", "true")
