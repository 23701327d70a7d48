"""The server drops the connection: the screen says it is reconnecting,
the session retries by itself, and the game resumes with the same hand."""

from __future__ import annotations

from client.tui.launch import Launch
from server.app import RunningServer

from .conftest import Proxy, make_app, save_svg, screen_text, wait_for


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
