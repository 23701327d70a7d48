"""Connections to the master Sentinel names, checked to be the master.

redis-py asks the sentinels for the master each time a connection opens
and takes the first sentinel's answer. Right after a failover a sentinel
that has not yet heard of it still names the old master, and once that
node is back (as the new master's replica) it answers: the connection
opens. Writes on it are refused with ``READONLY``, which makes redis-py
drop it, but two things the servers do there never fail:

* ``SPUBLISH`` on a replica succeeds, reaching only that replica's own
  subscribers (a replica does not pass what is published on it to its
  master): a forwarded request from one server process to another is lost,
  again and again, for as long as the pool keeps that connection;
* a subscription there hears only what the master replicates to it.

So a connection of a master pool asks the node its ``ROLE`` as it opens,
and one that is not a master is closed with ``ConnectionError``: the
caller's retry opens another, asking the sentinels again. An ACL user
without the right to ``ROLE`` (it is in ``@admin``) skips the check, with a
warning on each connection: give it ``+role``.
"""

from __future__ import annotations

import logging
from typing import Any

from redis.asyncio.sentinel import SentinelManagedConnection, SentinelManagedSSLConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoPermissionError

log = logging.getLogger("hearts.store")


class NotTheMaster(RedisConnectionError):
    """The node a sentinel named as the master says it is a replica."""


def _role(reply: Any) -> str:
    """The first element of a ``ROLE`` reply, as text."""
    first = reply[0] if isinstance(reply, (list, tuple)) and reply else reply
    return first.decode() if isinstance(first, bytes) else str(first)


class MasterCheckedConnection(SentinelManagedConnection):
    """A Sentinel-managed connection that refuses a master that is not one."""

    async def connect_to(self, address: Any) -> None:
        """Connect to ``address``; if the pool wants the master and the node
        says it is not one, close and raise ``NotTheMaster``."""
        await super().connect_to(address)  # type: ignore[no-untyped-call, unused-ignore]
        if not self.connection_pool.is_master:
            return
        try:
            await self.send_command("ROLE")
            role = _role(await self.read_response())
        except NoPermissionError:
            log.warning(
                "the Redis user may not run ROLE: a sentinel late to see a failover can point a connection at a replica (grant +role)"
            )
            return
        if role != "master":
            await self.disconnect()
            raise NotTheMaster(
                f"{address[0]}:{address[1]} is a {role}, not the master (a sentinel has not seen the failover yet)"
            )


class MasterCheckedSSLConnection(MasterCheckedConnection, SentinelManagedSSLConnection):
    """The same over TLS."""
