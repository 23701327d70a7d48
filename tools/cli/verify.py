"""``hearts verify FILE``: check JSON Lines hand records against the engine.

One JSON line out per line in (blank lines are skipped), in order. Exit
status: 0 when every record is legal, 1 when any is illegal, 2 when any line
could not be read (that line's answer names its line number); a bad line
never stops the rest.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from engine.errors import RecordError
from engine.record import verify_record


def add_verify_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``verify`` to ``hearts``'s subparsers."""
    verify: argparse.ArgumentParser = subparsers.add_parser(
        "verify", help="check hand records (JSON Lines) against the rules"
    )
    verify.add_argument("file", help="a file of JSON Lines hand records, or - for stdin")
    verify.set_defaults(run=_run)
    return verify


def _run(args: argparse.Namespace) -> int:
    return run_verify(args.file)


def verify_lines(stream: TextIO, out: TextIO) -> int:
    """Verify every record of ``stream``, writing answers to ``out``."""
    status = 0
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        answer: dict[str, Any]
        try:
            answer = verify_record(json.loads(line))
        except json.JSONDecodeError as exc:
            answer = {"ok": False, "line": number, "error": f"not JSON: {exc.msg}"}
        except RecordError as exc:
            answer = {"ok": False, "line": number, "error": exc.message}
        if "line" in answer:
            status = 2
        elif not answer["ok"] and status == 0:
            status = 1
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out.flush()
    return status


def run_verify(path: str) -> int:
    """Entry of the subcommand: ``-`` reads standard input."""
    if path == "-":
        return verify_lines(sys.stdin, sys.stdout)
    try:
        with open(path, encoding="utf-8") as stream:
            return verify_lines(stream, sys.stdout)
    except OSError as exc:
        print(f"hearts verify: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"hearts verify: {path} is not UTF-8 text", file=sys.stderr)
        return 2
