"""The browser client's files under content-hashed names: immutable for a
year, renamed when their bytes change, and loaded by those names from the
rewritten pages, whose import map the page's CSP allows by its hash."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
import shutil
import urllib.error
import urllib.request
from email.message import Message
from pathlib import Path

import pytest

from server.app import RunningServer
from server.hashed_urls import hashed_url, rewrite_page
from server.http import WEB_ROOT

from .conftest import ServerFactory

IMMUTABLE = "public, max-age=31536000, immutable"
IMPORT_MAP = re.compile(rb'<script type="importmap">(.*?)</script>', re.DOTALL)


async def get(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, Message, bytes]:
    """Status, headers and body of ``GET path`` on 127.0.0.1:``port``."""

    def fetch() -> tuple[int, Message, bytes]:
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return reply.status, reply.headers, reply.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    return await asyncio.to_thread(fetch)


def imports_of(page: bytes) -> dict[str, str]:
    """The import map of a served page."""
    found = IMPORT_MAP.search(page)
    assert found is not None, "the page has no import map"
    imports: dict[str, str] = json.loads(found.group(1))["imports"]
    return imports


async def test_page_loads_hashed_urls_and_maps_every_module(server: RunningServer) -> None:
    status, headers, page = await get(server.port, "/")
    assert status == 200
    assert headers["Cache-Control"] == "no-cache"
    imports = imports_of(page)
    modules = sorted(
        "/" + path.relative_to(WEB_ROOT).as_posix()
        for path in WEB_ROOT.rglob("*")
        if path.suffix in (".js", ".mjs")
    )
    assert sorted(imports) == modules
    for plain, hashed in imports.items():
        assert hashed == hashed_url(plain, (WEB_ROOT / plain.lstrip("/")).read_bytes())
    # The map comes before the first script or link, which load hashed names.
    text = page.decode()
    assert text.index('<script type="importmap">') < text.index("<link")
    assert f'src="{imports["/js/main.js"]}"' in text
    style = hashed_url("/css/style.css", (WEB_ROOT / "css" / "style.css").read_bytes())
    assert f'href="{style}"' in text and 'href="/css/style.css"' not in text
    icon = hashed_url("/favicon.svg", (WEB_ROOT / "favicon.svg").read_bytes())
    assert f'href="{icon}"' in text
    # Links that are not files stay as they are.
    assert 'href="#rules"' in text and 'href="/"' in text
    # The CSP allows that inline script by its hash, and no other.
    found = IMPORT_MAP.search(page)
    assert found is not None
    digest = base64.b64encode(hashlib.sha256(found.group(1)).digest()).decode()
    assert f"script-src 'self' 'sha256-{digest}'" in headers["Content-Security-Policy"]
    assert "unsafe-inline" not in headers["Content-Security-Policy"].split("script-src")[1]
    # A join link is the same page.
    _, link_headers, link = await get(server.port, "/t/ABC123")
    assert (
        link == page
        and link_headers["Content-Security-Policy"] == headers["Content-Security-Policy"]
    )


async def test_hashed_urls_are_immutable_and_plain_urls_still_work(server: RunningServer) -> None:
    _, _, page = await get(server.port, "/")
    imports = imports_of(page)
    for plain in ("/js/state.js", "/js/lang/uk.js", "/vendor/msgpack/index.mjs"):
        status, headers, body = await get(server.port, imports[plain])
        assert status == 200, plain
        assert headers["Cache-Control"] == IMMUTABLE
        assert headers["Content-Type"] == "text/javascript; charset=utf-8"
        assert body == (WEB_ROOT / plain.lstrip("/")).read_bytes()
        # Gzipped like the plain name.
        _, zipped, _ = await get(server.port, imports[plain], {"Accept-Encoding": "gzip"})
        assert zipped["Content-Encoding"] == "gzip"
        status, headers, same = await get(server.port, plain)
        assert status == 200 and same == body
        assert headers["Cache-Control"] != IMMUTABLE
    # A hash the server does not have (a page of another release during a
    # rolling update): today's file, revalidated, never immutable.
    status, headers, body = await get(server.port, "/css/style.0123456789abcdef.css")
    assert status == 200 and body == (WEB_ROOT / "css" / "style.css").read_bytes()
    assert headers["Cache-Control"] == "no-cache"
    for missing in ("/nothing.0123456789abcdef.js", "/index.0123456789abcdef.html"):
        assert (await get(server.port, missing))[0] == 404, missing


async def test_a_changed_file_gets_a_new_hashed_url(
    make_server: ServerFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "web"
    shutil.copytree(WEB_ROOT, root)
    monkeypatch.setattr("server.http.WEB_ROOT", root)
    async with make_server() as before:
        _, old_headers, old_page = await get(before.port, "/")
    old = imports_of(old_page)
    dom = root / "js" / "dom.js"
    dom.write_bytes(dom.read_bytes() + b"\n// a new release\n")
    async with make_server() as after:
        _, new_headers, new_page = await get(after.port, "/")
        new = imports_of(new_page)
        assert new["/js/dom.js"] != old["/js/dom.js"]
        assert {k: v for k, v in new.items() if k != "/js/dom.js"} == {
            k: v for k, v in old.items() if k != "/js/dom.js"
        }
        status, _, body = await get(after.port, new["/js/dom.js"])
        assert status == 200 and body.endswith(b"// a new release\n")
        # The old name (a page of the old release): the new bytes, revalidated.
        status, headers, body = await get(after.port, old["/js/dom.js"])
        assert status == 200 and body.endswith(b"// a new release\n")
        assert headers["Cache-Control"] == "no-cache"
    # The page changed with it: a new ETag, and a new hash in its CSP.
    assert new_headers["ETag"] != old_headers["ETag"]
    assert new_headers["Content-Security-Policy"] != old_headers["Content-Security-Policy"]


def test_rewrite_leaves_other_urls_and_escapes_the_map() -> None:
    hashed = {"/a.js": "/a.1.js", "/x</script>.js": "/x.2.js", "/s.css": "/s.3.css"}
    page = (
        b'<html><head><link rel="stylesheet" href="s.css">'
        b"<link rel=\"preconnect\" href='https://example.org/s.css'>"
        b'<script src="/a.js?v=7"></script></head>'
        b'<body><a href="/a.js">source</a></body></html>'
    )
    rewritten = rewrite_page("/index.html", page, hashed)
    text = rewritten.body.decode()
    assert '<link rel="stylesheet" href="/s.3.css">' in text  # relative, resolved
    assert "href='https://example.org/s.css'" in text  # another site's
    assert 'src="/a.js?v=7"' in text  # carries its own version
    assert '<a href="/a.js">' in text  # a link to follow, not a resource
    assert text.count("</script>") == 2  # the map's and the page's: no file name ends the map
    assert (
        json.loads(IMPORT_MAP.search(rewritten.body).group(1))["imports"]["/x</script>.js"]
        == "/x.2.js"
    )  # type: ignore[union-attr]
    assert rewritten.script_hash is not None
    # Not UTF-8: served as it is.
    assert rewrite_page("/p.html", b"\xff<head>", hashed).body == b"\xff<head>"


PRELOAD = re.compile(rb'<link rel="modulepreload" href="([^"]+)">')


def test_the_page_preloads_every_module_its_scripts_import_statically() -> None:
    """Static imports at any depth (multi-line, re-exports, bare ``import
    "x"``, absolute and ``../`` paths) are preloaded by their hashed names,
    nearest first, after the import map; the page's own script, dynamic
    ``import()`` (also in a JSDoc type), other sites and unknown files are
    not."""
    modules = {
        "/js/main.js": (
            b'import { a,\n  b } from "./a.js";\n'
            b'import "./side.js";\n'
            b'/** @typedef {import("./types").T} T */\n'
            b'const lang = await import("./lang/en.js");\n'
            b'import x from "https://cdn.example.org/x.js";\n'
            b'import missing from "./missing.js";\n'
        ),
        "/js/a.js": b'export { c } from "../vendor/c.mjs";\nexport const a = 1;\n',
        "/js/side.js": b"document.title = 'x';\n",
        "/vendor/c.mjs": b'export * from "/js/a.js";\nexport const c = 2;\n',
        "/js/lang/en.js": b"export default {};\n",
        "/js/unused.js": b"export const u = 3;\n",
    }
    hashed = {url: hashed_url(url, body) for url, body in modules.items()}
    page = (
        b'<html><head><link rel="stylesheet" href="/s.css">'
        b'<script type="module" src="js/main.js"></script></head></html>'
    )
    rewritten = rewrite_page("/index.html", page, hashed, modules)
    preloads = [m.decode() for m in PRELOAD.findall(rewritten.body)]
    assert preloads == [hashed["/js/a.js"], hashed["/js/side.js"], hashed["/vendor/c.mjs"]]
    # After the map (a preload resolves through it) and the stylesheet (the
    # page needs it first), just before the page's script.
    body = rewritten.body
    script = body.index(b'<script type="module"')
    assert body.index(b"</script>") < body.index(b"stylesheet") < body.index(b"modulepreload")
    assert body.index(b"modulepreload") < script
    # A page with no module script preloads nothing.
    classic = b'<html><head><script src="js/main.js"></script></head></html>'
    assert PRELOAD.findall(rewrite_page("/index.html", classic, hashed, modules).body) == []


def test_the_served_page_preloads_the_clients_static_modules() -> None:
    """The real client: every module main.js reaches statically is
    preloaded (msgpack among them), no language module is."""
    from server.http import load_files

    files = load_files({"": WEB_ROOT})
    body = files["/index.html"].body
    preloaded = {HASHED_STEM.sub("", m.decode()) for m in PRELOAD.findall(body)}
    assert {"/js/state", "/js/net", "/js/exchanges", "/vendor/msgpack/index"} <= preloaded
    assert not any(stem.startswith("/js/lang/") for stem in preloaded)
    assert "/js/main" not in preloaded


HASHED_STEM = re.compile(r"\.[0-9a-f]{16}\.m?js$")
