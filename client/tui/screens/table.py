"""The table screen: the other seats around the trick, your hand at the
bottom, the side panel, the prompt with its buttons, a notice line, the
chat and the keys. Before the game the lobby takes the table's place.

Every widget shows its own slice of the model and redraws only when that
slice changed (``widgets.model_slice``): after each change of the model the
screen asks them all to ``sync``, and a chat line redraws the log alone.
Every key is a binding here; the actions are ``TableMoves``'; the dialogs
the table opens by itself are ``TableDialogs``'.
"""

from __future__ import annotations

import contextlib
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.dom import DOMNode
from textual.widgets import Button, ContentSwitcher, Input

from protocol import client_messages as cm

from ..auto_play import AutoPlay
from ..cards import label
from ..i18n import Msg, Translator
from ..model import TableModel
from ..table_host import TableHost
from ..widgets.action_buttons import ACTIONS, ActionButton
from ..widgets.bars import ChatLog, TopBar
from ..widgets.chat_panel import ChatPanel
from ..widgets.hand import KEYS, HandView
from ..widgets.key_hints import KeyHints
from ..widgets.lobby import LobbyPanel
from ..widgets.model_slice import ShowsSlice
from ..widgets.notice_line import NoticeLine
from ..widgets.prompt_line import PromptLine
from ..widgets.seat_panel import SeatPanel
from ..widgets.side import SidePanel
from ..widgets.trick import TrickView
from .dialogs import ConfirmQuit, HelpScreen, QuitAnswer, SettingsScreen
from .rules import RulesScreen
from .stats import StatsScreen
from .table_dialogs import TableDialogs
from .table_moves import TableMoves

LARGE_ROWS = 34  # a terminal this tall and wide gets larger cards and a longer log
LARGE_COLUMNS = 100


class TableScreen(TableMoves):
    """Where the game is played."""

    AUTO_FOCUS = "#hand"
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"card({i})", show=False) for i, key in enumerate(KEYS)),
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("space", "cursor_card", show=False),
        Binding("enter", "primary", show=False),
        Binding("p", "pass_cards", show=False),
        Binding("n", "next_hand", show=False),
        Binding("s", "start", show=False),
        Binding("r", "rematch", show=False),
        Binding("1", "seat(1)", show=False),
        Binding("2", "seat(2)", show=False),
        Binding("3", "seat(3)", show=False),
        # Tables of more than four seats: the seats further on in play order.
        *(Binding(str(k), f"seat({k})", show=False) for k in range(4, 10)),
        Binding("y", "answer_knock(True)", show=False),
        Binding("x", "answer_knock(False)", show=False),
        Binding("t", "toggle_side", show=False),
        Binding("slash", "chat", show=False),
        Binding("pageup", "chat_scroll(-1)", show=False),
        Binding("pagedown", "chat_scroll(1)", show=False),
        Binding("up", "chat_line(-1)", show=False),
        Binding("down", "chat_line(1)", show=False),
        Binding("escape", "escape", show=False),
        Binding("question_mark,f1", "help", show=False),
        Binding("f2", "rules", show=False),
        Binding("f3", "stats", show=False),
        Binding("o", "settings", show=False),
        Binding("q", "quit_table", show=False),
        Binding("H", "hint", show=False),
        Binding("u", "undo", show=False),
        Binding("C", "claim", show=False),
        Binding("v", "replay", show=False),
    ]

    def __init__(self, model: TableModel, t: Translator, host: TableHost) -> None:
        super().__init__(model, t, host)
        self.dialogs = TableDialogs(self)
        self.auto_play = AutoPlay()
        self._phase_key: tuple[str, int] = ("", 0)
        self._ready = False
        self._chatting = False  # the chat line has the focus: the chat view shows
        self._rows: tuple[int, int] = (4, 2)  # the hand's and the log's rows (``_fit_rows``)
        # Every widget that shows a slice of the model, with the pane of
        # ``#body`` it is in (None: outside the switcher, always shown).
        self._views: list[tuple[ShowsSlice, str | None]] = []

    def compose(self) -> ComposeResult:
        """The layout (see hearts.tcss)."""
        m, t = self.model, self.t
        trick = TrickView(m, t, id="trick")
        yield TopBar(m, t, id="topbar")
        with ContentSwitcher(initial="lobby", id="body"):
            with Horizontal(id="table"):
                with Vertical(id="felt"):
                    yield SeatPanel(m, t, "across", id="seat-across")
                    with Horizontal(id="middle"):
                        yield SeatPanel(m, t, "left", id="seat-left")
                        yield trick
                        yield SeatPanel(m, t, "right", id="seat-right")
                yield SidePanel(m, t, id="side")
            yield LobbyPanel(m, t, id="lobby")
            yield ChatPanel(m, t, id="chat-view")
        yield HandView(m, id="hand")
        yield SeatPanel(m, t, "bottom", id="seat-bottom")  # a spectator's fourth seat
        with Horizontal(id="actions"):
            yield PromptLine(m, t, id="prompt")
            for name in ACTIONS:
                yield ActionButton(m, t, name)
        yield NoticeLine(m, t, trick.moon_cut, id="notice")
        yield ChatLog(m, t, id="log")
        chat = Input(id="chat", compact=True, max_length=200)
        # Focusable only while chatting: when a dialog closes over a spectator
        # (who has no hand to focus) the focus must not land in the chat.
        chat.can_focus = False
        yield chat
        yield KeyHints(m, t, lambda: self._chatting, id="keys")

    def on_mount(self) -> None:
        """Draw what there is (changes before this waited for it)."""
        body = self.query_one("#body", ContentSwitcher)
        self._views = [
            (w, _pane_of(w, body)) for w in self.walk_children() if isinstance(w, ShowsSlice)
        ]
        self._ready = True
        self.sync()
        self.call_after_refresh(self.sync)  # what depends on the laid-out sizes

    # -- drawing -------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        """Refit the key line to the new width at once (not at the next key)."""
        if self._ready:
            with contextlib.suppress(NoMatches):
                # The rows first: a hand and log sized for a larger terminal
                # would overflow a smaller one until the next redraw.
                self._fit_rows(event.size.width, event.size.height)
                self.query_one(KeyHints).fit(event.size.width)
            # Once laid out again: the sizes of the hand, the log and the
            # middle of the table follow the terminal's.
            self.call_after_refresh(self.sync)

    def sync(self) -> None:
        """Bring every widget up to the model (after every change): each
        redraws only if what it shows changed."""
        if not self._ready:
            return
        with contextlib.suppress(NoMatches):  # closing: the widgets are already gone
            self._sync()

    def on_unmount(self) -> None:
        """Nothing to draw any more."""
        self._ready = False

    def reset(self) -> None:
        """The table is gone (the host removed us): forget its dialogs."""
        self.dialogs.reset()
        self._phase_key = ("", 0)
        self.auto_play.reset()

    def _fit_rows(self, width: int, height: int) -> None:
        """A larger terminal (34 rows or more, 100 columns or more) gives the
        hand six rows for larger cards and the log the rows the table does
        not need (seven at 40 rows, twelve at 50); 80×24 keeps four and two."""
        large = height >= LARGE_ROWS and width >= LARGE_COLUMNS
        rows = (6, 2 + (height - 30) // 2) if large else (4, 2)
        if rows != self._rows:
            self._rows = rows
            self.query_one(HandView).styles.height = rows[0]
            self.query_one(ChatLog).styles.height = rows[1]

    def _sync(self) -> None:
        self._fit_rows(self.size.width, self.size.height)
        self._follow_phase()
        current = self._sync_layout()
        for view, pane in self._views:
            # What is not shown now works nothing out: a pane of the body
            # that is not the current one, a seat panel the layout hides.
            # Both are shown only by ``_sync_layout`` above, which runs
            # before this on every sync.
            if pane is not None and pane != current:
                continue
            if isinstance(view, SeatPanel) and not view.display:
                continue
            view.sync()
        placeholder = "chat.placeholder_watch" if self.model.spectating() else "chat.placeholder"
        self.query_one("#chat", Input).placeholder = self.t(placeholder)
        self.dialogs.sync()
        for msg in self.model.take_notifications():
            self.app.notify(self.t.text(msg), timeout=10)
        self._auto_play()

    def _follow_phase(self) -> None:
        """A new hand shows the tricks, its end the scores."""
        view = self.model.view
        phase_key = (view.status, view.hand_number) if view else ("", 0)
        if phase_key == self._phase_key:
            return
        self._phase_key = phase_key
        if view is not None and view.status in ("between_hands", "game_over"):
            self.model.side = "scores"
        elif view is not None and view.status == "playing":
            self.model.side = "tricks"

    def _sync_layout(self) -> str:
        """Which parts show: the lobby, the table or the chat; the hand or
        a spectator's fourth seat; the classic panels or the ring. Returns
        the pane of the body now shown."""
        view = self.model.view
        waiting = view is None or view.status == "waiting"
        body = "chat-view" if self._chatting else "lobby" if waiting else "table"
        self.query_one("#body", ContentSwitcher).current = body
        self._show_hand(not self.model.spectating() and not waiting)
        self.query_one("#seat-bottom", SeatPanel).display = self.model.spectating() and not waiting
        # Four seats: the classic panels; any other count: the trick view
        # draws the opponents on a ring around the trick (widgets/seat_ring.py).
        classic = view is None or len(view.seats) == 4
        for panel_id in ("#seat-across", "#seat-left", "#seat-right"):
            self.query_one(panel_id, SeatPanel).display = classic
        return body

    def _show_hand(self, shown: bool) -> None:
        """Before the game there are no cards (the lobby takes their rows
        too), and a spectator has none."""
        hand = self.query_one(HandView)
        if shown != hand.display:
            hand.display = shown
            if shown and self.focused is None:
                hand.focus()  # hidden in the lobby, it lost the focus (and its cursor)

    def _auto_play(self) -> None:
        """Play a forced card by itself (``client.tui.auto_play``)."""
        client = self.hearts.table
        if client is None:
            return
        card = self.auto_play.due(self.model, self.hearts.settings.auto_single)
        if card is None:
            return
        model = self.model

        async def play() -> None:
            if await client.send(lambda rid: cm.PlayCard(id=rid, card=card)):
                # Said once the server took it: the log never tells of a card
                # that was refused.
                model.log.event(Msg("log.auto_played", {"card": label(card)}))
                model.changed()
                self.sync()

        self.run_worker(play(), group="requests")

    # -- what only the screen does ---------------------------------------------

    def action_toggle_side(self) -> None:
        """Tricks ⇄ scores."""
        self.model.side = "scores" if self.model.side == "tricks" else "tricks"
        self.sync()

    def action_chat(self) -> None:
        """The chat view: the whole conversation, and the line to type in."""
        chat = self.query_one("#chat", Input)
        chat.can_focus = True
        chat.focus()

    def action_chat_scroll(self, step: int) -> None:
        """PgUp/PgDn: page through the conversation (opening it if needed)."""
        if not self._chatting:
            self.action_chat()
        self.query_one(ChatPanel).page(step)

    def action_chat_line(self, step: int) -> None:
        """↑/↓ in the chat view: a line back or forward."""
        if self._chatting:
            panel = self.query_one(ChatPanel)
            panel.scroll_to(y=panel.scroll_y + step, animate=False)

    def _focus_table(self) -> None:
        self.query_one("#chat", Input).can_focus = False
        hand = self.query_one(HandView)
        if hand.display:
            hand.focus()
        else:
            self.set_focus(None)  # a spectator has no hand; keys go to the screen

    def action_escape(self) -> None:
        """Leave the chat line, clear the notice."""
        self._focus_table()
        self._clear_notice()
        self.sync()

    def action_help(self) -> None:
        """Every key."""
        self.app.push_screen(HelpScreen(self.t))

    def action_rules(self) -> None:
        """The rules of the game, of this table's options, and tips."""
        view = self.model.view
        self.app.push_screen(RulesScreen(self.t, view.rules if view is not None else None))

    def action_stats(self) -> None:
        """The player's statistics."""
        self.app.push_screen(StatsScreen(self.t, self.hearts.stats))

    def action_settings(self) -> None:
        """Fast play, language, auto-play, the bell."""
        self.app.push_screen(
            SettingsScreen(self.t, self.hearts.settings, self.hearts.settings_changed)
        )

    def action_quit_table(self) -> None:
        """Leave (after a confirmation), or give the seat up and watch."""
        view = self.model.view
        seated = not self.model.spectating() and view is not None
        over = view is not None and view.status == "game_over"
        if not seated:
            body = "quit.body_watch"
        elif over:
            body = "quit.body_over"  # nothing is left to continue or to give up
        else:
            body = "quit.body"  # the seat is in the session file: hearts resume
            if self.hearts.play_file is not None:
                body = "quit.body_play_saved"  # hearts play offers it back next time
            elif self.hearts.quick_game and not self._seat_kept():
                body = "quit.body_play"  # its own server keeps nothing

        def answered(answer: QuitAnswer | None) -> None:
            if answer == "leave":
                self.run_worker(self.hearts.leave_and_exit(), group="quit")
            elif answer == "give_up":
                self.send_request(lambda rid: cm.LeaveSeat(id=rid))

        self.app.push_screen(
            ConfirmQuit(self.t, body, seated=seated, give_up=seated and not over), answered
        )

    def _seat_kept(self) -> bool:
        """Whether our seat is in a session file for ``hearts resume``."""
        table = self.hearts.table
        return table is not None and table.session.session_file is not None

    # -- messages ------------------------------------------------------------

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The chat line took the focus (``/``, a click) or gave it up: show
        the chat view or the table."""
        chatting = event.widget is self.query_one("#chat", Input)
        if chatting != self._chatting:
            self._chatting = chatting
            if chatting:
                self.query_one(ChatPanel).show_newest()
            self.sync()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        """Focus left the chat line for nothing (a spectator's Esc)."""
        if event.widget is self.query_one("#chat", Input) and self.focused is None:
            self._chatting = False
            self.sync()

    def on_hand_view_card_chosen(self, event: HandView.CardChosen) -> None:
        """A click on a card."""
        cards = self.model.hand()
        if event.card in cards:
            self.model.cursor = cards.index(event.card)
        self.choose(event.card)

    def on_trick_view_clicked(self, event: TrickView.Clicked) -> None:
        """A click on the table cuts a pause short."""
        client = self.hearts.table
        if client is not None:
            client.skip()

    def on_chat_log_clicked(self, event: ChatLog.Clicked) -> None:
        """A click on the last lines opens the whole conversation."""
        self.action_chat()

    def on_click(self, event: events.Click) -> None:
        """A click on the chat line opens the chat (it takes the focus only
        while chatting)."""
        if event.widget is self.query_one("#chat", Input) and not self._chatting:
            self.action_chat()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The prompt's buttons."""
        actions = {
            "btn-pass": self.action_pass_cards,
            "btn-next": self.action_next_hand,
            "btn-start": self.action_start,
            "btn-rematch": self.action_rematch,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Send a chat line and stay in the chat; Enter on an empty line goes
        back to the cards."""
        text = event.value.strip()
        event.input.value = ""
        if not text:
            self._focus_table()
            return
        self.send_request(lambda rid: cm.Chat(id=rid, text=text), exclusive=False)


def _pane_of(widget: DOMNode, body: ContentSwitcher) -> str | None:
    """The id of the pane of ``body`` that holds ``widget`` (None: not in it)."""
    for node in (widget, *widget.ancestors):
        if node.parent is body:
            return node.id
    return None
