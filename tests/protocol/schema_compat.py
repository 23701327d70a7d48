"""Whether one JSON Schema accepts everything another does, for the
constructs the protocol's schemas use (``type``, ``const``, ``enum``,
bounds, ``pattern``, ``anyOf``, ``$ref``, objects and arrays). Conservative:
a construct it cannot compare is reported, never assumed compatible."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]
# Keywords that say nothing about which instances are valid.
_ANNOTATIONS = {"title", "description", "default", "examples", "$comment"}
_LOWER = ("minimum", "minLength", "minItems")
_UPPER = ("maximum", "maxLength", "maxItems")


class Document:
    """A schema document whose ``#/...`` references can be followed."""

    def __init__(self, root: Schema) -> None:
        self.root = root

    def resolve(self, node: Schema) -> Schema:
        """``node`` with its ``$ref`` (if any) followed, recursively."""
        while "$ref" in node:
            target: Any = self.root
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return node


def _values(node: Schema) -> list[Any] | None:
    if "const" in node:
        return [node["const"]]
    if "enum" in node:
        return list(node["enum"])
    return None


def _types(node: Schema) -> set[str] | None:
    kind = node.get("type")
    if kind is None:
        return None
    kinds = {kind} if isinstance(kind, str) else set(kind)
    return kinds | ({"integer"} if "number" in kinds else set())


def covers(
    wide_doc: Document,
    wide: Schema,
    narrow_doc: Document,
    narrow: Schema,
    where: str,
    extra_fields: bool = False,
) -> list[str]:
    """Where ``narrow`` accepts an instance that ``wide`` refuses (empty:
    ``wide`` accepts everything ``narrow`` does). ``extra_fields``: fields
    ``narrow`` has and ``wide`` lacks are allowed (an old client ignores
    the fields a newer server adds)."""
    wide, narrow = wide_doc.resolve(wide), narrow_doc.resolve(narrow)
    if "anyOf" in narrow:
        return _each_option(wide_doc, wide, narrow_doc, narrow, where, extra_fields)
    if "anyOf" in wide:
        rest = {k: v for k, v in wide.items() if k != "anyOf"}
        for option in wide["anyOf"]:
            if not covers(
                wide_doc,
                {**rest, **wide_doc.resolve(option)},
                narrow_doc,
                narrow,
                where,
                extra_fields,
            ):
                return []
        return [f"{where}: no option of {wide['anyOf']} takes {narrow}"]
    unknown = (
        set(wide)
        - _ANNOTATIONS
        - {
            "type",
            "const",
            "enum",
            "pattern",
            "properties",
            "required",
            "additionalProperties",
            "items",
            *_LOWER,
            *_UPPER,
        }
    )
    if unknown:
        return [f"{where}: cannot compare {sorted(unknown)}"]
    problems: list[str] = []
    wide_types, narrow_types = _types(wide), _types(narrow)
    if wide_types is not None and (narrow_types is None or not narrow_types <= wide_types):
        problems.append(f"{where}: type {narrow_types} is not within {wide_types}")
    wide_values, narrow_values = _values(wide), _values(narrow)
    if wide_values is not None and (
        narrow_values is None or any(v not in wide_values for v in narrow_values)
    ):
        problems.append(f"{where}: values {narrow_values or 'any'} not within {wide_values}")
    if narrow_values is not None:  # a fixed set of values: check each
        return problems + [
            f"{where}: {v!r} out of bounds" for v in narrow_values if not _within(wide, v)
        ]
    for key in _LOWER:
        if key in wide and narrow.get(key, float("-inf")) < wide[key]:
            problems.append(f"{where}: {key} {narrow.get(key)} below {wide[key]}")
    for key in _UPPER:
        if key in wide and narrow.get(key, float("inf")) > wide[key]:
            problems.append(f"{where}: {key} {narrow.get(key)} above {wide[key]}")
    if "pattern" in wide and narrow.get("pattern") != wide["pattern"] and narrow_values is None:
        problems.append(f"{where}: pattern {narrow.get('pattern')} is not {wide['pattern']}")
    if "items" in wide:
        problems += covers(
            wide_doc, wide["items"], narrow_doc, narrow.get("items", {}), f"{where}[]", extra_fields
        )
    if "properties" in wide or "properties" in narrow:
        problems += _object(wide_doc, wide, narrow_doc, narrow, where, extra_fields)
    return problems


def _within(wide: Schema, value: Any) -> bool:
    """Whether ``value`` meets ``wide``'s bounds."""
    size = len(value) if isinstance(value, str | list) else value
    if not isinstance(size, int | float) or isinstance(size, bool):
        return True
    low = max((wide[k] for k in _LOWER if k in wide), default=float("-inf"))
    high = min((wide[k] for k in _UPPER if k in wide), default=float("inf"))
    return bool(low <= size <= high)


def _each_option(
    wide_doc: Document, wide: Schema, narrow_doc: Document, narrow: Schema, where: str, extra: bool
) -> list[str]:
    rest = {k: v for k, v in narrow.items() if k != "anyOf"}
    problems: list[str] = []
    for option in narrow["anyOf"]:
        problems += covers(
            wide_doc, wide, narrow_doc, {**rest, **narrow_doc.resolve(option)}, where, extra
        )
    return problems


def _object(
    wide_doc: Document, wide: Schema, narrow_doc: Document, narrow: Schema, where: str, extra: bool
) -> list[str]:
    problems: list[str] = []
    wide_props, narrow_props = wide.get("properties", {}), narrow.get("properties", {})
    missing = set(wide.get("required", ())) - set(narrow.get("required", ()))
    if missing:
        problems.append(f"{where}: {sorted(missing)} required only by the wider schema")
    for name, prop in narrow_props.items():
        if name in wide_props:
            problems += covers(
                wide_doc, wide_props[name], narrow_doc, prop, f"{where}.{name}", extra
            )
        elif wide.get("additionalProperties") is False and not extra:
            problems.append(f"{where}: field {name!r} is not accepted")
    return problems
