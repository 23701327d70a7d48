"""A connection that a job only names: for tests of what a job carries over
the bus, where nothing may be sent to the client itself."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from server.jobs import TableHandle


class AbsentClient:
    """A ``Watcher`` whose identity travels with a job and nothing else:
    any frame, attach or close sent to it fails the test."""

    def __init__(self, name: str = "Ann", player_id: str = "p1", conn_id: str = "c1") -> None:
        self.name = name
        self.player_id = player_id
        self.conn_id = conn_id

    def send(self, message: BaseModel) -> None:
        raise AssertionError(f"sent {message!r} to a client that only travels with a job")

    def send_frame(self, frame: bytes) -> None:
        raise AssertionError("sent a frame to a client that only travels with a job")

    def send_frames(self, frames: Sequence[bytes]) -> None:
        raise AssertionError("sent frames to a client that only travels with a job")

    def attached(self, table: TableHandle, seat: int | None) -> None:
        raise AssertionError("attached a client that only travels with a job")

    def removed(self, table: TableHandle) -> None:
        raise AssertionError("removed a client that only travels with a job")

    def close(self) -> None:
        raise AssertionError("closed a client that only travels with a job")
