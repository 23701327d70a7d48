"""At a table whose host approves who sits, a player with only the code is
told so and may knock (``k``, Enter or the button): "Waiting for the host…"
until the host answers (Esc stops waiting). Let in, the dialog joins (or
watches) at once and closes; turned away, it says so and the player may
knock again or go back.

The dialog only drives the exchange: ``knock`` (send ``knock``, wait for
``knock_answered``) and ``enter`` (``join_table``/``watch`` again) are the
app's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar, Literal

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from client.session import RequestFailed, SessionClosed
from protocol import server_messages as sm

from ..i18n import Msg, Translator
from .dialogs import Dialog
from .table_list import Refusal, Throttled

# How the dialog closes: at the table, turned away by the host, or the
# player went back without an answer.
KnockOutcome = Literal["seated", "refused", "stopped"]
State = Literal["ask", "waiting", "refused", "entering", "failed"]
Knock = Callable[[], Awaitable[sm.KnockAnswered]]
Enter = Callable[[], Awaitable[Refusal | None]]


def refusal_msg(refusal: Refusal) -> Msg:
    """A refusal as a sentence (a throttle says how long to wait)."""
    if isinstance(refusal, Throttled):
        return Msg("throttle.wait", {"n": max(1, round(refusal.retry_after))})
    return refusal


class KnockScreen(ModalScreen[KnockOutcome]):
    """Ask the host of table ``code`` to let us sit (or watch)."""

    DEFAULT_CSS = Dialog.DEFAULT_CSS.replace("Dialog", "KnockScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k,enter", "knock", show=False),
        Binding("escape", "back", show=False),
    ]

    def __init__(self, t: Translator, code: str, knock: Knock, enter: Enter) -> None:
        super().__init__()
        self.t = t
        self.code = code
        self.knock = knock
        self.enter = enter
        self.state: State = "ask"

    def compose(self) -> ComposeResult:
        """The table, what the host asks, the state, the buttons."""
        t = self.t
        with Vertical():
            yield Static(t("knock.title", code=self.code), classes="title")
            yield Static(t("knock.body"), id="knock-body")
            yield Static(id="knock-state")
            with Horizontal(classes="buttons"):
                yield Button(t("knock.button"), id="knock", variant="primary")
                yield Button(t("knock.back"), id="back")

    def on_mount(self) -> None:
        """Show the first state."""
        self._show(Msg("knock.ask"))

    def _show(self, msg: Msg, error: bool = False) -> None:
        t = self.t
        style = Style(color="red", bold=True) if error else Style(color="cyan")
        self.query_one("#knock-state", Static).update(Text(t.text(msg), style=style))
        self.query_one("#knock", Button).display = self.state in ("ask", "refused", "failed")

    def action_knock(self) -> None:
        """Knock (again), unless we already wait or are joining."""
        if self.state not in ("ask", "refused", "failed"):
            return
        self.state = "waiting"
        self._show(Msg("knock.waiting"))
        self.run_worker(self._knock(), group="knock", exclusive=True)

    def action_back(self) -> None:
        """Esc: stop waiting (or give up asking) and go back."""
        if self.state == "entering":
            return  # let in: the join is on its way
        self.workers.cancel_group(self, "knock")
        self.dismiss("refused" if self.state == "refused" else "stopped")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Knock or Back."""
        if event.button.id == "knock":
            self.action_knock()
        else:
            self.action_back()

    async def _knock(self) -> None:
        try:
            answer = await self.knock()
        except RequestFailed as exc:
            if exc.code == "rate_limited" and exc.retry_after is not None:
                self._fail(Throttled(exc.retry_after))
            else:
                self._fail(Msg("error." + exc.code, {"message": exc.message}))
            return
        except (SessionClosed, TimeoutError):
            self._fail(Msg("error.no_reply"))
            return
        if not answer.accepted:
            self.state = "refused"
            self._show(Msg("knock.refused"), error=True)
            return
        self.state = "entering"
        self._show(Msg("knock.accepted"))
        refusal = await self.enter()
        if refusal is None:
            self.dismiss("seated")
        else:
            self._fail(refusal)

    def _fail(self, refusal: Refusal) -> None:
        self.state = "failed"
        self._show(refusal_msg(refusal), error=True)
