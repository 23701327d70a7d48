"""The leak audit (docs/architecture.md property 3): over many seeded games with every
kind of seat, no frame a seat receives carries a card hidden from it at that
moment, and no seat's token reaches anyone else.

Each game is played under one of the variants (every variant, at several
seat counts), with a human host, a mix of scripted humans, Easy and Medium bots
and open seats (Medium bots at the start), one spectator from the start and
sometimes a second one mid-game. Humans now and then send refused requests
(a card they do not hold, a play out of turn) so error frames are audited
too; in some games a human drops, a bot covers for them after the grace
period, and they resume. Each human asks for the table's hand records at its
first move of every hand and gets none of the game in play; once the game
is over every seat gets all its hands, which ``hearts verify`` accepts.

Ground truth comes from the table's hand records (replayed by the engine):
what each seat was dealt, passed and received, and the plays in order. A
seat may know its own dealt hand; the cards passed to it once the exchange
has happened; every card played so far (and only in the order played); the
face-down cards it took by then (the widow, cards drawn from the domino
stock, the cancellation rest: the engine replays the hand up to that play
to say which); the cards left unplayed once a domino hand is over; and, in
an error reply, any card it named itself in a request. A spectator may know
the played cards (and the domino leftovers) only. Every string of every frame is checked: cards as fields (``"QS"``) and
cards inside sentences (``"Q♠"``, ``"10♦"``). Bots are audited the same way
through the views the server hands to the bot runner.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest

from engine.cards import card, card_text, cards_of
from engine.dealing import deal_hand
from engine.hand import Hand, Phase
from engine.record import hand_record, replay
from engine.rules import Rules
from engine.variant_hand import VariantHand
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import encode
from protocol.common import RulesModel
from protocol.view import SeatView
from server.app import RunningServer, start_server
from server.bot_runner import Decided
from tools.cli.verify import verify_lines

from .conftest import BASE_CONFIG, SharedBots
from .harness import REPLY_TYPES, WireClient, choose, needs_action

AT_ONCE = 4
# (variant, players): game n plays CASES[n % len(CASES)].
CASES = (
    ("standard", 4),
    ("widow", 4),
    ("domino", 4),
    ("cancellation", 7),
    ("omnibus", 4),
    ("standard", 3),
    ("widow", 5),
    ("domino", 6),
    ("spot", 4),
    ("greek", 5),
    ("black_maria", 3),
    ("cancellation", 10),
    ("standard", 6),
    ("widow", 3),
    ("domino", 7),
    ("standard", 5),
)
# Each case once: every variant at each of its seat counts above, with the
# seat mixes and mishaps of run_game (drawn per game) across them.
GAMES = len(CASES)
DECK = [card_text(c) for c in range(104)]
CARD = re.compile(r"^[2-9TJQKA][CDHS]2?$")
IN_TEXT = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][CDHS]2?(?![A-Za-z0-9])")
LABEL = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])(²?)")
SENTENCE_KEYS = ("message", "text", "name")


def cards_in(obj: Any) -> set[str]:
    """Every card a decoded frame mentions: as a field value, or inside a
    sentence (wire text or display label). A walk with a stack rather than
    recursion: the audit reads every string of tens of thousands of frames."""
    found: set[str] = set()
    stack: list[tuple[Any, str]] = [(obj, "")]
    while stack:
        value, key = stack.pop()
        if isinstance(value, str):
            if len(value) <= 3 and CARD.match(value):
                found.add(value)
            if key in SENTENCE_KEYS:
                found.update(IN_TEXT.findall(value))
                found.update(
                    card_text(card(r + s + ("2" if second else "")))
                    for r, s, second in LABEL.findall(value)
                )
        elif isinstance(value, dict):
            # bonus_card is a rule of the table (Omnibus: JD), public.
            stack.extend((v, str(k)) for k, v in value.items() if k != "bonus_card")
        elif isinstance(value, (list, tuple)):
            stack.extend((v, key) for v in value)
    return found


class Truth:
    """One table's hands as the engine replays its records."""

    def __init__(self, records: tuple[str, ...]) -> None:
        self.hands: dict[int, Hand] = {}
        # (hand, plays so far) -> per seat, the face-down cards it has
        # taken by then (widow, draws, rest); and per hand, the leftovers
        # shown to all when a domino hand is over.
        self.face_down: dict[tuple[int, int], list[set[str]]] = {}
        self.leftover: dict[int, set[str]] = {}
        for text in records:
            record = json.loads(text)
            hand = replay(record)
            number = hand.hand_number
            self.hands[number] = hand
            if not isinstance(hand, VariantHand):
                continue
            # The hand again, play by play (the engine's own steps: draws,
            # the widow taken, the rest), noting what each seat holds face
            # down after each play.
            part = replay({**record, "plays": [], "discard": None})
            discard = [card(c) for c in record.get("discard") or ()]
            plays = [card(c) for c in record["plays"]]
            dealt = [part.dealt[s] | part.received[s] for s in range(part.players)]
            played = 0
            for k in range(len(plays) + 1):
                if k:
                    part.play(part.turn, plays[k - 1])
                    played |= 1 << plays[k - 1]
                    if part.phase is Phase.WIDOW and discard:
                        part.discard_widow(part.widow_seat or 0, discard)
                self.face_down[number, k] = [
                    {
                        card_text(c)
                        for c in cards_of(
                            (part.hands[s] | part.hidden_taken[s]) & ~dealt[s] & ~played
                        )
                    }
                    for s in range(part.players)
                ]
            if hand.leftover is not None and hand.phase is not Phase.PLAY:
                self.leftover[number] = {card_text(c) for c in cards_of(hand.leftover[1])}
        # Each frame asks for these again: worked out once per hand.
        self._plays = {n: [card_text(c) for c in h.plays] for n, h in self.hands.items()}
        self._dealt = {n: [_texts(mask) for mask in h.dealt] for n, h in self.hands.items()}
        self._received = {n: [_texts(mask) for mask in h.received] for n, h in self.hands.items()}

    def taken_face_down(self, number: int, played: int, seat: int) -> set[str]:
        """The face-down cards ``seat`` has taken after ``played`` plays."""
        return self.face_down.get((number, played), [set()] * (seat + 1))[seat]

    def shown_leftover(self, number: int, played: int) -> set[str]:
        """A domino hand's unplayed cards, once every play is made."""
        if played < len(self.hands[number].plays):
            return set()
        return self.leftover.get(number, set())

    def held_face_down(self, number: int, seat: int) -> set[str]:
        """Every face-down card ``seat`` held at some moment of hand
        ``number`` (a Domino draw it never played, the widow it took)."""
        held: set[str] = set()
        for (hand, _), per_seat in self.face_down.items():
            if hand == number:
                held |= per_seat[seat]
        return held

    def deal(self, number: int, seat: int) -> frozenset[str]:
        """What ``seat`` was dealt in hand ``number``."""
        return self._dealt[number][seat]

    def received(self, number: int, seat: int) -> frozenset[str]:
        """What was passed to ``seat`` in hand ``number``."""
        return self._received[number][seat]

    def plays(self, number: int) -> list[str]:
        """The hand's plays in order."""
        return self._plays[number]


def _texts(mask: int) -> frozenset[str]:
    """A hand's cards (a bitmask) as card texts."""
    return frozenset(card_text(c) for c in cards_of(mask))


def _mask(cards: list[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


@dataclass
class Knowing:
    """What one seat (or a spectator, ``seat`` None) may know, moment by
    moment, while its frames are read in order."""

    truth: Truth
    seat: int | None
    hand: int = 0
    played: int = 0
    exchanged: bool = False
    named: set[str] = field(default_factory=set)

    def allowed(self, reply_to_us: bool = False) -> set[str]:
        """The cards this seat may see now (in an error reply, also the cards
        it named itself)."""
        out = set(self.named) if reply_to_us else set()
        if self.hand == 0:
            return out
        out.update(self.truth.plays(self.hand)[: self.played])
        out |= self.truth.shown_leftover(self.hand, self.played)
        if self.seat is not None:
            out |= self.truth.deal(self.hand, self.seat)
            out |= self.truth.taken_face_down(self.hand, self.played, self.seat)
            if self.exchanged:
                out |= self.truth.received(self.hand, self.seat)
        return out

    def follow_view(self, view: SeatView) -> None:
        """Take the moment from a view, checking its plays are real ones."""
        if not view.hand_number:
            return
        self.hand = view.hand_number
        seen = [p.card for t in view.tricks for p in t.cards] + [p.card for p in view.trick]
        assert seen == self.truth.plays(self.hand)[: len(seen)], "plays out of order"
        self.played = len(seen)
        self.exchanged = view.phase != "pass"

    def follow(self, msg: Any) -> None:
        """Move the moment on by one message (before its cards are checked)."""
        match msg:
            case sm.HandDealt():
                self.hand, self.played, self.exchanged = msg.hand_number, 0, False
                expected = (
                    self.truth.deal(self.hand, self.seat) if self.seat is not None else frozenset()
                )
                assert set(msg.cards) == expected and len(msg.cards) == len(expected)
            case sm.CardsReceived():
                assert self.seat is not None, "a spectator was sent passed cards"
                self.exchanged = True
                assert set(msg.cards) == self.truth.received(self.hand, self.seat)
            case sm.PlayBegins():
                self.exchanged = True
            case sm.CardPlayed():
                assert msg.card == self.truth.plays(self.hand)[self.played]
                self.played += 1
            case sm.Snapshot():
                self.follow_view(msg.view)

    def known_after(self, number: int) -> set[str]:
        """What this seat knew at the end of finished hand ``number``: a
        review of it may mention those cards (and no others)."""
        if self.seat is None:
            return set()
        plays = self.truth.plays(number)
        return (
            set(plays)
            | self.truth.deal(number, self.seat)
            | self.truth.received(number, self.seat)
            | self.truth.held_face_down(number, self.seat)
            | self.truth.shown_leftover(number, len(plays))
        )

    def audit(self, raw: bytes, msg: Any) -> None:
        """Fail if the frame mentions a card this seat may not see now."""
        self.follow(msg)
        allowed = self.allowed(reply_to_us=isinstance(msg, sm.Error))
        if isinstance(msg, sm.Analysis):
            assert msg.seat == self.seat, "a review of another seat"
            allowed |= self.known_after(msg.hand_number)
        leaked = cards_in(msgpack.unpackb(raw, raw=False)) - allowed
        assert not leaked, f"seat {self.seat} was sent hidden cards {leaked} in {msg}"


@dataclass
class Seat:
    """A scripted human (its connections in order) or a spectator."""

    seat: int | None
    streams: list[WireClient]
    named: set[str] = field(default_factory=set)
    # How many hands had been scored each time the seat asked for the
    # table's records during the game (it got none of the game in play).
    asked_records: list[int] = field(default_factory=list)
    # The reviews it asked for (the hand before the one dealt): the
    # connection and the request id.
    analysed: list[tuple[WireClient, int]] = field(default_factory=list)

    @property
    def client(self) -> WireClient:
        """The live connection."""
        return self.streams[-1]


class RecordingBots:
    """The shared bot runner, keeping every view handed to a bot."""

    def __init__(self, inner: SharedBots) -> None:
        self.inner = inner
        self.views: list[SeatView] = []

    async def decide(self, view: SeatView, level: str, seed: int, table: str = "") -> Decided:
        """Record the view, then let the real bot decide."""
        self.views.append(view)
        return await self.inner.decide(view, level, seed, table)

    async def run(self, queue: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Other worker jobs (the hand reviews) as the real runner runs them."""
        return await self.inner.run(queue, fn, *args)

    def close(self) -> None:
        """The shared pool outlives this server."""


@pytest.fixture
async def audited(shared_bots: SharedBots) -> AsyncIterator[tuple[RunningServer, RecordingBots]]:
    """A server with a short grace period whose bots' views are recorded."""
    bots = RecordingBots(shared_bots)
    from dataclasses import replace

    # Reviews with a few deals each: what they may mention is audited, not
    # how well they judge. Every game's host comes from 127.0.0.1: one
    # address creating more tables a minute than a real one may (0: no
    # per-address budget).
    config = replace(BASE_CONFIG, grace_seconds=0.1, analysis_worlds=4, tables_burst_per_address=0)
    server = await start_server(config, bots=bots)  # type: ignore[arg-type]
    yield server, bots
    await server.close()


async def play_seat(
    who: Seat, rng: random.Random, url: str, host: WireClient, drop_after: int | None
) -> None:
    """Play a human seat to game over with legal moves, now and then sending
    a refused request first; after ``drop_after`` moves, drop, wait for the
    covering bot and resume. At its first move of each hand the seat asks
    for the table's records: none of the game in play may come back."""
    index, moves, asked_in = 0, 0, 0
    while True:
        client = who.client
        index, snap = await client.wait_for(lambda m: isinstance(m, sm.Snapshot), start=index)
        index += 1
        if any(isinstance(f.msg, sm.Snapshot) for f in client.frames[index:]):
            continue
        view: SeatView = snap.view
        if view.status == "game_over":
            return
        if not needs_action(view):
            continue
        if drop_after is not None and moves == drop_after:
            drop_after = None
            index = await drop_and_resume(who, url, host)
            continue
        if view.hand_number != asked_in:
            asked_in = view.hand_number
            records = await client.request(cm.GetRecords(id=client.next_id()))
            assert isinstance(records, sm.Records), records
            assert (records.records, records.games) == ((), 0), "records of the game in play"
            who.asked_records.append(len(view.hands))
            if view.hand_number > 1 and not who.analysed:
                # The review of the hand just scored (its own decisions
                # only), once per seat and game (what a review may carry is
                # the same for every hand; each costs the workers dozens of
                # searches): asked now, its reply read once the game is
                # over (reviews queue behind every other game's).
                ask = cm.GetAnalysis(id=client.next_id(), hand=view.hand_number - 1)
                await client.send(ask)
                who.analysed.append((client, int(ask.id)))
        if view.phase == "play" and rng.random() < 0.25:
            named = rng.choice([c for c in DECK if c not in view.hand])
            who.named.add(named)
            err = await client.request(cm.PlayCard(id=client.next_id(), card=named))
            assert isinstance(err, sm.Error) and err.code == "card_not_held"
        request = choose(view, rng, client.next_id())
        if isinstance(request, cm.PlayCard):
            who.named.add(request.card)
        elif isinstance(request, cm.PassCards):
            who.named.update(request.cards)
        start = len(client.frames)
        await client.send(request)
        index, reply = await client.wait_for(
            lambda m, rid=request.id: isinstance(m, REPLY_TYPES) and m.id == rid,  # type: ignore[misc]
            start=start,
        )
        assert not isinstance(reply, sm.Error), reply
        moves += 1


async def drop_and_resume(who: Seat, url: str, host: WireClient) -> int:
    """Cut the seat's connection, wait until a bot covers it (or the game
    ends), resume on a new connection; returns where to read from."""
    old = who.client
    last_seq = max((getattr(f.msg, "seq", 0) or 0 for f in old.frames), default=0)
    mark = len(host.frames)
    await old.drop()
    await host.wait_for(
        lambda m: (
            (isinstance(m, sm.SeatChanged) and m.change == "covering" and m.seat.seat == who.seat)
            or isinstance(m, sm.GameOver)
        ),
        start=mark,
    )
    new = await WireClient.open(url, old.name, player_token=old.player_token)
    new.table_id, new.seat, new.seat_token = old.table_id, old.seat, old.seat_token
    await new.call(
        cm.Resume(
            id=new.next_id(), table_id=old.table_id, seat_token=old.seat_token, last_seq=last_seq
        )
    )
    who.streams.append(new)
    return 0


@dataclass
class Game:
    """One audited game: its seats, spectators and ground truth."""

    humans: list[Seat]
    spectators: list[Seat]
    truth: Truth | None = None


async def run_game(number: int, server: RunningServer) -> Game:
    """Play one seeded game with a random mix of seats."""
    rng = random.Random(number)
    url = server.url
    variant, players = CASES[number % len(CASES)]
    kinds = [rng.choice(["human", "easy", "medium", "open"]) for _ in range(players - 1)]
    host = await WireClient.open(url, f"Host{number}")
    rules = RulesModel.model_validate(
        {"variant": variant, "players": players, "end": "hands", "end_at": rng.choice([1, 2, 3])}
    )
    specs = tuple("open" if k == "human" else k for k in kinds)
    seated = await host.create(seats=specs, rules=rules)  # type: ignore[arg-type]
    humans = [Seat(0, [host])]
    for i, kind in enumerate(kinds, start=1):
        if kind == "human":
            player = await WireClient.open(url, f"P{number}-{i}")
            await player.join(seated.code, seat=i)
            humans.append(Seat(i, [player]))
    watcher = await WireClient.open(url, f"W{number}")
    await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
    spectators = [Seat(None, [watcher])]
    await host.call(cm.Chat(id=host.next_id(), text="good luck, have fun"))
    await host.start()

    drop = rng.choice(humans[1:]) if len(humans) > 1 and number % 2 else None
    tasks = [
        asyncio.create_task(
            play_seat(h, random.Random(number * 10 + k), url, host, 3 if h is drop else None)
        )
        for k, h in enumerate(humans)
    ]
    if number % 3 == 0:  # a spectator arriving mid-game
        await host.wait_for(lambda m: isinstance(m, sm.CardPlayed))
        late = await WireClient.open(url, f"L{number}")
        await late.call(cm.Watch(id=late.next_id(), code=seated.code))
        spectators.append(Seat(None, [late]))
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    game = Game(humans, spectators)
    # Over, the game's records are every seat's to have, whole and valid.
    records = await host.records()
    assert len(records) == len(host.view.hands)
    answers = io.StringIO()
    assert verify_lines(io.StringIO("\n".join(records)), answers) == 0
    assert all(json.loads(line)["complete"] for line in answers.getvalue().splitlines())
    for who in humans[1:]:
        assert await who.client.records() == records
    game.truth = Truth(records)
    for who in humans:
        # (A connection dropped since took its unanswered requests with it.)
        for client, rid in (a for a in who.analysed if a[0] is who.client):
            _, reply = await client.wait_for(
                lambda m, rid=rid: isinstance(m, REPLY_TYPES) and m.id == rid,  # type: ignore[misc]
                timeout=300,
            )
            assert isinstance(reply, sm.Analysis) and reply.seat == who.seat, reply
    for who in spectators:
        await who.client.wait_for(lambda m: isinstance(m, sm.GameOver))
    for who in humans + spectators:
        await who.client.close()
    return game


def audit_game(game: Game) -> int:
    """Check every frame of every seat and spectator; returns frames read."""
    assert game.truth is not None
    count = 0
    secrets_of = {
        id(who): {c.seat_token for c in who.streams if c.seat_token}
        | {c.player_token for c in who.streams if c.player_token}
        for who in game.humans + game.spectators
    }
    for who in game.humans + game.spectators:
        knowing = Knowing(game.truth, who.seat, named=who.named)
        others = set().union(*(s for k, s in secrets_of.items() if k != id(who)))
        for stream in who.streams:
            for frame in stream.frames:
                knowing.audit(frame.raw, frame.msg)
                for secret in others:
                    assert secret.encode() not in frame.raw, "another seat's token leaked"
                if who.seat is None and isinstance(frame.msg, sm.Snapshot):
                    assert not frame.msg.view.hand and not frame.msg.view.legal
                count += 1
    return count


def audit_bot_views(views: list[SeatView], truths: dict[str, Truth]) -> int:
    """Every view given to a bot holds only what its seat may know."""
    for view in views:
        knowing = Knowing(truths[view.table_id], view.seat)
        knowing.follow_view(view)
        leaked = cards_in(view.model_dump(mode="json")) - knowing.allowed()
        assert not leaked, f"a bot at seat {view.seat} was shown {leaked}"
    return len(views)


@pytest.mark.slow
async def test_no_frame_carries_a_hidden_card(
    audited: tuple[RunningServer, RecordingBots],
) -> None:
    """Many games, every frame of every seat and spectator audited, and every
    view handed to a bot."""
    server, bots = audited
    games: list[Game] = []
    for first in range(0, GAMES, AT_ONCE):
        games += await asyncio.gather(*(run_game(n, server) for n in range(first, first + AT_ONCE)))
    frames = sum(audit_game(g) for g in games)
    truths = {g.humans[0].client.table_id: g.truth for g in games if g.truth is not None}
    assert len(truths) == GAMES
    views = audit_bot_views(bots.views, truths)
    # The audit saw real traffic: every kind of seat and situation happened.
    assert frames > 5000 and views > 500
    assert any(len(g.humans[i].streams) > 1 for g in games for i in range(len(g.humans)))
    assert any(len(g.spectators) > 1 for g in games)
    assert any(who.named for g in games for who in g.humans)
    assert any(n >= 1 for g in games for who in g.humans for n in who.asked_records)
    assert any(who.analysed for g in games for who in g.humans)
    hands = [n for t in truths.values() for n in t.hands]
    assert max(hands) >= 3  # across-passes and holds were dealt too
    # Every variant's face-down cards moved while audited: the widow taken
    # and discarded, domino draws and seats dropping out, the rest taken.
    sent = {
        type(f.msg)
        for g in games
        for who in g.humans + g.spectators
        for stream in who.streams
        for f in stream.frames
    }
    assert {
        sm.WidowTaken,
        sm.WidowDiscarded,
        sm.CardsDrawn,
        sm.SeatOut,
        sm.LeftoverTaken,
        sm.RestTaken,
    } <= sent
    assert {t.hands[1].rules.variant for t in truths.values()} == {v for v, _ in CASES}


def test_the_auditor_catches_leaks() -> None:
    """The checker itself: a hidden card in a field or a sentence is found."""
    records = (
        json.dumps(
            {
                "rules": RulesModel().model_dump(mode="json"),
                "hand": 1,
                "deal": [DECK[:52][s::4] for s in range(4)],
                "plays": [],
            }
        ),
    )
    truth = Truth(records)
    mine = sorted(truth.deal(1, 0))
    theirs = sorted(truth.deal(1, 1))
    knowing = Knowing(truth, 0)
    dealt = sm.HandDealt(seq=1, hand_number=1, direction="left", cards=tuple(mine))

    knowing.audit(encode(dealt), dealt)  # its own cards: fine
    for leak in (
        sm.CardsReceived(seq=2, from_seat=3, cards=tuple(theirs[:3])),
        sm.Error(id=1, code="x", message=f"nope, {card_text(card(theirs[0]))}"),
        sm.ChatMessage(seq=3, seat=1, name="a", text=f"I hold {theirs[1]}"),
    ):
        with pytest.raises(AssertionError):
            knowing.audit(encode(leak), leak)
    label = sm.Error(id=2, code="x", message="you do not hold 10♦")
    assert cards_in(msgpack.unpackb(encode(label))) == {"TD"}
    assert cards_in(msgpack.unpackb(encode(sm.Error(id=3, code="x", message="Q♠² and QS2")))) == {
        "QS2"
    }
    spectator = Knowing(truth, None)
    with pytest.raises(AssertionError):
        spectator.audit(encode(dealt), dealt)


def test_the_auditor_knows_who_took_the_widow() -> None:
    """Face-down cards: the widow is allowed to its taker once the first
    trick is over, to nobody before, and never to the others."""
    rules = Rules(variant="widow", players=4)
    hand = deal_hand(rules, 1, random.Random(3))
    # Pass-free hand: hand 4 holds; play the first trick with legal cards.
    plays: list[int] = []
    while hand.phase is Phase.PASS:
        for s in range(4):
            if hand.passes[s] is None:
                hand.pass_cards(s, cards_of(hand.hands[s])[:3])
    while hand.trick_index == 0:
        c = cards_of(hand.legal_mask(hand.turn))[0]
        plays.append(c)
        hand.play(hand.turn, c)
    taker = hand.widow_seat
    assert taker is not None
    record = hand_record(hand)
    truth = Truth((json.dumps(record),))
    widow = tuple(card_text(c) for c in hand.dealt_stock)
    taken = sm.WidowTaken(seq=9, seat=taker, count=len(widow), cards=widow)
    owner = Knowing(truth, taker, hand=1, played=len(plays), exchanged=True)
    owner.audit(encode(taken), taken)
    early = Knowing(truth, taker, hand=1, played=len(plays) - 1, exchanged=True)
    with pytest.raises(AssertionError):
        early.audit(encode(taken), taken)
    other = Knowing(truth, (taker + 1) % 4, hand=1, played=len(plays), exchanged=True)
    with pytest.raises(AssertionError):
        other.audit(encode(taken), taken)
    counted = sm.WidowTaken(seq=9, seat=taker, count=len(widow))
    other.audit(encode(counted), counted)
