"""The msgpack codec: the only place that knows frames are msgpack.

``encode`` turns any wire model into a binary frame; ``decode_client`` and
``decode_server`` turn a frame back into a validated model or raise a
``ProtocolError`` whose message is safe to send back (it names the first
invalid field, never our internals).

Client frames are validated strictly: msgpack arrays are read as tuples (the
models' array type), every map key must be a string and appear once, and
pydantic runs in strict mode down to the nested rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar

import msgpack
from pydantic import BaseModel, TypeAdapter, ValidationError

from .client_messages import ClientMessage
from .common import MAX_FRAME_BYTES, MAX_REQUEST_ID_CHARS, MAX_SAFE_INT
from .errors import BadFrame, BadMapKey, BadMessage, FrameTooLarge, ProtocolError, UnknownType
from .field_errors import describe
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
    (``protocol.seat_view.wire_views``): the same bytes as ``encode`` of the
    model, without building it (the server's fan-out path)."""
    data: bytes = msgpack.packb({"type": "snapshot", "seq": seq, "view": view}, use_bin_type=True)
    return data


K = TypeVar("K")


def encode_snapshots(
    seq: int, public: dict[str, Any], views: Mapping[K, dict[str, Any]]
) -> dict[K, bytes]:
    """The snapshot frame of each of ``views`` (seat views of one moment,
    each ``public`` with a seat's own fields laid over a copy, as
    ``server.redaction.wire_views`` makes them): for each the same bytes as
    ``encode_snapshot``, with what the views share packed once.

    A msgpack map is its header and then its keys and values one after
    another, so a view's frame is a run of fields packed once for all the
    views (those whose value is the very object of ``public``) between the
    fields packed for each view. A view whose keys are not ``public``'s in
    the same order is packed whole."""
    order = list(public)
    owned = _owned_keys(order, public, views)
    if not owned:  # every view is the public one
        frame = encode_snapshot(seq, public)
        return dict.fromkeys(views, frame)
    runs = _runs(order, owned, public)
    head = _snapshot_head(seq, len(order))
    frames: dict[K, bytes] = {}
    for name, view in views.items():
        if len(view) != len(order) or list(view) != order:
            frames[name] = encode_snapshot(seq, view)
            continue
        parts = [head]
        for run in runs:
            parts.append(run if isinstance(run, bytes) else _pairs({k: view[k] for k in run}))
        frames[name] = b"".join(parts)
    return frames


def _owned_keys(
    order: list[str], public: dict[str, Any], views: Mapping[K, dict[str, Any]]
) -> set[str]:
    """The keys some view holds its own value for (not ``public``'s object)."""
    owned: set[str] = set()
    for view in views.values():
        if len(view) == len(order):
            owned.update([k for k, v in view.items() if v is not public.get(k, view)])
    return owned


def _runs(order: list[str], owned: set[str], public: dict[str, Any]) -> list[bytes | list[str]]:
    """Runs of fields, shared (packed once here) and own (packed per view),
    alternating: the shared runs' bytes and each own run's keys."""
    runs: list[bytes | list[str]] = []
    current: dict[str, Any] = {}
    own: list[str] | None = None
    for key in order:
        if key not in owned:
            current[key] = public[key]
            own = None
            continue
        if current:
            runs.append(_pairs(current))
            current = {}
        if own is None:
            own = []
            runs.append(own)
        own.append(key)
    if current:
        runs.append(_pairs(current))
    return runs


def _pairs(fields: dict[str, Any]) -> bytes:
    """The keys and values of a map as msgpack packs them, without the map's
    header (1 byte up to 15 entries, 3 up to 65,535)."""
    packed: bytes = msgpack.packb(fields, use_bin_type=True)
    return packed[1 if len(fields) < 16 else 3 :]


def _snapshot_head(seq: int, fields: int) -> bytes:
    """A snapshot frame up to its view's first field: the outer map, its
    ``type`` and ``seq``, the ``view`` key and the view map's header."""
    outer: bytes = msgpack.packb({"type": "snapshot", "seq": seq, "view": {}}, use_bin_type=True)
    # The empty map's one byte replaced by the view's map header (fixmap,
    # map 16 or map 32, as msgpack's spec and packer have it).
    if fields < 16:
        header = bytes((0x80 | fields,))
    elif fields < 1 << 16:
        header = b"\xde" + fields.to_bytes(2, "big")
    else:
        header = b"\xdf" + fields.to_bytes(4, "big")
    return outer[:-1] + header


_MSGPACK_KINDS: dict[type, str] = {
    int: "an integer",
    float: "a float",
    bool: "a boolean",
    bytes: "binary data",
    tuple: "an array",
    list: "an array",
    dict: "a map",
    type(None): "nil",
}


def _named_fields(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    """A msgpack map of a client frame as a dict (msgpack's
    ``object_pairs_hook``): keys must be strings, each at most once."""
    fields: dict[str, Any] = {}
    for key, value in pairs:
        if not isinstance(key, str):
            kind = _MSGPACK_KINDS.get(type(key), "a value that is not a string")
            raise BadMapKey(f"map keys must be strings; this frame has {kind} as a key")
        if key in fields:
            raise BadMessage(f"the key {key[:40]!r} appears twice in one map")
        fields[key] = value
    return fields


def _unpack(frame: bytes | str, limit: int, client: bool = False) -> dict[str, Any]:
    if isinstance(frame, str):
        raise BadFrame("frames must be binary msgpack, not text")
    if len(frame) > limit:
        raise FrameTooLarge(f"frames are limited to {limit} bytes")
    try:
        data = msgpack.unpackb(
            frame,
            raw=False,
            # A client's maps go through ``_named_fields``, which refuses
            # other keys with a clear reason (msgpack's own check would make
            # them "not valid msgpack"); its arrays become tuples, the only
            # array type strict validation accepts.
            strict_map_key=not client,
            object_pairs_hook=_named_fields if client else None,
            use_list=not client,
            # Bound every container by the frame size: a tiny frame cannot
            # announce a huge array and make us allocate it.
            max_str_len=limit,
            max_bin_len=limit,
            max_array_len=limit,
            max_map_len=limit,
            max_ext_len=0,
        )
    except ProtocolError:
        raise
    except Exception:  # msgpack raises several unrelated types for bad input
        raise BadFrame("the frame is not valid msgpack") from None
    if not isinstance(data, dict):
        raise BadMessage("a message must be a map with a 'type' field")
    return data


def _validate(
    adapter: TypeAdapter[Any],
    types: frozenset[str],
    data: dict[str, Any],
    strict: bool,
    extra: Literal["forbid", "ignore"] = "forbid",
) -> Any:
    kind = data.get("type")
    if not isinstance(kind, str):
        raise BadMessage("a message must be a map with a 'type' field")
    if kind not in types:
        raise UnknownType(f"unknown message type {kind[:40]!r}")
    try:
        return adapter.validate_python(data, strict=strict, extra=extra)
    except ValidationError as exc:
        raise BadMessage(describe(kind, exc.errors())) from None


def decode_client(frame: bytes | str, limit: int = MAX_FRAME_BYTES) -> ClientMessage:
    """A client frame as a validated message; raises ``ProtocolError``."""
    data = _unpack(frame, limit, client=True)
    return _validate(_CLIENT, _CLIENT_TYPES, data, strict=True)  # type: ignore[no-any-return]


def decode_server(frame: bytes | str, limit: int = 4 * 1024 * 1024) -> ServerMessage:
    """A server frame as a validated message (used by our clients). Fields
    this version does not know are ignored, at every level: a newer server
    may add some within protocol version 1 (docs/protocol.md, "Versioning
    and compatibility"); a type it does not know raises ``UnknownType``,
    which a client skips."""
    data = _unpack(frame, limit)
    return _validate(_SERVER, _SERVER_TYPES, data, strict=False, extra="ignore")  # type: ignore[no-any-return]


def request_id_of(frame: bytes | str) -> int | str | None:
    """Best effort: the ``id`` of a frame that failed validation, so the error
    reply can still name the request (only an id valid as one: the reply
    must be a valid message)."""
    if isinstance(frame, str) or len(frame) > MAX_FRAME_BYTES:
        return None
    try:
        # Lenient on purpose (any hashable key): a frame refused for its
        # keys still gets its id echoed when the id itself is fine.
        data = msgpack.unpackb(frame, raw=False, strict_map_key=False, max_ext_len=0)
    except Exception:  # msgpack raises several unrelated types for bad input
        return None
    rid = data.get("id") if isinstance(data, dict) else None
    if type(rid) is int and 0 <= rid <= MAX_SAFE_INT:
        return rid
    if isinstance(rid, str) and 0 < len(rid) <= MAX_REQUEST_ID_CHARS:
        return rid
    return None
