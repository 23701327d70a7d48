"""Typed dispatch of the session's messages to the table model.

The model keeps a table from message class to its handler, built with
``handler_for``: mypy checks that each handler takes the class it is filed
under, and a test checks that every message the session can put on the
table's stream (``TABLE_MESSAGES``) has a handler or is one the next
snapshot shows by itself (``SHOWN_BY_SNAPSHOT``). No handler is found by
its name at run time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar, cast, get_args

from pydantic import BaseModel

from client.session import Reconnected
from protocol import server_messages as sm

M = TypeVar("M", bound=BaseModel)

Handler = Callable[[BaseModel], None]
"""A handler as the table holds it (it is only called with its own class)."""

TABLE_MESSAGES: Final[tuple[type[BaseModel], ...]] = (
    sm.Snapshot,
    *get_args(sm.TableEvent),
    sm.Kicked,
    sm.ChatHistory,
    sm.Notice,
    sm.Error,  # unsolicited: a resume refused after a reconnect
    Reconnected,
)
"""Every message class the session delivers on the table's stream."""

SHOWN_BY_SNAPSHOT: Final[frozenset[type[BaseModel]]] = frozenset(
    {sm.PassLocked, sm.CardsReceived, sm.PlayBegins, sm.MoonChoiceNeeded}
)
"""Events the model has nothing to add for: the snapshot after them shows
what they tell (the pass locked, the cards received, the moon question)."""


def handler_for(kind: type[M], handle: Callable[[M], None]) -> tuple[type[BaseModel], Handler]:
    """``kind`` and its handler, as an entry of the model's table: mypy
    checks that ``handle`` takes a ``kind``."""

    def run(msg: BaseModel) -> None:
        # The table is looked up by ``type(msg)``: msg is a ``kind``.
        handle(cast(M, msg))

    return kind, run
