"""Scripted tables played at the intent level, with no sockets: every kind
of event the engine and the server emit, under every variant.

Each scenario seats humans and bots, knocks, chats, moves, kicks, covers an
away player, times a turn out, claims, undoes, shoots the moon and plays
games to their end, committing each intent's events through the real
``TableCommits`` into a ``MemoryStore`` and fanning them out to one watcher
per seat and a spectator. What a run gives back is what the stores keep
(each event's stored JSON) and what each seat was sent (the event frames,
snapshots left out): ``tests/server/test_event_log_golden.py`` holds both
to ``tests/data/golden_event_log.json``, and the registry test reads the
kinds seen.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from engine.cards import card
from engine.hand import Phase
from engine.rules import Rules
from protocol import client_messages as cm
from protocol.codec import decode_server, encode
from server import table_claims, table_intents, table_jobs, table_undo, turn_timer
from server.bot_runner import BotMove, simple_move
from server.jobs import TableHandle
from server.logged_events import Events
from server.redaction import seat_view
from server.store.memory import MemoryStore
from server.table_commit import TableCommits
from server.table_events import log_event
from server.table_fan_out import fan_out
from server.table_state import Seat, TableState
from server.table_watchers import TableWatchers

from .harness import choose

# (variant, players) of the scenarios: every variant, and seat counts that
# change how it deals (a widow of 3 or 2, a domino stock, two decks).
CASES: tuple[tuple[str, int], ...] = (
    ("standard", 4),
    ("standard", 3),
    ("omnibus", 4),
    ("spot", 4),
    ("greek", 5),
    ("black_maria", 3),
    ("widow", 4),
    ("widow", 5),
    ("domino", 5),
    ("cancellation", 7),
    ("cancellation", 8),
)
# Seeds chosen for what they show (else ``hash_seed``): a carried trick.
SEEDS = {("cancellation", 8): 3}


class _Handle:
    """The table as the watchers' ``attached`` calls name it."""

    table_id = "golden"

    def post(self, job: object) -> None:
        """Jobs are never posted in a scenario."""

    async def call(self, job: object) -> None:
        """Jobs are never called in a scenario."""


@dataclass(eq=False)
class Recorder:
    """A watcher that keeps every frame it is sent."""

    name: str
    player_id: str
    conn_id: str
    frames: list[bytes] = field(default_factory=list)

    def send(self, message: BaseModel) -> None:
        """Keep one message, encoded."""
        self.frames.append(encode(message))

    def send_frame(self, frame: bytes) -> None:
        """Keep one frame."""
        self.frames.append(frame)

    def send_frames(self, frames: Sequence[bytes]) -> None:
        """Keep the frames in order."""
        self.frames.extend(frames)

    def attached(self, table: TableHandle, seat: int | None) -> None:
        """Nothing to do."""

    def removed(self, table: TableHandle) -> None:
        """Nothing to do."""

    def close(self) -> None:
        """Nothing to do."""

    def event_frames(self) -> list[bytes]:
        """The frames received, snapshots and chat history left out."""
        return [f for f in self.frames if decode_server(f).type not in ("snapshot", "chat_history")]


@dataclass
class Run:
    """One scenario's table, store and watchers."""

    state: TableState
    commits: TableCommits
    store: MemoryStore
    watchers: TableWatchers
    recorders: dict[int | None, Recorder]
    rng: random.Random
    kinds: list[str] = field(default_factory=list)

    async def apply(self, events: Events) -> None:
        """Commit one intent's events and fan them out (as the actor does)."""
        if not events:
            return
        self.kinds += [e.kind for e in events]
        fan_out(self.state, self.watchers, await self.commits.commit(self.state, events))

    async def stored(self) -> list[bytes]:
        """Every event body the store kept, in order."""
        items = await self.store.events_since(self.state.table_id, 0)
        assert items is not None
        return [item.body for item in items]

    def sent(self) -> dict[str, str]:
        """Each seat's event frames, as a SHA-256 of their bytes in order."""
        return {
            str(seat): hashlib.sha256(b"".join(r.event_frames())).hexdigest()
            for seat, r in self.recorders.items()
        }


async def new_run(rules: Rules, seed: int, turn_seconds: int | None = 30) -> Run:
    """An empty table with these rules, stored, watched by a recorder per
    seat and one spectator."""
    state = TableState(
        table_id="golden",
        code="GOLDEN",
        name="Golden",
        public=False,
        rules=rules,
        seed=seed,
        seats=[Seat() for _ in range(rules.players)],
        invite="secret",
        approval=True,
        turn_seconds=turn_seconds,
    )
    store = MemoryStore()
    await store.create_table(state.table_id, state.code, state.to_bytes())
    commits = TableCommits(
        store, state.table_id, 1, state.to_bytes(), owner=None, patience=0.0, metrics=None
    )
    watchers = TableWatchers(_Handle())
    recorders: dict[int | None, Recorder] = {}
    for seat in [*range(rules.players), None]:
        recorder = Recorder(f"w{seat}", f"p{seat}", f"c{seat}")
        recorders[seat] = recorder
        watchers.attach(recorder, seat)
    return Run(state, commits, store, watchers, recorders, random.Random(seed))


def _move_of(request: cm.Request) -> BotMove:
    match request:
        case cm.PassCards(cards=cards):
            return BotMove("pass", cards=cards)
        case cm.MoonChoice(choice=choice):
            return BotMove("moon", choice=choice)
        case cm.DiscardWidow(cards=cards):
            return BotMove("discard", cards=cards)
        case cm.PlayCard(card=played):
            return BotMove("play", card=played)
    raise AssertionError(f"not a move: {request!r}")


async def human_move(run: Run, seat: int) -> None:
    """The human at ``seat`` does what its view asks."""
    state = run.state
    request = choose(seat_view(state, seat), run.rng, "r")
    match request:
        case cm.Ready():
            await run.apply(table_intents.ready(state, seat))
        case cm.PassCards(cards=cards):
            await run.apply(table_intents.pass_cards(state, seat, cards))
        case cm.MoonChoice(choice=choice):
            await run.apply(table_intents.choose_moon(state, seat, choice))
        case cm.DiscardWidow(cards=cards):
            await run.apply(table_intents.discard_widow(state, seat, cards))
        case cm.PlayCard(card=played):
            await run.apply(table_intents.play_card(state, seat, played))


def _to_act(state: TableState) -> list[int]:
    """Seats whose move the hand waits for now."""
    hand = state.game.hand if state.game is not None else None
    if hand is None or state.status != "playing":
        return []
    return hand.waiting_seats()


Hook = Callable[[Run, int], Any]


async def play_out(run: Run, on_turn: Hook | None = None, limit: int = 5000) -> None:
    """Play until the game is over: bots (and covering bots) by the server's
    own path, humans as their view asks; ``on_turn(run, seat)`` may act
    first (it returns True when it did)."""
    state = run.state
    for _ in range(limit):
        if state.status == "game_over":
            return
        if state.status == "between_hands":
            for i, s in enumerate(state.seats):
                if s.kind == "human" and s.connected and not s.ready:
                    await run.apply(table_intents.ready(state, i))
                    break
            continue
        seats = _to_act(state)
        assert seats, f"nothing to do at status {state.status}"
        seat = seats[0]
        if on_turn is not None and await on_turn(run, seat):
            continue
        if state.seats[seat].is_bot_turn:
            move = simple_move(seat_view(state, seat), run.rng)
            await run.apply(table_jobs.bot_moved(state, seat, move))
        else:
            await human_move(run, seat)
    raise AssertionError("the game did not end")


async def lobby_scenario(run: Run) -> None:
    """Seats taken, knocks, chat, moves, bots added and removed, a kick and
    a player allowed back, then the game started with bots on open seats."""
    state = run.state
    intents = table_intents
    _, _, events = intents.sit(state, "Host", "p0", 0)
    await run.apply(events)
    await run.apply(intents.knock(state, "p1", "Ann"))
    await run.apply(intents.answer_knock(state, 0, "p1", True))
    await run.apply(intents.knock(state, "p8", "Nobody"))
    await run.apply(intents.answer_knock(state, 0, "p8", False))
    _, _, events = intents.sit(state, "Ann", "p1", 1)
    await run.apply(events)
    await run.apply(intents.chat(state, 1, "Ann", "hello QS"))
    await run.apply(intents.chat(state, None, "Watcher", "hi"))
    await run.apply(intents.move_seat(state, 1, state.players - 1))
    _, _, events = intents.sit(state, "Kim", "p2", 1)
    await run.apply(events)
    await run.apply(intents.kick(state, 0, 1))
    await run.apply(intents.allow_back(state, 0, "p2"))
    await run.apply(intents.add_bot(state, 0, 1, "easy"))
    await run.apply(intents.remove_bot(state, 0, 1))
    await run.apply(intents.add_bot(state, 0, 1, "hard"))
    await run.apply(intents.start_game(state, 0))


async def game_scenario(variant: str, players: int, seed: int | None = None) -> Run:
    """A two-hand game of ``variant``: two humans (one goes away and is
    covered, one times out once, one leaves for good in the second hand)."""
    rules = Rules(variant=variant, players=players, end="hands", end_at=2)
    run = await new_run(rules, seed=hash_seed(variant, players) if seed is None else seed)
    await lobby_scenario(run)
    state = run.state
    away = state.players - 1  # Ann, after her move
    done: set[str] = set()

    async def on_turn(run: Run, seat: int) -> bool:
        hand = state.game.hand if state.game is not None else None
        assert hand is not None
        if "away" not in done and seat == away and hand.phase is Phase.PLAY:
            done.add("away")
            await run.apply(table_intents.set_connected(state, away, False))
            await run.apply(table_intents.start_covering(state, away))
            return False  # the covering bot plays now
        if "away" in done and "back" not in done and seat == 0:
            done.add("back")
            await run.apply(table_intents.set_connected(state, away, True, program=False))
            return True
        if "timed" not in done and "back" in done and seat == away:
            key = turn_timer.timed_turns(state).get(seat)
            if key is not None:
                done.add("timed")
                move = simple_move(seat_view(state, seat), run.rng)
                await run.apply(turn_timer.timed_out_move(state, seat, key, move))
                return True
        if "left" not in done and hand.hand_number == 2 and seat == away:
            done.add("left")
            await run.apply(table_intents.leave_seat(state, away))
            return True
        return False

    await play_out(run, on_turn)
    return run


async def claim_scenario() -> Run:
    """A standard game whose first hand the host claims at its first turn
    (it holds every club: the top cards of every suit left to it), then
    another hand played out, and a rematch."""
    rules = Rules(end="hands", end_at=2, pass_cycle=("hold",))
    run = await new_run(rules, seed=11, turn_seconds=None)
    state = run.state
    _, _, events = table_intents.sit(state, "Host", "p0", 0)
    await run.apply(events)
    await deal_fixed(run)
    await run.apply(table_claims.claim(state, 0))
    await play_out(run)
    await run.apply(table_intents.rematch(state, 0))
    return run


async def undo_scenario() -> Run:
    """A player alone with bots takes a card back."""
    rules = Rules(end="hands", end_at=1, pass_cycle=("hold",))
    run = await new_run(rules, seed=5, turn_seconds=None)
    state = run.state
    _, _, events = table_intents.sit(state, "Solo", "p0", 0)
    await run.apply(events)
    await run.apply(table_intents.start_game(state, 0))
    undone: list[bool] = []

    async def on_turn(run: Run, seat: int) -> bool:
        hand = state.game.hand if state.game is not None else None
        if undone or seat != 0 or hand is None or hand.trick_index < 2:
            return False
        undone.append(True)
        await run.apply(table_undo.undo(state, 0))
        return True

    await play_out(run, on_turn)
    assert undone
    return run


# Seat 0 holds every club and leads them all: it takes every trick and
# shoots the moon (the hand of docs/hand-record.md's moon example).
_MOON_DEAL = tuple(sum(1 << card(rank + suit) for rank in "23456789TJQKA") for suit in "CDSH")


async def deal_fixed(run: Run) -> None:
    """Start the game with the moon deal instead of a shuffled one."""
    state = run.state
    await run.apply(table_intents.start_game(state, 0))
    game = state.game
    assert game is not None
    game.hand = None  # the shuffled deal is replaced: hand 1 again, dealt by hand
    await run.apply(
        [log_event(e, game.totals, state.players) for e in game.start_hand(hands=_MOON_DEAL)]
    )


async def moon_scenario() -> Run:
    """A moon shot under ``moon=choice``: the shooter chooses."""
    rules = Rules(end="hands", end_at=1, pass_cycle=("hold",), moon="choice")
    run = await new_run(rules, seed=3, turn_seconds=None)
    _, _, events = table_intents.sit(run.state, "Shooter", "p0", 0)
    await run.apply(events)
    await deal_fixed(run)
    await play_out(run)
    return run


def hash_seed(variant: str, players: int) -> int:
    """A fixed seed per case (not Python's salted ``hash``)."""
    return int(hashlib.sha256(f"{variant}:{players}".encode()).hexdigest()[:8], 16)


async def every_scenario() -> dict[str, Run]:
    """Every scenario, by name."""
    runs = {f"{v}-{n}": await game_scenario(v, n, SEEDS.get((v, n))) for v, n in CASES}
    runs["claim"] = await claim_scenario()
    runs["undo"] = await undo_scenario()
    runs["moon"] = await moon_scenario()
    return runs
