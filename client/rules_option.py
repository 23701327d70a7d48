"""``--rules`` of ``hearts play``/``host``: the engine's parser
(``engine.rules_text``), then the wire's own limits (``RulesModel``), both
refused as one ``RulesError`` sentence before anything is sent."""

from __future__ import annotations

from pydantic import ValidationError

from engine.rules import RulesError
from engine.rules_text import parse_rules
from protocol.common import RulesModel


def table_rules(text: str | None) -> RulesModel:
    """The rules ``text`` spells, as a table is created with them.

    Raises ``RulesError`` naming the first field the engine or the wire
    refuses (the wire caps what the engine allows, e.g. ``end_at``)."""
    rules = parse_rules(text)
    try:
        return RulesModel.from_rules(rules)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "rules"
        raise RulesError(f"{field}: {first['msg']}") from None
