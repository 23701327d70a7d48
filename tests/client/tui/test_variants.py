"""Other seat counts and the variants in the terminal, against a real
server: the host's form offers only what a game allows (a fixed option is
shown but disabled), a nine-seat Cancellation table marks the second
deck's cards and what lies face down, a ten-seat table stays readable in
80×24 from the waiting room to game over, and a three-seat hand of 17
cards fits with a key for each (these two replace a six-seat hand played
out, which the ring's unit tests and these cover)."""

from __future__ import annotations

import pytest
from textual.widgets import Select

from client.tui.launch import Launch
from client.tui.screens.dialogs import GameOverScreen
from client.tui.screens.host_setup import HostSetupScreen
from client.tui.seats import short_names
from protocol import server_messages as sm
from server.app import RunningServer

from .conftest import make_app, play_out_hand, save_svg, screen_text, seeded_server, under, wait_for


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
        for info in view.seats[1:]:
            assert info.name in text, (info.name, text)
        assert len(view.hand) == 11
        if any(len(c) == 3 for c in view.hand):
            assert "²" in text


TEN_SEATS_SEED = 1  # two hands, then one lowest total: the game ends (J♦ is −10)


@pytest.mark.slow
async def test_ten_seats_are_readable_in_80x24_from_the_waiting_room_to_game_over() -> None:
    # The accuracy of ten seats over two hands is 120 reviewed decisions:
    # a few deals each, since how the screen shows it is what is checked.
    async with seeded_server(TEN_SEATS_SEED, worlds=4) as server:
        await _ten_seats_in_80x24(server)


async def _ten_seats_in_80x24(server: RunningServer) -> None:
    from protocol.common import RulesModel

    launch = Launch(
        mode="host",
        server=server.url,
        name="Hostess",
        seats=("easy",) * 9,
        rules=RulesModel(players=10, end="hands", end_at=2, bonus_card="JD"),
    )
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the form")
        await wait_for(pilot, lambda: "Bonus card" in screen_text(app), "the form drawn")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Seat 10" in screen_text(app), "the waiting room")
        text = save_svg(app, "ten-seats-waiting-room-80x24")
        lines = text.split("\n")
        assert len(lines) <= 24
        assert app.model.view is not None
        # Each bot by the name the server gave it (the ring below says them).
        names = [info.name for info in app.model.view.seats[1:]]
        for where in (f"Seat {seat}" for seat in range(2, 11)):
            assert where in text, (where, text)
        for name in names:
            assert name in text, (name, text)
        assert text.count("bot · Easy") == 9 and "Hostess" in text
        assert "10 players" in text  # the rules line, below the seats, is in sight too
        assert "1–9: seat menu" in text and lines[-1].startswith("1–9 seats · Enter start")
        assert "Ctrl+Q quit" in lines[-1]
        # With room to spare the seats stand in one column again.
        await pilot.resize_terminal(120, 40)
        await wait_for(pilot, lambda: "│ [9] Seat 10" in screen_text(app), "one column")
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: "│ [9] Seat 10" not in screen_text(app), "two columns")
        await pilot.press("enter")  # start
        await wait_for(
            pilot,
            lambda: app.model.view is not None and app.model.view.status == "playing",
            "the game",
        )
        await wait_for(pilot, lambda: app.model.my_turn() or app.model.passing(), "the deal")
        text = save_svg(app, "ten-seats-table-80x24")
        for name in names:
            assert name in text, (name, text)
        assert "Ctrl+Q quit" in text.split("\n")[-1]
        await play_out_hand(pilot, app)
        await wait_for(pilot, lambda: not app.model.lingering(), "the last trick to leave")
        view = app.model.view
        assert view is not None and view.status == "between_hands"
        # The score table replaces a long history: drawn once it is laid out.
        await wait_for(
            pilot,
            lambda: (
                "Next hand" in screen_text(app)
                and screen_text(app).split("\n")[2].split("│")[1].split()[:1] == ["#1"]
            ),
            "the hand's end drawn",
        )
        text = save_svg(app, "ten-seats-hand-over-80x24")
        for name in names:
            assert name in text, (name, text)
        # Under each name on the ring, the points it took this hand.
        for seat, points in enumerate(view.hands[-1].points[1:], start=1):
            shown = f"+{points}" if points > 0 else str(points)
            assert under(text, names[seat - 1]) == shown, (seat, text)
        assert text.split("\n")[2].split("│")[1].split()[0] == "#1"  # the score table's head
        assert "Enter next hand" in text.split("\n")[-1] or "n next" in text.split("\n")[-1]
        await pilot.press("enter")  # ready: the next (and last) hand
        await wait_for(
            pilot, lambda: app.model.view is not None and app.model.view.hand_number == 2, "hand 2"
        )
        await play_out_hand(pilot, app)
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "game over")
        # The screen is pushed before its score table is drawn: wait for the
        # table's last row.
        await wait_for(pilot, lambda: len(score_rows(screen_text(app))) == 10, "the score table")
        text = save_svg(app, "ten-seats-game-over-80x24")
        view = app.model.view
        assert view is not None and view.status in ("between_hands", "game_over")
        # The score table has a row per seat: its short name (the same on
        # every screen), each hand, the total.
        short = short_names(view, 2)
        rows = {}
        for line in text.split("\n"):
            cells = line.split("█")[1].split() if line.count("█") >= 2 else []
            if cells:
                rows[cells[0]] = cells[1:]
        for seat in range(10):
            hands = [str(result.points[seat]) for result in view.hands]
            assert rows.get(short[seat]) == [*hands, str(view.totals[seat])], (seat, text)
        # Under the score table, in its scrolling part (PgDn), each seat's
        # accuracy over the game, two seats to a line.
        over = app.screen
        assert isinstance(over, GameOverScreen)
        await wait_for(pilot, lambda: over.answer is not None, "the game's accuracy")
        assert isinstance(over.answer, sm.GameAccuracy), over.answer
        # Once the longer text is laid out (PgDn scrolls as far as the page
        # is long when pressed), then as far as the smooth scroll goes.
        await pilot.pause()
        await pilot.press("pagedown")
        await pilot.wait_for_animation()
        text = save_svg(app, "ten-seats-accuracy-80x24")
        assert "points lost per decision, then mistakes/blunders" in text
        assert "Enter or r: rematch" in text and "Quit" in text
        for seat in over.answer.seats:
            acc = seat.accuracy
            assert f"−{acc.mean_loss:.2f} {acc.mistakes}/{acc.blunders}" in text, (seat, text)


@pytest.mark.slow
async def test_three_seats_hold_seventeen_cards_in_80x24_each_with_its_key(
    server: RunningServer,
) -> None:
    from client.tui.widgets.hand import hand_layout
    from protocol.common import RulesModel

    launch = Launch(
        mode="play",
        server=server.url,
        seats=("easy",) * 2,
        rules=RulesModel(players=3, pass_cycle=("hold",), end="hands", end_at=1),
    )
    app = make_app(launch)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model.view is not None, "the table")
        await wait_for(pilot, app.model.my_turn, "our turn", timeout=30)
        view = app.model.view
        assert view is not None and len(view.hand) == 17
        text = save_svg(app, "three-seats-hand-80x24")
        keys = [app.model.key_of(card) for card in app.model.hand()]
        assert len(set(keys)) == len(keys) and " " not in keys  # a key for every card
        slots = hand_layout(app.model.hand(), 80, app.model.keys)
        assert slots[0].x >= 0 and slots[-1].x + 4 <= 80  # the whole hand in sight
        key_row = next(line for line in text.split("\n") if line.split() == keys)
        assert key_row  # the letters drawn under the cards, in order
        # The key line names the capitals too (issue #25 item 7, #28).
        assert text.split("\n")[-1].startswith("a–m A–E play"), text.split("\n")[-1]
        # The hand is played out by those keys (capitals past the 13th card).
        await play_out_hand(pilot, app)
        view = app.model.view
        assert view is not None and view.status in ("between_hands", "game_over")


def score_rows(text: str) -> list[list[str]]:
    """The game-over score table's seat rows: a short name, each hand's
    points and the total (the head row, ``#1 …``, is not one)."""
    rows = []
    for line in text.split("\n"):
        cells = line.split("█")[1].split() if line.count("█") >= 2 else []
        if (
            len(cells) >= 3
            and not cells[0].startswith("#")
            and all(c.lstrip("-").isdigit() for c in cells[1:])
        ):
            rows.append(cells)
    return rows
