"""The HTTP side of the server's port: /healthz names the running version,
and the browser client (with the vendored msgpack modules) is served from
client/web, the folder the wheel carries."""

from __future__ import annotations

import asyncio
import json
import tomllib
import urllib.error
import urllib.request
from email.message import Message
from pathlib import Path

from server.app import RunningServer
from server.http import WEB_ROOT

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
    assert body == (WEB_ROOT / "index.html").read_bytes()
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
