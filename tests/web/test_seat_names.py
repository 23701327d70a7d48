"""Two pages at one table call every seat the same: the host and a friend
see each seat's one name (the server's, SeatInfo.name) on the name plates,
in the chat, the trick list, the hand's result, the score table, the
replay and the winner line, wherever each seat sits on their screen."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from server.seat_names import BOT_NAMES

from .conftest import DESKTOP, NewPage
from .helpers import (
    TABLE,
    create_table,
    fast_play,
    join_by_link,
    pass_three,
    play_hand_together,
    start,
)

HOST, FRIEND = 0, 1


def view_of(page: Page) -> dict[str, Any]:
    """The page's last snapshot."""
    view: dict[str, Any] = page.evaluate("async () => (await import('/js/state.js')).app.view")
    return view


def by_seat(page: Page, selector: str) -> dict[int, str]:
    """The text of every element ``selector`` finds, by the ``data-seat`` of
    it or the nearest element around it that has one."""
    pairs: list[list[Any]] = page.eval_on_selector_all(
        selector,
        "els => els.map(e => [Number(e.closest('[data-seat]').dataset.seat), e.textContent.trim()])",
    )
    return {seat: text for seat, text in pairs}


def plates(page: Page) -> dict[int, str]:
    """Every name plate's name, by seat (your own plate included)."""
    return by_seat(page, "#table .seat[data-seat]:not([hidden]) .seat-name")


@pytest.mark.slow
def test_host_and_friend_see_the_same_name_for_every_seat(new_page: NewPage) -> None:
    host = new_page(viewport=DESKTOP)
    friend = new_page(viewport=DESKTOP)
    code = create_table(host, "Hana", seats=("open", "medium", "medium"), hands=1)
    join_by_link(friend, code, "Fedir", FRIEND)
    expect(host.locator(f'.seat[data-seat="{FRIEND}"] .seat-name')).to_have_text("Fedir")

    names = {s["seat"]: s["name"] for s in view_of(host)["seats"]}
    assert names[HOST] == "Hana" and names[FRIEND] == "Fedir"
    assert names[2] in BOT_NAMES and names[3] in BOT_NAMES and names[2] != names[3]
    assert plates(host) == plates(friend) == names
    # Places stay places: the friend (on the host's left) is not called "West".
    assert host.get_attribute(f'.seat[data-seat="{FRIEND}"]', "data-pos") == "left"
    assert friend.get_attribute(f'.seat[data-seat="{HOST}"]', "data-pos") == "right"

    # Chat lines carry the seat's name, on both pages.
    friend.click("#tab-chat")
    friend.fill("#chat-input", "hi")
    friend.press("#chat-input", "Enter")
    host.click("#tab-chat")
    for page in (host, friend):
        expect(page.locator(".chat-log li").last).to_have_text("Fedir: hi")

    fast_play(host)
    fast_play(friend)
    start(host)
    friend.wait_for_selector(f'{TABLE}[data-status="playing"]')
    assert plates(host) == plates(friend) == names
    pass_three(host)
    pass_three(friend)
    play_hand_together(host, friend, FRIEND)

    # The hand's result and the score table name every seat the same.
    assert by_seat(host, ".result-table th[data-seat]") == names
    assert by_seat(friend, ".result-table th[data-seat]") == names
    for page in (host, friend):
        page.click("#tab-scores")
        assert by_seat(page, ".score-table thead th[data-seat]") == names

    # The trick list: a trick a bot won reads the same on both pages.
    view = view_of(host)
    host.click("#tab-tricks")
    friend.click("#tab-tricks")
    rows = [p.locator(".trick-row .won").all_inner_texts() for p in (host, friend)]
    for k, trick in enumerate(view["tricks"]):
        if trick["winner"] is not None and trick["winner"] > FRIEND:
            assert rows[0][k] == rows[1][k] and names[trick["winner"]] in rows[0][k]

    # The replay of the hand: every line that names a seat is the same.
    replays = []
    for page in (host, friend):
        page.click("#tab-scores")
        page.click('.replay-link[data-hand="1"]')
        dialog = page.locator("dialog.replay")
        expect(dialog).to_be_visible()
        lines = [
            dialog.locator(".replay-played").inner_text(),
            dialog.locator(".replay-winner").inner_text(),
            dialog.locator(".replay-points").inner_text(),
        ]
        replays.append(lines)
        page.click(".replay-close")
    assert replays[0] == replays[1]
    assert all(name in replays[0][2] for name in names.values())

    # The winner line, when the game is over (a tie for the lowest total
    # deals another hand): the winner's name on the other seat's page.
    if view["status"] == "game_over":
        winner = view["winner"]
        for page, seat in ((host, HOST), (friend, FRIEND)):
            if winner != seat:
                expect(page.locator(".over-panel")).to_contain_text(f"{names[winner]} wins")
