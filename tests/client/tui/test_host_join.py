"""Host, join and resume: the host's form, the lobby with the invite code,
join link and the command friends run (with our server, not the default
one); a friend joining, seats changed and the start; joining a table as a
guest; resuming a saved seat in a new app on the server saved with it, and a
resume another server refuses, which names it and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Checkbox, Input, Select

from client.session import ClientSession
from client.tui.launch import Launch
from client.tui.screens.dialogs import FatalScreen
from client.tui.screens.table_list import TableListScreen
from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer, start_server
from server.config import ServerConfig

from .conftest import ThreadBots, make_app, save_svg, screen_text, wait_for


async def test_host_creates_a_table_shows_code_and_link_and_starts(
    server: RunningServer,
) -> None:
    app = make_app(Launch(mode="host", server=server.url, name="Hostess"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "New table" in screen_text(app), "the form")
        text = save_svg(app, "host-form-80x24")
        assert text.count("Open for a player") == 3  # the seat choices are visible
        for label in ("Table name", "Left (plays after you)", "Across", "Right", "Passing"):
            assert label in text
        # Seats are places from you, never compass points (issue #28).
        assert not any(word in text for word in ("West", "North", "East", "South")), text
        app.screen.query_one("#spec-across", Select).value = "easy"
        app.screen.query_one("#queen", Checkbox).value = True
        await pilot.press("ctrl+s")
        model = app.model
        await wait_for(pilot, lambda: model.view is not None, "the table")
        view = model.view
        assert view is not None and view.status == "waiting"
        assert view.rules.queen_breaks_hearts
        code = view.code
        shown = f"{code[:3]}-{code[3:]}"
        # The invite link, with its secret: it names the server, so the
        # command friends run needs no --server.
        link = f"http://127.0.0.1:{server.port}/t/{code}#k="
        await wait_for(pilot, lambda: link in screen_text(app), "the join link")
        text = save_svg(app, "lobby-link-80x24")
        assert f"Invite code:  {shown}" in text
        full = next(line.strip("│ ") for line in text.splitlines() if link in line)
        assert full.startswith(link) and len(full) > len(link) + 20
        assert app.model.join_url == full
        lines = [line.strip("│ ") for line in text.splitlines()]
        hint = lines.index("Friends join with: hearts join")
        # Quoted ('#' means something to some shells); a long one wraps.
        assert "".join(lines[hint + 1 : hint + 3]) == f"'{full}'"
        assert "--server" not in text
        assert "Q♠ breaks hearts" in text

        friend = ClientSession(server.url, "Friend")
        await friend.connect()
        try:
            reply = await friend.request(cm.JoinTable(id=friend.next_id(), code=shown))
            assert isinstance(reply, sm.Seated) and reply.seat == 1
            await wait_for(pilot, lambda: "Friend" in screen_text(app), "the friend")
            await pilot.press("3", "e")  # the right seat's menu: an Easy bot
            await wait_for(
                pilot,
                lambda: bool(model.view and model.view.seats[3].kind == "bot"),
                "a bot on the right",
            )
            text = save_svg(app, "lobby-host-80x24")
            assert "Friend" in text and "human · ● online" in text
            # The bot by the name the server gave it, its level beside it.
            assert model.view is not None and model.view.seats[3].name in text
            assert "bot · Easy" in text
            await pilot.press("enter")
            await wait_for(pilot, model.passing, "the game")
            assert "Friend" in screen_text(app)  # on the left panel, now at the table
        finally:
            await friend.close()


async def test_join_by_code_waits_for_the_host(server: RunningServer) -> None:
    host = ClientSession(server.url, "Hostess")
    await host.connect()
    try:
        reply = await host.request(
            cm.CreateTable(id=host.next_id(), seats=("open", "easy", "easy"))
        )
        assert isinstance(reply, sm.Seated)
        app = make_app(Launch(mode="join", server=server.url, name="Guest", code=reply.code))
        async with app.run_test(size=(80, 24)) as pilot:
            model = app.model
            await wait_for(pilot, lambda: "The host starts the game." in screen_text(app), "lobby")
            assert model.view is not None and model.view.seat == 1
            text = save_svg(app, "lobby-guest-80x24")
            assert "Hostess" in text and "★" in text
            await host.request(cm.StartGame(id=host.next_id()))
            await wait_for(pilot, model.passing, "the deal")
            # the host sits on our right (seat 0 = seat 1 - 1); the table
            # screen is drawn after the model turns to passing, so wait for it
            await wait_for(pilot, lambda: "Hostess" in screen_text(app), "the host's seat")
    finally:
        await host.close()


async def test_a_mistyped_code_can_be_typed_again_without_restarting(
    server: RunningServer,
) -> None:
    """``hearts join`` with a wrong code: the public tables, the reason above
    them and the code in its field, with the focus and selected; typing the
    right one over it and Enter sits at that table."""
    host = ClientSession(server.url, "Hostess")
    await host.connect()
    try:
        seated = await host.request(cm.CreateTable(id=host.next_id()))
        assert isinstance(seated, sm.Seated)
        app = make_app(Launch(mode="join", server=server.url, code="ZZZ-ZZZ", name="Guest"))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(
                pilot, lambda: "No table has the code ZZZ-ZZZ" in screen_text(app), "the reason"
            )
            text = save_svg(app, "wrong-code-80x24")
            assert "type it again below" in text
            assert isinstance(app.screen, TableListScreen)
            field = app.screen.query_one("#code", Input)
            assert app.screen.focused is field and field.value == "ZZZ-ZZZ"
            assert field.selected_text == "ZZZ-ZZZ"  # typing replaces it
            await pilot.press(*seated.code.lower(), "enter")
            await wait_for(
                pilot,
                lambda: app.model.view is not None and app.model.view.code == seated.code,
                "the table of the code typed again",
            )
            assert app.model.view is not None and app.model.view.seat is not None
            assert app.is_running and app.return_code is None
    finally:
        await host.close()


async def test_resume_returns_to_the_same_seat_and_hand(
    server: RunningServer, tmp_path: Path
) -> None:
    session_file = tmp_path / "session.json"
    launch = Launch(
        mode="host",
        server=server.url,
        name="Hostess",
        seats=("easy", "easy", "easy"),
        session_file=session_file,
        ask_setup=False,
    )
    first = make_app(launch)
    async with first.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: first.model.view is not None, "the table")
        await pilot.press("enter")  # start
        await wait_for(pilot, first.model.passing, "the deal")
        hand = first.model.hand()
        assert first.model.view is not None
        code = first.model.view.code
        await pilot.press("q", "y")  # leave mid-game: the seat is kept
    assert session_file.exists()

    # No server and no name given: those saved with the seat.
    again = make_app(Launch(mode="resume", session_file=session_file))
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, again.model.passing, "the resumed table")
        assert again.model.hand() == hand
        assert f"table {code[:3]}-{code[3:]}" in screen_text(again)
        assert again.table is not None
        assert (again.table.session.url, again.table.session.name) == (server.url, "Hostess")
        # The resumed seat's invite link, from the server's answer to the resume.
        assert again.model.join_url.startswith(f"http://127.0.0.1:{server.port}/t/{code}#k=")


async def test_play_on_a_named_server_keeps_the_seat_for_resume(
    server: RunningServer, tmp_path: Path
) -> None:
    """``hearts play --server URL``: the quit dialog says the seat is kept,
    and ``hearts resume`` comes back to the same hand."""
    session_file = tmp_path / "session.json"
    launch = Launch(
        mode="play",
        server=server.url,
        name="Quick",
        seats=("easy", "easy", "easy"),
        session_file=session_file,
    )
    first = make_app(launch)
    async with first.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, first.model.passing, "the deal")
        hand = first.model.hand()
        await pilot.press("q")
        await wait_for(
            pilot, lambda: "`hearts resume` brings you back" in screen_text(first), "the dialog"
        )
        await pilot.press("y")
        await wait_for(pilot, lambda: first.return_code is not None, "the app to close")
    assert session_file.exists()

    again = make_app(Launch(mode="resume", session_file=session_file))
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, again.model.passing, "the resumed table")
        assert again.model.hand() == hand
        assert again.table is not None
        assert (again.table.session.url, again.table.session.name) == (server.url, "Quick")


async def test_a_resume_another_server_refuses_names_it_and_changes_nothing(
    server: RunningServer, tmp_path: Path
) -> None:
    session_file = tmp_path / "session.json"
    first = ClientSession(server.url, "Hostess", session_file=session_file)
    await first.connect()
    await first.request(cm.CreateTable(id=first.next_id()))
    await first.close()
    before = session_file.read_bytes()
    config = ServerConfig(port=0, bot_workers=1)
    other = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    try:
        app = make_app(Launch(mode="resume", server=other.url, session_file=session_file))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: "Cannot play" in screen_text(app), "the error")
            assert f"{other.url} refused your saved seat" in save_svg(app, "resume-refused-80x24")
            assert isinstance(app.screen, FatalScreen)
            assert app.screen.message.startswith(
                f"{other.url} refused your saved seat: there is no such table"
            )
            assert "Your session file is unchanged" in app.screen.message
            await pilot.press("enter")
        assert app.return_code == 1
    finally:
        await other.close()
    assert session_file.read_bytes() == before


async def test_resume_without_a_saved_seat_says_so(tmp_path: Path) -> None:
    launch = Launch(
        mode="resume", server="ws://127.0.0.1:9/ws", session_file=tmp_path / "none.json"
    )
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "no saved seat" in screen_text(app), "the message")
        await pilot.press("enter")
    assert app.return_code == 1


async def test_a_failed_join_or_a_cancelled_form_keeps_the_saved_seat(
    server: RunningServer, tmp_path: Path
) -> None:
    """``hearts join WRONG`` and ``hearts host`` left at its form change
    nothing in the session file: the saved seat is replaced only when the
    server grants a new one."""
    session_file = tmp_path / "session.json"
    first = ClientSession(server.url, "Hostess", session_file=session_file)
    await first.connect()
    await first.request(cm.CreateTable(id=first.next_id()))
    await first.close()
    before = session_file.read_bytes()

    app = make_app(
        Launch(mode="join", server=server.url, code="ZZZ-ZZZ", session_file=session_file)
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "No table has the code" in screen_text(app), "the reason")
        await pilot.press("escape", "escape")  # out of the code field, out of the list
        await wait_for(pilot, lambda: not app.is_running, "the app to end")
    assert session_file.read_bytes() == before

    app = make_app(Launch(mode="host", server=server.url, session_file=session_file))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "New table" in screen_text(app), "the form")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.is_running, "the app to end")
    assert session_file.read_bytes() == before

    app = make_app(
        Launch(mode="host", server=server.url, session_file=session_file, ask_setup=False)
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model.view is not None, "the new table")
        assert app.model.view is not None
        code = app.model.view.code
    assert json.loads(session_file.read_text())["code"] == code


async def test_an_unreachable_server_is_said_in_words_not_errno() -> None:
    """Nothing listens on the port: the message says so, with no raw
    ``[Errno 111]``; the other causes have their words too."""
    import socket

    from client.tui.i18n import Translator
    from client.tui.unreachable import why_unreachable

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"ws://127.0.0.1:{port}/ws"
    app = make_app(Launch(mode="join", server=url, code="ABC-DEF"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Cannot play" in screen_text(app), "the error")
        assert isinstance(app.screen, FatalScreen)
        message = app.screen.message
        assert "nothing answers at that address and port" in message and url in message
        assert "Errno" not in message and "[" not in message
        await pilot.press("enter")
    assert app.return_code == 1
    for language in ("en", "uk", "ru"):
        t = Translator(language)  # type: ignore[arg-type]
        for exc in (
            socket.gaierror(-2, "Name or service not known"),
            TimeoutError(),
            ConnectionRefusedError(111, "Connect call failed"),
        ):
            said = t.text(why_unreachable(exc))
            assert said and "Errno" not in said and "Connect call" not in said, said
