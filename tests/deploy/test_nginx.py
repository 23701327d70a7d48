"""deploy/nginx/hearts.conf: the WebSocket-proxy lines are there, `nginx -t`
accepts it (and its commented TLS block once uncommented), and a real nginx
started with it on 127.0.0.1 carries a WebSocket and plain requests to an
upstream and keeps /metrics to itself.

nginx needs resolvable upstreams, so the tests use a copy in a temporary folder
whose upstream servers (and, for the live test, listen port) point at 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from .helpers import NGINX_CONF, require_tool

TLS_BEGIN = "# --- TLS begin"
TLS_END = "# --- TLS end"


def conf_text() -> str:
    return NGINX_CONF.read_text(encoding="utf-8")


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


def write_test_copy(folder: Path, site: str, upstream: str = "127.0.0.1:8765") -> Path:
    """A main config that includes ``site`` (upstreams pointed at ``upstream``),
    with every path nginx writes inside ``folder``."""
    site = re.sub(r"(server\s+)hearts\d+:8765", rf"\g<1>{upstream}", site)
    (folder / "hearts.conf").write_text(site, encoding="utf-8")
    main = folder / "nginx.conf"
    main.write_text(
        f"""
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/hearts.conf;
}}
""",
        encoding="utf-8",
    )
    return main


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
    result = nginx_test(nginx, write_test_copy(tmp_path, conf_text()))
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
    result = nginx_test(nginx, write_test_copy(tmp_path, site))
    assert result.returncode == 0, result.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def running_nginx(nginx: str, main: Path, port: int) -> Iterator[None]:
    """nginx in the foreground on 127.0.0.1:``port`` until the block ends."""
    folder = main.parent
    files = ["-p", str(folder), "-e", str(folder / "error.log"), "-c", str(main)]
    proc = subprocess.Popen(
        [nginx, *files, "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"nginx did not start: {err}")
            time.sleep(0.05)
        yield
    finally:
        proc.send_signal(signal.SIGQUIT)  # graceful stop of the master we started
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        if proc.stderr:
            proc.stderr.close()


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
        site = conf_text().replace("listen 80 default_server;", f"listen 127.0.0.1:{port};")
        assert f"127.0.0.1:{port}" in site
        main = write_test_copy(tmp_path, site, upstream=f"127.0.0.1:{upstream_port}")
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
