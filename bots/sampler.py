"""Deals of the hidden cards that agree with everything one seat knows.

The Hard bot imagines many ways the unseen cards could lie. Each sampled
deal gives every other seat exactly its number of cards, puts the cards we
passed with their receiver, and gives a seat only cards its ``allowed`` mask
permits (voids shown, hearts-only after an early heart lead, ...; see
``bots.knowledge``).

Sampling is exactly uniform over the consistent deals, without rejection:
hidden cards fall into at most ``2**(n-1) - 1`` classes by *which* seats may
hold them. The number of deals that complete a partial assignment depends
only on the class index and the seats' remaining room, so it is counted once
(memoised) and each class's split between its seats is drawn with those
counts as weights; the cards of a class are then shuffled into the split.
Classes are ordered narrowest first, so the last (usually "anyone may hold
it") class has a forced split and most samples cost a shuffle and a few
lookups.

Some variants hide cards no seat holds (docs/rules.md "Variants"): the
widow before the first trick ends, the domino stock, the cancellation rest,
and taken cards nobody saw (a widow discard, a rest taken face down). Each
is one more holder with a fixed number of cards that may hold any unseen
card not known to lie elsewhere; ``sample_world`` returns them apart from
the hands (the stock in a random order: its order is as unknown as its
cards).
"""

from __future__ import annotations

import random
from math import comb

from engine.cards import cards_of

from .knowledge import Knowledge


class InconsistentKnowledge(ValueError):
    """No deal agrees with the view (a bug in the inferences, or a bad view)."""


def _compositions(total: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of parts bounded by ``caps``."""
    if len(caps) == 1:
        return [(total,)] if total <= caps[0] else []
    out: list[tuple[int, ...]] = []
    rest_room = sum(caps[1:])
    for first in range(max(0, total - rest_room), min(caps[0], total) + 1):
        for tail in _compositions(total - first, caps[1:]):
            out.append((first, *tail))
    return out


def _multinomial(parts: tuple[int, ...]) -> int:
    ways = 1
    done = 0
    for k in parts:
        done += k
        ways *= comb(done, k)
    return ways


class DealSampler:
    """Uniform deals of the hidden cards consistent with ``knowledge``."""

    def __init__(self, knowledge: Knowledge, masks: list[int] | None = None) -> None:
        """Group the hidden cards into classes and check a deal exists.

        ``masks`` are the cards each seat may hold (default:
        ``knowledge.allowed``). Raises ``InconsistentKnowledge`` when no
        deal fits.
        """
        k = knowledge
        allowed = masks if masks is not None else k.allowed
        n = k.players
        self.seat = k.seat
        self.players = n
        # Holders: the other seats, then pseudo-holders with index >= n:
        # the stock (n) and each seat's hidden taken cards (n + 1 + seat).
        others = [s for s in range(n) if s != k.seat]
        known_all = 0
        for s in others:
            known_all |= k.known[s]
        hidden = k.unseen & ~known_all
        need = [k.cards_left[s] - k.known[s].bit_count() for s in others]
        anything = hidden
        holder_masks = [allowed[s] for s in others]
        if k.stock:
            others.append(n)
            need.append(k.stock)
            holder_masks.append(anything)
        for s, count in enumerate(k.hidden):
            if count and s != k.seat:
                others.append(n + 1 + s)
                need.append(count)
                holder_masks.append(anything)
        self.others = others
        self.base = [0] * (2 * n + 1)
        self.base[k.seat] = k.hand
        for s in range(n):
            if s != k.seat:
                self.base[s] = k.known[s]
        if any(x < 0 for x in need) or sum(need) != hidden.bit_count():
            raise InconsistentKnowledge("the seats' card counts do not add up")
        by_key: dict[int, list[int]] = {}
        for c in cards_of(hidden):
            key = 0
            for i, m in enumerate(holder_masks):
                if m >> c & 1:
                    key |= 1 << i
            if not key:
                raise InconsistentKnowledge("a hidden card fits no seat")
            by_key.setdefault(key, []).append(c)
        order = sorted(by_key, key=lambda key: (key.bit_count(), key))
        # Each class: the indexes (into ``others``) of seats that may hold it.
        self.classes: list[tuple[tuple[int, ...], list[int]]] = [
            (tuple(i for i in range(len(self.others)) if key >> i & 1), by_key[key])
            for key in order
        ]
        self.need = tuple(need)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        if self.count(0, self.need) == 0:
            raise InconsistentKnowledge("no deal fits the voids and counts")

    def count(self, index: int, room: tuple[int, ...]) -> int:
        """Deals of classes ``index..`` into seats with ``room`` cards left."""
        if index == len(self.classes):
            return 1 if not any(room) else 0
        memo_key = (index, room)
        cached = self._memo.get(memo_key)
        if cached is not None:
            return cached
        seats, cards = self.classes[index]
        total = 0
        for parts in _compositions(len(cards), tuple(room[i] for i in seats)):
            rest = list(room)
            for i, p in zip(seats, parts, strict=True):
                rest[i] -= p
            if index + 1 == len(self.classes):
                # The last class must fill every seat exactly.
                if not any(rest):
                    total += _multinomial(parts)
                continue
            sub = self.count(index + 1, tuple(rest))
            if sub:
                total += _multinomial(parts) * sub
        self._memo[memo_key] = total
        return total

    def sample(self, rng: random.Random) -> list[int]:
        """One deal: every seat's hand as a bitmask (ours and the known cards
        included), each consistent deal equally likely."""
        return self._sample(rng)[: self.players]

    def sample_world(self, rng: random.Random) -> tuple[list[int], list[int], list[int]]:
        """One deal with what no seat holds: ``(hands, stock, hidden)`` —
        the hands as in ``sample``, the stock's cards in a random order (top
        first) and each seat's hidden taken cards as a mask (0 for ours and
        for seats with none)."""
        full = self._sample(rng)
        n = self.players
        stock = cards_of(full[n])
        rnd = rng.random
        for i in range(len(stock) - 1, 0, -1):
            j = int(rnd() * (i + 1))
            stock[i], stock[j] = stock[j], stock[i]
        return full[:n], stock, full[n + 1 :]

    def _sample(self, rng: random.Random) -> list[int]:
        hands = self.base[:]
        room = list(self.need)
        rnd = rng.random
        last = len(self.classes) - 1
        for index, (seats, cards) in enumerate(self.classes):
            caps = tuple(room[i] for i in seats)
            if index == last:
                parts = caps
            else:
                options = _compositions(len(cards), caps)
                if len(options) == 1:
                    parts = options[0]
                else:
                    weights = []
                    for option in options:
                        rest = room[:]
                        for i, p in zip(seats, option, strict=True):
                            rest[i] -= p
                        weights.append(_multinomial(option) * self.count(index + 1, tuple(rest)))
                    pick = rnd() * sum(weights)
                    parts = options[-1]
                    for option, w in zip(options, weights, strict=True):
                        if not w:
                            continue
                        # Float rounding may run past the end: keep the last
                        # possible split rather than an impossible one.
                        parts = option
                        if pick < w:
                            break
                        pick -= w
            deck = cards[:]
            at = 0
            for i, p in zip(seats, parts, strict=True):
                m = 0
                for _ in range(p):
                    j = at + int(rnd() * (len(deck) - at))
                    deck[at], deck[j] = deck[j], deck[at]
                    m |= 1 << deck[at]
                    at += 1
                hands[self.others[i]] |= m
                room[i] -= p
        return hands


def plausible_sampler(knowledge: Knowledge) -> DealSampler:
    """A sampler over the deals a careful player's reading makes plausible
    (``knowledge.likely``), or over every possible deal when no plausible one
    exists (an opponent did something surprising)."""
    try:
        return DealSampler(knowledge, knowledge.likely)
    except InconsistentKnowledge:
        return DealSampler(knowledge)
