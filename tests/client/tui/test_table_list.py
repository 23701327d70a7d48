"""``hearts join`` without a code: the public tables (private ones are not
listed), ``r`` refreshes, Enter joins the highlighted table, ``w`` watches
it, and a refusal (the table filled up, a wrong code) is said under the list
so the player can pick again."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.widgets import DataTable

from client.session import ClientSession
from client.tui.launch import Launch
from client.tui.screens.table_list import TableListScreen
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from server.app import RunningServer

from .conftest import make_app, save_svg, screen_text, wait_for


def shown(code: str) -> str:
    return f"{code[:3]}-{code[3:]}"


class Hosts:
    """Sessions hosting tables for a test (closed at the end)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sessions: list[ClientSession] = []

    async def table(self, host: str, public: bool = True, **kw: object) -> str:
        """A new table hosted by ``host``; its code."""
        session = ClientSession(self.url, host)
        await session.connect()
        self.sessions.append(session)
        reply = await session.request(cm.CreateTable(id=session.next_id(), public=public, **kw))  # type: ignore[arg-type]
        assert isinstance(reply, sm.Seated)
        return reply.code

    async def join(self, name: str, code: str) -> None:
        """Another player sits at ``code``."""
        session = ClientSession(self.url, name)
        await session.connect()
        self.sessions.append(session)
        await session.request(cm.JoinTable(id=session.next_id(), code=code))

    async def close(self) -> None:
        """Close every session."""
        for session in self.sessions:
            await session.close()


@pytest.fixture
async def hosts(server: RunningServer) -> AsyncIterator[Hosts]:
    """Table hosts on the test's server."""
    h = Hosts(server.url)
    try:
        yield h
    finally:
        await h.close()


def listing(app: object) -> TableListScreen:
    from textual.app import App

    assert isinstance(app, App) and isinstance(app.screen, TableListScreen)
    return app.screen


async def move_to(pilot: object, app: object, code: str) -> None:
    """Put the list's cursor on the table ``code``."""
    screen = listing(app)
    row = [t.code for t in screen.tables].index(code)
    screen.query_one(DataTable).move_cursor(row=row)
    await wait_for(pilot, lambda: screen.highlighted() is not None, "the cursor")
    highlighted = screen.highlighted()
    assert highlighted is not None and highlighted.code == code


async def test_public_tables_are_listed_refreshed_and_joined(
    server: RunningServer, hosts: Hosts, tmp_path: Path
) -> None:
    friday = await hosts.table(
        "Ann",
        name="Friday hearts",
        seats=("open", "easy", "open"),
        rules=RulesModel(bonus_card="JD"),
    )
    bobs = await hosts.table("Bob", seats=("open", "open", "hard"))
    secret = await hosts.table("Cid", public=False)
    session_file = tmp_path / "session.json"
    app = make_app(Launch(mode="join", server=server.url, name="Guest", session_file=session_file))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Tables waiting for players: 2." in screen_text(app), "list")
        await move_to(pilot, app, friday)
        await wait_for(pilot, lambda: "bonus J♦ −10" in screen_text(app), "the rules")
        text = save_svg(app, "table-list-80x24")
        assert shown(friday) in text and "Friday hearts" in text and "Ann" in text
        assert shown(bobs) in text and "Bob's table" in text
        assert shown(secret) not in text  # private tables are not listed
        row = next(line for line in text.splitlines() if shown(friday) in line)
        assert row.strip("│ ").split()[-2:] == ["2", "1"]  # open seats, bots

        late = await hosts.table("Dan")
        assert shown(late) not in screen_text(app)
        await pilot.press("r")
        await wait_for(pilot, lambda: shown(late) in screen_text(app), "the refreshed list")
        assert "Tables waiting for players: 3." in screen_text(app)

        await move_to(pilot, app, friday)
        await pilot.press("enter")
        model = app.model
        await wait_for(pilot, lambda: model.view is not None, "the table")
        assert model.view is not None and model.view.code == friday and model.view.seat == 1
        await wait_for(pilot, lambda: "Friday hearts" in screen_text(app), "the lobby")
    # A seat taken from the list is saved: `hearts resume` returns to it.
    saved = json.loads(session_file.read_text())
    assert saved["code"] == friday and saved["seat"] == 1 and saved["seat_token"]


async def test_a_refusal_is_said_and_the_player_picks_again(
    server: RunningServer, hosts: Hosts
) -> None:
    nearly = await hosts.table("Ann", seats=("open", "easy", "easy"))
    app = make_app(Launch(mode="join", server=server.url, name="Guest"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: shown(nearly) in screen_text(app), "the list")
        await hosts.join("Zed", nearly)  # the last seat goes while we look
        await move_to(pilot, app, nearly)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "✕ The table is full" in screen_text(app), "the refusal")
        assert isinstance(app.screen, TableListScreen) and app.model.view is None

        await pilot.press("slash", *"ZZZ-ZZZ", "enter")  # a code typed by hand
        await wait_for(pilot, lambda: "✕ No table has the code ZZZ-ZZZ" in screen_text(app), "why")
        assert isinstance(app.screen, TableListScreen)

        await pilot.press("escape", "w")  # a full table can still be watched
        await wait_for(pilot, app.model.spectating, "the table, watched")
        assert app.model.view is not None and app.model.view.code == nearly
        await wait_for(pilot, lambda: "Zed" in screen_text(app), "the lobby")


async def test_leaving_the_list_ends_the_app(server: RunningServer) -> None:
    app = make_app(Launch(mode="join", server=server.url))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "No public table waits" in screen_text(app), "the list")
        # The key line says what Esc does on this first screen: it leaves.
        keys = screen_text(app).splitlines()[-1]
        assert "Esc leave" in keys and "Esc back" not in keys, keys
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.is_running, "the app to end")
    assert app.model.view is None


async def test_one_key_plays_against_bots(server: RunningServer, tmp_path: Path) -> None:
    """``b`` on the public tables: a private table with three Medium bots,
    already started, and the seat saved to resume."""
    session_file = tmp_path / "session.json"
    app = make_app(Launch(mode="join", server=server.url, name="Solo", session_file=session_file))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableListScreen), "the list")
        keys = screen_text(app).splitlines()[-1]
        assert "b play vs bots" in keys and "Ctrl+Q quit" in keys
        await pilot.press("b")
        await wait_for(
            pilot,
            lambda: bool(app.model.view and app.model.view.status == "playing"),
            "the game",
        )
        view = app.model.view
        assert view is not None and view.seat is not None and not view.public
        others = [info for info in view.seats if info.seat != view.seat]
        assert [(info.kind, info.bot_level) for info in others] == [("bot", "medium")] * 3
        saved = json.loads(session_file.read_text(encoding="utf-8"))
        assert saved.get("seat_token")
