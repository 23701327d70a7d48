"""Write golden_variants.jsonl and golden_variants_expected.jsonl (run from the
repo root: ``.venv/bin/python -m tests.data.make_golden_variants``).

The variants' golden hand records, beside the standard game's
(golden_records.jsonl, which stays as it was: records without ``variant``).
Constructed cases state their expected ``hearts verify`` answer here,
derived by hand from docs/rules.md "Variants" (the comments give the
reasoning). The "generated" cases (a seeded random hand of every variant at
its smallest and largest seat count) take their expectation from the engine,
as a regression net. tests/engine/test_golden_variants.py checks the files
against the real command.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from engine.cards import card_text, cards_of
from engine.dealing import deal_hand
from engine.hand import Phase
from engine.record import hand_record, verify_record
from engine.rules import Rules
from engine.variants import VARIANTS
from tests.engine.support import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    MOON_BONUS_DEAL,
    MOON_BONUS_PLAYS,
    MOON_PLAYS,
    SPADES,
    TWENTY_FIVE_DEAL,
    TWENTY_FIVE_PLAYS,
    mask,
)

HERE = Path(__file__).parent
SUITS = [CLUBS.split(), DIAMONDS.split(), SPADES.split(), HEARTS.split()]
HOLD = ["hold"]


def ok(points: list[int]) -> dict[str, Any]:
    return {"ok": True, "complete": True, "points": points}


def bad(step: int | str, error: str) -> dict[str, Any]:
    return {"ok": False, "step": step, "error": error}


def rest_of(deck: int, seats: list[str]) -> list[str]:
    """The deck's cards no seat holds, ascending."""
    return [card_text(c) for c in cards_of(deck & ~mask(" ".join(seats)))]


def constructed() -> list[tuple[Any, dict[str, Any]]]:
    cases: list[tuple[Any, dict[str, Any]]] = []
    add = cases.append
    moon = {"deal": SUITS, "plays": MOON_PLAYS.split()}
    # 1. Omnibus: seat 0 takes all 52 cards, J♦ too: the jackpot, -26, others 0.
    add(({**moon, "rules": {"variant": "omnibus", "pass_cycle": HOLD}}, ok([-26, 0, 0, 0])))
    # 2. Omnibus: J♦ went to seat 1, seat 0 took every heart and Q♠: no
    #    jackpot, so 26 for seat 0 and -10 for seat 1.
    add(
        (
            {
                "rules": {"variant": "omnibus", "pass_cycle": HOLD},
                "deal": [s.split() for s in MOON_BONUS_DEAL],
                "plays": MOON_BONUS_PLAYS.split(),
            },
            ok([26, -10, 0, 0]),
        )
    )
    twenty_five = {
        "deal": [s.split() for s in TWENTY_FIVE_DEAL],
        "plays": TWENTY_FIVE_PLAYS.split(),
    }
    # 3. Spot: seat 1 took 2♥ (2), seat 0 3♥..A♥ (3 + ... + 14 = 102), Q♠ is 0.
    add(({**twenty_five, "rules": {"variant": "spot", "pass_cycle": HOLD}}, ok([102, 2, 0, 0])))
    # 4. Spot moon: every heart (104) to seat 0: 0 for it, +104 for each other.
    add(({**moon, "rules": {"variant": "spot", "pass_cycle": HOLD}}, ok([0, 104, 104, 104])))
    # 5. Greek, hand 1 passes right: each seat passes the three lowest cards
    #    of its right neighbour's suit, leaving the one-suit moon deal; the
    #    shooter gains 26 from each of three others: -78, 26, 26, 26.
    target = SUITS
    passes = [target[(s - 1) % 4][:3] for s in range(4)]
    # seat s holds its target suit less what its left neighbour passes it,
    # plus the three it passes on
    before = [sorted(set(target[s]) - set(passes[(s + 1) % 4]) | set(passes[s])) for s in range(4)]
    add(
        (
            {
                "rules": {"variant": "greek"},
                "deal": before,
                "passes": passes,
                "plays": moon["plays"],
            },
            ok([-78, 26, 26, 26]),
        )
    )
    # 6. Black Maria: three seats, 2♦ out; seat 1 may not throw K♠ on the
    #    first trick while it holds diamonds.
    seat1 = [
        "3D",
        "4D",
        "5D",
        "6D",
        "7D",
        "8D",
        "9D",
        "TD",
        "JD",
        "QD",
        "KD",
        "AD",
        "KS",
        "2S",
        "3S",
        "4S",
        "5S",
    ]
    add(
        (
            {
                "rules": {"variant": "black_maria", "pass_cycle": HOLD},
                "deal": [
                    (CLUBS + " 6S 7S 8S 9S").split(),
                    seat1,
                    ("TS JS QS AS " + HEARTS).split(),
                ],
                "plays": ["2C", "KS"],
            },
            bad(1, "no hearts, Q♠, K♠ or A♠ on the first trick"),
        )
    )
    # 7. Widow, four seats: 2♠ out, a widow of J♥ Q♠ 5♦. Seat 3 wins the
    #    first trick with A♣ and must discard three before anyone plays on.
    widow_seats = [
        ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "2D", "3D", "4D", "6D"],
        ["TC", "JC", "QC", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "3S"],
        ["KC", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS", "2H"],
        ["AC", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "QH", "KH", "AH"],
    ]
    widow = {
        "rules": {"variant": "widow", "pass_cycle": HOLD},
        "deal": widow_seats,
        "stock": ["JH", "QS", "5D"],
        "plays": ["2C", "TC", "KC", "AC"],
    }
    add((widow, {"ok": True, "complete": False, "phase": "widow", "to_move": 3}))
    # 8. ... it discards Q♠ J♥ A♥ (15 points into its pile) and leads 5♦,
    #    its only card that is not a heart: seat 0 must follow with a diamond.
    add(
        (
            {**widow, "discard": ["QS", "JH", "AH"], "plays": [*widow["plays"], "5D"]},
            {"ok": True, "complete": False, "phase": "play", "to_move": 0,
             "legal": ["2D", "3D", "4D", "6D"]},
        )
    )  # fmt: skip
    # 9. ... a discard of a card it does not hold.
    add(({**widow, "discard": ["QS", "JH", "2C"]}, bad("discard", "you do not hold 2♣")))
    # 10. ... a play while the taker is still to discard.
    add(
        (
            {**widow, "plays": [*widow["plays"], "3H"]},
            bad(4, "the widow's taker is discarding"),
        )
    )
    # 11. Domino, three seats: every seat follows every trick, seat 2 wins
    #     them all and all hands run out together: the last trick's winner
    #     takes the stock, which holds every heart: 0, 0, 13.
    domino_seats = ["2C 3C 2D 3D 2S 3S", "4C 5C 4D 5D 4S 5S", "6C 7C 6D 7D 6S 7S"]
    add(
        (
            {
                "rules": {"variant": "domino", "players": 3},
                "deal": [s.split() for s in domino_seats],
                "stock": rest_of((1 << 52) - 1, domino_seats),
                "plays": [
                    "2C",
                    "4C",
                    "6C",
                    "7C",
                    "3C",
                    "5C",
                    "6D",
                    "2D",
                    "4D",
                    "7D",
                    "3D",
                    "5D",
                    "6S",
                    "2S",
                    "4S",
                    "7S",
                    "3S",
                    "5S",
                ],
            },
            ok([0, 0, 13]),
        )
    )
    # 12. Domino: seat 1 holds no club when 2♣ is led; it draws 8♥ 9♥ 4♣ from
    #     the top of the stock and must play the 4♣ it drew.
    seats = ["2C 3D 4D 5D 6D 7D", "2H 3H 4H 5H 6H 7H", "3C 8D 9D TD JD QD"]
    top = ["8H", "9H", "4C"]
    stock = top + [c for c in rest_of((1 << 52) - 1, seats) if c not in top]
    add(
        (
            {
                "rules": {"variant": "domino", "players": 3},
                "deal": [s.split() for s in seats],
                "stock": stock,
                "plays": ["2C"],
            },
            {"ok": True, "complete": False, "phase": "play", "to_move": 1, "legal": ["4C"]},
        )
    )
    # 13. Cancellation, eight seats (13 each, two decks): seats 0 and 1 hold
    #     all 26 clubs. 2♣ and its twin 2♣2 cancel, nobody else has a club:
    #     the trick is carried and seat 0 leads again; it must not lead a heart.
    seat0 = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "KC2"]
    seat1 = [
        "2C2",
        "3C2",
        "4C2",
        "5C2",
        "6C2",
        "7C2",
        "8C2",
        "9C2",
        "TC2",
        "JC2",
        "QC2",
        "AC",
        "AC2",
    ]
    others = [c for c in range(104) if SUIT_TEXT(c) != "C"]
    others.sort(key=lambda c: (SUIT_TEXT(c) == "H", c))
    spread = [[card_text(c) for c in others[i::6]] for i in range(6)]
    void_plays = [s[0] for s in spread]  # each void seat's lowest non-heart
    cancel = {
        "rules": {"variant": "cancellation", "players": 8},
        "deal": [seat0, seat1, *spread],
        "plays": ["2C", "2C2", *void_plays],
    }
    add(
        (
            cancel,
            {"ok": True, "complete": False, "phase": "play", "to_move": 0,
             "legal": [c for c in seat0 if c != "2C"]},
        )
    )  # fmt: skip
    # 14. ... after the carried trick, a card of the second deck that seat 0
    #     does not hold.
    add(({**cancel, "plays": [*cancel["plays"], "AC2"]}, bad(8, "you do not hold A♣²")))
    return cases


def SUIT_TEXT(c: int) -> str:
    return card_text(c)[1]


def generated() -> list[tuple[Any, dict[str, Any]]]:
    """A seeded random hand of every variant at its smallest and largest seat
    count, complete, then one partial; the engine's answer."""
    out: list[tuple[Any, dict[str, Any]]] = []
    seed = 100
    for name, spec in VARIANTS.items():
        if name == "standard":
            continue
        for players, stop in ((spec.players[0], 10_000), (spec.players[-1], 10_000)):
            seed += 1
            rng = random.Random(seed)
            hand = deal_hand(Rules(variant=name, players=players), rng.randint(1, 4), rng)
            steps = 0
            while hand.phase is not Phase.DONE and steps < stop:
                if hand.phase is Phase.PASS:
                    seat = next(s for s in range(players) if hand.passes[s] is None)
                    hand.pass_cards(seat, rng.sample(cards_of(hand.hands[seat]), 3))
                elif hand.phase is Phase.PLAY:
                    hand.play(hand.turn, rng.choice(hand.legal_cards()))
                elif hand.phase is Phase.WIDOW:
                    assert hand.widow_seat is not None
                    held = cards_of(hand.hands[hand.widow_seat])
                    hand.discard_widow(hand.widow_seat, rng.sample(held, len(hand.dealt_stock)))
                else:
                    assert hand.shooter is not None
                    hand.choose_moon(hand.shooter, "subtract")
                steps += 1
            rec = hand_record(hand)
            out.append((rec, verify_record(rec)))
    # a partial cancellation hand: 20 plays in
    rng = random.Random(7)
    hand = deal_hand(Rules(variant="cancellation", players=9), 1, rng)
    for _ in range(20):
        hand.play(hand.turn, rng.choice(hand.legal_cards()))
    rec = hand_record(hand)
    out.append((rec, verify_record(rec)))
    return out


UNREADABLE: list[tuple[str, str]] = [
    (
        json.dumps({"rules": {"variant": "widow"}, "deal": SUITS}),
        "deal: each hand must hold 12 cards",
    ),
    (
        json.dumps({"rules": {"variant": "black_maria", "players": 4}, "deal": SUITS}),
        "rules: Black Maria is played by 3 players",
    ),
    (json.dumps({"deal": SUITS, "stock": ["2C"]}), "deal: the stock must hold 0 cards"),
    (json.dumps({"deal": SUITS, "plays": ["QS3"]}), "plays: unknown card 'QS3'"),
]


def main() -> None:
    lines: list[str] = []
    expected: list[dict[str, Any]] = []
    for rec, answer in [*constructed(), *generated()]:
        lines.append(json.dumps(rec, ensure_ascii=False))
        expected.append(answer)
    for text, error in UNREADABLE:
        lines.append(text)
        expected.append({"ok": False, "line": len(lines), "error": error})
    (HERE / "golden_variants.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (HERE / "golden_variants_expected.jsonl").write_text(
        "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in expected), encoding="utf-8"
    )


if __name__ == "__main__":
    main()
