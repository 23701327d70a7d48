"""The lobby: creating tables, finding them by invite code or id, listing
public ones, and keeping one actor per table this process runs.

With a ``Cluster`` (several processes on one Redis, see server.cluster) a
table is run here only while this process holds its lease; a table owned
elsewhere is reached through a ``RemoteTable``, and the bus is answered by
the lobby's ``Forwarding`` (server.forwarding). A watchdog takes over tables
whose owner died and moves clients off tables that moved.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import time
from collections.abc import Coroutine
from typing import Any

from engine.rules import Rules, RulesError
from protocol import client_messages as cm
from protocol import server_messages as sm

from .address_guard import AddressGuard
from .bans import Bans
from .bot_runner import BotRunner
from .bus import BusMessage
from .cluster import Cluster
from .config import ServerConfig
from .created_tables import CreatedTables
from .errors import BadRules, NotFound, OwnerGone, TableRefused, TableTooNew
from .forwarding import Client, Forwarding
from .hand_analyses import Analyses
from .jobs import Attach, Watcher
from .lifecycle_log import LONE_PROCESS, lifecycle
from .metrics import Metrics, TableGauge
from .remote import RemoteTable
from .store.base import StoreConflict, StoreError, TableStore
from .table_actor import TableActor
from .table_budget import BudgetRule, CreationBudget
from .table_capacity import TableCapacity
from .table_commit import RUNNING_STATUSES
from .table_state import Seat, TableState, hash_token

log = logging.getLogger("hearts.lobby")

# How long a stopping process waits, after handing its tables over, for
# their actors to finish (the lease fences any late write anyway).
HANDOVER_STOP_SECONDS = 5.0

# Invite codes: six characters without look-alikes (no 0/O, 1/I/L), easy to
# read aloud and type on a phone; shown as ABC-DEF.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_code() -> str:
    """A fresh random invite code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str:
    """What a player typed (``abc-def``, ``ABC DEF``) as a stored code."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


class Lobby:
    """Tables of this process. One ``TableActor`` per table at a time."""

    def __init__(
        self,
        store: TableStore,
        bots: BotRunner,
        config: ServerConfig,
        cluster: Cluster | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.metrics = metrics
        self.bots = bots
        self.config = config
        self.cluster = cluster
        self.guard = AddressGuard(
            config.trusted_proxies,
            max_connections=config.max_connections_per_address,
            free_misses=config.free_code_misses,
            max_wait=config.max_code_wait,
        )
        self.bans = Bans()  # the operator's (server.admin)
        self._actors: dict[str, TableActor] = {}
        # Running tables this process could not read (a newer release wrote
        # them, server.state_format): not tried again by the watchdog, whose
        # log they would fill; a client's resume still tries (and is told).
        self._unreadable: set[str] = set()
        self.budget = CreationBudget(
            BudgetRule(config.tables_burst_per_address, config.tables_per_minute_per_address),
            BudgetRule(config.tables_burst_per_player, config.tables_per_minute_per_player),
        )
        self.capacity = TableCapacity(store, config, lambda: len(self._actors))
        self.analyses = Analyses(
            bots,
            store,
            worlds=config.analysis_worlds,
            player_rule=BudgetRule(config.analysis_burst, config.analysis_per_minute),
            max_pending=config.analysis_max_pending,
            metrics=metrics,
        )
        self._lock = asyncio.Lock()
        # Scale-out: this process's end of the bus (None: one process).
        self.forwarding = Forwarding(cluster, self._actors) if cluster is not None else None
        self._watchdog: asyncio.Task[None] | None = None
        # Set when the process starts handing its tables over: it takes no
        # table (new or forwarded) any more, and /readyz says so.
        self.closing = False
        self._background: set[asyncio.Task[None]] = set()
        # Recent create_table requests, to answer a repeat with its table.
        self.created = CreatedTables()

    @property
    def actors(self) -> dict[str, TableActor]:
        """Running actors by table id (read-only use)."""
        return self._actors

    @property
    def process(self) -> str:
        """This process as logs and the admin API name it: its cluster
        member id, or host:pid alone."""
        return self.cluster.process_id if self.cluster is not None else LONE_PROCESS

    def _lease_moved(self, state: TableState) -> None:
        lifecycle(
            "lease_moved",
            f"took over table {state.table_id}",
            table=state.table_id,
            variant=state.rules.variant,
            process=self.process,
        )

    def table_gauges(self) -> list[TableGauge]:
        """What /metrics says of each table this process runs."""
        return [TableGauge(a.state.status, a.connected_seats()) for a in self._actors.values()]

    async def admit_table(self, address: str, player_id: str) -> None:
        """Spend a new table of the client ``address`` and player's budgets
        (server.table_budget), if the server may hold one more
        (server.table_capacity); else ``TableRefused`` and nothing spent.
        A creation that then fails gives it back (``refund_table``)."""
        if self.closing:
            raise OwnerGone("this server is restarting")
        refusal = self.budget.take(address, player_id)
        if refusal is not None:
            wait = max(1, math.ceil(refusal.retry_after))
            if refusal.budget == "player":
                message = f"you have created many tables in a short time; try again in {wait} s"
            else:
                message = (
                    "many tables were created from your network in a short time;"
                    f" try again in {wait} s"
                )
            self._count_refusal(f"{refusal.budget}_budget")
            raise TableRefused(
                message, "too_many_tables", f"{refusal.budget}_budget", refusal.retry_after
            )
        try:
            await self.capacity.check()
        except TableRefused as exc:
            self.budget.refund(address, player_id)
            self._count_refusal(exc.reason)
            raise
        except BaseException:
            self.budget.refund(address, player_id)
            raise

    def refund_table(self, address: str, player_id: str) -> None:
        """A table ``admit_table`` let through was not created after all."""
        self.budget.refund(address, player_id)
        self.capacity.cancelled()

    def _count_refusal(self, reason: str) -> None:
        if self.metrics is not None:
            self.metrics.tables_refused.labels(reason).inc()

    async def create_table(
        self, conn: Watcher, msg: cm.CreateTable, program: bool = False
    ) -> TableActor:
        """Create a table with ``conn`` as host at seat 0 (``program``: its
        hello said it is a program, not a person)."""
        if self.closing:
            raise OwnerGone("this server is restarting")
        try:
            rules = msg.rules.to_rules()
        except RulesError as exc:
            raise BadRules(f"those rules cannot be played: {exc}") from None
        token = secrets.token_urlsafe(24)
        host = Seat(
            kind="human",
            name=conn.name,
            player_id=conn.player_id,
            token_hash=hash_token(token),
            connected=True,
            program=program,
        )
        state = await self._store_new_table(conn.name, msg, rules, host)
        # Until its game starts (server.table_actor pushes it on then).
        await self.store.expire_table(state.table_id, self.config.unstarted_table_ttl)
        if self.cluster is not None:
            await self.cluster.acquire(state.table_id)  # a new table: nobody else knows it yet
        actor = self._start(state, 1, loaded=False)
        lifecycle(
            "table_created",
            f"table {state.table_id} created",
            table=state.table_id,
            variant=rules.variant,
            player=conn.player_id,
            address=getattr(conn, "address", None),
            process=self.process,
        )
        self.created.remember(conn.player_id, msg.id, state.table_id)
        await actor.call(Attach(conn, msg, "host", token, program=program))
        await self.refresh_listing(actor)
        self.capacity.created()
        return actor

    async def _store_new_table(
        self, host_name: str, msg: cm.CreateTable, rules: Rules, host: Seat
    ) -> TableState:
        """A new table's state, stored under a fresh id and invite code
        (drawn again while either is taken)."""
        seed = self._table_seed()
        for _ in range(8):
            state = _new_table_state(host_name, msg, rules, seed, host)
            try:
                await self.store.create_table(state.table_id, state.code, state.to_bytes())
                return state
            except StoreConflict:
                continue  # the code (or id) was taken: draw again
        raise StoreConflict("could not find a free invite code")

    def _table_seed(self) -> int:
        """A new table's seed: random, unless the config fixes it (tests)."""
        if self.config.table_seed is not None:
            return self.config.table_seed
        return secrets.randbits(63)

    def _start(self, state: TableState, version: int, loaded: bool = True) -> TableActor:
        owner = self.cluster.process_id if self.cluster is not None else None
        actor = TableActor(
            state,
            version,
            self.store,
            self.bots,
            self.config,
            host=self,
            owner=owner,
            metrics=self.metrics,
        )
        self._actors[state.table_id] = actor
        actor.start(loaded)
        return actor

    async def actor_for_id(self, table_id: str) -> TableActor | RemoteTable:
        """The table's actor here, or a handle to its owner elsewhere; a table
        nobody runs is loaded from the store (and its lease taken)."""
        if self.closing:
            # The client resumes on another process, which takes the table.
            raise OwnerGone("this server is restarting")
        actor = self._actors.get(table_id)
        if actor is not None:
            return actor
        async with self._lock:
            actor = self._actors.get(table_id)
            if actor is not None:
                return actor
            remote = await self._remote_unless_leased(table_id)
            if remote is not None:
                return remote
            loaded = await self._load_leased(table_id)
            if loaded is None:
                raise NotFound("there is no such table (it may have finished long ago)")
            return self._take_over(*loaded)

    async def _remote_unless_leased(self, table_id: str) -> RemoteTable | None:
        """With a cluster, a handle to the table's owner when another process
        holds its lease, else None once the lease is ours (``StoreConflict``
        while it changes hands); None at once without a cluster."""
        if self.cluster is None or await self.cluster.acquire(table_id):
            return None
        owner = await self.cluster.owner(table_id)
        if owner is not None and owner != self.cluster.process_id:
            assert self.forwarding is not None  # made with the cluster
            return self.forwarding.remote(table_id, owner)
        if not await self.cluster.acquire(table_id):
            raise StoreConflict("the table is changing hands; try again")
        return None

    def _take_over(self, state: TableState, version: int) -> TableActor:
        """Run a table loaded under our lease: clients that reached it
        through its old owner resume here."""
        self._forget_remote(state.table_id)
        if self.cluster is not None:
            self._lease_moved(state)
        return self._start(state, version)

    async def _load_leased(self, table_id: str) -> tuple[TableState, int] | None:
        """The stored table (state, version), loaded once we hold its lease
        (the old owner may have written until then). A table that is gone,
        or a load that fails, gives the lease back: never a lease with no
        actor behind it, which nobody else could take while we renew it."""
        try:
            stored = await self.store.load_table(table_id)
            if stored is not None:
                return TableState.from_bytes(stored.state), stored.version
        except BaseException:
            await self._release(table_id)
            raise
        await self._release(table_id)
        return None

    async def _release(self, table_id: str) -> None:
        """Give the table's lease back (scale-out only)."""
        if self.cluster is not None:
            await self.cluster.release(table_id)

    async def actor_for_code(self, code: str) -> TableActor | RemoteTable:
        """The table an invite code names."""
        return await self.actor_for_id(await self.table_id_for_code(code))

    async def table_id_for_code(self, code: str) -> str:
        """The id of the table an invite code names; ``NotFound`` if none."""
        table_id = await self.store.table_id_for_code(normalize_code(code))
        if table_id is None:
            raise NotFound(f"no table has the code {code.upper()}")
        return table_id

    async def peek_table(self, table_id: str) -> TableState:
        """The table's settings and seats as last stored, without taking it:
        the state its owner (this process or another) last committed, read
        without replaying its game (``TableState.peek``); never a change
        still being stored. ``NotFound`` if the table is gone."""
        actor = self._actors.get(table_id)
        if actor is not None:
            return TableState.peek(actor.committed)
        stored = await self.store.load_table(table_id)
        if stored is None:
            raise NotFound("there is no such table (it may have finished long ago)")
        return TableState.peek(stored.state)

    async def invite_is_valid(self, table_id: str, link: str) -> bool:
        """Whether ``link`` is the invite-link value of table ``table_id``
        (read from the actor here, else from the store)."""
        actor = self._actors.get(table_id)
        if actor is not None:
            return actor.state.invite_matches(link)
        stored = await self.store.load_table(table_id)
        if stored is None:
            return False
        state = TableState.peek(stored.state)
        return state.invite_matches(link)

    async def list_public(self) -> tuple[sm.TableSummary, ...]:
        """Public tables waiting for players."""
        out = []
        for entry in await self.store.list_public():
            try:
                out.append(sm.TableSummary.model_validate_json(entry.summary))
            except ValueError:
                log.warning("bad lobby entry for %s", entry.table_id)
        return tuple(out)

    async def refresh_listing(self, actor: TableActor) -> None:
        """List a public table while it waits for players; unlist it after."""
        state = actor.state
        if not state.public:
            return
        if state.status != "waiting" or not state.open_seats():
            await self.store.set_public(state.table_id, state.code, None)
            return
        summary = sm.TableSummary(
            table_id=state.table_id,
            code=state.code,
            name=state.name,
            host=state.seats[state.host_seat].name,
            open_seats=len(state.open_seats()),
            bots=sum(s.kind == "bot" for s in state.seats),
            rules=state.rules.to_json(),
        )
        await self.store.set_public(
            state.table_id, state.code, json.dumps(summary.model_dump(mode="json")).encode()
        )

    async def resume_all(self) -> int:
        """Start an actor for every stored table in play that nobody runs
        (after a restart, or an owner's death)."""
        count = 0
        for table_id in await self._orphans():
            async with self._lock:
                count += await self._resume(table_id)
        return count

    async def _orphans(self) -> list[str]:
        """The stored tables in play that nobody runs: not here, not
        unreadable to us, and (with a cluster) with no owner."""
        candidates = [
            t
            for t in await self.store.running_ids()
            if t not in self._actors and t not in self._unreadable
        ]
        if self.cluster is not None and candidates:
            owners = await self.cluster.owners(candidates)
            # A table with an owner is alive (here or elsewhere).
            candidates = [t for t in candidates if owners[t] is None]
        return candidates

    async def _resume(self, table_id: str) -> bool:
        """Start the actor of one orphaned table (under ``_lock``); whether
        it started (not when another process was quicker, the table is
        gone, over, or stored by a newer release)."""
        if table_id in self._actors:
            return False
        if self.cluster is not None and not await self.cluster.acquire(table_id):
            return False  # another process was quicker
        try:
            loaded = await self._load_leased(table_id)
        except TableTooNew as exc:
            # Left as stored, for a server that can run it.
            log.warning("table %s not resumed: %s", table_id, exc.message)
            self._unreadable.add(table_id)
            return False
        if loaded is None:
            return False
        if loaded[0].status not in RUNNING_STATUSES:
            await self._release(table_id)
            return False
        self._take_over(*loaded)
        return True

    # -- scale-out -------------------------------------------------------------

    def register_client(self, conn_id: str, conn: Client) -> None:
        """A client of this process (frames from owners find it by id)."""
        if self.forwarding is not None:
            self.forwarding.register_client(conn_id, conn)

    def unregister_client(self, conn_id: str) -> None:
        """The client is gone."""
        if self.forwarding is not None:
            self.forwarding.unregister_client(conn_id)

    def start_watchdog(self) -> None:
        """Take over orphaned tables and move clients off tables that moved."""
        if self.cluster is not None:
            self._watchdog = asyncio.create_task(self._watch_forever())

    async def _watch_forever(self) -> None:
        assert self.cluster is not None and self.forwarding is not None  # started with a cluster
        while True:
            await asyncio.sleep(self.cluster.lease_ms / 2000)  # twice per lease lifetime
            try:
                taken = await self.resume_all()
                if taken:
                    log.info("took over %d tables", taken)
                owners = await self.cluster.owners(self.forwarding.remote_tables())
                self.forwarding.owners_changed(owners)
                await self.forwarding.detach_dead_forwarders()
                self.forwarding.prune()
            except StoreError as exc:
                log.warning("watchdog: store unavailable: %s", exc)
            except Exception:  # the watchdog must survive anything
                log.exception("watchdog failed")

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of its own (kept referenced until done)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def unload_soon(self, actor: TableActor) -> None:
        """Take an idle table out of memory (see ``TableActor.idle``)."""
        self._in_background(self._unload(actor))

    async def _unload(self, actor: TableActor) -> None:
        # All under the lock: a load of the same table must not slip in
        # between (it would find our lease and then lose it to the release).
        async with self._lock:
            if self.closing or self._actors.get(actor.table_id) is not actor or not actor.idle():
                return
            del self._actors[actor.table_id]
            actor.halt()
            await self._release(actor.table_id)
        await actor.stop()  # outside the lock: nothing else waits on it

    async def remove_table(self, table_id: str) -> bool:
        """Stop running a table an operator closes or purges (its lease given
        back, its clients elsewhere dropped); whether it ran here."""
        async with self._lock:
            actor = self._actors.pop(table_id, None)
            if actor is None:
                return False
            actor.halt()
            await self._release(table_id)
            actor.drop_watchers()
        await actor.stop()
        return True

    def _forget_remote(self, table_id: str) -> None:
        """We run the table now: clients attached through the old owner
        reconnect and resume here."""
        if self.forwarding is not None:
            self.forwarding.forget(table_id)

    def resync_forwarded_clients(self) -> None:
        """The bus was down (frames to us may be lost): every client reaching
        a table through another process resumes."""
        if self.forwarding is not None:
            self.forwarding.resync_all()

    async def commit_refused(self, actor: TableActor) -> bool:
        """The store refused a commit: we lost the lease (the table stops
        here; True), or the version moved (the actor resyncs; False)."""
        if self.cluster is not None:
            try:
                owner = await self.cluster.owner(actor.table_id)
            except StoreError as exc:
                # Redis is moving (a failover): whoever holds the lease once
                # it answers runs the table, this process again if nobody
                # took it (the watchdog takes running tables nobody holds).
                log.warning("table %s: owner unknown after a refusal: %s", actor.table_id, exc)
                owner = None
            if owner != self.cluster.process_id:
                await self.lost(actor.table_id)
                return True
        await actor.resync()
        return False

    async def lost(self, table_id: str) -> None:
        """Another process owns the table now: stop ours, move its clients."""
        actor = self._actors.pop(table_id, None)
        if self.cluster is not None:
            self.cluster.owned.discard(table_id)
        if actor is not None:
            actor.halt()
            actor.drop_watchers()
            # Waited for in the background: the caller may be the lease
            # renewal loop, which must not stall on one table.
            self._in_background(actor.stop())

    async def on_bus(self, message: BusMessage) -> None:
        """A message from another process (server.cluster)."""
        if self.forwarding is not None:
            await self.forwarding.on_message(message)

    async def close(self) -> None:
        """Stop every actor and hand its table over: the lease is given back
        first, then the table's clients (here or forwarded from another
        process) are told to resume, so whichever process they reach next
        takes the table at once (a rolling restart is a reconnect, not a
        wait for leases to expire)."""
        self.closing = True
        if self._watchdog is not None:
            self._watchdog.cancel()
            await asyncio.gather(self._watchdog, return_exceptions=True)
        if self._actors:
            log.info("handing over %d tables", len(self._actors))
        halted = await self._hand_over_all()
        if halted:
            log.info("tables handed over")
            await _wait_stopped(halted)

    async def _hand_over_all(self) -> list[TableActor]:
        """Halt every actor, give its lease back and move its clients; the
        actors halted (not yet stopped)."""
        halted: list[TableActor] = []
        for table_id in list(self._actors):
            actor = self._actors.pop(table_id, None)
            if actor is None:
                continue  # lost meanwhile
            # Halted, not waited for: the lease goes back at once and the
            # fence refuses any write the actor may still attempt.
            actor.halt()
            await self._release(table_id)
            actor.drop_watchers()
            halted.append(actor)
        return halted


async def _wait_stopped(halted: list[TableActor]) -> None:
    """Wait a while for halted actors to finish; name those that did not."""
    try:
        await asyncio.wait_for(
            asyncio.gather(*(actor.stop() for actor in halted)), HANDOVER_STOP_SECONDS
        )
    except TimeoutError:
        for actor in halted:
            if not actor.done():
                log.warning(
                    "table %s: its actor did not stop in time, at %s",
                    actor.table_id,
                    actor.where(),
                )


def _new_table_state(
    host_name: str, msg: cm.CreateTable, rules: Rules, seed: int, host: Seat
) -> TableState:
    """A new table's state: ``host`` at seat 0, the bots ``msg`` names, the
    other seats open; a fresh id, invite code and invite."""
    # Seats the host did not name are open.
    specs = (*msg.seats, *("open",) * rules.players)[: rules.players - 1]
    state = TableState(
        table_id=secrets.token_hex(8),
        code=new_code(),
        name=msg.name or f"{host_name}'s table",
        public=msg.public,
        rules=rules,
        seed=seed,
        seats=[host, *(Seat() for _ in specs)],
        invite=secrets.token_urlsafe(18),
        approval=msg.approval,
        turn_seconds=msg.turn_seconds,
        created_at=round(time.time(), 3),
    )
    # Bots are named for the table's seed and their seat (server.seat_names).
    for i, spec in enumerate(specs, start=1):
        if spec != "open":
            state.seats[i] = state.new_bot(i, spec)
    return state
