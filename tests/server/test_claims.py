"""Claiming the rest over the wire: on the last trick (where a player can
work out from public cards alone whether the claim holds) a claim that holds
is proved, announced to everyone with its reason and played out; one that
does not is refused and changes nothing, and no second claim is checked in
that trick. Claims off your turn are refused."""

from __future__ import annotations

import random

from engine.cards import SUIT_OF, card
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from protocol.view import SeatView
from server.app import RunningServer

from .harness import WireClient, drive_all, play_until

ALL_CARDS = {f"{r}{s}" for r in "23456789TJQKA" for s in "CDHS"}


def last_trick_turn(v: SeatView) -> bool:
    return v.status == "playing" and v.phase == "play" and v.turn == v.seat and len(v.tricks) == 12


def claim_holds(v: SeatView) -> bool:
    """With one card each, from public cards: ours wins the last trick."""
    (mine,) = v.hand
    played = {p.card for t in v.tricks for p in t.cards} | {p.card for p in v.trick}
    unseen = ALL_CARDS - played - {mine}
    led = SUIT_OF[card(v.trick[0].card)] if v.trick else SUIT_OF[card(mine)]
    if SUIT_OF[card(mine)] != led:
        return False
    rivals = [p.card for p in v.trick] + list(unseen)
    return all(SUIT_OF[card(c)] != led or card(c) < card(mine) for c in rivals)


async def test_a_claim_is_proved_and_played_out_or_refused(server: RunningServer) -> None:
    host = await WireClient.open(server.url, "Cleo")
    watcher = await WireClient.open(server.url, "Dora")
    seated = await host.create(
        seats=("easy", "easy", "easy"), rules=RulesModel(end="hands", end_at=10)
    )
    await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
    await host.start()
    rng = random.Random(2)
    seen: set[bool] = set()
    while seen != {True, False}:
        view = await play_until(host, rng, lambda v: last_trick_turn(v) or v.status == "game_over")
        assert view.status != "game_over", "ten hands without both kinds of claim"
        expected = claim_holds(view)
        start, watcher_start = len(host.frames), len(watcher.frames)
        reply = await host.request(cm.Claim(id=host.next_id()))
        if expected:
            assert isinstance(reply, sm.Ok), reply
            _, made = await watcher.wait_for(
                lambda m: isinstance(m, sm.ClaimMade), start=watcher_start
            )
            reason = "every_line" if view.trick else "top_cards"  # leading: our card is top
            assert (made.seat, made.tricks, made.reason) == (view.seat, 1, reason)
            done = len(view.hands)
            scored = await host.snapshot_where(lambda v, n=done: len(v.hands) > n, start)
            assert scored.hands[-1].points is not None
        else:
            assert isinstance(reply, sm.Error) and reply.code == "claim_refused", reply
            assert host.view.seq == view.seq and host.view.hand == view.hand
            again = await host.error(cm.Claim(id=host.next_id()))  # once per trick
            assert again.code == "claim_refused" and "this trick" in again.message
            (only,) = view.legal
            await host.call(cm.PlayCard(id=host.next_id(), card=only))
        seen.add(expected)
    await host.close()
    await watcher.close()


async def test_no_claim_off_your_turn(server: RunningServer) -> None:
    host = await WireClient.open(server.url, "Edda")
    await host.create(seats=("easy", "easy", "easy"))
    await host.start()
    await host.snapshot_where(lambda v: v.phase == "pass")
    refused = await host.error(cm.Claim(id=host.next_id()))
    assert (refused.code, refused.reason) == ("not_now", "claim_no_tricks")
    await host.close()


async def test_no_claim_at_a_paused_table(server: RunningServer) -> None:
    """A program's claim at a table whose only person dropped (paused:
    nothing moves) would play out that person's hand without them: it is
    refused (``not_now``) and nothing is played. The person back, it holds."""
    host = await WireClient.open(server.url, "Gus")
    seated = await host.create(
        seats=("open", "easy", "easy"), rules=RulesModel(end="hands", end_at=20)
    )
    program = await WireClient.open(server.url, "Robo", program=True)
    await program.join(seated.code, seat=1)
    await host.start()

    def programs_last_lead(v: SeatView) -> bool:
        return (v.phase == "play" and len(v.tricks) == 12 and v.turn == 1 and not v.trick) or (
            v.status == "game_over"
        )

    rng = random.Random(5)
    while True:
        views = await drive_all([host, program], rng.randrange(1000), programs_last_lead)
        assert views[1].status != "game_over", "twenty hands without a claim to make"
        view = program.view
        if programs_last_lead(view) and claim_holds(view):
            break
        (only,) = view.legal
        await program.call(cm.PlayCard(id=program.next_id(), card=only))
    mark = len(program.frames)
    await host.drop()
    paused = await program.snapshot_where(lambda v: v.paused, start=mark)
    error = await program.error(cm.Claim(id=program.next_id()))
    assert error.code == "not_now"
    assert program.view.seq == paused.seq and len(program.view.tricks) == 12

    back = await WireClient.open(server.url, "Gus", player_token=host.player_token)
    await back.call(
        cm.Resume(id=back.next_id(), table_id=seated.table_id, seat_token=seated.seat_token)
    )
    await program.snapshot_where(lambda v: not v.paused, start=mark)
    assert isinstance(await program.request(cm.Claim(id=program.next_id())), sm.Ok)
    await program.close()
    await back.close()
