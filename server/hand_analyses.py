"""Hand reviews (``get_analysis``) and game accuracy (``get_accuracy``).

A review judges each decision of one seat in a finished hand by Hard's
search (``bots.review``), from what that seat knew then. It costs seconds
of CPU, so:

* it runs in the bot workers (``server.bot_runner``), never on the event
  loop: one job counts the seat's decisions, then each decision is a job
  of its own, all in one queue (``QUEUE``) that takes its turn with every
  table's Hard decisions, so reviews never hold the workers from the bots
  for longer than one decision;
* a seat-hand reviewed once is kept with its table in the store
  (``server.stored_reviews``: keyed by table, game, hand, seat, deals per
  decision, seed and the evaluator's ``REVIEW_FORMAT``; it expires with the
  table's records), and the process holds the latest ``max_cached`` of them
  too: asking again costs nothing, on any process sharing the store and
  after a restart, and two requests for the same review at once in one
  process share one computation; a game's accuracy is summed from the same
  per-seat-hand reviews;
* it is rate-limited: each seat-hand reviewed (not kept) spends one token
  of the player's budget (``ServerConfig.analysis_burst`` at once, refilled
  at ``analysis_per_minute``), and the process reviews at most
  ``analysis_max_pending`` seat-hands at a time; over either, the request is
  refused with ``rate_limited`` and ``retry_after``, nothing spent. Reviews
  already made (kept here or in the store) are answered whatever the budget.

``hearts_reviews_total`` (``server.metrics``) counts the seat-hand reviews
answered by where they came from: ``computed`` (the evaluator ran),
``memory`` (this process had it, or was making it), ``store``.

The judgement uses ``ServerConfig.analysis_worlds`` deals per decision and
the seed ``SEED``: ``hearts analyse --worlds W --seed 0`` on the game's
records gives the same review.

Only the asking seat's own decisions are reviewed (``get_analysis``); a
game's accuracy (``get_accuracy``) covers every seat, but only of a game
that is over, whose records every seat may fetch anyway (``get_records``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bots.review.evaluator import ReviewError
from bots.review.jobs import count_decisions, judge_decision
from bots.review.labels import accuracy_of
from protocol import client_messages as cm
from protocol import server_messages as sm

from .bot_runner import BotRunner
from .errors import NotNow, Throttled
from .finished_games import finished_games, games_of
from .finished_games import hand_number as finished_hand_number
from .hand_replays import current_game
from .metrics import Metrics
from .store.base import TableStore
from .stored_reviews import Review, StoredReviews
from .table_budget import BudgetRule, TokenBuckets

QUEUE = "hand-review"
"""The bot runner's queue all reviews share (one turn among the tables)."""

SEED = 0
"""The reviews' sampling seed."""

# Where a review came from, for ``hearts_reviews_total``.
COMPUTED, MEMORY, STORE = "computed", "memory", "store"


class Analyses:
    """The process's reviews: made in the bot workers, kept in the store
    and here, rate-limited."""

    def __init__(
        self,
        bots: BotRunner,
        store: TableStore,
        worlds: int = 300,
        player_rule: BudgetRule | None = None,
        max_pending: int = 80,
        max_cached: int = 4000,
        clock: Callable[[], float] = time.monotonic,
        metrics: Metrics | None = None,
    ) -> None:
        self.bots = bots
        self.worlds = worlds
        self.max_pending = max_pending
        self.max_cached = max_cached
        self.metrics = metrics
        self.stored = StoredReviews(store, worlds, SEED)
        self._buckets = TokenBuckets(player_rule or BudgetRule(60, 20.0), 10_000, clock)
        # Keyed by table and review key (server.stored_reviews).
        self._kept: OrderedDict[tuple[str, str], Review] = OrderedDict()
        self._making: dict[tuple[str, str], asyncio.Future[Review]] = {}
        self._pending = 0

    async def hand_analysis(
        self,
        table_id: str,
        records: Sequence[bytes],
        state: bytes | None,
        request: cm.GetAnalysis,
        seat: int,
        player: str,
    ) -> sm.Analysis:
        """The review of ``seat``'s decisions in hand ``request.hand`` of
        game ``request.game`` (the current one when left out)."""
        games = games_of(records)
        current = current_game(len(games), state)
        number = request.game or current
        game = games[number - 1] if 0 < number <= len(games) else ()
        at = next((i for i, r in enumerate(game) if finished_hand_number(r) == request.hand), None)
        if at is None:
            if number == current and request.hand == len(game) + 1:
                raise NotNow(
                    f"hand {request.hand} of this game is not finished", "analysis_not_finished"
                )
            raise NotNow(
                f"game {number} has no hand {request.hand} to review", "analysis_unavailable"
            )
        review = await self._review(table_id, number, game[: at + 1], seat, player)
        decisions = tuple(sm.ReviewedDecision(**d) for d in review["decisions"])
        return sm.Analysis(
            id=request.id,
            hand_number=request.hand,
            game=number,
            seat=seat,
            decisions=decisions,
            accuracy=_accuracy(review["decisions"]),
        )

    async def game_accuracy(
        self,
        table_id: str,
        records: Sequence[bytes],
        state: bytes | None,
        request: cm.GetAccuracy,
        player: str,
    ) -> sm.GameAccuracy:
        """Every seat's accuracy over finished game ``request.game`` (the
        latest finished one when left out)."""
        games = finished_games(records, state)
        number = request.game or len(games)
        if number > len(games):
            raise NotNow(f"game {number} of this table is not over", "analysis_not_finished")
        if number == 0:
            raise NotNow("this table has no finished game to review", "analysis_unavailable")
        game = games[number - 1]
        players = _players(game[0])
        wanted = [(at, seat) for at in range(len(game)) for seat in range(players)]
        keys = [self.stored.key(number, finished_hand_number(game[at]), s) for at, s in wanted]
        # One read of the store for every seat-hand this process lacks.
        missing = [key for key in keys if (table_id, key) not in self._kept]
        stored = await self.stored.load(table_id, missing)
        reviews = await asyncio.gather(
            *(
                self._review(table_id, number, game[: at + 1], seat, player, stored)
                for at, seat in wanted
            )
        )
        per_seat: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        for review in reviews:
            per_seat[review["seat"]].extend(review["decisions"])
        return sm.GameAccuracy(
            id=request.id,
            game=number,
            hands=len(game),
            seats=tuple(
                sm.SeatAccuracy(seat=s, accuracy=_accuracy(d)) for s, d in enumerate(per_seat)
            ),
        )

    async def _review(
        self,
        table_id: str,
        game: int,
        records: Sequence[bytes],
        seat: int,
        player: str,
        stored: Mapping[str, Review] | None = None,
    ) -> Review:
        """The review of ``seat`` in the last of ``records`` (its game's
        hands up to it): kept here, being made here, kept in the store, or
        made now. ``stored``: what the store holds of the caller's reviews,
        read already (None: read it here)."""
        key = self.stored.key(game, finished_hand_number(records[-1]), seat)
        at = (table_id, key)
        here = await self._here(at)
        if here is not None:
            return here
        if stored is None:
            stored = await self.stored.load(table_id, [key])
            here = await self._here(at)  # made here while the store answered
            if here is not None:
                return here
        found = stored.get(key)
        if found is not None:
            self._count(STORE)
            self._keep(at, found)
            return found
        wait = self._buckets.wait(player)
        if wait > 0:
            raise Throttled("you reviewed many hands just now; wait a little", wait)
        if self._pending >= self.max_pending:
            raise Throttled("the server is busy reviewing hands; try again soon", 5.0)
        self._buckets.spend(player)
        future: asyncio.Future[Review] = asyncio.get_running_loop().create_future()
        self._making[at] = future
        self._pending += 1
        try:
            review = await self._make(records, seat)
        except asyncio.CancelledError:
            future.cancel()  # its asker left: whoever shared it asks again
            raise
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self._pending -= 1
            del self._making[at]
        future.set_result(review)
        self._count(COMPUTED)
        self._keep(at, review)
        # Kept before it is answered: a request after this answer, to any
        # process sharing the store, finds it (a failure is only logged).
        await self.stored.save(table_id, key, review)
        return review

    async def _here(self, at: tuple[str, str]) -> Review | None:
        """The review if this process has it or is making it (then awaited),
        else None (at once: no other task runs before the caller goes on)."""
        kept = self._kept.get(at)
        if kept is not None:
            self._kept.move_to_end(at)
            self._count(MEMORY)
            return kept
        making = self._making.get(at)
        if making is None:
            return None
        self._count(MEMORY)
        return await _shared(making)

    def _keep(self, at: tuple[str, str], review: Review) -> None:
        self._kept[at] = review
        while len(self._kept) > self.max_cached:
            self._kept.popitem(last=False)

    def _count(self, source: str) -> None:
        if self.metrics is not None:
            self.metrics.child(self.metrics.reviews, source).inc()

    async def _make(self, records: Sequence[bytes], seat: int) -> Review:
        texts = [r.decode() for r in records]
        try:
            count = await self.bots.run(QUEUE, count_decisions, texts[-1], seat)
        except ReviewError as exc:
            raise NotNow(f"that hand cannot be reviewed: {exc}", "analysis_unavailable") from None
        decisions = await asyncio.gather(
            *(
                self.bots.run(QUEUE, judge_decision, texts, seat, i, self.worlds, SEED)
                for i in range(count)
            )
        )
        return {
            "hand_number": finished_hand_number(records[-1]),
            "seat": seat,
            "decisions": list(decisions),
        }


async def _shared(making: asyncio.Future[Review]) -> Review:
    """The review another request of this process is making."""
    try:
        return await asyncio.shield(making)
    except asyncio.CancelledError:
        if not making.cancelled():
            raise  # this request was cancelled, not the review
        raise Throttled("that review was interrupted; ask again", 0.1) from None


def _accuracy(decisions: Sequence[dict[str, Any]]) -> sm.Accuracy:
    acc = accuracy_of(d["loss"] for d in decisions)
    return sm.Accuracy(
        decisions=acc.decisions,
        mean_loss=round(acc.mean_loss, 3),
        inaccuracies=acc.inaccuracies,
        mistakes=acc.mistakes,
        blunders=acc.blunders,
    )


def _players(record: bytes) -> int:
    """How many seats the hand of ``record`` has (its deal's hands)."""
    deal = json.loads(record).get("deal")
    return len(deal) if isinstance(deal, list) else 0
