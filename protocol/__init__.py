"""The wire protocol: pydantic models, the msgpack codec, ``SeatView``.

See docs/protocol.md. Only ``protocol.codec`` knows about msgpack.
"""

from .codec import decode_client, decode_server, encode
from .common import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION", "decode_client", "decode_server", "encode"]
