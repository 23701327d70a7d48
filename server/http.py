"""Plain HTTP on the WebSocket port: the browser client's files, join links
and health checks. The WebSocket endpoint is ``/ws``.

Files are read once at start-up (the client is a few small static files), so
serving never blocks the loop on disk. Paths are looked up in that table, so
nothing outside the client's folder can be reached.

Everything served lives in ``client/web``, which the wheel carries as package
data: a source checkout and an installed package serve the very same files.
That includes the browser's msgpack codec, the ES modules of the
``@msgpack/msgpack`` npm package, vendored under ``client/web/vendor/msgpack``
(``tools/maintenance/vendor_msgpack.py`` says how they are kept in step with
``package-lock.json``) and so served under ``/vendor/msgpack/``. Pages get a
Content-Security-Policy that allows nothing from other hosts.
"""

from __future__ import annotations

import json
import logging
import mimetypes
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from pathlib import Path

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from .version import package_version

log = logging.getLogger("hearts.http")

# The ``client`` package sits beside ``server`` in a checkout and in site-packages.
WEB_ROOT = Path(__file__).resolve().parent.parent / "client" / "web"
REQUIRED_FILES = ("/index.html", "/vendor/msgpack/index.mjs")
"""Without these the browser client cannot start."""
WS_PATH = "/ws"
CSP = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


def _response(
    status: HTTPStatus, body: bytes, content_type: str, cache: str = "no-cache"
) -> Response:
    headers = Headers()
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = cache
    headers["X-Content-Type-Options"] = "nosniff"
    if content_type.startswith("text/html"):
        headers["Content-Security-Policy"] = CSP
        headers["Referrer-Policy"] = "no-referrer"
    return Response(status.value, status.phrase, headers, body)


def load_files(roots: dict[str, Path]) -> dict[str, tuple[bytes, str]]:
    """Every file under each root, keyed by URL path (``prefix/relative``)."""
    files: dict[str, tuple[bytes, str]] = {}
    for prefix, root in roots.items():
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file():
                url = prefix + "/" + path.relative_to(root).as_posix()
                kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
                if kind.startswith("text/") or kind in (
                    "application/javascript",
                    "application/json",
                ):
                    kind += "; charset=utf-8"
                files[url] = (path.read_bytes(), kind)
    return files


class HttpRoutes:
    """Answers every HTTP request that is not the WebSocket upgrade."""

    def __init__(
        self,
        ready: Callable[[], Awaitable[bool]],
        extra_roots: dict[str, Path] | None = None,
        metrics: Callable[[], bytes] | None = None,
    ) -> None:
        self._ready = ready
        self._metrics = metrics
        self._files = load_files({"": WEB_ROOT, **(extra_roots or {})})
        health = {"status": "ok", "version": package_version()}
        self._health = json.dumps(health, separators=(",", ":")).encode()
        missing = [path for path in REQUIRED_FILES if path not in self._files]
        if missing:
            # A package built without its data files: serve the rest, but say so.
            log.warning(
                "the browser client is incomplete, %s missing under %s",
                ", ".join(missing),
                WEB_ROOT,
            )

    async def __call__(self, conn: ServerConnection, request: Request) -> Response | None:
        """websockets' ``process_request`` hook."""
        path = request.path.split("?", 1)[0]
        if path == WS_PATH:
            return None  # the WebSocket handshake proceeds
        if path == "/healthz":
            return _response(HTTPStatus.OK, self._health, "application/json")
        if path == "/metrics" and self._metrics is not None:
            return _response(
                HTTPStatus.OK, self._metrics(), "text/plain; version=0.0.4; charset=utf-8"
            )
        if path == "/readyz":
            ok = await self._ready()
            body = json.dumps({"status": "ready" if ok else "store unavailable"}).encode()
            return _response(
                HTTPStatus.OK if ok else HTTPStatus.SERVICE_UNAVAILABLE, body, "application/json"
            )
        if path == "/" or path.startswith("/t/"):
            path = "/index.html"
        found = self._files.get(path)
        if found is None:
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        body, kind = found
        return _response(HTTPStatus.OK, body, kind)
