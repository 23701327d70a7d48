"""At a table whose host approves who sits, a player with only the code is
told so and may knock (``k``, Enter or the button): "Waiting for the host…"
until the host answers (Esc stops waiting). Let in, the dialog joins (or
watches) at once and closes; turned away, it says so and the player may
knock again or go back.

Before the knock it shows what the table is, as the browser's join page
does (``get_table_facts``: its name, host and state, who sits, the turn
timer and the rules), when the server tells it.

The dialog only drives the exchange: ``knock`` (send ``knock``, wait for
``knock_answered``), ``enter`` (``join_table``/``watch`` again) and
``facts`` (``get_table_facts``) are the app's.
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
from ..widgets.lobby import rules_text
from .dialogs import Dialog
from .table_list import Refusal, Throttled

# How the dialog closes: at the table, turned away by the host, or the
# player went back without an answer.
KnockOutcome = Literal["seated", "refused", "stopped"]
State = Literal["ask", "waiting", "refused", "entering", "failed"]
Knock = Callable[[], Awaitable[sm.KnockAnswered]]
Enter = Callable[[], Awaitable[Refusal | None]]
Facts = Callable[[], Awaitable[sm.TableFacts | None]]


def facts_text(t: Translator, facts: sm.TableFacts) -> Text:
    """What the table is (``get_table_facts``): its name, host and state,
    who sits at each seat, the turn timer and the rules."""
    head = t(
        "knock.facts", name=facts.name, host=facts.host, status=t("knock.status." + facts.status)
    )
    if facts.turn_seconds:
        head += " · " + t("knock.timer", n=facts.turn_seconds)
    seats = ", ".join(seat_text(t, seat) for seat in facts.seats)
    return Text("\n").join(
        [
            Text(head, style=Style(bold=True)),
            Text(t("knock.seats", seats=seats)),
            Text(t("list.rules", rules=rules_text(t, facts.rules)), style=Style(dim=True)),
        ]
    )


def seat_text(t: Translator, seat: sm.TableFactsSeat) -> str:
    """A seat as the facts list it: its name and a bot's level, or open."""
    if seat.kind == "open":
        return t("kind.open")
    if seat.kind == "bot" and seat.bot_level:
        return f"{seat.name} · {t('level.' + seat.bot_level)}"
    return seat.name


def refusal_msg(refusal: Refusal) -> Msg:
    """A refusal as a sentence (a throttle says how long to wait)."""
    if isinstance(refusal, Throttled):
        return Msg("throttle.wait", {"n": max(1, round(refusal.retry_after))})
    return refusal


class KnockScreen(ModalScreen[KnockOutcome]):
    """Ask the host of table ``code`` to let us sit (or watch)."""

    DEFAULT_CSS = (
        Dialog.DEFAULT_CSS.replace("Dialog", "KnockScreen")
        + "KnockScreen #knock-facts { height: auto; margin-bottom: 1; }\n"
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k,enter", "knock", show=False),
        Binding("escape", "back", show=False),
    ]

    def __init__(
        self, t: Translator, code: str, knock: Knock, enter: Enter, facts: Facts | None = None
    ) -> None:
        super().__init__()
        self.t = t
        self.code = code
        self.knock = knock
        self.enter = enter
        self.facts = facts
        self.state: State = "ask"

    def compose(self) -> ComposeResult:
        """The table, what the host asks, the state, the buttons."""
        t = self.t
        with Vertical():
            yield Static(t("knock.title", code=self.code), classes="title")
            facts = Static(id="knock-facts")
            facts.display = False  # until the server tells what the table is
            yield facts
            yield Static(t("knock.body"), id="knock-body")
            yield Static(id="knock-state")
            with Horizontal(classes="buttons"):
                yield Button(t("knock.button"), id="knock", variant="primary")
                yield Button(t("knock.back"), id="back")

    def on_mount(self) -> None:
        """Show the first state; ask what the table is."""
        self._show(Msg("knock.ask"))
        if self.facts is not None:
            self.run_worker(self._load_facts(self.facts), group="facts")

    async def _load_facts(self, facts: Facts) -> None:
        """The table's facts, when the server tells them (a refusal or no
        answer leaves them out: the knock is what matters)."""
        try:
            reply = await facts()
        except (RequestFailed, SessionClosed, TimeoutError):
            return
        if reply is not None:
            box = self.query_one("#knock-facts", Static)
            box.update(facts_text(self.t, reply))
            box.display = True

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
