"""Two terminal clients at one table call every seat the same: the host and
a friend (each a Textual app on a real server) see each seat's one name in
the waiting room, on the seat panels around the trick, in the trick
history and on the game's last screen, though each sits in a different
place; where a seat sits is said by an arrow and a word, never as a name."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot

from client.tui.app import HeartsApp
from client.tui.launch import Launch
from client.tui.screens.dialogs import GameOverScreen
from client.tui.seats import POSITIONS, seat_at, short_names
from client.tui.widgets.seat_panel import SeatPanel
from protocol.common import RulesModel
from server.app import RunningServer
from server.seat_names import BOT_NAMES

from .conftest import make_app, play_out_hand, save_svg, screen_text, wait_for

ONE_HAND = RulesModel(end="hands", end_at=1)


async def until(
    pilot: Pilot[None], app: HeartsApp, holds: Callable[[HeartsApp], bool], what: str
) -> None:
    """Let ``app`` run until ``holds(app)``."""
    await wait_for(pilot, lambda: holds(app), what)


def panel_names(app: HeartsApp) -> dict[int, str]:
    """The name on each seat panel drawn around the trick, by seat."""
    view = app.model.view
    assert view is not None
    shown = {}
    for position in POSITIONS[1:]:
        panel = app.screen.query_one(f"#seat-{position}", SeatPanel)
        first = str(panel.render()).split("\n")[0]
        shown[seat_at(view, position)] = first.split(" ★")[0].split(" · ")[0].strip()
    return shown


async def test_host_and_friend_see_the_same_name_for_every_seat(server: RunningServer) -> None:
    host = make_app(
        Launch(
            mode="host",
            server=server.url,
            name="Hana",
            seats=("open", "medium", "medium"),
            rules=ONE_HAND,
            ask_setup=False,
        )
    )
    async with host.run_test(size=(80, 24)) as host_pilot:
        await wait_for(host_pilot, lambda: host.model.view is not None, "the table")
        assert host.model.view is not None
        code = host.model.view.code
        friend = make_app(Launch(mode="join", server=server.url, name="Fedir", code=code))
        async with friend.run_test(size=(80, 24)) as friend_pilot:
            await wait_for(friend_pilot, lambda: friend.model.view is not None, "the seat")
            await wait_for(host_pilot, lambda: "Fedir" in screen_text(host), "the friend")
            view = host.model.view
            assert view is not None
            names = {info.seat: info.name for info in view.seats}
            assert names[0] == "Hana" and names[1] == "Fedir"
            assert {names[2], names[3]} <= set(BOT_NAMES) and names[2] != names[3]
            assert friend.model.view is not None
            assert {i.seat: i.name for i in friend.model.view.seats} == names

            # The waiting room lists every seat by its name on both screens,
            # each at its own place from the viewer.
            waiting = [
                save_svg(app, f"names-lobby-{who}")
                for app, who in ((host, "host"), (friend, "friend"))
            ]
            for text in waiting:
                assert all(name in text for name in names.values()), text
            assert "← left   Fedir" in waiting[0] and "→ right  Hana" in waiting[1]

            await host_pilot.press("enter")  # start
            for app, pilot in ((host, host_pilot), (friend, friend_pilot)):
                await until(pilot, app, lambda a: a.model.passing(), "the pass")
            # Around the trick: the host has the friend on the left, the
            # friend has the host on the right; the bots are called the same.
            host_panels, friend_panels = panel_names(host), panel_names(friend)
            assert host_panels == {1: "Fedir", 2: names[2], 3: names[3]}
            assert friend_panels == {2: names[2], 3: names[3], 0: "Hana"}
            for app in (host, friend):
                panel = app.screen.query_one("#seat-left", SeatPanel)
                assert panel.border_title is not None and "← left" in str(panel.border_title)

            await asyncio.gather(
                play_out_hand(host_pilot, host), play_out_hand(friend_pilot, friend)
            )
            for app, pilot in ((host, host_pilot), (friend, friend_pilot)):
                await until(pilot, app, lambda a: not a.model.lingering(), "the last trick")
            final = host.model.view
            assert final is not None
            if final.status == "game_over":
                for app, pilot in ((host, host_pilot), (friend, friend_pilot)):
                    await until(
                        pilot, app, lambda a: isinstance(a.screen, GameOverScreen), "game over"
                    )
            # The score table (the game's last screen, or the side panel after
            # a hand): a column for every seat, headed by its name cut to the
            # four columns a four-seat table gives it, the same on both.
            short = short_names(final, 4)
            texts = [
                save_svg(app, f"names-end-{who}")
                for app, who in ((host, "host"), (friend, "friend"))
            ]
            for text in texts:
                assert all(s in text for s in short.values()), text
            if final.status == "game_over":
                winner = final.winner
                assert winner is not None
                for text, seat in ((texts[0], 0), (texts[1], 1)):
                    if winner != seat:
                        assert f"{names[winner]} wins!" in text, text
