"""Types shared by the wire messages: cards, request ids, rules, limits."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints

from engine.rules import Rules, RulesError

PROTOCOL_VERSION = 1
"""The wire protocol's version; ``hello`` must name it."""

# Limits (also enforced by the server; see docs/protocol.md "Limits").
MAX_FRAME_BYTES = 16 * 1024
MAX_NAME_CHARS = 24
MAX_CHAT_CHARS = 200
MAX_TABLE_NAME_CHARS = 40

Card = Annotated[str, StringConstraints(pattern=r"^[2-9TJQKA][CDHS]$")]
"""A card as two characters: rank 2-9 T J Q K A, suit C D H S (``"QS"``)."""

# StrictInt: ``true`` or ``1.0`` is not an id (lax ``int`` would take them as 1).
RequestId = StrictInt | Annotated[str, StringConstraints(min_length=1, max_length=64)]
"""Chosen by the client, echoed in the reply; a repeated id is not applied twice."""

BotLevel = Literal["easy", "medium", "hard"]
SeatSpec = Literal["open", "easy", "medium", "hard"]
Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_NAME_CHARS)
]


class WireModel(BaseModel):
    """Base of every wire model: frozen, unknown fields refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class RulesModel(WireModel):
    """A table's rules on the wire; the same fields as a hand record's ``rules``
    (docs/hand-record.md). Missing fields take the standard game's values."""

    players: Literal[4] = 4
    pass_cycle: tuple[Literal["left", "right", "across", "hold"], ...] = (
        "left",
        "right",
        "across",
        "hold",
    )
    pass_count: Literal[3] = 3
    moon: Literal["add", "subtract", "choice"] = "add"
    first_trick: Literal["no_points", "no_queen", "anything"] = "no_points"
    queen_breaks_hearts: bool = False
    end: Literal["points", "hands"] = "points"
    end_at: int = Field(default=100, ge=1, le=1000)
    bonus_card: Literal["JD", "TD"] | None = None

    def to_rules(self) -> Rules:
        """The engine's rules object; raises ``RulesError`` if inconsistent."""
        return Rules.from_json(self.model_dump(mode="json"))

    @classmethod
    def from_rules(cls, rules: Rules) -> RulesModel:
        """The wire form of engine rules."""
        return cls.model_validate(rules.to_json())


__all__ = [
    "MAX_CHAT_CHARS",
    "MAX_FRAME_BYTES",
    "MAX_NAME_CHARS",
    "MAX_TABLE_NAME_CHARS",
    "PROTOCOL_VERSION",
    "BotLevel",
    "Card",
    "Name",
    "RequestId",
    "RulesError",
    "RulesModel",
    "SeatSpec",
    "WireModel",
]
