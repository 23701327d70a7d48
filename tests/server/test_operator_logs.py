"""Logs for operators (server/lifecycle_log.py, server/logs.py): a real
``hearts serve --log-format json`` through a whole game, its standard error
parsed line by line: every line is JSON, the start-up line among them, one
line per lifecycle event with its fields, access lines for HTTP and the
WebSocket in place of websockets' own, no seat token anywhere; and levels
per logger."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from protocol import client_messages as cm
from server.logs import JsonFormatter, TextFormatter, configure_logging, parse_levels
from tests.ports import free_port
from tests.serve_process import ServeProcess
from tests.server.conftest import ServerFactory
from tests.server.harness import SHORT_RULES, WireClient, play_until
from tools.cli.main import main

# Starts other programs (tests/conftest.py, markers).
pytestmark = pytest.mark.subprocess


def json_lines(text: str) -> list[dict[str, Any]]:
    """Every line of the log as JSON (a line that is not fails the test)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return int(reply.status)


async def test_the_json_log_of_a_whole_game_has_every_lifecycle_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port, admin_port = free_port(), free_port()
    token = tmp_path / "token"
    token.write_text(secrets.token_urlsafe(24))
    args = [
        "--store", "memory", "--port", str(port), "--log-format", "json",
        "--grace", "0.3", "--bot-workers", "1", "--bot-budget-ms", "30",
        "--admin-listen", f"127.0.0.1:{admin_port}", "--admin-token-file", str(token),
    ]  # fmt: skip
    url = f"ws://127.0.0.1:{port}/ws"
    log = tmp_path / "serve.log"
    with ServeProcess(args, log) as served:
        await asyncio.to_thread(served.start)
        assert await asyncio.to_thread(get, f"http://127.0.0.1:{port}/healthz") == 200
        host = await WireClient.open(url, "Ann")
        seated = await host.create(seats=("open", "open", "easy"), rules=SHORT_RULES)
        kicked = await WireClient.open(url, "Kim")
        await kicked.join(seated.code)
        await host.call(cm.Kick(id=host.next_id(), seat=kicked.seat or 1))
        away = await WireClient.open(url, "Cy")
        await away.join(seated.code)
        cy_seat = away.seat
        assert cy_seat is not None
        await host.start()
        # Cy drops: away, then (grace 0.3 s) a bot covers; Cy comes back,
        # then gives the seat up.
        await away.drop()
        await host.snapshot_where(lambda v: v.seats[cy_seat].bot_covering)
        back = await WireClient.open(url, "Cy", player_token=away.player_token)
        await back.call(
            cm.Resume(id=back.next_id(), table_id=seated.table_id, seat_token=away.seat_token)
        )
        await back.call(cm.LeaveSeat(id=back.next_id()))
        await play_until(host, random.Random(7))
        status = await asyncio.to_thread(
            main,
            ["admin", "--url", f"http://127.0.0.1:{admin_port}", "--token-file", str(token),
             "--as", "ops", "close", seated.table_id],
        )  # fmt: skip
        assert status == 0
        await asyncio.wait_for(host.closed.wait(), 10)
        for client in (kicked, back):
            await client.close()
        assert await asyncio.to_thread(served.stop) == 0
    lines = json_lines(log.read_text())
    events: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        assert {"ts", "level", "logger", "message"} <= line.keys()
        if "event" in line:
            events.setdefault(line["event"], []).append(line)
    for event in (
        "serving", "table_created", "player_joined", "player_kicked", "game_started",
        "player_away", "bot_covered", "player_reconnected", "player_left", "game_over",
        "admin_action", "table_closed", "access",
    ):  # fmt: skip
        assert event in events, f"no {event} line in {sorted(events)}"
    assert events["serving"][0]["logger"] == "hearts.serving"
    assert events["serving"][0]["url"] == f"http://127.0.0.1:{port}/"
    created = events["table_created"][0]
    assert created["table"] == seated.table_id and created["variant"] == "standard"
    assert created["address"] == "127.0.0.1" and created["process"]
    assert len(created["player"]) == 16  # the public id's hash, not a token
    for line in events["player_joined"] + events["player_left"] + events["player_kicked"]:
        assert line["table"] == seated.table_id and line["player"]
    assert events["table_closed"][0]["by"] == "ops"
    kinds = {(a["kind"], a["path"], a["status"]) for a in events["access"]}
    assert ("http", "/healthz", 200) in kinds and ("websocket", "/ws", 101) in kinds
    assert all(a["duration_ms"] >= 0 and a["address"] == "127.0.0.1" for a in events["access"])
    text = log.read_text()
    # websockets' own lines are gone; secrets never appear.
    assert "connection open" not in text and "HTTP response sent" not in text
    for secret in (host.player_token, host.seat_token, away.seat_token, away.player_token):
        assert secret and secret not in text


def test_levels_per_logger() -> None:
    assert parse_levels(["warning", "hearts.access=error,hearts.events=debug"]) == {
        "": logging.WARNING,
        "hearts.access": logging.ERROR,
        "hearts.events": logging.DEBUG,
    }
    with pytest.raises(ValueError, match="'loud' is not a log level"):
        parse_levels(["loud"])
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        configure_logging(["warning", "hearts.access=error"], "json")
        # Silencing health checks keeps the takeovers: hearts.events stays
        # at the root's level, the access log at its own.
        assert not logging.getLogger("hearts.access").isEnabledFor(logging.WARNING)
        assert logging.getLogger("hearts.lobby").isEnabledFor(logging.WARNING)
        assert not logging.getLogger("websockets.server").isEnabledFor(logging.INFO)
        assert logging.getLogger("hearts.serving").isEnabledFor(logging.INFO)
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        for name in ("hearts.access", "websockets", "hearts.serving"):
            logging.getLogger(name).setLevel(logging.NOTSET)


def test_fields_in_json_and_in_text() -> None:
    record = logging.LogRecord(
        "hearts.events", logging.INFO, __file__, 1, "table t1 created", (), None
    )
    record.fields = {"event": "table_created", "table": "t1", "variant": "spot"}
    data = json.loads(JsonFormatter().format(record))
    assert data["event"] == "table_created" and data["variant"] == "spot"
    line = TextFormatter().format(record)
    # What the message says already (the table) is not repeated.
    assert line.endswith("table t1 created event=table_created variant=spot")


async def test_banner_goes_through_the_logger_as_json(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    args = ["--store", "memory", "--port", str(port), "--log-format", "json",
            "--log-level", "error", "--bot-workers", "1"]  # fmt: skip
    with ServeProcess(args, log) as served:
        line = await asyncio.to_thread(served.start)
        banner = json.loads(line)
        assert banner["event"] == "serving" and banner["level"] == "info"
        assert banner["store"].startswith("in memory")
        assert await asyncio.to_thread(served.stop) == 0
    # At --log-level error nothing else of a quiet start and stop is said.
    assert [json.loads(x)["event"] for x in log.read_text().splitlines()] == ["serving"]


async def test_a_budget_refusal_is_a_lifecycle_line(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="hearts.events")
    async with make_server(free_code_misses=1) as server:
        guesser = await WireClient.open(server.url, "Gus")
        codes = []
        for code in ("AAAAAA", "BBBBBB", "CCCCCC"):
            codes.append((await guesser.error(cm.JoinTable(id=guesser.next_id(), code=code))).code)
        await guesser.close()
    # Two misses (one free, one that starts the wait), then a refusal.
    assert codes == ["no_such_table", "no_such_table", "rate_limited"]
    refused = [
        r.fields  # type: ignore[attr-defined]
        for r in caplog.records
        if getattr(r, "fields", {}).get("event") == "budget_refused"
    ]
    assert len(refused) == 1
    assert refused[0]["code"] == "rate_limited" and refused[0]["request"] == "join_table"
    assert refused[0]["address"] == "127.0.0.1" and refused[0]["player"]
