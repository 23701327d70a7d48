"""The table actor: one asyncio task owns one table (docs/architecture.md
property 2).

Everything that changes a table arrives as a job (server.jobs) in the
actor's inbox: client requests, bot moves, connections attaching and
dropping, timers. The actor applies jobs one at a time, in order::

    job ─► intent    (server.table_requests, server.table_intents: check, then change, or raise)
        ─► commit    (server.table_commit: number the events, store state + events)
        ─► reply     (to the requester: ok / seated / error)
        ─► fan-out   (server.table_fan_out: each watcher its redacted events, a snapshot)
        ─► duties    (server.table_duties: ask bots to move, arm timers)

A refused intent changes nothing. If the store refuses the commit, the state
is rolled back to the last committed blob, so memory never runs ahead of what
is stored: acknowledged means durable.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol, assert_never

from pydantic import BaseModel

from engine.errors import ClientError
from protocol import client_messages as cm
from protocol import server_messages as sm

from . import logged_events as logged
from . import table_hints, table_jobs, turn_timer
from . import table_intents as intents
from .bot_runner import BotRunner
from .config import ServerConfig
from .errors import NotNow, OwnerGone, TableTooNew
from .jobs import (
    Attach,
    AutoDeal,
    BotMoved,
    Detach,
    GraceOver,
    Job,
    Knock,
    Request,
    ResumeDuties,
    Tick,
    TimedOutMove,
    TurnOver,
    Watcher,
)
from .lifecycle_log import log_committed
from .logged_events import Events, Logged
from .mailbox import Mailbox
from .metrics import Metrics
from .store.base import StoreConflict, StoreError, TableStore
from .table_commit import RUNNING_STATUSES, TableCommits
from .table_duties import TableDuties
from .table_fan_out import fan_out, replay, send_snapshot
from .table_jobs import Outcome
from .table_requests import apply_request
from .table_state import TableState
from .table_watchers import TableWatchers

log = logging.getLogger("hearts.table")

Posted = tuple[Job, "asyncio.Future[None] | None"]
"""A job in the inbox, with the future of a caller waiting for it."""


class TableHost(Protocol):
    """What an actor asks of the lobby that runs it (server.lobby)."""

    def unload_soon(self, actor: TableActor) -> None:
        """The table is idle: take it out of memory."""

    async def commit_refused(self, actor: TableActor) -> bool:
        """The store refused a commit: the lease was lost (the table stops
        here: True), or the version moved (the actor resyncs: False)."""

    async def refresh_listing(self, actor: TableActor) -> None:
        """List or unlist the table among public tables."""


def _fail_moved(done: asyncio.Future[None] | None) -> None:
    """A job its stopped actor will never run: its caller gets ``OwnerGone``."""
    if done is not None and not done.done():
        done.set_exception(OwnerGone("the table moved to another server; resume"))
        # Marked as seen: a job posted over the bus has nobody awaiting it.
        done.exception()


def _requester(job: Job) -> tuple[Watcher, cm.ClientMessage] | None:
    """The connection and message a reply to ``job`` goes to, if any."""
    match job:
        case Attach(conn, message) | Knock(conn, message) | Request(conn, message):
            return conn, message
    return None


class TableActor:
    """Owns one table: its state, its watchers, its bots and timers."""

    def __init__(
        self,
        state: TableState,
        version: int,
        store: TableStore,
        bots: BotRunner,
        config: ServerConfig,
        host: TableHost | None = None,
        owner: str | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.state = state
        self.store = store
        self.config = config
        self.metrics = metrics
        self._host = host
        self._commits = TableCommits(
            store,
            state.table_id,
            version,
            state.to_bytes(),
            owner=owner,
            patience=config.store_patience,
            metrics=metrics,
        )
        self._inbox: Mailbox[Posted] = Mailbox()
        self._stopped = False
        self._watchers = TableWatchers(self)
        self._duties = TableDuties(state.table_id, self.post, bots, config, metrics)
        self._task: asyncio.Task[None] | None = None

    @property
    def table_id(self) -> str:
        """The table's id."""
        return self.state.table_id

    @property
    def committed(self) -> bytes:
        """The table's state blob as last stored: what anyone outside the
        table may be told (a change is not told before it is stored)."""
        return self._commits.blob

    @property
    def owner(self) -> str | None:
        """The process under whose lease commits are fenced (None: one process)."""
        return self._commits.owner

    # -- life ------------------------------------------------------------

    def start(self, loaded: bool = True) -> None:
        """Start the actor's task. A table ``loaded`` from the store resumes
        its duties: its humans count as dropped until they resume, and bots
        carry on where they were."""
        self._task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")
        if loaded:
            self.post(ResumeDuties())

    def halt(self) -> None:
        """Stop taking jobs at once: queued ones fail (their callers learn
        that the table moved and their clients resume wherever it goes
        next), timers and bot moves are cancelled, the task is told to stop.
        ``stop`` also waits for the task."""
        self._stopped = True
        while not self._inbox.empty():
            _fail_moved(self._inbox.get_nowait()[1])
        self._duties.cancel()
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

    # -- the inbox -------------------------------------------------------

    def post(self, job: Job) -> None:
        """Queue a job (never blocks)."""
        self._put(job, None)

    def submit(self, job: Job) -> asyncio.Future[None]:
        """Queue a job; the future is done once it has been applied (or
        refused), and fails with ``OwnerGone`` if the actor stops first."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._put(job, done)
        return done

    async def call(self, job: Job) -> None:
        """Queue a job and wait until it has been applied (or refused);
        ``OwnerGone`` if the actor has stopped (the table moved)."""
        await self.submit(job)

    def _put(self, job: Job, done: asyncio.Future[None] | None) -> None:
        if self._stopped:
            _fail_moved(done)
            return
        self._inbox.put_nowait((job, done))

    async def _run(self) -> None:
        while True:
            job, done = await self._inbox.get()
            try:
                await self._process(job)
            except asyncio.CancelledError:
                # Stopped in the middle of this job (the table moved): its
                # caller must hear so, not a silent "done".
                _fail_moved(done)
                raise
            except OwnerGone:
                # Its commit found the table taken over (``_commit``).
                _fail_moved(done)
            except Exception:  # a bug in one job must not kill the table
                log.exception("table %s: job %s failed", self.table_id, job.kind)
                self._rollback()
                self._reply_error(job, "internal_error", "something went wrong on our side")
            finally:
                if done is not None and not done.done():
                    done.set_result(None)
            # Not right after a load (ResumeDuties): the client that caused
            # it is on its way to attach.
            if self._host is not None and not isinstance(job, ResumeDuties) and self.idle():
                # A finished or abandoned table leaves memory (and gives its
                # lease back): it is loaded again if someone comes back.
                self._host.unload_soon(self)

    # -- one job: intent, commit, reply, fan-out, duties -------------------

    async def _process(self, job: Job) -> None:
        try:
            events, reply, relink, after = self._handle(job)
        except ClientError as exc:
            reason = exc.reason if isinstance(exc, NotNow) else None
            self._reply_error(job, exc.code, exc.message, reason)
            return
        if self.metrics is not None:
            self.metrics.child(self.metrics.actions, job.kind).inc()
        logged_events: list[Logged] = []
        if events:
            committed = await self._commit(job, events)
            if committed is None:
                return
            logged_events = committed
        # Who is attached where changes only now, the commit done: were it
        # changed first, a refused commit would roll the table back but
        # leave a connection on a seat it does not hold.
        for change in relink:
            change()
        self._duties.sync_grace(self.state)
        self._duties.sync_turns(self.state)
        requester = _requester(job)
        if reply is not None and requester is not None:
            requester[0].send(self._with_seq(reply))
        # The public part of this moment's views, shared by the fan-out and
        # the bots' views: built at most once per job (only this task changes
        # the table, and nothing below does).
        public = fan_out(self.state, self._watchers, logged_events) if events else None
        for action in after:
            action()
        if isinstance(job, Attach) and isinstance(job.message, cm.Resume):
            await replay(
                self.store,
                self.state,
                job.conn,
                self._watchers.seat_of(job.conn),
                job.message.last_seq,
            )
        if events:
            self._log_committed(events, requester[0] if requester is not None else None)
            await self._side_effects(events)
        self._duties.run(self.state, public)

    def _with_seq(self, reply: BaseModel) -> BaseModel:
        if isinstance(reply, sm.Ok):
            # Committed: the table's seq is now that of the request's last
            # event (or the table's, for a repeat or a request without
            # events), what a client compares snapshots with.
            return sm.Ok(id=reply.id, seq=self.state.seq)
        return reply

    def _log_committed(self, events: Events, who: Watcher | None) -> None:
        log_committed(
            self.state,
            events,
            process=self.owner,
            address=getattr(who, "address", None),
            player=who.player_id if who is not None else None,
        )

    async def _commit(self, job: Job, events: Events) -> list[Logged] | None:
        """Store the job's events, numbered; on failure roll back, tell the
        requester, and see to what follows (None: the job ends here;
        ``OwnerGone``: the table moved, the requester resumes elsewhere)."""
        try:
            return await self._commits.commit(self.state, events)
        except StoreConflict as exc:
            log.warning("table %s: commit refused: %s", self.table_id, exc)
            self._rollback()
            if self._host is not None and self.owner is not None:
                if await self._host.commit_refused(self):
                    # The table moved to another process (a lost lease, as
                    # in a Redis failover): the requester's connection is
                    # closed with everyone's, and its client resumes and
                    # sends the request again, to the new owner. A refusal
                    # here would leave the move unmade and the client, whose
                    # view has not changed, waiting for the table.
                    raise OwnerGone("the table moved to another server; resume") from exc
                self._reply_error(job, exc.code, "the table could not be saved; try again")
            else:
                self._reply_error(job, exc.code, "the table could not be saved; try again")
                await self.resync()
            return None
        except StoreError as exc:
            log.warning("table %s: commit failed: %s", self.table_id, exc)
            self._rollback()
            self._reply_error(job, exc.code, "the table could not be saved; try again")
            # What was not saved is tried again: a bot's move, a seat whose
            # connection dropped meanwhile (see table_jobs.tick), a timed-out
            # move (its turn timer armed again here).
            self._duties.retry_later()
            self._duties.sync_turns(self.state)
            return None

    def _rollback(self) -> None:
        self._replace_state(self._commits.committed_state())

    def _replace_state(self, state: TableState) -> None:
        """Take ``state`` as the table's, keeping the deadlines of the timers
        that still run (runtime only, never stored: views show them as
        ``cover_in`` and ``turn_in``; sync_grace and sync_turns keep them
        true)."""
        state.cover_deadlines = self.state.cover_deadlines
        state.turn_deadlines = self.state.turn_deadlines
        self.state = state

    async def resync(self) -> None:
        """The stored table moved on without this actor knowing: take the
        stored state, show it to everyone attached and carry on (bots and
        timers included)."""
        try:
            stored = await self._commits.reload()
        except TableTooNew as exc:
            # A newer release stored the table since (a rolling upgrade):
            # this process cannot run it; it leaves the stored table alone
            # and every later commit of its own is refused the same way.
            log.warning("table %s: not resynced: %s", self.table_id, exc)
            return
        if stored is not None:
            self._replace_state(stored)
        # Its timers follow the table as stored (a turn that passed, a seat
        # that came back), and the countdowns shown are those still running.
        self._duties.sync_grace(self.state)
        self._duties.sync_turns(self.state)
        for conn, seat in self._watchers.items():
            send_snapshot(self.state, conn, seat)
        self._duties.run(self.state)

    def _reply_error(self, job: Job, code: str, message: str, reason: str | None = None) -> None:
        if self.metrics is not None:
            self.metrics.child(self.metrics.errors, code).inc()
        requester = _requester(job)
        if requester is not None:
            conn, msg = requester
            conn.send(sm.Error(id=msg.id, code=code, message=message, reason=reason))

    async def _side_effects(self, events: Events) -> None:
        """The lobby listing and the table's expiry, after the commit (best
        effort: hand records and statistics went in with the commit itself)."""
        if self._host is not None and any(
            isinstance(e, logged.SeatChanged | logged.GameStarted) for e in events
        ):
            try:
                await self._host.refresh_listing(self)
            except StoreError as exc:
                log.warning("table %s: could not update the lobby: %s", self.table_id, exc)
        for e in events:
            try:
                if isinstance(e, logged.GameStarted):
                    # It was created to live unstarted_table_ttl; a game runs now.
                    await self.store.expire_table(self.table_id, self.config.table_ttl)
                elif isinstance(e, logged.HandScored):
                    await self.store.expire_table(self.table_id, self.config.table_ttl)
                elif isinstance(e, logged.GameOver):
                    await self.store.expire_table(self.table_id, self.config.finished_ttl)
            except StoreError as exc:
                log.warning("table %s: could not set its expiry: %s", self.table_id, exc)

    # -- the jobs ----------------------------------------------------------

    def _handle(self, job: Job) -> Outcome:
        """What ``job`` does to the table (state changed, events to commit),
        or ``ClientError`` with nothing changed."""
        state, watchers = self.state, self._watchers
        match job:
            case Request(conn, cm.Hint() as message):
                return Outcome([], table_hints.advise(state, watchers, conn, message))
            case Request(conn, message):
                events, relink = apply_request(state, watchers, conn, message)
                return Outcome(events, sm.Ok(id=message.id), relink=tuple(relink))
            case Attach():
                return table_jobs.attach(state, watchers, job)
            case Knock():
                return table_jobs.knock(state, watchers, job)
            case Detach(conn):
                return Outcome(table_jobs.detach(state, watchers, conn))
            case BotMoved(seat, move):
                self._duties.decided(seat)
                return Outcome(table_jobs.bot_moved(state, seat, move))
            case GraceOver(seat):
                return Outcome(intents.start_covering(state, seat))
            case TurnOver(seat, turn):
                self._duties.move_for(state, seat, turn)
                return Outcome([])
            case TimedOutMove(seat, turn, move):
                self._duties.timed_out_move_back(seat, turn)
                return Outcome(turn_timer.timed_out_move(state, seat, turn, move))
            case AutoDeal(hand):
                return Outcome(table_jobs.auto_deal(state, hand))
            case Tick():
                return Outcome(table_jobs.tick(state, watchers))
            case ResumeDuties():
                return Outcome(table_jobs.resume_duties(state))
            case _:
                assert_never(job)

    # -- for the lobby and the metrics --------------------------------------

    def has_watcher(self, conn: Watcher) -> bool:
        """Whether ``conn`` is attached here."""
        return conn in self._watchers

    def idle(self) -> bool:
        """Nobody attached, no game running, nothing queued or thinking:
        the table can leave memory (it stays in the store)."""
        return (
            not len(self._watchers)
            and self.state.status not in RUNNING_STATUSES
            and self._inbox.empty()
            and self._duties.idle()
        )

    def watchers(self) -> int:
        """How many connections are attached."""
        return len(self._watchers)

    def connected_seats(self) -> int:
        """Seats with at least one live connection here."""
        return len(self._watchers.occupied())

    def drop_watchers(self) -> None:
        """Close every attached client (the table moved to another process)."""
        self._watchers.drop_all()
