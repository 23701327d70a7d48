"""A table's follow-ups after each job: bots whose turn it is are asked to
decide, and timers are armed (grace countdowns of away players, the pause
between hands, a retry after a commit the store refused).

Nothing here changes the table: a bot's decision and a timer's end come back
to the actor as jobs (``BotMoved``, ``GraceOver``, ``AutoDeal``, ``Tick``)
and take the same path as a player's request.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from . import table_intents as intents
from .bot_runner import BotRunner
from .config import ServerConfig
from .jobs import AutoDeal, BotMoved, GraceOver, Job, Tick, TimedOutMove, TurnOver
from .metrics import Metrics
from .redaction import public_view, seat_view
from .table_state import TableState
from .turn_timer import TurnKey, timed_turns

# Seconds before a job whose commit the store refused is tried again.
RETRY_AFTER_FAILED_COMMIT = 1.0


class TableDuties:
    """One table's bot decisions in flight and its timers."""

    __slots__ = (
        "_bots",
        "_config",
        "_metrics",
        "_post",
        "_table_id",
        "_tasks",
        "_thinking",
        "_timers",
        "_turns",
        "_unmade",
    )

    def __init__(
        self,
        table_id: str,
        post: Callable[[Job], None],
        bots: BotRunner,
        config: ServerConfig,
        metrics: Metrics | None,
    ) -> None:
        self._table_id = table_id
        self._post = post
        self._bots = bots
        self._config = config
        self._metrics = metrics
        self._thinking: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._timers: dict[str, asyncio.TimerHandle] = {}
        # The turn each armed turn timer (``turn<seat>``) times.
        self._turns: dict[int, TurnKey] = {}
        # Seats whose timed-out move came back from the bot for this turn;
        # if the turn is still theirs at the next sync, the move was not
        # made (refused, or its commit failed) and the timer is armed again.
        self._unmade: dict[int, TurnKey] = {}

    def idle(self) -> bool:
        """No bot thinking, no timer armed."""
        return not self._thinking and not self._timers

    def armed(self) -> frozenset[str]:
        """The names of the timers armed now (``grace<seat>``, ``next_hand``,
        ``retry``)."""
        return frozenset(self._timers)

    def cancel(self) -> None:
        """Cancel every timer and bot decision (the actor stops)."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()

    def run(self, state: TableState, public: dict[str, Any] | None = None) -> None:
        """Ask the bots whose turn it is, start timers. ``public`` is
        ``public_view`` of the table as it is now, if the caller has it."""
        for seat in intents.seats_to_decide(state):
            if seat in self._thinking:
                continue
            self._thinking.add(seat)
            if public is None:
                public = public_view(state)
            view = seat_view(state, seat, public)
            level = state.seats[seat].decision_level
            seed = hash((state.seed, state.games_played, state.seq, seat)) & 0xFFFFFFFF
            task = asyncio.create_task(self._think(seat, view, level, seed))
            self._tasks.add(task)  # keep a reference until done (asyncio holds weak ones)
            task.add_done_callback(self._tasks.discard)
        if state.status == "between_hands":
            self._next_hand(state)

    def _next_hand(self, state: TableState) -> None:
        # Between hands: deal at once when no human is left (the bots finish
        # the game), else after the configured pause (unless paused).
        number = state.game.hand_number if state.game else 0
        if intents.no_humans_seated(state):
            self._post(AutoDeal(number))
        elif (
            self._config.next_hand_delay is not None
            and "next_hand" not in self._timers
            and not state.is_paused()
        ):
            self._arm("next_hand", self._config.next_hand_delay, AutoDeal(number))

    def decided(self, seat: int) -> None:
        """The decision of ``seat`` came back (a ``BotMoved`` job)."""
        self._thinking.discard(seat)

    def sync_grace(self, state: TableState) -> None:
        """Keep one grace timer per away human whose countdown may run (only
        while another human is at the table), and their deadlines, which
        views show as ``cover_in``. Cancels the others: a table with no human
        present is paused, and a seat that came back needs no cover."""
        now = time.monotonic()
        for i in range(state.players):
            key = f"grace{i}"
            if intents.grace_can_run(state, i):
                if key not in self._timers:
                    self._arm(key, self._config.grace_seconds, GraceOver(i))
                    state.cover_deadlines[i] = now + self._config.grace_seconds
            else:
                self._disarm(key)
                state.cover_deadlines.pop(i, None)

    def sync_turns(self, state: TableState) -> None:
        """Keep one turn timer per seat the table's turn timer times now
        (``turn_timer.timed_turns``), armed afresh for each new turn, and
        their deadlines, which views show as ``turn_in``. Cancels the
        others (the seat moved, a bot covers it, the table paused)."""
        timed = timed_turns(state)
        now = time.monotonic()
        for i in range(state.players):
            key = f"turn{i}"
            turn = timed.get(i)
            unmade = turn is not None and self._unmade.pop(i, None) == turn
            if turn is None:
                self._disarm(key)
                self._turns.pop(i, None)
                self._unmade.pop(i, None)
                state.turn_deadlines.pop(i, None)
            elif self._turns.get(i) != turn or unmade:
                # Once per turn: a timer that fired is not armed again while
                # the bot's move for that turn is on its way. If that move
                # came back unmade, the player's time is still over: the bot
                # tries again shortly, so the table never stalls at 0 s.
                self._disarm(key)
                if unmade and self._turns.get(i) == turn:
                    delay = RETRY_AFTER_FAILED_COMMIT
                else:
                    delay = (state.turn_seconds or 0) * self._config.turn_timer_scale
                self._turns[i] = turn
                self._arm(key, delay, TurnOver(i, turn))
                state.turn_deadlines[i] = now + delay

    def timed_out_move_back(self, seat: int, turn: TurnKey) -> None:
        """The fallback bot's move for ``seat``'s timed-out ``turn`` came
        back. Made, the turn moves on; refused, or its commit failed, the
        next ``sync_turns`` arms the timer again for a retry."""
        if self._turns.get(seat) == turn:
            self._unmade[seat] = turn

    def move_for(self, state: TableState, seat: int, turn: TurnKey) -> None:
        """The turn timer of ``seat`` ran out on ``turn``: ask its fallback
        bot for the move (it comes back as a ``TimedOutMove``)."""
        if timed_turns(state).get(seat) != turn:
            return  # the player moved meanwhile
        view = seat_view(state, seat)
        level = state.seats[seat].decision_level
        seed = hash((state.seed, state.games_played, state.seq, seat)) & 0xFFFFFFFF

        async def think() -> None:
            decided = await self._bots.decide(view, level, seed, self._table_id)
            self._post(TimedOutMove(seat, turn, decided.move))

        task = asyncio.create_task(think())
        self._tasks.add(task)  # keep a reference until done (asyncio holds weak ones)
        task.add_done_callback(self._tasks.discard)

    def retry_later(self) -> None:
        """A commit failed: put right what it left behind in a while (a
        ``Tick``), once however many failed meanwhile."""
        if "retry" not in self._timers:
            self._arm("retry", RETRY_AFTER_FAILED_COMMIT, Tick())

    def _arm(self, key: str, delay: float, job: Job) -> None:
        def fire() -> None:
            self._timers.pop(key, None)
            self._post(job)

        self._timers[key] = asyncio.get_running_loop().call_later(delay, fire)

    def _disarm(self, key: str) -> None:
        handle = self._timers.pop(key, None)
        if handle:
            handle.cancel()

    async def _think(self, seat: int, view: Any, level: str, seed: int) -> None:
        decided = await self._bots.decide(view, level, seed, self._table_id)
        if self._metrics is not None:
            self._metrics.child(self._metrics.bot_think, level).observe(decided.computed)
            self._metrics.child(self._metrics.bot_queue_wait, level).observe(decided.waited)
        self._post(BotMoved(seat, decided.move))
