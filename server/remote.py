"""The two ends of forwarding a table between processes (see server.cluster).

* ``RemoteTable`` stands in for a ``TableActor`` in a process that does not
  own the table: ``call``/``post`` send the job to the owner over the bus.
* ``RemoteWatcher`` stands in for a client connection in the owner: what the
  actor sends it goes back over the bus to the process holding the socket.

Frames are redacted by the owner's actor before they travel, so a forwarding
process handles bytes it could not read any better than the client itself.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence

from pydantic import BaseModel

from protocol.codec import encode

from .bus import Attached, Close, ForwardedJob, Frame, Removed
from .cluster import Cluster
from .errors import OwnerGone
from .jobs import Attach, Detach, Job, Knock, Request, TableHandle


class RemoteTable:
    """A table owned by another process, reached over the bus."""

    def __init__(
        self, table_id: str, owner: str, cluster: Cluster, calls: dict[str, asyncio.Future[None]]
    ) -> None:
        self.table_id = table_id
        self.owner = owner
        self._cluster = cluster
        self._calls = calls
        self._pending: set[str] = set()

    def _forward(self, job: Job, call_id: str | None) -> None:
        match job:
            case Attach() | Knock() | Request() | Detach():
                self._cluster.publish(
                    self.owner,
                    ForwardedJob.of(job, self.table_id, self._cluster.process_id, call_id),
                )
            case _:
                raise TypeError(f"a {job.kind} job is the owner's own, never forwarded")

    def post(self, job: Job) -> None:
        """Send a job without waiting for it."""
        self._forward(job, None)

    async def call(self, job: Job) -> None:
        """Send a job and wait until the owner has applied it; ``OwnerGone``
        if the owner does not answer within two lease lifetimes."""
        call_id = secrets.token_hex(8)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = future
        self._pending.add(call_id)
        self._forward(job, call_id)
        try:
            await asyncio.wait_for(future, timeout=2 * self._cluster.lease_ms / 1000)
        except TimeoutError:
            raise OwnerGone("the table's server stopped answering") from None
        finally:
            self._calls.pop(call_id, None)
            self._pending.discard(call_id)

    def busy(self) -> bool:
        """Whether a call through this handle is still waiting."""
        return bool(self._pending)

    def abandon(self) -> None:
        """The owner lost the table (it died, or another process took it):
        every call still waiting for it fails now with ``OwnerGone``, so its
        client resumes at once instead of waiting out the timeout (a client
        that reconnected here while the dead owner's lease was still running
        is such a call)."""
        for call_id in list(self._pending):
            future = self._calls.get(call_id)
            if future is not None and not future.done():
                future.set_exception(OwnerGone("the table moved to another server"))


class RemoteWatcher:
    """A client of another process, attached to a table this process owns."""

    def __init__(
        self, process_id: str, conn_id: str, name: str, player_id: str, cluster: Cluster
    ) -> None:
        self.process_id = process_id
        self.conn_id = conn_id
        self.name = name
        self.player_id = player_id
        self._cluster = cluster

    def send(self, message: BaseModel) -> None:
        """Forward a (redacted) message to the client's process."""
        self.send_frame(encode(message))

    def send_frame(self, frame: bytes) -> None:
        """Forward an encoded (redacted) frame to the client's process."""
        self._cluster.publish(self.process_id, Frame(self.conn_id, frame))

    def send_frames(self, frames: Sequence[bytes]) -> None:
        """Forward encoded (redacted) frames, in order (the bus batches what
        is published in one go)."""
        for frame in frames:
            self.send_frame(frame)

    def attached(self, table: TableHandle, seat: int | None) -> None:
        """Tell the client's process where its client sits now."""
        self._cluster.publish(
            self.process_id,
            Attached(self.conn_id, table.table_id, seat, self._cluster.process_id),
        )

    def removed(self, table: TableHandle) -> None:
        """Tell the client's process that its client left the table (kicked)."""
        self._cluster.publish(self.process_id, Removed(self.conn_id, table.table_id))

    def close(self) -> None:
        """Ask the client's process to close the socket (the client resumes)."""
        self._cluster.publish(self.process_id, Close(self.conn_id))
