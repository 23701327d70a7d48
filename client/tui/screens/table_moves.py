"""The player's moves at the table: a card (its key, the cursor, a click),
the pass or discard, Enter for whatever the table waits for, a hint, an
undo, a claim, the replay, the next hand; the host's start, rematch, seat
menus and answers to knocks.

Each action checks the model and either explains a refusal in the notice
line or sends a request through the ``TableClient``.
"""

from __future__ import annotations

from collections.abc import Callable

from protocol import client_messages as cm
from protocol.view import SeatInfo, SeatView

from ..advice import ask_hint, hint_refusal
from ..claims import claim_refusal
from ..explain import pass_refusal, play_refusal
from ..i18n import Msg
from ..model import seat_label
from ..seats import my_seat, place_key
from ..table_client import TableClient
from ..takeback import undo_refusal
from ..widgets.hand import KEYS
from ..widgets.seat_panel import seat_name
from .seat_menu import SeatChoice, SeatMenu, run_seat_choice
from .table_base import TableBase
from .table_requests import replay_screen


class TableMoves(TableBase):
    """The actions that play or run the table (bound to keys by
    ``TableScreen``)."""

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
            refusal = self._pick(card, view)
        else:
            refusal = self._play(card, view)
        if refusal is not None:
            model.say(refusal, "error")
        self.sync()

    def _pick(self, card: str, view: SeatView) -> Msg | None:
        """Pick (or put back) a card to pass or discard; why not, if not."""
        count = view.discard_count if self.model.discarding() else view.rules.pass_count
        return self.model.toggle_pick(card, count)

    def _play(self, card: str, view: SeatView) -> Msg | None:
        """Play a card (sent); why not, if it may not be played now."""
        turn = seat_label(view, view.turn) if view.turn is not None else ""
        refusal = play_refusal(view, card, self.t.term(turn))
        if refusal is None:
            self.send_request(lambda rid: cm.PlayCard(id=rid, card=card))
        return refusal

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
            self.send_request(lambda rid: cm.DiscardWidow(id=rid, cards=picked))
            return
        refusal = pass_refusal(view, len(model.selected))
        if refusal is not None:
            self._refuse(refusal)
            return
        cards = tuple(model.selected)
        self._clear_notice()
        self.send_request(lambda rid: cm.PassCards(id=rid, cards=cards))

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
        self._ask_unless(undo_refusal(self.model), lambda rid: cm.Undo(id=rid))

    def action_claim(self) -> None:
        """Claim every trick left (client.tui.claims)."""
        self._ask_unless(claim_refusal(self.model), lambda rid: cm.Claim(id=rid))

    def _ask_unless(self, refusal: Msg | None, build: Callable[[str], cm.Request]) -> None:
        """Say ``refusal`` if there is one; else clear the notice and send
        the request ``build`` makes."""
        if refusal is not None:
            self._refuse(refusal)
            return
        self._clear_notice()
        self.send_request(build)

    def action_replay(self) -> None:
        """Replay the game's finished hands (screens.replay)."""
        view, client = self.model.view, self.hearts.table
        if view is None or not view.hands or client is None:
            self._refuse(Msg("why.no_replay"))
            return
        self.app.push_screen(replay_screen(client.session, self.model, self.t, len(view.hands)))

    def action_next_hand(self) -> None:
        """Ready for the next hand."""
        view = self.model.view
        if view is None or self._watching():
            return
        if view.status == "between_hands":
            self.send_request(lambda rid: cm.Ready(id=rid))

    def action_start(self) -> None:
        """Host: start the game."""
        view = self.model.view
        if view is None or view.status != "waiting" or self._watching():
            return
        if view.seat != view.host_seat:
            self._refuse(Msg("why.host_only"))
            return
        self.send_request(lambda rid: cm.StartGame(id=rid))

    def action_rematch(self) -> None:
        """Host: a new game at the same table."""
        view = self.model.view
        if view is None or self._watching():
            return
        if view.status == "game_over" and view.seat == view.host_seat:
            self.send_request(lambda rid: cm.Rematch(id=rid))

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
