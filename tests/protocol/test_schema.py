"""docs/protocol-schema.json: generated from the models, taken by a
standard JSON Schema 2020-12 validator in strict mode, and as strict or as
open as the protocol is (closed requests, open server messages, enums of
the refusal catalogue)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.refusals import ERROR_CODES, NOT_NOW_REASONS
from protocol.schema import protocol_schema, schema_text

from .strict_schema import strict_problems, validator

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "protocol-schema.json"
BASELINE = ROOT / "tests" / "data" / "protocol-schema-0.1.0.json"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    """The committed schema file."""
    loaded: dict[str, Any] = json.loads(COMMITTED.read_text())
    return loaded


def test_committed_schema_matches_the_models() -> None:
    assert COMMITTED.read_text() == schema_text(), "run: make docs"


def test_the_schema_passes_a_strict_2020_12_check(schema: dict[str, Any]) -> None:
    assert strict_problems(schema) == []


def test_the_strict_check_refuses_what_the_old_schema_did_wrong() -> None:
    """The schema published before: defs nested under each direction while
    references point at the root, and OpenAPI's ``discriminator``."""
    problems = strict_problems(json.loads(BASELINE.read_text()))
    assert any("discriminator" in p for p in problems)
    assert any("does not resolve" in p for p in problems)


def test_a_non_message_is_refused(schema: dict[str, Any]) -> None:
    check = validator(schema)
    assert not check.is_valid(42)
    assert not check.is_valid({})
    assert not check.is_valid({"id": 1})  # no type: the server refuses it too


def test_every_request_sample_is_valid_and_its_type_required(schema: dict[str, Any]) -> None:
    check = validator(schema, "ClientMessage")
    for message in (
        cm.Hello(id=1, version=1, name="Ann"),
        cm.CreateTable(id="a", seats=("easy",) * 9, rules={"variant": "cancellation"}),  # type: ignore[arg-type]
        cm.JoinTable(id=2, code="ABC-DEF", seat=9),
        cm.PassCards(id=3, cards=("QS", "AH", "KH2")),
        cm.GetReplay(id=4, hand=2),
    ):
        data = message.model_dump(mode="json")
        assert check.is_valid(data), list(check.iter_errors(data))
        assert not check.is_valid({k: v for k, v in data.items() if k != "type"})


def test_requests_are_closed_and_bounded(schema: dict[str, Any]) -> None:
    check = validator(schema, "ClientMessage")
    assert not check.is_valid({"type": "ping", "id": 1, "extra": True})
    assert not check.is_valid({"type": "take_seat", "id": 1, "seat": 10})
    assert not check.is_valid({"type": "ping", "id": 2**53})
    assert not check.is_valid({"type": "play_card", "id": 1, "card": "1X"})
    assert check.is_valid({"type": "take_seat", "id": 1, "seat": 9})


def test_server_messages_are_open_to_added_fields(schema: dict[str, Any]) -> None:
    check = validator(schema, "ServerMessage")
    ok = sm.Ok(id=1).model_dump(mode="json")
    assert check.is_valid({**ok, "added_later": [1, 2]})
    snapshot_rules = {"type": "card_played", "seq": 3, "seat": 1, "card": "QS", "trick": 0}
    assert check.is_valid({**snapshot_rules, "new": "field"})
    assert not check.is_valid({"seq": 3, "seat": 1, "card": "QS", "trick": 0})


def test_error_codes_and_reasons_are_the_catalogues_enums(schema: dict[str, Any]) -> None:
    check = validator(schema, "ServerMessage")
    for code in ERROR_CODES:
        assert check.is_valid({"type": "error", "id": 1, "code": code, "message": "m"})
    for reason in NOT_NOW_REASONS:
        assert check.is_valid(
            {"type": "error", "id": 1, "code": "not_now", "message": "m", "reason": reason}
        )
    assert not check.is_valid({"type": "error", "id": 1, "code": "made_up", "message": "m"})
    assert not check.is_valid(
        {"type": "error", "id": 1, "code": "not_now", "message": "m", "reason": "made_up"}
    )


def test_the_schema_is_built_from_the_unions_alone() -> None:
    """Every model of both unions is a ``oneOf`` member of its direction:
    a message model added to a union appears without touching the builder."""
    built = protocol_schema()["$defs"]
    for union, name in ((cm.ClientMessage, "ClientMessage"), (sm.ServerMessage, "ServerMessage")):
        members = {m.__name__ for m in union.__origin__.__args__}  # type: ignore[attr-defined]
        refs = {r["$ref"].removeprefix("#/$defs/") for r in built[name]["oneOf"]}
        assert refs == members
