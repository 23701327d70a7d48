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
``package-lock.json``) and so served under ``/vendor/msgpack/``, and the card
faces of ``@younestouati/playing-cards-standard-deck`` under ``/vendor/cards/``
(``tools/maintenance/vendor_cards.py``). Pages get a Content-Security-Policy that allows
nothing from other hosts.

Every file carries a strong ``ETag`` (a hash of its bytes), so a reload
asks ``If-None-Match`` and gets ``304 Not Modified`` with no body; text is
gzipped once at start-up and sent compressed to every browser that accepts
it. The client's own files are ``no-cache`` (always revalidated: a new
release shows at the next load, at the cost of one 304 per file); the
vendored packages, which change only with ``package-lock.json``, may be kept
a day without asking.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import mimetypes
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
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


REVALIDATE = "no-cache"
"""The client's own files: kept, but asked about (If-None-Match) at every use."""
VENDOR_CACHE = "public, max-age=86400"
"""Vendored packages change only with package-lock.json: a day without asking."""
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")
MIN_GZIP = 256
"""Smaller bodies are sent as they are: gzip's header would eat the saving."""


@dataclass(frozen=True, slots=True)
class StaticFile:
    """One file of the client as served: its bytes, gzipped bytes (None when
    compression does not pay), type, ETag and Cache-Control."""

    body: bytes
    gzipped: bytes | None
    kind: str
    etag: str
    cache: str


def _response(
    status: HTTPStatus,
    body: bytes,
    content_type: str,
    cache: str = REVALIDATE,
    extra: dict[str, str] | None = None,
) -> Response:
    headers = Headers()
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = cache
    headers["X-Content-Type-Options"] = "nosniff"
    if content_type.startswith("text/html"):
        headers["Content-Security-Policy"] = CSP
        headers["Referrer-Policy"] = "no-referrer"
    for name, value in (extra or {}).items():
        headers[name] = value
    return Response(status.value, status.phrase, headers, body)


def static_file(url: str, body: bytes, kind: str) -> StaticFile:
    """``body`` as served at ``url``: ETag, gzip (mtime 0, so the same bytes
    give the same file on every start and every replica) and cache policy."""
    gzipped = None
    if kind.startswith(COMPRESSIBLE) and len(body) >= MIN_GZIP:
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        if len(packed) < len(body):
            gzipped = packed
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    cache = VENDOR_CACHE if url.startswith("/vendor/") else REVALIDATE
    return StaticFile(body, gzipped, kind, etag, cache)


def load_files(roots: dict[str, Path]) -> dict[str, StaticFile]:
    """Every file under each root, keyed by URL path (``prefix/relative``)."""
    files: dict[str, StaticFile] = {}
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
                    "image/svg+xml",
                ):
                    kind += "; charset=utf-8"
                files[url] = static_file(url, path.read_bytes(), kind)
    return files


def _etag_matches(header: str | None, etag: str) -> bool:
    """Whether an If-None-Match header names ``etag`` (or is ``*``); weak
    validators (W/"...") match too, as RFC 9110 says for If-None-Match."""
    if not header:
        return False
    for candidate in header.split(","):
        tag = candidate.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False


def _accepts_gzip(header: str | None) -> bool:
    """Whether an Accept-Encoding header allows gzip (named, or ``*``, and
    not refused with ``q=0``)."""
    for item in (header or "").split(","):
        name, *params = (part.strip() for part in item.split(";"))
        if name.lower() not in ("gzip", "*"):
            continue
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    return float(value) > 0
                except ValueError:
                    return False
        return True
    return False


def serve_file(found: StaticFile, request_headers: Headers) -> Response:
    """A static file for one GET: 304 when the browser's copy is current,
    else the body, gzipped when the browser accepts it."""
    validators = {"ETag": found.etag, "Vary": "Accept-Encoding"}
    if _etag_matches(request_headers.get("If-None-Match"), found.etag):
        response = _response(HTTPStatus.NOT_MODIFIED, b"", found.kind, found.cache, validators)
        del response.headers["Content-Length"]
        return response
    if found.gzipped is not None and _accepts_gzip(request_headers.get("Accept-Encoding")):
        return _response(
            HTTPStatus.OK,
            found.gzipped,
            found.kind,
            found.cache,
            {**validators, "Content-Encoding": "gzip"},
        )
    return _response(HTTPStatus.OK, found.body, found.kind, found.cache, validators)


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
        return serve_file(found, request.headers)
