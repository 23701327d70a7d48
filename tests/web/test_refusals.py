"""A ``not_now`` refusal says what is not possible now, and why: the
server's ``reason`` picks the page's sentence. The page's own WebSocket is
routed through Playwright, which sends on it the requests a stale page
would (an undo during the pass, a rematch mid-game); the real server
refuses them and the page shows its answers."""

from __future__ import annotations

import re

import msgpack
from playwright.sync_api import WebSocketRoute, expect

from .conftest import DESKTOP, NewPage
from .helpers import TABLE, create_table, start

GENERIC = "That can't be done right now."


def test_not_now_refusals_name_what_is_not_possible(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    to_server: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        to_server.append(ws.connect_to_server())  # everything else passes as is

    page.route_web_socket(re.compile(r"/ws$"), route)
    create_table(page, "Refused", seats=("easy", "easy", "easy"))
    start(page)
    page.wait_for_selector('.center-panel[data-mode="pass"]')
    assert to_server

    toast = page.locator("#toast")
    to_server[-1].send(msgpack.packb({"type": "undo", "id": "stale-undo"}))
    expect(toast).to_contain_text("There is no card to take back now")
    expect(toast).not_to_contain_text(GENERIC)

    to_server[-1].send(msgpack.packb({"type": "rematch", "id": "stale-rematch"}))
    expect(toast).to_contain_text("A rematch can start only after the game is over.")
    expect(page.locator(TABLE)).to_have_attribute("data-status", "playing")
