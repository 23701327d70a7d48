"""The table actor: one asyncio task owns one table (docs/architecture.md property 2).

Everything that changes a table arrives as a ``Job`` in the actor's inbox:
client requests, bot moves, connections attaching and dropping, timers. The
actor applies jobs one at a time, in order::

    job ─► intent (server.table_intents: check, then mutate, or raise)
        ─► commit (number the events, store state + events with compare-and-set)
        ─► reply to the requester (ok / seated / error)
        ─► fan out: each watcher gets its redacted events, then a snapshot
        ─► follow-ups: ask bots to move, arm timers

A refused intent changes nothing. If the store refuses the commit, the state
is rolled back to the last committed blob, so memory never runs ahead of what
is stored: acknowledged means durable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import astuple, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from engine.cards import QUEEN_SPADES
from engine.errors import ClientError
from engine.record import hand_record
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import encode, encode_snapshot

from . import table_intents as intents
from .bot_runner import BotMove, BotRunner
from .config import ServerConfig
from .errors import AuthError, NotAllowed
from .mailbox import Mailbox
from .redaction import PRIVATE_EVENTS, public_view, redact_event, seat_view, wire_views
from .remote import OwnerGone
from .store.base import StatsDelta, StoreConflict, StoreError, TableStore
from .table_state import TableState, json_bytes

if TYPE_CHECKING:
    from .lobby import Lobby
    from .metrics import Metrics

log = logging.getLogger("hearts.table")


def _encode_opt(message: BaseModel | None) -> bytes | None:
    return encode(message) if message is not None else None


Outcome = tuple[list[dict[str, Any]], BaseModel | None, list[Callable[[], None]]]
"""What a job produced: events to commit, the reply, actions after the commit."""


class Watcher(Protocol):
    """A connection attached to a table (player or spectator)."""

    name: str
    player_id: str

    def send(self, message: BaseModel) -> None:
        """Queue a message; never blocks."""

    def attached(self, actor: TableActor, seat: int | None) -> None:
        """The actor attached this connection at ``seat``."""

    def close(self) -> None:
        """Drop the client (it resumes, possibly with another process)."""

    def removed(self, actor: TableActor) -> None:
        """The actor removed this connection from the table (kicked): it is
        no longer attached anywhere and gets no more frames from it."""

    def send_frame(self, frame: bytes) -> None:
        """Queue an already encoded (and redacted) frame; never blocks."""


# Seconds before a job whose commit the store refused is tried again.
RETRY_AFTER_FAILED_COMMIT = 1.0

# Statuses in which a table needs an owner whether or not anyone is connected.
RUNNING_STATUSES = frozenset({"playing", "between_hands"})


@dataclass
class Job:
    """One thing for the actor to do."""

    kind: str
    conn: Watcher | None = None
    message: Any = None
    seat: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    done: asyncio.Future[None] | None = None


def _fail_moved(job: Job) -> None:
    """A job its stopped actor will never run: its caller gets ``OwnerGone``."""
    if job.done is not None and not job.done.done():
        job.done.set_exception(OwnerGone("the table moved to another server; resume"))
        # Marked as seen: a job posted over the bus has nobody awaiting it.
        job.done.exception()


class TableActor:
    """Owns one table: its state, its watchers, its bots and timers."""

    def __init__(
        self,
        state: TableState,
        version: int,
        store: TableStore,
        bots: BotRunner,
        config: ServerConfig,
        lobby: Lobby | None = None,
        owner: str | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.state = state
        self.version = version
        self.store = store
        self.bots = bots
        self.config = config
        self._blob = state.to_bytes()
        self._inbox: Mailbox[Job] = Mailbox()
        self._stopped = False
        self._watchers: dict[Watcher, int | None] = {}
        self._thinking: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._lobby = lobby
        # The process id under whose lease commits are fenced (scale-out);
        # None for a single process.
        self.owner = owner
        self.metrics = metrics
        self._task: asyncio.Task[None] | None = None
        # Who-is-attached-where changes of the job in hand, applied only once
        # its commit succeeded and before its fan-out (see ``_dispatch``).
        self._relink: list[Callable[[], None]] = []
        # Commit tokens: random per actor, numbered per commit (see _commit).
        self._token_prefix = secrets.token_hex(8) + ":"
        self._commits = 0
        # Connections knocking at the door, by player id (see _job_knock).
        self._knockers: dict[str, Watcher] = {}

    @property
    def table_id(self) -> str:
        """The table's id."""
        return self.state.table_id

    def start(self, loaded: bool = True) -> None:
        """Start the actor's task. A table ``loaded`` from the store resumes
        its duties: its humans count as dropped until they resume, and bots
        carry on where they were."""
        self._task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")
        if loaded:
            self.post(Job("resume_duties"))

    def halt(self) -> None:
        """Stop taking jobs at once: queued ones fail (their callers learn
        that the table moved and their clients resume wherever it goes
        next), timers and bot moves are cancelled, the task is told to stop.
        ``stop`` also waits for the task."""
        self._stopped = True
        while not self._inbox.empty():
            _fail_moved(self._inbox.get_nowait())
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
        if self._task:
            self._task.cancel()

    def done(self) -> bool:
        """Whether the actor's task has ended."""
        return self._task is None or self._task.done()

    def where(self) -> str:
        """Where the actor's task is waiting now (for the log)."""
        if self._task is None:
            return "nowhere"
        frames = self._task.get_stack()
        return " < ".join(f"{f.f_code.co_name}:{f.f_lineno}" for f in reversed(frames)) or "?"

    async def stop(self) -> None:
        """``halt``, then wait for the task to end (the state stays in the store)."""
        self.halt()
        if self._task and asyncio.current_task() is not self._task:  # from inside: just cancel
            await asyncio.gather(self._task, return_exceptions=True)

    def post(self, job: Job) -> None:
        """Queue a job (never blocks)."""
        if self._stopped:
            _fail_moved(job)
            return
        self._inbox.put_nowait(job)

    async def call(self, job: Job) -> None:
        """Queue a job and wait until it has been applied (or refused);
        ``OwnerGone`` if the actor has stopped (the table moved)."""
        job.done = asyncio.get_running_loop().create_future()
        self.post(job)
        await job.done

    # -- the loop --------------------------------------------------------

    async def _run(self) -> None:
        while True:
            job = await self._inbox.get()
            try:
                await self._process(job)
            except asyncio.CancelledError:
                # Stopped in the middle of this job (the table moved): its
                # caller must hear so, not a silent "done".
                _fail_moved(job)
                raise
            except Exception:  # a bug in one job must not kill the table
                log.exception("table %s: job %s failed", self.table_id, job.kind)
                self._rollback()
                self._reply_error(job, "internal_error", "something went wrong on our side")
            finally:
                if job.done is not None and not job.done.done():
                    job.done.set_result(None)
            # Not right after a load (resume_duties): the client that caused
            # it is on its way to attach.
            if self._lobby is not None and job.kind != "resume_duties" and self.idle():
                # A finished or abandoned table leaves memory (and gives its
                # lease back): it is loaded again if someone comes back.
                self._lobby.unload_soon(self)

    async def _process(self, job: Job) -> None:
        handler = getattr(self, f"_job_{job.kind}")
        self._relink = []
        try:
            outcome: Outcome = handler(job)
        except ClientError as exc:
            self._reply_error(job, exc.code, exc.message)
            return
        events, reply, after = outcome
        if self.metrics is not None:
            self.metrics.child(self.metrics.actions, job.kind).inc()
        if events:
            try:
                await self._commit(events)
            except StoreConflict as exc:
                log.warning("table %s: commit refused: %s", self.table_id, exc)
                self._rollback()
                self._reply_error(job, exc.code, "the table could not be saved; try again")
                if self._lobby is not None and self.owner is not None:
                    await self._lobby.commit_refused(self)
                else:
                    await self.resync()
                return
            except StoreError as exc:
                log.warning("table %s: commit failed: %s", self.table_id, exc)
                self._rollback()
                self._reply_error(job, exc.code, "the table could not be saved; try again")
                # What was not saved is tried again: a bot's move, a seat
                # whose connection dropped meanwhile (see ``_job_tick``).
                if "retry" not in self._timers:
                    self._arm("retry", RETRY_AFTER_FAILED_COMMIT, Job("tick"))
                return
        relink, self._relink = self._relink, []
        for change in relink:
            change()
        self._sync_grace()
        if reply is not None and job.conn is not None:
            job.conn.send(reply)
        # The public part of this moment's views, shared by the fan-out and
        # the bots' views: built at most once per job (only this task changes
        # the table, and nothing below does).
        public = self._fan_out(events) if events else None
        for action in after:
            action()
        if job.kind == "attach" and job.extra["mode"] == "resume" and job.conn is not None:
            await self._replay_to(job.conn, self._watchers.get(job.conn), job.message.last_seq)
        if events:
            await self._side_effects(events)
        self._duties(public)

    async def _commit(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            self.state.seq += 1
            e["seq"] = self.state.seq
        blob = self.state.to_bytes()
        bodies = [json_bytes(e) for e in events]
        # A game in progress must be run even with nobody connected (bots
        # play on, grace timers run out): the store indexes such tables so
        # a restart or a takeover finds them without reading every table.
        running = self.state.status in RUNNING_STATUSES
        # A finished hand's record and the players' statistics go in with the
        # commit that finishes the hand or game: atomic, and counted once.
        records = [
            record
            for e in events
            if e["type"] == "hand_scored" and (record := self._hand_record(e)) is not None
        ]
        stats = self._stats_of(events)
        # While the store is unreachable (a Redis restart), keep trying for a
        # while: players see a pause, not an error. A refusal (StoreConflict)
        # is final at once.
        delay, waited = 0.05, 0.0
        started = time.perf_counter()
        # One token for every attempt: an attempt that applied but whose
        # reply was lost is recognised by the next one, not taken for a
        # conflict with ourselves. Unique without a fresh secret per commit:
        # this actor's random prefix and a counter.
        self._commits += 1
        token = f"{self._token_prefix}{self._commits}"
        while True:
            try:
                self.version, _ = await self.store.commit(
                    self.table_id,
                    self.version,
                    blob,
                    bodies,
                    owner=self.owner,
                    running=running,
                    records=records,
                    stats=stats,
                    token=token,
                )
                break
            except StoreConflict:
                raise
            except StoreError:
                if waited >= self.config.store_patience:
                    raise
                await asyncio.sleep(delay)  # backoff while the store comes back
                waited += delay
                delay = min(delay * 2, 1.0)
        if self.metrics is not None:
            self.metrics.store_commit.observe(time.perf_counter() - started)
        self._blob = blob

    def _rollback(self) -> None:
        deadlines = self.state.cover_deadlines
        self.state = TableState.from_bytes(self._blob)
        self.state.cover_deadlines = deadlines  # runtime only; kept true by _sync_grace

    async def resync(self) -> None:
        """The stored table moved on without this actor knowing: take the
        stored state, show it to everyone attached and carry on (bots and
        timers included)."""
        await self._reload()
        for conn, seat in list(self._watchers.items()):
            self._snapshot_to(conn, seat)
        self._duties()

    async def _reload(self) -> None:
        stored = await self.store.load_table(self.table_id)
        if stored is not None:
            self.state = TableState.from_bytes(stored.state)
            self.version = stored.version
            self._blob = stored.state

    def _reply_error(self, job: Job, code: str, message: str) -> None:
        if self.metrics is not None:
            self.metrics.child(self.metrics.errors, code).inc()
        if job.conn is not None and job.message is not None:
            job.conn.send(sm.Error(id=job.message.id, code=code, message=message))

    def _ok(self, job: Job) -> sm.Ok | None:
        return sm.Ok(id=job.message.id) if job.message is not None else None

    # -- fan-out ---------------------------------------------------------

    def _fan_out(self, events: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Send each watcher its redacted events, then a snapshot. Each
        seat's frames are built and encoded once, however many connections
        show that seat; public events are encoded once for all. Returns the
        public part of the views it built (None if nobody watches)."""
        if not self._watchers:
            return None
        public = public_view(self.state)
        shared: list[bytes | None] = [
            None if e["type"] in PRIVATE_EVENTS else _encode_opt(redact_event(e, None))
            for e in events
        ]
        views = wire_views(self.state, set(self._watchers.values()), public)
        by_seat: dict[int | None, list[bytes]] = {}
        for conn, seat in list(self._watchers.items()):
            frames = by_seat.get(seat, [])
            if seat not in by_seat:
                for e, frame in zip(events, shared, strict=True):
                    if e["type"] in PRIVATE_EVENTS:
                        frame = _encode_opt(redact_event(e, seat))
                    if frame is not None:
                        frames.append(frame)
                frames.append(encode_snapshot(self.state.seq, views[seat]))
                by_seat[seat] = frames
            for frame in frames:
                conn.send_frame(frame)
        return public

    def _snapshot_to(self, conn: Watcher, seat: int | None) -> None:
        view = wire_views(self.state, {seat})[seat]
        conn.send_frame(encode_snapshot(self.state.seq, view))

    def _chat_history_to(self, conn: Watcher) -> None:
        # Chat is public at the table: every seat and spectator gets it all.
        lines = tuple(
            sm.ChatMessage(seq=seq, seat=seat, name=name, text=text)
            for seq, seat, name, text in self.state.chat
        )
        conn.send(sm.ChatHistory(lines=lines))

    async def _side_effects(self, events: list[dict[str, Any]]) -> None:
        """The lobby listing and the table's expiry, after the commit (best
        effort: hand records and statistics went in with the commit itself)."""
        if self._lobby is not None and any(
            e["type"] in ("seat_changed", "game_started") for e in events
        ):
            try:
                await self._lobby.refresh_listing(self)
            except StoreError as exc:
                log.warning("table %s: could not update the lobby: %s", self.table_id, exc)
        for e in events:
            try:
                if e["type"] == "hand_scored":
                    await self._hand_finished(e)
                elif e["type"] == "game_over":
                    await self._game_finished(e)
            except StoreError as exc:
                log.warning("table %s: could not set its expiry: %s", self.table_id, exc)

    def _hand_record(self, e: dict[str, Any]) -> bytes | None:
        """The record (JSON) of the hand a ``hand_scored`` event ends."""
        game = self.state.game
        hand = game.hand if game is not None else None
        if hand is None or hand.hand_number != e["hand_number"]:
            return None
        return json.dumps(hand_record(hand), separators=(",", ":")).encode()

    def _stats_of(self, events: list[dict[str, Any]]) -> dict[str, StatsDelta]:
        """What these events add to the human players' statistics."""
        totals: dict[str, StatsDelta] = {}

        def add(seat: int, delta: StatsDelta) -> None:
            player_id = self.state.seats[seat].player_id
            if self.state.seats[seat].kind != "human" or not player_id:
                return
            old = totals.get(player_id, StatsDelta())
            totals[player_id] = StatsDelta(
                *(a + b for a, b in zip(astuple(old), astuple(delta), strict=True))
            )

        game = self.state.game
        hand = game.hand if game is not None else None
        for e in events:
            if e["type"] == "hand_scored" and hand is not None:
                queen_taker = next(
                    (s for s, m in enumerate(hand.taken) if m >> QUEEN_SPADES & 1), None
                )
                for i in range(self.state.players):
                    add(
                        i,
                        StatsDelta(
                            hands=1,
                            points=e["points"][i],
                            moons=int(e["shooter"] == i),
                            queens=int(queen_taker == i),
                        ),
                    )
            elif e["type"] == "game_over":
                for i in range(self.state.players):
                    add(i, StatsDelta(games=1, wins=int(e["winner"] == i)))
        return totals

    async def _hand_finished(self, e: dict[str, Any]) -> None:
        await self.store.expire_table(self.table_id, self.config.table_ttl)

    async def _game_finished(self, e: dict[str, Any]) -> None:
        await self.store.expire_table(self.table_id, self.config.finished_ttl)

    # -- duties: bots and timers -------------------------------------------

    def _duties(self, public: dict[str, Any] | None = None) -> None:
        """Ask the bots whose turn it is, start timers. ``public`` is
        ``public_view`` of the table as it is now, if the caller has it."""
        state = self.state
        for seat in intents.seats_to_decide(state):
            if seat in self._thinking:
                continue
            self._thinking.add(seat)
            if public is None:
                public = public_view(state)
            view = seat_view(state, seat, public)
            level = state.seats[seat].decision_level
            seed = hash((state.seed, state.games_played, state.seq, seat)) & 0xFFFFFFFF
            task = asyncio.create_task(self._think(seat, view, level, seed))
            self._tasks.add(task)  # keep a reference until done (asyncio holds weak ones)
            task.add_done_callback(self._tasks.discard)
        if state.status == "between_hands" and intents.no_humans_seated(state):
            # Every human left for good: the bots finish the game.
            number = state.game.hand_number if state.game else 0
            self.post(Job("auto_deal", extra={"hand": number}))
        elif (
            state.status == "between_hands"
            and self.config.next_hand_delay is not None
            and "next_hand" not in self._timers
            and not state.is_paused()
        ):
            number = state.game.hand_number if state.game else 0
            self._arm(
                "next_hand", self.config.next_hand_delay, Job("auto_deal", extra={"hand": number})
            )

    def _sync_grace(self) -> None:
        """Keep one grace timer per away human whose countdown may run (only
        while another human is at the table), and their deadlines, which
        views show as ``cover_in``. Cancels the others: a table with no human
        present is paused, and a seat that came back needs no cover."""
        state = self.state
        now = time.monotonic()
        for i in range(state.players):
            key = f"grace{i}"
            if intents.grace_can_run(state, i):
                if key not in self._timers:
                    self._arm(key, self.config.grace_seconds, Job("grace", seat=i))
                    state.cover_deadlines[i] = now + self.config.grace_seconds
            else:
                self._disarm(key)
                state.cover_deadlines.pop(i, None)

    def _arm(self, key: str, delay: float, job: Job) -> None:
        def fire() -> None:
            self._timers.pop(key, None)
            self.post(job)

        self._timers[key] = asyncio.get_running_loop().call_later(delay, fire)

    def _disarm(self, key: str) -> None:
        handle = self._timers.pop(key, None)
        if handle:
            handle.cancel()

    async def _think(self, seat: int, view: Any, level: str, seed: int) -> None:
        decided = await self.bots.decide(view, level, seed, self.table_id)
        if self.metrics is not None:
            self.metrics.child(self.metrics.bot_think, level).observe(decided.computed)
            self.metrics.child(self.metrics.bot_queue_wait, level).observe(decided.waited)
        self.post(Job("bot_move", seat=seat, extra={"move": decided.move}))

    # -- jobs ----------------------------------------------------------------
    # Each returns (events, reply, after-commit actions) or raises ClientError.

    def _job_resume_duties(self, job: Job) -> Outcome:
        # After a restart: humans are not connected until they resume.
        # The table stays paused until one of them does (grace timers run
        # only while a human is here: _sync_grace).
        events: list[dict[str, Any]] = []
        for i, s in enumerate(self.state.seats):
            if s.kind == "human" and s.connected:
                events += intents.set_connected(self.state, i, False)
        return events, None, []

    def _job_tick(self, job: Job) -> Outcome:
        """Put right what a refused commit left behind: a seat marked
        connected whose connections are gone (or the other way round) is
        corrected, and ``_process`` then runs the duties (a bot whose move
        was not saved decides again)."""
        attached = {seat for seat in self._watchers.values() if seat is not None}
        events: list[dict[str, Any]] = []
        for i, s in enumerate(self.state.seats):
            if s.kind == "human" and s.connected != (i in attached):
                events += intents.set_connected(self.state, i, i in attached)
        return events, None, []

    def _job_bot_move(self, job: Job) -> Outcome:
        seat = job.seat
        assert seat is not None  # set by _think, never by a client
        self._thinking.discard(seat)
        move: BotMove = job.extra["move"]
        if seat not in intents.seats_to_decide(self.state):
            return [], None, []  # stale: the human came back or the phase moved on
        try:
            if move.kind == "pass":
                events = intents.pass_cards(self.state, seat, move.cards)
                intents.bot_acted(self.state, seat, "pass", move.cards)
            elif move.kind == "moon":
                events = intents.choose_moon(self.state, seat, move.choice)
                intents.bot_acted(self.state, seat, "moon", move.choice)
            else:
                events = intents.play_card(self.state, seat, move.card)
                intents.bot_acted(self.state, seat, "play", move.card)
        except ClientError as exc:
            log.warning("table %s: bot move refused (%s); recomputing", self.table_id, exc)
            return [], None, []
        return events, None, []

    def _job_grace(self, job: Job) -> Outcome:
        assert job.seat is not None  # armed by the actor itself
        return intents.start_covering(self.state, job.seat), None, []

    def _job_auto_deal(self, job: Job) -> Outcome:
        game = self.state.game
        if (
            self.state.status != "between_hands"
            or not game
            or game.hand_number != job.extra["hand"]
        ):
            return [], None, []
        return intents.deal(self.state), None, []

    def _job_attach(self, job: Job) -> Outcome:
        """A connection joins: as a new player (with a token), by resuming
        with a seat token, or as a spectator."""
        conn = job.conn
        assert conn is not None  # the lobby always passes the connection
        msg = job.message
        mode = job.extra["mode"]
        events: list[dict[str, Any]] = []
        token = ""
        seat: int | None
        if mode == "join":
            intents.admit(self.state, conn.player_id, msg.invite)
            seat, token, events = intents.sit(self.state, conn.name, conn.player_id, msg.seat)
        elif mode == "host":
            seat, token = 0, job.extra["token"]
        elif mode == "watch":
            intents.admit(self.state, conn.player_id, msg.invite)
            seat = None
        elif mode == "resume":
            seat = self.state.seat_of_token(msg.seat_token)
            if seat is None:
                raise AuthError("that seat token does not belong to this table")
            events = intents.set_connected(self.state, seat, True)
        else:
            raise ValueError(f"unknown attach mode {mode!r}")
        reply = sm.Seated(
            id=msg.id,
            table_id=self.table_id,
            code=self.state.code,
            seat=seat,
            seat_token=token,
            join_path=self._join_path(seat),
        )

        def attach() -> None:
            self._watchers.pop(conn, None)
            self._watchers[conn] = seat
            conn.attached(self, seat)
            if mode != "resume":  # a resume gets its missed events, then a snapshot
                self._chat_history_to(conn)
                self._snapshot_to(conn, seat)

        return events, reply, [attach]

    def _join_path(self, seat: int | None) -> str:
        """The link a player shares: with the invite secret for players
        (whoever has it sits at once), the bare code for spectators."""
        path = f"/t/{self.state.code}"
        if seat is not None and self.state.invite:
            path += f"#k={self.state.invite_link()}"
        return path

    def _job_knock(self, job: Job) -> Outcome:
        """A player with the code asks the host to let them in (the knock is
        stored and the host's view shows it). One already let in is told so
        at once."""
        conn = job.conn
        assert conn is not None  # knocks come from a connection
        events = intents.knock(self.state, conn.player_id, conn.name)
        self._knockers[conn.player_id] = conn
        after: list[Callable[[], None]] = []
        if conn.player_id in self.state.admitted:
            after.append(lambda: self._tell_knocker(conn.player_id, True))
        return events, self._ok(job), after

    def _tell_knocker(self, player_id: str, accept: bool) -> None:
        """The host's answer, to the knocking connection if it is still here
        (one that left finds out when it joins: let in, or told to knock)."""
        knocker = self._knockers.pop(player_id, None)
        if knocker is not None:
            knocker.send(
                sm.KnockAnswered(
                    table_id=self.table_id,
                    code=self.state.code,
                    accepted=accept,
                    message="the host let you in: join now"
                    if accept
                    else "the host did not let you in",
                )
            )

    async def _replay_to(self, conn: Watcher, seat: int | None, after: int) -> None:
        """Send the events a resuming seat missed, the recent chat (a client
        that restarted kept none), then a snapshot."""
        stored = await self.store.events_since(self.table_id, after)
        for item in stored or []:
            msg = redact_event(json.loads(item.body), seat)
            if msg is not None:
                conn.send(msg)
        self._chat_history_to(conn)
        self._snapshot_to(conn, seat)

    def _job_detach(self, job: Job) -> Outcome:
        conn = job.conn
        if conn is None or conn not in self._watchers:
            return [], None, []
        seat = self._watchers.pop(conn)
        if seat is None or seat in self._watchers.values():
            return [], None, []  # another connection still holds the seat
        # A grace countdown starts (_sync_grace) if another human is here;
        # alone, the table pauses.
        return intents.set_connected(self.state, seat, False), None, []

    def _job_request(self, job: Job) -> Outcome:
        conn, msg = job.conn, job.message
        assert conn is not None  # requests always come from a connection
        seat = self._watchers.get(conn)
        if conn not in self._watchers:
            raise NotAllowed("you are not at this table")
        state = self.state
        if seat is not None and isinstance(msg.id, (int, str)):
            key = f"{type(msg).__name__}:{msg.id}"
            recent = state.seats[seat].recent
            if key in recent:
                return [], self._ok(job), []  # a repeat (after a reconnect): not applied twice
        events, relink = self._dispatch(msg, seat, conn)
        if seat is not None and events and state.seats[seat].kind == "human":
            recent = state.seats[seat].recent
            recent.append(f"{type(msg).__name__}:{msg.id}")
            del recent[:-32]
        self._relink = relink
        return events, self._ok(job), []

    def _dispatch(
        self, msg: Any, seat: int | None, conn: Watcher
    ) -> tuple[list[dict[str, Any]], list[Callable[[], None]]]:
        """The events of one table request, and what changes for the
        connections once they are committed. Who is attached where changes
        only after the commit: were it changed first, a refused commit would
        roll the table back but leave a connection on a seat it does not
        hold, and it would be sent that seat's cards."""
        s = self.state
        match msg:
            case cm.PassCards():
                return intents.pass_cards(s, seat, msg.cards), []
            case cm.PlayCard():
                return intents.play_card(s, seat, msg.card), []
            case cm.MoonChoice():
                return intents.choose_moon(s, seat, msg.choice), []
            case cm.Ready():
                return intents.ready(s, seat), []
            case cm.StartGame():
                return intents.start_game(s, seat), []
            case cm.Rematch():
                return intents.rematch(s, seat), []
            case cm.TakeSeat():
                events = intents.move_seat(s, seat, msg.seat)
                return events, [lambda: self._reattach(conn, msg.seat)]
            case cm.LeaveSeat():
                events = intents.leave_seat(s, seat)
                return events, [lambda: self._reattach(conn, None)]
            case cm.AddBot():
                return intents.add_bot(s, seat, msg.seat, msg.level), []
            case cm.RemoveBot():
                return intents.remove_bot(s, seat, msg.seat), []
            case cm.Kick():
                player_id = s.seats[msg.seat].player_id if 0 <= msg.seat < s.players else None
                events = intents.kick(s, seat, msg.seat)
                return events, [lambda: self._remove_kicked(msg.seat, player_id)]
            case cm.AllowBack():
                return intents.allow_back(s, seat, msg.player_id), []
            case cm.AnswerKnock():
                events = intents.answer_knock(s, seat, msg.player_id, msg.accept)
                return events, [lambda: self._tell_knocker(msg.player_id, msg.accept)]
            case cm.Chat():
                return intents.chat(s, seat, conn.name, msg.text), []
        raise NotAllowed(f"{msg.type} is not a table action")

    def _reattach(self, conn: Watcher, seat: int | None) -> None:
        """After a committed seat change: ``conn`` now shows ``seat``."""
        if conn in self._watchers:
            self._watchers[conn] = seat
            conn.attached(self, seat)

    def _remove_kicked(self, seat: int, player_id: str | None) -> None:
        """After a committed kick: every connection of the kicked player (at
        the seat, or watching under the same player id) is told and removed
        from the table; it gets no more frames from it."""
        for conn, at in list(self._watchers.items()):
            if at == seat or (player_id and conn.player_id == player_id):
                del self._watchers[conn]
                conn.send(
                    sm.Kicked(
                        table_id=self.table_id, message="the host removed you from this table"
                    )
                )
                conn.removed(self)

    def has_watcher(self, conn: Watcher) -> bool:
        """Whether ``conn`` is attached here."""
        return conn in self._watchers

    def idle(self) -> bool:
        """Nobody attached, no game running, nothing queued or thinking:
        the table can leave memory (it stays in the store)."""
        return (
            not self._watchers
            and self.state.status not in RUNNING_STATUSES
            and self._inbox.empty()
            and not self._thinking
            and not self._timers
        )

    def watchers(self) -> int:
        """How many connections are attached."""
        return len(self._watchers)

    def connected_seats(self) -> int:
        """Seats with at least one live connection here."""
        return len({seat for seat in self._watchers.values() if seat is not None})

    def drop_watchers(self) -> None:
        """Close every attached client (the table moved to another process)."""
        for conn in list(self._watchers):
            conn.close()
        self._watchers.clear()
