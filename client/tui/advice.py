"""Hints on request in the terminal: ask the server what the Medium bot
would do in our seat (judged from our own view only) and show it. A pass is
picked for us (``p`` still sends it); the card to play gets the cursor and
the notice line names it with its key."""

from __future__ import annotations

from client.session import RequestFailed, SessionClosed
from protocol import client_messages as cm
from protocol import server_messages as sm

from .cards import label, labels
from .i18n import Msg
from .model import TableModel
from .table_client import TableClient


def hint_refusal(model: TableModel) -> Msg | None:
    """Why no hint can be asked now, or None when one can."""
    if model.spectating():
        return Msg("why.spectator")
    if not (model.passing() or model.my_turn()) or model.lingering():
        return Msg("why.no_hint")
    return None


async def ask_hint(client: TableClient, model: TableModel) -> bool:
    """Send ``hint`` and show the advice; False (and a notice) if the
    server refused or the table moved on before the answer came."""
    view = model.view
    moment = (view.seq, view.hand_number) if view is not None else None
    try:
        reply = await client.session.request(cm.Hint(id=client.session.next_id()))
    except RequestFailed as exc:
        model.refused(exc.code, exc.message, exc.reason)
        return False
    except (SessionClosed, TimeoutError):
        model.say(Msg("error.no_reply"), "error")
        return False
    view = model.view
    if not isinstance(reply, sm.Advice) or view is None or moment != (view.seq, view.hand_number):
        return False  # the table moved on: this advice is for a moment gone
    apply_advice(model, reply)
    return True


def apply_advice(model: TableModel, advice: sm.Advice) -> None:
    """Show ``advice``: pick a pass, or put the cursor on the card to play
    (the moon choice has its own dialog, which asks no hint)."""
    if advice.kind == "pass" and model.passing():
        model.selected = list(advice.cards)
        model.say(Msg("advice.pass", {"cards": labels(advice.cards)}))
    elif advice.kind == "play" and advice.cards and model.my_turn():
        card = advice.cards[0]
        hand = model.hand()
        if card in hand:
            model.cursor = hand.index(card)
        model.say(Msg("advice.play", {"card": label(card), "key": model.key_of(card)}))
    model.changed()
