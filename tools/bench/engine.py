"""``hearts bench engine``: random full hands per second, ours and OpenSpiel's.

Every loop plays whole hands: deal, pass three random cards (on passing
hands), then every card chosen uniformly among the legal ones. Three loops,
each labelled with the path it takes:

* **checked**: the engine's public, validating API, one action at a time
  (``Hand.deal``, ``Hand.pass_cards``, ``Hand.legal_cards``, ``Hand.play``):
  the path a server takes for every move. This is the figure comparable
  with OpenSpiel's, which is also driven one checked action at a time.
* **kernel**: the unchecked playout kernel the Hard bot's search uses
  (``Hand.deal``, ``random_hand``: bitmask hands, no validation, no
  events). Faster by design; it is not the same work as OpenSpiel's loop.
* **OpenSpiel** (``pyspiel``, game "hearts", ``qs_breaks_hearts=False``),
  driven through its Python API one action at a time (``legal_actions``,
  ``apply_action``); only when the ``openspiel`` extra is installed.

``hands_per_s`` and ``ratio`` (kept for older readers of ``--json``) are the
kernel's. A fourth figure is random rollouts per second from mid-hand
positions (after five tricks), through the kernel.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from engine.hand import Hand, Phase
from engine.playout import random_hand, random_playout
from engine.rules import Rules

OPENSPIEL_EXTRA = "hearts-online[openspiel]"


def engine_hands_per_s(seconds: float, seed: int) -> float:
    """Random full hands per second through the engine."""
    rules = Rules()
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for i in range(200):
            random_hand(Hand.deal(rules, done + i + 1, rng), rng)
        done += 200
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def checked_hands_per_s(seconds: float, seed: int) -> float:
    """Random full hands per second through the checked ``Hand`` API."""
    rules = Rules()
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for i in range(20):
            hand = Hand.deal(rules, done + i + 1, rng)
            if hand.phase is Phase.PASS:
                for seat in range(rules.players):
                    hand.pass_cards(seat, rng.sample(hand.legal_pass_cards(seat), 3))
            while hand.phase is Phase.PLAY:
                hand.play(hand.turn, rng.choice(hand.legal_cards()))
        done += 20
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def mid_hand_positions(count: int, seed: int) -> list[Hand]:
    """Hands played at random through five tricks."""
    rules = Rules()
    rng = random.Random(seed)
    out = []
    for i in range(count):
        hand = Hand.deal(rules, i % 4 + 1, rng)
        if hand.phase is Phase.PASS:
            for seat in range(4):
                hand.pass_cards(seat, rng.sample(hand.legal_pass_cards(seat), 3))
        while hand.trick_index < 5:
            hand.play(hand.turn, rng.choice(hand.legal_cards()))
        out.append(hand)
    return out


def rollouts_per_s(seconds: float, seed: int) -> float:
    """Random playouts per second from mid-hand positions."""
    positions = mid_hand_positions(64, seed)
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for pos in positions:
            random_playout(pos, rng)
        done += len(positions)
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def openspiel_hands_per_s(seconds: float, seed: int) -> float | None:
    """The same loop in OpenSpiel's C++ Hearts, or None when not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})
    rng = random.Random(seed)
    rnd = rng.random
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rnd() * len(legal))])
        done += 50
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def run_bench_engine(seconds: float, seed: int, as_json: bool) -> int:
    """Measure and print; returns the exit status."""
    checked = checked_hands_per_s(seconds, seed)
    ours = engine_hands_per_s(seconds, seed)
    theirs = openspiel_hands_per_s(seconds, seed)
    rollouts = rollouts_per_s(seconds, seed)
    result: dict[str, Any] = {
        "checked_hands_per_s": round(checked, 1),
        "kernel_hands_per_s": round(ours, 1),
        "openspiel_hands_per_s": round(theirs, 1) if theirs else None,
        "checked_ratio": round(checked / theirs, 2) if theirs else None,
        "hands_per_s": round(ours, 1),
        "ratio": round(ours / theirs, 2) if theirs else None,
        "rollouts_per_s": round(rollouts, 1),
    }
    if as_json:
        print(json.dumps(result))
        if theirs is None:  # stdout stays one JSON object
            print(f"openspiel: not installed (pip install '{OPENSPIEL_EXTRA}')", file=sys.stderr)
        return 0
    print("random full hands/s (deal, pass, 52 plays):")
    print(f"  checked API, one action at a time (a server's path)  {checked:10,.0f}")
    print(f"  unchecked playout kernel (the Hard bot's search)     {ours:10,.0f}")
    if theirs:
        print(f"  OpenSpiel 'hearts', one action at a time (Python)    {theirs:10,.0f}")
        print(f"  ratio, checked vs OpenSpiel (comparable work)        {checked / theirs:10.2f}")
        print(f"  ratio, kernel vs OpenSpiel (not the same work)       {ours / theirs:10.2f}")
    else:
        print(f"  OpenSpiel: not installed, no ratio (pip install '{OPENSPIEL_EXTRA}')")
    print(f"random playouts/s from mid-hand (after 5 tricks), kernel  {rollouts:10,.0f}")
    return 0
