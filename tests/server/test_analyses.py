"""Hand reviews over the wire (``get_analysis``, ``get_accuracy``;
server.hand_analyses): a seat gets its own decisions only, judged in the
bot workers; a spectator none; an unfinished hand or game is refused; a
review made once is kept, in the store too (a restarted server or another
process answers it without the evaluator); the budgets refuse with
``rate_limited``."""

from __future__ import annotations

import json
import random
from pathlib import Path

from bots.review.evaluator import ReviewBudget, review_hand
from bots.review.labels import accuracy_of
from engine.record import replay
from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer

from .conftest import ServerFactory
from .harness import SHORT_RULES, TWO_HANDS, WireClient, play_until
from .test_rate_limits import metric

WORLDS = 12


async def test_a_seat_gets_the_review_of_its_own_decisions(make_server: ServerFactory) -> None:
    async with make_server(analysis_worlds=WORLDS) as server:
        host = await WireClient.open(server.url, "Rita")
        seated = await host.create(seats=("easy", "medium", "easy"), rules=SHORT_RULES)
        watcher = await WireClient.open(server.url, "Sam")
        await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
        await host.start()
        early = await host.error(cm.GetAnalysis(id=host.next_id(), hand=1))
        assert (early.code, early.reason) == ("not_now", "analysis_not_finished")
        await play_until(host, random.Random(3), lambda v: v.status == "game_over")
        record = json.loads((await host.records())[0])

        mine = await host.call(cm.GetAnalysis(id=host.next_id(), hand=1))
        assert isinstance(mine, sm.Analysis)
        assert (mine.hand_number, mine.game, mine.seat) == (1, 1, 0)
        assert [d.kind for d in mine.decisions] == ["pass"] + ["play"] * 13
        assert set(mine.decisions[0].chosen) == set(record["passes"][0])
        # The seat's own plays, as the record has them, in order.
        own = set(record["deal"][0]) - set(record["passes"][0]) | set(record["passes"][3])
        plays = [d.chosen[0] for d in mine.decisions[1:]]
        assert set(plays) == own
        assert [c for c in record["plays"] if c in own] == plays
        # The server's review is the evaluator's, reproducible from the
        # seed 0 and its budget.
        expected = review_hand(record, 0, ReviewBudget(worlds=WORLDS), seed=0)
        assert [d.model_dump(mode="json") for d in mine.decisions] == [
            d.to_json() for d in expected.decisions
        ]
        # The accuracy is over the losses as sent (to 0.001 point each).
        sent = accuracy_of(d.to_json()["loss"] for d in expected.decisions)
        assert mine.accuracy.decisions == 14
        assert mine.accuracy.mean_loss == round(sent.mean_loss, 3)

        refused = await watcher.error(cm.GetAnalysis(id=watcher.next_id(), hand=1))
        assert refused.code == "not_allowed"
        missing = await host.error(cm.GetAnalysis(id=host.next_id(), hand=999))
        assert (missing.code, missing.reason) == ("not_now", "analysis_unavailable")
        await host.close()
        await watcher.close()


async def test_a_kept_review_is_free_and_the_budgets_refuse_new_ones(
    make_server: ServerFactory,
) -> None:
    # One seat-hand per player: the first review spends it; asking for the
    # same hand again is answered from what was kept; another hand waits.
    async with make_server(
        analysis_worlds=WORLDS, analysis_burst=1, analysis_per_minute=0.01
    ) as server:
        host = await WireClient.open(server.url, "Rita")
        await host.create(seats=("easy", "easy", "easy"), rules=TWO_HANDS)
        await host.start()
        await play_until(host, random.Random(5), lambda v: v.status == "game_over")
        first = await host.call(cm.GetAnalysis(id=host.next_id(), hand=1))
        again = await host.call(cm.GetAnalysis(id=host.next_id(), hand=1))
        assert isinstance(first, sm.Analysis) and isinstance(again, sm.Analysis)
        assert again.decisions == first.decisions and again.accuracy == first.accuracy
        over = await host.error(cm.GetAnalysis(id=host.next_id(), hand=2))
        assert over.code == "rate_limited" and over.retry_after is not None
        assert over.retry_after > 60
        await host.close()


async def test_the_process_budget_refuses_reviews_when_full(make_server: ServerFactory) -> None:
    async with make_server(analysis_worlds=WORLDS, analysis_max_pending=0) as server:
        host = await WireClient.open(server.url, "Rita")
        await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
        await host.start()
        await play_until(host, random.Random(6), lambda v: v.status == "game_over")
        busy = await host.error(cm.GetAnalysis(id=host.next_id(), hand=1))
        assert busy.code == "rate_limited" and busy.retry_after is not None
        # The connection still answers while refused.
        assert isinstance(await host.call(cm.Ping(id=host.next_id())), sm.Ok)
        await host.close()


async def test_game_accuracy_covers_every_seat_once_the_game_is_over(
    make_server: ServerFactory,
) -> None:
    async with make_server(analysis_worlds=WORLDS) as server:
        host = await WireClient.open(server.url, "Rita")
        await host.create(seats=("easy", "medium", "easy"), rules=SHORT_RULES)
        notyet = await host.error(cm.GetAccuracy(id=host.next_id()))
        assert (notyet.code, notyet.reason) == ("not_now", "analysis_unavailable")
        await host.start()
        during = await host.error(cm.GetAccuracy(id=host.next_id(), game=1))
        assert (during.code, during.reason) == ("not_now", "analysis_not_finished")
        await play_until(host, random.Random(7), lambda v: v.status == "game_over")
        records = [json.loads(r) for r in await host.records()]
        reply = await host.call(cm.GetAccuracy(id=host.next_id()))
        assert isinstance(reply, sm.GameAccuracy)
        # A tie for the lowest total plays on: usually one hand, maybe more.
        assert (reply.game, reply.hands) == (1, len(records))
        assert [s.seat for s in reply.seats] == [0, 1, 2, 3]
        scores = [list(replay(r).scores or ()) for r in records]
        for line in reply.seats:
            expected = accuracy_of(
                d.to_json()["loss"]
                for i, r in enumerate(records)
                for d in review_hand(
                    r, line.seat, ReviewBudget(worlds=WORLDS), seed=0, history=scores[:i]
                ).decisions
            )
            assert line.accuracy.decisions == expected.decisions >= 14
            assert line.accuracy.mean_loss == round(expected.mean_loss, 3)
            assert line.accuracy.blunders == expected.blunders
        # Seat 0's own review of hand 1 was kept from the game's.
        mine = await host.call(cm.GetAnalysis(id=host.next_id(), hand=1))
        assert isinstance(mine, sm.Analysis)
        if len(records) == 1:
            assert mine.accuracy == reply.seats[0].accuracy
        await host.close()


async def reviews_by_source(server: RunningServer) -> dict[str, float]:
    """``hearts_reviews_total`` of the server's /metrics, by source."""
    return {
        source: await metric(server, "hearts_reviews_total", source=source)
        for source in ("computed", "memory", "store")
    }


async def test_reviews_are_answered_from_the_sqlite_store_after_a_restart(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    """Reviews made before a restart are read from the SQLite file: the
    restarted server, which may make no review at all, answers the hand and
    the game's accuracy without running the evaluator."""
    store_url = f"sqlite://{tmp_path / 'hearts.sqlite3'}"
    async with make_server(store_url=store_url, analysis_worlds=WORLDS) as first:
        host = await WireClient.open(first.url, "Rita")
        await host.create(seats=("easy", "medium", "easy"), rules=SHORT_RULES)
        await host.start()
        await play_until(host, random.Random(8), lambda v: v.status == "game_over")
        hands = len(await host.records())
        made = await host.call(cm.GetAnalysis(id=host.next_id(), hand=1))
        accuracy = await host.call(cm.GetAccuracy(id=host.next_id()))
        assert isinstance(made, sm.Analysis) and isinstance(accuracy, sm.GameAccuracy)
        # Every seat-hand was made once; seat 0's hand 1 was then known here.
        assert await reviews_by_source(first) == {
            "computed": 4 * hands,
            "memory": 1,
            "store": 0,
        }
        await host.close()
    # No review may be made (the process budget is 0): only kept ones answer.
    async with make_server(
        store_url=store_url, analysis_worlds=WORLDS, analysis_max_pending=0
    ) as second:
        back = await WireClient.open(second.url, "Rita", player_token=host.player_token)
        await back.call(
            cm.Resume(id=back.next_id(), table_id=host.table_id, seat_token=host.seat_token)
        )
        again = await back.call(cm.GetAnalysis(id=back.next_id(), hand=1))
        assert isinstance(again, sm.Analysis)
        assert (again.decisions, again.accuracy) == (made.decisions, made.accuracy)
        assert await reviews_by_source(second) == {"computed": 0, "memory": 0, "store": 1}
        total = await back.call(cm.GetAccuracy(id=back.next_id()))
        assert isinstance(total, sm.GameAccuracy)
        assert total.seats == accuracy.seats and total.hands == accuracy.hands == hands
        # The one seat-hand read before was known here; the rest were read.
        assert await reviews_by_source(second) == {
            "computed": 0,
            "memory": 1,
            "store": 4 * hands,
        }
        await back.close()


async def test_a_review_made_by_one_process_is_answered_by_another_on_redis(
    make_server: ServerFactory, redis_db: str
) -> None:
    """Two servers on one Redis: a review made through the first is read
    from the store by the second, which makes none (its budget is 0) and
    spends nothing of the player's (a budget of one review)."""
    async with (
        make_server(redis_url=redis_db, analysis_worlds=WORLDS) as first,
        make_server(
            redis_url=redis_db,
            analysis_worlds=WORLDS,
            analysis_max_pending=0,
            analysis_burst=1,
            analysis_per_minute=0.01,
        ) as second,
    ):
        host = await WireClient.open(first.url, "Rita")
        await host.create(seats=("easy", "easy", "easy"), rules=TWO_HANDS)
        await host.start()
        await play_until(host, random.Random(9), lambda v: v.status == "game_over")
        made = await host.call(cm.GetAnalysis(id=host.next_id(), hand=2))
        assert isinstance(made, sm.Analysis)
        assert await reviews_by_source(first) == {"computed": 1, "memory": 0, "store": 0}
        other = await WireClient.open(second.url, "Rita", player_token=host.player_token)
        await other.call(
            cm.Resume(id=other.next_id(), table_id=host.table_id, seat_token=host.seat_token)
        )
        for _ in range(3):
            again = await other.call(cm.GetAnalysis(id=other.next_id(), hand=2))
            assert isinstance(again, sm.Analysis)
            assert (again.decisions, again.accuracy) == (made.decisions, made.accuracy)
        assert await reviews_by_source(second) == {"computed": 0, "memory": 2, "store": 1}
        # Hand 1 was never reviewed: the second process would have to make
        # it, and may not.
        busy = await other.error(cm.GetAnalysis(id=other.next_id(), hand=1))
        assert busy.code == "rate_limited"
        await host.close()
        await other.close()
