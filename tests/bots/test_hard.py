"""Hard's pieces: equivalent cards, the exact endgame, plausible reading,
the pass search and a few plays any strong player makes."""

from __future__ import annotations

import random

import pytest

import bots.endgame as endgame
from bots.api import decide
from bots.budget import Budget
from bots.endgame import EndgameSolver
from bots.knowledge import knowledge_of
from bots.passsearch import candidate_passes, search_pass
from bots.rulebook import Rulebook
from bots.search import candidates
from engine.cards import QUEEN_SPADES, card_text
from engine.hand import Hand, Phase
from engine.rules import Rules

from .support import HOLD, deal_from, hand_of, mask, scripted, table_of, view_of

SMALL = Budget(worlds=40, max_seconds=None)


def test_equivalent_cards_are_tried_once() -> None:
    # Seat 0 holds 5H 7H and 6H has been played: 5H and 7H are the same card.
    seats = ["AC 5H 7H JS QS KS 2D", "2C 6H", "3C", "4C"]
    table = scripted(seats, "2C 3C 4C AC")
    k = knowledge_of(view_of(table, 0))
    k.played |= mask("6H")
    k.legal = mask("5H 7H JS QS KS")
    assert [card_text(c) for c in candidates(k)] == ["5H", "JS", "QS", "KS"]
    k.played &= ~mask("6H")
    assert [card_text(c) for c in candidates(k)] == ["5H", "7H", "JS", "QS", "KS"]


def _endgames(count: int, tricks_left: int) -> list[Hand]:
    rng = random.Random(17)
    out = []
    for _ in range(count):
        hand = Hand.deal(HOLD, 1, rng)
        while hand.trick_index < 13 - tricks_left or rng.random() < 0.5:
            hand.play(hand.turn, rng.choice(hand.legal_cards()))
            if hand.phase is not Phase.PLAY or hand.trick_index >= 13 - tricks_left + 1:
                break
        if hand.phase is Phase.PLAY:
            out.append(hand)
    return out


def test_grouping_moves_does_not_change_the_endgame(monkeypatch: pytest.MonkeyPatch) -> None:
    book = Rulebook.from_rules(HOLD)
    positions = _endgames(40, 3)
    grouped = []
    for h in positions:
        s = EndgameSolver(book, h.turn)
        grouped.append(
            s.solve(h.hands[:], h.taken[:], h.trick[:], h.leader, h.trick_index, h.broken)
        )
    monkeypatch.setattr(
        endgame,
        "distinct_moves",
        lambda legal, others, loners: [c for c in range(52) if legal >> c & 1],
    )
    for h, res in zip(positions, grouped, strict=True):
        s = EndgameSolver(book, h.turn)
        full = s.solve(h.hands[:], h.taken[:], h.trick[:], h.leader, h.trick_index, h.broken)
        assert full == res
        assert sum(res) in (26, 78)


def test_endgame_leaves_the_position_unchanged() -> None:
    book = Rulebook.from_rules(HOLD)
    for h in _endgames(20, 3):
        hands, taken, trick = h.hands[:], h.taken[:], h.trick[:]
        EndgameSolver(book, h.turn).solve(hands, taken, trick, h.leader, h.trick_index, h.broken)
        assert (hands, taken, trick) == (h.hands, h.taken, h.trick)


def test_hard_dumps_the_queen_when_void() -> None:
    seats = ["AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", "2C AD", "3C", "QS 4C"]
    table = scripted(seats, "2C 3C 4C AC 2D AD")
    hand = hand_of(table)
    hand.play(2, min(hand.legal_cards()))
    d = decide(view_of(table, 3), "hard", random.Random(1), SMALL)
    assert d.card == "QS"


def test_hard_does_not_win_with_the_queen() -> None:
    # Spades led low; Hard holds Q♠ and 2♠: it keeps the queen.
    seats = ["AC 3S", "2C QS 2S", "3C", "4C"]
    table = scripted(seats, "2C 3C 4C AC 3S")
    assert hand_of(table).turn == 1
    d = decide(view_of(table, 1), "hard", random.Random(1), SMALL)
    # The two low spades are close (a few worlds decide between them); the
    # queen is the mistake.
    assert d.card in ("2S", "6S")


def test_a_careful_reading_of_discards() -> None:
    # Seat 1 is void in clubs and throws A♥ instead of Q♠: a careful player
    # would have thrown the queen, so it probably has none. Probably: it is
    # still allowed to hold it.
    seats = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D AH", "3D 5D", "QS 4D 6D"]
    table = scripted(seats, "2C 2D 3D 4D 3C AH 5D 6D")
    k = knowledge_of(view_of(table, 2))
    assert not k.likely[1] >> QUEEN_SPADES & 1
    assert k.allowed[1] >> QUEEN_SPADES & 1
    # Seat 3 kept the queen through the same kind of discard: the reading is
    # a guess, which is why Hard falls back to every possible deal when the
    # guesses cannot all be true.
    assert not k.likely[3] >> QUEEN_SPADES & 1


def test_pass_search_picks_a_sensible_pass() -> None:
    rules = Rules()
    seats = ["QS AS KS 2C 5C 8D 9D 4H 6H 7H 2D 3D 4D", "", "", ""]
    hand = Hand(rules, 1, deal_from(seats, rules))
    k = knowledge_of(view_of(table_of(hand), 0))
    cands = candidate_passes(k.hand, 3)
    assert mask("QS AS KS") in cands and len(set(cands)) == len(cands)
    chosen = search_pass(k, random.Random(2), Budget(worlds=60, max_seconds=None))
    assert QUEEN_SPADES in chosen


def test_hard_searches_its_pass_at_a_big_table() -> None:
    # At seven seats the pass is judged by playing the sensible passes out
    # (it was Medium's careful pass at every table but four seats).
    from bots.passsearch import judge_passes
    from engine.dealing import deal_hand

    rules = Rules(players=7)
    hand = deal_hand(rules, 1, random.Random(11))  # hand 1 passes left
    k = knowledge_of(view_of(table_of(hand), 0))
    budget = Budget(worlds=60, max_seconds=None)
    ranked = judge_passes(k, candidate_passes(k.hand, 3), random.Random(4), budget)
    assert ranked and all(deals > 0 for _, _, deals in ranked)
    best = sorted(c for c in range(52) if ranked[0][0] >> c & 1)
    assert search_pass(k, random.Random(4), budget) == best


def test_the_rollout_counts_cards_out_of_the_deck_as_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Nine seats: 2-5♦ and 2-4♣ are out of the deck. An imagined seat that
    # leads must not count them as lower cards still to come (6♦ would look
    # as likely to win a trick as 6♣ with four lower clubs out).
    import bots.rollout as rollout

    rules = Rules(players=9)
    rb = Rulebook.from_rules(rules)
    removed = mask("2D 3D 4D 5D 2C 3C 4C")
    assert not rb.deck & removed
    seen: list[int] = []
    real = rollout.lead_card

    def spy(h: int, legal: int, played: int) -> int:
        seen.append(played)
        return real(h, legal, played)

    monkeypatch.setattr(rollout, "lead_card", spy)
    hands = deal_from([""] * 9, rules)
    rollout.heuristic_playout(rb, hands, [0] * 9, [], 0, 1, True, 0, random.Random(0).random)
    assert seen and all(p & removed == removed for p in seen)
    assert rollout.lead_card(mask("6D 6C"), mask("6D 6C"), removed) == mask("6D").bit_length() - 1
