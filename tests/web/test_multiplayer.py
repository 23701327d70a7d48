"""Two browser contexts at one table: the host and a friend who came by the
join link, plus two bots; they chat and play a hand to its end."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, NewPage
from .helpers import (
    create_table,
    fast_play,
    join_by_link,
    pass_three,
    play_hand_together,
    start,
    status,
)

# The host sits at seat 0; the table is created with the seat on its left open.
HOST, FRIEND = 0, 1


@pytest.mark.slow
def test_host_and_friend_by_link_play_a_hand(new_page: NewPage) -> None:
    host = new_page(viewport=DESKTOP, motion="no-preference")
    friend = new_page(viewport=PHONE, motion="no-preference")
    code = create_table(host, "Hana", seats=("open", "easy", "easy"), hands=1)
    expect(host.locator('.seat[data-pos="left"]')).to_contain_text("Open seat")

    # The friend opens the link, gives a name and takes the open seat.
    join_by_link(friend, code, "Fedir", FRIEND)
    expect(host.locator('.seat[data-pos="left"]')).to_contain_text("Fedir")
    expect(friend.locator('.seat[data-pos="right"]')).to_contain_text("Hana")
    expect(friend.locator(".start-game")).to_be_hidden()  # only the host starts

    # Chat reaches the other side.
    friend.click("#tab-chat")
    friend.fill("#chat-input", "hi Hana!")
    friend.press("#chat-input", "Enter")
    expect(host.locator("#tab-chat .unread")).to_have_text("1")
    host.click("#tab-chat")
    expect(host.locator(".chat-log")).to_contain_text("Fedir: hi Hana!")

    fast_play(host)
    fast_play(friend)
    start(host)
    friend.wait_for_selector('#table[data-status="playing"]')
    pass_three(host)
    pass_three(friend)

    # Play until the hand is over: whoever's turn the host's page shows acts.
    play_hand_together(host, friend, FRIEND)
    for page in (host, friend):
        expect(page.locator(".trick-row")).to_have_count(13)
    _same_scores(host, friend)

    # The friend closes the page: the host sees them away. After the game
    # nothing is left to play, so no bot is counted down to cover them; a
    # tie for the lowest total deals one more hand, and then one does
    # (test_away.py follows a countdown mid-hand).
    friend.close()
    seat = host.locator('.seat[data-pos="left"]')
    expect(seat.locator(".badge.away")).to_be_visible()
    if status(host) == "game_over":
        expect(seat.locator(".badge.away")).to_have_text("away")
    else:
        expect(seat.locator(".badge.covering")).to_be_visible(timeout=15_000)


def _same_scores(host: Page, friend: Page) -> None:
    """Both pages show the same totals (each from its own seat's order)."""
    host_totals = host.eval_on_selector_all(
        ".result-table tbody td:last-child", "els => els.map(e => Number(e.textContent))"
    )
    friend_totals = friend.eval_on_selector_all(
        ".result-table tbody td:last-child", "els => els.map(e => Number(e.textContent))"
    )
    assert len(host_totals) == 4
    # Rows are in each viewer's seat order: host 0,1,2,3; friend 1,2,3,0.
    assert friend_totals == host_totals[1:] + host_totals[:1]
    assert sum(host_totals) in (26, 78)


def test_a_late_joiner_sees_the_chat_so_far(new_page: NewPage) -> None:
    """A friend on another device (a fresh browser context, nothing kept)
    who joins after the host chatted sees those lines, from the server's
    chat history; a spectator too."""
    host = new_page(viewport=DESKTOP)
    code = create_table(host, "Hana", seats=("open", "easy", "easy"), hands=1)
    host.click("#tab-chat")
    for text in ("welcome!", "we start at eight"):
        host.fill("#chat-input", text)
        host.press("#chat-input", "Enter")
    expect(host.locator(".chat-log")).to_contain_text("Hana: we start at eight")

    friend = new_page(viewport=PHONE)
    join_by_link(friend, code, "Fedir", FRIEND)
    friend.click("#tab-chat")
    log = friend.locator(".chat-log")
    expect(log).to_contain_text("Hana: welcome!")
    expect(log).to_contain_text("Hana: we start at eight")
    # Oldest first, as they were said.
    text = log.inner_text()
    assert text.index("welcome!") < text.index("we start at eight")
