"""Properties over seeded random hands and games (hypothesis draws the seeds).

Every hand is played through the checked path with random legal moves under
random rules (3-6 players, every option), and compared at each step with the
slow reference of tests/engine/reference.py, written from docs/rules.md alone.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import card_text, cards_of
from engine.dealing import deal_hand
from engine.errors import RuleViolation
from engine.game import Game
from engine.hand import Hand, Phase
from engine.record import game_from_json, game_to_json, hand_record, replay, verify_record

from . import reference
from .support import cached_rules, random_rules, random_step, snapshot

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FEW = settings(max_examples=25, deadline=None)
SOME = settings(max_examples=40, deadline=None)
REPO = Path(__file__).resolve().parents[2]


def random_hand(seed: int) -> tuple[Hand, random.Random]:
    rng = random.Random(seed)
    rules = random_rules(rng)
    return deal_hand(rules, rng.randint(1, 9), rng), rng


def steps(hand: Hand, rng: random.Random) -> Iterator[Hand]:
    """Yield ``hand`` before every action and once at the end; acts at random."""
    while True:
        yield hand
        if hand.phase is Phase.DONE:
            return
        random_step(hand, rng)


def ref_options(hand: Hand) -> reference.RefOptions:
    r = hand.rules
    return reference.RefOptions(
        players=r.players,
        first_trick=r.first_trick,
        queen_breaks_hearts=r.queen_breaks_hearts,
        moon=r.moon,
        bonus_card=r.bonus_card,
    )


def text_set(m: int) -> set[str]:
    return {card_text(c) for c in cards_of(m)}


def expected_sum(hand: Hand) -> int:
    """docs/rules.md 8-9 and the options: 26 a hand; after a moon 26 for each of the
    n-1 others (add) or -26 (subtract); the bonus card, always in the deck,
    adds -10."""
    n = hand.players
    if hand.shooter is None:
        base = 26
    elif hand.moon_choice == "add":
        base = 26 * (n - 1)
    else:
        base = -26
    return base - (10 if hand.rules.bonus_card else 0)


# -- invariants --------------------------------------------------------------


@given(seed=SEEDS)
@SOME
def test_every_card_of_the_deck_is_somewhere_exactly_once(seed: int) -> None:
    hand, rng = random_hand(seed)
    deck = hand.rules.tables.deck
    n = hand.players
    for h in steps(hand, rng):
        piles = [*h.hands, *h.taken, sum(1 << c for c in h.trick)]
        assert sum(p.bit_count() for p in piles) == deck.bit_count()
        union = 0
        for p in piles:
            assert not union & p
            union |= p
        assert union == deck
        assert len(h.plays) == h.trick_index * n + len(h.trick)
        assert all(len(cards) == n for _, cards, _ in h.history)


@given(seed=SEEDS)
@SOME
def test_a_hands_points_sum_to_26_or_the_moon_and_bonus_adjusted_total(seed: int) -> None:
    hand, rng = random_hand(seed)
    for _ in steps(hand, rng):
        pass
    assert hand.scores is not None
    assert sum(hand.scores) == expected_sum(hand)
    assert sum(hand.points_taken()) == 26 - (10 if hand.rules.bonus_card else 0)


@given(seed=SEEDS)
@settings(max_examples=80, deadline=None)
def test_the_engine_agrees_with_the_reference_at_every_step(seed: int) -> None:
    hand, rng = random_hand(seed)
    ref: reference.RefState | None = None
    for h in steps(hand, rng):
        if h.phase is Phase.PASS:
            continue
        if ref is None:
            # the reference does the exchange itself from the deal and the passes
            after = [text_set(m) for m in h.dealt]
            if h.direction != "hold":
                for seat in range(h.players):
                    passed = text_set(h.passes[seat] or 0)
                    assert len(passed) == 3
                    after[seat] -= passed
                    after[reference.receiver(seat, h.direction, h.players)] |= passed
            assert [text_set(m) for m in h.hands] == after
            ref = reference.start(ref_options(h), after)
        while len(ref.plays) < len(h.plays):  # the engine's last play, per the reference
            played = card_text(h.plays[len(ref.plays)])
            assert played in ref.legal()
            ref.play(played)
        assert [text_set(m) for m in h.hands] == ref.hands
        if h.phase is Phase.PLAY:
            assert h.turn == ref.turn
            assert text_set(h.legal_mask()) == ref.legal()
            if not h.trick:  # the engine flags a break at once, the rule reads it at a lead
                assert h.broken == ref.hearts_broken()
        else:
            assert ref.done
            assert [w for _, _, w in h.history] == [w for _, _, w in ref.tricks]
            assert h.points_taken() == ref.raw_points()
            assert h.shooter == ref.shooter()
        if h.phase is Phase.DONE:
            assert h.scores is not None
            assert list(h.scores) == ref.points(h.moon_choice)
    assert ref is not None and ref.done


@given(seed=SEEDS)
@SOME
def test_every_refused_card_raises_and_changes_nothing(seed: int) -> None:
    hand, rng = random_hand(seed)
    for h in steps(hand, rng):
        if h.phase is not Phase.PLAY or rng.random() < 0.7:
            continue
        legal = h.legal_mask()
        before = snapshot(h)
        for seat in range(h.players):
            for c in range(52):
                accepted = seat == h.turn and bool(legal >> c & 1)
                assert h.can_play(seat, c) is accepted
                if accepted:
                    h.verify_play(seat, c)
                    trial = h.copy()
                    trial.play(seat, c)
                    assert trial.plays[-1] == c
                else:
                    try:
                        h.play(seat, c)
                    except RuleViolation:
                        pass
                    else:
                        raise AssertionError(f"seat {seat} played {card_text(c)} illegally")
                assert snapshot(h) == before


@given(seed=SEEDS)
@FEW
def test_pass_verify_can_and_action_agree(seed: int) -> None:
    rng = random.Random(seed)
    rules = cached_rules(pass_cycle=("left", "right", "across"))
    hand = deal_hand(rules, rng.randint(1, 3), rng)
    while hand.phase is Phase.PASS:
        seat = rng.randrange(4)
        k = rng.choice((2, 3, 3, 3, 4))
        attempt = rng.sample(range(52), k) if rng.random() < 0.5 else None
        if attempt is None:
            held = cards_of(hand.hands[seat])
            attempt = [rng.choice(held) for _ in range(k)]
        before = snapshot(hand)
        try:
            hand.verify_pass(seat, attempt)
        except RuleViolation:
            assert not hand.can_pass(seat, attempt)
            try:
                hand.pass_cards(seat, attempt)
            except RuleViolation:
                pass
            else:
                raise AssertionError("a refused pass was accepted")
            assert snapshot(hand) == before
        else:
            assert hand.can_pass(seat, attempt)
            assert len(set(attempt)) == 3
            assert all(hand.hands[seat] >> c & 1 for c in attempt)
            assert hand.passes[seat] is None
            hand.pass_cards(seat, attempt)
    assert all(h.bit_count() == 13 for h in hand.hands)


@given(seed=SEEDS)
@FEW
def test_nothing_is_exchanged_until_every_seat_has_passed(seed: int) -> None:
    rng = random.Random(seed)
    hand = deal_hand(cached_rules(), 1, rng)
    order = rng.sample(range(4), 4)
    for seat in order[:3]:
        hand.pass_cards(seat, rng.sample(cards_of(hand.hands[seat]), 3))
        assert list(hand.dealt) == hand.hands
        assert hand.received == [0, 0, 0, 0]
        assert hand.phase is Phase.PASS
    hand.pass_cards(order[3], rng.sample(cards_of(hand.hands[order[3]]), 3))
    assert hand.phase is Phase.PLAY
    for seat in range(4):
        assert hand.received[(seat + 1) % 4] == hand.passes[seat]


@given(seed=SEEDS)
@SOME
def test_a_copy_is_independent_of_its_original(seed: int) -> None:
    hand, rng = random_hand(seed)
    for h in steps(hand, rng):
        if rng.random() < 0.8 or h.phase is Phase.DONE:
            continue
        before = snapshot(h)
        twin = h.copy()
        assert snapshot(twin) == before
        for _ in range(rng.randint(1, 6)):
            if twin.phase is Phase.DONE:
                break
            random_step(twin, random.Random(rng.random()))
        assert snapshot(h) == before
        after_twin = snapshot(twin)
        other = h.copy()
        random_step(other, random.Random(0))
        assert snapshot(twin) == after_twin


# -- records and storage -----------------------------------------------------


@given(seed=SEEDS, cut=st.floats(min_value=0.0, max_value=1.0))
@FEW
def test_every_record_replays_to_the_same_hand_and_verifies(seed: int, cut: float) -> None:
    hand, rng = random_hand(seed)
    stop = int(cut * (hand.rules.tables.deck.bit_count() + hand.players + 1))
    for k, h in enumerate(steps(hand, rng)):
        if k != stop and h.phase is not Phase.DONE:
            continue
        rec = json.loads(json.dumps(hand_record(h)))
        assert snapshot(replay(rec)) == snapshot(h)
        out = verify_record(rec)
        if h.phase is Phase.DONE:
            assert h.scores is not None
            assert out == {"ok": True, "complete": True, "points": list(h.scores)}
        elif h.phase is Phase.PLAY:
            legal = [card_text(c) for c in h.legal_cards()]
            assert out == {
                "ok": True,
                "complete": False,
                "phase": "play",
                "to_move": h.turn,
                "legal": legal,
            }
        elif h.phase is Phase.MOON_CHOICE:
            assert out == {
                "ok": True,
                "complete": False,
                "phase": "moon_choice",
                "to_move": h.shooter,
            }
        else:
            assert out == {"ok": True, "complete": False, "phase": "pass"}


@given(seed=SEEDS)
@FEW
def test_a_random_game_round_trips_through_json_at_any_point(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(random_rules(rng, players=4))
    stop = rng.randrange(1, 150)
    for _ in range(stop):
        if not _game_step(game, rng):
            break
    back = game_from_json(json.loads(json.dumps(game_to_json(game))))
    assert back.totals == game.totals
    assert back.hand_scores == game.hand_scores
    assert back.winner == game.winner
    assert (back.hand is None) == (game.hand is None)
    if game.hand is not None and back.hand is not None:
        assert snapshot(back.hand) == snapshot(game.hand)
    twin = random.Random(seed + 1)
    for _ in range(30):  # both continue identically
        state = twin.getstate()
        a = _game_step(game, twin)
        twin.setstate(state)
        b = _game_step(back, twin)
        assert a == b
        assert back.totals == game.totals


def _game_step(game: Game, rng: random.Random) -> bool:
    """One random action of the game; False once it is over."""
    if game.over:
        return False
    hand = game.hand
    if hand is None or hand.phase is Phase.DONE:
        game.start_hand(rng)
    elif hand.phase is Phase.PASS:
        seat = rng.choice([s for s in range(hand.players) if hand.passes[s] is None])
        game.pass_cards(seat, rng.sample(hand.legal_pass_cards(seat), hand.rules.pass_count))
    elif hand.phase is Phase.PLAY:
        game.play(hand.turn, rng.choice(hand.legal_cards()))
    else:
        assert hand.shooter is not None
        game.choose_moon(hand.shooter, rng.choice(("add", "subtract")))
    return True


@given(seed=SEEDS)
@settings(max_examples=8, deadline=None)
def test_a_random_game_ends_with_a_single_lowest_total(seed: int) -> None:
    rng = random.Random(seed)
    options = rng.choice(({"end_at": 50}, {"end": "hands", "end_at": 3}, {"end_at": 100}))
    game = Game(cached_rules(bonus_card=rng.choice((None, "JD")), **options))
    closed = 0
    while _game_step(game, rng):
        if len(game.hand_scores) > closed:  # a hand just ended
            closed = len(game.hand_scores)
            totals = [sum(s[seat] for s in game.hand_scores) for seat in range(4)]
            assert game.totals == totals
            reached = (
                closed >= game.rules.end_at
                if game.rules.end == "hands"
                else max(totals) >= game.rules.end_at
            )
            single = totals.count(min(totals)) == 1
            assert game.over is (reached and single)
        assert closed < 60, "the game never ends"
    assert game.winner is not None
    assert game.totals[game.winner] == min(game.totals)


@pytest.mark.subprocess
def test_the_hearts_verify_command_agrees_with_the_engine_on_random_records(
    tmp_path: Path,
) -> None:
    records, expected = [], []
    for seed in range(20):
        hand, rng = random_hand(seed)
        stop = rng.choice((0, 1, 5, 20, 60, 200))
        for k, _ in enumerate(steps(hand, rng)):
            if k == stop:
                break
        records.append(hand_record(hand))
        expected.append(verify_record(records[-1]))
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "tools.cli.main", "verify", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == expected
    assert any(e.get("complete") for e in expected)
    assert any(e.get("phase") == "play" for e in expected)
