"""Hints on request in the browser: the Hint button chooses the Medium bot's
pass for you (Pass still waits for you), marks the card it would play, and
the advice is gone once the table moves on."""

from __future__ import annotations

import pytest
from playwright.sync_api import ViewportSize, expect

from .conftest import DESKTOP, PHONE, NewPage
from .helpers import TABLE, card, create_table, start, tap


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_hint_chooses_the_pass_and_marks_the_card_to_play(
    new_page: NewPage, viewport: ViewportSize
) -> None:
    page = new_page(viewport=viewport)
    create_table(page, "Hinted", seats=("easy", "easy", "easy"))
    start(page)
    page.wait_for_selector(f'{TABLE}[data-phase="pass"] .center-panel[data-mode="pass"]')
    hint = page.locator(".hint-button")
    expect(hint).to_be_visible()
    hint.click()
    chosen = page.locator('.hand .card[aria-pressed="true"]')
    expect(chosen).to_have_count(3)
    expect(page.locator(".advice-line")).to_contain_text("Hint: pass")
    expect(page.locator("#pass-button")).to_be_enabled()
    page.click("#pass-button")

    page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
    expect(page.locator(".advice-line")).to_be_hidden()
    page.locator(".hint-button").click()
    advised = page.locator(".hand .card.advised")
    expect(advised).to_have_count(1)
    expect(advised).to_have_attribute("data-legal", "true")
    text = advised.get_attribute("data-card") or ""
    expect(page.locator(".advice-line")).to_contain_text("Hint: play")
    before = int(page.get_attribute(TABLE, "data-played") or 0)
    tap(page, text)
    page.wait_for_function(
        "n => Number(document.querySelector('#table').dataset.played) > n", arg=before
    )
    expect(card(page, text)).to_have_count(0)
    expect(page.locator(".hand .card.advised")).to_have_count(0)
    expect(page.locator(".advice-line")).to_be_hidden()
