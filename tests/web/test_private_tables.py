"""Private tables in the browser: the invite link (``/t/CODE#k=SECRET``)
seats its holder at once and its secret goes nowhere but the frames that
ask the server about the table, join it or watch it; the join screen tells
a friend with the link what the private table is; a wrong link is said to be not valid; lookups by code from a network
that guessed too much wait out a live countdown; and at a table whose host
approves who sits, a player with only the code knocks, waits (or stops
waiting), and is let in or refused by the host, by mouse or keyboard."""

from __future__ import annotations

import logging
import re
from typing import Any

import msgpack
import pytest
from playwright.sync_api import Page, Request, expect
from websockets.sync.client import connect

from .conftest import DESKTOP, PHONE, NewPage, ServerThread, StartServer, shoot
from .helpers import TABLE, FrameLog, code_of, create_table, secret_of, wait_until

FRIEND, STRANGER = 1, 2
WAIT = re.compile(r"Too many wrong codes from your network; try again in (\d+) s")


def dashed(code: str) -> str:
    return f"{code[:3]}-{code[3:]}"


def seated_at(page: Page, seat: int | str) -> None:
    """Until the page shows the table with us at ``seat`` ("" for a spectator)."""
    page.wait_for_selector(f'{TABLE}[data-status="waiting"][data-seat="{seat}"]')


def spend_the_network_budget(url: str, misses: int) -> None:
    """Someone else on this network (127.0.0.1) tries ``misses`` invite links
    that name no table: each counts against the network's budget."""
    with connect(url.replace("http://", "ws://") + "/ws") as ws:
        ws.send(msgpack.packb({"type": "hello", "id": 1, "version": 1, "name": "Guesser"}))
        assert msgpack.unpackb(ws.recv(timeout=10))["type"] == "welcome"
        for n in range(misses):
            ask = {"type": "join_table", "id": n + 2, "code": "ZZZZZZ", "invite": "nope.nope"}
            ws.send(msgpack.packb(ask))
            reply = msgpack.unpackb(ws.recv(timeout=10))
            assert reply["code"] == "no_such_table", reply


def carrying(frames: list[dict[str, Any]], secret: str) -> list[dict[str, Any]]:
    """The frames in which ``secret`` appears anywhere."""
    return [m for m in frames if secret in repr(m)]


def test_the_invite_link_seats_at_once_and_its_secret_stays_in_the_page(
    new_page: NewPage, base_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    host = new_page(viewport=DESKTOP)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    code = create_table(host, "Hana", seats=("open", "open", "easy"), approval=True)

    # The host's page shows the whole link (with the secret) and the short code.
    link = host.input_value("#invite-link")
    secret = secret_of(link)
    assert link == f"{base_url}/t/{code}#k={secret}"
    expect(host.locator(".waiting-room .big-code")).to_have_text(dashed(code))
    expect(host.locator(".table-bar .code")).to_have_text(dashed(code))
    expect(host.locator(".waiting-room .approval-note")).to_contain_text(
        "Ask me before someone sits: on."
    )
    host.click(".table-bar .copy-link")
    expect(host.locator("#toast")).to_have_text("Link copied")
    assert host.evaluate("() => navigator.clipboard.readText()") == link
    host.click("#tab-info")
    expect(host.locator("#join-link")).to_have_value(link)
    expect(host.locator("#panel-info .link-hint")).to_contain_text("Whoever has this link")
    expect(host.locator("#panel-info .approval-note")).to_contain_text("The host approves who sits")
    assert host.url == f"{base_url}/t/{code}"  # the host's address bar holds no secret

    # A friend opens the link and wanders off to the rules page and back first.
    friend = new_page(viewport=PHONE)
    frames = FrameLog(friend)
    requests: list[Request] = []
    console: list[str] = []
    friend.on("request", lambda request: requests.append(request))
    friend.on("console", lambda msg: console.append(msg.text))
    friend.goto(f"/t/{code}#k={secret}")
    friend.wait_for_selector("#join-form")
    friend.click("#rules-link")
    expect(friend.locator("#rules-page")).to_be_visible()
    friend.click("#rules-page .rules-head button")
    expect(friend.locator("#join-form")).to_be_visible()
    friend.fill("#player-name", "Fedir")
    friend.click("#join-button")
    # No knock at a table that asks for approval: the link is the host's word.
    seated_at(friend, FRIEND)
    expect(host.locator('.seat[data-pos="left"]')).to_contain_text("Fedir")
    assert "knock" not in frames.types()
    expect(friend.locator("#invite-link")).to_have_value(link)  # players share the same link
    expect(friend.locator(".waiting-room .approval-note")).to_have_text(
        "The host lets in players who have only the code."
    )
    assert friend.url == f"{base_url}/t/{code}"

    # A spectator with the link watches without knocking, too.
    watcher = new_page(viewport=PHONE)
    watcher_frames = FrameLog(watcher)
    watcher.goto(f"/t/{code}#k={secret}")
    watcher.fill("#player-name", "Vira")
    watcher.click("#watch-button")
    seated_at(watcher, "")
    expect(watcher.locator(".status-line")).to_have_text("You are watching this table.")
    expect(watcher.locator("#invite-link")).to_have_value(f"{base_url}/t/{code}")
    # The spectator's address bar keeps the secret: a reload can watch again.
    assert watcher.url == f"{base_url}/t/{code}#k={secret}"
    watcher.reload()
    watcher.click("#watch-button")
    seated_at(watcher, "")

    # The secret went to the server in the frames that ask about the table
    # (its join screen's facts), join it and watch it, alone...
    sent = carrying(frames.sent, secret)
    assert [(m["type"], m["code"], m["invite"]) for m in sent] == [
        ("get_table_facts", code, secret),
        ("join_table", code, secret),
    ]
    watched = carrying(watcher_frames.sent, secret)
    assert [(m["type"], m["invite"]) for m in watched] == [
        ("get_table_facts", secret),
        ("watch", secret),
        ("get_table_facts", secret),
        ("watch", secret),
    ]
    # ...never in an HTTP request (it is a fragment: neither the URL nor a
    # Referer carries it, so no request log can hold it)...
    assert any(r.url == f"{base_url}/t/{code}" for r in requests)
    assert len(requests) > 5  # the page, its modules, its stylesheet
    for request in requests:
        assert secret not in request.url
        assert all(secret not in value for value in request.all_headers().values())
    # ...never in the page's console, nor in the server's logs.
    assert not any(secret in line for line in console)
    assert secret not in caplog.text


def seconds_left(text: str) -> int:
    """The number of seconds a throttle note says."""
    match = WAIT.fullmatch(text)
    assert match, text
    return int(match[1])


def test_a_wrong_invite_link_is_said_to_be_not_valid(
    new_page: NewPage, start_server: StartServer
) -> None:
    # A wrong link counts against the network's budget: a server of our own.
    server = start_server(0)
    host = new_page(viewport=DESKTOP, server_url=server.url)
    code = create_table(host, "Hana", seats=("open", "easy", "easy"))
    link = host.input_value("#invite-link")
    secret = secret_of(link)
    forged = f"{secret.split('.', 1)[0]}.not-the-secret"

    guest = new_page(viewport=PHONE, server_url=server.url)
    frames = FrameLog(guest)
    guest.goto(f"/t/{code}#k={forged}")
    guest.fill("#player-name", "Olena")
    guest.click("#join-button")
    notice = guest.locator("#notice")
    expect(notice).to_contain_text("This invite link is not valid")
    expect(notice).to_contain_text(f"The link to table {dashed(code)}")
    expect(guest.locator("#announcer")).to_contain_text("This invite link is not valid")
    assert guest.url == f"{server.url}/"  # the wrong fragment is gone from the address bar
    expect(host.locator('.seat[data-pos="left"]')).to_contain_text("Open seat")
    shoot(guest, "invite-link-not-valid")

    # The whole link pasted into the lobby's box is used as a link.
    guest.fill("#join-code", link)
    guest.click("#join-code-button")
    seated_at(guest, FRIEND)
    joins = [(m["code"], m.get("invite")) for m in frames.sent if m["type"] == "join_table"]
    assert joins == [(code, forged), (code, secret)]


@pytest.mark.slow
def test_throttled_codes_count_down_and_wait_but_the_link_does_not(
    new_page: NewPage, start_server: StartServer
) -> None:
    server: ServerThread = start_server(0, free_code_misses=1)
    host = new_page(viewport=DESKTOP, server_url=server.url)
    code = create_table(host, "Hana", seats=("open", "open", "open"))
    link = host.input_value("#invite-link")
    # Pages ready to ask by code: one on the link's join screen without the
    # secret, one in the lobby.
    page = new_page(viewport=PHONE, server_url=server.url)
    frames = FrameLog(page)
    page.goto(f"/t/{code}")
    page.fill("#player-name", "Olena")
    lobby = new_page(viewport=DESKTOP, server_url=server.url)
    lobby.goto("/")
    lobby.wait_for_selector("#lobby #stats dl")
    lobby.fill("#player-name", "Lev")
    lobby.fill("#join-code", dashed(code))

    # One miss is free, then 1, 2, 4, 8, 16 s: the network now waits 16 s.
    spend_the_network_budget(server.url, 6)
    page.click("#join-button")
    note = page.locator("#join-form .throttle-note")
    expect(note).to_have_text(WAIT)
    shown = note.inner_text()
    first = seconds_left(shown)
    assert 10 <= first <= 16
    expect(page.locator("#join-button")).to_be_disabled()
    expect(page.locator("#watch-button")).to_be_disabled()
    expect(page.locator("#announcer")).to_contain_text("Too many wrong codes from your network")
    # The countdown is live: the next second shows.
    expect(note).not_to_have_text(shown)
    assert first - 2 <= seconds_left(note.inner_text()) < first
    lobby.click("#join-code-button")
    lobby_note = lobby.locator(".join-form .throttle-note")
    expect(lobby_note).to_have_text(WAIT)
    expect(lobby.locator("#join-code-button")).to_be_disabled()
    shoot(page, "throttled-join")
    shoot(lobby, "throttled-lobby")

    # Meanwhile the link's holder is never throttled.
    friend = new_page(viewport=PHONE, server_url=server.url)
    friend.goto(link.removeprefix(server.url))
    friend.fill("#player-name", "Fedir")
    friend.click("#join-button")
    seated_at(friend, FRIEND)
    expect(note).to_be_visible()  # while the others still wait

    # When the wait is over the buttons work again, and the code seats them.
    expect(note).to_be_hidden(timeout=30_000)
    expect(page.locator("#announcer")).to_contain_text("You can try a code again.")
    expect(page.locator("#join-button")).to_be_enabled()
    # Nothing was asked again behind the player's back.
    assert frames.types().count("join_table") == 1
    page.click("#join-button")
    seated_at(page, STRANGER)
    expect(lobby_note).to_be_hidden()
    lobby.click("#join-code-button")
    seated_at(lobby, 3)
    assert code_of(lobby.url) == code


def test_a_player_with_only_the_code_knocks_and_the_host_answers(
    new_page: NewPage, server: ServerThread
) -> None:
    host = new_page(viewport=DESKTOP)
    host_frames = FrameLog(host)
    code = create_table(host, "Hana", seats=("open", "open", "easy"), approval=True)
    stranger = new_page(viewport=PHONE)
    frames = FrameLog(stranger)
    stranger.goto(f"/t/{code}")
    stranger.fill("#player-name", "Stas")
    stranger.click("#join-button")

    door = stranger.locator("#join-form .knock-box")
    expect(door).to_contain_text("This table's host lets players in")
    expect(stranger.locator("#knock-button")).to_be_focused()
    expect(stranger.locator("#join-button")).to_have_count(0)
    stranger.keyboard.press("Enter")
    expect(door).to_contain_text("Waiting for the host…")
    expect(stranger.locator("#knock-cancel")).to_be_visible()

    # The host sees who knocks, and so does the screen-reader log.
    knocks = host.locator(".table-banner.knocks")
    expect(knocks).to_contain_text("Stas is knocking and asks to join your table.")
    expect(host.locator("#announcer")).to_contain_text("Stas is knocking")
    expect(knocks.locator(".let-in")).to_have_attribute("aria-label", "Let Stas in")
    shoot(host, "knocking-host")
    shoot(stranger, "knocking-waiting")

    # By keyboard: from the table's last control, Tab reaches Let in, then Refuse.
    host.focus(".table-bar .leave")
    host.keyboard.press("Tab")
    expect(knocks.locator(".let-in")).to_be_focused()
    host.keyboard.press("Tab")
    expect(knocks.locator(".refuse")).to_be_focused()
    host.keyboard.press("Enter")
    expect(door).to_contain_text("The host didn't let you in.")
    expect(knocks).to_be_hidden()
    expect(host.locator('.seat[data-pos="left"]')).to_contain_text("Open seat")

    # Again; this time the connections drop while Stas waits, and the host
    # lets him in once both are back.
    stranger.click("#knock-button")
    expect(door).to_contain_text("Waiting for the host…")
    expect(knocks).to_contain_text("Stas")
    knocked = frames.types().count("knock")
    resumed = host_frames.types().count("resume")
    assert server.drop_connections() >= 2
    # The stranger knocks again on the new connection; the host resumes.
    wait_until(stranger, lambda: frames.types().count("knock") > knocked)
    wait_until(host, lambda: host_frames.types().count("resume") == resumed + 1)
    for page in (host, stranger):
        expect(page.locator("#conn-status")).to_have_attribute("data-status", "online")
    expect(door).to_contain_text("Waiting for the host…")
    # Had the server put the table away while nobody was at it (a knock
    # goes with it), the stranger's page, knocking every 10 s, puts it back.
    expect(knocks).to_contain_text("Stas", timeout=30_000)
    host.focus(".table-bar .leave")
    host.keyboard.press("Tab")
    expect(knocks.locator(".let-in")).to_be_focused()
    host.keyboard.press("Enter")
    seated_at(stranger, FRIEND)  # the page joined by itself
    expect(host.locator('.seat[data-pos="left"]')).to_contain_text("Stas")
    expect(knocks).to_be_hidden()
    expect(host.locator("#toast")).to_have_text("Stas may come in now.")
    assert stranger.url.endswith(f"/t/{code}")


def test_a_knock_can_be_cancelled_and_spectators_knock_too(new_page: NewPage) -> None:
    host = new_page(viewport=DESKTOP)
    code = create_table(host, "Hana", seats=("open", "easy", "easy"), approval=True)
    visitor = new_page(viewport=PHONE)
    frames = FrameLog(visitor)
    visitor.goto(f"/t/{code}")
    visitor.fill("#player-name", "Vira")
    visitor.click("#watch-button")  # watching by code needs the host's word too
    door = visitor.locator("#join-form .knock-box")
    expect(door).to_contain_text("This table's host lets players in")
    visitor.click("#knock-button")
    expect(door).to_contain_text("Waiting for the host…")

    # Vira stops waiting; the host still sees the knock (it cannot be withdrawn).
    visitor.click("#knock-cancel")
    expect(visitor.locator("#knock-button")).to_be_focused()
    expect(door).not_to_contain_text("Waiting")
    mark = len(frames.sent)
    knocks = host.locator(".table-banner.knocks")
    expect(knocks).to_contain_text("Vira")
    # The host's answer arrives, and nothing happens: she stopped waiting.
    socket = frames.sockets[-1]
    with socket.expect_event(
        "framereceived",
        predicate=lambda p: (
            isinstance(p, bytes) and msgpack.unpackb(p, raw=False).get("type") == "knock_answered"
        ),
    ):
        knocks.locator(".let-in").click()
    expect(knocks).to_be_hidden()
    expect(visitor.locator("#knock-button")).to_be_visible()
    expect(visitor.locator(TABLE)).to_have_count(0)

    # Knocking later finds the door open: she watches at once. Since she
    # stopped waiting, that is all the page asked for.
    visitor.click("#knock-button")
    seated_at(visitor, "")
    asked = [m for m in frames.sent[mark:] if m["type"] in ("watch", "join_table", "knock")]
    assert [m["type"] for m in asked] == ["watch"]
    assert "invite" not in asked[0]


# What a friend's page says on the join screen, in each language.
JOIN_FACTS_WORDS = {
    "en-GB": {"host": "host: Hana", "waiting": "Waiting for players", "medium": "Medium"},
    "uk-UA": {"host": "господар: Hana", "waiting": "Чекає на гравців", "medium": "Середній"},
    "ru-RU": {"host": "хозяин: Hana", "waiting": "Ждёт игроков", "medium": "Средний"},
}


def test_a_friend_with_the_invite_link_sees_the_private_tables_facts_before_sitting(
    new_page: NewPage,
) -> None:
    """The join screen of a private table, opened by its invite link in en,
    uk and ru: the table's name, host, who sits at each seat (the names the
    host's page shows) and its rules, before the friend sits; the link's
    holder is not told to knock. Someone with only the code is told the
    host approves who sits."""
    host = new_page(viewport=DESKTOP)
    code = create_table(
        host, "Hana", seats=("open", "medium", "open"), approval=True, table_name="Friday hearts"
    )
    link = host.input_value("#invite-link")
    secret = secret_of(link)
    fedir = new_page(viewport=DESKTOP)
    fedir.goto(f"/t/{code}#k={secret}")
    fedir.fill("#player-name", "Fedir")
    fedir.click("#join-button")
    seated_at(fedir, FRIEND)
    expect(host.locator('.seat[data-pos="left"]')).to_contain_text("Fedir")
    plates = host.locator(".seat-name").all_inner_texts()
    host.click("#tab-info")
    host_rules = host.locator("#panel-info .rules-list li").all_inner_texts()
    assert host_rules

    for locale, words in JOIN_FACTS_WORDS.items():
        friend = new_page(viewport=PHONE, locale=locale)
        frames = FrameLog(friend)
        friend.goto(f"/t/{code}#k={secret}")
        facts = friend.locator("#join-facts")
        expect(facts.locator("h2")).to_have_text("Friday hearts")
        expect(facts.locator(".join-host")).to_have_text(f"{words['host']} · {words['waiting']}")
        seats = facts.locator(".join-seats li")
        expect(seats).to_have_count(4)
        shown = seats.all_inner_texts()
        assert shown[:2] == ["Hana", "Fedir"]
        bot, level = shown[2].split(" · ")
        assert level == words["medium"]
        assert bot in plates and bot not in ("Hana", "Fedir")  # the name the host sees
        expect(seats.nth(3)).to_have_attribute("data-kind", "open")
        rules = facts.locator(".rules-list li")
        expect(rules).to_have_count(len(host_rules))
        if locale == "en-GB":
            assert rules.all_inner_texts() == host_rules
        # The link's holder sits at once: no word of knocking.
        expect(facts.locator(".approval-note")).to_have_count(0)
        asked = [m for m in frames.sent if m["type"] == "get_table_facts"]
        assert [(m["code"], m["invite"]) for m in asked] == [(code, secret)]
        if locale == "en-GB":
            shoot(friend, "join-private-table-facts")
        friend.close()

    stranger = new_page(viewport=PHONE)
    stranger.goto(f"/t/{code}")
    facts = stranger.locator("#join-facts")
    expect(facts.locator("h2")).to_have_text("Friday hearts")
    expect(facts.locator(".approval-note")).to_have_text(
        "The host approves who sits: players with only the code knock first."
    )
