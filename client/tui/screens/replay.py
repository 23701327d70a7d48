"""Past hands in the terminal: ``v`` on the table opens the replay of the
latest finished hand of the game; ← → step through its tricks, ↑ ↓ go to
the hand before or after, Esc closes. What is shown comes from the server's
``hand_replay``, redacted for our seat: every trick, our own deal, pass and
the cards we received, nothing of another seat's deal or pass.

A seated player also gets the review of their own decisions in the hand
(``get_analysis``, client.tui.review): under each trick their play in it,
the better card when there was one, the points lost and the label, with
the pass, the widow discard and the moon choice where the hand had them,
and the hand's accuracy. The review takes the server seconds, so it is
asked for in a worker of its own and the screen says "reviewing…"."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from protocol import server_messages as sm

from ..cards import label, labels
from ..i18n import Msg, Translator
from ..review import ReviewFetch, review_text

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
    ReplayScreen #replay-scroll { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,v", "close", show=False),
        Binding("left", "trick(-1)", show=False),
        Binding("right", "trick(1)", show=False),
        Binding("up", "hand(-1)", show=False),
        Binding("down", "hand(1)", show=False),
    ]

    def __init__(
        self,
        t: Translator,
        fetch: Fetch,
        hands: int,
        name: Callable[[int], str],
        review: ReviewFetch | None = None,
    ) -> None:
        super().__init__()
        self.t = t
        self.fetch = fetch
        self.hands = hands  # finished hands of the game: 1..hands
        self.seat_name = name
        self.replay: sm.HandReplay | None = None
        self.trick = 0
        self.review = review  # None: not seated, no review
        # Each hand's review (or why there is none), once it came.
        self.reviews: dict[int, sm.Analysis | Msg] = {}

    def compose(self) -> ComposeResult:
        """Title, the hand, the keys."""
        with Vertical():
            yield Static("", id="replay-title", classes="title")
            # Tall tricks (many seats) and the review scroll on a small
            # terminal; the title and the keys stay.
            with VerticalScroll(id="replay-scroll"):
                yield Static(self.t("replay.loading"), id="replay-body")
                yield Static("", id="replay-review")
            yield Static(Text(self.t("replay.keys"), style=Style(dim=True)))

    def on_mount(self) -> None:
        """Load the latest finished hand."""
        self.run_worker(self._load(self.hands), exclusive=True)

    def on_resize(self) -> None:
        """The hand and its review get the rows the border, the title and
        the keys leave."""
        scroll = self.query_one("#replay-scroll", VerticalScroll)
        scroll.styles.max_height = max(3, self.size.height - 4)

    async def _load(self, number: int) -> None:
        replay = await self.fetch(number)
        if replay is None:
            return
        self.replay, self.trick = replay, 0
        self._draw()
        if self.review is not None and number not in self.reviews:
            self.run_worker(self._load_review(self.review, number), group="review")

    async def _load_review(self, review: ReviewFetch, number: int) -> None:
        self.reviews[number] = await review(number)
        self._draw()

    def _draw(self) -> None:
        replay = self.replay
        if replay is None:
            return
        title = self.t("replay.title", n=replay.hand_number)
        self.query_one("#replay-title", Static).update(title)
        body = replay_text(self.t, replay, self.trick, self.seat_name)
        self.query_one("#replay-body", Static).update(body)
        self.query_one("#replay-review", Static).update(self._review_text(replay))

    def _review_text(self, replay: sm.HandReplay) -> Text:
        if self.review is None:
            return Text()
        head = Text(self.t("review.title"), style=Style(bold=True, underline=True))
        got = self.reviews.get(replay.hand_number)
        if got is None:
            return head + Text("\n" + self.t("review.running"), style=Style(italic=True))
        if isinstance(got, Msg):
            return head + Text("\n" + self.t.text(got), style=Style(color="red"))
        last = self.trick == len(replay.tricks) - 1
        return head + Text("\n") + review_text(self.t, got, self.trick, last)

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
