"""Sentences for invalid client messages: which field, and what it expects.

pydantic's own messages name internals (a regular expression, a class name)
and one bad request id yields an error per member of its union; a client
writer needs the field's path and what to send instead, e.g.
``play_card: field 'card': expected a card like "QS"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from pydantic_core import ErrorDetails

from .common import CARD_PATTERN

MAX_PATH_CHARS = 60  # a path can hold a client's own key: never echo much of it


def field_path(loc: Sequence[int | str]) -> str:
    """``rules.pass_cycle[2]`` for the location ``("rules", "pass_cycle", 2)``."""
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else part)
    return path if len(path) <= MAX_PATH_CHARS else path[: MAX_PATH_CHARS - 1] + "…"


def _entries(n: object) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


# pydantic error types whose sentence needs nothing from the error.
_FIXED: Mapping[str, str] = MappingProxyType(
    {
        "missing": "required",
        "extra_forbidden": "unknown field",
        "bool_type": "expected true or false",
        "tuple_type": "expected an array",
        "list_type": "expected an array",
        "model_type": "expected a map",
        "model_attributes_type": "expected a map",
        "dict_type": "expected a map",
    }
)


def _type_sentence(kind: str, value: object) -> str | None:
    # The two types a client most often confuses with another.
    if kind == "string_type":
        return "expected a string" + (", not binary data" if isinstance(value, bytes) else "")
    if kind == "int_type":
        return "expected an integer" + (", not a boolean" if isinstance(value, bool) else "")
    return None


def _bound_sentence(kind: str, ctx: dict[str, Any]) -> str | None:
    if kind == "string_too_short":
        n = ctx.get("min_length", 1)
        return "must not be empty" if n == 1 else f"expected at least {n} characters"
    if kind == "string_too_long":
        return f"expected at most {ctx.get('max_length')} characters"
    if kind in ("greater_than_equal", "greater_than"):
        return f"expected at least {ctx.get('ge', ctx.get('gt'))}"
    if kind in ("less_than_equal", "less_than"):
        return f"expected at most {ctx.get('le', ctx.get('lt'))}"
    if kind == "too_short":
        return f"expected at least {_entries(ctx.get('min_length'))}"
    if kind == "too_long":
        return f"expected at most {_entries(ctx.get('max_length'))}"
    return None


def _shape_sentence(kind: str, ctx: dict[str, Any]) -> str | None:
    if kind == "string_pattern_mismatch":
        if ctx.get("pattern") == CARD_PATTERN:
            return 'expected a card like "QS" (rank 2-9 T J Q K A, suit C D H S)'
        return "is not in the expected format"
    if kind == "literal_error":
        return f"expected {ctx.get('expected')}"
    return None


def expectation(error: ErrorDetails) -> str:
    """What the field expects, in words (or what is wrong with it)."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    sentence = (
        _FIXED.get(kind)
        or _type_sentence(kind, error.get("input"))
        or _bound_sentence(kind, ctx)
        or _shape_sentence(kind, ctx)
    )
    # Custom errors (the request id) and the rest: pydantic's sentence names
    # what was expected without our internals.
    return sentence if sentence is not None else error["msg"]


def describe(kind: str, errors: Sequence[ErrorDetails]) -> str:
    """The sentence for a ``kind`` message that failed with ``errors``: the
    first problem, with its field."""
    first = errors[0]
    # The first element of a location is the message's type (the union tag).
    path = field_path(first["loc"][1:])
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    if not path:
        return f"{kind}: {expectation(first)}{more}"
    return f"{kind}: field {path!r}: {expectation(first)}{more}"
