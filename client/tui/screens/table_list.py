"""``hearts join`` without a code: the server's public tables, to join or
to watch, and a field for an invite code; also where a player the host
removed comes back to (the reason said above the list).

The list comes from ``list_tables`` (tables still waiting for players); ``r``
asks again. Enter joins the highlighted table, ``w`` watches it; a code (or
a table's link) typed in the field is joined with Enter (or the Join and
Watch buttons); ``n`` hosts a new table instead, ``b`` plays at once against
three Medium bots. A refusal (the table
filled up, the code is wrong) is said under the list and the player picks
again; the screen closes once a table has us.

When the server throttles lookups by code from our address (too many wrong
codes), the line counts the wait down and nothing is sent until it is over:
asking again would only be refused.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from pydantic import ValidationError
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, DataTable, Input, Label, Static

from client.invite import BadTableRef, TableRef, parse_table_ref
from client.session import RequestFailed, SessionClosed
from protocol import server_messages as sm
from protocol.common import RulesModel

from ..i18n import Msg, Translator
from ..key_line import Segment, fit_keys
from ..widgets.lobby import format_code, rules_text

How = Literal["join", "watch"]
# How the list closes: a table has us, the player wants to host one, or to
# play against bots at once, or left.
ListAnswer = Literal["seated", "create", "bots"] | None
LIST_KEYS: Final = (
    Segment("list.key_choose", optional=True),
    Segment("list.key_join"),
    Segment("list.key_watch"),
    Segment("list.key_bots"),
    Segment("list.key_new"),
    Segment("list.key_refresh", optional=True),
    Segment("list.key_code", optional=True),
    Segment("list.key_back"),
    Segment("key.quit"),
)
NAME_WIDTH: Final = 26
HOST_WIDTH: Final = 16
MAX_TYPED: Final = 300  # a code, or a whole invite link pasted in


@dataclass(frozen=True)
class Throttled:
    """The server refuses every lookup by code from our address for
    ``retry_after`` seconds (too many wrong codes)."""

    retry_after: float


# Why a table did not have us: a sentence, or a wait the server asks for.
Refusal = Msg | Throttled
Fetch = Callable[[], Awaitable[Sequence[sm.TableSummary]]]
Choose = Callable[[TableRef, How], Awaitable[Refusal | None]]


def table_name(t: Translator, summary: sm.TableSummary) -> str:
    """The table's name; the server's English default in our language."""
    if summary.name in ("", f"{summary.host}'s table"):
        return t("lobby.default_title", name=summary.host)
    return summary.name


def summary_rules(t: Translator, summary: sm.TableSummary) -> str:
    """The listed table's rules in one line ("" if we cannot read them)."""
    try:
        return rules_text(t, RulesModel.model_validate(summary.rules))
    except ValidationError:
        return ""


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class TableListScreen(Screen[ListAnswer]):
    """Pick a public table (or type a code) to join or watch, or host one."""

    DEFAULT_CSS = """
    TableListScreen { layout: vertical; }
    TableListScreen #list-title { height: 1; background: $primary-background; text-style: bold; }
    TableListScreen #list-reason { height: auto; padding: 0 1; }
    TableListScreen #tables { height: 1fr; border: round $accent; }
    TableListScreen #list-rules { height: 2; padding: 0 1; }
    TableListScreen #code-row { height: 1; }
    TableListScreen #code-row Label { padding: 0 1; }
    TableListScreen #code { width: 28; }
    TableListScreen #code-row Button { margin-left: 1; min-width: 8; }
    TableListScreen #list-notice { height: 1; }
    TableListScreen #list-keys { height: 1; }
    """
    AUTO_FOCUS = "#tables"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,f5", "refresh", show=False),
        Binding("w", "watch", show=False),
        Binding("n", "create", show=False),
        Binding("b", "bots", show=False),
        Binding("slash,c", "type_code", show=False),
        Binding("escape", "back", show=False),
    ]

    def __init__(
        self,
        t: Translator,
        fetch: Fetch,
        choose: Choose,
        reason: Msg | None = None,
        code: str = "",
        throttled: Throttled | None = None,
        retype: bool = False,
    ) -> None:
        super().__init__()
        self.retype = retype  # the code field takes the focus, its text selected
        self.t = t
        self.fetch = fetch
        self.choose_table = choose
        self.reason = reason
        self.code = code  # put in the code field (a code the player tried)
        self.throttled = throttled
        self.tables: list[sm.TableSummary] = []
        self.busy = False
        self.wait_until: float | None = None  # ``time.monotonic()`` the throttle ends
        self._countdown: Timer | None = None

    def compose(self) -> ComposeResult:
        """Title, the list, the highlighted table's rules, the code field."""
        t = self.t
        yield Static(" " + t("app.title") + " · " + t("list.title"), id="list-title")
        if self.reason is not None:
            sentence = t.text(self.reason)
            yield Static(
                Text("✕ " + sentence, style=Style(color="red", bold=True)), id="list-reason"
            )
        table: DataTable[str] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        table.border_title = t("list.title")
        yield table
        yield Static(id="list-rules")
        with Horizontal(id="code-row"):
            yield Label(t("list.code"))
            yield Input(
                self.code, placeholder="ABC-DEF", id="code", compact=True, max_length=MAX_TYPED
            )
            yield Button(t("btn.join"), id="join", compact=True, variant="primary")
            yield Button(t("btn.watch"), id="watch", compact=True)
        yield Static(id="list-notice")
        yield Static(id="list-keys")

    def on_resize(self) -> None:
        """The keys that fit the width."""
        keys = fit_keys(self.t, LIST_KEYS, self.size.width)
        self.query_one("#list-keys", Static).update(Text(keys, style=Style(dim=True)))

    def on_mount(self) -> None:
        """Ask for the tables."""
        self.on_resize()
        table = self.query_one("#tables", DataTable)
        t = self.t
        for key, width in (
            ("list.col_code", 7),
            ("list.col_name", NAME_WIDTH),
            ("list.col_host", HOST_WIDTH),
            ("list.col_open", 5),
            ("list.col_bots", 5),
        ):
            table.add_column(t(key), width=max(width, cell_len(t(key))), key=key)
        for button in self.query(Button):
            button.can_focus = True
        if self.retype:  # a code that failed: typing replaces it at once
            field = self.query_one("#code", Input)
            field.focus()
            field.select_all()
        self.action_refresh()
        if self.throttled is not None:
            self.throttle(self.throttled)

    # -- the list ----------------------------------------------------------

    def action_refresh(self) -> None:
        """Ask the server for its public tables again."""
        if not self.waiting():
            self.say(Msg("list.loading"))
        self.run_worker(self._load(), group="load", exclusive=True)

    async def _load(self) -> None:
        try:
            tables = list(await self.fetch())
        except RequestFailed as exc:
            self.say(Msg("error." + exc.code, {"message": exc.message}), error=True)
            return
        except (SessionClosed, TimeoutError):
            self.say(Msg("error.no_reply"), error=True)
            return
        if self.is_attached:  # the list may have closed while the server answered
            self.show(tables)

    def show(self, tables: list[sm.TableSummary]) -> None:
        """Fill the list (the highlighted table stays highlighted)."""
        table = self.query_one("#tables", DataTable)
        current = self.highlighted()
        table.clear()
        self.tables = tables
        t = self.t
        for summary in tables:
            table.add_row(
                Text(format_code(summary.code), style=Style(bold=True, color="yellow")),
                _cut(table_name(t, summary), NAME_WIDTH),
                _cut(summary.host, HOST_WIDTH),
                str(summary.open_seats),
                str(summary.bots),
                key=summary.code,
            )
        codes = [s.code for s in tables]
        if current is not None and current.code in codes:
            table.move_cursor(row=codes.index(current.code), animate=False)
        if not self.waiting():  # the countdown keeps the line
            self.say(Msg("list.count", {"n": len(tables)}) if tables else Msg("list.empty"))
        self._show_rules()

    def highlighted(self) -> sm.TableSummary | None:
        """The table under the list's cursor."""
        table = self.query_one("#tables", DataTable)
        row = table.cursor_row
        return self.tables[row] if self.tables and 0 <= row < len(self.tables) else None

    def _show_rules(self) -> None:
        summary = self.highlighted()
        text = Text()
        if summary is not None:
            text = Text(self.t("list.rules", rules=summary_rules(self.t, summary)))
            text.stylize(Style(dim=True))
        self.query_one("#list-rules", Static).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Show the rules of the table under the cursor."""
        self._show_rules()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click on the highlighted row): join it."""
        self._pick("join", from_code_field=False)

    # -- choosing ----------------------------------------------------------

    def action_watch(self) -> None:
        """Watch the highlighted table."""
        self._pick("watch", from_code_field=False)

    def action_create(self) -> None:
        """Host a new table instead (the app shows the form)."""
        if not self.busy:
            self.dismiss("create")

    def action_bots(self) -> None:
        """Play at once against three Medium bots (the app creates and
        starts the table)."""
        if not self.busy:
            self.dismiss("bots")

    def action_type_code(self) -> None:
        """Go to the invite code field."""
        self.query_one("#code", Input).focus()

    def action_back(self) -> None:
        """Esc: from the code field back to the list; from the list, leave
        (the list is the first screen: the key line says "Esc leave")."""
        if self.focused is self.query_one("#code", Input):
            self.query_one("#tables", DataTable).focus()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the code field joins that table."""
        self._pick("join", from_code_field=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Join or Watch: the typed code, else the highlighted table."""
        how: How = "watch" if event.button.id == "watch" else "join"
        self._pick(how, from_code_field=bool(self.query_one("#code", Input).value.strip()))

    def _pick(self, how: How, from_code_field: bool) -> None:
        if self.busy:
            return
        if from_code_field:
            typed = self.query_one("#code", Input).value.strip()
        else:
            summary = self.highlighted()
            typed = summary.code if summary is not None else ""
        if not typed:
            self.say(Msg("list.no_choice"), error=True)
            return
        try:
            ref = parse_table_ref(typed)
        except BadTableRef:
            self.say(Msg("list.bad_code"), error=True)
            return
        if ref.invite is None and self.waiting():
            self._tick()  # every lookup by code would be refused: say how long still
            return
        self.busy = True
        key = "list.joining" if how == "join" else "list.opening"
        code = "".join(ch for ch in ref.code.upper() if ch.isalnum())
        self.say(Msg(key, {"code": format_code(code)}))
        self.run_worker(self._choose(ref, how), group="choose")

    async def _choose(self, ref: TableRef, how: How) -> None:
        try:
            refusal = await self.choose_table(ref, how)
        finally:
            self.busy = False
        if refusal is None:
            self.dismiss("seated")
        elif isinstance(refusal, Throttled):
            self.throttle(refusal)
        else:
            self.say(refusal, error=True)

    # -- a throttled address -------------------------------------------------

    def throttle(self, throttled: Throttled) -> None:
        """Count the server's wait down on the notice line; picks send
        nothing until it is over."""
        self.wait_until = time.monotonic() + throttled.retry_after
        if self._countdown is None:
            self._countdown = self.set_interval(0.5, self._tick)
        self._tick()

    def waiting(self) -> bool:
        """The server's wait for lookups by code is not over."""
        return self.wait_until is not None and time.monotonic() < self.wait_until

    def seconds_left(self) -> int:
        """Whole seconds of the server's wait still to go."""
        if self.wait_until is None:
            return 0
        return max(0, math.ceil(self.wait_until - time.monotonic()))

    def _tick(self) -> None:
        left = self.seconds_left()
        if left > 0:
            self.say(Msg("throttle.wait", {"n": left}), error=True)
            return
        if self._countdown is not None:
            self._countdown.stop()
            self._countdown = None
        if self.wait_until is not None:
            self.wait_until = None
            self.say(Msg("throttle.over"))

    def say(self, msg: Msg, error: bool = False) -> None:
        """The line under the code field."""
        sentence = self.t.text(msg)
        style = Style(color="red", bold=True) if error else Style(color="cyan")
        text = Text(("✕ " if error else "ℹ ") + sentence[:1].upper() + sentence[1:], style=style)
        self.query_one("#list-notice", Static).update(text)
