"""Other seat counts and the variants in the terminal, against a real
server: the host's form offers only what a game allows (a fixed option is
shown but disabled), a six-seat game plays out in 80×24 with every
opponent on the ring, and a nine-seat Cancellation table marks the second
deck's cards and what lies face down."""

from __future__ import annotations

from textual.widgets import Select

from client.tui.launch import Launch
from client.tui.screens.host_setup import HostSetupScreen
from server.app import RunningServer

from .conftest import make_app, play_out_hand, save_svg, screen_text, wait_for


async def test_the_form_follows_the_game_and_seats_nine(server: RunningServer) -> None:
    app = make_app(Launch(mode="host", server=server.url, name="Hostess"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the form")
        form = app.screen
        await wait_for(pilot, lambda: "Bonus card" in screen_text(app), "the form drawn")
        text = screen_text(app)
        assert "Game" in text and "Players" in text and "Create table" in text  # fits 80×24
        players = form.query_one("#players", Select)
        form.query_one("#variant", Select).value = "black_maria"
        await wait_for(pilot, lambda: players.value == 3 and players.disabled, "three players")
        assert form.query_one("#spec-all", Select).display
        assert not form.query_one("#spec-left", Select).display
        assert form.query_one("#bonus", Select).disabled
        form.query_one("#variant", Select).value = "cancellation"
        await wait_for(pilot, lambda: players.value == 8, "the game's own count")
        assert form.query_one("#cycle", Select).disabled  # no passing
        players.value = 9
        await wait_for(pilot, lambda: players.value == 9, "nine")
        await pilot.press("ctrl+b")  # against bots, at once
        await wait_for(
            pilot,
            lambda: app.model.view is not None and app.model.view.status == "playing",
            "the game",
        )
        view = app.model.view
        assert view is not None
        assert view.rules.variant == "cancellation" and len(view.seats) == 9
        await wait_for(pilot, lambda: "face down" in screen_text(app), "the rest")
        text = save_svg(app, "nine-seats-80x24")
        for seat in range(2, 10):
            assert f"Seat {seat}" in text, (seat, text)
        assert len(view.hand) == 11
        if any(len(c) == 3 for c in view.hand):
            assert "²" in text


async def test_six_seats_play_a_hand_in_80x24(server: RunningServer) -> None:
    from protocol.common import RulesModel

    launch = Launch(
        mode="play",
        server=server.url,
        seats=("easy",) * 5,
        rules=RulesModel(players=6, end="hands", end_at=1),
    )
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model.view is not None, "the table")
        await play_out_hand(pilot, app)
        view = app.model.view
        assert view is not None and view.status in ("between_hands", "game_over")
        assert len(view.hands[-1].points) == 6
        text = save_svg(app, "six-seats-hand-over-80x24")
        for seat in range(2, 7):
            assert f"Seat {seat}" in text, (seat, text)
