"""What the table screen shows: the last snapshot plus what the events add
between snapshots (the card just played, the trick lingering with its
winner), the pass selection, the connection state, a notice line and a log.

Pure state: no Textual and no I/O, so the rules of display are tested
without a terminal. ``TableModel.apply`` takes every message the session
delivers and hands it to the handler filed under its class
(``message_table``: a table mypy checks, never a name looked up); the
screen's widgets redraw from the model after each change.

A host whose table approves who sits is told of each player who knocks
(the log and a pop-up, once per knock); the snapshot's ``knocks`` are the
ones still waiting for an answer.

An away seat's countdown to a bot (``cover_in``) is given as of each
snapshot; the model notes when the snapshot came (``clock``) and counts down
from there, so the screen shows it live between snapshots.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from client.session import Reconnected
from protocol import server_messages as sm
from protocol.common import RulesModel
from protocol.view import PlayedCard, SeatView

from .cards import KEYS, QUEEN_OF_SPADES, label, sorted_hand
from .i18n import Msg, Series, Term, has_sentence
from .message_table import Handler, handler_for
from .moon import STANDARD_VALUE, table_moon_value
from .seats import my_seat, place_key
from .table_log import TableLog

ConnectionState = Literal["connecting", "online", "reconnecting", "lost"]
SidePanel = Literal["tricks", "scores"]
SEAT_LOST = frozenset({"no_such_table", "bad_token"})


@dataclass(frozen=True)
class Notice:
    """The one-line message under the hand: a refusal, an error, a hint."""

    msg: Msg
    level: Literal["info", "error"] = "info"


def seat_label(view: SeatView, seat: int) -> str | Term:
    """How sentences call a seat: "you" for yours, otherwise the seat's one
    name (the same on every screen; the server names bots); an open seat,
    which has none, by where it is."""
    if view.seat is not None and seat == view.seat:
        return Term("you")
    info = view.seats[seat]
    return info.name or Term(place_key(view, seat))


def hand_letters(view: SeatView) -> dict[str, str]:
    """Each card of our hand and its letter, from the snapshot alone.

    The letters run left to right over the hand as it stood when cards last
    arrived (the deal, the passed cards, the widow, a draw): the cards held
    now, with the ones passed away while the pass is still open, the widow
    cards put face down and the cards we have played since. Playing a card
    only takes its letter away, and a new app (a restart, a reconnect) works
    out the same letters as the one that was closed.
    """
    if view.seat is None:
        return {}
    mine = [p.card for trick in view.tricks for p in trick.cards if p.seat == view.seat]
    mine += [p.card for p in view.trick if p.seat == view.seat]
    gone = list(view.discarded)
    if view.phase == "pass":
        gone += view.passed
    # A hand that took many cards (a long run of draws from the domino
    # stock) keeps its newest plays when the letters would run out: the
    # count kept only changes when cards arrive, so the letters still stay.
    room = max(0, len(KEYS) - len(view.hand) - len(gone))
    mine = mine[max(0, len(mine) - room) :] if room else []
    held = sorted_hand({*view.hand, *gone, *mine})
    letters = dict(zip(held, KEYS, strict=False))
    return {card: letters[card] for card in view.hand if card in letters}


def refusal_msg(
    code: str, message: str, reason: str | None = None, retry_after: float | None = None
) -> Msg:
    """What to say of a refusal: the sentence of its ``reason`` when we have
    one (a ``not_now``'s case, a refused table's budget or cap), else the
    code's; ``{n}`` is the whole seconds of ``retry_after``."""
    key = f"error.{code}.{reason}" if reason else ""
    wait = max(1, math.ceil(retry_after)) if retry_after is not None else 0
    return Msg(key if has_sentence(key) else "error." + code, {"message": message, "n": wait})


@dataclass
class TableModel:
    """Everything the table screen draws."""

    view: SeatView | None = None
    trick: tuple[PlayedCard, ...] = ()
    trick_winner: int | None = None
    trick_points: int = 0
    # Cancellation Hearts: the trick on the table was carried (no winner).
    trick_carried: bool = False
    holding: bool = False
    selected: list[str] = field(default_factory=list)
    cursor: int = 0  # a position in ``hand()``
    # Each card's letter (``hand_letters``): worked out from the snapshot
    # alone, so a letter never moves to another card during the play, nor
    # after a reconnect or a restart of the app.
    keys: dict[str, str] = field(default_factory=dict)
    connection: ConnectionState = "connecting"
    notice: Notice | None = None
    log: TableLog = field(default_factory=TableLog)
    side: SidePanel = "tricks"
    join_url: str = ""
    server: str = ""  # the WebSocket URL we play through (for the join hint)
    busy: bool = False
    revision: int = 0
    # Sentences for a pop-up notification as well as the log (a bot covered
    # for us); the screen takes them (``take_notifications``).
    notifications: list[Msg] = field(default_factory=list)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)
    view_at: float = 0.0  # ``clock()`` when the last snapshot came
    knocks_seen: frozenset[str] = frozenset()  # knocking player ids already announced

    # -- derived ---------------------------------------------------------

    def spectating(self) -> bool:
        """We watch the table without a seat (``watch``, or after leaving
        our seat or being removed from it)."""
        return self.view is not None and self.view.seat is None

    @property
    def me(self) -> int:
        """Our seat (0 before the first snapshot or for a spectator)."""
        return my_seat(self.view) if self.view is not None else 0

    def hand(self) -> list[str]:
        """Our cards in display order."""
        return sorted_hand(self.view.hand) if self.view is not None else []

    def key_of(self, card: str) -> str:
        """The letter under ``card`` (" " for a card without one)."""
        return self.keys.get(card, " ")

    def card_for_key(self, key: str) -> str | None:
        """The card of ours under the letter ``key``, if one is still there."""
        for card, letter in self.keys.items():
            if letter == key and self.view is not None and card in self.view.hand:
                return card
        return None

    def card_at(self, index: int) -> str | None:
        """The card at position ``index`` of the hand as shown, if any."""
        cards = self.hand()
        return cards[index] if 0 <= index < len(cards) else None

    def passing(self) -> bool:
        """We are to choose cards to pass."""
        v = self.view
        return (
            v is not None
            and v.seat is not None  # a spectator passes nothing
            and v.status == "playing"
            and v.phase == "pass"
            and not v.passed
        )

    def discarding(self) -> bool:
        """Hearts with a widow: we took the widow and are to choose as many
        cards to put face down."""
        v = self.view
        return (
            v is not None
            and v.seat is not None
            and v.status == "playing"
            and v.phase == "widow"
            and v.widow_seat == v.seat
            and not v.discarded
        )

    def my_turn(self) -> bool:
        """We are to play a card."""
        v = self.view
        return (
            v is not None
            and v.status == "playing"
            and v.phase == "play"
            and v.seat is not None
            and v.turn == v.seat
        )

    def raised(self) -> frozenset[str]:
        """Cards drawn raised: the pass being chosen, or the one locked."""
        if self.view is not None and self.view.phase == "pass" and self.view.passed:
            return frozenset(self.view.passed)
        return frozenset(self.selected)

    def marked(self) -> frozenset[str]:
        """Cards passed to us, marked until the first trick ends."""
        v = self.view
        if v is None or not v.received_marked:
            return frozenset()
        return frozenset(v.received) & frozenset(v.hand)

    def playable(self) -> frozenset[str] | None:
        """The cards that stand out on our turn; None when every card is
        drawn plainly (not our turn, or passing)."""
        return frozenset(self.view.legal) if self.my_turn() and self.view else None

    def lingering(self) -> bool:
        """A finished trick (won, or carried) is still on the table."""
        return self.trick_winner is not None or self.trick_carried

    def cover_left(self, seat: int) -> int | None:
        """Whole seconds until a bot covers the away player at ``seat`` (the
        snapshot's ``cover_in`` less the time since it came); None when no
        countdown runs."""
        v = self.view
        if v is None or not 0 <= seat < len(v.seats):
            return None
        cover_in = v.seats[seat].cover_in
        if cover_in is None:
            return None
        return max(0, math.ceil(cover_in - (self.clock() - self.view_at)))

    def turn_left(self, seat: int) -> int | None:
        """Whole seconds ``seat`` has left for its move at a table with a
        turn timer (the snapshot's ``turn_in`` less the time since it came);
        None when no turn timer runs for it."""
        v = self.view
        if v is None or not 0 <= seat < len(v.seats):
            return None
        turn_in = v.seats[seat].turn_in
        if turn_in is None:
            return None
        return max(0, math.ceil(turn_in - (self.clock() - self.view_at)))

    def countdowns(self) -> tuple[int | None, ...]:
        """Every seat's countdowns now, to a bot covering and to the end of
        its move's time (the screen redraws when one changes)."""
        n = len(self.view.seats) if self.view is not None else 0
        return tuple(self.cover_left(seat) for seat in range(n)) + tuple(
            self.turn_left(seat) for seat in range(n)
        )

    def paused(self) -> bool:
        """The game waits for a player to come back (only a spectator sees
        it: a player's presence ends the pause)."""
        return self.view is not None and self.view.paused

    # -- changes -----------------------------------------------------------

    def changed(self) -> None:
        """Note a change (the screen compares revisions)."""
        self.revision += 1

    def say(self, msg: Msg, level: Literal["info", "error"] = "info") -> None:
        """Show a notice under the hand."""
        self.notice = Notice(msg, level)
        self.changed()

    def take_notifications(self) -> list[Msg]:
        """The sentences to pop up, once each."""
        taken, self.notifications = self.notifications, []
        return taken

    def reset(self) -> None:
        """Forget the table (the host removed us): the next table starts
        from nothing. The connection state and the clock stay."""
        fresh = TableModel(connection=self.connection, clock=self.clock)
        for f in dataclasses.fields(self):
            # The log is emptied, not replaced: views compare its revision.
            if f.name not in ("revision", "log"):
                setattr(self, f.name, getattr(fresh, f.name))
        self.log.clear()
        self.changed()

    def refused(self, code: str, message: str, reason: str | None = None) -> None:
        """The server refused a request: show its reason (for ``not_now``,
        the sentence of its ``reason`` when we have one)."""
        self.say(refusal_msg(code, message, reason), "error")

    def toggle_pick(self, card: str, count: int) -> Msg | None:
        """Pick a card to pass, or put a picked one back; a refusal when
        ``count`` cards are already picked."""
        if card in self.selected:
            self.selected.remove(card)
        elif len(self.selected) >= count:
            return Msg("why.pick_full", {"k": count})
        else:
            self.selected.append(card)
        self.changed()
        return None

    def move_cursor(self, step: int) -> None:
        """Move the keyboard cursor along the hand."""
        n = len(self.hand())
        self.cursor = (self.cursor + step) % n if n else 0
        self.changed()

    def set_connection(self, state: ConnectionState) -> None:
        """The connection changed state."""
        if state != self.connection:
            self.connection = state
            self.changed()

    def apply(self, msg: BaseModel) -> None:
        """Take one message from the session (snapshot, event, error)."""
        self.log.saw(getattr(msg, "seq", None))
        handler = self.handlers.get(type(msg))
        if handler is not None:
            handler(msg)
            self.changed()

    @functools.cached_property
    def handlers(self) -> Mapping[type[BaseModel], Handler]:
        """Each message class the model takes and its handler (checked by
        mypy entry by entry: ``handler_for``)."""
        return dict(
            [
                handler_for(sm.Snapshot, self._on_snapshot),
                handler_for(sm.CardPlayed, self._on_card_played),
                handler_for(sm.TrickWon, self._on_trick_won),
                handler_for(sm.TrickCarried, self._on_trick_carried),
                handler_for(sm.WidowTaken, self._on_widow_taken),
                handler_for(sm.WidowDiscarded, self._on_widow_discarded),
                handler_for(sm.CardsDrawn, self._on_cards_drawn),
                handler_for(sm.SeatOut, self._on_seat_out),
                handler_for(sm.RestTaken, self._on_rest_taken),
                handler_for(sm.LeftoverTaken, self._on_leftover_taken),
                handler_for(sm.PlaysUndone, self._on_plays_undone),
                handler_for(sm.ClaimMade, self._on_claim_made),
                handler_for(sm.HandDealt, self._on_hand_dealt),
                handler_for(sm.HeartsBroken, self._on_hearts_broken),
                handler_for(sm.GameStarted, self._on_game_started),
                handler_for(sm.HandScored, self._on_hand_scored),
                handler_for(sm.GameOver, self._on_game_over),
                handler_for(sm.ChatMessage, self._on_chat_message),
                handler_for(sm.ChatHistory, self._on_chat_history),
                handler_for(sm.SeatChanged, self._on_seat_changed),
                handler_for(sm.BotCovered, self._on_bot_covered),
                handler_for(sm.Notice, self._on_notice),
                handler_for(sm.Kicked, self._on_kicked),
                handler_for(sm.Error, self._on_error),
                handler_for(Reconnected, self._on_reconnected),
            ]
        )

    # -- messages ------------------------------------------------------------

    def _on_snapshot(self, msg: sm.Snapshot) -> None:
        view = msg.view
        asked_before = self._asked()
        self.view = view
        self.view_at = self.clock()
        self._announce_knocks(view)
        if self._asked() != asked_before:
            self.notice = None  # a new question: the old refusal is history
        if not self.holding:
            self.trick = view.trick
            self.trick_winner = None
            self.trick_carried = False
        choosing = view.phase == "pass" and not view.passed and view.status == "playing"
        if choosing or self.discarding():
            self.selected = [c for c in self.selected if c in view.hand]
        else:
            self.selected = []
        self.cursor = min(self.cursor, max(0, len(view.hand) - 1))
        self.keys = hand_letters(view)

    def _announce_knocks(self, view: SeatView) -> None:
        """A player newly knocking (host only): said once, in the log and a
        pop-up; one answered or gone is forgotten (a later knock is new)."""
        for knocker in view.knocks:
            if knocker.player_id not in self.knocks_seen:
                arrived = Msg("knock.arrived", {"name": knocker.name})
                self._log(arrived)
                self.notifications.append(arrived)
        self.knocks_seen = frozenset(k.player_id for k in view.knocks)

    def _asked(self) -> tuple[str, int, bool, bool]:
        """What the table asks of us now (a change clears the notice)."""
        v = self.view
        if v is None:
            return ("", 0, False, False)
        return (v.status, v.hand_number, self.my_turn(), self.passing())

    def release(self) -> None:
        """The finished trick leaves the table."""
        self.holding = False
        self.trick = self.view.trick if self.view is not None else ()
        self.trick_winner = None
        self.trick_carried = False
        self.changed()

    def _on_card_played(self, msg: sm.CardPlayed) -> None:
        if self.lingering():
            self.trick, self.trick_winner, self.holding = (), None, False
            self.trick_carried = False
        self.trick = (*self.trick, PlayedCard(seat=msg.seat, card=msg.card))

    def _finished_trick(self, leader: int, cards: tuple[str, ...], seats: tuple[int, ...]) -> None:
        """Keep a finished trick on the table past the next snapshot. Its
        seats in play order come with it where seats drop out (Domino
        Hearts); otherwise they go round from the leader."""
        n = len(cards)
        order = seats if len(seats) == n else tuple((leader + k) % n for k in range(n))
        self.trick = tuple(PlayedCard(seat=s, card=c) for s, c in zip(order, cards, strict=True))
        self.holding = True  # kept on the table past the next snapshot

    def _on_trick_won(self, msg: sm.TrickWon) -> None:
        self._finished_trick(msg.leader, msg.cards, msg.seats)
        self.trick_winner = msg.winner
        self.trick_carried = False
        self.trick_points = msg.points
        if QUEEN_OF_SPADES in msg.cards and self.view is not None:
            if msg.winner == self.view.seat:
                self._log(Msg("log.queen_you"))
            else:
                self._log(Msg("log.queen", {"name": seat_label(self.view, msg.winner)}))

    def _on_trick_carried(self, msg: sm.TrickCarried) -> None:
        # Cancellation Hearts: nobody wins it; it stays a moment like a won
        # trick, and the log says where its cards go.
        self._finished_trick(msg.leader, msg.cards, msg.seats)
        self.trick_winner = None
        self.trick_carried = True
        self._log(Msg("log.carried", {"n": msg.trick + 1}))

    def _said_of(self, seat: int, mine: Msg, theirs: str, params: dict[str, object]) -> None:
        """Log ``mine`` when ``seat`` is ours, else ``theirs`` naming the seat."""
        if self.view is None:
            return
        if seat == self.view.seat:
            self._log(mine)
        else:
            self._log(Msg(theirs, {"name": seat_label(self.view, seat), **params}))

    def _on_widow_taken(self, msg: sm.WidowTaken) -> None:
        cards = " ".join(label(c) for c in sorted_hand(msg.cards))
        self._said_of(
            msg.seat, Msg("log.widow_you", {"cards": cards}), "log.widow", {"n": msg.count}
        )

    def _on_widow_discarded(self, msg: sm.WidowDiscarded) -> None:
        cards = " ".join(label(c) for c in sorted_hand(msg.cards))
        mine = Msg("log.discarded_you", {"cards": cards})
        self._said_of(msg.seat, mine, "log.discarded", {"n": msg.count})

    def _on_cards_drawn(self, msg: sm.CardsDrawn) -> None:
        cards = " ".join(label(c) for c in msg.cards)  # in the order drawn
        mine = Msg("log.drew_you", {"cards": cards, "n": msg.count})
        self._said_of(msg.seat, mine, "log.drew", {"n": msg.count})

    def _on_seat_out(self, msg: sm.SeatOut) -> None:
        self._said_of(msg.seat, Msg("log.seat_out_you"), "log.seat_out", {})

    def _on_rest_taken(self, msg: sm.RestTaken) -> None:
        cards = " ".join(label(c) for c in sorted_hand(msg.cards))
        mine = Msg("log.rest_you", {"cards": cards, "n": msg.count})
        self._said_of(msg.seat, mine, "log.rest", {"n": msg.count})

    def _on_leftover_taken(self, msg: sm.LeftoverTaken) -> None:
        cards = " ".join(label(c) for c in sorted_hand(msg.cards))
        mine = Msg("log.leftover_you", {"cards": cards})
        self._said_of(msg.seat, mine, "log.leftover", {"cards": cards})

    def _on_plays_undone(self, msg: sm.PlaysUndone) -> None:
        # The cards went back to their hands: the snapshot that follows
        # draws the trick as it is again.
        self.trick, self.trick_winner, self.holding = (), None, False
        self.trick_carried = False
        cards = " ".join(label(c) for c in msg.cards)
        if self.view is not None and msg.seat == self.view.seat:
            self._log(Msg("log.undone_you", {"cards": cards}))
        elif self.view is not None:
            who = seat_label(self.view, msg.seat)
            self._log(Msg("log.undone", {"name": who, "cards": cards}))

    def _on_claim_made(self, msg: sm.ClaimMade) -> None:
        # Told in the log and as a pop-up: the hand ends at once after it.
        key = "claim.top" if msg.reason == "top_cards" else "claim.every"
        if self.view is not None and msg.seat == self.view.seat:
            said = Msg(key + "_you")
        else:
            name = seat_label(self.view, msg.seat) if self.view is not None else str(msg.seat)
            said = Msg(key, {"name": name})
        self._log(said)
        self.notifications.append(said)

    def _on_hand_dealt(self, msg: sm.HandDealt) -> None:
        self.trick, self.trick_winner, self.selected, self.holding = (), None, [], False
        self.trick_carried = False
        if msg.direction == "hold":
            self._log(Msg("log.hand_dealt_hold", {"n": msg.hand_number}))
        else:
            direction = Term("dir." + msg.direction)
            self._log(Msg("log.hand_dealt", {"n": msg.hand_number, "dir": direction}))

    def _on_hearts_broken(self, msg: sm.HeartsBroken) -> None:
        self._log(Msg("log.hearts_broken"))

    def _on_game_started(self, msg: sm.GameStarted) -> None:
        self._log(Msg("log.game_started"))

    def _on_hand_scored(self, msg: sm.HandScored) -> None:
        if msg.shooter is not None and self.view is not None:
            if msg.shooter == self.view.seat:
                self._log(Msg("log.moon_you"))
            else:
                self._log(Msg("log.moon", {"name": seat_label(self.view, msg.shooter)}))
        if self.spectating():
            self._log(Msg("log.hand_scored_watch", {"n": msg.hand_number}))
            return
        mine = msg.points[self.me] if self.me < len(msg.points) else 0
        self._log(Msg("log.hand_scored", {"n": msg.hand_number, "points": mine}))

    def _on_game_over(self, msg: sm.GameOver) -> None:
        if self.view is not None:
            name = seat_label(self.view, msg.winner)
            key = "log.game_over_you" if msg.winner == self.view.seat else "log.game_over"
            self._log(Msg(key, {"name": name}))

    def _on_chat_message(self, msg: sm.ChatMessage) -> None:
        self.log.chat(msg)

    def _on_chat_history(self, msg: sm.ChatHistory) -> None:
        self.log.merge(msg.lines)

    def _on_seat_changed(self, msg: sm.SeatChanged) -> None:
        view = self.view
        info = msg.seat
        if view is None:
            return
        if info.seat == view.seat:
            if msg.change == "kicked":
                self._log(Msg("log.kicked_you"))
                self.say(Msg("notice.kicked"), "error")
            elif msg.change == "left":
                self._log(Msg("log.left_you"))
            return
        # The event shows the seat as it is now (open, or a bot taking over):
        # the player's name is the one our last snapshot still shows.
        before = view.seats[info.seat] if info.seat < len(view.seats) else info
        name: str | Term = before.name if before.kind == "human" else info.name
        opens = info.kind == "open"  # before the game; during it a bot takes the seat
        key = {
            "joined": "log.joined",
            "left": "log.left_open" if opens else "log.left",
            "kicked": "log.kicked_open" if opens else "log.kicked",
            "away": "log.away",
            "connected": "log.back",
            "covering": "log.covering",
        }.get(msg.change)
        if key is not None:
            where = Term(place_key(view, info.seat))
            if key == "log.back" and self.log.withdraw_away(name or where):
                return  # dropped and back with us: a server restart, not their line
            self._log(Msg(key, {"name": name or where, "where": where}))

    def _on_bot_covered(self, msg: sm.BotCovered) -> None:
        summary = covered_summary(msg, self.view.rules if self.view is not None else None)
        if summary is not None:
            self._log(summary)
            self.notifications.append(summary)

    def _on_notice(self, msg: sm.Notice) -> None:
        # The server's operator speaks to everyone: in the log (it stays)
        # and as a pop-up.
        said = Msg("log.operator_notice", {"text": msg.text})
        self._log(said)
        self.notifications.append(said)

    def _on_kicked(self, msg: sm.Kicked) -> None:
        # The app then takes us back to where another table can be chosen.
        self._log(Msg("log.kicked_you"))
        self.say(Msg("notice.kicked"), "error")

    def _on_error(self, msg: sm.Error) -> None:
        # Unsolicited: a resume after a reconnect was refused (the table is
        # gone, or the seat is no longer ours). The session gives the seat up.
        self.refused(msg.code, msg.message, msg.reason)
        if msg.code in SEAT_LOST:
            self.connection = "lost"

    def _on_reconnected(self, msg: Reconnected) -> None:
        self.connection = "online"
        self._log(Msg("log.reconnected"))

    def _log(self, msg: Msg) -> None:
        self.log.event(msg)


def covered_summary(msg: sm.BotCovered, rules: RulesModel | None = None) -> Msg | None:
    """What a bot did in our name while we were away, as one sentence
    ("… it played 5 cards and passed Q♠ A♥ K♥"); only what it did."""
    parts: list[Msg] = []
    if msg.played:
        parts.append(Msg("covered.played", {"n": len(msg.played)}))
    if msg.passed:
        cards = " ".join(label(c) for c in sorted_hand(msg.passed))
        parts.append(Msg("covered.passed", {"cards": cards}))
    if msg.discarded:  # the widow's discard, named to us alone
        cards = " ".join(label(c) for c in sorted_hand(msg.discarded))
        parts.append(Msg("covered.discarded", {"cards": cards}))
    if msg.moon_choice is not None:
        value = table_moon_value(rules) if rules is not None else STANDARD_VALUE
        parts.append(Msg("covered.moon_" + msg.moon_choice, {"n": value}))
    if not parts:
        return None
    key = "covered.timed_out" if msg.timed_out else "covered.summary"
    return Msg(key, {"actions": Series(tuple(parts))})


def passed_summary(view: SeatView) -> Msg:
    """The prompt after passing: which cards went to whom."""
    cards = " ".join(label(c) for c in sorted_hand(view.passed))
    to = seat_label(view, view.passed_to) if view.passed_to is not None else ""
    return Msg("prompt.passed", {"cards": cards, "name": to})
