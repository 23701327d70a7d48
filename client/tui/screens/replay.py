"""Past hands in the terminal: ``v`` on the table opens the replay of the
latest finished hand of the game; ← → step through its tricks, ↑ ↓ go to
the hand before or after, Esc closes. What is shown comes from the server's
``hand_replay``, redacted for our seat: every trick, our own deal, pass and
the cards we received, nothing of another seat's deal or pass."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from protocol import server_messages as sm

from ..cards import label, labels
from ..i18n import Translator

Fetch = Callable[[int], Awaitable[sm.HandReplay | None]]


def replay_text(
    t: Translator, replay: sm.HandReplay, trick: int, name: Callable[[int], str]
) -> Text:
    """The hand's own cards and trick ``trick`` (0-based) as lines."""
    text = Text()
    for key, cards in (
        ("replay.dealt", replay.dealt),
        ("replay.passed", replay.passed),
        ("replay.received", replay.received),
    ):
        if cards:
            text.append(t(key) + ": ", style=Style(bold=True))
            text.append(labels(cards) + "\n")
    shown = replay.tricks[trick]
    text.append(t("replay.trick", k=trick + 1, n=len(replay.tricks)) + "\n", style=Style(bold=True))
    for played in shown.cards:
        won = played.seat == shown.winner
        line = f"  {name(played.seat)}: {label(played.card)}" + ("  ◀" if won else "")
        text.append(line + "\n", style=Style(bold=won))
    if shown.winner is not None:  # a carried trick (Cancellation Hearts) has none
        text.append(t("replay.won", name=name(shown.winner), n=shown.points) + "\n")
    points = " · ".join(f"{name(s)} {p}" for s, p in enumerate(replay.points))
    text.append(t("replay.points", points=points), style=Style(dim=True))
    return text


class ReplayScreen(ModalScreen[None]):
    """One finished hand, trick by trick."""

    DEFAULT_CSS = """
    ReplayScreen { align: center middle; background: $background 60%; }
    ReplayScreen > Vertical {
        width: 72; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ReplayScreen .title { text-style: bold; width: 1fr; content-align: center middle; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,v", "close", show=False),
        Binding("left", "trick(-1)", show=False),
        Binding("right", "trick(1)", show=False),
        Binding("up", "hand(-1)", show=False),
        Binding("down", "hand(1)", show=False),
    ]

    def __init__(self, t: Translator, fetch: Fetch, hands: int, name: Callable[[int], str]) -> None:
        super().__init__()
        self.t = t
        self.fetch = fetch
        self.hands = hands  # finished hands of the game: 1..hands
        self.seat_name = name
        self.replay: sm.HandReplay | None = None
        self.trick = 0

    def compose(self) -> ComposeResult:
        """Title, the hand, the keys."""
        with Vertical():
            yield Static("", id="replay-title", classes="title")
            yield Static(self.t("replay.loading"), id="replay-body")
            yield Static(Text(self.t("replay.keys"), style=Style(dim=True)))

    def on_mount(self) -> None:
        """Load the latest finished hand."""
        self.run_worker(self._load(self.hands), exclusive=True)

    async def _load(self, number: int) -> None:
        replay = await self.fetch(number)
        if replay is None:
            return
        self.replay, self.trick = replay, 0
        self._draw()

    def _draw(self) -> None:
        replay = self.replay
        if replay is None:
            return
        title = self.t("replay.title", n=replay.hand_number)
        self.query_one("#replay-title", Static).update(title)
        body = replay_text(self.t, replay, self.trick, self.seat_name)
        self.query_one("#replay-body", Static).update(body)

    def action_trick(self, step: int) -> None:
        """The trick before or after."""
        if self.replay is not None:
            self.trick = min(max(self.trick + step, 0), len(self.replay.tricks) - 1)
            self._draw()

    def action_hand(self, step: int) -> None:
        """The hand before or after (within the game's finished hands)."""
        if self.replay is None:
            return
        number = self.replay.hand_number + step
        if 1 <= number <= self.hands:
            self.run_worker(self._load(number), exclusive=True)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)
