"""Chat: a late joiner sees the table's recent conversation (``chat_history``),
the chat view scrolls through all of it with the newest line in sight, a
line typed there reaches the table, and after a dropped connection the
lines said meanwhile appear once each."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from client.session import ClientSession
from client.tui.launch import Launch
from client.tui.model import TableModel
from client.tui.widgets.chat_panel import ChatPanel
from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer
from server.table_state import CHAT_HISTORY

from .conftest import TIMEOUT, Proxy, make_app, save_svg, screen_text, wait_for


@pytest.fixture
async def host(server: RunningServer) -> AsyncIterator[ClientSession]:
    """A host at a table with an open seat (seat 1) and two Easy bots."""
    session = ClientSession(server.url, "Hostess")
    await session.connect()
    await session.request(cm.CreateTable(id=session.next_id(), seats=("open", "easy", "easy")))
    try:
        yield session
    finally:
        await session.close()


async def say(session: ClientSession, text: str) -> None:
    """A chat line from ``session`` (its ``ok`` means the table has it)."""
    await session.request(cm.Chat(id=session.next_id(), text=text))


async def chat_from(session: ClientSession, text: str) -> sm.ChatMessage:
    """Wait for the chat line ``text`` on ``session``'s events."""

    async def find() -> sm.ChatMessage:
        async for msg in session.events():
            if isinstance(msg, sm.ChatMessage) and msg.text == text:
                return msg
        raise AssertionError("the session closed")

    return await asyncio.wait_for(find(), TIMEOUT)


def in_chat_view(app: object) -> str:
    """The lines inside the chat view's border (not the log under the hand)."""
    lines = screen_text(app).splitlines()
    top = next(i for i, line in enumerate(lines) if "─ Chat " in line)
    bottom = next(i for i in range(top + 1, len(lines)) if lines[i].startswith("╰"))
    return "\n".join(lines[top + 1 : bottom])


def chat_texts(model: TableModel) -> list[str]:
    """The chat lines the app keeps, oldest first."""
    return [str(line.msg.params["text"]) for line in model.log.chat_lines()]


async def test_a_late_joiner_sees_the_history_and_scrolls_through_it(
    server: RunningServer, host: ClientSession
) -> None:
    said = [f"line {n:02d}" for n in range(CHAT_HISTORY)]
    for text in said:
        await say(host, text)
    assert host.code is not None
    app = make_app(Launch(mode="join", server=server.url, name="Guest", code=host.code))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, lambda: len(model.log.chat_lines()) == len(said), "the history")
        assert chat_texts(model) == said
        await wait_for(pilot, lambda: "Hostess: line 29" in screen_text(app), "the last lines")
        assert "Hostess: line 28" in screen_text(app)  # the two-line log: the newest two

        await pilot.press("slash")  # the chat view takes the table's place
        panel = app.screen.query_one(ChatPanel)
        # Laid out first (before that nothing scrolls, so "at the end" holds at the top).
        await wait_for(
            pilot,
            lambda: panel.display and panel.max_scroll_y > 0 and panel.at_end(),
            "the chat view at its end",
        )
        text = save_svg(app, "chat-view-80x24")
        assert "PgUp PgDn" in text  # the keys line says how to scroll
        # The scroll to the end is drawn on the next refresh: a loaded run
        # captured the screen between the two and saw the first lines.
        await wait_for(pilot, lambda: "Hostess: line 29" in in_chat_view(app), "the end drawn")
        shown = in_chat_view(app)
        assert "Hostess: line 20" in shown
        assert "line 00" not in shown

        while panel.scroll_y > 0:  # page back to the first line
            before = panel.scroll_y
            await pilot.press("pageup")
            await wait_for(pilot, lambda b=before: panel.scroll_y < b, "a page up")
        # The smooth scroll's last step, then drawn.
        await pilot.wait_for_animation()
        await pilot.pause()
        shown = in_chat_view(app)
        assert "Hostess: line 00" in shown and "Hostess: line 29" not in shown

        longest = panel.max_scroll_y
        await say(host, "while you read")  # scrolled up: the view stays put
        await wait_for(pilot, lambda: "while you read" in chat_texts(model), "a new line")
        # Laid out (PgDn scrolls as far as the text is long when pressed).
        await wait_for(pilot, lambda: panel.max_scroll_y > longest, "the new line laid out")
        await pilot.pause()  # the redraw (and any scrolling it asks for) is done
        assert panel.scroll_y == 0
        await pilot.press("pagedown", "pagedown", "pagedown")
        await wait_for(pilot, lambda: "while you read" in in_chat_view(app), "the newest line")

        await pilot.press(*"hello host", "enter")
        line = await chat_from(host, "hello host")
        assert (line.seat, line.name) == (1, "Guest")
        await wait_for(pilot, lambda: "Guest: hello host" in in_chat_view(app), "our line")
        assert panel.display  # Enter sent the line and the chat stays open
        await pilot.press("escape")
        await wait_for(pilot, lambda: not panel.display, "the table again")
        assert "Invite code:" in screen_text(app)


async def test_lines_said_during_a_drop_appear_once(
    server: RunningServer, proxy: Proxy, host: ClientSession
) -> None:
    await say(host, "before the drop")
    assert host.code is not None
    launch = Launch(mode="join", server=proxy.url, name="Guest", code=host.code, max_backoff=0.2)
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, lambda: chat_texts(model) == ["before the drop"], "the history")
        await say(host, "seen live")
        await wait_for(pilot, lambda: "seen live" in chat_texts(model), "a live line")

        proxy.refuse()
        for conn in list(server.ws_server.connections):
            conn.transport.abort()  # the host's session reconnects at once, ours cannot
        await wait_for(pilot, lambda: model.connection == "reconnecting", "the drop")
        await say(host, "missed 1")
        await say(host, "missed 2")
        proxy.allow()
        await wait_for(pilot, lambda: model.connection == "online", "the reconnection")
        await wait_for(pilot, lambda: "missed 2" in chat_texts(model), "the missed lines")
        # Replayed as events and sent again in the history: shown once each.
        assert chat_texts(model) == ["before the drop", "seen live", "missed 1", "missed 2"]
        assert "Hostess: missed 2" in screen_text(app)
