"""Errors about frames and messages (a branch of engine.errors' tree)::

ClientError
└── ProtocolError        code
    ├── BadFrame         bad_frame       not msgpack, or text instead of binary
    ├── BadMessage       bad_message     msgpack of the wrong shape
    ├── BadMapKey        bad_map_key     msgpack, but a map key is not a string
    ├── UnknownType      unknown_type    a ``type`` nobody knows
    ├── FrameTooLarge    frame_too_large over MAX_FRAME_BYTES
    └── BadVersion       bad_version     hello with an unsupported version
"""

from __future__ import annotations

from engine.errors import ClientError


class ProtocolError(ClientError):
    """A frame or message the protocol refuses."""

    code = "protocol_error"


class BadFrame(ProtocolError):
    """Not a msgpack map in a binary frame."""

    code = "bad_frame"


class BadMessage(ProtocolError):
    """Decoded, but not a valid message of its type."""

    code = "bad_message"


class BadMapKey(ProtocolError):
    """Valid msgpack, but a map has a key that is not a string (messages
    are maps of named fields)."""

    code = "bad_map_key"


class UnknownType(ProtocolError):
    """The ``type`` field names no message."""

    code = "unknown_type"


class FrameTooLarge(ProtocolError):
    """Bigger than the protocol allows."""

    code = "frame_too_large"


class BadVersion(ProtocolError):
    """The client speaks a protocol version this server does not."""

    code = "bad_version"
