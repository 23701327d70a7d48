"""Write golden_records.jsonl and golden_expected.jsonl (run from the repo root:
``.venv/bin/python -m tests.data.make_golden``).

Every constructed case states its expected ``hearts verify`` answer here,
derived by hand from docs/rules.md and docs/hand-record.md (the comments give the
reasoning); the engine is not consulted for them. Only the cases marked
"generated" (seeded random hands) take their expectation from the engine, as
a regression net. tests/engine/test_golden.py checks the files against the
real command.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from engine.cards import cards_of
from engine.hand import Hand, Phase
from engine.record import hand_record, verify_record
from engine.rules import Rules
from tests.engine.support import (
    ALL_HEARTS_DEAL,
    CLUBS,
    DIAMONDS,
    FOLLOW_DEAL,
    HEARTS,
    MOON_BONUS_DEAL,
    MOON_BONUS_PLAYS,
    MOON_PLAYS,
    QUEEN_AND_HEARTS_DEAL,
    QUEEN_FIRST_DEAL,
    SPADES,
    TWENTY_FIVE_DEAL,
    TWENTY_FIVE_PLAYS,
    build_deal,
    texts,
)

HERE = Path(__file__).parent
SUITS = [CLUBS.split(), DIAMONDS.split(), SPADES.split(), HEARTS.split()]
HOLD = {"pass_cycle": "none"}


def full(seats: list[str], rules: Rules | None = None) -> list[list[str]]:
    """A deal written out in full (cards not named in ``seats`` are filled in)."""
    deal = build_deal(seats, rules or Rules(pass_cycle=("hold",)))
    return [texts(m).split() for m in deal]


def ok(points: list[int]) -> dict[str, Any]:
    return {"ok": True, "complete": True, "points": points}


def play(to_move: int, legal: str) -> dict[str, Any]:
    return {
        "ok": True,
        "complete": False,
        "phase": "play",
        "to_move": to_move,
        "legal": legal.split(),
    }


def bad(step: int | str, error: str) -> dict[str, Any]:
    return {"ok": False, "step": step, "error": error}


def unreadable(line: int, error: str) -> dict[str, Any]:
    return {"ok": False, "line": line, "error": error}


PASS = {"ok": True, "complete": False, "phase": "pass"}

# The one-suit deal before a left pass: every seat passes its three lowest
# cards of the suit that belongs to its left neighbour, so after the pass
# seat 0 holds the clubs, 1 the diamonds, 2 the spades, 3 the hearts (the
# moon deal), and seat 0 received 2♣ from seat 3.
PRE_PASS = [
    ["5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "2D", "3D", "4D"],
    ["5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "2S", "3S", "4S"],
    ["5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "2H", "3H", "4H"],
    ["5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "2C", "3C", "4C"],
]
PRE_PASS_PASSES = [["2D", "3D", "4D"], ["2S", "3S", "4S"], ["2H", "3H", "4H"], ["2C", "3C", "4C"]]

QUEEN_FIRST_FULL = full(QUEEN_FIRST_DEAL)


def constructed() -> list[tuple[Any, dict[str, Any]]]:
    """(record, expected answer) pairs derived by hand."""
    cases: list[tuple[Any, dict[str, Any]]] = []
    add = cases.append
    moon = {"hand": 4, "deal": SUITS, "plays": MOON_PLAYS.split()}
    # 1. seat 0 leads clubs 13 times, nobody else has one: it takes all 26
    #    points, a moon: 0 for it, +26 for each other seat.
    add((moon, ok([0, 26, 26, 26])))
    # 2. the same moon with moon=subtract: the shooter -26, the others 0.
    add(({**moon, "rules": {"moon": "subtract"}}, ok([-26, 0, 0, 0])))
    # 3. moon=choice and no choice recorded: waiting for the shooter, seat 0.
    add(
        (
            {**moon, "rules": {"moon": "choice"}},
            {"ok": True, "complete": False, "phase": "moon_choice", "to_move": 0},
        )
    )
    # 4. the shooter chose subtract.
    add(({**moon, "rules": {"moon": "choice"}, "moon_choice": "subtract"}, ok([-26, 0, 0, 0])))
    # 5. the shooter chose add.
    add(({**moon, "rules": {"moon": "choice"}, "moon_choice": "add"}, ok([0, 26, 26, 26])))
    # 6. bonus J♦: seat 0 took it too; 26 - 10 = 16 raw, add moon: 16 + 26 - 52 = -10.
    add(({**moon, "rules": {"bonus_card": "JD"}}, ok([-10, 26, 26, 26])))
    # 7. bonus 10♦ written "10D", moon=subtract: 16 - 52 = -36, others 0.
    add(({**moon, "rules": {"bonus_card": "10D", "moon": "subtract"}}, ok([-36, 0, 0, 0])))
    # 8. J♦ to seat 1 on trick 1 (seat 3's only non-point card), seat 0 takes
    #    every heart and Q♠: add moon: 0, -10 + 26, 26, 26.
    bonus_moon = {
        "rules": {"bonus_card": "JD"},
        "hand": 4,
        "deal": [s.split() for s in MOON_BONUS_DEAL],
        "plays": MOON_BONUS_PLAYS.split(),
    }
    add((bonus_moon, ok([0, 16, 26, 26])))
    # 9. the same with moon=subtract: -26, -10, 0, 0.
    add(({**bonus_moon, "rules": {"bonus_card": "JD", "moon": "subtract"}}, ok([-26, -10, 0, 0])))
    # 10. seat 0 takes 12 hearts and Q♠ (25), seat 1 one heart: no moon.
    twenty_five = {
        "hand": 4,
        "deal": [s.split() for s in TWENTY_FIVE_DEAL],
        "plays": TWENTY_FIVE_PLAYS.split(),
    }
    add((twenty_five, ok([25, 1, 0, 0])))
    # 11. and with bonus 10♦ (seat 1 threw it on seat 0's trick): 25 - 10 = 15.
    add(({**twenty_five, "rules": {"bonus_card": "TD"}}, ok([15, 1, 0, 0])))
    # 12. moon=choice but 25 is not a moon: complete, nothing to choose.
    add(({**twenty_five, "rules": {"moon": "choice"}}, ok([25, 1, 0, 0])))
    # 13. ... so a recorded choice is illegal.
    add(
        (
            {**twenty_five, "rules": {"moon": "choice"}, "moon_choice": "add"},
            bad("moon_choice", "there is no moon choice to make"),
        )
    )
    # 14. a choice that is neither add nor subtract.
    add(
        (
            {**moon, "rules": {"moon": "choice"}, "moon_choice": "double"},
            bad("moon_choice", "choose add (others +26) or subtract (you -26)"),
        )
    )
    # 15. a complete passing hand: hand 1 passes left; after the pass it is
    #     the moon deal, and seat 0 (who received 2♣) leads.
    passing = {"hand": 1, "deal": PRE_PASS, "passes": PRE_PASS_PASSES, "plays": MOON_PLAYS.split()}
    add((passing, ok([0, 26, 26, 26])))
    # 16. the same hand with two seats passed: still passing.
    add(
        (
            {
                **passing,
                "passes": [PRE_PASS_PASSES[0], None, PRE_PASS_PASSES[2], None],
                "plays": [],
            },
            PASS,
        )
    )
    # 17. no passes at all, no rules (the standard game, hand 1 passes left).
    add(({"deal": PRE_PASS}, PASS))
    # 18. all passed, nothing played: seat 0 received 2♣ and must lead it.
    add(({**passing, "plays": []}, play(0, "2C")))
    # 19. a play before the pass is complete.
    add(
        (
            {**passing, "passes": [PRE_PASS_PASSES[0]], "plays": ["2C"]},
            bad(0, "cards are being passed; play starts after the pass"),
        )
    )
    # 20-23. bad passes.
    add(
        (
            {"deal": SUITS, "passes": [["2C", "3C"], None, None, None]},
            bad("pass", "pass exactly 3 cards"),
        )
    )
    add(({"deal": SUITS, "passes": [["2C", "2C", "3C"]]}, bad("pass", "pass 3 different cards")))
    add(({"deal": SUITS, "passes": [["2C", "3C", "2D"]]}, bad("pass", "you do not hold 2♦")))
    add(
        (
            {"deal": SUITS, "hand": 4, "passes": [["2C", "3C", "4C"]]},
            bad("pass", "there is no passing this hand"),
        )
    )
    # 24. hand 2 passes right:
    #     seat 0's clubs go to seat 3, who then holds 2♣ and leads.
    add(
        (
            {
                "hand": 2,
                "deal": SUITS,
                "passes": [
                    ["2C", "3C", "4C"],
                    ["2D", "3D", "4D"],
                    ["2S", "3S", "4S"],
                    ["2H", "3H", "4H"],
                ],
            },
            play(3, "2C"),
        )
    )
    # 25. hand 3 passes across: seat 0's clubs go to seat 2.
    add(
        (
            {
                "hand": 3,
                "deal": SUITS,
                "passes": [
                    ["2C", "3C", "4C"],
                    ["2D", "3D", "4D"],
                    ["2S", "3S", "4S"],
                    ["2H", "3H", "4H"],
                ],
            },
            play(2, "2C"),
        )
    )
    # 26. hand 5 is the cycle's first entry again (left): seat 1 leads.
    add(
        (
            {
                "hand": 5,
                "deal": SUITS,
                "passes": [
                    ["2C", "3C", "4C"],
                    ["2D", "3D", "4D"],
                    ["2S", "3S", "4S"],
                    ["2H", "3H", "4H"],
                ],
            },
            play(1, "2C"),
        )
    )
    # 27. first trick: seat 2 (spades only, void in clubs) may not play Q♠.
    add(
        (
            {"hand": 4, "deal": SUITS, "plays": ["2C", "2D"]},
            play(2, "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"),
        )
    )
    # 28. ... unless the first trick allows anything.
    add(
        (
            {"rules": {"first_trick": "anything"}, "hand": 4, "deal": SUITS, "plays": ["2C", "2D"]},
            play(2, SPADES),
        )
    )
    # 29. the 13 hearts of seat 3 are all it has: any of them on trick 1.
    add(({"hand": 4, "deal": SUITS, "plays": ["2C", "2D", "2S"]}, play(3, HEARTS)))
    # 30-31. Q♠ on the first trick, refused with each option's sentence.
    add(
        (
            {"hand": 4, "deal": SUITS, "plays": ["2C", "2D", "QS"]},
            bad(2, "no hearts or Q♠ on the first trick"),
        )
    )
    add(
        (
            {
                "rules": {"first_trick": "no_queen"},
                "hand": 4,
                "deal": SUITS,
                "plays": ["2C", "2D", "QS"],
            },
            bad(2, "no Q♠ on the first trick"),
        )
    )
    # 32. the first lead must be 2♣.
    add(
        ({"hand": 4, "deal": SUITS, "plays": ["3C"]}, bad(0, "the first trick must be led with 2♣"))
    )
    # 33. seat 1 (diamonds only) is to move: 3♣ is not in its hand.
    add(({"hand": 4, "deal": SUITS, "plays": ["2C", "3C"]}, bad(1, "you do not hold 3♣")))
    # 34. after the last trick nothing more can be played.
    add(({**moon, "plays": [*MOON_PLAYS.split(), "2C"]}, bad(52, "the hand is over")))
    # 35. seat 0 holds 3♦ when 2♦ is led and plays 5♣.
    follow = {"hand": 4, "deal": full(FOLLOW_DEAL), "plays": ["2C", "3C", "4C", "AC", "2D", "5C"]}
    add((follow, bad(5, "you must follow suit (you hold diamonds)")))
    # 36. seat 0 won trick 1 with A♣ and leads 2♥ before hearts are broken.
    add(
        (
            {
                "hand": 4,
                "deal": full(["AC 2H 2D", "2C", "3C", "4C"]),
                "plays": ["2C", "3C", "4C", "AC", "2H"],
            },
            bad(4, "hearts are not broken yet"),
        )
    )
    # 37. seat 0 leads with only Q♠ and hearts left, hearts unbroken: Q♠ only.
    add(
        (
            {"hand": 4, "deal": full(QUEEN_AND_HEARTS_DEAL), "plays": ["2C", "3C", "4C", "AC"]},
            play(0, "QS"),
        )
    )
    # 38. seat 0 leads with only hearts left: any heart, though unbroken.
    add(
        (
            {"hand": 4, "deal": full(ALL_HEARTS_DEAL), "plays": ["2C", "3C", "4C", "AC"]},
            play(0, "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
        )
    )
    # 39. Q♠ fell on a spade lead before any heart: hearts are still unbroken.
    queen_first: dict[str, Any] = {
        "hand": 4,
        "deal": QUEEN_FIRST_FULL,
        "plays": ["2C", "3C", "4C", "AC", "2S", "QS", "3S", "4S", "5H"],
    }
    add((queen_first, bad(8, "hearts are not broken yet")))
    # 40. ... unless Q♠ breaks hearts: seat 1 (winner of Q♠) may lead anything it holds.
    seat1 = [c for c in QUEEN_FIRST_FULL[1] if c not in ("2C", "QS")]
    add(
        (
            {
                **queen_first,
                "rules": {"queen_breaks_hearts": True},
                "plays": queen_first["plays"][:-1],
            },
            play(1, " ".join(sorted(seat1, key=_order))),
        )
    )
    # 41. five players, no passing: 2♣ and 2♦ are out and the 3♣ holder leads.
    five = Rules(players=5, pass_cycle=("hold",))
    add(
        (
            {
                "rules": {"players": 5, "pass_cycle": "none"},
                "deal": full(["", "", "3C", "", ""], five),
            },
            play(2, "3C"),
        )
    )
    # 42. card texts in other forms are read; output is the two-letter form.
    other = [[c.replace("T", "10") for c in s] for s in SUITS]
    other[2] = [c[:-1] + "♠" for c in other[2]]
    add(
        (
            {"hand": 4, "deal": other, "plays": ["2C", "2D"]},
            play(2, "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"),
        )
    )
    return cases


def _order(text: str) -> int:
    return "CDHS".index(text[1]) * 13 + "23456789TJQKA".index(text[0])


def generated() -> list[tuple[Any, dict[str, Any]]]:
    """Seeded random hands, complete and partial; the engine's answer."""
    out: list[tuple[Any, dict[str, Any]]] = []
    for seed, stop in ((1, 999), (2, 999), (3, 30), (4, 2), (5, 999), (6, 51)):
        rng = random.Random(seed)
        rules = Rules(
            moon=rng.choice(("add", "subtract", "choice")),
            bonus_card=rng.choice((None, "JD", "TD")),
            first_trick=rng.choice(("no_points", "no_queen", "anything")),
            queen_breaks_hearts=rng.choice((False, True)),
        )
        hand = Hand.deal(rules, seed, rng)
        steps = 0
        while hand.phase is not Phase.DONE and steps < stop:
            if hand.phase is Phase.PASS:
                seat = next(s for s in range(4) if hand.passes[s] is None)
                hand.pass_cards(seat, rng.sample(cards_of(hand.hands[seat]), 3))
            elif hand.phase is Phase.PLAY:
                hand.play(hand.turn, rng.choice(hand.legal_cards()))
            else:
                assert hand.shooter is not None
                hand.choose_moon(hand.shooter, "subtract")
            steps += 1
        rec = hand_record(hand)
        out.append((rec, verify_record(rec)))
    # a generated complete record made illegal by hand: its sixth card
    # replaced by 2♣, which was led at step 0 and so is held by nobody
    broken = json.loads(json.dumps(out[0][0]))
    broken["plays"][5] = "2C"
    out.append((broken, bad(5, "you do not hold 2♣")))
    return out


# Lines that cannot be read (exit status 2), with their 1-based line numbers
# filled in when the file is written.
UNREADABLE: list[tuple[str, str]] = [
    ("{not json", "not JSON: Expecting property name enclosed in double quotes"),
    ("[1, 2]", "a hand record must be a JSON object"),
    (
        json.dumps({"hand": 4, "deal": [SUITS[0], SUITS[1], SUITS[2], [*SUITS[3][:-1], "1H"]]}),
        "deal: unknown card '1H'",
    ),
    (
        json.dumps({"hand": 4, "deal": [SUITS[0], SUITS[1], SUITS[2], [*SUITS[3][:-1], "AS"]]}),
        "deal: a card was dealt twice",
    ),
    (json.dumps({"hand": 4, "deal": SUITS, "seat": 0}), "unknown record field 'seat'"),
    (json.dumps({"rules": {"jokers": True}, "deal": SUITS}), "rules: unknown rules field 'jokers'"),
]


def main() -> None:
    lines: list[str] = []
    expected: list[dict[str, Any]] = []
    for rec, answer in constructed():
        lines.append(json.dumps(rec, ensure_ascii=False))
        expected.append(answer)
    lines.append("")  # a blank line is skipped but still counts as a line
    for rec, answer in generated():
        lines.append(json.dumps(rec, ensure_ascii=False))
        expected.append(answer)
    for text, error in UNREADABLE:
        lines.append(text)
        expected.append(unreadable(len(lines), error))
    lines.append(json.dumps({"hand": 4, "deal": SUITS, "plays": MOON_PLAYS.split()}))
    expected.append(ok([0, 26, 26, 26]))  # a bad line does not stop the rest
    (HERE / "golden_records.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (HERE / "golden_expected.jsonl").write_text(
        "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in expected), encoding="utf-8"
    )


if __name__ == "__main__":
    main()
