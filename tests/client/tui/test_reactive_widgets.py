"""The table screen's widgets redraw only when what they show changed: a
change of one part of the model redraws the widgets that show it and
leaves the others alone (their ``updates`` count and their ``render``
calls stay as they were)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager

from textual.app import RenderResult
from textual.pilot import Pilot
from textual.widget import Widget

from client.tui.widgets.chat_panel import ChatPanel
from client.tui.widgets.model_slice import ShowsSlice
from protocol import server_messages as sm

from .conftest import screen_text, wait_for
from .still import StillApp
from .test_units import view

HAND = ("2C", "5C", "9C", "3H", "QS", "4D", "KD")


@asynccontextmanager
async def our_turn() -> AsyncIterator[tuple[StillApp, Pilot[None]]]:
    """A table shown where it is our turn to lead, seven cards in hand."""
    app = StillApp(view(hand=HAND, legal=("2C",)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.screen is app.screen_under_test, "the table")
        await pilot.pause()
        yield app, pilot


def slice_widgets(app: StillApp) -> list[ShowsSlice]:
    """Every widget of the table screen that shows a slice of the model."""
    return [w for w in app.screen_under_test.walk_children() if isinstance(w, ShowsSlice)]


def updates(app: StillApp) -> dict[str, int]:
    """Each widget's redraws so far, by id."""
    return {str(getattr(w, "id", "")): w.updates for w in slice_widgets(app)}


async def redrawn_by(app: StillApp, pilot: Pilot[None], change: Callable[[], None]) -> set[str]:
    """The ids of the widgets that redrew after ``change`` (and a sync)."""
    before = updates(app)
    change()
    app.screen_under_test.sync()
    await pilot.pause()
    after = updates(app)
    return {name for name, count in after.items() if count != before[name]}


@contextmanager
def counted_renders(widgets: list[Widget]) -> Iterator[dict[str, int]]:
    """Count each widget's ``render`` calls (by id) while in the block."""
    counts = {str(w.id): 0 for w in widgets}

    def counting(widget: Widget) -> Callable[[], RenderResult]:
        render = widget.render

        def counted() -> RenderResult:
            counts[str(widget.id)] += 1
            return render()

        return counted

    for widget in widgets:
        widget.render = counting(widget)  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        for widget in widgets:
            del widget.render


async def test_a_chat_line_redraws_the_log_and_nothing_else() -> None:
    async with our_turn() as (app, pilot):
        screen = app.screen_under_test
        painted = [screen.query_one(f"#{name}", Widget) for name in ("hand", "trick", "topbar")]
        with counted_renders(painted) as renders:
            chat = sm.ChatMessage(seq=2, seat=1, name="P1", text="hello there")
            redrawn = await redrawn_by(app, pilot, lambda: app.model.apply(chat))
        # The whole conversation (the chat view) is not shown: it works
        # nothing out until it is.
        assert redrawn == {"log"}
        assert renders == {"hand": 0, "trick": 0, "topbar": 0}
        assert "P1: hello there" in screen_text(app)
        panel = screen.query_one("#chat-view", ChatPanel)
        await pilot.press("slash")
        await wait_for(pilot, lambda: panel.display and panel.updates == 1, "the chat view")
        assert "P1: hello there" in str(panel.body.render())


async def test_moving_the_cursor_redraws_the_hand_alone() -> None:
    async with our_turn() as (app, pilot):
        redrawn = await redrawn_by(app, pilot, lambda: app.model.move_cursor(1))
        assert redrawn == {"hand"}
        assert app.model.cursor == 1


async def test_a_dropped_connection_redraws_the_title_and_the_notice_line() -> None:
    async with our_turn() as (app, pilot):
        redrawn = await redrawn_by(app, pilot, lambda: app.model.set_connection("reconnecting"))
        assert redrawn == {"topbar", "notice"}
        assert "reconnecting… your seat is kept" in screen_text(app)


async def test_a_sync_with_nothing_changed_redraws_nothing() -> None:
    async with our_turn() as (app, pilot):
        assert await redrawn_by(app, pilot, lambda: None) == set()
        # Every widget shown was drawn once at least: the counts are live.
        # (Not shown at a seated player's table: the lobby, the whole
        # conversation and the fourth seat's panel, a spectator's.)
        hidden = {"lobby", "chat-view", "seat-bottom"}
        counts = updates(app)
        assert all(count >= 1 for name, count in counts.items() if name not in hidden), counts
        assert all(counts[name] == 0 for name in hidden), counts
