"""The key line at the bottom: the keys that work on this screen now.

A line is a list of segments ("a–m play", "q leave", "Ctrl+Q quit"), each a
catalog key; the ones marked optional are dropped, last first, when the line
is wider than the terminal, so what is due now and how to leave always show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from rich.cells import cell_len

from .cards import KEYS
from .claims import claim_refusal
from .i18n import Translator
from .model import TableModel
from .seats import seat_keys
from .takeback import undo_refusal

SEPARATOR = " · "


class Segment(NamedTuple):
    """One key and what it does; ``optional`` ones may be left out."""

    key: str
    optional: bool = False
    params: Mapping[str, object] = MappingProxyType({})


def segment_text(t: Translator, segment: Segment) -> str:
    """What a segment says in ``t``'s language."""
    return t(segment.key, **segment.params)


HELP = Segment("key.help")
LEAVE = Segment("key.leave")
QUIT = Segment("key.quit")
CHAT = Segment("key.chat")
SIDE = Segment("key.side", optional=True)
SETTINGS = Segment("key.settings", optional=True)
RULES = Segment("key.rules", optional=True)
STATS = Segment("key.stats", optional=True)
CURSOR = Segment("key.cursor", optional=True)
HINT = Segment("key.hint", optional=True)
UNDO = Segment("key.undo", optional=True)
CLAIM = Segment("key.claim", optional=True)
ALWAYS = (HELP, LEAVE, QUIT)


def card_keys(model: TableModel) -> str:
    """The letters under the cards held now, as the key line says them:
    ``a–m``, and past 13 cards the capitals too (``a–m A–E``: C and H stay
    the claim and the hint, the hand shows which letter is whose)."""
    view = model.view
    held = {model.key_of(card) for card in view.hand} if view is not None else set()
    used = [k for k in KEYS if k in held] or list(KEYS[:13])
    small = [k for k in used if k.islower()]
    capitals = [k for k in used if k.isupper()]
    return " ".join(_span(group) for group in (small, capitals) if group)


def _span(letters: list[str]) -> str:
    """``a–m`` for a run of letters, ``e`` for one."""
    return letters[0] if len(letters) == 1 else f"{letters[0]}–{letters[-1]}"


def table_keys(model: TableModel, chatting: bool) -> list[Segment]:
    """The table screen's keys for what the table waits for now."""
    view = model.view
    if chatting:
        return [Segment("key.send"), Segment("key.scroll"), Segment("key.back"), QUIT]
    if view is None:
        return [SETTINGS, RULES, STATS, *ALWAYS]
    if model.spectating():
        history = Segment("key.history", optional=True)
        return [Segment("key.side"), CHAT, history, SETTINGS, RULES, *ALWAYS]
    host = view.seat == view.host_seat
    knock = [Segment("key.knock")] if host and view.knocks else []
    me = view.seats[view.seat] if view.seat is not None else None
    if view.status == "waiting":
        if host:
            return [
                Segment("key.seats", params={"keys": seat_keys(view)}),
                Segment("key.start"),
                *knock,
                CHAT,
                SETTINGS,
                RULES,
                *ALWAYS,
            ]
        return [CHAT, SETTINGS, RULES, STATS, *ALWAYS]
    if model.passing() or model.discarding():
        send = Segment("key.discard") if model.discarding() else Segment("key.pass")
        picks = [Segment("key.cards_pick", params={"keys": card_keys(model)}), CURSOR, send]
        hint = [] if model.discarding() else [HINT]  # no hints for the widow discard
        return [*picks, *hint, *knock, SIDE, CHAT, RULES, SETTINGS, *ALWAYS]
    if model.my_turn():
        # Undo and claim when they may be asked for now (the server decides).
        undo = [UNDO] if undo_refusal(model) is None else []
        claim = [CLAIM] if claim_refusal(model) is None else []
        return [
            Segment("key.cards_play", params={"keys": card_keys(model)}),
            CURSOR,
            HINT,
            *undo,
            *claim,
            *knock,
            SIDE,
            CHAT,
            RULES,
            SETTINGS,
            *ALWAYS,
        ]
    if view.status == "between_hands" and not (me is not None and me.ready):
        replay = Segment("key.replay", optional=True)
        return [Segment("key.next"), *knock, Segment("key.side"), replay, CHAT, STATS, *ALWAYS]
    if view.status == "game_over":
        rematch = [Segment("key.rematch")] if host else []
        return [*rematch, *knock, Segment("key.side"), CHAT, STATS, *ALWAYS]
    return [*knock, Segment("key.side"), CHAT, SETTINGS, RULES, STATS, *ALWAYS]


def fit_keys(t: Translator, segments: Sequence[Segment], width: int) -> str:
    """The segments joined, leaving out optional ones (last first) until the
    line fits ``width`` columns."""
    kept = list(segments)
    while True:
        line = SEPARATOR.join(segment_text(t, s) for s in kept)
        optional = [i for i, s in enumerate(kept) if s.optional]
        if cell_len(line) <= width or not optional:
            return line
        del kept[optional[-1]]
