"""docs/protocol.md's reference tables, docs/protocol-schema.json,
docs/asyncapi.yaml and the browser's client/web/js/exchanges.js
(``tools.maintenance.browser_exchanges``), generated from the protocol's
models (``make docs``).

One source: the message unions (``protocol.client_messages.ClientMessage``,
``protocol.server_messages.ServerMessage``), what answers each request
(``protocol.exchanges``), the refusal catalogue (``protocol.refusals``) and
the server's defaults (``server.config.ServerConfig``). Every model of a
union appears, so a message added to a union is documented without
touching this module. In protocol.md only the text between the markers

    <!-- generated: NAME (make docs) -->
    <!-- end generated: NAME -->

is replaced; the prose around it is written by hand. A test checks that
the committed files are what this module generates.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import (
    MAX_CHAT_CHARS,
    MAX_NAME_CHARS,
    MAX_SAFE_INT,
    MAX_TABLE_NAME_CHARS,
    PROTOCOL_VERSION,
    WireModel,
)
from protocol.exchanges import EXCHANGES, Exchange, message_type
from protocol.refusals import ERROR_CODES, LIMIT_REASONS, NOT_NOW_REASONS
from protocol.schema import CLIENT, SERVER, protocol_schema, schema_text
from server.config import ServerConfig
from server.connection import TokenBucket
from server.created_tables import CREATED_REMEMBERED_SECONDS
from server.table_requests import RECENT_REQUESTS
from server.table_state import CHAT_HISTORY
from server.version import package_version

from .browser_exchanges import EXCHANGES_JS, exchanges_module

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL_MD = ROOT / "docs" / "protocol.md"
SCHEMA_JSON = ROOT / "docs" / "protocol-schema.json"
ASYNCAPI_YAML = ROOT / "docs" / "asyncapi.yaml"

Schema = dict[str, Any]
# An enum longer than this is named, not spelt out, in a table cell.
LONG_ENUM = 12


# -- the models ----------------------------------------------------------------


def _members(union: Any) -> list[type[WireModel]]:
    """The models of a discriminated union, in its order."""
    return list(union.__origin__.__args__)


def client_models() -> list[type[cm.Request]]:
    """Every request model."""
    return _members(cm.ClientMessage)  # type: ignore[return-value]


def server_models() -> list[type[WireModel]]:
    """Every server message model."""
    return _members(sm.ServerMessage)


def is_reply(model: type[WireModel]) -> bool:
    """A reply carries its request's ``id``."""
    return "id" in model.model_fields


def is_event(model: type[WireModel]) -> bool:
    """A table event carries the table's ``seq`` (and answers no request)."""
    return "seq" in model.model_fields and not is_reply(model)


def _summary(model: type[WireModel]) -> str:
    """A model's docstring as one line of Markdown."""
    text = " ".join((model.__doc__ or "").split())
    return _cell(text.replace("``", "`"))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _code(names: Iterable[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)


# -- field shapes ------------------------------------------------------------------


def _number(value: int | float) -> str:
    if value == MAX_SAFE_INT:
        return "2^53−1"
    return f"{value:g}" if isinstance(value, float) else str(value)


def shape(prop: Schema, defs: Schema) -> str:
    """A field's JSON shape in a few words: type and bounds."""
    if "$ref" in prop:
        name = prop["$ref"].removeprefix("#/$defs/")
        return f"map ({name.removeprefix('Server')})"
    if "const" in prop:
        return json.dumps(prop["const"])
    if "enum" in prop:
        return _enum_shape(prop["enum"])
    if "anyOf" in prop:
        return _any_of_shape(prop["anyOf"], defs)
    if prop.get("type") == "array":
        return _array_shape(prop, defs)
    shaper = _SCALAR_SHAPES.get(prop.get("type", ""))
    return shaper(prop) if shaper is not None else "any"


def _any_of_shape(options: list[Schema], defs: Schema) -> str:
    kept = [o for o in options if o.get("type") != "null"]
    text = " or ".join(shape(o, defs) for o in kept)
    return f"{text} or null" if len(kept) < len(options) else text


def _enum_shape(values: list[Any]) -> str:
    if len(values) > LONG_ENUM:
        return f"one of {len(values)} stable keys, listed in the schema and below"
    return " / ".join(f"`{json.dumps(v)}`" if v is None else f"`{v}`" for v in values)


def _integer_shape(prop: Schema) -> str:
    low, high = prop.get("minimum"), prop.get("maximum")
    if high is not None:
        return f"integer {_number(low) if low is not None else '…'} … {_number(high)}"
    return "integer" if low is None else f"integer ≥ {_number(low)}"


def _number_shape(prop: Schema) -> str:
    return "number" + (f" ≥ {_number(prop['minimum'])}" if "minimum" in prop else "")


def _string_shape(prop: Schema) -> str:
    if prop.get("pattern") == "^[2-9TJQKA][CDHS]2?$":
        return "card"
    low, high = prop.get("minLength", 0), prop.get("maxLength")
    if high is None:
        return "string" if not low else f"string of {low}+ characters"
    return f"string of {low}–{high} characters"


def _array_shape(prop: Schema, defs: Schema) -> str:
    items = shape(prop.get("items", {}), defs)
    low, high = prop.get("minItems", 0), prop.get("maxItems")
    count = f", {low}–{high}" if high is not None else ""
    return f"list of {items}{count}"


_SCALAR_SHAPES: Mapping[str, Callable[[Schema], str]] = MappingProxyType(
    {
        "integer": _integer_shape,
        "number": _number_shape,
        "string": _string_shape,
        "boolean": lambda _prop: "true / false",
        "object": lambda _prop: "map",
    }
)


def fields_text(model: type[WireModel], defs: Schema, skip: tuple[str, ...] = ()) -> str:
    """``model``'s fields with their shapes; optional ones marked ``?``."""
    schema = defs[model.__name__]
    required = set(schema.get("required", ()))
    parts = []
    for name, prop in schema["properties"].items():
        if name in ("type", *skip):
            continue
        mark = "" if name in required else "?"
        parts.append(f"`{name}`{mark} ({shape(prop, defs)})")
    return _cell("; ".join(parts)) or "—"


# -- the tables ------------------------------------------------------------------


def _table(header: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> str:
    lines = [
        "| " + " | ".join(header) + " |",
        "| " + " | ".join("---" for _ in header) + " |",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def requests_table(defs: Schema) -> str:
    """Every request: its fields and bounds, its answer, what it does."""
    rows = []
    for model in client_models():
        exchange = EXCHANGES.get(model)
        if exchange is None:
            raise LookupError(f"protocol.exchanges.EXCHANGES has no answer for {model.__name__}")
        answer = " / ".join(f"`{message_type(m)}`" for m in exchange.reply)
        if exchange.remembered and exchange.reply == (sm.Ok,):
            # A table action: what it caused comes after the reply.
            answer += ", then its events"
        if exchange.then:
            answer += ", then " + _code(message_type(m) for m in exchange.then)
        rows.append(
            (f"`{message_type(model)}`", fields_text(model, defs, ("id",)), answer, _summary(model))
        )
    return _table(("type", "fields (besides `id`)", "answer", "what it does"), rows)


def server_table(defs: Schema, which: Callable[[type[WireModel]], bool]) -> str:
    """The server messages ``which`` selects, with their fields."""
    rows = [
        (f"`{message_type(m)}`", fields_text(m, defs), _summary(m))
        for m in server_models()
        if which(m)
    ]
    return _table(("type", "fields", "what it says"), rows)


def errors_table() -> str:
    """Every error code."""
    return _table(("code", "when"), ((f"`{c}`", _cell(w)) for c, w in ERROR_CODES.items()))


def reasons_table() -> str:
    """Every ``reason``: the ``not_now`` cases, then the budgets and caps of
    ``too_many_tables`` and ``server_full``, with the requests that get them."""
    rows = (
        (f"`{r}`", _code(case.requests), _cell(case.when))
        for r, case in [*NOT_NOW_REASONS.items(), *LIMIT_REASONS.items()]
    )
    return _table(("`reason`", "requests", "what is not possible now"), rows)


def _kib(size: int) -> str:
    return f"{size // 1024} KiB"


def limits_table(config: ServerConfig) -> str:
    """The limits a client meets, with the server's default values."""
    rows = [
        (
            "frame",
            f"{_kib(config.max_frame_bytes)} (`frame_too_large`); {_kib(config.transport_max_bytes)}"
            " transport maximum (closes with 1009)",
        ),
        (
            "requests",
            f"{config.rate_per_second:,.0f}/s per connection, burst {config.rate_burst:,.0f}"
            " (`rate_limited` with `retry_after`)",
        ),
        (
            "refusals",
            f"{config.max_strikes}, forgiven at {config.strikes_forgiven_per_second:g}/s; one more"
            ' closes the connection (1008 "too many requests")',
        ),
        (
            "name",
            f"{MAX_NAME_CHARS} characters; table name {MAX_TABLE_NAME_CHARS}; chat {MAX_CHAT_CHARS}",
        ),
        (
            "tables created",
            f"per player {config.tables_burst_per_player} at once, refilled at"
            f" {config.tables_per_minute_per_player:g} a minute; per client address"
            f" {config.tables_burst_per_address} at once, refilled at"
            f" {config.tables_per_minute_per_address:g} a minute (`too_many_tables`; the"
            " operator's caps give `server_full`, see deploy.md)",
        ),
        (
            "invite-code lookups that name no table",
            f"{config.free_code_misses} free per client address, then waits of 1, 2, 4 … s"
            f" (up to {config.max_code_wait:g} s)",
        ),
        ("connections", f"{config.max_connections_per_address} open per client address"),
        (
            "send queue",
            f"{_kib(config.send_queue_bytes)} per connection; a client whose queue fills is"
            ' disconnected (1008 "too slow: send queue full", or the socket is cut after'
            f" {config.close_timeout:g} s) and may resume",
        ),
        ("records reply", f"{_kib(config.send_queue_bytes // 4)} of records (one hand at least)"),
        (
            "hand reviews",
            f"per player {config.analysis_burst} seat-hands at once, refilled at"
            f" {config.analysis_per_minute:g} a minute; per process {config.analysis_max_pending}"
            f" at a time; {config.analysis_worlds} deals per decision (`rate_limited` with"
            " `retry_after`; a review made once is kept, see [Hand review](#hand-review))",
        ),
        ("chat history", f"the last {CHAT_HISTORY} lines"),
        (
            "remembered requests",
            f"table actions: the last {RECENT_REQUESTS} per seat, for the table's life;"
            f" `create_table`: per player, for {CREATED_REMEMBERED_SECONDS // 60} minutes"
            " (see [Safe retries](#safe-retries))",
        ),
        ("away seat covered by a bot after", f"{config.grace_seconds:g} s"),
    ]
    return _table(("limit", "value"), rows)


def budget_text(config: ServerConfig) -> str:
    """The request budget in a sentence, with its ``retry_after``."""
    share = TokenBucket(config.rate_per_second, config.rate_burst).retry_after()
    return (
        f"Each connection has a token bucket: {config.rate_per_second:,.0f} requests a"
        f" second, with a burst of {config.rate_burst:,.0f}. A request refused over it is"
        f" told to wait one request's share, 1/{config.rate_per_second:,.0f} s rounded up"
        f" to the millisecond: `retry_after` {share:g}."
    )


def bounds_table(defs: Schema) -> str:
    """Every field a client sends, with its bound and the requests that have it."""
    bounds: dict[tuple[str, str], list[str]] = {}
    for model in client_models():
        schema = defs[model.__name__]
        for name, prop in schema["properties"].items():
            if name == "type":
                continue
            bounds.setdefault((name, shape(prop, defs)), []).append(message_type(model))
    rules = defs["RulesModel"]["properties"]
    for name, prop in rules.items():
        bounds.setdefault((f"rules.{name}", shape(prop, defs)), []).append("create_table")
    every = len(client_models())
    rows = []
    for (name, bound), where in sorted(bounds.items()):
        used = "every request" if len(where) == every else _code(where)
        rows.append((f"`{name}`", _cell(bound), used))
    return _table(("field", "bound", "in"), rows)


def version_line() -> str:
    """The protocol and package versions these tables describe."""
    return f"Protocol version {PROTOCOL_VERSION}, as served by Hearts {package_version()}."


def blocks(config: ServerConfig | None = None) -> dict[str, str]:
    """Every generated block of protocol.md, by name."""
    defs = protocol_schema()["$defs"]
    config = config or ServerConfig()
    return {
        "version": version_line(),
        "requests": requests_table(defs),
        "replies": server_table(defs, is_reply),
        "events": server_table(defs, is_event),
        "other-messages": server_table(defs, lambda m: not is_reply(m) and not is_event(m)),
        "errors": errors_table(),
        "reasons": reasons_table(),
        "limits": limits_table(config),
        "budget": budget_text(config),
        "bounds": bounds_table(defs),
    }


_BLOCK = re.compile(
    r"(<!-- generated: (?P<name>[a-z-]+) \(make docs\) -->\n)(?P<body>.*?)(<!-- end generated: (?P=name) -->)",
    re.DOTALL,
)


def fill(text: str, generated: dict[str, str]) -> str:
    """``text`` with each marked block's body replaced by ``generated[name]``;
    ``KeyError`` for a marker naming no block, ``ValueError`` for a block
    that has no marker."""
    seen: set[str] = set()

    def body(match: re.Match[str]) -> str:
        name = match["name"]
        seen.add(name)
        return f"{match[1]}{generated[name]}\n{match[4]}"

    filled = _BLOCK.sub(body, text)
    missing = set(generated) - seen
    if missing:
        raise ValueError(f"protocol.md has no marker for {sorted(missing)}")
    return filled


# -- AsyncAPI ------------------------------------------------------------------


def _components(node: Any) -> Any:
    """A schema with its references moved from ``$defs`` to AsyncAPI's components."""
    if isinstance(node, dict):
        out = {k: _components(v) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str):
            out["$ref"] = ref.replace("#/$defs/", "#/components/schemas/")
        return out
    if isinstance(node, list):
        return [_components(v) for v in node]
    return node


def _with_error(replies: tuple[type[WireModel], ...]) -> list[type[WireModel]]:
    """A request's replies and the refusal every request may get."""
    return [*replies, sm.Error]


def _message_ref(model: type[WireModel]) -> dict[str, str]:
    return {"$ref": f"#/channels/table/messages/{message_type(model)}"}


def asyncapi() -> dict[str, Any]:
    """The AsyncAPI 3 document of the protocol, from the server's side:
    it receives requests and replies to them, and sends events."""
    schema = protocol_schema()
    defs = schema["$defs"]
    messages = {
        message_type(model): _asyncapi_message(model)
        for model in [*client_models(), *server_models()]
    }
    operations = {message_type(m): _request_operation(m, e) for m, e in EXCHANGES.items()}
    replies = {m for e in EXCHANGES.values() for m in e.reply} | {sm.Error}
    for model in server_models():
        if model not in replies:
            operations[message_type(model)] = _send_operation(model)
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Hearts online wire protocol",
            "version": f"{PROTOCOL_VERSION}.0.0",
            "description": "Generated from the protocol's models (`make docs`); see"
            " docs/protocol.md. Every frame is a binary WebSocket frame holding one msgpack"
            " map; the schemas describe its JSON form. Clients ignore fields and message"
            " types they do not know.",
        },
        "defaultContentType": "application/msgpack",
        "servers": {
            "local": {
                "host": "127.0.0.1:8765",
                "protocol": "ws",
                "description": "`hearts serve`'s default address",
            }
        },
        "channels": {
            "table": {
                "address": "/ws",
                "title": "One connection",
                "description": "Requests (each with an `id`) go up; replies (with that `id`),"
                " table events (with `seq`) and snapshots come down.",
                "messages": messages,
            }
        },
        "operations": operations,
        "components": {
            "schemas": _components({k: v for k, v in defs.items() if k not in (CLIENT, SERVER)})
        },
    }


def _role(model: type[WireModel]) -> str:
    if model in EXCHANGES:
        return "request"
    if is_event(model):
        return "event"
    return "reply" if is_reply(model) else "message"


def _asyncapi_message(model: type[WireModel]) -> dict[str, Any]:
    kind = message_type(model)
    return {
        "name": kind,
        "title": model.__name__,
        "summary": " ".join((model.__doc__ or "").split()).replace("``", "`"),
        "contentType": "application/msgpack",
        "payload": {"$ref": f"#/components/schemas/{model.__name__}"},
        "tags": [{"name": _role(model)}],
    }


def _request_operation(model: type[WireModel], exchange: Exchange) -> dict[str, Any]:
    """A request the server receives: its reply and what may follow it."""
    kind = message_type(model)
    reasons = [r for r, case in NOT_NOW_REASONS.items() if kind in case.requests]
    refusal = "May be refused with `error`"
    if reasons:
        refusal += " (`not_now` reasons: " + ", ".join(f"`{r}`" for r in reasons) + ")"
    then = ", ".join(f"`{message_type(m)}`" for m in exchange.then)
    if exchange.remembered and exchange.reply == (sm.Ok,):
        then = f"the events it caused (each with `seq`), {then}"
    return {
        "action": "receive",
        "channel": {"$ref": "#/channels/table"},
        "summary": f"`{kind}` request",
        "description": refusal + "." + (f" After the reply: {then}." if then else ""),
        "messages": [_message_ref(model)],
        "reply": {
            "channel": {"$ref": "#/channels/table"},
            "messages": [_message_ref(m) for m in _with_error(exchange.reply)],
        },
        "x-not-now-reasons": reasons,
        "x-remembered": exchange.remembered,
    }


def _send_operation(model: type[WireModel]) -> dict[str, Any]:
    """A message the server sends unasked: a table event or a notice."""
    kind = message_type(model)
    summary = f"`{kind}` table event (with `seq`)" if is_event(model) else f"`{kind}` message"
    return {
        "action": "send",
        "channel": {"$ref": "#/channels/table"},
        "summary": summary,
        "messages": [_message_ref(model)],
    }


_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


def to_yaml(node: Any, indent: int = 0) -> str:
    """``node`` as block-style YAML (scalars in JSON form, which YAML reads)."""
    if isinstance(node, dict) and node:
        return _yaml_map(node, indent)
    if isinstance(node, list) and node:
        return _yaml_list(node, indent)
    return " " * indent + json.dumps(node, ensure_ascii=False)


def _nested(value: Any) -> bool:
    return isinstance(value, dict | list) and bool(value)


def _yaml_map(node: dict[str, Any], indent: int) -> str:
    pad = " " * indent
    lines = []
    for key, value in node.items():
        name = key if _PLAIN_KEY.match(key) else json.dumps(key)
        if _nested(value):
            lines.append(f"{pad}{name}:\n{to_yaml(value, indent + 2)}")
        else:
            lines.append(f"{pad}{name}: {to_yaml(value).strip()}")
    return "\n".join(lines)


def _yaml_list(node: list[Any], indent: int) -> str:
    pad = " " * indent
    lines = []
    for value in node:
        text = to_yaml(value, indent + 2)
        item = text[indent + 2 :] if isinstance(value, dict | list) else text.strip()
        lines.append(f"{pad}- {item}")
    return "\n".join(lines)


def asyncapi_text() -> str:
    """docs/asyncapi.yaml as committed."""
    return "# Generated by `make docs` (tools/maintenance/protocol_docs.py): do not edit.\n" + (
        to_yaml(asyncapi()) + "\n"
    )


# -- the files -------------------------------------------------------------------


def generated_files() -> dict[Path, str]:
    """Each generated file's path and the text it should hold."""
    return {
        PROTOCOL_MD: fill(PROTOCOL_MD.read_text(), blocks()),
        SCHEMA_JSON: schema_text(),
        ASYNCAPI_YAML: asyncapi_text(),
        EXCHANGES_JS: exchanges_module(),
    }


def main() -> None:
    """Write the generated files (``--check``: only say which differ)."""
    check = "--check" in sys.argv[1:]
    stale = []
    for path, text in generated_files().items():
        if not path.exists() or path.read_text() != text:
            stale.append(path)
            if not check:
                path.write_text(text)
    for path in stale:
        print(f"{'stale' if check else 'wrote'}: {path.relative_to(ROOT)}")
    if check and stale:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
