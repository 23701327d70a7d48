"""Rules as a person types them after ``--rules``: the one parser every
command uses (``hearts play``/``host``, ``hearts arena``, the benchmarks).

Two spellings:

* a JSON object, the ``rules`` object of docs/hand-record.md
  (``{"variant": "spot", "players": 5}``);
* ``key=value,key=value`` with the same keys: whole numbers (``end_at=50``),
  ``true``/``false``, ``null``/``none`` (the variant's own), names
  (``moon=choice``) and a pass cycle as ``left+right+hold`` or a named cycle
  (``pass_cycle=none``).

Everything the engine refuses (an unknown key, a bad value, a variant played
by other seat counts) is a ``RulesError`` saying what is wrong; nothing is
half parsed.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from .rules import PASS_CYCLES, Rules, RulesError

# The keys a person may type, in the order docs/rules.md lists them.
RULES_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.init)


def parse_rules(text: str | None) -> Rules:
    """The engine rules ``text`` spells (nothing or blank: the standard game).

    Raises ``RulesError`` (a ``ValueError``) naming what is wrong."""
    if text is None or not text.strip():
        return Rules()
    text = text.strip()
    data = _json_object(text) if text.startswith("{") else _key_values(text)
    unknown = [key for key in data if key not in RULES_KEYS]
    if unknown:
        raise RulesError(f"unknown rules key {unknown[0]!r} (known: {', '.join(RULES_KEYS)})")
    return Rules.from_json(data)


def _json_object(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RulesError(
            f"rules are not valid JSON: {exc.msg} at character {exc.pos + 1}"
        ) from None
    if not isinstance(data, dict):
        raise RulesError("rules must be a JSON object")
    return data


def _key_values(text: str) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for part in text.split(","):
        key, equals, value = (s.strip() for s in part.partition("="))
        if not equals or not key or not value:
            raise RulesError(f"rules are key=value,…; {part.strip()!r} is not key=value")
        if key in data:
            raise RulesError(f"rules key {key!r} is given twice")
        data[key] = _value(key, value)
    return data


def _value(key: str, value: str) -> Any:
    """A typed value as JSON would give it; the engine checks its meaning."""
    if key == "pass_cycle":
        if value in PASS_CYCLES and "+" not in value:
            return value  # a named cycle ("none" is hold every hand)
        return value.split("+")
    if value in ("true", "false"):
        return value == "true"
    if value in ("null", "none"):
        return None
    try:
        return int(value)
    except ValueError:
        return value
