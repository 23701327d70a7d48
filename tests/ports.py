"""Free TCP ports on 127.0.0.1 for the servers the tests start."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
