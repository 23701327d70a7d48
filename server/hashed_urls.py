"""Content-hashed URLs for the browser client's files, so a browser may keep
them for a year without asking.

Every file but the HTML pages is also served under a name that carries a hash
of its bytes (``/js/state.js`` → ``/js/state.<hash>.js``): new bytes get a new
name, so that URL's answer never changes and may be cached ``immutable``.
The hashed name stays in the file's own folder, so relative URLs inside it
resolve exactly as they do from the plain name.

The HTML pages are rewritten once, when the files are loaded: the URLs of
their stylesheets, icons and scripts become the hashed ones, and an import
map (``<script type="importmap">``) sends every ES module's plain URL to its
hashed one. A browser resolves a module's ``import './x.js'`` (and a dynamic
``import()``) to the plain URL first and then through the page's import map,
so every module of the page is fetched by its hashed name whatever the
modules contain. The map is an inline script: the page's
Content-Security-Policy names its SHA-256 (``script-src``), which allows
exactly that script and no other inline one.

Each page also names, in ``<link rel="modulepreload">`` elements just
before its first module script, every module its module scripts reach by
static imports (``import … from``, ``export … from``, bare ``import "…"``). Without them a
browser finds the modules one level of imports at a time, a round trip per
level (five for the client on a first visit); with them it asks for all of
them at once, which HTTP/2 (a TLS proxy in front) serves in one round trip.
Modules imported only dynamically (``import()``: the languages) are left to
load when asked for.

The pages themselves keep their plain URLs and are revalidated at every load
(their ETag changes whenever any file they name changes); the plain URLs of
the other files keep working too, revalidated, for pages and tools of an
older release.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape as html_escape
from posixpath import splitext
from urllib.parse import urljoin, urlsplit

HASH_CHARS = 16
"""Hex digits of SHA-256 in a hashed name: 64 bits, no collision in practice."""
MODULE_SUFFIXES = (".js", ".mjs")
"""Files the import map covers: the client's and the vendored ES modules."""

# The tags whose URLs a page loads as resources (not links to navigate).
_RESOURCE_TAG = re.compile(r"<(?:link|script|img|source)\b[^>]*>", re.IGNORECASE)
_URL_ATTRIBUTE = re.compile(r"""(\s(?:src|href)\s*=\s*)(["'])([^"']*)\2""", re.IGNORECASE)
# The import map must come before every module script and module preload.
_FIRST_LOADER = re.compile(r"<(?:script|link)\b|</head>", re.IGNORECASE)
_MODULE_SCRIPT = re.compile(r"<script\b[^>]*\btype\s*=\s*[\"']module[\"'][^>]*>", re.IGNORECASE)
# A static import or re-export at the start of a line: ``import … from "x"``,
# ``export … from "x"`` or ``import "x"``. Not ``import("x")`` (dynamic: it
# loads when asked for) nor ``import("x")`` in a JSDoc type.
_STATIC_IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)\b(?:[^;'"()]*?\bfrom)?\s*(["'])([^"'\n]+)\1""",
    re.MULTILINE,
)


def content_hash(body: bytes) -> str:
    """The hash a file's hashed name carries."""
    return hashlib.sha256(body).hexdigest()[:HASH_CHARS]


def hashed_url(url: str, body: bytes) -> str:
    """``url`` with the hash of ``body`` before its suffix
    (``/js/state.js`` → ``/js/state.0123456789abcdef.js``)."""
    stem, suffix = splitext(url)
    return f"{stem}.{content_hash(body)}{suffix}"


_HASHED_NAME = re.compile(rf"^(?P<stem>.+)\.[0-9a-f]{{{HASH_CHARS}}}(?P<suffix>\.[^./]+)?$")


def plain_url(url: str) -> str | None:
    """The plain URL a hashed-looking ``url`` names (None: it has no hash).
    A hash the server does not have (a page of another release, during a
    rolling update) is answered with the plain file, revalidated, rather
    than a 404 that would stop the page."""
    found = _HASHED_NAME.match(url)
    if found is None:
        return None
    return found.group("stem") + (found.group("suffix") or "")


def is_page(url: str) -> bool:
    """Whether ``url`` is an HTML page (rewritten, never hashed)."""
    return url.endswith((".html", ".htm"))


@dataclass(frozen=True, slots=True)
class RewrittenPage:
    """An HTML page as served: its bytes, and the CSP source that allows its
    import map (None: the page has no map)."""

    body: bytes
    script_hash: str | None


def import_map(hashed: dict[str, str]) -> str:
    """The import map's JSON: each module's plain URL to its hashed URL.
    ``<`` is escaped so no file name can close the script element."""
    imports = {
        url: target for url, target in sorted(hashed.items()) if url.endswith(MODULE_SUFFIXES)
    }
    text = json.dumps({"imports": imports}, indent=1, separators=(",", ": "))
    return text.replace("<", "\\u003c")


def _local_path(base: str, reference: str) -> str | None:
    """The path on this server that the URL ``reference`` names from
    ``base`` (None: another host, or a query or fragment: a URL that
    carries its own version or points elsewhere is left as it is)."""
    parts = urlsplit(urljoin(base, reference))
    if parts.scheme or parts.netloc or parts.query or parts.fragment:
        return None
    return parts.path


def _rewrite_tag(tag: str, page_url: str, hashed: dict[str, str]) -> str:
    def swap(match: re.Match[str]) -> str:
        lead, quote, value = match.group(1), match.group(2), match.group(3)
        path = _local_path(page_url, value)
        target = hashed.get(path) if path is not None else None
        return match.group(0) if target is None else f"{lead}{quote}{target}{quote}"

    return _URL_ATTRIBUTE.sub(swap, tag)


def static_imports(module_url: str, source: bytes) -> list[str]:
    """The paths of the modules ``source`` (served at ``module_url``)
    imports statically, in the order written."""
    text = source.decode("utf-8", errors="replace")
    specifiers = (match.group(2) for match in _STATIC_IMPORT.finditer(text))
    # A bare specifier ("lib") has a URL only through an import map.
    found = (
        _local_path(module_url, spec) for spec in specifiers if spec.startswith(("/", "./", "../"))
    )
    return [path for path in found if path is not None]


def module_preloads(page_url: str, html: str, modules: Mapping[str, bytes]) -> list[str]:
    """Every module (plain URL) the page's module scripts reach by static
    imports among ``modules`` (plain URL → source), nearest first; the
    scripts themselves are not listed (the page asks for them anyway)."""
    entries: list[str] = []
    for tag in _MODULE_SCRIPT.finditer(html):
        src = _URL_ATTRIBUTE.search(tag.group(0))  # a script's one URL: its src
        path = _local_path(page_url, src.group(3)) if src else None
        if path is not None and path in modules:
            entries.append(path)
    seen = set(entries)
    order: list[str] = []
    queue = deque(entries)
    while queue:
        url = queue.popleft()
        for path in static_imports(url, modules[url]):
            if path in modules and path not in seen:
                seen.add(path)
                order.append(path)
                queue.append(path)
    return order


def rewrite_page(
    page_url: str,
    html: bytes,
    hashed: dict[str, str],
    modules: Mapping[str, bytes] | None = None,
) -> RewrittenPage:
    """The page at ``page_url`` with its resource URLs hashed and the import
    map of ``hashed`` (plain URL → hashed URL of every file) inserted before
    its first script or link and, just before its first module script, a
    module preload for each module of ``modules`` (plain URL → source) that
    its module scripts import statically, at any depth. A page that is not
    UTF-8, or has neither a script, a link nor a ``</head>``, is served as
    it is."""
    try:
        text = html.decode("utf-8")
    except UnicodeDecodeError:
        return RewrittenPage(html, None)
    preloads = module_preloads(page_url, text, modules or {})
    text = _RESOURCE_TAG.sub(lambda tag: _rewrite_tag(tag.group(0), page_url, hashed), text)
    first = _FIRST_LOADER.search(text)
    if first is None:
        return RewrittenPage(html, None)
    mapping = import_map(hashed)
    element = f'<script type="importmap">{mapping}</script>\n'
    text = text[: first.start()] + element + text[first.start() :]
    # The preloads go just before the first module script: after the map
    # they resolve through, and after the stylesheets, which the page needs
    # first to show anything (over HTTP/1.1 a browser asks in this order).
    script = _MODULE_SCRIPT.search(text, first.start() + len(element))
    if script is not None and preloads:
        links = "".join(
            f'<link rel="modulepreload" href="{html_escape(hashed.get(url, url))}">\n'
            for url in preloads
        )
        text = text[: script.start()] + links + text[script.start() :]
    digest = base64.b64encode(hashlib.sha256(mapping.encode()).digest()).decode()
    return RewrittenPage(text.encode(), f"'sha256-{digest}'")
