"""Deals of the hidden cards that agree with everything one seat knows.

The Hard bot imagines many ways the unseen cards could lie. Each sampled
deal gives every other seat exactly its number of cards, puts the cards we
passed with their receiver, and gives a seat only cards its ``allowed`` mask
permits (voids shown, hearts-only after an early heart lead, ...; see
``bots.knowledge``).

Some variants hide cards no seat holds (docs/rules.md "Variants"): the
widow before the first trick ends, the domino stock, the cancellation rest,
and taken cards nobody saw (a widow discard, a rest taken face down). Each
is one more holder with a fixed number of cards that may hold any unseen
card not known to lie elsewhere; ``sample_world`` returns them apart from
the hands (the stock in a random order: its order is as unknown as its
cards).

**Groups.** Holders that may hold exactly the same hidden cards (seats
with no void shown, the stock, the hidden piles) are one *group*: which
cards a group gets decides the deal up to splitting them among its
members, and every split has the same number of deals whichever cards they
are, so a group's cards are dealt as one holder and then shuffled among its
members by their counts. This is exact, and at a big table it turns nine
seats, a rest and its pile into a few groups.

**Exact mode** (``mode == "exact"``): hidden cards fall into classes by
*which* groups may hold them. The number of deals that complete a partial
assignment depends only on the class index and the groups' remaining room,
so it is counted once (memoised) and each class's split between its groups
is drawn with those counts as weights; the cards of a class are then
shuffled into the split. Classes are ordered narrowest first, so the last
(usually "anyone may hold it") class has a forced split. Sampling is
exactly uniform over the consistent deals, without rejection.

The counting is bounded: when it would take more than ``exact_work``
steps (many groups with different voids at a big table, where the rooms
multiply), the sampler switches to

**Approximate mode** (``mode == "approximate"``): an independence
Metropolis-Hastings chain. A proposal deals the hidden cards in a fixed
order (narrowest class first), each card to one of its groups with
probability proportional to the group's remaining room, and records that
probability ``q`` of the deal; a proposal that runs into a card no group
with room may hold is dealt again, up to ``ATTEMPTS`` times. The chain
moves to a proposal with probability ``min(1, q(current) / q(proposal))``,
which makes the uniform distribution over consistent deals its stationary
one; it starts from a proposal (or, if none succeeds, from a deal found by
a max-flow, which also tells an impossible view apart). Every sample is
consistent with the view; the approximation is that successive samples
are correlated (a refused proposal repeats the deal before) and the start
is not drawn from the target. ``tests/bots/test_sampler.py`` measures the
distance to uniform on an enumerable case; ``proposals``, ``accepted`` and
``failures`` count the chain's work.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterator
from math import comb, exp, log

from engine.cards import cards_of

from .knowledge import Knowledge

EXACT_WORK = 4_000
"""Split steps the exact count may take before the sampler turns approximate
(each a composition of a class between its groups: a few microseconds)."""

ATTEMPTS = 40
"""Proposals per sample in approximate mode before keeping the current deal."""


class InconsistentKnowledge(ValueError):
    """No deal agrees with the view (a bug in the inferences, or a bad view)."""


class _TooMuchWork(Exception):
    """The exact count ran past its work bound."""


def _compositions(total: int, caps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of parts bounded by ``caps``,
    one at a time (a count that must stop early stops mid-way)."""
    if len(caps) == 1:
        if total <= caps[0]:
            yield (total,)
        return
    rest_room = sum(caps[1:])
    for first in range(max(0, total - rest_room), min(caps[0], total) + 1):
        for tail in _compositions(total - first, caps[1:]):
            yield (first, *tail)


def _multinomial(parts: tuple[int, ...]) -> int:
    ways = 1
    done = 0
    for k in parts:
        done += k
        ways *= comb(done, k)
    return ways


def _feasible_split(
    classes: list[tuple[tuple[int, ...], list[int]]], room: list[int]
) -> list[list[int]] | None:
    """How many cards of each class each group gets in some consistent deal
    (a max-flow from classes to groups), or None when there is none."""
    flow = [[0] * len(room) for _ in classes]
    left = [len(cards) for _, cards in classes]
    free = room[:]
    while True:
        found = _augmenting_path(classes, flow, left, free)
        if found is None:
            return flow if not any(left) else None
        end, parent = found
        # Push one card along the path.
        c_count = len(classes)
        free[end - c_count] -= 1
        node = end
        while True:
            prev = parent[node]
            if node >= c_count:
                flow[prev][node - c_count] += 1
            else:
                flow[node][prev - c_count] -= 1
            node = prev
            if parent[node] == -1:
                left[node] -= 1
                break


def _augmenting_path(
    classes: list[tuple[tuple[int, ...], list[int]]],
    flow: list[list[int]],
    left: list[int],
    free: list[int],
) -> tuple[int, dict[int, int]] | None:
    """Breadth-first search for an augmenting path: class nodes 0..C-1,
    group nodes C..C+G-1; a class reaches its groups, a group reaches back
    the classes that already send it cards. (The group node with room it
    ends on, each node's parent), or None."""
    c_count = len(classes)
    parent: dict[int, int] = {c: -1 for c in range(c_count) if left[c]}
    queue = list(parent)
    while queue:
        nxt: list[int] = []
        for node in queue:
            if node >= c_count:
                # Back to the classes that send this group cards.
                g = node - c_count
                back = [c for c in range(c_count) if flow[c][g] and c not in parent]
                parent.update(dict.fromkeys(back, node))
                nxt.extend(back)
                continue
            for g in classes[node][0]:
                if c_count + g in parent:
                    continue
                parent[c_count + g] = node
                if free[g]:
                    return c_count + g, parent
                nxt.append(c_count + g)
        queue = nxt
    return None


def _holders(k: Knowledge, allowed: list[int]) -> tuple[list[int], list[int], list[int], int]:
    """(holders, cards each must get, cards each may get, the hidden cards).
    Holders: the other seats, then pseudo-holders with index >= n: the stock
    (n) and each seat's hidden taken cards (n + 1 + seat)."""
    n = k.players
    holders = [s for s in range(n) if s != k.seat]
    known_all = 0
    for s in holders:
        known_all |= k.known[s]
    hidden = k.unseen & ~known_all
    need = [k.cards_left[s] - k.known[s].bit_count() for s in holders]
    holder_masks = [allowed[s] & hidden for s in holders]
    if k.stock:
        holders.append(n)
        need.append(k.stock)
        holder_masks.append(hidden)
    for s, count in enumerate(k.hidden):
        if count and s != k.seat:
            holders.append(n + 1 + s)
            need.append(count)
            holder_masks.append(hidden)
    return holders, need, holder_masks, hidden


def _card_classes(hidden: int, group_masks: list[int]) -> list[tuple[tuple[int, ...], list[int]]]:
    """The hidden cards grouped by which groups may hold them, fewest first:
    (the groups' indexes, the cards)."""
    by_key: dict[int, list[int]] = {}
    for c in cards_of(hidden):
        key = 0
        for i, m in enumerate(group_masks):
            if m >> c & 1:
                key |= 1 << i
        if not key:
            raise InconsistentKnowledge("a hidden card fits no seat")
        by_key.setdefault(key, []).append(c)
    order = sorted(by_key, key=lambda key: (key.bit_count(), key))
    return [
        (tuple(i for i in range(len(group_masks)) if key >> i & 1), by_key[key]) for key in order
    ]


class DealSampler:
    """Deals of the hidden cards consistent with ``knowledge``: uniform in
    exact mode, a Metropolis-Hastings chain in approximate mode (module doc)."""

    def __init__(
        self,
        knowledge: Knowledge,
        masks: list[int] | None = None,
        exact_work: int = EXACT_WORK,
    ) -> None:
        """Group the holders and the hidden cards and check a deal exists.

        ``masks`` are the cards each seat may hold (default:
        ``knowledge.allowed``); ``exact_work`` bounds the exact count (0:
        approximate at once). Raises ``InconsistentKnowledge`` when no deal
        fits.
        """
        k = knowledge
        allowed = masks if masks is not None else k.allowed
        n = k.players
        self.seat = k.seat
        self.players = n
        holders, need, holder_masks, hidden = _holders(k, allowed)
        # What each holder surely has: the seat its hand, the others what
        # they are known to hold; the pseudo-holders nothing yet.
        self.base = [*k.known, *[0] * (n + 1)]
        self.base[k.seat] = k.hand
        if any(x < 0 for x in need) or sum(need) != hidden.bit_count():
            raise InconsistentKnowledge("the seats' card counts do not add up")
        # Groups: holders with room and the same mask, as (holder, count).
        by_mask: dict[int, list[tuple[int, int]]] = {}
        for h, m, x in zip(holders, holder_masks, need, strict=True):
            if x:
                by_mask.setdefault(m, []).append((h, x))
        group_masks = list(by_mask)
        self.members = list(by_mask.values())
        # Each class: the indexes of the groups that may hold it, its cards.
        self.classes = _card_classes(hidden, group_masks)
        self.need = tuple(sum(x for _, x in group) for group in self.members)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._splits: dict[
            tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]
        ] = {}
        # Splits the count has looked at, and how many it may.
        self.work = 0
        self._work_bound = exact_work
        self.proposals = 0
        self.accepted = 0
        self.failures = 0
        self.mode = "exact"
        try:
            if self.count(0, self.need) == 0:
                raise InconsistentKnowledge("no deal fits the voids and counts")
        except _TooMuchWork:
            self.mode = "approximate"
            self._memo.clear()
            self._start_chain()

    def count(self, index: int, room: tuple[int, ...]) -> int:
        """Deals of classes ``index..`` into groups with ``room`` cards left
        (up to the members' splits, which every deal shares). Exact mode
        only: in approximate mode the count has already run out of work."""
        if index == len(self.classes):
            return 1 if not any(room) else 0
        memo_key = (index, room)
        cached = self._memo.get(memo_key)
        if cached is not None:
            return cached
        seats, cards = self.classes[index]
        total = 0
        for parts in _compositions(len(cards), tuple(room[i] for i in seats)):
            if self.work == self._work_bound:
                raise _TooMuchWork
            self.work += 1
            rest = list(room)
            for i, p in zip(seats, parts, strict=True):
                rest[i] -= p
            if index + 1 == len(self.classes):
                # The last class must fill every group exactly.
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
        included)."""
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
        groups = self._exact_groups(rng) if self.mode == "exact" else self._chain_step(rng)
        hands = self.base[:]
        rnd = rng.random
        for members, mask in zip(self.members, groups, strict=True):
            if len(members) == 1:
                hands[members[0][0]] |= mask
                continue
            deck = cards_of(mask)
            at = 0
            for holder, p in members:
                m = 0
                for _ in range(p):
                    j = at + int(rnd() * (len(deck) - at))
                    deck[at], deck[j] = deck[j], deck[at]
                    m |= 1 << deck[at]
                    at += 1
                hands[holder] |= m
        return hands

    def _exact_groups(self, rng: random.Random) -> list[int]:
        """Each group's cards, uniformly among the consistent deals."""
        groups = [0] * len(self.need)
        room = list(self.need)
        rnd = rng.random
        last = len(self.classes) - 1
        for index, (seats, cards) in enumerate(self.classes):
            # The last class fills every group's room exactly.
            last_parts = tuple(room[i] for i in seats)
            parts = last_parts if index == last else self._pick_split(index, tuple(room), rnd)
            deck = cards[:]
            at = 0
            for i, p in zip(seats, parts, strict=True):
                m = 0
                for _ in range(p):
                    j = at + int(rnd() * (len(deck) - at))
                    deck[at], deck[j] = deck[j], deck[at]
                    m |= 1 << deck[at]
                    at += 1
                groups[i] |= m
                room[i] -= p
        return groups

    def _pick_split(
        self, index: int, room: tuple[int, ...], rnd: Callable[[], float]
    ) -> tuple[int, ...]:
        """A split of class ``index`` between its groups, weighted by the
        deals that complete it (the weights kept per state: the same states
        come back sample after sample)."""
        table = self._splits.get((index, room))
        if table is None:
            seats, cards = self.classes[index]
            options = list(_compositions(len(cards), tuple(room[i] for i in seats)))
            kept: list[tuple[int, ...]] = []
            bounds: list[int] = []
            total = 0
            for option in options:
                rest = list(room)
                for i, p in zip(seats, option, strict=True):
                    rest[i] -= p
                w = _multinomial(option) * self.count(index + 1, tuple(rest))
                if w:
                    total += w
                    kept.append(option)
                    bounds.append(total)
            table = (kept, bounds)
            self._splits[(index, room)] = table
        kept, bounds = table
        if len(kept) == 1:
            return kept[0]
        # Exact integer weights: a uniform integer below their sum picks one.
        pick = int(rnd() * bounds[-1])
        return kept[min(bisect_right(bounds, pick), len(kept) - 1)]

    def _propose(self, rnd: random.Random) -> tuple[list[int], float] | None:
        """One proposal: each group's cards and the log of the chance of
        dealing exactly them, or None when it ran into a dead end."""
        self.proposals += 1
        room = list(self.need)
        groups = [0] * len(room)
        logq = 0.0
        draw = rnd.random
        for seats, cards in self.classes:
            for c in cards:
                total = 0
                for i in seats:
                    total += room[i]
                if not total:
                    self.failures += 1
                    return None
                pick = int(draw() * total)
                for i in seats:
                    if pick < room[i]:
                        break
                    pick -= room[i]
                logq += log(room[i] / total)
                room[i] -= 1
                groups[i] |= 1 << c
        return groups, logq

    def _log_chance(self, groups: list[int]) -> float:
        """The log of the chance that a proposal deals exactly ``groups``."""
        room = list(self.need)
        logq = 0.0
        for seats, cards in self.classes:
            for c in cards:
                total = sum(room[i] for i in seats)
                i = next(i for i in seats if groups[i] >> c & 1)
                logq += log(room[i] / total)
                room[i] -= 1
        return logq

    def _start_chain(self) -> None:
        """The chain's first deal: a proposal, else a max-flow's deal; a view
        no deal fits raises ``InconsistentKnowledge``."""
        split = _feasible_split(self.classes, list(self.need))
        if split is None:
            raise InconsistentKnowledge("no deal fits the voids and counts")
        # The first proposals draw from a fixed seed: the view alone decides
        # where the chain starts, the caller's generator the rest.
        start_rng = random.Random(len(self.classes))
        for _ in range(ATTEMPTS):
            first = self._propose(start_rng)
            if first is not None:
                self._state, self._logq = first
                return
        groups = [0] * len(self.need)
        for (_seats, cards), row in zip(self.classes, split, strict=True):
            at = 0
            for i, p in enumerate(row):
                for c in cards[at : at + p]:
                    groups[i] |= 1 << c
                at += p
        self._state, self._logq = groups, self._log_chance(groups)

    def _chain_step(self, rng: random.Random) -> list[int]:
        """The chain's next deal (module doc): at most ``ATTEMPTS`` proposals."""
        for _ in range(ATTEMPTS):
            proposal = self._propose(rng)
            if proposal is None:
                continue
            groups, logq = proposal
            if logq <= self._logq or rng.random() < exp(self._logq - logq):
                self._state, self._logq = groups, logq
                self.accepted += 1
            break
        return self._state


def plausible_sampler(knowledge: Knowledge) -> DealSampler:
    """A sampler over the deals a careful player's reading makes plausible
    (``knowledge.likely``), or over every possible deal when no plausible one
    exists (an opponent did something surprising)."""
    try:
        return DealSampler(knowledge, knowledge.likely)
    except InconsistentKnowledge:
        return DealSampler(knowledge)
