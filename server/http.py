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

The WebSocket upgrade is refused (403) for a page of another site: a
browser names the page's origin in ``Origin``, and only the server's own
host (the request's ``Host``), the origins of ``--allowed-origin`` and
clients that send no ``Origin`` (the terminal client, programs) may open
it, so no other site can use this server and its bots as its backend.

Every request gets an access line (``hearts.access``, see
``server.lifecycle_log``): HTTP when answered, the WebSocket when it closes.

Every file carries a strong ``ETag`` (a hash of its bytes), so a reload
asks ``If-None-Match`` and gets ``304 Not Modified`` with no body; text is
gzipped once, when it is first asked for (a server that serves no browser,
such as the many a test run starts, never spends the ~0.1 s that
compressing the whole client takes), and sent compressed to every browser
that accepts it. Every file but the HTML pages is also served under a
content-hashed name (``server.hashed_urls``), ``immutable`` for a year, and
the pages are rewritten to load everything by those names: a browser that
has the files asks only for the page. The pages, and the plain names of the
client's own files, are ``no-cache`` (always revalidated: a new release
shows at the next load); the vendored packages' plain names, which change
only with ``package-lock.json``, may be kept a day without asking.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import mimetypes
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from http import HTTPStatus
from pathlib import Path
from urllib.parse import urlsplit

from common.ws_adapter import Headers, Request, Response, ServerConnection, peer_host

from .hashed_urls import MODULE_SUFFIXES, hashed_url, is_page, plain_url, rewrite_page
from .lifecycle_log import log_access
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
IMMUTABLE = "public, max-age=31536000, immutable"
"""A content-hashed name: its bytes never change, so a year without asking."""
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")
MIN_GZIP = 256
"""Smaller bodies are sent as they are: gzip's header would eat the saving."""


class Gzip:
    """A body's gzip (mtime 0, so the same bytes give the same file on every
    start and every replica), made the first time it is asked for and then
    kept; None when compression does not pay. At most ~10 ms for the
    largest file, once per file per process."""

    __slots__ = ("_body", "_made", "_packed")

    def __init__(self, body: bytes) -> None:
        self._body = body
        self._made = False
        self._packed: bytes | None = None

    def get(self) -> bytes | None:
        """The gzipped bytes, or None if they are no smaller."""
        if not self._made:
            packed = gzip.compress(self._body, compresslevel=9, mtime=0)
            self._packed = packed if len(packed) < len(self._body) else None
            self._made = True
        return self._packed


@dataclass(frozen=True, slots=True)
class StaticFile:
    """One file of the client as served: its bytes, its gzip (None: not a
    kind or size worth compressing), type, ETag, Cache-Control and, for a
    page, its Content-Security-Policy. A file and its hashed twin share one
    ``Gzip``."""

    body: bytes
    packer: Gzip | None
    kind: str
    etag: str
    cache: str
    csp: str = CSP

    @property
    def gzipped(self) -> bytes | None:
        """The gzipped body, or None when it is sent as it is."""
        return self.packer.get() if self.packer is not None else None


def _response(
    status: HTTPStatus,
    body: bytes,
    content_type: str,
    cache: str = REVALIDATE,
    extra: dict[str, str] | None = None,
    csp: str = CSP,
) -> Response:
    headers = Headers()
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = cache
    headers["X-Content-Type-Options"] = "nosniff"
    if content_type.startswith("text/html"):
        headers["Content-Security-Policy"] = csp
        headers["Referrer-Policy"] = "no-referrer"
    for name, value in (extra or {}).items():
        headers[name] = value
    return Response(status.value, status.phrase, headers, body)


def page_csp(script_hash: str | None) -> str:
    """The Content-Security-Policy of a page whose one inline script (its
    import map) has the CSP source ``script_hash``."""
    if script_hash is None:
        return CSP
    return f"{CSP}; script-src 'self' {script_hash}"


def static_file(url: str, body: bytes, kind: str, csp: str = CSP) -> StaticFile:
    """``body`` as served at ``url``: ETag, gzip (made when first asked for)
    and cache policy."""
    packer = Gzip(body) if kind.startswith(COMPRESSIBLE) and len(body) >= MIN_GZIP else None
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    cache = VENDOR_CACHE if url.startswith("/vendor/") else REVALIDATE
    return StaticFile(body, packer, kind, etag, cache, csp)


def load_files(roots: dict[str, Path]) -> dict[str, StaticFile]:
    """Every file under each root, keyed by URL path (``prefix/relative``),
    each file but the pages also under its hashed name (immutable), and the
    pages rewritten to load the hashed names (``server.hashed_urls``)."""
    read: dict[str, tuple[bytes, str]] = {}
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
                read[url] = (path.read_bytes(), kind)
    files: dict[str, StaticFile] = {}
    hashed: dict[str, str] = {}
    for url, (body, kind) in read.items():
        if is_page(url):
            continue
        files[url] = static_file(url, body, kind)
        hashed[url] = hashed_url(url, body)
        files[hashed[url]] = replace(files[url], cache=IMMUTABLE)
    modules = {url: body for url, (body, _) in read.items() if url.endswith(MODULE_SUFFIXES)}
    for url, (body, kind) in read.items():
        if is_page(url):
            page = rewrite_page(url, body, hashed, modules)
            files[url] = static_file(url, page.body, kind, page_csp(page.script_hash))
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
        response = _response(
            HTTPStatus.NOT_MODIFIED, b"", found.kind, found.cache, validators, found.csp
        )
        del response.headers["Content-Length"]
        return response
    if found.gzipped is not None and _accepts_gzip(request_headers.get("Accept-Encoding")):
        return _response(
            HTTPStatus.OK,
            found.gzipped,
            found.kind,
            found.cache,
            {**validators, "Content-Encoding": "gzip"},
            found.csp,
        )
    return _response(HTTPStatus.OK, found.body, found.kind, found.cache, validators, found.csp)


def _host_name(value: str) -> str | None:
    """The host name of a ``Host`` header or an origin, lower case, without
    port (None: not parseable)."""
    try:
        parts = urlsplit(value if "://" in value else f"//{value}")
        return parts.hostname
    except ValueError:
        return None


def normalize_origin(origin: str) -> str:
    """An origin as compared: lower case, no trailing slash."""
    return origin.strip().rstrip("/").lower()


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a WebSocket upgrade with this ``Origin`` (None: the client
    sent none, as programs do) may proceed: the page is the server's own
    (same host name as ``Host``), or in ``allowed`` (``*``: any)."""
    if origin is None:
        return True
    wanted = normalize_origin(origin)
    if "*" in allowed or wanted in (normalize_origin(a) for a in allowed):
        return True
    own = _host_name(host) if host else None
    return own is not None and _host_name(wanted) == own


AddressOf = Callable[[ServerConnection], str]


class HttpRoutes:
    """Answers every HTTP request that is not the WebSocket upgrade, and
    checks the upgrade's ``Origin``."""

    def __init__(
        self,
        ready: Callable[[], Awaitable[bool]],
        extra_roots: dict[str, Path] | None = None,
        metrics: Callable[[], bytes] | None = None,
        *,
        allowed_origins: tuple[str, ...] = (),
        address_of: AddressOf | None = None,
    ) -> None:
        self._ready = ready
        self._metrics = metrics
        self._allowed_origins = allowed_origins
        self._address_of = address_of
        # When each request's handling began, for its access line.
        self._started: weakref.WeakKeyDictionary[ServerConnection, float] = (
            weakref.WeakKeyDictionary()
        )
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

    def address(self, conn: ServerConnection) -> str:
        """The client's address (through trusted proxies) for access lines."""
        if self._address_of is not None:
            return self._address_of(conn)
        return peer_host(conn)

    def process_response(
        self, conn: ServerConnection, request: Request, response: Response
    ) -> None:
        """websockets' ``process_response`` hook: the access line of a plain
        HTTP answer (an accepted WebSocket gets its line when it closes)."""
        started = self._started.pop(conn, None)
        if response.status_code == HTTPStatus.SWITCHING_PROTOCOLS:
            return
        seconds = time.monotonic() - started if started is not None else 0.0
        path = request.path.split("?", 1)[0]
        log_access("http", path, self.address(conn), response.status_code, seconds)

    async def __call__(self, conn: ServerConnection, request: Request) -> Response | None:
        """websockets' ``process_request`` hook."""
        self._started[conn] = time.monotonic()
        path = request.path.split("?", 1)[0]
        if path == WS_PATH:
            origin = request.headers.get("Origin")
            if not origin_allowed(origin, request.headers.get("Host"), self._allowed_origins):
                shown = (origin or "")[:100]  # the client's text, bounded
                log.warning("refused a WebSocket from the page %s", shown)
                return _response(
                    HTTPStatus.FORBIDDEN,
                    f"pages from {shown} may not use this server "
                    "(its operator can allow them with --allowed-origin)\n".encode(),
                    "text/plain; charset=utf-8",
                )
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
        if found is None and (plain := plain_url(path)) is not None and not is_page(plain):
            found = self._files.get(plain)  # another release's hash: today's bytes
        if found is None:
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        return serve_file(found, request.headers)
