"""``hearts host/join/resume --autoplay --json`` as real subprocesses against
an in-process server: JSON lines from the table line to game over, exit 0,
and hand records that ``hearts verify`` accepts; ``hearts resume`` on the
saved server and a refused resume that changes nothing; a player removed by
the host; a player told what a bot did in their name."""

from __future__ import annotations

import asyncio
import json
import logging
import stat
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from client.rules_option import table_rules
from client.session import ClientSession
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView
from server.app import RunningServer, start_server
from server.bot_runner import BotRunner, Decided, decide_in_worker
from server.config import ServerConfig
from server.state_format import FORMAT
from server.store import CommitRequest
from server.table_state import json_bytes

# Starts hearts (or other programs) as child processes.
pytestmark = pytest.mark.subprocess

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 90.0


class ThreadBots(BotRunner):
    """The server's bots deciding in a thread (same function as the worker
    processes, no process start-up)."""

    async def decide(self, view: SeatView, level: str, seed: int, table: str = "") -> Decided:
        """The bot's move."""
        return await asyncio.to_thread(decide_in_worker, view, level, seed, self.budget_ms)


@pytest.fixture
async def server() -> AsyncIterator[RunningServer]:
    """A server on a free port in the test's loop."""
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1)
    running = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    yield running
    await running.close()


async def hearts(*args: str) -> asyncio.subprocess.Process:
    """Start ``hearts ARGS`` (the module entry point, from the repo)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tools.cli.main",
        *args,
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def first_line(proc: asyncio.subprocess.Process) -> dict[str, Any]:
    """The first JSON line a command prints."""
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), TIMEOUT)
    assert line, (await proc.stderr.read()).decode() if proc.stderr else "no output"
    data: dict[str, Any] = json.loads(line)
    return data


async def rest(proc: asyncio.subprocess.Process) -> tuple[int, list[dict[str, Any]], str]:
    """Exit status, the remaining JSON lines and stderr, once it exits."""
    out, err = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    lines = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
    return proc.returncode or 0, lines, err.decode()


async def test_host_and_join_autoplay_to_game_over(server: RunningServer, tmp_path: Path) -> None:
    """``hearts host`` with one open seat prints its invite link, and ``hearts
    join LINK`` (no --server: the link names it) takes the seat; they play a
    two-hand game by bot to the end; the host's records verify."""
    records = tmp_path / "records.jsonl"
    host_session = tmp_path / "host.json"
    host = await hearts(
        "host",
        "--server",
        server.url,
        "--autoplay",
        "easy",
        "--json",
        "--records",
        str(records),
        "--seats",
        "open,easy,medium",
        "--rules",
        "end=hands,end_at=2",
        "--session-file",
        str(host_session),
        "--seed",
        "1",
        "--budget-ms",
        "20",
        "--name",
        "Hosty",
    )
    table = await first_line(host)
    assert table["type"] == "table" and table["seat"] == 0
    assert set(table) == {"type", "code", "seat", "table_id", "link"}
    assert table["link"].startswith(f"http://127.0.0.1:{server.port}/t/{table['code']}#k=")
    joiner = await hearts(
        "join",
        table["link"],
        "--autoplay",
        "medium",
        "--json",
        "--session-file",
        str(tmp_path / "join.json"),
        "--seed",
        "2",
    )
    joined = await first_line(joiner)
    assert joined == {**table, "seat": 1}

    for proc in (host, joiner):
        status, lines, err = await rest(proc)
        assert status == 0, err
        last = lines[-1]
        assert last["type"] == "game_over" and set(last) >= {"totals", "winner"}
        assert last["winner"] == last["totals"].index(min(last["totals"]))
        assert not [line for line in lines if line["type"] == "refused"]
        scored = [line for line in lines if line["type"] == "hand_scored"]
        assert len(scored) >= 2 and scored[-1]["totals"] == last["totals"]
        if proc is host:
            host_scored, host_last = scored, last

    assert len(records.read_text().splitlines()) == len(host_scored)
    verify = await hearts("verify", str(records))
    status, answers, err = await rest(verify)
    assert status == 0, err
    assert all(a["ok"] and a["complete"] for a in answers)
    totals = [sum(a["points"][s] for a in answers) for s in range(4)]
    assert totals == host_last["totals"]
    # The session file is private and forgets the table at game over.
    assert stat.S_IMODE(host_session.stat().st_mode) == 0o600
    saved = json.loads(host_session.read_text())
    assert saved["player_token"] and saved["table_id"] is None


async def test_join_with_an_unknown_code_fails_cleanly(
    server: RunningServer, tmp_path: Path
) -> None:
    """A code nobody has: exit 1 and the server's reason on stderr."""
    proc = await hearts(
        "join",
        "ZZZ-ZZZ",
        "--server",
        server.url,
        "--autoplay",
        "easy",
        "--json",
        "--session-file",
        str(tmp_path / "s.json"),
    )
    status, lines, err = await rest(proc)
    assert status == 1 and lines == []
    assert "no_such_table" in err and "ZZZ-ZZZ" in err


async def test_resume_without_a_saved_seat(tmp_path: Path) -> None:
    """``hearts resume`` with an empty session file: exit 2, a clear message."""
    proc = await hearts(
        "resume",
        "--autoplay",
        "easy",
        "--server",
        "ws://127.0.0.1:9/ws",
        "--session-file",
        str(tmp_path / "none.json"),
    )
    status, lines, err = await rest(proc)
    assert status == 2 and lines == []
    assert "no saved seat" in err


async def test_no_server_answers(tmp_path: Path) -> None:
    """Nothing listening: exit 1 with 'cannot reach' instead of a traceback."""
    proc = await hearts(
        "host",
        "--server",
        "ws://127.0.0.1:9/ws",
        "--autoplay",
        "easy",
        "--session-file",
        str(tmp_path / "s.json"),
    )
    status, _, err = await rest(proc)
    assert status == 1
    assert "cannot reach" in err and "Traceback" not in err


async def saved_seat(url: str, path: Path, **table: Any) -> sm.Seated:
    """A seat at a new table of three bots, its game started, saved in
    ``path`` by a session named Alice, which then goes away (its seat kept,
    the game paused until she is back)."""
    session = ClientSession(url, "Alice", session_file=path)
    await session.connect()
    try:
        reply = await session.request(
            cm.CreateTable(id=session.next_id(), seats=("easy", "easy", "easy"), **table)
        )
        assert isinstance(reply, sm.Seated)
        await session.request(cm.StartGame(id=session.next_id()))
        return reply
    finally:
        await session.close()


async def test_resume_asks_the_saved_server_under_the_saved_name(
    server: RunningServer, tmp_path: Path
) -> None:
    """No --server, no --name: the seat is resumed on the server saved with
    it, under the saved name, which stderr names; the game is played out."""
    path = tmp_path / "session.json"
    seated = await saved_seat(server.url, path, rules=table_rules("end=hands,end_at=1"))
    proc = await hearts("resume", "--autoplay", "easy", "--json", "--session-file", str(path))
    table = await first_line(proc)
    assert table == {
        "type": "table",
        "code": seated.code,
        "seat": 0,
        "table_id": seated.table_id,
        "link": f"http://127.0.0.1:{server.port}{seated.join_path}",
    }
    status, lines, err = await rest(proc)
    assert status == 0, err
    assert f"asking {server.url}" in err
    assert lines[-1]["type"] == "game_over"
    saved = json.loads(path.read_text())
    assert (saved["server"], saved["name"]) == (server.url, "Alice")


async def test_a_resume_refused_by_another_server_leaves_the_session_file_as_it_was(
    server: RunningServer, tmp_path: Path
) -> None:
    """--server names a server that does not know the table: exit 1, stderr
    says which server refused, and the file is byte for byte as it was (seat,
    tokens, name, server); the saved server then takes the seat back."""
    path = tmp_path / "session.json"
    seated = await saved_seat(server.url, path)
    before = path.read_bytes()
    async with another_server() as other:
        proc = await hearts(
            "resume", "--autoplay", "easy", "--server", other.url, "--session-file", str(path)
        )
        status, lines, err = await rest(proc)
    assert status == 1 and lines == []
    assert f"{other.url} refused the saved seat" in err and "no_such_table" in err
    assert "unchanged" in err and "Traceback" not in err
    assert path.read_bytes() == before

    proc = await hearts("resume", "--autoplay", "easy", "--json", "--session-file", str(path))
    assert (await first_line(proc))["table_id"] == seated.table_id
    proc.kill()
    await proc.wait()


async def test_a_player_removed_by_the_host_is_told_and_exits(
    server: RunningServer, tmp_path: Path
) -> None:
    """``kicked``: a JSON line, a sentence on stderr, exit status 3 at once
    (no retry), and the seat gone from the session file."""
    host = ClientSession(server.url, "Hostess")
    await host.connect()
    try:
        created = await host.request(
            cm.CreateTable(id=host.next_id(), seats=("open", "easy", "easy"))
        )
        assert isinstance(created, sm.Seated)
        path = tmp_path / "guest.json"
        guest = await hearts(
            "join", created.code, "--server", server.url, "--autoplay", "easy", "--json",
            "--session-file", str(path),
        )  # fmt: skip
        assert (await first_line(guest))["seat"] == 1
        await host.request(cm.Kick(id=host.next_id(), seat=1))
        status, lines, err = await rest(guest)
    finally:
        await host.close()
    assert status == 3
    assert lines[-1] == {
        "type": "kicked",
        "table_id": created.table_id,
        "message": "the host removed you from this table",
    }
    assert "hearts join: the host removed you from the table" in err
    saved = json.loads(path.read_text())
    assert saved["table_id"] is None and saved["seat_token"] is None


async def test_a_player_a_bot_covered_for_is_told_what_it_did(tmp_path: Path) -> None:
    """A joiner goes away (its process dies) before the deal; the host is
    still there, so after the grace period a bot passes for it. Resumed, it
    prints a ``bot_covered`` line with the cards the bot passed."""
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1, grace_seconds=0.3)
    server = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    host = ClientSession(server.url, "Hostess")
    try:
        await host.connect()
        created = await host.request(
            cm.CreateTable(id=host.next_id(), seats=("open", "easy", "easy"))
        )
        assert isinstance(created, sm.Seated)
        path = tmp_path / "guest.json"
        guest = await hearts(
            "join", created.code, "--server", server.url, "--autoplay", "easy", "--json",
            "--session-file", str(path),
        )  # fmt: skip
        assert (await first_line(guest))["seat"] == 1
        guest.kill()  # gone without a word, its seat kept
        await guest.wait()
        await until_view(host, lambda v: v.seats[1].away)
        await host.request(cm.StartGame(id=host.next_id()))
        await until_view(host, lambda v: v.seats[1].bot_covering and v.seats[1].passed)

        back = await hearts("resume", "--autoplay", "easy", "--json", "--session-file", str(path))
        assert (await first_line(back))["seat"] == 1
        covered = await line_of_type(back, "bot_covered")
        back.kill()
        await back.wait()
    finally:
        await host.close()
        await server.close()
    assert covered["seat"] == 1 and covered["played"] == [] and covered["moon_choice"] is None
    assert len(covered["passed"]) == 3


async def until_view(session: ClientSession, check: Callable[[SeatView], bool]) -> SeatView:
    """The first snapshot (queued or coming) whose view passes ``check``."""

    async def scan() -> SeatView:
        async for msg in session.events():
            if isinstance(msg, sm.Snapshot) and check(msg.view):
                return msg.view
        raise AssertionError("the session closed")

    return await asyncio.wait_for(scan(), TIMEOUT)


async def line_of_type(proc: asyncio.subprocess.Process, kind: str) -> dict[str, Any]:
    """Read JSON lines until one of type ``kind``."""
    assert proc.stdout is not None

    async def scan() -> dict[str, Any]:
        assert proc.stdout is not None
        while line := await proc.stdout.readline():
            data: dict[str, Any] = json.loads(line)
            if data["type"] == kind:
                return data
        raise AssertionError(f"no {kind} line before the end of the output")

    return await asyncio.wait_for(scan(), TIMEOUT)


@asynccontextmanager
async def another_server() -> AsyncIterator[RunningServer]:
    """A second server with its own (memory) store: it knows none of the
    first one's tables."""
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1)
    other = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    try:
        yield other
    finally:
        await other.close()


async def test_a_wrong_code_keeps_the_saved_seat_and_a_granted_seat_replaces_it(
    server: RunningServer, tmp_path: Path
) -> None:
    """``hearts join WRONG`` (and a join by link to a table that is gone)
    exits 1 and leaves the session file byte for byte; a join that is
    granted a seat replaces the saved one."""
    path = tmp_path / "session.json"
    await saved_seat(server.url, path)
    before = path.read_bytes()
    for target in ("ZZZ-ZZZ", f"http://127.0.0.1:{server.port}/t/ZZZZZZ#k=0.nothing"):
        proc = await hearts("join", target, "--autoplay", "easy", "--session-file", str(path))
        status, lines, err = await rest(proc)
        assert status == 1 and lines == [], err
        assert path.read_bytes() == before
    host = ClientSession(server.url, "Hostess")
    await host.connect()
    try:
        created = await host.request(
            cm.CreateTable(id=host.next_id(), seats=("open", "easy", "easy"))
        )
        assert isinstance(created, sm.Seated)
        proc = await hearts(
            "join", created.code, "--server", server.url, "--autoplay", "easy", "--json",
            "--session-file", str(path),
        )  # fmt: skip
        assert (await first_line(proc))["table_id"] == created.table_id
        proc.kill()
        await proc.wait()
    finally:
        await host.close()
    saved = json.loads(path.read_text())
    assert (saved["table_id"], saved["seat"]) == (created.table_id, 1)


async def test_a_throttled_join_says_how_long_to_wait_and_asks_once(tmp_path: Path) -> None:
    """Past its free wrong codes the address must wait: ``hearts join CODE``
    (a code that exists) is refused, says on stderr how long to wait, exits
    1 and asks only once (the server counts one refusal). The invite link
    is let in all the same."""
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1, free_code_misses=0)
    server = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms))
    host = ClientSession(server.url, "Hostess")
    try:
        await host.connect()
        created = await host.request(
            cm.CreateTable(id=host.next_id(), seats=("open", "easy", "easy"))
        )
        assert isinstance(created, sm.Seated)
        # Wrong codes guessed from this address before (as the server counts
        # them): the wait doubles with each, to 32 s after six.
        for _ in range(6):
            server.lobby.guard.miss("127.0.0.1")
        path = tmp_path / "s.json"
        proc = await hearts(
            "join", created.code, "--server", server.url, "--autoplay", "easy",
            "--session-file", str(path),
        )  # fmt: skip
        status, lines, err = await rest(proc)
        assert status == 1 and lines == []
        assert "too many wrong codes from your network; try again in " in err
        wait = int(err.split("try again in ")[1].split(" s")[0])
        assert 20 < wait <= 32
        assert _refused(server) == 1
        link = f"http://127.0.0.1:{server.port}{created.join_path}"
        proc = await hearts(
            "join", link, "--autoplay", "easy", "--json", "--session-file", str(path)
        )
        assert (await first_line(proc))["seat"] == 1
        proc.kill()
        await proc.wait()
    finally:
        await host.close()
        await server.close()


def _refused(server: RunningServer) -> float:
    metrics = server.lobby.metrics
    assert metrics is not None
    for line in metrics.render().decode().splitlines():
        if line.startswith('hearts_code_lookups_total{result="refused"}'):
            return float(line.split()[-1])
    return 0.0


async def approval_table(url: str) -> tuple[ClientSession, sm.Seated]:
    """A host session at a new table that asks before someone sits."""
    host = ClientSession(url, "Hostess")
    await host.connect()
    created = await host.request(
        cm.CreateTable(
            id=host.next_id(),
            seats=("open", "easy", "easy"),
            rules=table_rules("end=hands,end_at=1"),
            approval=True,
        )
    )
    assert isinstance(created, sm.Seated)
    return host, created


async def test_with_only_the_code_join_knocks_and_sits_when_let_in(
    server: RunningServer, tmp_path: Path
) -> None:
    """At a table whose host approves who sits: the command says on stderr
    that it knocks, waits, and once the host lets it in joins and plays."""
    host, created = await approval_table(server.url)
    try:
        proc = await hearts(
            "join", created.code, "--server", server.url, "--name", "Knocker",
            "--autoplay", "easy", "--json", "--session-file", str(tmp_path / "s.json"),
        )  # fmt: skip
        view = await until_view(host, lambda v: bool(v.knocks))
        assert view.knocks[0].name == "Knocker"
        await host.request(
            cm.AnswerKnock(id=host.next_id(), player_id=view.knocks[0].player_id, accept=True)
        )
        table = await first_line(proc)
        assert table["seat"] == 1 and table["code"] == created.code
        proc.kill()
        _, _, err = await rest(proc)
    finally:
        await host.close()
    assert "the host lets players in at this table: knocking" in err
    assert "the host let you in" in err


async def test_a_player_the_host_does_not_let_in_is_told_and_exits_4(
    server: RunningServer, tmp_path: Path
) -> None:
    host, created = await approval_table(server.url)
    try:
        proc = await hearts(
            "join", created.code, "--server", server.url, "--autoplay", "easy",
            "--session-file", str(tmp_path / "s.json"),
        )  # fmt: skip
        view = await until_view(host, lambda v: bool(v.knocks))
        await host.request(
            cm.AnswerKnock(id=host.next_id(), player_id=view.knocks[0].player_id, accept=False)
        )
        status, lines, err = await rest(proc)
    finally:
        await host.close()
    assert status == 4 and lines == []
    assert "hearts join: the host did not let you in" in err


async def test_the_invite_secret_sits_at_once_at_a_table_that_asks_first(
    server: RunningServer, tmp_path: Path
) -> None:
    """``--invite SECRET`` with the code (and the server) is the link: no
    knock; the secret appears nowhere in what the command prints."""
    host, created = await approval_table(server.url)
    secret = created.join_path.partition("#k=")[2]
    try:
        proc = await hearts(
            "join", created.code, "--invite", secret, "--server", server.url,
            "--autoplay", "easy", "--json", "--session-file", str(tmp_path / "s.json"),
        )  # fmt: skip
        assert (await first_line(proc))["seat"] == 1
        proc.kill()
        _, lines, err = await rest(proc)
        assert secret not in err and "knock" not in err
        assert secret not in json.dumps(lines)
    finally:
        await host.close()


async def test_a_link_that_names_no_table_is_refused_without_repeating_it(
    tmp_path: Path,
) -> None:
    secret = "0123456789abcdef.SecretSecretSecret"
    proc = await hearts(
        "join", f"http://127.0.0.1:9/nowhere#k={secret}", "--autoplay", "easy",
        "--session-file", str(tmp_path / "s.json"),
    )  # fmt: skip
    status, _, err = await rest(proc)
    assert status == 2
    assert "hearts join: not a table's link" in err and secret not in err


@pytest.mark.parametrize(
    ("rules", "seats", "kinds"),
    [
        ("variant=widow,players=3,end=hands,end_at=1", "easy,easy", {"widow_taken"}),
        ("variant=domino,players=5,end=hands,end_at=1", "easy,easy,easy,easy", {"seat_out"}),
        ("variant=cancellation,players=7,end=hands,end_at=1", "easy," * 5 + "easy", {"rest_taken"}),
    ],
    ids=["widow", "domino", "cancellation"],
)
async def test_host_plays_a_variant_and_its_records_verify(
    server: RunningServer, tmp_path: Path, rules: str, seats: str, kinds: set[str]
) -> None:
    """``hearts host --rules variant=NAME,players=N --autoplay`` plays the
    variant to game over (the widow's discard included), and ``hearts
    verify`` accepts every record it wrote."""
    records = tmp_path / "records.jsonl"
    host = await hearts(
        "host",
        "--server",
        server.url,
        "--autoplay",
        "easy",
        "--json",
        "--records",
        str(records),
        "--seats",
        seats,
        "--rules",
        rules,
        "--session-file",
        str(tmp_path / "host.json"),
        "--seed",
        "3",
    )
    table = await first_line(host)
    assert table["type"] == "table"
    status, lines, err = await rest(host)
    assert status == 0, err
    assert lines[-1]["type"] == "game_over"
    assert len(lines[-1]["totals"]) == len(seats.split(",")) + 1
    assert not [line for line in lines if line["type"] == "refused"]
    assert kinds <= {line["type"] for line in lines}
    written = records.read_text().splitlines()
    assert len(written) == len([line for line in lines if line["type"] == "hand_scored"]) >= 1
    verify = await hearts("verify", str(records))
    status, answers, err = await rest(verify)
    assert status == 0, err
    assert len(answers) == len(written) and all(a["ok"] and a["complete"] for a in answers)


async def test_a_resume_of_a_table_a_newer_release_stored_exits_1_saying_why(
    server: RunningServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A rolling upgrade under way: the saved table was stored by a newer
    release, in a format this server cannot read. Another server on the
    same store skips it at start-up (one warning) and refuses the resume:
    ``hearts resume`` exits 1 saying why, the session file and the stored
    table stay as they were, and the server carries on with no traceback."""
    path = tmp_path / "session.json"
    seated = await saved_seat(server.url, path)
    before = path.read_bytes()
    store = server.store
    stored = await store.load_table(seated.table_id)
    assert stored is not None
    newer = {**json.loads(stored.state), "format": FORMAT + 1, "readable_from": FORMAT + 1}
    await store.commit(CommitRequest(seated.table_id, stored.version, json_bytes(newer)))
    stored = await store.load_table(seated.table_id)
    config = ServerConfig(port=0, bot_budget_ms=20, bot_workers=1)
    with caplog.at_level(logging.INFO):
        other = await start_server(config, bots=ThreadBots(1, config.bot_budget_ms), store=store)
        try:
            proc = await hearts(
                "resume", "--autoplay", "easy", "--server", other.url, "--session-file", str(path)
            )
            status, lines, err = await rest(proc)
            # The server still serves: a new table is made there.
            bob = ClientSession(other.url, "Bob", session_file=tmp_path / "bob.json")
            await bob.connect()
            try:
                made = await bob.request(cm.CreateTable(id=bob.next_id(), seats=("easy",) * 3))
            finally:
                await bob.close()
        finally:
            await other.close()
    assert status == 1 and lines == [], err
    assert "table_too_new" in err and "newer release" in err and "Traceback" not in err
    assert path.read_bytes() == before
    assert await store.load_table(seated.table_id) == stored
    assert isinstance(made, sm.Seated)
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    assert any(f"table {seated.table_id} not resumed" in r.getMessage() for r in caplog.records)
