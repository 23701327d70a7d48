"""The commit path of ``RedisStore`` on Redis Cluster: one pipelined
connection (``server.store.redis_lane``) to each master, a commit sent to
the master of its table's slot.

A commit must be followed by its ``WAIT`` on the same connection, which
redis-py's cluster client cannot promise (it takes any pooled connection of
the node for each command); a lane per master can. The slot map is
redis-py's (``RedisCluster.get_node_from_key``). A lane that answers
``MOVED``, ``ASK``, ``CLUSTERDOWN`` or ``TRYAGAIN`` (the slot moved, a
failover is under way), or whose node is gone, makes the map be read again
and the commit fail with ``ConnectionError``: the store sends it again (it
is safe to repeat) to whichever master holds the slot by then.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError, SlotNotCoveredError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .redis_lane import Arg, RedisLane

_MOVED = ("MOVED", "ASK", "CLUSTERDOWN", "TRYAGAIN")


class ClusterLanes:
    """A lane per Cluster master, chosen by the slot of a script's first key."""

    def __init__(
        self,
        cluster: RedisCluster,
        settings: dict[str, Any],
        timeout: float,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        """``settings``: the user and password every node takes; ``tls``:
        the context of TLS connections (``rediss+cluster://``)."""
        self._cluster = cluster
        self._tls = tls
        self._settings = settings
        self._timeout = timeout
        self._lanes: dict[str, RedisLane] = {}
        self._refreshing: asyncio.Task[None] | None = None

    async def _lane(self, key: str) -> RedisLane:
        if not self._cluster.nodes_manager.slots_cache:
            # The first time only. Later the map in hand serves (a lane that
            # fails reads it again, ``_refresh``): redis-py's client reads it
            # again whenever one of its own commands failed, under a lock, and
            # a read that meets a node that hangs waits out the socket timeout,
            # which must not hold up commits to the masters that are up.
            await self._cluster.initialize()
        try:
            node = self._cluster.get_node_from_key(key)
        except SlotNotCoveredError:
            node = None
        if node is None:  # a slot nobody serves (a failover under way)
            raise RedisConnectionError("no master serves the slot")
        lane = self._lanes.get(node.name)
        if lane is None:
            settings = {**self._settings, "host": node.host, "port": node.port}
            lane = self._lanes[node.name] = RedisLane(settings, self._timeout, tls=self._tls)
        return lane

    async def _refresh(self) -> None:
        """Read the slot map again (one reader at a time)."""
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.create_task(self._cluster.nodes_manager.initialize())
        # A failed read is left to the next try, which reads the map again.
        with contextlib.suppress(RedisError, OSError):
            await asyncio.shield(self._refreshing)

    async def _guarded(self, call: Any) -> Any:
        try:
            return await call
        except ResponseError as exc:
            if not str(exc).startswith(_MOVED):
                raise
            await self._refresh()
            raise RedisConnectionError(f"the slot moved: {exc}") from exc
        except (RedisConnectionError, RedisTimeoutError):
            await self._refresh()
            raise

    async def script(self, source: str, keys: list[str], args: list[Arg]) -> Any:
        """``RedisLane.script`` on the master of ``keys[0]``'s slot."""
        lane = await self._guarded(self._lane(keys[0]))
        return await self._guarded(lane.script(source, keys, args))

    async def script_then_wait(
        self, source: str, keys: list[str], args: list[Arg], replicas: int, wait_ms: int
    ) -> tuple[Any, int]:
        """``RedisLane.script_then_wait`` on the master of ``keys[0]``'s slot."""
        lane = await self._guarded(self._lane(keys[0]))
        result: tuple[Any, int] = await self._guarded(
            lane.script_then_wait(source, keys, args, replicas, wait_ms)
        )
        return result

    async def aclose(self) -> None:
        """Close every lane."""
        for lane in list(self._lanes.values()):
            await lane.aclose()
        self._lanes.clear()
