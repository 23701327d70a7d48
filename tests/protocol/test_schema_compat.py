"""Today's schema keeps every promise of the last release's
(tests/data/protocol-schema-0.1.0.json, frozen): every message is still
there; a request the release's schema accepted is still accepted (no field
removed, no bound narrowed, nothing newly required); a server message still
carries every field it did, within what the release's clients accept
(fields may be added: clients ignore them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from protocol.schema import protocol_schema

from .schema_compat import Document, covers

BASELINE = Path(__file__).resolve().parents[2] / "tests" / "data" / "protocol-schema-0.1.0.json"


def _messages(document: Document, union: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A union's messages by ``type``, with ``type`` required (the server
    always required it, though the 0.1.0 schema did not say so)."""
    found = {}
    for member in union["oneOf"]:
        model = document.resolve(member)
        found[model["properties"]["type"]["const"]] = {
            **model,
            "required": sorted({"type", *model.get("required", ())}),
        }
    return found


def _release() -> dict[str, tuple[Document, dict[str, Any]]]:
    old = json.loads(BASELINE.read_text())
    return {
        direction: (Document(old[direction]), _messages(Document(old[direction]), old[direction]))
        for direction in ("client_to_server", "server_to_client")
    }


def _today(schema: dict[str, Any] | None = None) -> dict[str, tuple[Document, dict[str, Any]]]:
    new = schema or protocol_schema()
    doc = Document(new)
    return {
        "client_to_server": (doc, _messages(doc, new["$defs"]["ClientMessage"])),
        "server_to_client": (doc, _messages(doc, new["$defs"]["ServerMessage"])),
    }


def compatibility_problems(schema: dict[str, Any] | None = None) -> list[str]:
    """What today's schema (or ``schema``) breaks of the release's promises."""
    old, new = _release(), _today(schema)
    problems: list[str] = []
    old_doc, old_requests = old["client_to_server"]
    new_doc, new_requests = new["client_to_server"]
    for kind, before in old_requests.items():
        if kind not in new_requests:
            problems.append(f"request {kind} removed")
            continue
        problems += covers(new_doc, new_requests[kind], old_doc, before, kind)
    old_doc, old_sent = old["server_to_client"]
    new_doc, new_sent = new["server_to_client"]
    for kind, before in old_sent.items():
        if kind not in new_sent:
            problems.append(f"server message {kind} removed")
            continue
        after = new_sent[kind]
        gone = set(before["properties"]) - set(after["properties"])
        problems += [f"{kind}: field {name!r} removed" for name in sorted(gone)]
        problems += covers(old_doc, before, new_doc, after, kind, extra_fields=True)
    return problems


def test_todays_schema_keeps_the_last_releases_promises() -> None:
    assert compatibility_problems() == []


def _edited(path: list[str], change: Any) -> dict[str, Any]:
    schema = protocol_schema()
    node = schema
    for key in path[:-1]:
        node = node[key]
    if change is None:
        del node[path[-1]]
    else:
        node[path[-1]] = change
    return schema


@pytest.mark.parametrize(
    ("path", "change", "words"),
    [
        (["$defs", "TakeSeat", "properties", "seat", "maximum"], 5, "maximum"),
        (["$defs", "Chat", "properties", "text", "maxLength"], 100, "maxLength"),
        (["$defs", "Hello", "required"], ["type", "id", "version", "name", "client"], "required"),
        (["$defs", "JoinTable", "properties", "invite"], None, "invite"),
        (["$defs", "CardPlayed", "properties", "trick"], None, "removed"),
        (["$defs", "Seated", "required"], ["type", "id", "table_id", "code", "join_path"], "seat"),
        (["$defs", "Stats", "properties", "games", "type"], "string", "type"),
    ],
)
def test_a_removed_or_narrowed_field_is_caught(path: list[str], change: Any, words: str) -> None:
    problems = compatibility_problems(_edited(path, change))
    assert any(words in p for p in problems), problems
