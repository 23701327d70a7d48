"""Variant positions for the bot tests, straight from engine hands.

Until the seat view carries a variant's face-down cards, these tests build
a seat's ``Knowledge`` from an engine hand's *public* facts the way
``bots.knowledge.knowledge_of`` builds it from a view: the seat's own hand
and hidden pile, every card played, who took which trick, how many cards
each seat holds, how many lie in the stock and in each seat's hidden pile.
No other seat's hand, the stock's cards or anyone's hidden cards are read.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from bots.knowledge import Knowledge
from bots.rulebook import Rulebook
from bots.variant_rollout import widow_discard
from engine.cards import mask_of
from engine.dealing import deal_hand
from engine.hand import Hand, Phase
from engine.rules import Rules
from engine.variants import VARIANTS


def variant_rules(variant: str, players: int) -> Rules:
    """The variant's rules for ``players`` seats, options at their defaults."""
    return Rules(variant=variant, players=players)


def every_variant_count() -> Iterator[tuple[str, int]]:
    """Every (variant, seat count) the engine allows."""
    for name, v in VARIANTS.items():
        for n in v.players:
            yield name, n


def knowledge_at(hand: Hand, seat: int, totals: list[int] | None = None) -> Knowledge:
    """What ``seat`` may know of ``hand`` (public facts and its own cards)."""
    rules = hand.rules
    book = Rulebook.from_rules(rules)
    n = rules.players
    played = mask_of(hand.plays)
    own_hidden = hand.hidden_taken[seat]
    taken = [hand.taken[s] & ~hand.hidden_taken[s] for s in range(n)]
    unseen = book.deck & ~hand.hands[seat] & ~played & ~own_hidden
    allowed = [unseen for _ in range(n)]
    allowed[seat] = hand.hands[seat]
    trick_seats = list(hand.current_trick_seats())
    return Knowledge(
        seat=seat,
        players=n,
        rules=book,
        phase="play",
        hand_number=hand.hand_number,
        pass_direction=None,
        hand=hand.hands[seat],
        legal=hand.legal_mask(seat),
        passed=0,
        passed_to=None,
        received=0,
        received_from=None,
        played=played,
        trick=hand.trick[:],
        trick_leader=hand.leader,
        turn=hand.turn,
        trick_index=hand.trick_index,
        broken=hand.broken,
        taken=taken,
        points=[0] * n,
        cards_left=[h.bit_count() for h in hand.hands],
        known=[0] * n,
        allowed=allowed,
        likely=allowed[:],
        totals=totals or [0] * n,
        moon_shooter=hand.shooter,
        stock=len(hand.stock),
        hidden=[0 if s == seat else hand.hidden_taken[s].bit_count() for s in range(n)],
        own_hidden=own_hidden,
        carried=getattr(hand, "carried", 0),
        trick_seats=trick_seats,
    )


def play_out(
    rules: Rules,
    choose: Sequence[Callable[[Knowledge, random.Random], int]],
    seed: int,
) -> Hand:
    """Deal a hand with ``seed`` and let ``choose[seat](knowledge, rng)``
    pick every card (checked by the engine's ``play``); passes are the
    engine's own random passes, the widow discard the policy's."""
    from engine.playout import random_pass

    rng = random.Random(seed)
    hand = deal_hand(rules, 1, rng)
    if hand.phase is Phase.PASS:
        for s in range(rules.players):
            hand.pass_cards(s, random_pass(hand, s, rng))
    step = 0
    while hand.phase is not Phase.DONE:
        if hand.phase is Phase.PLAY:
            seat = hand.turn
            k = knowledge_at(hand, seat)
            card = choose[seat](k, random.Random(f"{seed}:{step}"))
            hand.play(seat, card)
        elif hand.phase is Phase.WIDOW:
            seat = hand.widow_seat
            assert seat is not None
            m = widow_discard(hand.hands[seat], len(hand.dealt_stock), rules.tables.penalty)
            hand.discard_widow(seat, [c for c in range(rules.tables.card_limit) if m >> c & 1])
        elif hand.phase is Phase.MOON_CHOICE:
            assert hand.shooter is not None
            hand.choose_moon(hand.shooter, "add")
        step += 1
    return hand
