"""Hints on request: the Medium bot's choice for the asking seat, from that
seat's own view (the view the seat was sent), for a pass and for a play;
refused when nothing is asked of the seat and for spectators."""

from __future__ import annotations

import random

from bots.api import decide
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from server.app import RunningServer

from .harness import WireClient, play_until


async def test_a_hint_is_the_medium_bots_choice_from_the_seats_own_view(
    server: RunningServer,
) -> None:
    """The advice for a pass and for a play is what Medium decides from the
    snapshot the seat holds (so it knows nothing more than the player), and
    taking it is accepted."""
    host = await WireClient.open(server.url, "Hana")
    await host.create(seats=("easy", "easy", "easy"))
    await host.start()
    view = await host.snapshot_where(lambda v: v.phase == "pass" and bool(v.legal))
    advice = await host.call(cm.Hint(id=host.next_id()))
    assert isinstance(advice, sm.Advice)
    assert advice.kind == "pass"
    assert advice.cards == decide(view, "medium", random.Random(0)).cards
    assert len(advice.cards) == view.rules.pass_count and set(advice.cards) <= set(view.hand)
    start = len(host.frames)
    await host.call(cm.PassCards(id=host.next_id(), cards=advice.cards))

    view = await host.snapshot_where(
        lambda v: v.phase == "play" and v.turn == v.seat and bool(v.legal), start=start
    )
    advice = await host.call(cm.Hint(id=host.next_id()))
    assert isinstance(advice, sm.Advice)
    assert advice.kind == "play"
    assert advice.cards == (decide(view, "medium", random.Random(0)).card,)
    assert advice.cards[0] in view.legal
    await host.call(cm.PlayCard(id=host.next_id(), card=advice.cards[0]))
    await host.close()


async def test_no_hint_when_nothing_is_asked_or_for_a_spectator(server: RunningServer) -> None:
    """Before the game nothing is asked of the seat (``not_now``); a
    spectator may not ask (``not_allowed``)."""
    host = await WireClient.open(server.url, "Ivo")
    seated = await host.create(seats=("open", "easy", "easy"))
    error = await host.error(cm.Hint(id=host.next_id()))
    assert (error.code, error.reason) == ("not_now", "hint_nothing_asked")
    watcher = await WireClient.open(server.url, "Jan")
    await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
    error = await watcher.error(cm.Hint(id=watcher.next_id()))
    assert error.code == "not_allowed"
    await host.close()
    await watcher.close()


async def test_no_hint_for_a_widow_discard(server: RunningServer) -> None:
    """Advice says a pass, a play or a moon choice; for the widow discard it
    has no form, so the hint is refused (``not_now``) rather than
    answered as something else."""
    rules = RulesModel.model_validate(
        {"variant": "widow", "players": 3, "end": "hands", "end_at": 1}
    )
    rng = random.Random(4)
    for _ in range(40):
        human = await WireClient.open(server.url, "Kai")
        await human.create(seats=("easy", "easy"), rules=rules)
        await human.start()
        view = await play_until(human, rng, lambda v: v.phase == "widow" or len(v.tricks) > 0)
        if view.phase == "widow" and view.widow_seat == view.seat:
            reply = await human.request(cm.Hint(id=human.next_id()))
            assert isinstance(reply, sm.Error), reply
            assert reply.code == "not_now"
            await human.close()
            return
        await human.close()
    raise AssertionError("we never took the widow in 40 hands")
