"""Coming back: a reload mid-hand, or closing the page and opening the site
again, resumes the same seat with the same hand and cards (the player and
seat tokens live in localStorage)."""

from __future__ import annotations

import json

import msgpack
from playwright.sync_api import expect

from .conftest import NewPage, ServerThread
from .helpers import TABLE, create_table, fast_play, hand_cards, pass_three, play_legal, start


def test_reload_and_return_mid_hand(new_page: NewPage, server: ServerThread) -> None:
    page = new_page()
    code = create_table(page, "Rita", seats=("easy", "easy", "easy"), hands=2)
    fast_play(page)
    start(page)
    pass_three(page)
    play_legal(page)
    page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
    cards = hand_cards(page)
    tricks = page.locator(".trick-row").count()
    on_table = page.eval_on_selector_all(".trick .card", "els => els.map(e => e.dataset.card)")
    stored = page.evaluate(
        "() => [localStorage.getItem('hearts.player'), localStorage.getItem('hearts.seat')]"
    )
    player, seat = (json.loads(x) for x in stored)
    assert player["token"] and seat["seat_token"] and seat["code"] == code

    page.reload()
    page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
    assert page.url.endswith(f"/t/{code}")
    assert hand_cards(page) == cards
    expect(page.locator(".trick-row")).to_have_count(tricks)
    assert (
        page.eval_on_selector_all(".trick .card", "els => els.map(e => e.dataset.card)") == on_table
    )
    assert (
        json.loads(page.evaluate("() => localStorage.getItem('hearts.player')"))["token"]
        == player["token"]
    )

    # Close the page, open the site's front page again: the same seat comes back.
    context = page.context
    page.close()
    again = context.new_page()
    new_page.watch(again)  # type: ignore[attr-defined]
    again.goto("/")
    again.wait_for_selector(f'{TABLE}[data-myturn="true"]')
    assert hand_cards(again) == cards
    expect(again.locator(".seat.me")).to_contain_text("Rita")
    # And the game goes on from there.
    play_legal(again)
    left = hand_cards(again)
    assert len(left) == len(cards) - 1

    # A dropped network: the page reconnects by itself (hello with the
    # player token, then resume) and the game carries on.
    again.wait_for_selector(f'{TABLE}[data-myturn="true"]')
    with again.expect_websocket() as reconnect:
        assert server.drop_connections() >= 1
    sent: list[str] = []
    reconnect.value.on("framesent", lambda frame: sent.append(str(msgpack.unpackb(frame)["type"])))
    again.wait_for_selector('#conn-status[data-status="online"]')
    expect(again.locator(".hand .card")).to_have_count(len(left))
    play_legal(again)
    assert len(hand_cards(again)) == len(left) - 1
    assert sent[:2] == ["hello", "resume"]
