"""Spectating: ``hearts watch CODE`` shows the table from no seat (all four
seats around it, no hand), refuses every key that would act, chats, follows
the game to its end, watches again after a dropped connection, and leaves
the saved seat alone."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from client.session import ClientSession
from client.tui.launch import Launch
from client.tui.screens.dialogs import GameOverScreen
from client.tui.widgets.hand import HandView
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from server.app import RunningServer
from tools.cli.main import build_parser
from tools.cli.main import main as hearts_main

from .conftest import TIMEOUT, Proxy, make_app, save_svg, screen_text, wait_for

ONE_HAND = RulesModel(end="hands", end_at=1)
REFUSED = "✕ You are watching: spectators cannot play."


async def chat_line(session: ClientSession, text: str) -> sm.ChatMessage:
    """Wait for the chat line ``text`` among ``session``'s events."""

    async def find() -> sm.ChatMessage:
        async for msg in session.events():
            if isinstance(msg, sm.ChatMessage) and msg.text == text:
                return msg
        raise AssertionError("the session closed")

    return await asyncio.wait_for(find(), TIMEOUT)


@pytest.mark.slow
async def test_a_spectator_sees_all_seats_cannot_act_and_chats(
    server: RunningServer, tmp_path: Path
) -> None:
    saved = tmp_path / "session.json"
    saved.write_text(json.dumps({"player_token": "t" * 32, "table_id": "mine", "seat": 2}))
    host = ClientSession(server.url, "Hostess")
    await host.connect()
    try:
        reply = await host.request(
            cm.CreateTable(id=host.next_id(), seats=("easy", "easy", "easy"), rules=ONE_HAND)
        )
        assert isinstance(reply, sm.Seated)
        await host.request(cm.Chat(id=host.next_id(), text="welcome, watchers"))
        launch = Launch(
            mode="watch", server=server.url, name="Eve", code=reply.code, session_file=saved
        )
        app = make_app(launch)
        async with app.run_test(size=(80, 24)) as pilot:
            model = app.model
            await wait_for(pilot, lambda: model.spectating(), "the table")
            await wait_for(pilot, lambda: "watching" in screen_text(app), "the title")
            text = save_svg(app, "watch-lobby-80x24")
            assert "You are watching. The host starts the game." in text
            assert "↓ below  Hostess" in text  # seat 0 at the bottom, by its name
            assert "Hostess: welcome, watchers" in text  # the history, before the snapshot
            assert not app.screen.query_one(HandView).display

            for key in ("a", "p", "enter", "s", "1", "space"):
                await pilot.press("escape", key)
                assert REFUSED in screen_text(app), key

            await pilot.press("slash", *"go go", "enter")
            line = await chat_line(host, "go go")
            assert (line.seat, line.name) == (None, "Eve")
            await pilot.press("escape")

            await host.request(cm.StartGame(id=host.next_id()))
            await host.request(cm.LeaveSeat(id=host.next_id()))  # a bot plays the host's seat
            await wait_for(pilot, lambda: bool(model.view and model.view.tricks), "a trick")
            text = save_svg(app, "watch-play-80x24")
            for where in ("← left", "↑ across", "→ right", "↓ below"):
                # Four seat panels around the trick (a heavy border on the turn).
                assert f"─ {where}" in text or f"━ {where}" in text, where
            assert "Hostess" in text and "cards: " in text
            assert model.view is not None and model.view.hand == ()

            await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "game over")
            await wait_for(pilot, lambda: " wins!" in screen_text(app), "the winner")
            text = save_svg(app, "watch-game-over-80x24")
            assert "You win!" not in text and "Rematch" not in text
            await pilot.press("q")
        assert app.return_code in (0, None)
        # Watching never touched the saved seat (only the player token was read).
        assert json.loads(saved.read_text())["table_id"] == "mine"
    finally:
        await host.close()


async def test_a_spectator_watches_again_after_a_drop(server: RunningServer, proxy: Proxy) -> None:
    host = ClientSession(server.url, "Hostess")
    await host.connect()
    try:
        reply = await host.request(
            cm.CreateTable(id=host.next_id(), seats=("open", "easy", "easy"))
        )
        assert isinstance(reply, sm.Seated)
        launch = Launch(mode="watch", server=proxy.url, code=reply.code, max_backoff=0.2)
        app = make_app(launch)
        async with app.run_test(size=(80, 24)) as pilot:
            model = app.model
            await wait_for(pilot, model.spectating, "the table")
            proxy.refuse()
            for conn in list(server.ws_server.connections):
                conn.transport.abort()
            await wait_for(pilot, lambda: model.connection == "reconnecting", "the drop")
            await host.request(cm.Chat(id=host.next_id(), text="did you miss me"))
            proxy.allow()
            # Only a new ``watch`` brings the table back: the history shows the line.
            await wait_for(
                pilot,
                lambda: "Hostess: did you miss me" in screen_text(app),
                "the table watched again",
            )
            assert model.connection == "online" and model.spectating()
    finally:
        await host.close()


def test_watch_and_join_without_a_code_on_the_command_line() -> None:
    args = build_parser().parse_args(["watch", "ABC-DEF", "--server", "ws://h:1/ws"])
    assert (args.command, args.code, args.server) == ("watch", "ABC-DEF", "ws://h:1/ws")
    assert build_parser().parse_args(["join"]).code == ""  # the public tables
    assert hearts_main(["join", "--autoplay", "easy"]) == 2  # a bot needs a table
