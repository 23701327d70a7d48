"""A JSON Schema 2020-12 check in strict mode, with Python ``jsonschema``.

``jsonschema`` checks a schema against the draft's meta-schema, which lets
any unknown keyword through (a typo, or another dialect's keyword such as
OpenAPI's ``discriminator``, is silently ignored). Strict mode here means
what Ajv's ``strict`` does for that: every keyword must be one of the
draft's, and every ``$ref`` must resolve within the document.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

# The keywords of the 2020-12 vocabularies (core, applicator, unevaluated,
# validation, meta-data, format-annotation, content).
KEYWORDS = frozenset(
    [
        "$schema",
        "$id",
        "$ref",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$vocabulary",
        "$comment",
        "$defs",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "prefixItems",
        "items",
        "contains",
        "properties",
        "patternProperties",
        "additionalProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "type",
        "enum",
        "const",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxContains",
        "minContains",
        "maxProperties",
        "minProperties",
        "required",
        "dependentRequired",
        "title",
        "description",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "examples",
        "format",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
    ]
)
# Keywords whose value is a map of names to schemas, not a schema.
_SCHEMA_MAPS = frozenset(("$defs", "properties", "patternProperties", "dependentSchemas"))
# Keywords whose value is data, never a schema.
_DATA = frozenset(("const", "enum", "default", "examples"))


def _schemas(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (sub)schema of ``node`` with its JSON pointer."""
    if not isinstance(node, dict):
        return
    yield where, node
    for key, value in node.items():
        if key in _DATA:
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                yield from _schemas(sub, f"{where}/{key}/{name}")
        elif isinstance(value, dict):
            yield from _schemas(value, f"{where}/{key}")
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                yield from _schemas(sub, f"{where}/{key}/{i}")


def strict_problems(schema: dict[str, Any]) -> list[str]:
    """What a strict 2020-12 validator refuses in ``schema`` (empty: nothing)."""
    problems = [
        f"meta-schema: {e.message}"
        for e in Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema)
    ]
    resolver = (
        Registry()
        .with_resource(schema.get("$id", ""), Resource(contents=schema, specification=DRAFT202012))
        .resolver(base_uri=schema.get("$id", ""))
    )
    for where, node in _schemas(schema):
        problems += [f"{where}: unknown keyword {k!r}" for k in node if k not in KEYWORDS]
        ref = node.get("$ref")
        if isinstance(ref, str):
            try:
                resolver.lookup(ref)
            except Exception as exc:  # referencing raises several kinds
                problems.append(f"{where}: $ref {ref!r} does not resolve ({exc})")
    return problems


def validator(schema: dict[str, Any], definition: str | None = None) -> Draft202012Validator:
    """A validator of ``schema`` (or of its ``$defs`` entry ``definition``),
    with formats checked."""
    target = schema if definition is None else {**schema, "$ref": f"#/$defs/{definition}"}
    if definition is not None:
        target.pop("oneOf", None)
    return Draft202012Validator(target, format_checker=Draft202012Validator.FORMAT_CHECKER)
