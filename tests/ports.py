"""Free TCP ports on 127.0.0.1, for programs that cannot bind port 0 and
say which port they got (nginx).

The port is released before the program binds it, so another process may
take it in between: ``hearts serve`` is never started this way (``--port 0``
binds a free port and its start-up line names it; tests/serve_process.py),
nor are in-process servers (``ServerConfig(port=0)``, then ``server.port``).
"""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
