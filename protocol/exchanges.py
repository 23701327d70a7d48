"""What each request is answered with: its reply (the message carrying its
``id``) and what follows the reply on the connection.

Every request may instead be refused with ``error`` (``protocol.refusals``
lists the codes and the ``not_now`` reasons, with the requests that get
each). docs/protocol.md's request table and docs/asyncapi.yaml are
generated from this mapping (``make docs``); a test checks that it covers
every client message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from . import client_messages as cm
from . import server_messages as sm
from .common import WireModel


@dataclass(frozen=True)
class Exchange:
    """A request's answer: ``reply`` (one of these carries the request's
    ``id``), then ``then`` (messages that follow it, without the id)."""

    reply: tuple[type[WireModel], ...]
    then: tuple[type[WireModel], ...] = ()
    # Whether a repeat of the request (same id, same seat) is answered
    # without being applied again: see docs/protocol.md "Safe retries".
    remembered: bool = False


_SEATED = Exchange((sm.Seated,), (sm.ChatHistory, sm.Snapshot))
_ACTION = Exchange((sm.Ok,), (sm.Snapshot,), remembered=True)

EXCHANGES: Mapping[type[cm.Request], Exchange] = MappingProxyType(
    {
        cm.Hello: Exchange((sm.Welcome,)),
        cm.CreateTable: Exchange(_SEATED.reply, _SEATED.then, remembered=True),
        cm.ListTables: Exchange((sm.Tables,)),
        cm.JoinTable: Exchange(_SEATED.reply, _SEATED.then, remembered=True),
        cm.Knock: Exchange((sm.Ok,), (sm.KnockAnswered,)),
        cm.GetTableFacts: Exchange((sm.TableFacts,)),
        cm.AnswerKnock: _ACTION,
        cm.TakeSeat: _ACTION,
        cm.LeaveSeat: _ACTION,
        cm.AddBot: _ACTION,
        cm.RemoveBot: _ACTION,
        cm.Kick: _ACTION,
        cm.AllowBack: _ACTION,
        cm.StartGame: _ACTION,
        cm.PassCards: _ACTION,
        cm.PlayCard: _ACTION,
        cm.DiscardWidow: _ACTION,
        cm.MoonChoice: _ACTION,
        cm.Hint: Exchange((sm.Advice,)),
        cm.Undo: Exchange((sm.Ok,), (sm.PlaysUndone, sm.Snapshot), remembered=True),
        cm.Claim: Exchange((sm.Ok,), (sm.ClaimMade, sm.Snapshot), remembered=True),
        cm.Ready: _ACTION,
        cm.Rematch: _ACTION,
        cm.Chat: Exchange((sm.Ok,), (sm.ChatMessage, sm.Snapshot), remembered=True),
        cm.Resume: Exchange((sm.Seated,), (sm.ChatHistory, sm.Snapshot)),
        cm.Watch: _SEATED,
        cm.Leave: Exchange((sm.Ok,)),
        cm.GetRecords: Exchange((sm.Records,)),
        cm.GetReplay: Exchange((sm.HandReplay,)),
        cm.GetAnalysis: Exchange((sm.Analysis,)),
        cm.GetAccuracy: Exchange((sm.GameAccuracy,)),
        cm.GetStats: Exchange((sm.Stats,)),
        cm.Ping: Exchange((sm.Ok,)),
    }
)
"""Each request model's answer."""


REPLY_TYPES: tuple[type[WireModel], ...] = tuple(
    sorted({m for e in EXCHANGES.values() for m in e.reply} | {sm.Error}, key=lambda m: m.__name__)
)
"""Every message that answers a request (and so carries its ``id``)."""


def message_type(model: type[WireModel]) -> str:
    """The ``type`` a message model carries on the wire."""
    kind = model.model_fields["type"].default
    if not isinstance(kind, str):
        raise TypeError(f"{model.__name__} has no fixed type")
    return kind


__all__ = ["EXCHANGES", "REPLY_TYPES", "Exchange", "message_type"]
