"""The messages server processes send each other over the cluster bus
(server.cluster), and the one place that encodes and decodes them.

Each message is a frozen dataclass; ``encode_batch`` turns a batch into the
bytes of one SPUBLISH and ``decode_batch`` / ``decode`` turn them back. The
wire form is a msgpack map with an ``op`` (a lone message as a bare map,
several as one list): what processes of the previous release send and read,
so a rolling restart mixes releases safely.

| message | from → to | says |
| --- | --- | --- |
| ``ForwardedJob`` | client's process → owner | a client's job for a table the owner runs |
| ``Frame`` | owner → client's process | an encoded (already redacted) frame for one client |
| ``Attached`` | owner → client's process | the client now sits at ``seat`` (None: watches) |
| ``Removed`` | owner → client's process | the client was kicked from the table |
| ``Close`` | owner → client's process | close the client: it resumes wherever the table is |
| ``Done`` | owner → client's process | a forwarded call was applied (or ``gone``: never will be) |
| ``Broadcast`` | any → every other process | an encoded frame for every client of the receiver (an operator's notice) |
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack

from protocol import client_messages as cm
from protocol.codec import decode_client, encode

from .jobs import Attach, Detach, FromConnection, Knock, Request, Watcher


@dataclass(frozen=True, slots=True)
class ForwardedJob:
    """A client's job, on its way to the table's owner. ``call`` names the
    caller waiting for ``Done`` (None: nobody waits)."""

    table: str
    sender: str
    conn: str
    name: str
    player_id: str
    kind: str
    message: bytes | None
    mode: str | None
    call: str | None
    program: bool = False  # an attach from a program (hello's ``program``)

    @classmethod
    def of(cls, job: FromConnection, table: str, sender: str, call: str | None) -> ForwardedJob:
        """What travels of ``job``: the client's id, name and player id, the
        request as the client sent it, an attach's mode. Never a host's seat
        token (hosting is local: the lobby that made the table runs it)."""
        conn = job.conn
        match job:
            case Attach():
                message: cm.ClientMessage | None = job.message
                mode: str | None = job.mode
                program = job.program
            case Knock() | Request():
                message, mode, program = job.message, None, False
            case Detach():
                message, mode, program = None, None, False
        return cls(
            table=table,
            sender=sender,
            conn=conn.conn_id,
            name=conn.name,
            player_id=conn.player_id,
            kind=job.kind,
            message=encode(message) if message is not None else None,
            mode=mode,
            call=call,
            program=program,
        )

    def job(self, conn: Watcher) -> FromConnection:
        """The job again, from ``conn`` (the owner's stand-in for the
        client); ``ValueError`` if it is not one a client may send."""
        message = decode_client(self.message) if self.message is not None else None
        match self.kind, message:
            case "detach", _:
                return Detach(conn)
            case "request", _ if message is not None:
                return Request(conn, message)
            case "knock", cm.Knock():
                return Knock(conn, message)
            case "attach", cm.JoinTable() | cm.Watch() | cm.Resume() | cm.CreateTable() if (
                self.mode in ("join", "watch", "resume", "again")
            ):
                return Attach(conn, message, self.mode, program=self.program)  # type: ignore[arg-type]
        raise ValueError(f"a forwarded {self.kind!r} job that no client sends")


@dataclass(frozen=True, slots=True)
class Frame:
    """An encoded frame for client ``conn`` of the receiving process."""

    conn: str
    frame: bytes


@dataclass(frozen=True, slots=True)
class Attached:
    """Client ``conn`` is now at ``seat`` (None: watching) of ``table``,
    attached by process ``owner``."""

    conn: str
    table: str
    seat: int | None
    owner: str


@dataclass(frozen=True, slots=True)
class Removed:
    """Client ``conn`` was removed from ``table`` (kicked)."""

    conn: str
    table: str


@dataclass(frozen=True, slots=True)
class Close:
    """Close client ``conn``: it resumes, wherever the table is now."""

    conn: str


@dataclass(frozen=True, slots=True)
class Done:
    """The forwarded job of ``call`` was applied, or (``gone``) never will
    be: the table moved."""

    call: str
    gone: bool


@dataclass(frozen=True, slots=True)
class Broadcast:
    """An encoded frame for every client of the receiving process (the
    operator's notice, sent once for the whole cluster). A process of the
    previous release does not know it and drops it."""

    frame: bytes


BusMessage = ForwardedJob | Frame | Attached | Removed | Close | Done | Broadcast


def _wire(message: BusMessage) -> dict[str, Any]:
    match message:
        case ForwardedJob():
            return {
                "op": "job",
                "table": message.table,
                "from": message.sender,
                "conn": message.conn,
                "name": message.name,
                "player_id": message.player_id,
                "kind": message.kind,
                "message": message.message,
                "extra": _extra(message),
                "call": message.call,
            }
        case Frame(conn, frame):
            return {"op": "frame", "conn": conn, "frame": frame}
        case Attached(conn, table, seat, owner):
            return {"op": "attached", "conn": conn, "table": table, "seat": seat, "owner": owner}
        case Removed(conn, table):
            return {"op": "removed", "conn": conn, "table": table}
        case Close(conn):
            return {"op": "close", "conn": conn}
        case Done(call, gone):
            return {"op": "done", "call": call, "gone": gone}
        case Broadcast(frame):
            return {"op": "broadcast", "frame": frame}


def _extra(job: ForwardedJob) -> dict[str, Any]:
    # "program" only when set: a process of the previous release reads the
    # same map (and ignores the key).
    extra: dict[str, Any] = {} if job.mode is None else {"mode": job.mode}
    if job.program:
        extra["program"] = True
    return extra


def encode_batch(batch: list[BusMessage]) -> bytes:
    """The bytes of one SPUBLISH: a lone message as a bare map, several as a list."""
    maps = [_wire(m) for m in batch]
    return msgpack.packb(maps[0] if len(maps) == 1 else maps, use_bin_type=True)  # type: ignore[no-any-return]


def decode_batch(data: bytes) -> list[Any]:
    """The raw messages of one SPUBLISH, each to ``decode`` (one bad message
    must not cost the others); ``ValueError`` if the bytes are not msgpack."""
    try:
        batch = msgpack.unpackb(data, raw=False)
    except Exception as exc:  # msgpack raises several kinds of its own
        raise ValueError(f"unreadable bus message: {exc}") from exc
    return batch if isinstance(batch, list) else [batch]


def _text(payload: dict[str, Any], key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str):
        raise ValueError(f"bus message without a text {key!r}")
    return value


def _optional_text(payload: dict[str, Any], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) else None


def _bytes(payload: dict[str, Any], key: str) -> bytes:
    value = payload.get(key)
    if not isinstance(value, bytes):
        raise ValueError(f"a {payload.get('op')} message without its {key} bytes")
    return value


def _forwarded_job(payload: dict[str, Any]) -> ForwardedJob:
    raw = payload.get("message")
    extra = payload.get("extra")
    if not isinstance(extra, dict):
        extra = {}
    mode = extra.get("mode")
    return ForwardedJob(
        table=_text(payload, "table"),
        sender=_text(payload, "from"),
        conn=_text(payload, "conn"),
        name=_text(payload, "name"),
        player_id=_text(payload, "player_id"),
        kind=_text(payload, "kind"),
        message=raw if isinstance(raw, bytes) else None,
        mode=mode if isinstance(mode, str) else None,
        call=_optional_text(payload, "call"),
        program=extra.get("program") is True,
    )


def decode(payload: Any) -> BusMessage:
    """One message of a batch; ``ValueError`` if it is not one we know."""
    if not isinstance(payload, dict):
        raise ValueError("a bus message is a map")
    match payload.get("op"):
        case "job":
            return _forwarded_job(payload)
        case "frame":
            return Frame(_text(payload, "conn"), _bytes(payload, "frame"))
        case "attached":
            seat = payload.get("seat")
            return Attached(
                _text(payload, "conn"),
                _text(payload, "table"),
                seat if isinstance(seat, int) else None,
                _text(payload, "owner"),
            )
        case "removed":
            return Removed(_text(payload, "conn"), _text(payload, "table"))
        case "close":
            return Close(_text(payload, "conn"))
        case "done":
            return Done(_text(payload, "call"), bool(payload.get("gone")))
        case "broadcast":
            return Broadcast(_bytes(payload, "frame"))
    raise ValueError(f"unknown bus message {payload.get('op')!r}")
