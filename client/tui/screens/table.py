"""The table screen: the other seats around the trick, your hand at the
bottom, the side panel, the prompt with its buttons, a notice line, the
chat and the keys. Before the game the lobby takes the table's place.

Every key is a binding here; actions check the model and either explain a
refusal in the notice line or send a request through the ``TableClient``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import ClassVar, Literal

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Button, ContentSwitcher, Input, Static

from client.session import RequestFailed, SessionClosed
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatInfo

from ..advice import ask_hint, hint_refusal
from ..cards import label
from ..claims import claim_refusal
from ..explain import pass_refusal, play_refusal
from ..i18n import Msg, Translator
from ..key_line import fit_keys, table_keys
from ..model import TableModel, seat_label
from ..prompts import prompt_msg
from ..review import REVIEW_TIMEOUT, review_refusal
from ..seats import my_seat, place_key
from ..table_client import TableClient
from ..table_host import TableHost
from ..takeback import undo_refusal
from ..widgets.bars import ChatLog, TopBar
from ..widgets.chat_panel import ChatPanel
from ..widgets.hand import KEYS, HandView
from ..widgets.lobby import LobbyPanel
from ..widgets.seat_panel import SeatPanel, seat_name
from ..widgets.side import SidePanel
from ..widgets.trick import TrickView
from .dialogs import (
    ConfirmQuit,
    GameOverScreen,
    HelpScreen,
    MoonScreen,
    QuitAnswer,
    SettingsScreen,
)
from .replay import ReplayScreen
from .rules import RulesScreen
from .seat_menu import SeatChoice, SeatMenu, run_seat_choice
from .stats import StatsScreen

LARGE_ROWS = 34  # a terminal this tall and wide gets larger cards and a longer log
LARGE_COLUMNS = 100


class TableScreen(Screen[None]):
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
        super().__init__()
        self.model = model
        self.t = t
        self.hearts = host  # the app, as far as the screen needs it
        self._moon: MoonScreen | None = None
        self._over: GameOverScreen | None = None
        self._over_closed = False
        self._phase_key: tuple[str, int] = ("", 0)
        self._ready = False
        self._chatting = False  # the chat line has the focus: the chat view shows
        # (hand, cards left) of each turn whose card played by itself: never
        # again for that turn, not after a refusal, nor after an undo took
        # the card back (the player wants to choose it themselves).
        self._auto_played: set[tuple[int, int]] = set()
        self._rows: tuple[int, int] = (4, 2)  # the hand's and the log's rows (``_fit_rows``)

    def compose(self) -> ComposeResult:
        """The layout (see hearts.tcss)."""
        m, t = self.model, self.t
        yield TopBar(m, t, id="topbar")
        with ContentSwitcher(initial="lobby", id="body"):
            with Horizontal(id="table"):
                with Vertical(id="felt"):
                    yield SeatPanel(m, t, "across", id="seat-across")
                    with Horizontal(id="middle"):
                        yield SeatPanel(m, t, "left", id="seat-left")
                        yield TrickView(m, t, id="trick")
                        yield SeatPanel(m, t, "right", id="seat-right")
                yield SidePanel(m, t, id="side")
            yield LobbyPanel(m, t, id="lobby")
            yield ChatPanel(m, t, id="chat-view")
        yield HandView(m, id="hand")
        yield SeatPanel(m, t, "bottom", id="seat-bottom")  # a spectator's fourth seat
        with Horizontal(id="actions"):
            yield Static(id="prompt")
            for name in ("pass", "next", "start", "rematch"):
                button = Button("", id="btn-" + name, compact=True, variant="primary")
                button.can_focus = False
                yield button
        yield Static(id="notice")
        yield ChatLog(m, t, id="log")
        chat = Input(id="chat", compact=True, max_length=200)
        # Focusable only while chatting: when a dialog closes over a spectator
        # (who has no hand to focus) the focus must not land in the chat.
        chat.can_focus = False
        yield chat
        yield Static(id="keys")

    def on_mount(self) -> None:
        """Draw what there is (changes before this waited for it)."""
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
                self._sync_keys(event.size.width)
            # Once laid out again: the sizes of the hand, the log and the
            # middle of the table follow the terminal's.
            self.call_after_refresh(self.sync)

    def _sync_keys(self, width: int) -> None:
        """The key line: what works now, as much as ``width`` columns hold."""
        keys = fit_keys(self.t, table_keys(self.model, self._chatting), width)
        self.query_one("#keys", Static).update(Text(keys, style=Style(dim=True)))

    def sync(self) -> None:
        """Redraw everything from the model (after every change)."""
        if not self._ready:
            return
        with contextlib.suppress(NoMatches):  # closing: the widgets are already gone
            self._sync()

    def on_unmount(self) -> None:
        """Nothing to draw any more."""
        self._ready = False

    def reset(self) -> None:
        """The table is gone (the host removed us): forget its dialogs."""
        self._moon = None
        self._over = None
        self._over_closed = False
        self._phase_key = ("", 0)
        self._auto_played = set()

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
        model, view, t = self.model, self.model.view, self.t
        self._fit_rows(self.size.width, self.size.height)
        phase_key = (view.status, view.hand_number) if view else ("", 0)
        if phase_key != self._phase_key:
            if view is not None and view.status in ("between_hands", "game_over"):
                model.side = "scores"
            elif view is not None and view.status == "playing":
                model.side = "tricks"
            self._phase_key = phase_key
        waiting = view is None or view.status == "waiting"
        body = "chat-view" if self._chatting else "lobby" if waiting else "table"
        self.query_one("#body", ContentSwitcher).current = body
        watching = model.spectating()
        # Before the game there are no cards: the lobby takes their rows too.
        hand = self.query_one(HandView)
        shown = not watching and not waiting
        if shown != hand.display:
            hand.display = shown
            if shown and self.focused is None:
                hand.focus()  # hidden in the lobby, it lost the focus (and its cursor)
        self.query_one("#seat-bottom", SeatPanel).display = watching and not waiting
        # Four seats: the classic panels; any other count: the trick view
        # draws the opponents on a ring around the trick (widgets/seat_ring.py).
        classic = view is None or len(view.seats) == 4
        for panel_id in ("#seat-across", "#seat-left", "#seat-right"):
            self.query_one(panel_id, SeatPanel).display = classic
        for panel in self.query(SeatPanel):
            panel.sync()
        self.query_one(SidePanel).sync()
        self.query_one(LobbyPanel).sync()
        self.query_one(ChatPanel).sync()
        for widget in (TopBar, TrickView, HandView, ChatLog):
            self.query_one(widget).refresh()
        self.query_one("#prompt", Static).update(self._prompt())
        self.query_one("#notice", Static).update(self._notice())
        self._sync_keys(self.size.width)
        placeholder = "chat.placeholder_watch" if watching else "chat.placeholder"
        self.query_one("#chat", Input).placeholder = t(placeholder)
        self._sync_buttons()
        self._sync_dialogs()
        for msg in model.take_notifications():
            self.app.notify(t.text(msg), timeout=10)
        self._auto_play()

    def _auto_play(self) -> None:
        """Play a forced card by itself: always the last card of the hand,
        and any card that is the only legal one when the player asked for
        it (settings). Once per turn: a refused card is not sent again, and a
        card taken back by an undo is left for the player to play."""
        model, view = self.model, self.model.view
        if view is None or not model.my_turn():
            return
        if model.busy or model.lingering() or len(view.legal) != 1:
            return
        if len(view.hand) > 1 and not self.hearts.settings.auto_single:
            return
        turn = (view.hand_number, len(view.hand))
        client = self.hearts.table
        if turn in self._auto_played or client is None:
            return
        self._auto_played = {t for t in self._auto_played if t[0] == view.hand_number} | {turn}
        card = view.legal[0]

        async def play() -> None:
            if await client.send(lambda rid: cm.PlayCard(id=rid, card=card)):
                # Said once the server took it: the log never tells of a card
                # that was refused.
                model.log.event(Msg("log.auto_played", {"card": label(card)}))
                model.changed()
                self.sync()

        self.run_worker(play(), group="requests")

    def _sync_buttons(self) -> None:
        model, view, t = self.model, self.model.view, self.t
        host = view is not None and view.seat is not None and view.seat == view.host_seat
        me = view.seats[view.seat] if view is not None and view.seat is not None else None
        seated = not model.spectating()
        shown = {
            "pass": model.passing() or model.discarding(),
            "next": view is not None and view.status == "between_hands" and not (me and me.ready),
            "start": view is not None and view.status == "waiting" and host,
            "rematch": view is not None and view.status == "game_over" and host,
        }
        labels = {
            "pass": t("btn.discard") if model.discarding() else t("btn.pass"),
            "next": t("btn.next"),
            "start": t("btn.start"),
            "rematch": t("btn.rematch"),
        }
        for name, visible in shown.items():
            button = self.query_one("#btn-" + name, Button)
            button.display = visible and seated
            if str(button.label) != labels[name]:
                button.label = labels[name]
                button.refresh(layout=True)

    def _sync_dialogs(self) -> None:
        view = self.model.view
        if view is None:
            return
        wants_moon = (
            view.status == "playing"
            and view.phase == "moon_choice"
            and view.moon_shooter is not None
            and view.moon_shooter == view.seat
        )
        if wants_moon and self._moon is None:
            self._moon = MoonScreen(self.t, view.rules)
            self.app.push_screen(self._moon, self._moon_chosen)
        elif not wants_moon and self._moon is not None and self.app.screen is self._moon:
            self._moon.dismiss(None)
        over = view.status == "game_over" and not self.model.lingering()
        if view.status != "game_over":
            self._over_closed = False
        if over and self._over is None and not self._over_closed:
            # The server reviews the game for a seated player only.
            accuracy = None if self.model.spectating() else self._game_accuracy
            self._over = GameOverScreen(self.t, self.model, accuracy)
            self.app.push_screen(self._over, self._game_over_answer)
        elif not over and self._over is not None and self.app.screen is self._over:
            self._over.dismiss(None)

    def _prompt(self) -> Text:
        model, t = self.model, self.t
        asked = model.my_turn() or model.passing() or model.discarding()
        style = Style(bold=True, color="yellow") if asked else None
        text = Text(t.text(prompt_msg(model)), style=style or Style(bold=True))
        mine = (
            model.turn_left(model.view.seat) if model.view and model.view.seat is not None else None
        )
        if mine is not None:
            # The turn timer runs for our move: its countdown leads the line.
            text = (
                Text(t("seat.turn_in", n=mine) + " ", style=Style(color="black", bgcolor="yellow"))
                + text
            )
        text.truncate(self.size.width, overflow="ellipsis")
        return text

    def _notice(self) -> Text:
        model, t = self.model, self.t
        if model.connection == "reconnecting":
            return Text(
                " " + t("notice.reconnecting") + " ", style=Style(bgcolor="yellow", color="black")
            )
        notice = model.notice
        if notice is None and model.connection == "lost":
            return Text(" " + t("notice.lost") + " ", style=Style(bgcolor="red", color="white"))
        moon = self.query_one(TrickView).moon_cut() if notice is None else None
        if moon is not None:  # the middle of the table is too narrow for it
            return Text(t.text(moon[0]), style=Style(color="yellow", bold=True))
        if notice is None:
            return Text()
        sentence = t.text(notice.msg)
        sentence = sentence[:1].upper() + sentence[1:]
        if notice.level == "error":
            return Text("✕ " + sentence, style=Style(color="red", bold=True))
        return Text("ℹ " + sentence, style=Style(color="cyan"))

    # -- the player's actions ------------------------------------------------

    def _send(self, build: Callable[[str], cm.Request], exclusive: bool = True) -> None:
        client = self.hearts.table
        if client is not None:
            self.run_worker(client.send(build, exclusive), group="requests")

    def _clear_notice(self) -> None:
        if self.model.notice is not None:
            self.model.notice = None
            self.model.changed()

    def _refuse(self, msg: Msg) -> None:
        self.model.say(msg, "error")
        self.sync()

    def _watching(self) -> bool:
        """A spectator pressed a key that would act: say why nothing happens."""
        if self.model.spectating():
            self._refuse(Msg("why.spectator"))
            return True
        return False

    def choose(self, card: str) -> None:
        """A card was chosen (its key, Space on the cursor, or a click)."""
        model, view = self.model, self.model.view
        if view is None or self._watching():
            return
        client = self.hearts.table
        if model.lingering() and client is not None:
            client.skip()  # the trick leaves the table; the key still counts
        self._clear_notice()
        if model.passing() or model.discarding():
            count = view.discard_count if model.discarding() else view.rules.pass_count
            refusal = model.toggle_pick(card, count)
            if refusal is not None:
                model.say(refusal, "error")
        else:
            turn = seat_label(view, view.turn) if view.turn is not None else ""
            refusal = play_refusal(view, card, self.t.term(turn))
            if refusal is not None:
                model.say(refusal, "error")
            else:
                self._send(lambda rid: cm.PlayCard(id=rid, card=card))
        self.sync()

    def action_card(self, index: int) -> None:
        """The card under a letter key."""
        if self._watching():
            return
        card = self.model.card_for_key(KEYS[index])
        if card is None:
            if self.model.view is not None and self.model.view.hand:
                self._refuse(Msg("why.no_card", {"key": KEYS[index]}))
            return
        self.model.cursor = self.model.hand().index(card)
        self.choose(card)

    def action_cursor(self, step: int) -> None:
        """Move the cursor along the hand."""
        if self._watching():
            return
        self.model.move_cursor(step)
        self.sync()

    def action_cursor_card(self) -> None:
        """Choose the card under the cursor."""
        if self._watching():
            return
        card = self.model.card_at(self.model.cursor)
        if card is not None:
            self.choose(card)

    def action_primary(self) -> None:
        """Enter: whatever the table is waiting for from you."""
        model, view = self.model, self.model.view
        client = self.hearts.table
        if view is None:
            return
        if model.lingering() and client is not None:
            client.skip()
        elif self._watching():
            return
        elif model.passing() or model.discarding():
            self.action_pass_cards()
        elif view.status == "between_hands":
            self.action_next_hand()
        elif view.status == "waiting":
            self.action_start()
        elif view.status == "game_over":
            self.action_rematch()

    def action_pass_cards(self) -> None:
        """Pass the picked cards (or, having taken the widow, discard them)."""
        model, view = self.model, self.model.view
        if view is None or self._watching():
            return
        if model.discarding():
            if len(model.selected) != view.discard_count:
                self._refuse(
                    Msg("why.pick_count", {"k": view.discard_count, "n": len(model.selected)})
                )
                return
            picked = tuple(model.selected)
            self._clear_notice()
            self._send(lambda rid: cm.DiscardWidow(id=rid, cards=picked))
            return
        refusal = pass_refusal(view, len(model.selected))
        if refusal is not None:
            self._refuse(refusal)
            return
        cards = tuple(model.selected)
        self._clear_notice()
        self._send(lambda rid: cm.PassCards(id=rid, cards=cards))

    def action_hint(self) -> None:
        """Ask the server what the Medium bot would do here (client.tui.advice)."""
        refusal = hint_refusal(self.model)
        client = self.hearts.table
        if refusal is not None:
            self._refuse(refusal)
            return
        if client is not None:
            self.run_worker(self._hint(client), group="requests")

    async def _hint(self, client: TableClient) -> None:
        await ask_hint(client, self.model)
        self.sync()

    def action_undo(self) -> None:
        """Take back our last card (client.tui.takeback)."""
        refusal = undo_refusal(self.model)
        if refusal is not None:
            self._refuse(refusal)
            return
        self._clear_notice()
        self._send(lambda rid: cm.Undo(id=rid))

    def action_claim(self) -> None:
        """Claim every trick left (client.tui.claims)."""
        refusal = claim_refusal(self.model)
        if refusal is not None:
            self._refuse(refusal)
            return
        self._clear_notice()
        self._send(lambda rid: cm.Claim(id=rid))

    def action_replay(self) -> None:
        """Replay the game's finished hands (screens.replay)."""
        view, client = self.model.view, self.hearts.table
        if view is None or not view.hands or client is None:
            self._refuse(Msg("why.no_replay"))
            return
        session, model, t = client.session, self.model, self.t

        async def fetch(number: int) -> sm.HandReplay | None:
            try:
                reply = await session.request(cm.GetReplay(id=session.next_id(), hand=number))
            except RequestFailed as exc:
                model.refused(exc.code, exc.message)
                return None
            except (SessionClosed, TimeoutError):
                model.say(Msg("error.no_reply"), "error")
                return None
            return reply if isinstance(reply, sm.HandReplay) else None

        def name(seat: int) -> str:
            current = model.view
            if current is None or not 0 <= seat < len(current.seats):
                return str(seat)
            if seat == current.seat:
                return t("replay.you")
            return seat_name(t, current, current.seats[seat])

        async def review(number: int) -> sm.Analysis | Msg:
            # A review takes the server seconds (longer when its workers are
            # busy): a long wait, and a budget refusal told, not waited out.
            try:
                reply = await session.request_once(
                    cm.GetAnalysis(id=session.next_id(), hand=number), timeout=REVIEW_TIMEOUT
                )
            except RequestFailed as exc:
                return review_refusal(exc.code, exc.message, exc.reason, exc.retry_after)
            except (SessionClosed, TimeoutError):
                return Msg("error.no_reply")
            return reply if isinstance(reply, sm.Analysis) else Msg("error.no_reply")

        seated = view.seat is not None and not model.spectating()
        screen = ReplayScreen(t, fetch, len(view.hands), name, review if seated else None)
        self.app.push_screen(screen)

    async def _game_accuracy(self) -> sm.GameAccuracy | Msg:
        """Every seat's accuracy over the game just finished (for the
        game-over screen): the reply, or why there is none."""
        client = self.hearts.table
        if client is None:
            return Msg("error.no_reply")
        session = client.session
        try:
            reply = await session.request_once(
                cm.GetAccuracy(id=session.next_id()), timeout=REVIEW_TIMEOUT * 4
            )
        except RequestFailed as exc:
            return review_refusal(exc.code, exc.message, exc.reason, exc.retry_after)
        except (SessionClosed, TimeoutError):
            return Msg("error.no_reply")
        return reply if isinstance(reply, sm.GameAccuracy) else Msg("error.no_reply")

    def action_next_hand(self) -> None:
        """Ready for the next hand."""
        view = self.model.view
        if view is None or self._watching():
            return
        if view.status == "between_hands":
            self._send(lambda rid: cm.Ready(id=rid))

    def action_start(self) -> None:
        """Host: start the game."""
        view = self.model.view
        if view is None or view.status != "waiting" or self._watching():
            return
        if view.seat != view.host_seat:
            self._refuse(Msg("why.host_only"))
            return
        self._send(lambda rid: cm.StartGame(id=rid))

    def action_rematch(self) -> None:
        """Host: a new game at the same table."""
        view = self.model.view
        if view is None or self._watching():
            return
        if view.status == "game_over" and view.seat == view.host_seat:
            self._send(lambda rid: cm.Rematch(id=rid))

    def action_seat(self, index: int) -> None:
        """Host: the menu of the seat ``index`` seats on from yours in play
        order (at four seats: the left 1, across 2, right 3). Before the game: a bot of a level, open it, remove a player;
        at any time: let a removed player back."""
        view = self.model.view
        if view is None or self._watching():
            return
        if view.seat != view.host_seat:
            self._refuse(Msg("why.host_only"))
            return
        if index >= len(view.seats):
            return
        seat = (my_seat(view) + index) % len(view.seats)
        info: SeatInfo | None = None
        if view.status == "waiting":
            info = seated = view.seats[seat]
            where = self.t(place_key(view, seat))
            who = self.t("kind.open") if seated.kind == "open" else seat_name(self.t, view, seated)
            title = self.t("seatmenu.title", where=where, who=who)
        elif view.kicked:
            title = self.t("seatmenu.removed_title")  # only letting removed players back
        else:
            self._refuse(Msg("why.seats_before_start"))
            return
        menu = SeatMenu(self.t, title, info, view.kicked)

        def chosen(choice: SeatChoice | None) -> None:
            client = self.hearts.table
            if choice is not None and client is not None:
                self._clear_notice()
                self.run_worker(run_seat_choice(client, seat, choice), group="requests")

        self.app.push_screen(menu, chosen)

    def action_answer_knock(self, accept: bool) -> None:
        """Host: let the first player who knocks in (``y``) or not (``x``)."""
        view = self.model.view
        if view is None:
            return
        if view.seat is None or view.seat != view.host_seat:
            self._refuse(Msg("why.host_only"))
            return
        if not view.knocks:
            self._refuse(Msg("why.no_knock"))
            return
        knocker = view.knocks[0]
        client = self.hearts.table
        if client is None:
            return
        self._clear_notice()

        async def answer() -> None:
            sent = await client.send(
                lambda rid: cm.AnswerKnock(id=rid, player_id=knocker.player_id, accept=accept),
                exclusive=False,
            )
            if sent:
                key = "log.let_in" if accept else "log.turned_away"
                self.model.log.event(Msg(key, {"name": knocker.name}))
                self.model.changed()
                self.sync()

        self.run_worker(answer(), group="requests")

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
            body = "quit.body_play" if self.hearts.quick_game else "quit.body"
            if self.hearts.play_file is not None:
                body = "quit.body_play_saved"  # hearts play offers it back next time

        def answered(answer: QuitAnswer | None) -> None:
            if answer == "leave":
                self.run_worker(self.hearts.leave_and_exit(), group="quit")
            elif answer == "give_up":
                self._send(lambda rid: cm.LeaveSeat(id=rid))

        self.app.push_screen(
            ConfirmQuit(self.t, body, seated=seated, give_up=seated and not over), answered
        )

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
        self._send(lambda rid: cm.Chat(id=rid, text=text), exclusive=False)

    def _moon_chosen(self, choice: Literal["add", "subtract"] | None) -> None:
        self._moon = None
        if choice is not None:
            self._send(lambda rid: cm.MoonChoice(id=rid, choice=choice))

    def _game_over_answer(self, answer: Literal["rematch", "quit"] | None) -> None:
        self._over = None
        self._over_closed = answer is None
        if answer == "rematch":
            self.action_rematch()
        elif answer == "quit":
            self.run_worker(self.hearts.leave_and_exit(), group="quit")
