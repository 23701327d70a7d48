"""The admin API (server/admin.py) through its client, ``hearts admin``
(tools/cli/admin.py), against real servers: each command, a wrong token,
the listener kept off the game port, and a drain handing a table over to a
second process on one Redis."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer
from server.connection import player_id_of
from tests.server.conftest import ServerFactory
from tests.server.harness import SHORT_RULES, WireClient
from tools.cli.main import main

TOKEN = secrets.token_urlsafe(24)


@pytest.fixture
def token_file(tmp_path: Path) -> Path:
    path = tmp_path / "admin-token"
    path.write_text(TOKEN + "\n")
    return path


def running(make_server: ServerFactory) -> Any:
    """A server (memory store) with its admin listener on a free port."""
    return make_server(admin_listen="127.0.0.1:0", admin_token=TOKEN)


def admin_url(server: RunningServer) -> str:
    """The URL of the server's admin listener (never its game port)."""
    port = server.listener_port(server.admin_server)
    assert port is not None and port != server.port
    return f"http://127.0.0.1:{port}"


def http_status(url: str) -> int:
    """The status of a GET (blocking)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as exc:
        return exc.code


async def hearts_admin(
    capsys: pytest.CaptureFixture[str], url: str, token_file: Path, *command: str
) -> tuple[int, Any, str]:
    """Run ``hearts admin --json COMMAND`` (blocking, in a thread): its exit
    status, its JSON output (None when it printed none) and its stderr."""
    capsys.readouterr()
    status = await asyncio.to_thread(
        main,
        ["admin", "--url", url, "--token-file", str(token_file), "--as", "ops", "--json", *command],
    )
    printed = capsys.readouterr()
    return status, json.loads(printed.out) if printed.out.strip() else None, printed.err


async def test_a_wrong_token_is_refused_with_one_sentence_and_exit_1(
    make_server: ServerFactory, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = tmp_path / "wrong"
    wrong.write_text("not-the-token-at-all-0123456789")
    async with running(make_server) as server:
        host = await WireClient.open(server.url, "Ann")
        seated = await host.create(seats=("easy", "easy", "easy"))
        status, out, err = await hearts_admin(
            capsys, admin_url(server), wrong, "close", seated.table_id
        )
        assert status == 1 and out is None
        assert err.strip() == (
            "hearts admin: the server refused the admin token (check --token-file)"
        )
        assert seated.table_id in server.lobby.actors  # nothing changed
        await host.close()


async def test_the_admin_api_is_not_on_the_game_port(
    make_server: ServerFactory, token_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(make_server) as server:
        game = f"http://127.0.0.1:{server.port}"
        status, _, err = await hearts_admin(capsys, game, token_file, "tables")
        assert status == 1 and "404" in err
        # Off by default: a server without --admin-listen has no listener.
        async with make_server() as plain:
            assert plain.admin_server is None


async def test_tables_and_show_list_live_tables_with_public_facts_only(
    make_server: ServerFactory, token_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(make_server) as server:
        host = await WireClient.open(server.url, "Ann")
        seated = await host.create(seats=("easy", "medium", "open"), rules=SHORT_RULES)
        await host.start()
        view = await host.snapshot_where(lambda v: bool(v.hand))
        status, out, _ = await hearts_admin(capsys, admin_url(server), token_file, "tables")
        assert status == 0
        (row,) = [r for r in out["tables"] if r["table"] == seated.table_id]
        assert row["variant"] == "standard" and row["seats"] == 4
        assert (row["people"], row["bots"], row["open"]) == (1, 3, 0)
        assert row["owner"] == out["process"] == server.lobby.process
        assert row["age_seconds"] is not None and row["age_seconds"] >= 0
        assert row["last_move_seconds"] is not None

        status, out, _ = await hearts_admin(
            capsys, admin_url(server), token_file, "show", seated.table_id
        )
        assert status == 0
        assert out["table"]["table"] == seated.table_id
        shown = out["view"]
        # A spectator's view: no hand, no seat; the host's cards appear
        # nowhere (none has been played yet at most one trick in).
        assert shown["seat"] is None and shown["hand"] == []
        text = json.dumps(shown)
        assert "token" not in text and "invite" not in text
        played = {p.card for p in view.trick}
        hidden = [c for c in view.hand if c not in played]
        assert hidden
        for card in hidden:
            assert f'"{card}"' not in json.dumps(shown["seats"])

        status, _, err = await hearts_admin(capsys, admin_url(server), token_file, "show", "nope")
        assert status == 1 and "there is no table nope" in err
        await host.close()


async def test_notice_reaches_every_seat_and_spectator(
    make_server: ServerFactory, token_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(make_server) as server:
        host = await WireClient.open(server.url, "Ann")
        seated = await host.create(seats=("easy", "open", "open"))
        guest = await WireClient.open(server.url, "Bob")
        await guest.join(seated.code)
        watcher = await WireClient.open(server.url, "Cy")
        await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
        text = "The server restarts in 5 minutes."
        status, out, _ = await hearts_admin(capsys, admin_url(server), token_file, "notice", text)
        assert status == 0 and out["clients"] == 3
        for client in (host, guest, watcher):
            _, notice = await client.wait_for(lambda m: isinstance(m, sm.Notice))
            assert notice.text == text
        status, _, err = await hearts_admin(capsys, admin_url(server), token_file, "notice", "")
        assert status == 1 and "text is required" in err
        for client in (host, guest, watcher):
            await client.close()


async def test_kick_and_ban_a_player_and_an_address(
    make_server: ServerFactory, token_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(make_server) as server:
        url = admin_url(server)
        host = await WireClient.open(server.url, "Ann")
        seated = await host.create(seats=("easy", "open", "open"))
        guest = await WireClient.open(server.url, "Bob")
        await guest.join(seated.code)
        bob = player_id_of(guest.player_token)

        status, out, _ = await hearts_admin(
            capsys, url, token_file, "kick", "--player", bob, "--reason", "spam"
        )
        assert status == 0 and out["connections_closed"] == 1
        await asyncio.wait_for(guest.closed.wait(), 10)
        assert guest.close_code == 1008
        assert not host.closed.is_set()  # the others stay

        # A kick is not a ban: the same player comes straight back.
        again = await WireClient.open(server.url, "Bob", player_token=guest.player_token)
        status, out, _ = await hearts_admin(
            capsys, url, token_file, "ban", "--player", bob, "--for", "10m"
        )
        assert status == 0 and out["connections_closed"] == 1
        await asyncio.wait_for(again.closed.wait(), 10)
        with pytest.raises((ConnectionError, TimeoutError)):
            await WireClient.open(server.url, "Bob", player_token=guest.player_token)

        # An address: every connection from it is closed and refused.
        status, out, _ = await hearts_admin(
            capsys, url, token_file, "ban", "--address", "127.0.0.1", "--for", "60"
        )
        assert status == 0 and out["connections_closed"] == 1  # the host's
        await asyncio.wait_for(host.closed.wait(), 10)
        refused = await WireClient.open(server.url, "Dee", hello=False)
        await asyncio.wait_for(refused.closed.wait(), 10)
        assert refused.close_code == 1008

        status, _, err = await hearts_admin(
            capsys, url, token_file, "ban", "--address", "127.0.0.1", "--for", "0"
        )
        assert status == 1 and "seconds must be" in err


async def test_close_tells_the_table_and_purge_deletes_it(
    make_server: ServerFactory, token_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(make_server) as server:
        url = admin_url(server)
        host = await WireClient.open(server.url, "Ann")
        seated = await host.create(seats=("easy", "easy", "easy"))
        watcher = await WireClient.open(server.url, "Cy")
        await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
        other = await WireClient.open(server.url, "Bo")
        kept = await other.create(seats=("easy", "easy", "easy"))

        status, out, _ = await hearts_admin(
            capsys, url, token_file, "close", seated.table_id, "--reason", "maintenance"
        )
        assert status == 0 and out["close"] is True and out["clients"] == 2
        for client in (host, watcher):
            _, notice = await client.wait_for(lambda m: isinstance(m, sm.Notice))
            assert "closed this table" in notice.text and "maintenance" in notice.text
            await asyncio.wait_for(client.closed.wait(), 10)
        assert seated.table_id not in server.lobby.actors
        assert await server.store.load_table(seated.table_id) is None
        back = await WireClient.open(server.url, "Ann", player_token=host.player_token)
        refused = await back.error(
            cm.Resume(id=back.next_id(), table_id=seated.table_id, seat_token=host.seat_token)
        )
        assert refused.code == "no_such_table"

        status, out, _ = await hearts_admin(capsys, url, token_file, "purge", kept.table_id)
        assert status == 0 and out["purge"] is True
        await asyncio.wait_for(other.closed.wait(), 10)
        assert await server.store.load_table(kept.table_id) is None
        status, out, _ = await hearts_admin(capsys, url, token_file, "tables")
        assert [r["table"] for r in out["tables"]] == []
        await back.close()


async def test_admin_actions_are_logged_with_who_did_them(
    make_server: ServerFactory,
    token_file: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="hearts.events")
    async with running(make_server) as server:
        status, _, _ = await hearts_admin(capsys, admin_url(server), token_file, "notice", "hi")
        assert status == 0
    actions = [r for r in caplog.records if getattr(r, "fields", {}).get("event") == "admin_action"]
    assert len(actions) == 1
    fields = actions[0].fields  # type: ignore[attr-defined]
    assert fields["action"] == "notice" and fields["operator"] == "ops"
    assert fields["operator_address"] == "127.0.0.1"


async def test_bad_requests_get_a_sentence(
    make_server: ServerFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(make_server) as server:
        url = admin_url(server)

        def post(path: str, body: bytes, token: str = TOKEN) -> tuple[int, dict[str, Any]]:
            request = urllib.request.Request(url + path, data=body, method="POST")
            request.add_header("Authorization", f"Bearer {token}")
            try:
                with urllib.request.urlopen(request, timeout=10) as reply:
                    return reply.status, json.loads(reply.read())
            except urllib.error.HTTPError as exc:
                return exc.code, json.loads(exc.read())

        assert await asyncio.to_thread(post, "/v1/notice", b"{not json") == (
            400,
            {"error": "the body is not JSON"},
        )
        assert (await asyncio.to_thread(post, "/v1/kick", b"{}"))[0] == 400
        assert (await asyncio.to_thread(post, "/v1/nothing", b"{}"))[0] == 404
        assert (await asyncio.to_thread(post, "/v1/notice", b'{"text":"x"}', "Bearer"))[0] == 401
        assert len(server.connections) == 0


async def test_drain_hands_the_tables_over_and_takes_no_new_ones(
    make_server: ServerFactory, token_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running(make_server) as server:
        host = await WireClient.open(server.url, "Ann")
        await host.create(seats=("easy", "easy", "easy"))
        status, out, _ = await hearts_admin(capsys, admin_url(server), token_file, "drain")
        assert status == 0 and out["tables_handed_over"] == 1
        await asyncio.wait_for(host.closed.wait(), 10)
        assert host.close_code == 1012  # "service restart": resume elsewhere
        assert server.lobby.actors == {}
        # The load balancer's probe sends nobody new here.
        ready = await asyncio.to_thread(http_status, f"http://127.0.0.1:{server.port}/readyz")
        assert ready == 503
        # A new table is not made here: the client is sent on (1012) to
        # reconnect, through the load balancer, to another process.
        newcomer = await WireClient.open(server.url, "Bob")
        await newcomer.send(cm.CreateTable(id=newcomer.next_id(), seats=("easy", "easy", "easy")))
        await asyncio.wait_for(newcomer.closed.wait(), 10)
        assert newcomer.close_code == 1012
        assert server.lobby.actors == {}


async def test_drain_moves_a_game_to_the_other_process_on_redis(
    make_server: ServerFactory,
    redis_db: str,
    token_file: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="hearts.events")
    async with (
        make_server(redis_url=redis_db, admin_listen="127.0.0.1:0", admin_token=TOKEN) as first,
        make_server(redis_url=redis_db) as second,
    ):
        host = await WireClient.open(first.url, "Ann")
        seated = await host.create(seats=("easy", "easy", "easy"))
        await host.start()
        await host.snapshot_where(lambda v: v.status == "playing")
        status, out, _ = await hearts_admin(capsys, admin_url(first), token_file, "drain")
        assert status == 0 and out["tables_handed_over"] == 1
        await asyncio.wait_for(host.closed.wait(), 10)
        # The client comes back through the other process, which takes the
        # table at once (the lease was given back).
        back = await WireClient.open(second.url, "Ann", player_token=host.player_token)
        await back.call(
            cm.Resume(id=back.next_id(), table_id=seated.table_id, seat_token=host.seat_token)
        )
        view = await back.snapshot_where(lambda v: v.status == "playing")
        assert view.seat == 0
        assert seated.table_id in second.lobby.actors
        assert seated.table_id not in first.lobby.actors
        moved = [
            r.fields  # type: ignore[attr-defined]
            for r in caplog.records
            if getattr(r, "fields", {}).get("event") == "lease_moved"
        ]
        assert [(m["table"], m["process"]) for m in moved] == [
            (seated.table_id, second.lobby.process)
        ]
        await back.close()


async def test_a_notice_reaches_the_clients_of_every_process_on_redis(
    make_server: ServerFactory,
    redis_db: str,
    token_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    async with (
        make_server(redis_url=redis_db, admin_listen="127.0.0.1:0", admin_token=TOKEN) as first,
        make_server(redis_url=redis_db) as second,
    ):
        host = await WireClient.open(first.url, "Ann")
        seated = await host.create(seats=("open", "easy", "easy"))
        # A friend at the same table through the other process, and a
        # spectator there too: both are the second process's clients.
        friend = await WireClient.open(second.url, "Bob")
        await friend.join(seated.code)
        watcher = await WireClient.open(second.url, "Cy")
        await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
        text = "Maintenance at 22:00 UTC."
        status, out, _ = await hearts_admin(capsys, admin_url(first), token_file, "notice", text)
        assert status == 0 and out["clients"] == 1 and out["other_processes"] == 1
        for client in (host, friend, watcher):
            _, notice = await client.wait_for(lambda m: isinstance(m, sm.Notice))
            assert notice.text == text
        for client in (host, friend, watcher):
            await client.close()
