"""JSON Schema (draft 2020-12) of every wire message, for
docs/protocol-schema.json.

One document: every definition under the root ``$defs``, the two
directions as ``ClientMessage`` and ``ServerMessage`` (each a ``oneOf`` of
its messages, told apart by the ``type`` every message must carry) and a
root ``oneOf`` of the two. Plain JSON Schema: no OpenAPI ``discriminator``.

What a client sends is closed (the server refuses unknown fields); what the
server sends is open (``additionalProperties`` is not false), since fields
may be added within protocol version 1 and clients ignore the ones they do
not know. ``error.code`` and ``error.reason`` are enums of the catalogue in
``protocol.refusals``.

``make docs`` writes the file (tools.maintenance.protocol_docs); a test
checks that the committed file matches the models.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter

from .client_messages import ClientMessage
from .refusals import ERROR_CODES, LIMIT_REASONS, NOT_NOW_REASONS
from .server_messages import ServerMessage

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_ID = "https://hearts.invalid/protocol/v1/protocol-schema.json"
"""The document's base URI: a name, not a place to fetch (``.invalid``)."""

CLIENT = "ClientMessage"
SERVER = "ServerMessage"


def _union(adapter_type: Any) -> dict[str, Any]:
    schema: dict[str, Any] = TypeAdapter(adapter_type).json_schema()
    return schema


def _rename_refs(node: Any, names: dict[str, str]) -> Any:
    """``node`` with every ``$ref`` to a renamed definition pointing to its new name."""
    if isinstance(node, dict):
        out = {k: _rename_refs(v, names) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref.removeprefix("#/$defs/")
            out["$ref"] = f"#/$defs/{names.get(name, name)}"
        return out
    if isinstance(node, list):
        return [_rename_refs(v, names) for v in node]
    return node


def _open(node: Any) -> Any:
    """``node`` (a server-side schema) without ``additionalProperties: false``."""
    if isinstance(node, dict):
        return {
            k: _open(v) for k, v in node.items() if not (k == "additionalProperties" and v is False)
        }
    if isinstance(node, list):
        return [_open(v) for v in node]
    return node


def _require_type(defs: dict[str, Any], union: dict[str, Any]) -> list[dict[str, str]]:
    """Mark ``type`` required in each message of ``union``; its ``oneOf``."""
    members: list[dict[str, str]] = union["oneOf"]
    for member in members:
        model = defs[member["$ref"].removeprefix("#/$defs/")]
        required = model.setdefault("required", [])
        if "type" not in required:
            required.insert(0, "type")
    return members


def _catalogued_error(error: dict[str, Any]) -> None:
    """``error.code`` and ``error.reason`` as enums of ``protocol.refusals``."""
    props = error["properties"]
    props["code"] = {**props["code"], "enum": sorted(ERROR_CODES)}
    props["reason"] = {
        "description": "With `not_now`: which case; with `too_many_tables` and"
        " `server_full`: which budget or cap (a stable key); absent otherwise.",
        "enum": sorted({*NOT_NOW_REASONS, *LIMIT_REASONS}),
        "type": "string",
    }


def protocol_schema() -> dict[str, Any]:
    """Both directions' message unions as one JSON Schema document."""
    client = _union(ClientMessage)
    server = _union(ServerMessage)
    client_defs: dict[str, Any] = client["$defs"]
    # A model both directions use (the rules) is closed where a client
    # sends it and open where the server does: two definitions.
    renamed = {name: f"Server{name}" for name in server["$defs"] if name in client_defs}
    server = _open(_rename_refs(server, renamed))
    server_defs = {renamed.get(k, k): v for k, v in server["$defs"].items()}
    defs = {**client_defs, **server_defs}
    _catalogued_error(defs["Error"])
    defs[CLIENT] = {
        "description": "Every message a client sends (a request: it carries `id`).",
        "oneOf": _require_type(defs, client),
    }
    defs[SERVER] = {
        "description": "Every message a server sends: a reply (with `id`), a table event"
        " (with `seq`), or a message of its own. Clients ignore fields and types they"
        " do not know.",
        "oneOf": _require_type(defs, server),
    }
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": SCHEMA_ID,
        "title": "Hearts wire protocol, version 1 (msgpack maps; this schema describes"
        " their JSON form)",
        "oneOf": [{"$ref": f"#/$defs/{CLIENT}"}, {"$ref": f"#/$defs/{SERVER}"}],
        "$defs": dict(sorted(defs.items())),
    }


def schema_text() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(protocol_schema(), indent=1, sort_keys=True) + "\n"


def main() -> None:
    """Print the schema."""
    print(schema_text(), end="")


if __name__ == "__main__":
    main()
