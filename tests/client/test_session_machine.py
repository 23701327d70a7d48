"""``SessionMachine`` without a server, a socket or a clock: every move of
the transition table, events in and effects out, time passed in."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

import pytest
from pydantic import BaseModel

from client import session_states as sx
from client.saved_session import SavedSession
from client.session_machine import SessionMachine, SessionSettings
from client.session_states import Phase
from protocol import client_messages as cm
from protocol import server_messages as sm

A, B = "ws://a.example/ws", "ws://b.example/ws"
E = TypeVar("E")
TOKEN = "pt" * 8  # player tokens are at least 16 characters
SEAT, OTHER_SEAT = "st" * 8, "ns" * 8


class Driver:
    """A machine and every effect it returned, with the time kept here."""

    def __init__(
        self, saved: SavedSession | None = None, resume_saved: bool = True, **settings: Any
    ) -> None:
        self.machine = SessionMachine(
            SessionSettings(f"{A},{B}", "Sam", **settings),
            saved or SavedSession(),
            id_prefix="t",
            rng=random.Random(7),
            resume_saved=resume_saved,
        )
        self.now = 100.0
        self.log: list[sx.Effect] = []

    def feed(self, event: sx.Event) -> list[sx.Effect]:
        """Feed ``event`` at the current time; the effects it gave."""
        before = self.machine.phase
        stale = getattr(event, "conn", self.conn) != self.conn  # dropped before the table
        effects = self.machine.handle(event, self.now)
        seen = MOVES_SEEN.get()
        if seen is not None and not stale:
            seen.add((before, type(event), self.machine.phase))
        self.log.extend(effects)
        return effects

    @property
    def conn(self) -> int:
        """The current connection's number."""
        return self.machine.conn

    def receive(self, message: BaseModel) -> list[sx.Effect]:
        """``message`` arrives on the current connection."""
        return self.feed(sx.MessageIn(self.conn, message))

    def open(self) -> sm.Welcome:
        """Start, the socket opens, the hello is welcomed."""
        self.feed(sx.Start())
        return self.welcome()

    def welcome(self) -> sm.Welcome:
        """The socket being opened opens and the hello is answered."""
        self.feed(sx.SocketOpened(self.conn))
        return self.welcome_reply()

    def welcome_reply(self) -> sm.Welcome:
        """The hello just sent is answered."""
        hello = sent(self.log)[-1]
        assert isinstance(hello, cm.Hello)
        welcome = sm.Welcome(
            id=hello.id, version=1, player_id="p1", player_token=TOKEN, server="hearts"
        )
        self.receive(welcome)
        return welcome

    def sit(self) -> None:
        """Join table t1 and be seated there, in this session."""
        join = cm.JoinTable(id=self.machine.next_id(), code="ABCDEF")
        self.feed(sx.RequestMade(join, 30.0))
        seated = sm.Seated(
            id=join.id, table_id="t1", code="ABCDEF", seat=1, seat_token=SEAT, join_path="/t"
        )
        self.receive(seated)

    def fire(self, wake: sx.Wake) -> list[sx.Effect]:
        """The time of ``wake`` comes: its event goes in."""
        self.now = max(self.now, wake.at)
        return self.feed(wake.event)


# While set: every (phase, event, phase) the drivers go through.
MOVES_SEEN: ContextVar[set[tuple[Phase, type[Any], Phase]] | None] = ContextVar(
    "MOVES_SEEN", default=None
)
# Events every phase takes without moving (a request is recorded until there
# is a connection): not each of them in each phase on purpose.
ANYWHERE = (sx.RequestMade, sx.SendDue, sx.RequestAbandoned, sx.ForgetTable)


def of(effects: Sequence[sx.Effect], kind: type[E]) -> list[E]:
    """The effects of one kind."""
    return [e for e in effects if isinstance(e, kind)]


def sent(effects: Sequence[sx.Effect]) -> list[BaseModel]:
    """What was sent, in order."""
    return [e.message for e in of(effects, sx.Send)]


def seated_saved() -> SavedSession:
    """A session file holding a seat."""
    return SavedSession(
        server=A, name="Sam", player_token=TOKEN, table_id="t1", code="ABCDEF", seat=2,
        seat_token=SEAT, last_seq=41,
    )  # fmt: skip


def seated_then_back(d: Driver) -> BaseModel:
    """Seated in this session, dropped and welcomed again: the resume sent."""
    d.open()
    d.sit()
    d.feed(sx.ConnectionLost(d.conn))
    d.welcome()
    resume = sent(d.log)[-1]
    assert isinstance(resume, cm.Resume)
    return resume


def ping(driver: Driver) -> cm.Ping:
    """A ping with the machine's next id."""
    return cm.Ping(id=driver.machine.next_id())


def test_connecting_sends_hello_then_requests_go_as_made() -> None:
    d = Driver()
    effects = d.feed(sx.Start())
    assert effects == [sx.OpenSocket(1, A)] and d.machine.phase is Phase.CONNECTING
    early = ping(d)
    assert sent(d.feed(sx.RequestMade(early, 30.0))) == []  # no connection yet: it waits
    d.welcome()
    assert d.machine.phase is Phase.READY and d.machine.connected
    assert of(d.log, sx.Opened) == [sx.Opened()]
    assert sent(d.log)[-1] == early  # sent once welcomed
    assert d.machine.player_id == "p1" and d.machine.saved.player_token == TOKEN
    (persisted,) = of(d.log, sx.Persist)
    assert persisted.saved.player_token == TOKEN and persisted.saved.server == f"{A},{B}"
    later = ping(d)
    assert sent(d.feed(sx.RequestMade(later, 30.0))) == [later]
    reply = sm.Ok(id=later.id)
    assert d.receive(reply) == [sx.Resolve(str(later.id), reply)]


def test_the_first_connect_tries_each_server_once_then_fails() -> None:
    d = Driver()
    d.feed(sx.Start())
    assert d.feed(sx.SocketFailed(1)) == [sx.OpenSocket(2, B)]
    effects = d.feed(sx.SocketFailed(2))
    assert sx.ConnectFailed(None) in effects and sx.Ended() in effects
    assert d.machine.phase is Phase.CLOSED


def test_a_drop_during_the_first_handshake_tries_the_next_server() -> None:
    d = Driver()
    d.feed(sx.Start())
    d.feed(sx.SocketOpened(1))
    assert d.machine.phase is Phase.GREETING
    assert d.feed(sx.ConnectionLost(1)) == [sx.OpenSocket(2, B)]
    d.welcome()
    assert d.machine.phase is Phase.READY and d.machine.url == B


def test_a_refused_first_hello_fails_connect_with_the_refusal() -> None:
    d = Driver()
    d.feed(sx.Start())
    d.feed(sx.SocketOpened(1))
    refusal = sm.Error(code="bad_version", message="too old")
    effects = d.receive(refusal)
    assert effects[0] == sx.CloseSocket(1, "hello refused")
    assert sx.ConnectFailed(refusal) in effects and d.machine.phase is Phase.CLOSED


def test_messages_before_the_welcome_are_not_taken_for_it() -> None:
    d = Driver()
    d.feed(sx.Start())
    d.feed(sx.SocketOpened(1))
    assert d.receive(sm.GameStarted(seq=3)) == []
    assert d.machine.phase is Phase.GREETING


def test_a_saved_seat_is_resumed_and_the_file_kept_until_taken_back() -> None:
    d = Driver(seated_saved())
    d.open()
    assert d.machine.resume_pending and d.machine.phase is Phase.REJOINING
    assert of(d.log, sx.Persist) == []  # the file stays as it was
    resume = sent(d.log)[-1]
    assert isinstance(resume, cm.Resume)
    assert (resume.table_id, resume.seat_token, resume.last_seq) == ("t1", SEAT, 41)
    waiting = ping(d)
    assert sent(d.feed(sx.RequestMade(waiting, 30.0))) == []  # held while rejoining
    replayed = sm.GameStarted(seq=42)  # what we missed, replayed before the answer
    assert d.receive(replayed) == [sx.Deliver(replayed)] and d.machine.saved.last_seq == 42
    seated = sm.Seated(id=resume.id, table_id="t1", code="ABCDEF", seat=2, join_path="/t/X")
    effects = d.receive(seated)
    assert sx.ResumeSettled(None) in effects
    assert of(effects, sx.Persist) and sent(effects) == [waiting]
    assert d.machine.phase is Phase.READY and d.machine.join_path == "/t/X"


def test_a_resume_refused_for_good_settles_connect_and_keeps_the_file() -> None:
    d = Driver(seated_saved())
    d.open()
    resume = sent(d.log)[-1]
    refusal = sm.Error(id=resume.id, code="no_such_table", message="no such table")
    effects = d.receive(refusal)
    assert effects == [sx.ResumeSettled(refusal)]  # no Persist: the file is untouched
    assert d.machine.phase is Phase.READY and d.machine.saved.table_id is None


def test_an_expired_seat_token_forgets_the_seat_held_in_this_session_and_tells_why() -> None:
    d = Driver()
    resume = seated_then_back(d)
    refusal = sm.Error(id=resume.id, code="bad_token", message="void")
    effects = d.receive(refusal)
    assert sx.Deliver(refusal) in effects
    (persisted,) = of(effects, sx.Persist)
    assert persisted.saved.table_id is None and persisted.saved.seat_token is None


def test_a_newer_release_refusing_a_saved_seat_on_connect_is_final() -> None:
    d = Driver(seated_saved())
    d.open()
    resume = sent(d.log)[-1]
    refusal = sm.Error(id=resume.id, code="table_too_new", message="newer release")
    assert d.receive(refusal) == [sx.ResumeSettled(refusal)]


def test_passing_trouble_on_a_rejoin_reconnects_and_rejoins_after_a_back_off() -> None:
    d = Driver()
    resume = seated_then_back(d)
    # The table is changing hands (held by another process for a moment),
    # or, as here, a newer release stored it while we already sat there.
    busy = sm.Error(id=resume.id, code="table_too_new", message="elsewhere")
    old = d.conn
    effects = d.receive(busy)
    assert effects == [sx.CloseSocket(old, "rejoining"), sx.OpenSocket(old + 2, A)]
    assert d.machine.phase is Phase.CONNECTING and d.machine.rejoin_failures == 1
    d.feed(sx.ConnectionLost(old))  # the old socket closing: stale, ignored
    assert d.machine.phase is Phase.CONNECTING
    count = len(sent(d.log))
    d.welcome()
    (wake,) = of(d.log[-3:], sx.Wake)
    assert wake.event == sx.RejoinDue(d.conn) and wake.at > d.now
    assert len(sent(d.log)) == count + 1  # the hello only: the rejoin waits
    again = sent(d.fire(wake))
    assert len(again) == 1 and isinstance(again[0], cm.Resume)
    d.receive(sm.Seated(id=again[0].id, table_id="t1", code="ABCDEF", seat=1, join_path="/t"))
    assert d.machine.phase is Phase.READY and d.machine.rejoin_failures == 0


def test_a_request_in_flight_is_sent_again_with_its_id_after_a_reconnect() -> None:
    d = Driver()
    d.open()
    request = cm.Ping(id=d.machine.next_id())
    assert sent(d.feed(sx.RequestMade(request, 30.0))) == [request]
    assert d.feed(sx.ConnectionLost(d.conn)) == [sx.OpenSocket(d.conn, A)]
    assert not d.machine.connected
    d.feed(sx.SocketOpened(d.conn))
    hello = sent(d.log)[-1]
    effects = d.receive(
        sm.Welcome(id=hello.id, version=1, player_id="p1", player_token=TOKEN, server="s")
    )
    assert sx.Reopened() in effects and sent(effects) == [request]
    reply = sm.Ok(id=request.id)
    assert d.receive(reply) == [sx.Resolve(str(request.id), reply)]


def test_an_unanswered_rejoin_counts_as_refused_on_the_next_connection() -> None:
    d = Driver(seated_saved())
    d.open()
    d.feed(sx.ConnectionLost(d.conn))
    assert d.machine.rejoin is None and d.machine.rejoin_failures == 1
    d.welcome()
    assert of(d.log[-3:], sx.Wake)  # the next rejoin waits a back-off


def test_reconnect_backs_off_rotates_servers_and_gives_up() -> None:
    d = Driver(give_up_after=1.0, max_backoff=0.4)
    d.open()
    d.feed(sx.ConnectionLost(d.conn))
    waits: list[float] = []
    urls: list[str] = []
    while d.machine.phase is not Phase.CLOSED:
        effects = d.feed(sx.SocketFailed(d.conn))
        if d.machine.phase is Phase.CLOSED:
            assert sx.Ended() in effects
            break
        (wake,) = of(effects, sx.Wake)
        assert wake.event == sx.RetryDue() and d.machine.phase is Phase.BACKING_OFF
        waits.append(wake.at - d.now)
        (opening,) = of(d.fire(wake), sx.OpenSocket)
        urls.append(opening.url)
    assert urls[:2] == [B, A]  # round the servers
    assert all(0 <= w <= 0.4 for w in waits) and sum(waits) > 1.0


def test_a_refused_hello_on_reconnect_waits_and_tries_again() -> None:
    d = Driver()
    d.open()
    d.feed(sx.ConnectionLost(d.conn))
    d.feed(sx.SocketOpened(d.conn))
    effects = d.receive(sm.Error(code="rate_limited", message="slow down"))
    assert of(effects, sx.CloseSocket) and of(effects, sx.Wake)
    assert d.machine.phase is Phase.BACKING_OFF
    d.feed(sx.ConnectionLost(d.conn - 1))  # the refused socket closing: stale
    assert d.machine.phase is Phase.BACKING_OFF


def test_a_hello_refusing_the_seat_for_good_forgets_it_and_connects_again() -> None:
    d = Driver(seated_saved())
    d.open()
    d.receive(
        sm.Seated(id=sent(d.log)[-1].id, table_id="t1", code="ABCDEF", seat=2, join_path="/t")
    )
    d.feed(sx.ConnectionLost(d.conn))
    d.feed(sx.SocketOpened(d.conn))
    effects = d.receive(sm.Error(code="bad_token", message="void"))
    assert of(effects, sx.OpenSocket) and d.machine.phase is Phase.CONNECTING
    assert d.machine.saved.table_id is None


def test_without_reconnect_a_drop_ends_the_session_and_fails_requests() -> None:
    d = Driver(reconnect=False)
    d.open()
    request = ping(d)
    d.feed(sx.RequestMade(request, 30.0))
    effects = d.feed(sx.ConnectionLost(d.conn))
    assert sx.Abort(str(request.id)) in effects and sx.Ended() in effects
    assert d.machine.phase is Phase.CLOSED


def test_a_server_moved_the_next_attempt_goes_to_the_next_server() -> None:
    """The server we were on closed us ("the table moved; resume", as a
    process stopping hands its tables over) and is gone: the first attempt
    on it fails and the next one goes to the other server, where the seat
    is resumed."""
    d = Driver()
    d.open()
    d.sit()
    d.feed(sx.ConnectionLost(d.conn))
    (wake,) = of(d.feed(sx.SocketFailed(d.conn)), sx.Wake)
    assert of(d.fire(wake), sx.OpenSocket) == [sx.OpenSocket(d.conn, B)]
    d.welcome()
    resume = sent(d.log)[-1]
    assert isinstance(resume, cm.Resume) and resume.table_id == "t1"


def test_a_rate_limited_request_goes_again_in_its_turn_with_the_same_id() -> None:
    d = Driver()
    d.open()
    first, second = ping(d), ping(d)
    d.feed(sx.RequestMade(first, 30.0))
    effects = d.receive(sm.Error(id=first.id, code="rate_limited", message="m", retry_after=0.05))
    (wake,) = of(effects, sx.Wake)
    assert wake.event == sx.SendDue(str(first.id)) and wake.at == pytest.approx(d.now + 0.05)
    # Pacing: the next request waits for the slot after it.
    (later,) = of(d.feed(sx.RequestMade(second, 30.0)), sx.Wake)
    assert later.at == pytest.approx(wake.at + 0.05)
    assert sent(d.fire(wake)) == [first]
    assert sent(d.fire(later)) == [second]


def test_a_long_retry_after_holds_only_its_request_or_is_refused_at_once() -> None:
    d = Driver()
    d.open()
    lookup, once = cm.JoinTable(id=d.machine.next_id(), code="QQQQQQ"), ping(d)
    d.feed(sx.RequestMade(lookup, 30.0))
    effects = d.receive(sm.Error(id=lookup.id, code="rate_limited", message="m", retry_after=1.0))
    assert of(effects, sx.Wake)[0].at == pytest.approx(d.now + 1.0)
    other = ping(d)
    assert sent(d.feed(sx.RequestMade(other, 30.0))) == [other]  # not held
    d.feed(sx.RequestMade(once, 30.0, once=True))
    refusal = sm.Error(id=once.id, code="rate_limited", message="m", retry_after=1.0)
    assert d.receive(refusal) == [sx.Refused(str(once.id), refusal, 1.0)]


def test_a_rate_limit_beyond_the_callers_patience_is_refused_with_no_wait_told() -> None:
    d = Driver()
    d.open()
    request = ping(d)
    d.feed(sx.RequestMade(request, 0.5))
    refusal = sm.Error(id=request.id, code="rate_limited", message="m", retry_after=1.0)
    assert d.receive(refusal) == [sx.Refused(str(request.id), refusal, None)]


def test_a_paced_send_due_while_away_goes_with_the_others_once_back() -> None:
    d = Driver()
    d.open()
    request = ping(d)
    d.feed(sx.RequestMade(request, 30.0))
    (wake,) = of(
        d.receive(sm.Error(id=request.id, code="rate_limited", message="m", retry_after=0.05)),
        sx.Wake,
    )
    d.feed(sx.ConnectionLost(d.conn))
    assert sent(d.fire(wake)) == []  # no connection: it waits
    d.feed(sx.SocketOpened(d.conn))
    hello = sent(d.log)[-1]
    effects = d.receive(
        sm.Welcome(id=hello.id, version=1, player_id="p", player_token=TOKEN, server="s")
    )
    assert sent(effects) == [request]


def test_refusals_and_seats_settle_their_requests() -> None:
    d = Driver()
    d.open()
    bad = ping(d)
    d.feed(sx.RequestMade(bad, 30.0))
    full = sm.Error(id=bad.id, code="server_full", message="full", retry_after=5.0, reason="tables")
    assert d.receive(full) == [sx.Refused(str(bad.id), full, 5.0)]
    watch = cm.Watch(id=d.machine.next_id(), code="ABCDEF")
    d.feed(sx.RequestMade(watch, 30.0))
    d.receive(
        sm.Seated(id=watch.id, table_id="t9", code="ABCDEF", seat=None, join_path="/t/ABCDEF")
    )
    assert d.machine.saved.watching and d.machine.saved.seat_token is None
    d.feed(sx.ConnectionLost(d.conn))
    d.welcome()
    assert isinstance(sent(d.log)[-1], cm.Watch)  # a spectator watches again


def test_an_abandoned_request_is_not_sent_again_and_its_late_reply_is_dropped() -> None:
    d = Driver()
    d.open()
    request = ping(d)
    d.feed(sx.RequestMade(request, 30.0))
    d.feed(sx.RequestAbandoned(str(request.id)))
    assert d.receive(sm.Ok(id=request.id)) == []
    late = sm.Error(id=request.id, code="bad_request", message="late")
    assert d.receive(late) == [sx.Deliver(late)]


def test_events_carry_the_last_seq_and_the_last_view_and_are_delivered() -> None:
    d = Driver()
    d.open()
    event = sm.GameStarted(seq=7)
    assert d.receive(event) == [sx.Deliver(event)]
    assert d.machine.saved.last_seq == 7
    d.receive(sm.GameStarted(seq=5))
    assert d.machine.saved.last_seq == 7


def test_a_kick_forgets_the_seat_and_knock_answers_go_to_the_adapter() -> None:
    d = Driver(seated_saved())
    d.open()
    d.receive(
        sm.Seated(id=sent(d.log)[-1].id, table_id="t1", code="ABCDEF", seat=2, join_path="/t")
    )
    kicked = sm.Kicked(table_id="t1", message="bye")
    effects = d.receive(kicked)
    assert effects[-1] == sx.Deliver(kicked) and d.machine.saved.table_id is None
    answer = sm.KnockAnswered(table_id="t2", code="ZZZZZZ", accepted=True, message="in")
    assert d.receive(answer) == [sx.KnockHeard(answer)]


def test_joining_elsewhere_leaves_the_saved_seat_in_the_file_until_granted() -> None:
    d = Driver(seated_saved(), resume_saved=False)
    d.open()
    assert d.machine.phase is Phase.READY and not d.machine.resume_pending
    assert of(d.log, sx.Persist) == []
    watch = cm.Watch(id=d.machine.next_id(), code="ZZZZZZ")
    d.feed(sx.RequestMade(watch, 30.0))
    d.receive(sm.Seated(id=watch.id, table_id="t2", code="ZZZZZZ", seat=None, join_path="/t"))
    assert of(d.log, sx.Persist) == []  # watching is no seat
    join = cm.JoinTable(id=d.machine.next_id(), code="ZZZZZZ")
    d.feed(sx.RequestMade(join, 30.0))
    d.receive(
        sm.Seated(
            id=join.id, table_id="t2", code="ZZZZZZ", seat=0, seat_token=OTHER_SEAT, join_path="/t"
        )
    )
    (persisted,) = of(d.log, sx.Persist)
    assert persisted.saved.seat_token == OTHER_SEAT


def test_forget_table_writes_the_file_without_the_seat() -> None:
    d = Driver(seated_saved())
    (persisted,) = of(d.feed(sx.ForgetTable()), sx.Persist)
    assert persisted.saved.table_id is None and persisted.saved.player_token == TOKEN


def test_closing_aborts_requests_ends_and_closes_a_socket_that_opens_late() -> None:
    d = Driver()
    d.feed(sx.Start())
    request = ping(d)
    d.feed(sx.RequestMade(request, 30.0))
    effects = d.feed(sx.Close())
    assert sx.Abort(str(request.id)) in effects and effects[-1] == sx.Ended()
    assert d.machine.phase is Phase.CLOSED
    assert d.feed(sx.SocketOpened(1)) == [sx.CloseSocket(1, "replaced")]
    assert d.feed(sx.RetryDue()) == []  # a timer that fired anyway
    late = ping(d)
    assert d.feed(sx.RequestMade(late, 30.0)) == [sx.Abort(str(late.id))]
    assert d.feed(sx.Close()) == []


def test_closing_while_backing_off_ends_the_session() -> None:
    d = Driver()
    d.open()
    d.feed(sx.ConnectionLost(d.conn))
    d.feed(sx.SocketFailed(d.conn))
    assert d.machine.phase is Phase.BACKING_OFF
    assert d.feed(sx.Close())[-1] == sx.Ended()


def test_an_event_the_phase_does_not_expect_is_an_error() -> None:
    d = Driver()
    with pytest.raises(sx.SessionMachineError):
        d.feed(sx.RetryDue())
    d.open()
    with pytest.raises(sx.SessionMachineError):
        d.feed(sx.Start())


def test_the_saved_session_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    seated_saved().save(path)
    assert SavedSession.load(path) == seated_saved()
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_every_move_of_the_table_is_driven_by_these_tests() -> None:
    """Runs every other scenario of this module again, noting each
    (phase, event, phase) they go through: each move the table allows is
    among them, and none they make is outside it."""
    scenarios: list[Callable[[], None]] = [
        test
        for name, test in globals().items()
        if name.startswith("test_")
        and callable(test)
        and test.__code__.co_argcount == 0
        and test
        not in (
            test_every_move_of_the_table_is_driven_by_these_tests,
            test_docs_show_the_transition_table,
        )
    ]
    seen: set[tuple[Phase, type[Any], Phase]] = set()
    token = MOVES_SEEN.set(seen)
    try:
        for scenario in scenarios:
            scenario()
    finally:
        MOVES_SEEN.reset(token)
    table = {
        (phase, event, target)
        for phase, moves in sx.TRANSITIONS.items()
        for event, targets in moves.items()
        for target in targets
    }
    assert seen <= table
    missing = {(p.value, e.__name__, t.value) for p, e, t in table - seen if e not in ANYWHERE}
    assert not missing, sorted(missing)


def test_docs_show_the_transition_table() -> None:
    """docs/architecture.md lists exactly the table's moves."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "architecture.md").read_text()
    for phase, moves in sx.TRANSITIONS.items():
        for event, targets in moves.items():
            if event in ANYWHERE:
                continue
            row = f"| {phase.value} | `{event.__name__}` | {', '.join(sorted(t.value for t in targets))} |"
            assert row in doc, row


def phase_reached(phase: Phase) -> Driver:
    """A driver brought to ``phase`` the ordinary way."""
    d = Driver(seated_saved())
    if phase is Phase.IDLE:
        return d
    d.feed(sx.Start())
    if phase is Phase.CONNECTING:
        return d
    d.feed(sx.SocketOpened(d.conn))
    if phase is Phase.GREETING:
        return d
    d.welcome_reply()
    if phase is Phase.REJOINING:
        return d
    resume = sent(d.log)[-1]
    d.receive(sm.Seated(id=resume.id, table_id="t1", code="ABCDEF", seat=2, join_path="/t"))
    if phase is Phase.READY:
        return d
    d.feed(sx.ConnectionLost(d.conn))
    d.feed(sx.SocketFailed(d.conn))
    return d


@pytest.mark.parametrize("phase", [p for p in Phase if p is not Phase.CLOSED])
def test_closing_from_any_phase_ends_the_session(phase: Phase) -> None:
    d = phase_reached(phase)
    assert d.machine.phase is phase
    effects = d.feed(sx.Close())
    assert effects[-1] == sx.Ended() and d.machine.phase is Phase.CLOSED
    assert not d.machine.connected


def test_closing_from_every_phase() -> None:
    """The parametrized test above as one scenario (for the table check)."""
    for phase in Phase:
        if phase is not Phase.CLOSED:
            test_closing_from_any_phase_ends_the_session(phase)


def test_a_drop_during_a_later_handshake_backs_off_then_gives_up() -> None:
    d = Driver(give_up_after=0.0)
    d.open()
    d.feed(sx.ConnectionLost(d.conn))
    d.feed(sx.SocketOpened(d.conn))
    (wake,) = of(d.feed(sx.ConnectionLost(d.conn)), sx.Wake)
    assert d.machine.phase is Phase.BACKING_OFF and d.machine.url == B
    d.fire(wake)
    d.feed(sx.SocketOpened(d.conn))
    assert sx.Ended() in d.feed(sx.ConnectionLost(d.conn))  # waited past give_up_after


def test_a_drop_during_the_first_handshake_on_the_last_server_fails_connect() -> None:
    d = Driver()
    d.feed(sx.Start())
    d.feed(sx.SocketFailed(d.conn))
    d.feed(sx.SocketOpened(d.conn))
    assert sx.ConnectFailed(None) in d.feed(sx.ConnectionLost(d.conn))


def test_without_reconnect_a_drop_while_rejoining_ends_the_session() -> None:
    d = Driver(seated_saved(), reconnect=False)
    d.open()
    assert d.machine.phase is Phase.REJOINING
    assert d.feed(sx.ConnectionLost(d.conn))[-1] == sx.Ended()
