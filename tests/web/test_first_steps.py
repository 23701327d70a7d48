"""A new player's first steps: the focus goes where the next step is
(Start after "Create table", the hand after "Play vs bots"), and on a phone
the hand is two rows of whole cards, the side seats' card counts whole, the
connection's state a dot beside the logo (never over it)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, NewPage, StartServer, save_screenshot
from .helpers import TABLE, create_table

# Each card of the hand: its box, and how much of it shows (up to the next
# card of its row, which is drawn over it).
HAND_BOXES = """
() => {
  const cards = [...document.querySelectorAll('.hand .card')].map((c) => c.getBoundingClientRect());
  return cards.map((r, k) => {
    const next = cards[k + 1];
    const sameRow = next && Math.abs(next.top - r.top) < r.height / 2;
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, shown: sameRow ? next.left - r.left : r.width };
  });
}
"""

# Whether every side seat's card count lies whole inside its plate and the window.
COUNTS_WHOLE = """
() => [...document.querySelectorAll('.seat[data-pos="left"], .seat[data-pos="right"]')].map((seat) => {
  const s = seat.getBoundingClientRect();
  const c = seat.querySelector('.backs .count').getBoundingClientRect();
  return c.width > 0 && c.left >= s.left && c.right <= s.right && s.left >= 0 && s.right <= window.innerWidth;
})
"""


def test_create_table_puts_the_focus_on_start(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    create_table(page, "Mia")
    expect(page.locator(".start-game")).to_be_focused()


def quick_play(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.fill("#player-name", "Mia")
    page.click("#quick-play")
    page.wait_for_selector(f'{TABLE}[data-status="playing"][data-phase="pass"]')


@pytest.mark.parametrize("locale", ["en-GB", "uk-UA", "ru-RU"])
def test_play_vs_bots_on_a_phone(new_page: NewPage, locale: str) -> None:
    page = new_page(viewport=PHONE, locale=locale)
    quick_play(page)
    # The next step is choosing cards: the focus is in the hand.
    expect(page.locator('.hand .card[tabindex="0"]')).to_be_focused()
    expect(page.locator(".hand .card")).to_have_count(13)
    save_screenshot(page, f"first-steps-{locale}-phone")
    boxes = page.evaluate(HAND_BOXES)
    rows = {round(b["top"]) for b in boxes}
    assert len(rows) == 2, boxes
    for b in boxes:
        assert b["left"] >= 0 and b["right"] <= PHONE["width"], b
        # A whole card face (not a 26-px strip) under each finger.
        assert b["shown"] >= 44, b
    assert page.evaluate(COUNTS_WHOLE) == [True, True]
    # Offline: a dot beside the logo, its words in its title.
    page.evaluate(
        "() => { const el = document.querySelector('#conn-status');"
        " el.dataset.status = 'offline'; el.textContent = el.title = 'Offline — reconnecting…'; }"
    )
    brand = page.locator("#home-link").bounding_box()
    dot = page.locator("#conn-status").bounding_box()
    assert brand is not None and dot is not None
    assert dot["x"] >= brand["x"] + brand["width"], (brand, dot)
    assert dot["x"] + dot["width"] <= PHONE["width"], dot


UNKNOWN_CODE = {
    "en-GB": "No table has this code",
    "uk-UA": "Немає столу з таким кодом",
    "ru-RU": "Нет стола с таким кодом",
}


@pytest.mark.parametrize("locale", ["en-GB", "uk-UA", "ru-RU"])
def test_the_join_screen_keeps_the_code_whole_on_a_phone_and_says_it_names_no_table(
    new_page: NewPage, start_server: StartServer, locale: str
) -> None:
    # A code that names no table spends this network's budget of wrong
    # codes: a server of the test's own, not the shared one.
    server = start_server(0)
    page = new_page(viewport=PHONE, locale=locale, server_url=server.url)
    page.goto("/t/ABCDEF")
    code = page.locator("#join-form h1 .code-whole")
    expect(code).to_have_text("ABC-DEF")
    expect(page.locator('#join-facts[data-state="unknown"]')).to_contain_text(UNKNOWN_CODE[locale])
    assert (
        page.evaluate(
            "() => document.querySelector('#join-form h1 .code-whole').getClientRects().length"
        )
        == 1
    )


def test_the_join_screen_tells_a_public_tables_facts(new_page: NewPage) -> None:
    host = new_page(viewport=DESKTOP)
    # A name of its own: the session's server lists every test's public tables.
    code = create_table(host, "Bohdan", seats=("open", "hard", "hard"), hands=None, public=True)
    guest = new_page(viewport=PHONE)
    guest.goto(f"/t/{code}")
    facts = guest.locator("#join-facts")
    expect(facts).to_be_visible()
    expect(facts.locator("h2")).to_have_text("Bohdan's table")
    expect(facts).to_contain_text("host: Bohdan · Waiting for players")
    seats = facts.locator(".join-seats li")
    expect(seats).to_have_count(4)
    expect(seats.nth(0)).to_have_text("Bohdan")
    expect(seats.nth(1)).to_have_text("Open seat")
    expect(seats.nth(2)).to_contain_text(" · Hard")
    expect(seats.nth(3)).to_contain_text(" · Hard")
    expect(facts).to_contain_text("Left, right, across, hold")
