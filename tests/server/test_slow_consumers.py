"""Clients that stop reading: their sockets pin little memory (a bounded
kernel send buffer), they are dropped within ``close_timeout`` of their send
queue filling (logged, counted in /metrics), and their tables go on; no
hang-up ever waits on a client that reads nothing."""

from __future__ import annotations

import asyncio
import logging
import random
import socket
import time

import pytest
from websockets.asyncio.server import ServerConnection

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from server.app import RunningServer
from server.connection import player_id_of

from .conftest import ServerFactory
from .harness import WireClient, play_until
from .test_rate_limits import metric


def server_side(server: RunningServer, client: WireClient) -> ServerConnection:
    """The server's end of ``client``'s connection."""
    port = client.ws.local_address[1]
    (conn,) = [c for c in server.ws_server.connections if c.remote_address[1] == port]
    return conn


def send_buffer(conn: ServerConnection) -> int:
    """The kernel's send buffer size of a server-side socket."""
    sock = conn.transport.get_extra_info("socket")
    size: int = sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
    return size


@pytest.mark.slow
async def test_a_spectator_that_stops_reading_is_dropped_and_the_game_goes_on(
    server: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A spectator of a table of bots and a fast player stops reading. Its
    socket's kernel buffer stays capped; once its send queue is full it is
    dropped within ``close_timeout`` (log line naming it and the table,
    /metrics count); the player finishes the game without an error."""
    caplog.set_level(logging.WARNING, logger="hearts.connection")
    host = await WireClient.open(server.url, "Host")
    seated = await host.create(
        seats=("easy", "easy", "easy"), rules=RulesModel(end="hands", end_at=60)
    )
    watcher = await WireClient.open(server.url, "Stalled", keepalive=False)
    await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
    conn = server_side(server, watcher)
    # Linux doubles the value asked for (bookkeeping overhead included).
    assert send_buffer(conn) <= 2 * (server.config.socket_send_buffer or 0)
    await host.start()
    game = asyncio.create_task(play_until(host, random.Random(7), timeout=240))
    await watcher.snapshot_where(lambda v: v.status == "playing")
    watcher.stop_reading()
    stalled_at = time.time()
    await asyncio.wait_for(conn.wait_closed(), 120)
    (drop,) = [r for r in caplog.records if r.message.startswith("dropping a slow client")]
    assert drop.message.startswith(
        f"dropping a slow client 'Stalled' (player {player_id_of(watcher.player_token)},"
        f" table {seated.table_id} watching): its send queue is full ("
    )
    # Dropped after it stopped reading, while the table played on; the
    # socket is gone although the client never read the closing frame (so
    # the server did not wait on it: it gave up after its close timeout).
    assert drop.created >= stalled_at
    assert await metric(server, "hearts_clients_dropped_total", reason="slow_consumer") == 1
    final = await asyncio.wait_for(game, 240)
    assert final.status == "game_over" and final.hand_number == 60
    assert watcher.view.status == "playing"  # it never saw the end
    await host.close()
    await watcher.drop()


async def test_a_hang_up_never_waits_on_a_client_that_reads_nothing(
    make_server: ServerFactory,
) -> None:
    """A flooding client that reads nothing: the server's hang-up (1008)
    cannot complete a closing handshake with it, so the socket is aborted
    ``close_timeout`` after the hang-up began; it is counted once."""
    async with make_server(
        rate_per_second=100.0, rate_burst=10.0, max_strikes=5, close_timeout=1.0
    ) as server:
        flooder = await WireClient.open(server.url, "Mute", keepalive=False)
        conn = server_side(server, flooder)
        flooder.stop_reading()
        for i in range(200):
            try:
                await flooder.send(cm.Ping(id=i))
            except Exception:  # the socket is gone already
                break
        # It never reads, so only the server giving up on the closing
        # handshake (after close_timeout) ends the connection.
        await asyncio.wait_for(conn.wait_closed(), 60)
        assert conn.close_code in (1006, 1008)  # aborted, or closed if the frame got through
        assert await metric(server, "hearts_clients_dropped_total", reason="flooding") == 1
        await flooder.drop()


async def test_a_resume_replaying_hundreds_of_events_is_not_taken_for_a_slow_client(
    make_server: ServerFactory,
) -> None:
    """A player away while a bot covers them and the other player finishes
    a five-hand game comes back: the replay (hundreds of events at once,
    more than the send queue ever held as frames) reaches it in full, and
    nobody is dropped."""
    async with make_server(grace_seconds=0.1) as server:
        host = await WireClient.open(server.url, "Away")
        seated = await host.create(
            seats=("open", "easy", "easy"), rules=RulesModel(end="hands", end_at=5)
        )
        guest = await WireClient.open(server.url, "Stays")
        await guest.join(seated.code)
        await host.start()
        last_seq = (await host.snapshot_where(lambda v: v.status == "playing")).seq
        await host.drop()  # a bot covers the seat while the guest plays on
        final_seen = await play_until(guest, random.Random(11), timeout=120)
        assert final_seen.status == "game_over"

        back = await WireClient.open(server.url, "Away", player_token=host.player_token)
        start = len(back.frames)
        reply = await back.call(
            cm.Resume(
                id=back.next_id(),
                table_id=seated.table_id,
                seat_token=host.seat_token,
                last_seq=last_seq,
            )
        )
        assert isinstance(reply, sm.Seated)
        final = await back.snapshot_where(lambda v: v.status == "game_over", start=start)
        replayed = [m for m in back.messages[start:] if hasattr(m, "seq") and m.type != "snapshot"]
        assert len(replayed) > 300
        assert [m.seq for m in replayed] == sorted(m.seq for m in replayed)
        assert replayed[-1].seq <= final.seq
        assert not back.closed.is_set()
        assert isinstance(await back.request(cm.Ping(id=back.next_id())), sm.Ok)
        assert await metric(server, "hearts_clients_dropped_total", reason="slow_consumer") == 0
        await back.close()
        await guest.close()
