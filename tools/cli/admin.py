"""``hearts admin``: the client of a server's admin API (server/admin.py).

``hearts admin --url http://HOST:PORT --token-file FILE COMMAND [--json]``:
the URL is the server's ``--admin-listen``, the file holds the same token as
its ``--admin-token-file``. Every action is logged by the server with the
operator's name (``--as``, by default the user name). Exit 0 when the server
did it, 1 with one sentence when it did not (a wrong token, an unknown
table, a server out of reach), 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import getpass
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

TIMEOUT = 30.0
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)\s*([smhd]?)$")
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


class AdminFailed(Exception):
    """What went wrong, in one sentence."""


def duration(text: str) -> float:
    """``90``, ``90s``, ``15m``, ``2h``, ``7d`` in seconds."""
    found = _DURATION.match(text.strip().lower())
    if found is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration (90s, 15m, 2h, 7d)")
    return float(found.group(1)) * _UNIT[found.group(2)]


def add_admin_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``admin`` to ``hearts``'s subparsers."""
    admin: argparse.ArgumentParser = subparsers.add_parser(
        "admin", help="operate a running server through its admin listener"
    )
    admin.add_argument("--url", required=True, help="the server's admin listener, http://HOST:PORT")
    admin.add_argument(
        "--token-file", required=True, metavar="FILE", help="the file holding the admin token"
    )
    admin.add_argument(
        "--as",
        dest="operator",
        default=None,
        metavar="NAME",
        help="your name in the server's log (default: your user name)",
    )
    admin.add_argument("--json", action="store_true", help="print the server's JSON reply")
    commands = admin.add_subparsers(dest="admin_command", required=True, metavar="COMMAND")
    commands.add_parser("tables", help="list the live tables")
    show = commands.add_parser("show", help="one table's public facts")
    show.add_argument("table")
    for name, text in (
        ("close", "tell a table's players and spectators, send them away, delete it"),
        ("purge", "delete a table at once"),
    ):
        act = commands.add_parser(name, help=text)
        act.add_argument("table")
        act.add_argument("--reason", default="", help="shown to the players (close)")
    for name, text in (
        ("kick", "close a player's or an address's connections"),
        ("ban", "kick, and refuse them for a time"),
    ):
        act = commands.add_parser(name, help=text)
        who = act.add_mutually_exclusive_group(required=True)
        who.add_argument("--player", metavar="ID", help="a player id (as tables and logs show)")
        who.add_argument("--address", metavar="IP", help="a client address")
        act.add_argument("--reason", default="", help="said to them and logged")
        if name == "ban":
            act.add_argument(
                "--for",
                dest="seconds",
                type=duration,
                required=True,
                metavar="DURATION",
                help="how long: 90s, 15m, 2h, 7d",
            )
    notice = commands.add_parser("notice", help="a message every seat and spectator sees")
    notice.add_argument("text")
    commands.add_parser(
        "drain", help="take no new tables and hand this process's tables over (before a stop)"
    )
    admin.set_defaults(run=run_admin)
    return admin


def request_of(args: argparse.Namespace) -> tuple[str, str, dict[str, Any] | None]:
    """The API request a command is: method, path, body."""
    command = args.admin_command
    table = urllib.parse.quote(getattr(args, "table", ""), safe="")
    if command == "tables":
        return "GET", "/v1/tables", None
    if command == "show":
        return "GET", f"/v1/tables/{table}", None
    if command in ("close", "purge"):
        return "POST", f"/v1/tables/{table}/{command}", {"reason": args.reason}
    if command in ("kick", "ban"):
        body: dict[str, Any] = {"reason": args.reason}
        body["player" if args.player else "address"] = args.player or args.address
        if command == "ban":
            body["seconds"] = args.seconds
        return "POST", f"/v1/{command}", body
    if command == "notice":
        return "POST", "/v1/notice", {"text": args.text}
    return "POST", "/v1/drain", {}


def call(
    url: str, token: str, operator: str, method: str, path: str, body: dict[str, Any] | None
) -> dict[str, Any]:
    """One API call; the JSON reply, or ``AdminFailed`` saying why not."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url.rstrip("/") + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("X-Hearts-Operator", operator)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            reply = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        if exc.code == 401:
            raise AdminFailed("the server refused the admin token (check --token-file)") from None
        try:
            message = json.loads(exc.read()).get("error", exc.reason)
        except ValueError:
            message = exc.reason
        raise AdminFailed(f"the server said no ({exc.code}): {message}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise AdminFailed(f"cannot reach the admin listener at {url}: {reason}") from None
    except ValueError:
        raise AdminFailed(f"{url} did not answer as a hearts admin listener") from None
    if not isinstance(reply, dict):
        raise AdminFailed(f"{url} did not answer as a hearts admin listener")
    return reply


def _age(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    if seconds < 120:
        return f"{seconds:.0f}s"
    if seconds < 7200:
        return f"{seconds / 60:.0f}m"
    return f"{seconds / 3600:.1f}h"


def describe(command: str, reply: dict[str, Any]) -> str:
    """A reply as text for a person."""
    if command == "tables":
        rows = reply.get("tables", [])
        lines = [
            f"{'table':16}  {'variant':12} {'seats':>5} {'people':>6} {'bots':>4}  "
            f"{'status':13} {'owner':14} {'age':>6} {'last move':>9}"
        ]
        for row in rows:
            lines.append(
                f"{row['table']:16}  {row['variant']:12} {row['seats']:>5} "
                f"{row['people']:>6} {row['bots']:>4}  {row['status']:13} "
                f"{row['owner'] or '-':14} {_age(row['age_seconds']):>6} "
                f"{_age(row['last_move_seconds']):>9}"
            )
        lines.append(f"{len(rows)} tables (asked process {reply.get('process')})")
        return "\n".join(lines)
    if command == "show":
        table, view = reply["table"], reply["view"]
        lines = [f"{key}: {value}" for key, value in table.items()]
        for seat in view.get("seats", []):
            lines.append(
                f"seat {seat['seat']}: {seat['name']} ({seat['kind']}"
                + (f", {seat['bot_level']}" if seat.get("bot_level") else "")
                + (", away" if seat.get("away") else "")
                + f"), {seat.get('cards_left', 0)} cards"
            )
        return "\n".join(lines)
    return ", ".join(f"{key}: {value}" for key, value in reply.items())


def run_admin(args: argparse.Namespace) -> int:
    """Run one admin command; 0 done, 1 refused or unreachable."""
    try:
        token = Path(args.token_file).expanduser().read_text(encoding="utf-8").strip()
    except OSError as exc:
        print(f"hearts admin: --token-file {args.token_file}: {exc.strerror}", file=sys.stderr)
        return 1
    operator = args.operator or getpass.getuser()
    method, path, body = request_of(args)
    try:
        reply = call(args.url, token, operator, method, path, body)
    except AdminFailed as exc:
        print(f"hearts admin: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(reply, ensure_ascii=False, indent=2))
    else:
        print(describe(args.admin_command, reply))
    return 0
