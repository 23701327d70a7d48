"""``hearts bot``: any bot (``bots.interface.Bot``) plays a seat at a server.

    hearts bot --server ws://HOST:8765/ws --code ABC-DEF [--seat N] \\
        --bot pkg.module:factory[?key=value&…] [--name NAME] [--seed S]

It joins the table by its code (or invite link) as a program (its hello says
``program: true``, so everyone sees the seat as a program's, never as a
person's) and plays until game over: the bot's ``decide`` gets the seat's
``SeatView`` whenever the view asks something, ``reset()`` (if it has one)
before each hand's first decision; between hands it says ``ready``. After a
dropped connection the session reconnects and resumes the seat
(``client.session``), and the bot carries on from the next view.

A decision is checked against the view before it is sent; a bot that raises
or answers something the view does not allow stops the command (exit 1, the
reason on stderr): the server then treats the seat as a dropped player's (a
bot covers it after the grace period, if a person is at the table).

Output: one JSON line per event (``--json``) or a short line per hand and
the game's end. Exit status: 0 at game over, 1 on a refusal or a bot's
fault, 3 removed by the host, 4 not let in by the host.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import traceback
from pathlib import Path

from pydantic import BaseModel

from bots.api import LEVELS, Decision
from bots.interface import Bot, BotSpecError, decision_problem, load_bot, reset_bot
from bots.lineup import OPENSPIEL_PREFIX, PY_PREFIX, PlayerSpec
from protocol import server_messages as sm
from protocol.view import SeatView

from .autoplay import Move
from .invite import BadTableRef, parse_table_ref
from .seat_player import NOT_LET_IN_STATUS, NotLetIn, SeatPlayer, join_or_knock
from .session import DEFAULT_SERVER, ClientSession, RequestFailed, SessionClosed


class BotFault(Exception):
    """The bot raised, or answered what the view does not allow."""


def move_of(decision: Decision) -> Move:
    """A bot's decision as the move the client sends."""
    if decision.kind == "pass":
        return Move("pass", cards=decision.cards)
    if decision.kind == "play":
        return Move("play", card=decision.card or "")
    if decision.kind == "discard":
        return Move("discard", cards=decision.cards)
    return Move("moon", choice=decision.moon or "")


def decide_checked(bot: Bot, view: SeatView) -> Decision:
    """The bot's decision for ``view``, checked (``BotFault`` otherwise)."""
    try:
        decision = bot.decide(view)
    except Exception as exc:
        raise BotFault(
            f"the bot raised {type(exc).__name__}: {exc}\n{traceback.format_exc()}"
        ) from exc
    problem = decision_problem(view, decision)
    if problem is not None:
        raise BotFault(f"the bot's decision cannot be played: {problem}")
    assert isinstance(decision, Decision)  # decision_problem checked it
    return decision


class BotPlayer(SeatPlayer):
    """Plays one seat with a ``Bot`` until game over."""

    removed_who = "the bot"

    def __init__(self, session: ClientSession, bot: Bot, as_json: bool = False) -> None:
        super().__init__(session, "bot", as_json)
        self.bot = bot
        self.hand_reset = -1  # the hand the bot was last reset for
        self.decisions = 0

    async def on_message(self, msg: BaseModel) -> int | None:
        """Every event as a JSON line with ``--json``; else a line per hand
        and the game's end."""
        if self.as_json:
            self.emit(msg.model_dump(mode="json"))
        elif isinstance(msg, sm.HandScored):
            self.emit(
                {"hand": msg.hand_number, "points": list(msg.points), "totals": list(msg.totals)}
            )
        status = await super().on_message(msg)
        if status is not None:
            return status
        if isinstance(msg, sm.GameOver):
            if not self.as_json:
                self.emit({"game_over": True, "totals": list(msg.totals), "winner": msg.winner})
            return 0
        return None

    def on_end(self) -> int:
        say("the connection ended before the game did")
        return 1

    async def choose(self, view: SeatView) -> Move:
        """Ready between hands; otherwise the bot's checked decision."""
        if view.status == "between_hands":
            return Move("ready")
        if view.hand_number != self.hand_reset:
            self.hand_reset = view.hand_number
            reset_bot(self.bot)
        # In a thread: a bot that thinks long never stalls the socket
        # (the session keeps reading, answering pings, resuming).
        decision = await asyncio.to_thread(decide_checked, self.bot, view)
        self.decisions += 1
        return move_of(decision)


def say(sentence: str) -> None:
    """A line for whoever runs the command, on stderr (stdout is for events)."""
    print(f"hearts bot: {sentence}", file=sys.stderr, flush=True)


def add_bot_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``hearts bot``."""
    p.add_argument(
        "--server", default=None, help=f"the server's WebSocket URL (default {DEFAULT_SERVER})"
    )
    p.add_argument(
        "--code", required=True, help="the table's invite code (ABC-DEF) or its invite link"
    )
    p.add_argument("--invite", default=None, help=argparse.SUPPRESS)
    p.add_argument(
        "--seat", type=int, default=None, help="the seat to take (default: the first open)"
    )
    p.add_argument(
        "--bot",
        required=True,
        metavar="SPEC",
        help="the bot: pkg.module:factory, options as ?key=value&…; or an arena player: "
        "easy, medium, hard, openspiel:ismcts?sims=N",
    )
    p.add_argument("--name", default=None, help="the seat's name (default: the factory's name)")
    p.add_argument("--seed", type=int, default=None, help="passed to a factory that takes seed")
    p.add_argument("--json", action="store_true", help="print every event as a JSON line")
    p.add_argument(
        "--session-file",
        metavar="FILE",
        default=None,
        help="keep the seat's tokens here (default: none; the seat is resumed after "
        "drops while the command runs)",
    )


async def _play(args: argparse.Namespace, bot: Bot, code: str, invite: str | None) -> int:
    session = ClientSession(
        args.server,
        args.name,
        session_file=Path(args.session_file) if args.session_file else None,
        resume_saved=False,
        program=True,
    )
    await session.connect()
    player = BotPlayer(session, bot, as_json=args.json)
    try:
        try:
            reply = await join_or_knock(
                session,
                code,
                args.seat,
                invite,
                lambda: say(
                    "the host lets players in at this table: knocking and waiting for an answer"
                ),
            )
        except NotLetIn as exc:
            say(f"the host did not let the bot in ({exc})")
            return NOT_LET_IN_STATUS
        player.emit(
            {"type": "table", "code": reply.code, "seat": reply.seat, "table_id": reply.table_id}
        )
        return await player.run()
    finally:
        await session.close()


def make_bot_of(spec: str, seed: int | None) -> Bot:
    """The bot ``--bot`` names: ``pkg.module:factory``, or any arena player
    spec (``hard``, ``py:pkg.module:factory``, ``openspiel:ismcts?sims=…``)."""
    if spec in LEVELS or spec.startswith((PY_PREFIX, OPENSPIEL_PREFIX)):
        return PlayerSpec(spec).make(seed if seed is not None else random.randrange(2**63))
    return load_bot(spec, seed)


def run_bot_command(args: argparse.Namespace) -> int:
    """``hearts bot`` with parsed ``args``; returns the exit status."""
    try:
        ref = parse_table_ref(args.code, args.invite)
    except BadTableRef as exc:
        say(str(exc))
        return 2
    args.server = args.server or ref.server or DEFAULT_SERVER
    try:
        bot = make_bot_of(args.bot, args.seed)
    except BotSpecError as exc:
        say(str(exc))
        return 2
    if args.name is None:
        args.name = args.bot.partition("?")[0].rpartition(":")[2][:24].strip() or "Bot"
    try:
        return asyncio.run(_play(args, bot, ref.code, ref.invite))
    except (BotFault, RequestFailed, OSError, SessionClosed) as exc:
        say(_failure(exc, args.server))
        return 1
    except KeyboardInterrupt:
        return 130


def _failure(exc: Exception, server: str) -> str:
    """The one line ``hearts bot`` ends with when the game cannot go on."""
    if isinstance(exc, RequestFailed):
        return f"{exc.message} ({exc.code})"
    if isinstance(exc, OSError):
        return f"cannot reach {server}: {exc}"
    if isinstance(exc, SessionClosed):
        return f"{server}: {exc}"
    return str(exc)
