"""The msgpack codec: the only place that knows frames are msgpack.

``encode`` turns any wire model into a binary frame; ``decode_client`` and
``decode_server`` turn a frame back into a validated model or raise a
``ProtocolError`` whose message is safe to send back (it names the first
invalid field, never our internals).
"""

from __future__ import annotations

from typing import Any

import msgpack
from pydantic import BaseModel, TypeAdapter, ValidationError

from .client_messages import ClientMessage
from .common import MAX_FRAME_BYTES
from .errors import BadFrame, BadMessage, FrameTooLarge, UnknownType
from .server_messages import ServerMessage

_CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
_SERVER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
_CLIENT_TYPES = frozenset(
    m.model_fields["type"].default
    for m in ClientMessage.__origin__.__args__  # type: ignore[attr-defined]
)
_SERVER_TYPES = frozenset(
    m.model_fields["type"].default
    for m in ServerMessage.__origin__.__args__  # type: ignore[attr-defined]
)


def encode(message: BaseModel) -> bytes:
    """A binary frame for ``message``."""
    return msgpack.packb(message.model_dump(mode="json"), use_bin_type=True)  # type: ignore[no-any-return]


def encode_snapshot(seq: int, view: dict[str, Any]) -> bytes:
    """The frame of ``Snapshot(seq=seq, view=…)`` from the view's wire form
    (``server.redaction.wire_views``): the same bytes as ``encode`` of the
    model, without building it (the server's fan-out path)."""
    data: bytes = msgpack.packb({"type": "snapshot", "seq": seq, "view": view}, use_bin_type=True)
    return data


def _unpack(frame: bytes | str, limit: int) -> dict[str, Any]:
    if isinstance(frame, str):
        raise BadFrame("frames must be binary msgpack, not text")
    if len(frame) > limit:
        raise FrameTooLarge(f"frames are limited to {limit} bytes")
    try:
        data = msgpack.unpackb(
            frame,
            raw=False,
            strict_map_key=True,
            # Bound every container by the frame size: a tiny frame cannot
            # announce a huge array and make us allocate it.
            max_str_len=limit,
            max_bin_len=limit,
            max_array_len=limit,
            max_map_len=limit,
            max_ext_len=0,
        )
    except Exception:  # msgpack raises several unrelated types for bad input
        raise BadFrame("the frame is not valid msgpack") from None
    if not isinstance(data, dict):
        raise BadMessage("a message must be a map with a 'type' field")
    return data


def _validate(adapter: TypeAdapter[Any], types: frozenset[str], data: dict[str, Any]) -> Any:
    kind = data.get("type")
    if not isinstance(kind, str):
        raise BadMessage("a message must be a map with a 'type' field")
    if kind not in types:
        raise UnknownType(f"unknown message type {kind[:40]!r}")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise BadMessage(f"{kind}: {where}: {first['msg']}") from None


def decode_client(frame: bytes | str, limit: int = MAX_FRAME_BYTES) -> ClientMessage:
    """A client frame as a validated message; raises ``ProtocolError``."""
    return _validate(_CLIENT, _CLIENT_TYPES, _unpack(frame, limit))  # type: ignore[no-any-return]


def decode_server(frame: bytes | str, limit: int = 4 * 1024 * 1024) -> ServerMessage:
    """A server frame as a validated message (used by our clients)."""
    return _validate(_SERVER, _SERVER_TYPES, _unpack(frame, limit))  # type: ignore[no-any-return]


def request_id_of(frame: bytes | str) -> int | str | None:
    """Best effort: the ``id`` of a frame that failed validation, so the error
    reply can still name the request."""
    try:
        data = _unpack(frame, MAX_FRAME_BYTES)
    except Exception:
        return None
    rid = data.get("id")
    if isinstance(rid, int) and not isinstance(rid, bool):
        return rid
    if isinstance(rid, str) and 0 < len(rid) <= 64:
        return rid
    return None
