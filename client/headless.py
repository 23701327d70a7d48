"""``hearts host``/``join``/``resume`` with ``--autoplay``: play a seat by bot
and print every event as a JSON line (for scripts and tests).

The first line is ``{"type": "table", "code", "seat", "table_id", "link"}``
(``link``: the invite link to share, which seats its holder at once); the
last is ``{"type": "game_over", "totals", "winner"}``; the exit status is 0
at game over. At game over the game's hand records are appended to
``--records FILE`` (a server gives a game's records only once it is over:
they hold every seat's cards). A player a bot covered for gets a ``bot_covered`` line when back.
Removed by the host (a ``kicked`` line), the command says so on stderr and
exits with status 3: the seat is forgotten and nothing is retried.

``hearts join`` takes a code or a link (``--invite`` gives the secret
apart). A refusal is said on stderr with exit status 1, a seat saved in the
session file staying there until a new one is granted; a server throttling
wrong codes from our address is not asked again (its wait is said). At a
table whose host approves who sits, the command knocks, waits for the
host's answer (stderr says so) and joins if let in; a refusal exits with
status 4.

``hearts resume`` asks the server saved with the seat (``--server`` asks
another) under the saved name, and says on stderr which server it asked; a
refused resume leaves the session file as it was.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from engine.rules import RulesError
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView

from .autoplay import Move, choose_move
from .invite import share_link
from .rules_option import table_rules
from .seat_player import NOT_LET_IN_STATUS, NotLetIn, SeatPlayer, join_or_knock
from .session import (
    DEFAULT_NAME,
    DEFAULT_SERVER,
    ClientSession,
    RequestFailed,
    SavedSession,
    SessionClosed,
    default_session_file,
    resume_target,
)


def throttled_sentence(retry_after: float | None) -> str:
    """What a player is told when the server refuses lookups by code."""
    wait = math.ceil(retry_after or 1)
    return f"too many wrong codes from your network; try again in {wait} s (or use the invite link)"


def add_headless_arguments(p: argparse.ArgumentParser) -> None:
    """Options shared by host, join and resume."""
    p.add_argument(
        "--server",
        default=None,
        help=f"the server's WebSocket URL (default {DEFAULT_SERVER}; resume: the saved seat's)",
    )
    p.add_argument(
        "--name", default=None, help=f"your name (default {DEFAULT_NAME}; resume: the saved one)"
    )
    p.add_argument("--autoplay", metavar="LEVEL", choices=("easy", "medium", "hard"))
    p.add_argument("--json", action="store_true", help="print events as JSON lines")
    p.add_argument(
        "--records", metavar="FILE", help="append the game's hand records here at game over"
    )
    p.add_argument("--session-file", metavar="FILE", help="where tokens are kept")
    p.add_argument("--seed", type=int, default=None, help="seed of the autoplay bot")
    p.add_argument("--budget-ms", type=int, default=300, help="autoplay bot time per move")


class Autoplayer(SeatPlayer):
    """Plays one seat by bot until game over, printing JSON lines."""

    def __init__(self, session: ClientSession, args: argparse.Namespace) -> None:
        super().__init__(session, str(getattr(args, "command", "") or "hearts"), args.json)
        self.level = args.autoplay or "medium"
        self.records = Path(args.records) if args.records else None
        self.rng = random.Random(args.seed)
        self.budget_ms = args.budget_ms
        self.start_when_full = False

    async def on_message(self, msg: BaseModel) -> int | None:
        """Every event as a line; at game over the game's records written
        and the table forgotten."""
        self.emit(msg.model_dump(mode="json"))
        status = await super().on_message(msg)
        if status is not None:
            return status
        if isinstance(msg, sm.GameOver):
            await self._write_records()
            self.session.forget_table()
            return 0
        return None

    async def before_view(self, view: SeatView) -> bool:
        """The host starts the game once every seat is taken."""
        if (
            self.start_when_full
            and view.status == "waiting"
            and all(s.kind != "open" for s in view.seats)
        ):
            self.start_when_full = False
            await self.attempt(cm.StartGame(id=self.session.next_id()))
            return False
        return True

    async def choose(self, view: SeatView) -> Move:
        """The autoplay level's move (in a thread: a long think never stalls
        the socket)."""
        return await asyncio.to_thread(choose_move, view, self.level, self.rng, self.budget_ms)

    async def _write_records(self) -> None:
        """The game just over is the table's latest finished one; its
        records come a bounded amount per reply, ``next_hand`` leading on."""
        if self.records is None:
            return
        records: list[str] = []
        from_hand: int | None = 1
        while from_hand is not None:
            reply = await self.session.request(
                cm.GetRecords(id=self.session.next_id(), from_hand=from_hand)
            )
            assert isinstance(reply, sm.Records)  # the server answers get_records with records
            records += reply.records
            from_hand = reply.next_hand
        with self.records.open("a", encoding="utf-8") as out:
            for record in records:
                out.write(record + "\n")


def _session_file(args: argparse.Namespace) -> Path:
    return Path(args.session_file) if args.session_file else default_session_file()


def _session(args: argparse.Namespace) -> ClientSession:
    """A session for a new seat (host, join): the server and name given. A
    seat saved in the file stays there until the new one is granted."""
    return ClientSession(
        args.server, args.name, session_file=_session_file(args), resume_saved=False
    )


def _table_line(session: ClientSession, reply: sm.Seated) -> dict[str, Any]:
    link = share_link(session.url, reply.join_path) if reply.join_path else ""
    return {
        "type": "table",
        "code": reply.code,
        "seat": reply.seat,
        "table_id": reply.table_id,
        "link": link,
    }


async def _host(args: argparse.Namespace) -> int:
    rules = table_rules(args.rules)  # refused before connecting
    session = _session(args)
    await session.connect()
    player = Autoplayer(session, args)
    try:
        seats = tuple(s.strip() for s in args.seats.split(","))
        reply = await session.request(
            cm.CreateTable(
                id=session.next_id(),
                name=args.table_name or "",
                public=args.public,
                rules=rules,
                seats=seats,
                approval=args.approval,
                turn_seconds=getattr(args, "turn_timer", None),
            )
        )
        assert isinstance(reply, sm.Seated)  # create_table is answered with seated
        player.emit(_table_line(session, reply))
        player.start_when_full = True
        return await player.run()
    finally:
        await session.close()


async def _join(args: argparse.Namespace) -> int:
    session = _session(args)
    await session.connect()
    player = Autoplayer(session, args)
    try:
        try:
            reply = await _enter(session, player, args)
        except NotLetIn as exc:
            player.say(str(exc))
            return NOT_LET_IN_STATUS
        player.emit(_table_line(session, reply))
        return await player.run()
    finally:
        await session.close()


async def _enter(session: ClientSession, player: Autoplayer, args: argparse.Namespace) -> sm.Seated:
    """Join by code or link, knocking first at a table whose host approves
    who sits (``NotLetIn`` if the host says no)."""

    def knocking() -> None:
        player.say(
            "the host lets players in at this table: knocking and waiting for the host's "
            "answer (Ctrl+C stops)"
        )

    try:
        return await join_or_knock(
            session,
            args.code,
            args.seat,
            args.invite,
            knocking,
            let_in=lambda: player.say("the host let you in"),
        )
    except NotLetIn as exc:
        raise NotLetIn(f"the host did not let you in ({exc})") from None


async def _resume(args: argparse.Namespace) -> int:
    path = _session_file(args)
    saved = SavedSession.load(path)
    if not (saved.table_id and saved.seat_token):
        print("hearts resume: no saved seat to resume", file=sys.stderr)
        return 2
    server, name = resume_target(saved, args.server, args.name)
    args.server = server  # for the "cannot reach" message
    code = saved.code or saved.table_id
    print(f"hearts resume: asking {server} for seat {saved.seat} at table {code}", file=sys.stderr)
    session = ClientSession(server, name, session_file=path)
    try:
        await session.connect()
    except RequestFailed as exc:
        await session.close()
        print(
            f"hearts resume: {server} refused the saved seat: {exc.message} ({exc.code}). "
            f"{path} is unchanged; if you played on another server, give it with --server.",
            file=sys.stderr,
        )
        return 1
    player = Autoplayer(session, args)
    try:
        player.emit(
            {
                "type": "table",
                "code": session.code,
                "seat": session.seat,
                "table_id": session.table_id,
                "link": share_link(session.url, session.join_path) if session.join_path else "",
            }
        )
        return await player.run()
    finally:
        await session.close()


def run_headless(command: str, args: argparse.Namespace) -> int:
    """Entry for host/join/resume with --autoplay."""
    runner = {"host": _host, "join": _join, "resume": _resume}[command]
    if command != "resume":  # resume takes what is not given from the saved seat
        args.server = args.server or DEFAULT_SERVER
        args.name = args.name or DEFAULT_NAME
    try:
        return asyncio.run(runner(args))
    except RulesError as exc:
        print(f"hearts {command}: {exc}", file=sys.stderr)
        return 2
    except (RequestFailed, OSError, SessionClosed) as exc:
        print(f"hearts {command}: {_failure(exc, args.server)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _failure(exc: Exception, server: str) -> str:
    """Why the game could not go on, in one sentence."""
    if isinstance(exc, RequestFailed):
        if exc.code == "rate_limited" and exc.retry_after is not None:
            return throttled_sentence(exc.retry_after)
        return f"{exc.message} ({exc.code})"
    if isinstance(exc, OSError):
        return f"cannot reach {server}: {exc}"
    return f"{server}: {exc}"
