"""The HTTP side of the server's port: /healthz names the running version,
and the browser client (with the vendored msgpack modules) is served from
client/web, the folder the wheel carries."""

from __future__ import annotations

import asyncio
import gzip
import json
import tomllib
import urllib.error
import urllib.request
from email.message import Message
from pathlib import Path

from server.app import RunningServer
from server.http import WEB_ROOT, load_files, static_file

REPO = Path(__file__).resolve().parents[2]


def pyproject_version() -> str:
    with (REPO / "pyproject.toml").open("rb") as file:
        found: str = tomllib.load(file)["project"]["version"]
    return found


async def get(server: RunningServer, path: str) -> tuple[int, Message, bytes]:
    """Status, headers and body of ``GET path`` on the server's port."""

    def fetch() -> tuple[int, Message, bytes]:
        url = f"http://127.0.0.1:{server.port}{path}"
        try:
            with urllib.request.urlopen(url, timeout=10) as reply:
                return reply.status, reply.headers, reply.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    return await asyncio.to_thread(fetch)


async def test_healthz_says_ok_and_the_version(server: RunningServer) -> None:
    status, headers, body = await get(server, "/healthz")
    assert status == 200
    assert headers["Content-Type"] == "application/json"
    assert json.loads(body) == {"status": "ok", "version": pyproject_version()}


async def test_browser_client_and_its_msgpack_modules_are_served(server: RunningServer) -> None:
    status, headers, body = await get(server, "/")
    assert status == 200
    assert b'<script type="importmap">' in body  # the page as rewritten (test_hashed_urls)
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    for path in ("/vendor/msgpack/index.mjs", "/vendor/msgpack/utils/utf8.mjs", "/js/net.js"):
        status, headers, body = await get(server, path)
        assert status == 200, path
        assert headers["Content-Type"] == "text/javascript; charset=utf-8", path
        assert body == (WEB_ROOT / path.lstrip("/")).read_bytes()
    status, _, body = await get(server, "/vendor/msgpack/LICENSE")
    assert status == 200 and b"MessagePack" in body


async def test_nothing_outside_the_client_folder_is_served(server: RunningServer) -> None:
    for path in ("/../pyproject.toml", "/%2e%2e/server/http.py", "/vendor/../../README.md"):
        status, _, body = await get(server, path)
        assert status == 404, path
        assert body == b"not found\n"


def fetch_with(
    server: RunningServer, path: str, headers: dict[str, str]
) -> tuple[int, Message, bytes]:
    """``GET path`` with request ``headers`` (urllib never decompresses)."""
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.headers, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


async def test_text_is_gzipped_for_browsers_that_accept_it(server: RunningServer) -> None:
    _, _, page = await get(server, "/")
    for path in ("/", "/js/table.js", "/css/style.css", "/vendor/msgpack/Decoder.mjs"):
        plain = page if path == "/" else (WEB_ROOT / path.lstrip("/")).read_bytes()
        status, headers, body = await asyncio.to_thread(
            fetch_with, server, path, {"Accept-Encoding": "gzip, deflate, br"}
        )
        assert status == 200, path
        assert headers["Content-Encoding"] == "gzip", path
        assert headers["Vary"] == "Accept-Encoding"
        assert gzip.decompress(body) == plain
        assert len(body) < len(plain) / 2, (path, len(body), len(plain))
        assert int(headers["Content-Length"]) == len(body)
    # No Accept-Encoding (or gzip refused): the plain bytes.
    for accept in ({}, {"Accept-Encoding": "gzip;q=0, identity"}):
        status, headers, body = await asyncio.to_thread(fetch_with, server, "/js/table.js", accept)
        assert status == 200 and headers["Content-Encoding"] is None
        assert body == (WEB_ROOT / "js" / "table.js").read_bytes()


def test_the_client_is_compressed_only_when_asked_for_and_once_per_file() -> None:
    files = load_files({"": WEB_ROOT})
    script = files["/js/table.js"]
    twin = next(f for url, f in files.items() if url != "/js/table.js" and f.body == script.body)
    assert script.packer is not None and twin.packer is script.packer
    assert not any(f.packer._made for f in files.values() if f.packer is not None)
    packed = twin.gzipped
    assert packed is not None and gzip.decompress(packed) == script.body
    assert script.gzipped is packed  # made once, for both names
    tiny = static_file("/x.txt", b"short", "text/plain; charset=utf-8")
    assert tiny.packer is None and tiny.gzipped is None


async def test_a_reload_revalidates_with_the_etag_and_gets_304(server: RunningServer) -> None:
    status, headers, _ = await get(server, "/js/main.js")
    etag = headers["ETag"]
    assert status == 200 and etag.startswith('"') and len(etag) > 10
    assert headers["Cache-Control"] == "no-cache"
    status, headers, body = await asyncio.to_thread(
        fetch_with, server, "/js/main.js", {"If-None-Match": etag, "Accept-Encoding": "gzip"}
    )
    assert status == 304 and body == b""
    assert headers["ETag"] == etag
    # Another file's tag (a file that changed) gets the whole body again.
    _, other, _ = await get(server, "/js/net.js")
    status, _, body = await asyncio.to_thread(
        fetch_with, server, "/js/main.js", {"If-None-Match": other["ETag"]}
    )
    assert status == 200 and body == (WEB_ROOT / "js" / "main.js").read_bytes()
    # A join link is the page itself: the same tag.
    _, page, _ = await get(server, "/")
    _, link, _ = await get(server, "/t/ABC123")
    assert page["ETag"] == link["ETag"]
    # Vendored packages change only with package-lock.json: kept a day.
    _, vendored, _ = await get(server, "/vendor/msgpack/index.mjs")
    assert vendored["Cache-Control"] == "public, max-age=86400"
