"""``protocol.seat_view``: a seat's view built from an engine game and plain
public facts, the way the server, the arena and a bot of one's own build it.
What it lets through is audited on the server's frames
(tests/server/test_leak_audit.py); here, the builder's own contract."""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import card_text, cards_of
from engine.game import Game
from engine.rules import Rules
from protocol.seat_view import (
    SeatFacts,
    TableFacts,
    TrickCache,
    public_view,
    seat_info,
    seat_view,
    wire_views,
)

RULES = Rules()


def _facts(**changes: object) -> TableFacts:
    seats = tuple(SeatFacts(name=f"Bot {i}", bot_level="easy") for i in range(4))
    facts = TableFacts(RULES, seats, table_id="t", code="ABC-DEF", name="Test")
    for name, value in changes.items():
        setattr(facts, name, value)
    return facts


def _game_in_play(seed: int, plays: int) -> Game:
    """A game whose first hand has had ``plays`` random legal cards played."""
    rng = random.Random(seed)
    game = Game(Rules(pass_cycle=("hold",)))
    game.start_hand(rng)
    hand = game.hand
    assert hand is not None
    for _ in range(plays):
        game.play(hand.turn, rng.choice(hand.legal_cards()))
    return game


def test_a_seat_sees_its_own_cards_and_a_spectator_none() -> None:
    game = Game(RULES)
    game.start_hand(random.Random(1))
    assert game.hand is not None
    for seat in range(4):
        view = seat_view(game, _facts(), seat)
        assert view.seat == seat
        assert list(view.hand) == [card_text(c) for c in cards_of(game.hand.hands[seat])]
        assert view.legal == view.hand  # the pass: any card may go
    spectator = seat_view(game, _facts(), None)
    assert spectator.hand == () and spectator.legal == () and spectator.seat is None
    assert [s.cards_left for s in spectator.seats] == [13] * 4


def test_the_facts_show_as_given() -> None:
    seats = (
        SeatFacts(kind="human", name="Ann", connected=False, away=True, cover_in=12.5),
        SeatFacts(kind="bot", name="Hard bot", bot_level="hard"),
        SeatFacts(kind="open", connected=False),
        SeatFacts(kind="human", name="Bob", ready=True),
    )
    facts = TableFacts(
        RULES,
        seats,
        table_id="t1",
        code="XYZ-KLM",
        name="Friday",
        public=True,
        seq=41,
        host_seat=3,
        status="waiting",
        kicked=(("p9", "Eve"),),
        approval=True,
    )
    view = seat_view(None, facts, 0)
    assert (view.table_id, view.code, view.name, view.public, view.seq) == (
        "t1",
        "XYZ-KLM",
        "Friday",
        True,
        41,
    )
    assert view.status == "waiting" and view.hand_number == 0 and view.phase is None
    assert [(k.player_id, k.name) for k in view.kicked] == [("p9", "Eve")]
    ann, bot, empty, bob = view.seats
    assert ann.away and not ann.connected and ann.cover_in == 12.5
    assert bot.bot_level == "hard" and bot.connected
    assert empty.kind == "open" and not empty.connected
    assert bob.host and bob.ready and not ann.host
    assert seat_info(None, facts, 3) == view.seats[3].model_dump(mode="json")


def test_only_the_host_sees_who_knocks() -> None:
    facts = _facts(host_seat=2, knocks=(("p1", "Zoe"),))
    assert [k.name for k in seat_view(None, facts, 2).knocks] == ["Zoe"]
    assert seat_view(None, facts, 1).knocks == ()
    assert seat_view(None, facts, None).knocks == ()


def test_a_trick_cache_changes_nothing_but_the_cost() -> None:
    cache = TrickCache()
    for plays in (0, 5, 13, 30, 52):
        game = _game_in_play(3, plays)
        facts = _facts(rules=game.rules)
        for seat in (None, 0, 1, 2, 3):
            assert seat_view(game, facts, seat, tricks=cache) == seat_view(game, facts, seat)
        assert len(seat_view(game, facts, 0, tricks=cache).tricks) == plays // 4


def test_a_new_hand_starts_the_cache_afresh() -> None:
    cache = TrickCache()
    first = _game_in_play(3, 20)
    second = _game_in_play(4, 8)
    facts = _facts(rules=first.rules)
    assert len(seat_view(first, facts, 0, tricks=cache).tricks) == 5
    fresh = seat_view(second, facts, 0, tricks=cache)
    assert fresh.tricks == seat_view(second, facts, 0).tricks and len(fresh.tricks) == 2


def test_wire_views_are_the_models_dumped() -> None:
    # As JSON: the wire form leaves empty defaults as tuples, which msgpack
    # and JSON write as the same arrays.
    game = _game_in_play(5, 23)
    facts = _facts(rules=game.rules, host_seat=1, knocks=(("p", "Kim"),))
    public = public_view(game, facts)
    views = wire_views(game, facts, (None, 0, 1, 2, 3), public)
    for seat, wire in views.items():
        assert json.loads(json.dumps(wire)) == seat_view(game, facts, seat).model_dump(mode="json")


def test_facts_that_do_not_fit_the_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="4 seats"):
        seat_view(None, TableFacts(RULES, (SeatFacts(),) * 3), 0)
    with pytest.raises(ValueError, match="no seat 4"):
        seat_view(None, _facts(), 4)


def test_the_modules_example_runs() -> None:
    import textwrap

    import protocol.seat_view

    after = (protocol.seat_view.__doc__ or "").split("::\n", 1)[1].splitlines()
    block = []
    for line in after:
        if line and not line.startswith("    "):
            break
        block.append(line)
    names: dict[str, object] = {}
    exec(textwrap.dedent("\n".join(block)), names)
    view = names["view"]
    assert getattr(view, "seat", None) == 2 and len(getattr(view, "hand", ())) == 13
