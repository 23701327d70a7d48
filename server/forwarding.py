"""Forwarding between processes, as the lobby of one process sees it (with a
``Cluster``: several processes on one Redis, docs/architecture.md property 8).

A ``Forwarding`` keeps this process's side of the bus protocol (server.bus):

* the handles (``RemoteTable``) of tables other processes own, which our
  clients reach through them, and the calls waiting on their owners;
* our clients by id, so that frames and notices from an owner find them;
* the stand-ins (``RemoteWatcher``) of other processes' clients attached to
  tables we own, so that their jobs reach our actors;

and answers each bus message (``on_message``). Which process owns which
table is the lobby's concern (server.lobby) and the lease's (server.cluster).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Protocol

from .bus import Attached, Broadcast, BusMessage, Close, Done, ForwardedJob, Frame, Removed
from .cluster import Cluster
from .errors import OwnerGone
from .jobs import Detach, Request, TableHandle, Watcher
from .remote import RemoteTable, RemoteWatcher
from .table_actor import TableActor

log = logging.getLogger("hearts.forwarding")


class Client(Watcher, Protocol):
    """A client connected to this process (server.connection)."""

    actor: TableHandle | None


class Forwarding:
    """This process's end of the bus: handles to remote tables, our clients,
    other processes' clients at our tables."""

    def __init__(self, cluster: Cluster, actors: Mapping[str, TableActor]) -> None:
        self.cluster = cluster
        # The lobby's actors (read only here): where forwarded jobs go.
        self._actors = actors
        self._clients: dict[str, Client] = {}
        self._remote_watchers: dict[tuple[str, str], RemoteWatcher] = {}
        self._calls: dict[str, asyncio.Future[None]] = {}
        self._remotes: dict[str, RemoteTable] = {}

    # -- our clients -------------------------------------------------------

    def register_client(self, conn_id: str, conn: Client) -> None:
        """A client of this process (frames from owners find it by id)."""
        self._clients[conn_id] = conn

    def unregister_client(self, conn_id: str) -> None:
        """The client is gone."""
        self._clients.pop(conn_id, None)

    # -- handles to tables other processes own -----------------------------

    def remote(self, table_id: str, owner: str) -> RemoteTable:
        """The handle to ``table_id`` at process ``owner`` (a new one if the
        table changed owner: clients of the old handle resume)."""
        remote = self._remotes.get(table_id)
        if remote is None or remote.owner != owner:
            # Clients attached through the old handle point at a process
            # that no longer runs the table: move them too.
            self.forget(table_id)
            log.info("table %s is run by process %s: forwarding", table_id, owner)
            remote = RemoteTable(table_id, owner, self.cluster, self._calls)
            self._remotes[table_id] = remote
        return remote

    def remote_tables(self) -> list[str]:
        """The tables we reach through another process."""
        return list(self._remotes)

    def owners_changed(self, owners: Mapping[str, str | None]) -> None:
        """The lease holders read now: handles to an owner that no longer
        holds its table are dropped, with their clients (they resume)."""
        for table_id, owner in owners.items():
            remote = self._remotes.get(table_id)
            if remote is not None and owner != remote.owner:
                del self._remotes[table_id]
                self._drop_clients_of(remote)

    def forget(self, table_id: str) -> None:
        """We run the table now (or reach it elsewhere): clients attached
        through the old owner reconnect and resume."""
        remote = self._remotes.pop(table_id, None)
        if remote is not None:
            self._drop_clients_of(remote)

    def prune(self) -> None:
        """Forget handles nobody uses any more (finished tables)."""
        used = {id(conn.actor) for conn in self._clients.values()}
        for table_id, remote in list(self._remotes.items()):
            if id(remote) not in used and not remote.busy():
                del self._remotes[table_id]

    def resync_all(self) -> None:
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
            if id(conn.actor) in dropped:
                conn.close()

    # -- other processes' clients at our tables ------------------------------

    async def detach_dead_forwarders(self) -> None:
        """Clients that reached our tables through a process that has died
        never send their detach: detach them here, so their seats go away,
        the grace period runs and a bot covers (else the table would wait
        for them for ever)."""
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
                    actor.post(Detach(watcher))
        for dead in set(senders) - alive:
            log.info("process %s is gone: its clients here are detached", dead)
            self.cluster.forget_process(dead)

    # -- the bus -----------------------------------------------------------

    async def on_message(self, message: BusMessage) -> None:
        """A message from another process (server.cluster)."""
        match message:
            case ForwardedJob():
                self._run_job(message)
            case Frame(conn_id, frame):
                conn = self._clients.get(conn_id)
                if conn is not None:
                    conn.send_frame(frame)
            case Attached(conn_id, table_id, seat, owner):
                self._attached(conn_id, table_id, seat, owner)
            case Removed(conn_id, table_id):
                conn = self._clients.get(conn_id)
                remote = self._remotes.get(table_id)
                if conn is not None and remote is not None:
                    conn.removed(remote)
            case Close(conn_id):
                conn = self._clients.get(conn_id)
                if conn is not None:
                    conn.close()
            case Broadcast(frame):
                for conn in list(self._clients.values()):
                    conn.send_frame(frame)
            case Done(call, gone):
                self._done(call, gone)

    def _done(self, call: str, gone: bool) -> None:
        # The owner answered a forwarded call: settled, or the table is gone.
        future = self._calls.get(call)
        if future is None or future.done():
            return
        if gone:
            future.set_exception(OwnerGone("the table moved to another server"))
        else:
            future.set_result(None)

    def _attached(self, conn_id: str, table_id: str, seat: int | None, owner: str) -> None:
        """Owner ``owner`` attached our client ``conn_id`` at ``seat``."""
        conn = self._clients.get(conn_id)
        if conn is None:
            return
        remote = self._remotes.get(table_id)
        if remote is None:
            # The handle was pruned while the attach was on its way.
            remote = RemoteTable(table_id, owner, self.cluster, self._calls)
            self._remotes[table_id] = remote
        if owner != remote.owner:
            conn.close()  # attached by a process that no longer runs the table
        else:
            conn.attached(remote, seat)

    def _run_job(self, message: ForwardedJob) -> None:
        """A job from another process's client, for a table we own: run it
        in order with everything else the actor does, and answer ``Done``."""
        sender, conn_id, call = message.sender, message.conn, message.call
        actor = self._actors.get(message.table)
        key = (sender, conn_id)
        watcher = self._remote_watchers.get(key)
        # Not ours (any more), or a client we had detached (its process
        # looked dead): the sender's client must resume (a closing process
        # still takes jobs for the tables it has not handed over yet).
        if actor is None or (watcher is None and message.kind == Request.kind):
            self._remote_watchers.pop(key, None)
            self.cluster.publish(sender, Close(conn_id))
            if call is not None:
                self.cluster.publish(sender, Done(call, gone=True))
            return
        if watcher is None:
            watcher = RemoteWatcher(sender, conn_id, message.name, message.player_id, self.cluster)
            self._remote_watchers[key] = watcher
        job = message.job(watcher)
        if isinstance(job, Detach):
            self._remote_watchers.pop(key, None)
        done = actor.submit(job)
        if call is not None:
            cluster = self.cluster

            def answer(done: asyncio.Future[None]) -> None:
                # A job its actor never finished (stopped: the table moved)
                # fails at the caller too, whose client then resumes.
                gone = done.cancelled() or done.exception() is not None
                cluster.publish(sender, Done(call, gone))

            done.add_done_callback(answer)
