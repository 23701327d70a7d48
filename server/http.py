"""Plain HTTP on the WebSocket port: the browser client's files, join links
and health checks. The WebSocket endpoint is ``/ws``.

Files are read once at start-up (the client is a few small static files), so
serving never blocks the loop on disk. Paths are looked up in that table, so
nothing outside the client's folder can be reached.

The browser's msgpack codec is the ``@msgpack/msgpack`` npm package (installed
by ``npm ci`` into ``node_modules``); its native ES module build
(``dist.esm/*.mjs``) is served under ``/vendor/msgpack/``. Pages get a
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

log = logging.getLogger("hearts.http")

REPO_ROOT = Path(__file__).resolve().parent.parent
WEB_ROOT = REPO_ROOT / "client" / "web"
MSGPACK_ROOT = REPO_ROOT / "node_modules" / "@msgpack" / "msgpack" / "dist.esm"
VENDOR_ROOTS: dict[str, tuple[Path, tuple[str, ...]]] = {
    "/vendor/msgpack": (MSGPACK_ROOT, (".mjs",)),
}
"""URL prefix -> (folder, the file endings served from it)."""
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


def load_files(
    roots: dict[str, Path], endings: dict[str, tuple[str, ...]] | None = None
) -> dict[str, tuple[bytes, str]]:
    """Every file under each root, keyed by URL path (``prefix/relative``);
    for a prefix in ``endings``, only files whose names end so."""
    files: dict[str, tuple[bytes, str]] = {}
    for prefix, root in roots.items():
        if not root.is_dir():
            continue
        wanted = (endings or {}).get(prefix)
        for path in sorted(root.rglob("*")):
            if path.is_file() and (wanted is None or path.name.endswith(wanted)):
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
        vendor = {prefix: root for prefix, (root, _) in VENDOR_ROOTS.items()}
        endings = {prefix: ends for prefix, (_, ends) in VENDOR_ROOTS.items()}
        self._files = load_files({"": WEB_ROOT, **vendor, **(extra_roots or {})}, endings)
        if "/vendor/msgpack/index.mjs" not in self._files:
            log.warning(
                "%s is missing: run `npm ci` (or `make setup`) for the browser client", MSGPACK_ROOT
            )

    async def __call__(self, conn: ServerConnection, request: Request) -> Response | None:
        """websockets' ``process_request`` hook."""
        path = request.path.split("?", 1)[0]
        if path == WS_PATH:
            return None  # the WebSocket handshake proceeds
        if path == "/healthz":
            return _response(HTTPStatus.OK, b'{"status":"ok"}', "application/json")
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
