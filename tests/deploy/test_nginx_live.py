"""The shipped nginx site (deploy/nginx/hearts.conf) in front of real Hearts
servers on 127.0.0.1, as an operator runs it:

* 150 players, each from an address of their own, all get in and each
  creates a table, while one address guessing invite codes is locked out
  alone (a player from another address joins by code at once);
* after a full outage (every server stopped) the first connection once a
  server is back goes through at once (no ``max_fails`` lock-out);
* the ACME challenge folder is served by nginx itself.

nginx's own connections to the servers are bound to 127.0.0.2, the proxy
address the servers trust (``--trusted-proxy``), as the compose file trusts
nginx's fixed address; players connect from addresses of 127.0.0.0/8 of
their own, which nginx passes on in ``X-Forwarded-For``.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import decode_server, encode
from protocol.common import PROTOCOL_VERSION
from server.app import RunningServer, start_server
from server.bot_runner import BotRunner
from server.config import ServerConfig

from ..ports import free_port
from .helpers import require_tool
from .nginx_helpers import conf_text, running_nginx, site_with, write_main_config

PROXY = "127.0.0.2"
PLAYERS = 150


def proxied_site(upstreams: list[str], port: int, webroot: Path | None = None) -> str:
    """The shipped site on 127.0.0.1:``port`` in front of ``upstreams``, its
    connections to them from the proxy's address (and, given ``webroot``,
    certbot's folder there)."""
    site = site_with(upstreams, port)
    shipped = "proxy_pass http://hearts_servers;"
    assert shipped in site
    site = site.replace(shipped, f"{shipped}\n        proxy_bind {PROXY};")
    if webroot is not None:
        assert "root /var/www/certbot;" in site
        site = site.replace("root /var/www/certbot;", f"root {webroot};")
    return site


async def request(ws: object, message: cm.Request) -> object:
    """Send ``message`` on ``ws`` and read frames until its reply."""
    await ws.send(encode(message))  # type: ignore[attr-defined]
    while True:
        reply = decode_server(await asyncio.wait_for(ws.recv(), 30))  # type: ignore[attr-defined]
        if getattr(reply, "id", None) == message.id:
            return reply


class Player:
    """One player's WebSocket through nginx, from a source address of its own."""

    def __init__(self, url: str, source: str, name: str) -> None:
        self.url, self.source, self.name = url, source, name
        self.ws: object = None
        self._ids = iter(range(1, 1_000_000))

    def next_id(self) -> int:
        return next(self._ids)

    async def open(self) -> sm.Welcome:
        self.ws = await connect(self.url, open_timeout=30, local_addr=(self.source, 0))
        hello = cm.Hello(id=self.next_id(), version=PROTOCOL_VERSION, name=self.name)
        welcome = await request(self.ws, hello)
        assert isinstance(welcome, sm.Welcome), welcome
        return welcome

    async def ask(self, message: cm.Request) -> object:
        return await request(self.ws, message)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()  # type: ignore[attr-defined]


async def test_150_players_from_150_addresses_get_in_and_a_guesser_locks_out_only_itself(
    tmp_path: Path,
) -> None:
    nginx = require_tool("nginx")
    server = await start_server(
        ServerConfig(port=0, bot_workers=1, bot_budget_ms=30, trusted_proxies=(PROXY,))
    )
    players: list[Player] = []
    try:
        port = free_port()
        main = write_main_config(tmp_path, proxied_site([f"127.0.0.1:{server.port}"], port))
        with running_nginx(nginx, main, port):
            url = f"ws://127.0.0.1:{port}/ws"
            players = [
                Player(url, f"127.0.{1 + n // 200}.{1 + n % 200}", f"P{n}") for n in range(PLAYERS)
            ]
            # Everyone connects at once (more than the 64 connections one
            # address may hold), then everyone creates a table.
            await asyncio.gather(*(p.open() for p in players))
            seated = await asyncio.gather(
                *(
                    p.ask(cm.CreateTable(id=p.next_id(), seats=("open", "easy", "easy")))
                    for p in players
                )
            )
            assert all(isinstance(s, sm.Seated) for s in seated), [
                s for s in seated if not isinstance(s, sm.Seated)
            ]
            assert server.lobby.guard.connections("127.0.1.1") == 1
            assert server.lobby.guard.connections(PROXY) == 0

            # One address guesses codes until it must wait…
            guesser = Player(url, "127.0.9.9", "Guesser")
            await guesser.open()
            for _ in range(20):
                reply = await guesser.ask(cm.JoinTable(id=guesser.next_id(), code="ZZZZZZ"))
                assert isinstance(reply, sm.Error)
                if reply.code == "rate_limited":
                    break
                assert reply.code == "no_such_table"
            else:
                raise AssertionError("the guesser was never throttled")
            # …and a player elsewhere joins by code at once.
            code = seated[0].code  # type: ignore[union-attr]
            joined = await players[1].ask(cm.JoinTable(id=players[1].next_id(), code=code))
            assert isinstance(joined, sm.Seated), joined
            await guesser.close()
    finally:
        await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
        await server.close()
        BotRunner.close(server.bots)


async def first_connection(url: str) -> bool:
    """Whether a WebSocket through nginx opens and is welcomed."""
    try:
        async with connect(url, open_timeout=10) as ws:
            hello = cm.Hello(id=1, version=PROTOCOL_VERSION, name="Back")
            return isinstance(await request(ws, hello), sm.Welcome)
    except (InvalidStatus, OSError):
        return False


async def start_on(port: int) -> RunningServer:
    return await start_server(ServerConfig(port=port, bot_workers=1, trusted_proxies=(PROXY,)))


async def test_after_a_full_outage_the_first_connection_gets_through(tmp_path: Path) -> None:
    """Both upstream servers stop; connections through nginx fail meanwhile
    (enough of them that a max_fails=3 would have set both servers aside
    for its fail_timeout); one server starts again on its port, and the
    very next connection through nginx is served by it."""
    nginx = require_tool("nginx")
    ports = [free_port(), free_port()]
    servers = [await start_on(p) for p in ports]
    try:
        port = free_port()
        upstreams = [f"127.0.0.1:{p}" for p in ports]
        main = write_main_config(tmp_path, proxied_site(upstreams, port))
        with running_nginx(nginx, main, port):
            url = f"ws://127.0.0.1:{port}/ws"
            assert await first_connection(url)
            for server in servers:
                await server.close()
            servers = []
            for _ in range(6):
                assert not await first_connection(url), "served with every server stopped"
            servers.append(await start_on(ports[1]))
            assert await first_connection(url), "nginx kept the restarted server out"
    finally:
        for server in servers:
            await server.close()
            BotRunner.close(server.bots)


def test_the_upstream_sets_no_server_aside_after_failures() -> None:
    servers = re.findall(r"^\s*server\s+hearts\d+:8765([^;]*);", conf_text(), re.MULTILINE)
    assert servers
    for options in servers:
        fails = re.search(r"max_fails=(\d+)", options)
        assert fails is not None and fails.group(1) == "0", options


def http_get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


async def test_nginx_serves_the_acme_challenge_itself(tmp_path: Path) -> None:
    """certbot --webroot writes the token under the webroot; nginx answers
    it on port 80 without asking the servers (here: no server at all)."""
    nginx = require_tool("nginx")
    # Readable by nginx's workers, which may run as another user (nobody)
    # than the test: pytest's own folders are its user's alone.
    with tempfile.TemporaryDirectory() as shared:
        webroot = Path(shared)
        webroot.chmod(0o755)
        challenge = webroot / ".well-known" / "acme-challenge"
        challenge.mkdir(parents=True, mode=0o755)
        (challenge / "tok3n").write_text("tok3n.key-authorization", encoding="utf-8")
        (challenge / "tok3n").chmod(0o644)
        port = free_port()
        site = proxied_site([f"127.0.0.1:{free_port()}"], port, webroot=webroot)
        with running_nginx(nginx, write_main_config(tmp_path, site), port):
            base = f"http://127.0.0.1:{port}/.well-known/acme-challenge"
            status, body = await asyncio.to_thread(http_get, f"{base}/tok3n")
            assert (status, body) == (200, b"tok3n.key-authorization")
            status, _ = await asyncio.to_thread(http_get, f"{base}/missing")
            assert status == 404
