"""Types shared by the wire messages: cards, request ids, rules, limits."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    StringConstraints,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from engine.rules import Rules, RulesError

PROTOCOL_VERSION = 1
"""The wire protocol's version; ``hello`` must name it."""

# Limits (also enforced by the server; see docs/protocol.md "Limits").
MAX_FRAME_BYTES = 16 * 1024
MAX_NAME_CHARS = 24
MAX_CHAT_CHARS = 200
MAX_TABLE_NAME_CHARS = 40
# Integer ids and event numbers stay exact in every client language (a
# JavaScript number is exact up to 2**53 - 1).
MAX_SAFE_INT = 2**53 - 1
MAX_REQUEST_ID_CHARS = 64
MAX_PASS_CYCLE = 8
MIN_PLAYERS = 3
MAX_PLAYERS = 10

CARD_PATTERN = r"^[2-9TJQKA][CDHS]2?$"
Card = Annotated[str, StringConstraints(pattern=CARD_PATTERN)]
"""A card as two characters: rank 2-9 T J Q K A, suit C D H S (``"QS"``);
with two decks (Cancellation Hearts) the second deck's copy has a trailing
``2`` (``"QS2"``), so which copy was played survives every message."""

VariantName = Literal[
    "standard", "omnibus", "spot", "greek", "black_maria", "domino", "widow", "cancellation"
]

REQUEST_ID_EXPECTED = (
    f"expected an integer from 0 to 2^53-1 or a string of 1 to {MAX_REQUEST_ID_CHARS} characters"
)


def _check_request_id(value: object) -> object:
    # One clear error for a bad id instead of one per member of the union
    # below; ``type(...) is int`` because ``True`` is an int to Python.
    if type(value) is int and 0 <= value <= MAX_SAFE_INT:
        return value
    if isinstance(value, str) and 1 <= len(value) <= MAX_REQUEST_ID_CHARS:
        return value
    raise PydanticCustomError("request_id", REQUEST_ID_EXPECTED)


RequestId = Annotated[
    Annotated[StrictInt, Field(ge=0, le=MAX_SAFE_INT)]
    | Annotated[str, StringConstraints(min_length=1, max_length=MAX_REQUEST_ID_CHARS)],
    BeforeValidator(_check_request_id),
]
"""Chosen by the client, echoed in the reply; a repeated id is not applied twice."""

BotLevel = Literal["easy", "medium", "hard"]
SeatSpec = Literal["open", "easy", "medium", "hard"]
Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_NAME_CHARS)
]


class WireModel(BaseModel):
    """Base of every wire model: frozen, unknown fields refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# Fields whose default depends on the variant (and the seat count).
_VARIANT_FILLED = ("players", "pass_cycle", "moon", "first_trick", "bonus_card")
_RULES_FIELDS = frozenset(
    (*_VARIANT_FILLED, "variant", "pass_count", "queen_breaks_hearts", "end", "end_at")
)


def _resolved_rules(given: dict[str, Any]) -> dict[str, Any] | None:
    """The rules JSON ``given`` resolves to. Unplayable or ill-typed: field
    validation and ``to_rules`` say what is wrong, so only what the variant
    and the seat count decide; None when even those are no table."""
    for fields in (given, {k: given[k] for k in ("variant", "players") if k in given}):
        try:
            return Rules.from_json(fields).to_json()
        except (RulesError, TypeError, ValueError):
            continue
    return None


class RulesModel(WireModel):
    """A table's rules on the wire; the same fields as a hand record's ``rules``
    (docs/hand-record.md). A field left out takes the variant's own value
    (docs/rules.md "Variants"; the defaults written here are the standard
    game's): the model fills it in when it is built, so a model always says
    the rules as they will be played and sends them whole. ``bonus_card:
    null`` means "no bonus card", so leave it out for the variant's own."""

    variant: VariantName = "standard"
    players: int = Field(default=4, ge=MIN_PLAYERS, le=MAX_PLAYERS)
    pass_cycle: Annotated[
        tuple[Literal["left", "right", "across", "hold"], ...],
        Field(min_length=1, max_length=MAX_PASS_CYCLE),
    ] = ("left", "right", "across", "hold")
    pass_count: Literal[3] = 3
    moon: Literal["add", "subtract", "choice", "jackpot", "transfer", "none"] = "add"
    first_trick: Literal["no_points", "no_queen", "no_hearts", "anything"] = "no_points"
    queen_breaks_hearts: bool = False
    end: Literal["points", "hands"] = "points"
    end_at: int = Field(default=100, ge=1, le=1000)
    bonus_card: Literal["JD", "TD"] | None = None

    @model_validator(mode="before")
    @classmethod
    def _variant_defaults(cls, data: object) -> object:
        # Fill what was left out with the variant's own values (Black Maria
        # is 3 players, Omnibus passes right with a JD bonus, ...) rather
        # than the standard game's defaults below. Views always carry every
        # field: nothing to do then.
        if not isinstance(data, dict) or all(k in data for k in _VARIANT_FILLED):
            return data
        given = {k: v for k, v in data.items() if k in _RULES_FIELDS}
        resolved = _resolved_rules(given)
        if resolved is None:
            return data
        # Arrays as the wire decoder gives them (tuples: strict validation
        # takes no list for a tuple field).
        resolved["pass_cycle"] = tuple(resolved["pass_cycle"])
        return {**{k: resolved[k] for k in _VARIANT_FILLED if k not in data}, **data}

    @field_validator("players", "pass_count", mode="before")
    @classmethod
    def _whole_number(cls, value: object) -> object:
        # A Literal of an int takes 4.0 for 4 even in strict mode.
        if type(value) is not int:
            raise PydanticCustomError("int_type", "Input should be a valid integer")
        return value

    def to_rules(self) -> Rules:
        """The engine's rules object; raises ``RulesError`` if inconsistent
        (a seat count or option the variant does not allow)."""
        return Rules.from_json(self.model_dump(mode="json"))

    @classmethod
    def from_rules(cls, rules: Rules) -> RulesModel:
        """The wire form of engine rules."""
        return cls.model_validate(rules.to_json())


__all__ = [
    "CARD_PATTERN",
    "MAX_CHAT_CHARS",
    "MAX_FRAME_BYTES",
    "MAX_NAME_CHARS",
    "MAX_PASS_CYCLE",
    "MAX_PLAYERS",
    "MAX_REQUEST_ID_CHARS",
    "MAX_SAFE_INT",
    "MAX_TABLE_NAME_CHARS",
    "MIN_PLAYERS",
    "PROTOCOL_VERSION",
    "REQUEST_ID_EXPECTED",
    "BotLevel",
    "Card",
    "Name",
    "RequestId",
    "RulesError",
    "RulesModel",
    "SeatSpec",
    "VariantName",
    "WireModel",
]
