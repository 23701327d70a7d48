"""A seat the server no longer knows: a table gone with a restarted
in-memory server (``no_such_table``), or a seat token replaced when the
same player joined again on another device (``bad_token``). The page says
so, forgets the seat, goes back to the start page and never asks for that
seat again (not on reconnect, not on reload); a link to a gone table does
not offer a seat at it."""

from __future__ import annotations

import contextlib
import json

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, WebSocket, expect

from .conftest import DESKTOP, PHONE, NewPage, StartServer, shoot
from .helpers import TABLE, FrameLog, create_table, join_by_link

# What Chromium logs when the page reconnects while no server listens.
REFUSED = r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/ws' failed"


def saved_seat(page: Page) -> object:
    """The seat this browser remembers (None when it keeps none)."""
    text = page.evaluate("() => localStorage.getItem('hearts.seat')")
    return None if text is None else json.loads(text)


def wait_closed(ws: WebSocket) -> None:
    """Until a connection attempt is over (refused: the wait for its close
    then ends with Playwright's "Socket error")."""
    if ws.is_closed():
        return
    with contextlib.suppress(PlaywrightError):
        ws.wait_for_event("close")


@pytest.mark.slow
def test_a_restarted_server_forgets_the_table(new_page: NewPage, start_server: StartServer) -> None:
    first = start_server(0)
    port = first.server.port  # bound by the server; the restart binds it again
    url = first.url
    host = new_page(viewport=DESKTOP, server_url=url)
    host_frames = FrameLog(host)
    code = create_table(host, "Greta", seats=("open", "easy", "easy"), hands=1)
    friend = new_page(viewport=PHONE, server_url=url)
    join_by_link(friend, code, "Jonas", 1)
    assert saved_seat(friend) is not None
    # The friend closes the page; the browser keeps the seat.
    friend_context = friend.context
    friend.close()

    # The server restarts with an empty in-memory store, on the same port;
    # the host's page tries to reconnect while none listens (refused).
    new_page.expect_console(REFUSED)  # type: ignore[attr-defined]
    restarted = FrameLog(host)
    with host.expect_websocket() as attempt:
        first.stop()
    wait_closed(attempt.value)
    start_server(port)

    # The host's page, still open, reconnects, is told the table is gone
    # and lands on the start page; it asked for the seat once.
    notice = host.locator("#notice")
    expect(notice).to_contain_text(f"Table {code[:3]}-{code[3:]} is gone")
    expect(host.locator("#lobby #create-table")).to_be_visible()
    assert host.url == f"{url}/"
    assert saved_seat(host) is None
    host.wait_for_selector("#lobby #stats dl")
    assert restarted.types().count("resume") == 1
    shoot(host, "table-gone")
    host.reload()
    host.wait_for_selector("#lobby #stats dl")
    assert host_frames.types().count("resume") == 1

    # The friend opens the link again: no seat is offered at a gone table.
    again = friend_context.new_page()
    new_page.watch(again)  # type: ignore[attr-defined]
    frames = FrameLog(again)
    again.goto(f"/t/{code}")
    expect(again.locator("#notice")).to_contain_text(f"Table {code[:3]}-{code[3:]} is gone")
    expect(again.locator("#join-form")).to_have_count(0)
    assert again.url == f"{url}/"
    assert saved_seat(again) is None
    again.reload()
    again.wait_for_selector("#lobby #stats dl")
    assert frames.types().count("resume") == 1

    # Someone who never sat there follows the old link: the join screen
    # cannot know the table is gone, but the refused join says so.
    stranger = new_page(server_url=url)
    stranger.goto(f"/t/{code}")
    stranger.wait_for_selector("#join-form")
    stranger.fill("#player-name", "Kai")
    stranger.click("#join-button")
    expect(stranger.locator("#notice")).to_contain_text(f"Table {code[:3]}-{code[3:]} is gone")
    expect(stranger.locator("#join-form")).to_have_count(0)
    assert stranger.url == f"{url}/"


def test_a_seat_taken_over_on_another_device_is_no_longer_yours(new_page: NewPage) -> None:
    """The same player (same player token) joins again on another device:
    that device gets the seat with a new token, so this page's saved token
    proves nothing (``bad_token``) when it comes back."""
    page = new_page()
    frames = FrameLog(page)
    code = create_table(page, "Ivo", seats=("open", "easy", "easy"), hands=1)
    player = page.evaluate("() => localStorage.getItem('hearts.player')")
    other = new_page(viewport=DESKTOP)
    other.goto("/")
    other.wait_for_selector("#lobby")
    other.evaluate("player => localStorage.setItem('hearts.player', player)", player)
    other.goto(f"/t/{code}")
    other.wait_for_selector("#join-form")
    other.click("#join-button")
    other.wait_for_selector(f'{TABLE}[data-status="waiting"][data-seat="0"]')

    page.reload()
    notice = page.locator("#notice")
    expect(notice).to_contain_text(f"Your seat at table {code[:3]}-{code[3:]} is no longer yours")
    expect(page.locator("#lobby #create-table")).to_be_visible()
    expect(page.locator("#join-form")).to_have_count(0)
    assert saved_seat(page) is None
    page.wait_for_selector("#lobby #stats dl")
    page.reload()
    page.wait_for_selector("#lobby #stats dl")
    assert frames.types().count("resume") == 1
    # The other device still holds the seat.
    expect(other.locator(".seat.me")).to_contain_text("Ivo")
