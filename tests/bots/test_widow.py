"""The widow's discard by level and Hard's play after it (``bots.widow``)."""

from __future__ import annotations

import random

from bots.api import decide, simple_discard
from bots.budget import Budget
from bots.knowledge import knowledge_of
from bots.widow import candidate_discards, careful_discard, plain_tricks, search_discard
from engine.cards import card
from engine.hand import Hand, Phase
from engine.rules import Rules

from .support import LEVELS, mask, stocked_hand, table_of, texts, view_of

WIDOW = Rules(variant="widow", players=4, pass_cycle=("hold",))
PENALTY = WIDOW.tables.penalty


def discard_of(hand: str) -> int:
    """Medium's discard of three from ``hand``, as a mask."""
    return mask(" ".join(texts(1 << c) for c in careful_discard(mask(hand), 3, PENALTY)))


def widow_taken() -> Hand:
    """Seat 0 wins the first trick with A♣ and takes the widow K♦ 9♦ 3♠."""
    seats = ["AC KC 5C 8C 4D 2H 3H 6S 7S QS 9H TC", "2C", "3C", "4C"]
    hand = stocked_hand(WIDOW, seats, "KD 9D 3S")
    for text in ["2C", "3C", "4C", "AC"]:
        hand.play(hand.turn, card(text))
    assert hand.phase is Phase.WIDOW and hand.widow_seat == 0
    return hand


def test_medium_discard_voids_a_short_suit() -> None:
    # Q♦ 9♦ are its only diamonds: putting both down (with A♣, its most
    # dangerous other card) leaves a void to shed hearts on later. The
    # simple rule keeps 9♦ and puts down J♠, the higher rank.
    hand = "AC 2C 3C 4C 5C QD 9D JS 2S 3S 2H 3H 4H 6H"
    assert discard_of(hand) == mask("AC QD 9D")
    assert mask(" ".join(texts(1 << c) for c in simple_discard(mask(hand), 3, PENALTY))) == mask(
        "AC QD JS"
    )


def test_medium_discard_keeps_a_protected_queen_and_low_hearts() -> None:
    # Every point discarded is scored at once: with low spades round Q♠
    # and low hearts to duck with, Medium puts down high side cards only.
    hand = "QS 2S 3S 4S AC KC 9C 2C AD 5D 2H 3H 5H 7H"
    assert discard_of(hand) == mask("AC KC AD")


def test_medium_discard_sheds_high_hearts_without_low_ones() -> None:
    # A♥ K♥ with no low heart would win heart tricks later; one point each
    # now is cheaper, while the side suits have low cards to duck with.
    hand = "AH KH 2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 4S 5S"
    assert discard_of(hand) & mask("AH KH") == mask("AH KH")


def test_every_level_discards_through_the_view() -> None:
    hand = widow_taken()
    view = view_of(table_of(hand), 0)
    assert view.phase == "widow" and view.discard_count == 3
    for level in LEVELS:
        # No time cap: a search the cap cut short on a busy machine would
        # depend on the clock, not only on the view and the seed.
        d = decide(view, level, random.Random(3), Budget(worlds=40, max_seconds=None))
        again = decide(view, level, random.Random(3), Budget(worlds=40, max_seconds=None))
        assert d == again  # deterministic for a seed
        assert d.kind == "discard" and len(set(d.cards)) == 3
        assert set(d.cards) <= set(view.hand)
        hand.copy().discard_widow(0, [card(x) for x in d.cards])  # the engine accepts it


def test_hard_discard_is_one_of_its_candidates_and_never_the_queen_here() -> None:
    hand = widow_taken()
    k = knowledge_of(view_of(table_of(hand), 0))
    cands = candidate_discards(k.hand, 3, PENALTY)
    chosen = search_discard(k, 3, random.Random(5), Budget(worlds=60, max_seconds=None))
    m = sum(1 << c for c in chosen)
    assert m in cands
    assert not m & mask("QS")  # four low spades protect it: 13 points for nothing


def test_after_the_widow_hard_searches_plain_tricks() -> None:
    hand = widow_taken()
    before = knowledge_of(view_of(table_of(hand), 0))
    assert plain_tricks(before) is None  # the discard is still to come
    hand.discard_widow(0, [card(x) for x in ("KC", "KD", "TC")])
    k = knowledge_of(view_of(table_of(hand), 0))
    plain = plain_tricks(k)
    assert plain is not None
    assert not plain.rules.extra_steps  # the fast rollout plays it
    assert plain.taken[0] & mask("KC KD TC") == mask("KC KD TC")  # our discard is ours
    assert plain.hand == k.hand and plain.legal == k.legal
    # The others' view of the same position: the discard is hidden from
    # them and counted in seat 0's pile, and their plain position holds it
    # nowhere they could play it.
    other = plain_tricks(knowledge_of(view_of(table_of(hand), 1)))
    assert other is not None and other.hidden[0] == 3
    d = decide(
        view_of(table_of(hand), 0), "hard", random.Random(1), Budget(worlds=30, max_seconds=None)
    )
    assert d.card in view_of(table_of(hand), 0).legal


def test_hard_passes_in_widow_games_by_its_own_search() -> None:
    # With a widow the pass is judged by playing each sensible pass out as
    # the variant is played (the widow taken and discarded), not Medium's.
    from bots.passsearch import candidate_passes, judge_passes, search_pass
    from engine.dealing import deal_hand

    rules = Rules(variant="widow", players=4)
    hand = deal_hand(rules, 1, random.Random(5))  # hand 1 passes left
    view = view_of(table_of(hand), 0)
    k = knowledge_of(view)
    budget = Budget(worlds=40, max_seconds=None)
    ranked = judge_passes(k, candidate_passes(k.hand, 3, PENALTY), random.Random(1), budget)
    # Every survivor was played on deals of its own (the widow's step in each).
    assert ranked and all(deals > 0 for _, _, deals in ranked)
    best = sorted(c for c in range(52) if ranked[0][0] >> c & 1)
    assert search_pass(k, random.Random(1), budget) == best
    decision = decide(view, "hard", random.Random(1), budget)
    assert decision.kind == "pass"
    assert mask(" ".join(decision.cards)) == ranked[0][0]
