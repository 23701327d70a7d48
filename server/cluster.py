"""Scale-out over one Redis: table leases and a bus between server processes.

Several ``hearts serve --redis URL`` processes share one Redis (docs/architecture.md
property 8). Any process accepts any client; a table is run by one process at
a time, its **owner**:

* **Lease.** The owner holds the table's lease key (in the table's hash
  slot, ``server.store.redis_keys``) = its process id,
  set with ``SET NX PX`` and renewed every third of its lifetime by a Lua
  compare-and-expire. A process that misses a renewal (crashed, paused,
  partitioned) loses the table when the lease expires; another process takes
  it and reloads the table from the store.
* **Heartbeat.** Each process also keeps its ``alive`` key (renewed
  with its leases, in one pipelined round trip). An owner whose table has
  clients forwarded from a process whose heartbeat stopped detaches them, so
  their seats go away and bots cover instead of the table waiting for ever.
* **Fencing.** Every commit names its owner and the store's commit script
  refuses it unless the lease still names that owner (server.store), so a
  stale owner that wakes up after a pause can never write over the new one.
* **Forwarding.** A process that does not own a table forwards its clients'
  jobs to the owner over Redis sharded pub/sub (``SPUBLISH``/``SSUBSCRIBE``,
  one channel per process, in the process's own hash slot); the owner runs them and publishes the (already redacted)
  frames back to the client's process, which puts them in that client's send
  queue. Messages to one process go through one queue and one publisher task,
  so they keep their order; whatever has queued up while the previous PUBLISH
  was in flight goes out as one batch (one round trip for many frames, which
  is what keeps forwarding cheap when a table is busy). What travels is
  defined, encoded and decoded in server.bus; server.forwarding answers it.

Pub/sub is the mechanism because it is in Redis already, costs no polling,
and what it may lose is what a dead process would lose anyway: a process that
misses frames gets its clients back through their ordinary resume. Messages
are lost while a process's subscription is down (Redis restarting), so when
it subscribes again it tells its forwarded clients to resume
(``on_resubscribed``), and they get what they missed from the table's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterPubSub, RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError

from common.retry import Backoff

from .bus import BusMessage, decode, decode_batch, encode_batch
from .store.base import StoreError
from .store.redis_keys import Keyspace
from .store.redis_store import REDIS_ERRORS, KeyedScript

log = logging.getLogger("hearts.cluster")

# Most messages one PUBLISH carries: bounds a batch's size (frames are at
# most a few KiB) while a backlog drains.
BATCH_MAX = 256
# Leases read per MGET when the watchdog looks for orphaned tables.
OWNERS_BATCH = 500

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

Handler = Callable[[BusMessage], Awaitable[None]]


def _outcome(task: asyncio.Future[Any]) -> object:
    """A finished task's result, or the error it met (cancelled: timed out)."""
    if task.cancelled():
        return TimeoutError("no answer within a third of the lease")
    error = task.exception()
    return error if error is not None else task.result()


class Cluster:
    """This process's membership: its id, its leases, its bus."""

    def __init__(
        self,
        redis: Redis,
        keys: Keyspace | None = None,
        lease_ms: int = 4000,
        *,
        bus: Redis | None = None,
        scripts: KeyedScript | None = None,
    ) -> None:
        """``redis``: the client for leases and publishing; ``bus``: the
        one the bus subscribes through (``redis`` if None); ``scripts``:
        a runner of a script on its key's master (``RedisStore.per_master_scripts``),
        with which each lease is renewed on its own master, so a dead
        master delays only the leases in its slots (None: one pipeline)."""
        self.redis = redis
        self.bus = bus if bus is not None else redis
        self._scripts = scripts
        self.keys = keys if keys is not None else Keyspace()
        self.lease_ms = lease_ms
        self.process_id = secrets.token_hex(6)
        self.owned: set[str] = set()
        self.on_lost: Callable[[str], Awaitable[None]] | None = None
        self.on_resubscribed: Callable[[], None] | None = None
        self._release = redis.register_script(_RELEASE)
        self._handler: Handler | None = None
        self._outboxes: dict[str, asyncio.Queue[BusMessage]] = {}
        self._drains: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False

    def lease_key(self, table_id: str) -> str:
        """The Redis key of a table's lease (the store's commit checks it)."""
        return self.keys.lease(table_id)

    def channel(self, process_id: str) -> str:
        """The pub/sub channel a process listens on."""
        return self.keys.channel(process_id)

    # -- leases ------------------------------------------------------------------

    async def acquire(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it (or we already do);
        ``StoreError`` if Redis does not answer."""
        key = self.lease_key(table_id)
        try:
            got = await self.redis.set(key, self.process_id, nx=True, px=self.lease_ms)
        except REDIS_ERRORS as exc:
            raise StoreError("the table store is unreachable") from exc
        if not got:
            got = await self.owner(table_id) == self.process_id
        if got:
            self.owned.add(table_id)
        return bool(got)

    async def owner(self, table_id: str) -> str | None:
        """The process holding the table's lease, if any; ``StoreError`` if
        Redis does not answer."""
        try:
            value = await self.redis.get(self.lease_key(table_id))
        except REDIS_ERRORS as exc:
            raise StoreError("the table store is unreachable") from exc
        if isinstance(value, bytes):
            return value.decode()
        return value or None

    async def owners(self, table_ids: list[str]) -> dict[str, str | None]:
        """The lease holder of each table, read in batches (one round trip
        per ``OWNERS_BATCH`` tables, not one per table)."""
        found: dict[str, str | None] = {}
        for start in range(0, len(table_ids), OWNERS_BATCH):
            chunk = table_ids[start : start + OWNERS_BATCH]
            try:
                values = await self._get_many([self.lease_key(t) for t in chunk])
            except REDIS_ERRORS as exc:
                raise StoreError("the table store is unreachable") from exc
            for table_id, value in zip(chunk, values, strict=True):
                found[table_id] = value.decode() if isinstance(value, bytes) else None
        return found

    async def release(self, table_id: str) -> None:
        """Give the lease back (a clean shutdown hands tables over at once)."""
        self.owned.discard(table_id)
        with contextlib.suppress(*REDIS_ERRORS):
            await self._release(keys=[self.lease_key(table_id)], args=[self.process_id])

    def alive_key(self, process_id: str) -> str:
        """The key that says a process is alive (it renews it with its leases)."""
        return self.keys.alive(process_id)

    async def alive(self, process_ids: list[str]) -> set[str]:
        """Which of these processes are alive (renewed their heartbeat within
        a lease lifetime); ``StoreError`` if Redis does not answer."""
        try:
            values = await self._get_many([self.alive_key(p) for p in process_ids])
        except REDIS_ERRORS as exc:
            raise StoreError("the table store is unreachable") from exc
        return {p for p, v in zip(process_ids, values, strict=True) if v is not None}

    async def _get_many(self, keys: list[str]) -> list[Any]:
        """GET of each key in one pipeline (not MGET: the keys lie in many
        hash slots, which Redis Cluster serves from several nodes)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.get(key)
            return list(await pipe.execute())

    async def members(self) -> list[str]:
        """The processes whose heartbeat is alive now, this one included."""
        head, _, tail = self.keys.alive("*").partition("*")
        found = [
            (key.decode() if isinstance(key, bytes) else str(key))
            async for key in self.redis.scan_iter(match=head + "*" + tail, count=500)
        ]
        return sorted({key.removeprefix(head).removesuffix(tail) for key in found})

    async def _renew_forever(self) -> None:
        while not self._stopping:
            try:
                await self._renew_all()
            except REDIS_ERRORS as exc:
                log.warning("lease renewal failed: %s", exc)  # Redis may be back in time
            await asyncio.sleep(self.lease_ms / 3000)  # a third of the lease: two chances to renew

    async def _renew_all(self) -> None:
        """Renew the heartbeat and every lease in one round trip (one per
        master on a Cluster; one at a time, a few thousand tables would take
        longer than a lease lives)."""
        owned = list(self.owned)
        if self._scripts is not None:
            results = await self._renew_per_master(owned, self._scripts)
        else:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(self.alive_key(self.process_id), 1, px=self.lease_ms)
                for table_id in owned:
                    # EVAL, not EVALSHA: a pipeline cannot load a script
                    # Redis does not know (a restarted Redis).
                    pipe.eval(_RENEW, 1, self.lease_key(table_id), self.process_id, self.lease_ms)
                results = list(await pipe.execute())[1:]
        failed: list[BaseException] = []
        for table_id, kept in zip(owned, results, strict=True):
            if isinstance(kept, BaseException):
                # Unknown whether it was renewed (its master is down or
                # moving): tried again next round. Fencing keeps a lease
                # that lapsed meanwhile from being written under.
                failed.append(kept)
            elif not kept and table_id in self.owned:
                log.warning("lost the lease of table %s", table_id)
                self.owned.discard(table_id)
                if self.on_lost is not None:
                    await self.on_lost(table_id)
        if failed:
            log.warning(
                "lease renewal failed for %d of %d tables: %s", len(failed), len(owned), failed[0]
            )

    async def _renew_per_master(self, owned: list[str], scripts: KeyedScript) -> list[object]:
        """The heartbeat and each lease renewed on its own master, all at
        once (each master's in one round trip on its lane): what a dead
        master's slots hold fails alone, and a round that waits longer than
        a third of a lease gives up on what is still pending, so a master
        that does not answer never keeps the others' leases from being
        renewed in time. Each lease's reply, or the error it met."""
        heartbeat = asyncio.ensure_future(
            self.redis.set(self.alive_key(self.process_id), 1, px=self.lease_ms)
        )
        renewals = [
            asyncio.ensure_future(
                scripts(_RENEW, [self.lease_key(t)], [self.process_id, self.lease_ms])
            )
            for t in owned
        ]
        everything = [heartbeat, *renewals]
        _, pending = await asyncio.wait(everything, timeout=self.lease_ms / 3000)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if heartbeat.cancelled() or heartbeat.exception() is not None:
            log.warning("heartbeat not renewed: %s", _outcome(heartbeat))
        return [_outcome(task) for task in renewals]

    # -- the bus -------------------------------------------------------------------

    async def start(self, handler: Handler) -> None:
        """Listen on this process's channel and keep leases alive."""
        self._handler = handler
        await self.redis.set(self.alive_key(self.process_id), 1, px=self.lease_ms)
        ready = asyncio.get_running_loop().create_future()
        self._spawn(self._listen_forever(ready))
        self._spawn(self._renew_forever())
        await ready

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _listen_forever(self, ready: asyncio.Future[None]) -> None:
        backoff = Backoff(0.1, 2.0)
        while not self._stopping:
            pubsub = self.bus.pubsub(ignore_subscribe_messages=True)
            try:
                if isinstance(self.bus, RedisCluster):
                    await self.bus.initialize()  # its slot map, once
                # Sharded pub/sub: on Redis Cluster a channel lives on the
                # node of its slot (the process's own), not on every node.
                await pubsub.ssubscribe(self.channel(self.process_id))
                if not ready.done():
                    ready.set_result(None)
                elif self.on_resubscribed is not None:
                    # Whatever was published to us while we were away is
                    # lost: our forwarded clients must resync.
                    self.on_resubscribed()
                backoff.reset()
                async for item in self._messages(pubsub):
                    if item.get("type") == "sunsubscribe":
                        # Redis dropped the subscription (the slot moved to
                        # another node): subscribe again where it is now.
                        raise RedisConnectionError("the bus channel moved")
                    if item.get("type") == "smessage":
                        await self._deliver(item["data"])
            except (*REDIS_ERRORS, OSError) as exc:
                log.warning("bus connection lost (%s); reconnecting", exc)
                await asyncio.sleep(backoff.next())  # back off while Redis restarts
                if isinstance(self.bus, RedisCluster):
                    # Nothing else uses the bus's client: it must learn by
                    # itself which master serves the channel's slot now.
                    with contextlib.suppress(*REDIS_ERRORS, OSError):
                        await self.bus.nodes_manager.initialize()
            finally:
                with contextlib.suppress(Exception):
                    # Untyped before redis-py 8, typed since: either is clean.
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]

    async def _deliver(self, data: bytes) -> None:
        """Hand one published batch's messages to the handler; one bad
        message must not stop the bus (nor the rest of its batch)."""
        try:
            batch = decode_batch(data)
        except ValueError:
            log.exception("unreadable bus message")
            return
        for payload in batch:
            try:
                message = decode(payload)
                if self._handler is not None:
                    await self._handler(message)
            except Exception:
                log.exception("bus message failed")

    @staticmethod
    async def _messages(pubsub: Any) -> AsyncIterator[dict[str, Any]]:
        """What arrives on the subscription: a lone Redis's pub/sub reads
        its one connection; a Cluster's reads the node of the channel's slot."""
        if isinstance(pubsub, ClusterPubSub):
            while True:
                item = await pubsub.get_sharded_message(timeout=1.0)
                if item is not None:
                    yield item
        else:
            async for item in pubsub.listen():
                yield item

    def publish(self, process_id: str, message: BusMessage) -> None:
        """Queue a message for another process (order kept per destination)."""
        queue = self._outboxes.get(process_id)
        if queue is None:
            queue = asyncio.Queue()
            self._outboxes[process_id] = queue
            task = asyncio.create_task(self._drain(process_id, queue))
            self._drains[process_id] = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        queue.put_nowait(message)

    def forget_process(self, process_id: str) -> None:
        """A process is gone for good (ids are new at every start): drop
        its outbox and its publisher task."""
        self._outboxes.pop(process_id, None)
        task = self._drains.pop(process_id, None)
        if task is not None:
            task.cancel()

    async def _drain(self, process_id: str, queue: asyncio.Queue[BusMessage]) -> None:
        channel = self.channel(process_id)
        # Whether the last batch found nobody listening for as long as we
        # waited: the next is published once, not waited with (a process
        # that died does not make every message to it wait).
        unheard = False
        while not self._stopping:
            batch = [await queue.get()]
            while not queue.empty() and len(batch) < BATCH_MAX:
                batch.append(queue.get_nowait())
            data = encode_batch(batch)
            try:
                unheard = not await self._publish(channel, data, wait_for_listener=not unheard)
            finally:
                for _ in batch:
                    queue.task_done()

    async def _publish(self, channel: str, data: bytes, wait_for_listener: bool) -> bool:
        """SPUBLISH until Redis takes it; whether someone received it.

        Nobody receiving it means the destination's subscription is down:
        its channel's master failed over and it has not subscribed again on
        the new one yet (or it died). The message would be lost, and with it
        a forwarded request, whose client would wait for the caller's
        timeout, so it is sent again for up to two lease lifetimes (what
        that timeout is) while ``wait_for_listener``. The subscription is
        on the channel's master, which counts every receiver: a message
        counted once was received, and is never sent twice."""
        backoff = Backoff(0.1, 2.0)
        listener = Backoff(0.05, 0.5)
        give_up = time.monotonic() + 2 * self.lease_ms / 1000
        while not self._stopping:
            try:
                received = await self.redis.spublish(channel, data)
            except REDIS_ERRORS:
                # Redis restarting: keep trying (a dropped detach would
                # leave a seat "connected" for ever).
                await asyncio.sleep(backoff.next())
                continue
            if received or not wait_for_listener or time.monotonic() >= give_up:
                return bool(received)
            await asyncio.sleep(listener.next())  # until its process subscribes again
        return False

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait (at most ``timeout`` seconds) until every queued message has
        been published: a stopping process's last words (clients told to
        resume elsewhere) must leave before the bus stops."""
        waits = [queue.join() for queue in self._outboxes.values()]
        if waits:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*waits), timeout)

    async def stop(self) -> None:
        """Release every lease, deliver what is queued, and stop the bus."""
        for table_id in list(self.owned):
            await self.release(table_id)
        await self.flush()
        self._stopping = True
        with contextlib.suppress(*REDIS_ERRORS):
            await self.redis.delete(self.alive_key(self.process_id))
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
