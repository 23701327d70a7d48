"""protocol.refusals lists exactly what the server refuses with: every
error class's code and every ``not_now`` reason raised in server/, and
nothing that nothing sends."""

from __future__ import annotations

import ast
from pathlib import Path

import engine.errors
import protocol.errors
import server.errors
import server.store.base
from engine.errors import ClientError, ServerFault
from protocol.refusals import ERROR_CODES, NOT_NOW_REASONS, NotNowReason

SERVER = Path(server.errors.__file__).resolve().parent
# Bases of the tree that are never raised as such, and what never reaches a
# connection with its own code (a hand record error is a replay's
# ``replay_unavailable``; a table that moved closes the connection, 1012).
NEVER_SENT = {"bad_request", "protocol_error", "bad_record", "owner_gone"}
# Codes the server writes into an ``error`` itself, not through a class.
_ERROR_CALLS = ("Error", "LimitError", "TableRefused")
_REASON_CALLS = ("NotNow", "ClaimRefused")


def _subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def _raised() -> tuple[set[str], set[str]]:
    """Error codes and reasons written as literals in server/'s calls."""
    codes: set[str] = set()
    reasons: set[str] = set()
    for path in SERVER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            second = node.args[1] if len(node.args) >= 2 else None
            literal = second.value if isinstance(second, ast.Constant) else None
            keywords = {k.arg: k.value for k in node.keywords}
            if name in _REASON_CALLS and literal is not None:
                reasons.add(literal)
            if name in _ERROR_CALLS:
                code = keywords.get("code")
                if isinstance(code, ast.Constant):
                    codes.add(code.value)
                if name in ("LimitError", "TableRefused") and literal is not None:
                    codes.add(literal)
    return codes, reasons


def test_every_error_class_code_is_catalogued() -> None:
    assert engine.errors and protocol.errors and server.store.base  # imported: their classes
    classes = _subclasses(ClientError) | _subclasses(ServerFault)
    codes = {c.code for c in classes} | {ServerFault.code}
    assert codes - NEVER_SENT - set(ERROR_CODES) == set()


def test_every_code_and_reason_raised_in_the_server_is_catalogued() -> None:
    codes, reasons = _raised()
    assert codes, "the scan found no error codes: it is broken"
    assert codes - set(ERROR_CODES) == set()
    assert reasons - set(NOT_NOW_REASONS) == set()


def test_every_catalogued_reason_is_raised_somewhere() -> None:
    _, reasons = _raised()
    assert set(NOT_NOW_REASONS) - reasons == set()


def test_every_catalogued_code_has_a_sender() -> None:
    classes = _subclasses(ClientError) | _subclasses(ServerFault)
    codes, _ = _raised()
    senders = {c.code for c in classes} | codes | {ServerFault.code}
    assert set(ERROR_CODES) - senders == set()


def test_the_reason_type_and_the_catalogue_agree() -> None:
    assert set(NotNowReason.__args__) == set(NOT_NOW_REASONS)  # type: ignore[attr-defined]
