"""The server drops the connection: the screen says it is reconnecting,
the session retries by itself, and the game resumes with the same hand."""

from __future__ import annotations

import socket
from pathlib import Path

from client.tui.launch import Launch
from client.tui.model import TableModel
from server.app import RunningServer, start_server
from server.config import ServerConfig

from .conftest import Proxy, ThreadBots, make_app, save_svg, screen_text, wait_for


async def test_reconnects_after_the_server_drops_the_connection(
    server: RunningServer, proxy: Proxy
) -> None:
    launch = Launch(mode="play", server=proxy.url, seats=("easy", "easy", "easy"), max_backoff=0.2)
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        await pilot.press("a", "b", "c")
        hand = list(model.hand())
        picked = list(model.selected)
        assert "● online" in screen_text(app)

        proxy.refuse()  # reconnect attempts fail until allowed again
        for conn in list(server.ws_server.connections):
            conn.transport.abort()  # the server side of our socket closes
        await wait_for(pilot, lambda: model.connection == "reconnecting", "reconnecting")
        text = save_svg(app, "reconnecting-80x24")
        assert "⟳ reconnecting…" in text
        assert "Connection lost — reconnecting… your seat is kept." in text
        assert model.hand() == hand  # the table stays on screen meanwhile

        proxy.allow()
        await wait_for(pilot, lambda: model.connection == "online", "the reconnection")
        await wait_for(pilot, lambda: model.view is not None and model.passing(), "the resume")
        assert model.hand() == hand  # the same hand, and the picks are kept
        assert model.selected == picked
        text = screen_text(app)
        assert "● online" in text and "reconnecting" not in text
        assert "Reconnected: the game goes on." in text

        await pilot.press("p")  # and the game goes on
        await wait_for(pilot, lambda: not model.passing(), "the pass after the resume")
        assert model.view is not None and len(model.view.passed) == 3


async def test_after_a_server_restart_nobody_is_told_the_other_lost_the_connection(
    tmp_path: Path,
) -> None:
    """Two players at a table; the server stops and starts again on its
    store: both reconnect, each sees the other online, and neither log says
    the other "lost the connection" (the restart dropped everyone)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    def config() -> ServerConfig:
        return ServerConfig(
            host="127.0.0.1",
            port=port,
            store_url=f"sqlite://{tmp_path / 'tables.sqlite3'}",
            bot_budget_ms=20,
            bot_workers=1,
            grace_seconds=30.0,
        )

    server = await start_server(config(), bots=ThreadBots(1, 20))
    try:
        host = make_app(
            Launch(
                mode="host",
                server=server.url,
                name="Hostess",
                seats=("open", "easy", "easy"),
                ask_setup=False,
                max_backoff=0.3,
                session_file=tmp_path / "host.json",
            )
        )
        async with host.run_test(size=(80, 24)) as hp:
            await wait_for(hp, lambda: host.model.view is not None, "the table")
            assert host.model.view is not None
            friend = make_app(
                Launch(
                    mode="join",
                    server=server.url,
                    name="Friend",
                    code=host.model.view.code,
                    max_backoff=0.3,
                    session_file=tmp_path / "friend.json",
                )
            )
            async with friend.run_test(size=(80, 24)) as fp:
                await wait_for(fp, lambda: friend.model.view is not None, "the friend seated")
                await hp.press("enter")  # start
                await wait_for(hp, host.model.passing, "the deal")
                await wait_for(fp, friend.model.passing, "the friend's deal")
                await server.close()
                await wait_for(hp, lambda: host.model.connection == "reconnecting", "the drop")
                server = await start_server(config(), bots=ThreadBots(1, 20))
                for app, pilot, other in ((host, hp, "Friend"), (friend, fp, "Hostess")):
                    model = app.model

                    def both_online(model: TableModel = model) -> bool:
                        # Until a client notices the drop it still shows
                        # the old view, everyone online: first its return
                        # (the log says it), then everyone online again.
                        view = model.view
                        return (
                            any(line.msg.key == "log.reconnected" for line in model.log)
                            and model.connection == "online"
                            and view is not None
                            and all(s.connected for s in view.seats if s.kind == "human")
                        )

                    await wait_for(pilot, both_online, "both players online again")
                    await wait_for(
                        pilot,
                        lambda app=app: "Reconnected: the game goes on." in screen_text(app),
                        "the return said",
                    )
                    text = screen_text(app)
                    assert f"{other} lost the connection" not in text, text
                    lines = [app.t.text(line.msg) for line in model.log]
                    assert not any("lost the connection" in line for line in lines), lines
    finally:
        await server.close()


def test_a_player_who_drops_while_we_are_online_is_still_told() -> None:
    """Only the comings and goings right after our own reconnection are
    taken back: a drop in the middle of play stays in the log."""
    from client.tui.i18n import Msg
    from client.tui.table_log import TableLog

    log = TableLog()
    log.event(Msg("log.hand_dealt", {"n": 1}))
    log.event(Msg("log.away", {"name": "Ann"}))
    assert not log.withdraw_away("Ann")
    log.event(Msg("log.reconnected"))
    log.event(Msg("log.away", {"name": "Bob"}))
    assert not log.withdraw_away("Ann")  # Ann's drop was before ours
    assert log.withdraw_away("Bob")
    assert [line.msg.key for line in log] == ["log.hand_dealt", "log.away", "log.reconnected"]
