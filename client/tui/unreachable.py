"""Why a server could not be reached, in words a player reads (never a raw
``[Errno 111]``): nothing listening there, an unknown host name, no answer
in time, or an address that answers but is not a Hearts server."""

from __future__ import annotations

import socket

from common.ws_adapter import InvalidStatus, InvalidURI, WebSocketException

from .i18n import Msg


def why_unreachable(exc: BaseException) -> Msg:
    """The reason ``exc`` (raised while connecting) stands for."""
    if isinstance(exc, ConnectionRefusedError):
        return Msg("why_unreachable.refused")
    if isinstance(exc, socket.gaierror):
        return Msg("why_unreachable.unknown_host")
    if isinstance(exc, TimeoutError):
        return Msg("why_unreachable.timeout")
    if isinstance(exc, InvalidStatus):
        return Msg("why_unreachable.not_hearts", {"status": exc.response.status_code})
    if isinstance(exc, (InvalidURI, WebSocketException)):
        return Msg("why_unreachable.not_hearts_other")
    if isinstance(exc, OSError) and exc.strerror:
        return Msg("why_unreachable.other", {"error": exc.strerror})
    return Msg("why_unreachable.closed")
