"""Kick means out: the removed player's page says so, forgets the seat (no
resume on reload) and is back where another table can be created or
joined; the link is refused until the host, who sees the removed players,
allows them back."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, NewPage, shoot
from .helpers import TABLE, FrameLog, create_table, join_by_link

FRIEND = 1


def test_a_kicked_player_is_told_and_comes_back_when_allowed(new_page: NewPage) -> None:
    host = new_page(viewport=DESKTOP)
    host_frames = FrameLog(host)
    code = create_table(host, "Hana", seats=("open", "easy", "easy"), hands=1)
    friend = new_page(viewport=PHONE)
    friend_frames = FrameLog(friend)
    join_by_link(friend, code, "Fedir", FRIEND)

    host.locator('.seat[data-pos="left"] .kick').click()

    # The friend is told plainly, on the start page, with the seat forgotten.
    notice = friend.locator("#notice")
    expect(notice).to_contain_text("The host removed you from this table")
    expect(notice).to_contain_text(f"{code[:3]}-{code[3:]}")
    expect(friend.locator("#lobby #create-table")).to_be_visible()
    expect(friend.locator("#lobby .join-form")).to_be_visible()
    expect(friend.locator(TABLE)).to_have_count(0)
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", friend.url)
    assert friend.evaluate("() => localStorage.getItem('hearts.seat')") is None
    expect(friend.locator("#announcer")).to_contain_text("The host removed you from this table")
    expect(friend.locator(".resume-banner")).to_have_count(0)
    shoot(friend, "kicked")
    notice.locator("button").click()
    expect(notice).to_have_count(0)

    # The host sees the seat open again and the removed player listed.
    expect(host.locator('.seat[data-pos="left"]')).to_contain_text("Open seat")
    expect(host.locator("#announcer")).to_contain_text("Fedir was removed from the table.")
    removed = host.locator(".waiting-room .kicked-list li")
    expect(removed).to_have_count(1)
    expect(removed).to_contain_text("Fedir")
    shoot(host, "kicked-list")
    host.click("#tab-info")
    expect(host.locator("#panel-info .kicked-list li")).to_contain_text("Fedir")

    # A reload does not try the old seat again.
    friend.reload()
    friend.wait_for_selector("#lobby #stats dl")
    assert "resume" not in friend_frames.types()

    # The link is refused while the host has not allowed them back.
    friend.goto(f"/t/{code}")
    friend.wait_for_selector("#join-form")
    friend.click("#join-button")
    expect(friend.locator(".kicked-hint")).to_contain_text("The host removed you from this table")
    expect(friend.locator("#toast")).to_contain_text("The host removed you from this table")
    expect(friend.locator(TABLE)).to_have_count(0)

    # The host allows them back; the same link now seats them.
    removed.locator(".allow-back").click()
    expect(host.locator(".kicked-list li")).to_have_count(0)
    allow = [m for m in host_frames.sent if m.get("type") == "allow_back"]
    assert len(allow) == 1 and allow[0]["player_id"]
    friend.click("#join-button")
    friend.wait_for_selector(f'{TABLE}[data-status="waiting"][data-seat="{FRIEND}"]')
    expect(host.locator('.seat[data-pos="left"]')).to_contain_text("Fedir")
