"""New tables in the browser: "Play vs bots" again and again in one open
page is never refused, and a table over the player's creation budget is
refused with a sentence that says why and in how many seconds."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE, NewPage, StartServer
from .helpers import TABLE


def play_vs_bots(page: Page) -> None:
    page.click("#quick-play")
    page.wait_for_selector(f'{TABLE}[data-status="playing"]')


def leave(page: Page) -> None:
    page.click(".table-bar .leave")
    page.click("#confirm-ok")
    page.wait_for_selector("#lobby")


@pytest.mark.slow
def test_play_vs_bots_again_and_again_in_one_open_page(new_page: NewPage) -> None:
    page = new_page(viewport=PHONE)
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.evaluate("window.sameDocument = true")  # gone if the page reloads
    for _ in range(8):
        play_vs_bots(page)
        leave(page)
    assert page.evaluate("window.sameDocument === true")
    expect(page.locator("#toast")).not_to_contain_text("tables")


def test_a_table_over_the_budget_says_why_and_when(
    new_page: NewPage, start_server: StartServer
) -> None:
    server = start_server(0, tables_burst_per_player=2, tables_per_minute_per_player=1.0)
    page = new_page(viewport=PHONE, server_url=server.url)
    page.goto("/")
    page.wait_for_selector("#lobby")
    for _ in range(2):
        play_vs_bots(page)
        leave(page)
    page.click("#quick-play")
    toast = page.locator("#toast")
    expect(toast).to_have_text(
        re.compile(
            r"You have created many tables in a short time: you can create another in \d+ s\."
        )
    )
    seconds = int(re.findall(r"in (\d+) s", toast.inner_text())[0])
    assert 1 <= seconds <= 60
    expect(page.locator("#lobby")).to_be_visible()  # still in the lobby, nothing changed
