"""The lobby: creating tables, finding them by invite code or id, listing
public ones, and keeping one actor per table this process runs.

With a ``Cluster`` (several processes on one Redis, see server.cluster) a
table is run here only while this process holds its lease; a table owned
elsewhere is reached through a ``RemoteTable``, and the lobby answers the
bus: jobs for tables it owns, frames for clients it holds. A watchdog takes
over tables whose owner died and moves clients off tables that moved.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Coroutine
from typing import Any

from engine.rules import RulesError
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import decode_client

from .address_guard import AddressGuard
from .bot_runner import BotRunner
from .cluster import Cluster
from .config import ServerConfig
from .errors import BadRules, NotFound
from .metrics import Metrics
from .remote import OwnerGone, RemoteTable, RemoteWatcher
from .store.base import StoreConflict, StoreError, TableStore
from .table_actor import RUNNING_STATUSES, Job, TableActor, Watcher
from .table_state import BOT_NAMES, Seat, TableState, hash_token

TableHandle = TableActor | RemoteTable

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
        self._actors: dict[str, TableActor] = {}
        self._lock = asyncio.Lock()
        # Scale-out bookkeeping: our clients by id (for frames from owners),
        # other processes' clients attached here, calls awaiting "done".
        self._clients: dict[str, Watcher] = {}
        self._remote_watchers: dict[tuple[str, str], RemoteWatcher] = {}
        self._calls: dict[str, asyncio.Future[None]] = {}
        self._remotes: dict[str, RemoteTable] = {}
        self._watchdog: asyncio.Task[None] | None = None
        # Set when the process starts handing its tables over: it takes no
        # table (new or forwarded) any more, and /readyz says so.
        self.closing = False
        self._background: set[asyncio.Task[None]] = set()

    @property
    def actors(self) -> dict[str, TableActor]:
        """Running actors by table id (read-only use)."""
        return self._actors

    async def create_table(self, conn: Watcher, msg: cm.CreateTable) -> TableActor:
        """Create a table with ``conn`` as host at seat 0."""
        if self.closing:
            raise OwnerGone("this server is restarting")
        try:
            rules = msg.rules.to_rules()
        except RulesError as exc:
            raise BadRules(f"those rules cannot be played: {exc}") from None
        token = secrets.token_urlsafe(24)
        seats = [
            Seat(
                kind="human",
                name=conn.name,
                player_id=conn.player_id,
                token_hash=hash_token(token),
                connected=True,
            )
        ]
        for spec in msg.seats[: rules.players - 1]:
            if spec == "open":
                seats.append(Seat())
            else:
                seats.append(Seat(kind="bot", name=BOT_NAMES[spec], bot_level=spec, ready=True))
        for _ in range(8):
            state = TableState(
                table_id=secrets.token_hex(8),
                code=new_code(),
                name=msg.name or f"{conn.name}'s table",
                public=msg.public,
                rules=rules,
                seed=secrets.randbits(63),
                seats=seats,
                invite=secrets.token_urlsafe(18),
                approval=msg.approval,
            )
            try:
                await self.store.create_table(state.table_id, state.code, state.to_bytes())
                break
            except StoreConflict:
                continue  # the code (or id) was taken: draw again
        else:
            raise StoreConflict("could not find a free invite code")
        await self.store.expire_table(state.table_id, self.config.table_ttl)
        if self.cluster is not None:
            await self.cluster.acquire(state.table_id)  # a new table: nobody else knows it yet
        actor = self._start(state, 1, loaded=False)
        await actor.call(
            Job("attach", conn=conn, message=msg, extra={"mode": "host", "token": token})
        )
        await self.refresh_listing(actor)
        return actor

    def _start(self, state: TableState, version: int, loaded: bool = True) -> TableActor:
        owner = self.cluster.process_id if self.cluster is not None else None
        actor = TableActor(
            state,
            version,
            self.store,
            self.bots,
            self.config,
            lobby=self,
            owner=owner,
            metrics=self.metrics,
        )
        self._actors[state.table_id] = actor
        actor.start(loaded)
        return actor

    async def actor_for_id(self, table_id: str) -> TableHandle:
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
            if self.cluster is not None and not await self.cluster.acquire(table_id):
                owner = await self.cluster.owner(table_id)
                if owner is not None and owner != self.cluster.process_id:
                    remote = self._remotes.get(table_id)
                    if remote is None or remote.owner != owner:
                        # Clients attached through the old handle point at a
                        # process that no longer runs the table: move them too.
                        self._forget_remote(table_id)
                        log.info("table %s is run by process %s: forwarding", table_id, owner)
                        remote = RemoteTable(table_id, owner, self.cluster, self._calls)
                        self._remotes[table_id] = remote
                    return remote
                if not await self.cluster.acquire(table_id):
                    raise StoreConflict("the table is changing hands; try again")
            loaded = await self._load_leased(table_id)
            if loaded is None:
                raise NotFound("there is no such table (it may have finished long ago)")
            self._forget_remote(table_id)
            if self.cluster is not None:
                log.info("took over table %s", table_id)
            return self._start(*loaded)

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

    async def actor_for_code(self, code: str) -> TableHandle:
        """The table an invite code names."""
        table_id = await self.store.table_id_for_code(normalize_code(code))
        if table_id is None:
            raise NotFound(f"no table has the code {code.upper()}")
        return await self.actor_for_id(table_id)

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
        candidates = [t for t in await self.store.running_ids() if t not in self._actors]
        if self.cluster is not None and candidates:
            owners = await self.cluster.owners(candidates)
            # A table with an owner is alive (here or elsewhere).
            candidates = [t for t in candidates if owners[t] is None]
        for table_id in candidates:
            async with self._lock:
                if table_id in self._actors:
                    continue
                if self.cluster is not None and not await self.cluster.acquire(table_id):
                    continue  # another process was quicker
                loaded = await self._load_leased(table_id)
                if loaded is None:
                    continue
                if loaded[0].status not in RUNNING_STATUSES:
                    await self._release(table_id)
                    continue
                self._forget_remote(table_id)
                self._start(*loaded)
                count += 1
        return count

    # -- scale-out -------------------------------------------------------------

    def register_client(self, conn_id: str, conn: Watcher) -> None:
        """A client of this process (frames from owners find it by id)."""
        self._clients[conn_id] = conn

    def unregister_client(self, conn_id: str) -> None:
        """The client is gone."""
        self._clients.pop(conn_id, None)

    def start_watchdog(self) -> None:
        """Take over orphaned tables and move clients off tables that moved."""
        if self.cluster is not None:
            self._watchdog = asyncio.create_task(self._watch_forever())

    async def _watch_forever(self) -> None:
        assert self.cluster is not None  # started only with a cluster
        while True:
            await asyncio.sleep(self.cluster.lease_ms / 2000)  # twice per lease lifetime
            try:
                taken = await self.resume_all()
                if taken:
                    log.info("took over %d tables", taken)
                owners = await self.cluster.owners(list(self._remotes))
                for table_id, owner in owners.items():
                    remote = self._remotes.get(table_id)
                    if remote is not None and owner != remote.owner:
                        del self._remotes[table_id]
                        self._drop_clients_of(remote)
                await self._detach_dead_forwarders()
                self._prune_remotes()
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

    async def _detach_dead_forwarders(self) -> None:
        """Clients that reached our tables through a process that has died
        never send their detach: detach them here, so their seats go away,
        the grace period runs and a bot covers (else the table would wait
        for them for ever)."""
        assert self.cluster is not None  # the watchdog runs only with a cluster
        senders = sorted({sender for sender, _ in self._remote_watchers})
        if not senders:
            return
        alive = await self.cluster.alive(senders)
        for key, watcher in list(self._remote_watchers.items()):
            if key[0] in alive:
                continue
            del self._remote_watchers[key]
            for actor in self._actors.values():
                if actor.has_watcher(watcher):
                    actor.post(Job("detach", conn=watcher))
        for dead in set(senders) - alive:
            log.info("process %s is gone: its clients here are detached", dead)
            self.cluster.forget_process(dead)

    def _prune_remotes(self) -> None:
        """Forget forwarding handles nobody uses any more (finished tables)."""
        used = {id(getattr(conn, "actor", None)) for conn in self._clients.values()}
        for table_id, remote in list(self._remotes.items()):
            if id(remote) not in used and not remote.busy():
                del self._remotes[table_id]

    def _forget_remote(self, table_id: str) -> None:
        """We run the table now: clients attached through the old owner
        reconnect and resume here."""
        remote = self._remotes.pop(table_id, None)
        if remote is not None:
            self._drop_clients_of(remote)

    def resync_forwarded_clients(self) -> None:
        """The bus was down (frames to us may be lost): every client reaching
        a table through another process resumes, which replays what it
        missed from the table's log; calls still waiting fail at once."""
        remotes = list(self._remotes.values())
        if remotes:
            log.info("bus reconnected: %d forwarded tables resync their clients", len(remotes))
        self._drop_clients_of(*remotes)

    def _drop_clients_of(self, *remotes: RemoteTable) -> None:
        """Fail the calls through these handles and close their clients (one
        pass over the clients, however many handles)."""
        for remote in remotes:
            remote.abandon()
        dropped = {id(remote) for remote in remotes}
        for conn in list(self._clients.values()):
            if id(getattr(conn, "actor", None)) in dropped:
                conn.close()

    async def commit_refused(self, actor: TableActor) -> None:
        """The store refused a commit: we lost the lease, or the version moved."""
        if (
            self.cluster is not None
            and await self.cluster.owner(actor.table_id) != self.cluster.process_id
        ):
            await self.lost(actor.table_id)
            return
        await actor.resync()

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

    async def on_bus(self, payload: dict[str, object]) -> None:
        """A message from another process (server.cluster)."""
        op = payload.get("op")
        if op == "job":
            self._bus_job(payload)
        elif op == "frame":
            conn = self._clients.get(str(payload["conn"]))
            frame = payload["frame"]
            if conn is not None and isinstance(frame, bytes):
                conn.send_frame(frame)
        elif op == "attached":
            conn = self._clients.get(str(payload["conn"]))
            table_id, owner = str(payload["table"]), payload.get("owner")
            remote = self._remotes.get(table_id)
            if remote is None and conn is not None and isinstance(owner, str):
                # The handle was pruned while the attach was on its way.
                remote = RemoteTable(table_id, owner, self.cluster, self._calls)  # type: ignore[arg-type]
                self._remotes[table_id] = remote
            if conn is not None and remote is not None and owner not in (None, remote.owner):
                conn.close()  # attached by a process that no longer runs the table
            elif conn is not None and remote is not None:
                conn.actor = remote  # type: ignore[attr-defined]
                conn.seat = payload["seat"]  # type: ignore[attr-defined]
        elif op == "removed":
            conn = self._clients.get(str(payload["conn"]))
            remote = self._remotes.get(str(payload["table"]))
            if conn is not None and remote is not None:
                conn.removed(remote)  # type: ignore[arg-type]
        elif op == "close":
            conn = self._clients.get(str(payload["conn"]))
            if conn is not None:
                conn.close()
        elif op == "done":
            future = self._calls.get(str(payload["call"]))
            if future is not None and not future.done():
                if payload.get("gone"):
                    future.set_exception(OwnerGone("the table moved to another server"))
                else:
                    future.set_result(None)

    def _bus_job(self, payload: dict[str, object]) -> None:
        assert self.cluster is not None  # the bus exists only with a cluster
        sender, conn_id = str(payload["from"]), str(payload["conn"])
        actor = self._actors.get(str(payload["table"]))
        key = (sender, conn_id)
        watcher = self._remote_watchers.get(key)
        # Not ours (any more), or a client we had detached (its process
        # looked dead): the sender's client must resume (a closing process
        # still takes jobs for the tables it has not handed over yet).
        if actor is None or (watcher is None and payload.get("kind") == "request"):
            self._remote_watchers.pop(key, None)
            self.cluster.publish(sender, {"op": "close", "conn": conn_id})
            call = payload.get("call")
            if call is not None:
                self.cluster.publish(sender, {"op": "done", "call": call, "gone": True})
            return
        if watcher is None:
            watcher = RemoteWatcher(
                sender, conn_id, str(payload["name"]), str(payload["player_id"]), self.cluster
            )
            self._remote_watchers[key] = watcher
        raw = payload.get("message")
        message = decode_client(raw) if isinstance(raw, bytes) else None
        extra = payload.get("extra")
        job = Job(
            str(payload["kind"]),
            conn=watcher,
            message=message,
            extra=dict(extra) if isinstance(extra, dict) else {},
        )
        if job.kind == "detach":
            self._remote_watchers.pop(key, None)
        call = payload.get("call")
        job.done = asyncio.get_running_loop().create_future()
        actor.post(job)  # in order with everything else the actor does
        if call is not None:
            cluster = self.cluster

            def answer(done: asyncio.Future[None]) -> None:
                # A job its actor never finished (stopped: the table moved)
                # fails at the caller too, whose client then resumes.
                gone = done.cancelled() or done.exception() is not None
                cluster.publish(sender, {"op": "done", "call": call, "gone": gone})

            job.done.add_done_callback(answer)

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
        log.info("tables handed over")
        if halted:
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
