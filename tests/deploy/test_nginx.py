"""deploy/nginx/hearts.conf: the WebSocket-proxy lines are there, `nginx -t`
accepts it (and its commented TLS block once uncommented), and a real nginx
started with it on 127.0.0.1 carries a WebSocket and plain requests to an
upstream and keeps /metrics to itself, and a real server behind it budgets
code lookups by each client's own address.

nginx needs resolvable upstreams, so the tests use a copy in a temporary folder
whose upstream servers (and, for the live test, listen port) point at 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import urllib.error
import urllib.request
from http import HTTPStatus
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import decode_server, encode
from protocol.common import PROTOCOL_VERSION
from server.app import start_server
from server.bot_runner import BotRunner
from server.config import ServerConfig

from ..ports import free_port
from .helpers import require_tool
from .nginx_helpers import conf_text, running_nginx, site_with, write_main_config

TLS_BEGIN = "# --- TLS begin"
TLS_END = "# --- TLS end"


def live_lines() -> list[str]:
    """The active (uncommented) lines, stripped."""
    lines = (line.split("#", 1)[0].strip() for line in conf_text().splitlines())
    return [line for line in lines if line]


def tls_block() -> str:
    """The commented TLS server block, uncommented."""
    text = conf_text()
    block = text[text.index(TLS_BEGIN) : text.index(TLS_END)]
    body = block.split("\n# server {", 1)[1]
    lines = ["server {"] + [re.sub(r"^# ?", "", line) for line in body.splitlines()[1:]]
    return "\n".join(lines)


def test_websocket_upgrade_lines_are_there() -> None:
    lines = live_lines()
    text = "\n".join(lines)
    assert re.search(r"map \$http_upgrade \$connection_upgrade \{", text)
    assert "default upgrade;" in lines
    assert "proxy_http_version 1.1;" in lines
    assert "proxy_set_header Upgrade $http_upgrade;" in lines
    assert "proxy_set_header Connection $connection_upgrade;" in lines
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in lines
    assert "proxy_set_header Host $host;" in lines
    (timeout,) = re.findall(r"^proxy_read_timeout (\d+)s;$", text, re.MULTILINE)
    assert int(timeout) >= 600, "idle table sockets must outlive the default 60 s"


def test_commented_tls_block_has_certificates_and_hsts() -> None:
    block = tls_block()
    assert "listen 443 ssl;" in block
    assert re.search(r"ssl_certificate\s+/etc/nginx/certs/\S+;", block)
    assert re.search(r"ssl_certificate_key\s+/etc/nginx/certs/\S+;", block)
    assert 'add_header Strict-Transport-Security "max-age=' in block
    assert "proxy_set_header Upgrade $http_upgrade;" in block
    assert "proxy_set_header X-Forwarded-Proto https;" in block


def test_metrics_are_not_proxied() -> None:
    assert re.search(r"location = /metrics \{\s*return 404;", conf_text())


def nginx_test(nginx: str, main: Path) -> subprocess.CompletedProcess[str]:
    folder = main.parent
    return subprocess.run(
        [nginx, "-t", "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(main)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_nginx_t_accepts_it(tmp_path: Path) -> None:
    nginx = require_tool("nginx")
    result = nginx_test(nginx, write_main_config(tmp_path, site_with(["127.0.0.1:8765"])))
    assert result.returncode == 0, result.stderr


def test_nginx_t_accepts_the_tls_block_uncommented(tmp_path: Path) -> None:
    nginx = require_tool("nginx")
    openssl = require_tool("openssl")
    certificate = "-x509 -nodes -days 1 -subj /CN=hearts.test -newkey ec"
    curve = "-pkeyopt ec_paramgen_curve:prime256v1"
    files = ["-keyout", str(tmp_path / "privkey.pem"), "-out", str(tmp_path / "fullchain.pem")]
    command = [openssl, "req", *certificate.split(), *curve.split(), *files]
    subprocess.run(command, capture_output=True, timeout=30, check=True)
    site = conf_text() + "\n" + tls_block().replace("/etc/nginx/certs", str(tmp_path)) + "\n"
    result = nginx_test(
        nginx, write_main_config(tmp_path, site_with(["127.0.0.1:8765"], site=site))
    )
    assert result.returncode == 0, result.stderr


def http_get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


async def test_a_real_nginx_carries_websockets_and_requests(tmp_path: Path) -> None:
    """The config as shipped (only addresses changed): a WebSocket to /ws goes
    through with its Upgrade and X-Forwarded-For, plain GETs reach the server,
    and /metrics is answered by nginx itself."""
    nginx = require_tool("nginx")
    seen: list[Headers] = []
    paths: list[str] = []

    def routes(conn: ServerConnection, request: Request) -> Response | None:
        seen.append(request.headers)
        paths.append(request.path)
        if request.path == "/ws":
            return None
        body = json.dumps({"path": request.path}).encode()
        return conn.respond(HTTPStatus.OK, body.decode())

    async def echo(ws: ServerConnection) -> None:
        async for message in ws:
            await ws.send(message)

    async with serve(echo, "127.0.0.1", 0, process_request=routes) as upstream:
        upstream_port = next(iter(upstream.sockets)).getsockname()[1]
        port = free_port()
        main = write_main_config(tmp_path, site_with([f"127.0.0.1:{upstream_port}"], port))
        with running_nginx(nginx, main, port):
            async with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5) as ws:
                await ws.send("hello through nginx")
                assert await asyncio.wait_for(ws.recv(), 5) == "hello through nginx"
            upgrade = seen[paths.index("/ws")]
            assert upgrade["Upgrade"].lower() == "websocket"
            assert "upgrade" in upgrade["Connection"].lower()
            assert upgrade["X-Forwarded-For"] == "127.0.0.1"

            status, body = await asyncio.to_thread(http_get, f"http://127.0.0.1:{port}/t/ABCD")
            assert status == 200 and json.loads(body) == {"path": "/t/ABCD"}

            status, _ = await asyncio.to_thread(http_get, f"http://127.0.0.1:{port}/metrics")
            assert status == 404
            assert "/metrics" not in paths


async def _misses_until_refused(url: str, source: str, forged: str) -> int:
    """From ``source`` (a loopback address), with a forged X-Forwarded-For,
    send wrong invite codes until the server says to wait: how many it took."""
    async with connect(
        url, open_timeout=5, local_addr=(source, 0), additional_headers={"X-Forwarded-For": forged}
    ) as ws:
        await ws.send(encode(cm.Hello(id=1, version=PROTOCOL_VERSION, name="Guesser")))
        assert isinstance(decode_server(await asyncio.wait_for(ws.recv(), 5)), sm.Welcome)
        for n in range(1, 20):
            await ws.send(encode(cm.JoinTable(id=n + 1, code="ZZZZZZ")))
            reply = decode_server(await asyncio.wait_for(ws.recv(), 5))
            assert isinstance(reply, sm.Error)
            if reply.code == "rate_limited":
                return n
            assert reply.code == "no_such_table"
    raise AssertionError("never throttled")


async def test_behind_the_shipped_nginx_each_client_spends_its_own_budget(
    tmp_path: Path,
) -> None:
    """A real server trusting only the proxy, behind the shipped site (its
    connections to the server bound to 127.0.0.2, the proxy's own address):
    the server budgets failed code lookups by the client's address as nginx
    saw it, never by what the client wrote in X-Forwarded-For. Two clients
    (127.0.0.1 and 127.0.0.3) forging the same header keep their own
    budgets; one forging another address after it was throttled stays
    throttled."""
    nginx = require_tool("nginx")
    server = await start_server(
        ServerConfig(port=0, bot_workers=1, free_code_misses=2, trusted_proxies=("127.0.0.2",))
    )
    try:
        port = free_port()
        site = site_with([f"127.0.0.1:{server.port}"], port)
        shipped = "proxy_pass http://hearts_servers;"
        assert shipped in site
        site = site.replace(shipped, f"{shipped}\n        proxy_bind 127.0.0.2;")
        with running_nginx(nginx, write_main_config(tmp_path, site), port):
            url = f"ws://127.0.0.1:{port}/ws"
            assert await _misses_until_refused(url, "127.0.0.1", "198.51.100.7") == 4
            assert await _misses_until_refused(url, "127.0.0.3", "198.51.100.7") == 4
            assert await _misses_until_refused(url, "127.0.0.1", "198.51.100.8") == 1
    finally:
        await server.close()
        BotRunner.close(server.bots)
