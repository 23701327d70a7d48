"""Safe retries (docs/protocol.md): for every request type, the reply is
lost with the connection (the client drops right after it was sent), the
client reconnects (and resumes its seat) and sends the request again with
the same id: it is answered as the first time and never applied twice.

One table's life carries the requests in turn: a lobby with knocks, seats
and bots, a game of two hands, its records and a rematch. ``discard`` and
``moon_choice`` (a widow taken, a moon shot: moments a deal decides) go
through the same per-seat memory as every table action: they are checked
on the table's own request path, with a reconnected connection."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine.cards import card_text, cards_of
from engine.errors import ClientError
from engine.hand import Phase
from engine.record import replay
from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer
from server.table_requests import apply_request
from server.table_state import Seat, TableState
from server.table_watchers import TableWatchers
from tests.bots.support import table_of

from .harness import TWO_HANDS, WireClient, play_until


@dataclass
class Retrier:
    """A player whose replies are lost: each ``retried`` request is sent,
    its reply dropped with the connection, and sent again with its id over
    a new connection (after a ``resume`` when the player holds a seat)."""

    url: str
    client: WireClient

    async def retried(self, request: cm.Request, resume: bool = True) -> tuple[Any, Any]:
        """The first reply (which the client "lost") and the retry's."""
        first = await self.client.request(request)
        old = self.client
        await old.drop()
        new = await WireClient.open(
            self.url,
            old.name,
            hello=not isinstance(request, cm.Hello),
            player_token=old.player_token or None,
        )
        new.table_id, new.seat_token, new.code = old.table_id, old.seat_token, old.code
        if resume and old.seat_token and old.table_id:
            back = await new.request(
                cm.Resume(
                    id=new.next_id(),
                    table_id=old.table_id,
                    seat_token=old.seat_token,
                    last_seq=old.seq,
                )
            )
            if isinstance(back, sm.Seated):
                new.seat = back.seat
                await new.wait_for(lambda m: isinstance(m, sm.Snapshot))
        self.client = new
        again = await new.request(request)
        if isinstance(again, sm.Seated):
            new.table_id, new.code, new.seat = again.table_id, again.code, again.seat
            if again.seat_token:
                new.seat_token = again.seat_token
        return first, again


def same_answer(first: Any, again: Any) -> None:
    """The retry is answered as the first time: the same kind of reply
    (an ``ok`` with a ``seq`` at least the first's, the table having moved
    on at most by the drop and the return)."""
    assert type(again) is type(first), (first, again)
    if isinstance(first, sm.Ok):
        assert (first.seq is None) == (again.seq is None)
        if first.seq is not None:
            assert again.seq >= first.seq
    if isinstance(first, sm.Error):
        assert (again.code, again.reason) == (first.code, first.reason)


def count(client: WireClient, kind: type, **fields: Any) -> int:
    """How many messages of ``kind`` with ``fields`` the client received."""
    return sum(
        1
        for m in client.messages
        if isinstance(m, kind) and all(getattr(m, k) == v for k, v in fields.items())
    )


async def test_every_request_retried_after_a_lost_reply_is_applied_once(
    server: RunningServer,
) -> None:
    url = server.url
    # -- hello, ping, get_stats: answered again, the same ------------------
    raw = await WireClient.open(url, "Ann", hello=False)
    ann = Retrier(url, raw)
    hello = cm.Hello(id=raw.next_id(), version=1, name="Ann", player_token="t" * 32)
    first, again = await ann.retried(hello)
    assert isinstance(again, sm.Welcome) and again.player_id == first.player_id
    ann.client.player_token = again.player_token
    for request in (cm.Ping(id=raw.next_id()), cm.GetStats(id=raw.next_id())):
        same_answer(*await ann.retried(request))

    # -- create_table: the same table, the same seat ---------------------------
    create = cm.CreateTable(
        id=raw.next_id(), public=True, approval=True, rules=TWO_HANDS, name="Retries"
    )
    first, again = await ann.retried(create)
    assert isinstance(again, sm.Seated)
    assert (again.table_id, again.seat) == (first.table_id, 0)
    assert list(server.lobby.actors) == [first.table_id], "a second table was made"
    listing = cm.ListTables(id=raw.next_id())
    first_list, again_list = await ann.retried(listing)
    assert isinstance(again_list, sm.Tables) and again_list == first_list
    assert [t.table_id for t in again_list.tables] == [first.table_id]

    table = again
    invite = table.join_path.split("#k=")[1]

    # -- a spectator watches (with the invite link: the host approves who sits)
    sam = Retrier(url, await WireClient.open(url, "Sam"))
    watch = cm.Watch(id=sam.client.next_id(), code=table.code, invite=invite)
    first, again = await sam.retried(watch)
    assert isinstance(again, sm.Seated) and again.seat is None

    # -- knock, answer_knock, join_table (an approval table) ------------------
    bea = Retrier(url, await WireClient.open(url, "Bea"))
    refused = await bea.client.error(cm.JoinTable(id=bea.client.next_id(), code=table.code))
    assert refused.code == "knock_required"
    same_answer(*await bea.retried(cm.Knock(id=bea.client.next_id(), code=table.code)))
    knocks = await ann.client.snapshot_where(lambda v: bool(v.knocks))
    assert len(knocks.knocks) == 1
    player = knocks.knocks[0].player_id
    answer = cm.AnswerKnock(id=ann.client.next_id(), player_id=player, accept=True)
    same_answer(*await ann.retried(answer))
    assert not ann.client.view.knocks
    join = cm.JoinTable(id=bea.client.next_id(), code=table.code)
    first, retry = await bea.retried(join)
    assert isinstance(retry, sm.Seated) and (retry.table_id, retry.seat) == (
        first.table_id,
        first.seat,
    )
    view = await ann.client.snapshot_where(lambda v: v.seats[1].kind == "human")
    assert [s.name for s in view.seats].count("Bea") == 1

    # -- take_seat, chat, add_bot, remove_bot -----------------------------------
    same_answer(*await bea.retried(cm.TakeSeat(id=bea.client.next_id(), seat=2)))
    view = await ann.client.snapshot_where(lambda v: v.seats[2].name == "Bea")
    assert view.seats[1].kind == "open"
    same_answer(*await bea.retried(cm.Chat(id=bea.client.next_id(), text="hi")))
    await sam.client.wait_for(lambda m: isinstance(m, sm.ChatMessage))
    same_answer(*await ann.retried(cm.AddBot(id=ann.client.next_id(), seat=1, level="easy")))
    same_answer(*await ann.retried(cm.RemoveBot(id=ann.client.next_id(), seat=1)))
    view = await ann.client.snapshot_where(lambda v: v.seats[1].kind == "open")

    # -- kick, allow_back, then leave_seat ----------------------------------
    same_answer(*await ann.retried(cm.Kick(id=ann.client.next_id(), seat=2)))
    view = await ann.client.snapshot_where(lambda v: len(v.kicked) == 1)
    kicked = view.kicked[0].player_id
    same_answer(*await ann.retried(cm.AllowBack(id=ann.client.next_id(), player_id=kicked)))
    await ann.client.snapshot_where(lambda v: not v.kicked)
    bea.client = await WireClient.open(url, "Bea", player_token=bea.client.player_token)
    await bea.client.join(table.code, seat=3)
    first, retry = await bea.retried(cm.LeaveSeat(id=bea.client.next_id()))
    # The seat token ended with the seat: the repeat comes from nowhere and
    # changes nothing (no second seat is given up).
    assert isinstance(first, sm.Ok) and isinstance(retry, sm.Error)
    assert retry.code == "not_allowed"
    view = await ann.client.snapshot_where(lambda v: v.seats[3].kind == "open")
    assert sum(s.kind == "human" for s in view.seats) == 1

    # -- start_game, pass_cards, hint, play_card, undo, claim --------------------
    same_answer(*await ann.retried(cm.StartGame(id=ann.client.next_id())))
    await sam.client.snapshot_where(lambda v: v.phase == "pass")
    assert count(sam.client, sm.GameStarted) == 1
    view = await ann.client.snapshot_where(lambda v: v.phase == "pass" and bool(v.legal))
    hint = cm.Hint(id=ann.client.next_id())
    first, retry = await ann.retried(hint)
    assert isinstance(first, sm.Advice) and retry == first.model_copy(update={"id": hint.id})
    passing = cm.PassCards(id=ann.client.next_id(), cards=tuple(sorted(view.hand)[:3]))
    same_answer(*await ann.retried(passing))
    assert count(sam.client, sm.PassLocked, seat=0) == 1

    async def my_turn(played: int) -> Any:
        await play_until(
            ann.client,
            random.Random(1),
            lambda v: v.status != "playing" or (v.turn == 0 and v.phase == "play"),
        )
        return await ann.client.snapshot_where(
            lambda v: v.turn == 0 and v.phase == "play" and len(v.hand) == 13 - played
        )

    view = await my_turn(0)
    card = sorted(view.legal)[0]
    same_answer(*await ann.retried(cm.PlayCard(id=ann.client.next_id(), card=card)))
    await sam.client.wait_for(lambda m: isinstance(m, sm.CardPlayed) and m.seat == 0)
    assert count(sam.client, sm.CardPlayed, seat=0, card=card) == 1
    await my_turn(1)
    same_answer(*await ann.retried(cm.Undo(id=ann.client.next_id())))
    await sam.client.wait_for(lambda m: isinstance(m, sm.PlaysUndone))
    await sam.client.snapshot_where(lambda v: v.seats[0].connected and v.seq >= ann.client.seq)
    assert count(sam.client, sm.PlaysUndone) == 1
    await my_turn(0)
    first, retry = await ann.retried(cm.Claim(id=ann.client.next_id()))
    # Refused (too early to prove): a refusal is not remembered, the repeat
    # is checked again and refused the same way.
    assert isinstance(first, sm.Error)
    same_answer(first, retry)

    # -- ready, then the game to its end: get_replay, get_records, rematch ----
    await play_until(ann.client, random.Random(2), lambda v: v.status == "between_hands")
    same_answer(*await ann.retried(cm.Ready(id=ann.client.next_id())))
    await play_until(ann.client, random.Random(3))
    replay = cm.GetReplay(id=ann.client.next_id(), hand=1)
    first, retry = await ann.retried(replay)
    assert isinstance(first, sm.HandReplay) and retry == first
    records = cm.GetRecords(id=ann.client.next_id())
    first, retry = await ann.retried(records)
    assert isinstance(first, sm.Records) and retry == first
    same_answer(*await ann.retried(cm.Rematch(id=ann.client.next_id())))
    await sam.client.snapshot_where(lambda v: v.status == "playing" and v.hand_number == 1)
    assert count(sam.client, sm.GameStarted) == 2  # one for the game, one for the rematch

    # -- resume and leave --------------------------------------------------------
    resume = cm.Resume(
        id=ann.client.next_id(), table_id=ann.client.table_id, seat_token=ann.client.seat_token
    )
    first, retry = await ann.retried(resume, resume=False)
    assert isinstance(retry, sm.Seated) and retry.seat == first.seat == 0
    same_answer(*await ann.retried(cm.Leave(id=ann.client.next_id())))
    for c in (ann.client, bea.client, sam.client):
        await c.close()


class _Conn:
    """A connection as the table sees one (server.jobs.Watcher); the
    requests below are applied on the table's request path directly."""

    def __init__(self, name: str, player_id: str) -> None:
        self.name = name
        self.player_id = player_id
        self.program = False

    def send(self, message: object) -> None:
        """Replies are not looked at here."""

    def send_frame(self, frame: bytes) -> None:
        """Nor frames."""

    def send_frames(self, frames: object) -> None:
        """Nor fan-outs."""

    def attached(self, table: object, seat: int | None) -> None:
        """Nothing to remember."""

    def removed(self, table: object) -> None:
        """Nothing to forget."""

    def close(self, code: int = 1012, reason: str = "") -> None:
        """Never closed here."""


def _golden(name: str, line: int) -> tuple[TableState, int]:
    """A table whose hand is the partial hand record on ``line`` of
    tests/data/``name``, its seat to move a person's; that seat."""
    text = (Path(__file__).resolve().parents[1] / "data" / name).read_text().splitlines()
    hand = replay(json.loads(text[line - 1]))
    table = table_of(hand)
    seat = hand.widow_seat if hand.phase is Phase.WIDOW else hand.shooter
    assert seat is not None
    table.seats[seat] = Seat(kind="human", name="Ann", player_id="ann", connected=True)
    return table, seat


@pytest.mark.parametrize(
    ("name", "line", "phase"),
    [("golden_variants.jsonl", 7, Phase.WIDOW), ("golden_records.jsonl", 3, Phase.MOON_CHOICE)],
)
def test_discard_and_moon_choice_are_remembered_per_seat(
    name: str, line: int, phase: Phase
) -> None:
    """A widow discard and a moon choice, applied, then sent again with the
    same id from a new connection to the same seat (a reconnect): answered
    without events, the hand as the first left it."""
    table, seat = _golden(name, line)
    game = table.game
    assert game is not None and game.hand is not None and game.hand.phase is phase
    watchers = TableWatchers(None)  # type: ignore[arg-type]
    first = _Conn("Ann", "ann")
    watchers.attach(first, seat)
    request: cm.Request
    if phase is Phase.WIDOW:
        # As many cards as the widow had (the view's ``discard_count``).
        count = len(game.hand.dealt_stock)  # type: ignore[attr-defined]
        legal = cards_of(game.hand.hands[seat])
        request = cm.DiscardWidow(id="d-1", cards=tuple(card_text(c) for c in legal[:count]))
    else:
        request = cm.MoonChoice(id="m-1", choice="subtract")
    events, _ = apply_request(table, watchers, first, request)
    assert events
    after = table.to_bytes()
    watchers.detach(first)
    back = _Conn("Ann", "ann")
    watchers.attach(back, seat)
    again, _ = apply_request(table, watchers, back, request)
    assert again == [] and table.to_bytes() == after
    # Another id is another request: refused by the rules, nothing applied.
    with pytest.raises(ClientError):
        apply_request(table, watchers, back, request.model_copy(update={"id": "x-2"}))
