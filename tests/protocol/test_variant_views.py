"""Views of the variants' hidden and public facts: the widow and its
discard, the domino stock and who dropped out, cancelled and carried
tricks, face-down points, and the rules as a request gives them."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.cards import card, card_text, cards_of, mask_of
from engine.game import Game
from engine.hand import Phase
from engine.rules import Rules
from engine.variant_hand import VariantHand
from engine.variants import VARIANTS
from protocol.common import RulesModel
from protocol.seat_view import SeatFacts, TableFacts, seat_view
from protocol.view import SeatView


def play_until(rules: Rules, seed: int, stop: Callable[[VariantHand], bool]) -> Game:
    """A seeded game of ``rules`` played with the first legal card (and a
    first-cards pass or discard) until ``stop(hand)`` holds."""
    game = Game(rules)
    game.start_hand(random.Random(seed))
    n = rules.players
    while True:
        hand = game.hand
        assert isinstance(hand, VariantHand)
        if stop(hand):
            return game
        if hand.phase is Phase.PASS:
            for s in range(n):
                if hand.passes[s] is None:
                    game.pass_cards(s, cards_of(hand.hands[s])[: rules.pass_count])
        elif hand.phase is Phase.WIDOW:
            seat = hand.widow_seat
            assert seat is not None
            game.discard_widow(seat, cards_of(hand.hands[seat])[: len(hand.dealt_stock)])
        elif hand.phase is Phase.PLAY:
            game.play(hand.turn, cards_of(hand.legal_mask(hand.turn))[0])
        else:
            raise AssertionError(f"the hand ended before the condition held ({hand.phase})")


def views(game: Game) -> list[SeatView]:
    """Every seat's view, then a spectator's."""
    rules = game.rules
    table = TableFacts(rules, tuple(SeatFacts(name=f"B{i}") for i in range(rules.players)))
    seats: list[int | None] = [*range(rules.players), None]
    return [seat_view(game, table, s) for s in seats]


def test_the_widow_is_its_takers_alone() -> None:
    """In the widow phase the taker sees the widow and may discard any card;
    the others see who took it and how many to discard; after the discard
    only the taker sees it, and nobody's points show it until the end."""
    rules = Rules(variant="widow", players=4)
    game = play_until(rules, 5, lambda h: h.phase is Phase.WIDOW)
    hand = game.hand
    assert isinstance(hand, VariantHand) and hand.widow_seat is not None
    taker = hand.widow_seat
    widow = {card_text(c) for c in hand.dealt_stock}
    for view in views(game):
        assert view.phase == "widow" and view.widow_seat == taker and view.turn == taker
        assert view.discard_count == 3 and view.stock_count == 0
        if view.seat == taker:
            assert set(view.widow) == widow and widow <= set(view.hand)
            assert view.legal == view.hand
        else:
            assert not view.widow and not view.legal and not widow & set(view.hand)
    discard = cards_of(hand.hands[taker])[-3:]
    game.discard_widow(taker, discard)
    after = views(game)
    shown = {card_text(c) for c in discard}
    for view in after:
        assert view.phase == "play" and view.seats[taker].hidden_taken == 3
        if view.seat == taker:
            assert set(view.discarded) == shown and set(view.hidden_taken) == shown
        else:
            assert not view.discarded and not view.hidden_taken
    # Public points leave the face-down discard out.
    points = hand.points_taken()
    hidden = sum(rules.tables.penalty[c] for c in discard)
    assert after[-1].points_hand[taker] == points[taker] - hidden


def test_domino_draws_are_counted_and_empty_hands_are_out() -> None:
    """Others see how many cards a seat drew and that it dropped out; only
    the drawer has the drawn cards (in its hand)."""
    rules = Rules(variant="domino", players=4)
    game = play_until(
        rules, 2, lambda h: bool(h.draws) and any(not m for m in h.hands) and h.phase is Phase.PLAY
    )
    hand = game.hand
    assert isinstance(hand, VariantHand)
    drawer, drawn = hand.draws[0]
    out = [s for s in range(4) if not hand.hands[s]]
    for view in views(game):
        assert view.stock_count == len(hand.stock)
        assert view.seats[drawer].drawn >= len(drawn)
        assert [s.seat for s in view.seats if s.out] == out
        # Each trick names the seats that really played it.
        for k, trick in enumerate(view.tricks):
            assert tuple(p.seat for p in trick.cards) == hand.trick_seats(k)
        assert tuple(p.seat for p in view.trick) == hand.current_trick_seats()


def test_cancelled_cards_and_carried_tricks_are_public() -> None:
    """A constructed Cancellation hand: seat 0 leads 2♣, seat 1 cancels it
    with 2♣², nobody else holds a club: the trick is carried (no winner, no
    points), its cancelled pair and its carried cards are shown to all."""
    rules = Rules(variant="cancellation", players=7)
    clubs = [card(f"{r}C") for r in "23456789TJQKA"]
    others = [c for c in range(104) if c % 52 not in clubs]
    hands = [
        mask_of([*clubs, others[0]]),
        mask_of([c + 52 for c in clubs] + [others[1]]),
        *(mask_of(others[2 + 14 * i : 16 + 14 * i]) for i in range(5)),
    ]
    game = Game(rules)
    game.start_hand(hands=hands, stock=others[72:])
    game.play(0, card("2C"))
    game.play(1, card("2C2"))
    for seat in range(2, 7):
        hand = game.hand
        assert hand is not None
        game.play(seat, cards_of(hand.legal_mask(seat))[0])
    spectator = views(game)[-1]
    (trick,) = spectator.tricks
    assert trick.winner is None and trick.points == 0
    assert {"2C", "2C2"} <= set(trick.cancelled)
    assert [p.seat for p in trick.cards] == list(range(7))
    assert set(spectator.carried) == {p.card for p in trick.cards}
    assert spectator.turn == 0 and spectator.stock_count == 6


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_request_names_only_what_it_changes(variant: str) -> None:
    """Fields left out take the variant's own values, and the model says
    them: sent whole, they mean the same rules."""
    model = RulesModel(variant=variant)  # type: ignore[arg-type]
    rules = Rules(variant=variant)
    assert model.to_rules() == rules
    assert model.players == rules.players and model.moon == rules.moon
    again = RulesModel.model_validate(model.model_dump(mode="json"))
    assert again.to_rules() == rules
