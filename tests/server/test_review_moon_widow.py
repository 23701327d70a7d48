"""The hand review of a widow discard and a moon choice, end to end: a real
hand on a real server where seat 0 took the widow, discarded and shot the
moon (tests/server/moon_widow_hand.py), then ``get_analysis`` over the wire.
The review lists both decisions where they were made, with the cards and
the choice the seat sent, a best option the rules allow, a loss that is
not negative and the label docs/bots.md "Hand review" gives that loss."""

from __future__ import annotations

from bots.review.evaluator import ReviewBudget, review_hand
from engine.cards import card, mask_of
from engine.hand import Phase
from engine.record import replay
from protocol import client_messages as cm
from protocol import server_messages as sm

from .conftest import ServerFactory
from .moon_widow_hand import MOON_CHOICE, SEED, SHOOTER, play_moon_widow_hand

WORLDS = 12
TRICKS = 16  # three seats: 16 cards each, 3 in the widow


def documented_label(loss: float) -> str | None:
    """docs/bots.md "Hand review": an inaccuracy from 0.5 points, a mistake
    from 1.5, a blunder from 4; below 0.5 no label."""
    if loss >= 4:
        return "blunder"
    if loss >= 1.5:
        return "mistake"
    if loss >= 0.5:
        return "inaccuracy"
    return None


async def test_the_review_judges_the_seats_widow_discard_and_moon_choice(
    make_server: ServerFactory,
) -> None:
    async with make_server(analysis_worlds=WORLDS, table_seed=SEED) as server:
        played = await play_moon_widow_hand(server.url)
        host, record = played.host, played.record
        # The seed's hand is the one these checks are about.
        assert host.view.widow_seat == SHOOTER, "seat 0 did not take the widow: pick a seed"
        assert host.view.hands[0].shooter == SHOOTER, "seat 0 shot no moon: pick a seed"
        discard = next(r for r in played.requests if isinstance(r, cm.DiscardWidow))
        moon = next(r for r in played.requests if isinstance(r, cm.MoonChoice))
        assert moon.choice == MOON_CHOICE == record["moon_choice"]
        assert set(discard.cards) == set(record["discard"])

        reply = await host.call(cm.GetAnalysis(id=host.next_id(), hand=1))
        assert isinstance(reply, sm.Analysis)
        assert (reply.hand_number, reply.game, reply.seat) == (1, 1, SHOOTER)
        # The discard comes between the first trick and the second, the
        # moon choice after the last.
        kinds = [d.kind for d in reply.decisions]
        assert kinds == ["play", "discard"] + ["play"] * (TRICKS - 1) + ["moon_choice"]
        plays = [
            r.card
            for r in played.requests
            if isinstance(r, cm.PlayCard)  # every card seat 0 played, in order
        ]
        assert [d.chosen[0] for d in reply.decisions if d.kind == "play"] == plays

        judged_discard = reply.decisions[1]
        assert set(judged_discard.chosen) == set(discard.cards)
        assert len(judged_discard.chosen) == len(discard.cards) == 3
        # Its best: three different cards of the hand seat 0 held then (its
        # deal and the widow, less its card of the first trick), which the
        # rules take as the discard.
        assert judged_discard.best is not None and judged_discard.loss is not None
        best = judged_discard.best
        held = (set(record["deal"][SHOOTER]) | set(record["stock"])) - {plays[0]}
        assert len(set(best)) == 3 and set(best) <= held
        # The engine takes it (replay raises Illegal for a discard it refuses).
        first_trick = {**record, "plays": record["plays"][:3], "discard": list(best)}
        del first_trick["moon_choice"]
        after = replay(first_trick)
        assert after.phase is Phase.PLAY and after.discard == mask_of([card(c) for c in best])

        judged_moon = reply.decisions[-1]
        assert judged_moon.chosen == (MOON_CHOICE,)
        assert judged_moon.best is not None and judged_moon.loss is not None
        assert judged_moon.best[0] in ("add", "subtract")  # the rules' "choice"
        assert replay({**record, "moon_choice": judged_moon.best[0]}).phase is Phase.DONE

        for judged in (judged_discard, judged_moon):
            assert judged.loss is not None and judged.loss >= 0
            assert judged.label == documented_label(judged.loss)
            if judged.loss == 0:
                assert set(judged.best or ()) == set(judged.chosen)

        # The server's review is the evaluator's on the kept record.
        expected = review_hand(record, SHOOTER, ReviewBudget(worlds=WORLDS), seed=0)
        assert [d.model_dump(mode="json") for d in reply.decisions] == [
            d.to_json() for d in expected.decisions
        ]
        await played.close_all()
