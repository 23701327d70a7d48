"""Fast random playouts: the unchecked path that search and benchmarks share.

``random_playout`` finishes a hand from any position in the PLAY phase with
each card chosen uniformly among the legal ones, and returns the hand's
points. It never touches the ``Hand`` it starts from. The legality it applies
is the same as ``Hand._legal`` (docs/rules.md rules 3-6); tests check the two
agree card for card.

How it stays fast (every play is a handful of bytecodes on small ints):

* Hands are split into 13-bit suit masks, ``hs[suit * n + seat]``. Following
  suit is one index, and no arithmetic touches the 52-bit masks, which are
  two-digit Python ints and slower to shift and mask.
* A uniform choice is one ``rng.random()`` call: the ``k``-th lowest of the
  ``count`` legal cards, ``k = int(random() * count)`` (the float count comes
  from a table, float times float being cheaper than float times int). The
  ``k``-th card of a suit mask is a lookup (``RANKS_IN``); of a whole hand, a
  walk over the four suits' popcounts. The first lead is forced and draws
  nothing.
* A trick is scored by adding each card's playout code (``RuleTables.
  play_codes``: positive points, bonus card, hearts breaker) instead of
  building a taken mask; the taken piles are only needed as points and moon
  flags.

Variants: the kernel plays every variant whose rules are data alone
(``RuleTables.fast``: the standard game at 3-10 seats, Omnibus, Spot, Greek,
Black Maria) at the standard game's speed, their penalties and moon
scoring read from the tables. Hearts with a widow, Domino Hearts and
Cancellation Hearts take a general path: a copy of the hand played through
``VariantHand.apply_unchecked`` (and ``discard_unchecked``) with uniformly
random legal moves, slower but the same rules as the checked path.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .cards import RANKS_IN, cards_of
from .hand import Hand, Phase
from .rules import CODE_BONUS, CODE_BREAK, RuleTables, moon_scores

# POP13[m] / FPOP13[m]: cards in a 13-bit suit mask, as int and as float.
POP13: tuple[int, ...] = tuple(m.bit_count() for m in range(1 << 13))
FPOP13: tuple[float, ...] = tuple(float(p) for p in POP13)
# FLOATS[i] == float(i): a count turned into a float by lookup, not a call.
FLOATS: tuple[float, ...] = tuple(float(i) for i in range(53))
_PLAY = Phase.PLAY  # an enum member by class attribute costs a lookup per call


def random_card(mask: int, rnd: Callable[[], float]) -> int:
    """A uniformly random card of a non-empty ``mask``: the ``k``-th lowest
    with ``k = int(rnd() * count)``, found by a walk over the suits'
    popcounts and one ``RANKS_IN`` lookup (bots' rollouts call this in
    their inner loop)."""
    k = int(rnd() * FLOATS[mask.bit_count()])
    a = mask & 0x1FFF
    p = POP13[a]
    if k < p:
        return RANKS_IN[a][k]
    k -= p
    a = mask >> 13 & 0x1FFF
    p = POP13[a]
    if k < p:
        return 13 + RANKS_IN[a][k]
    k -= p
    a = mask >> 26 & 0x1FFF
    p = POP13[a]
    if k < p:
        return 26 + RANKS_IN[a][k]
    return 39 + RANKS_IN[mask >> 39][k - p]


def random_playout(hand: Hand, rng: random.Random) -> list[int]:
    """Play ``hand`` to its end at random; return each seat's points.

    Every play but the forced first lead draws one ``rng.random()`` and
    takes the ``int(x * count)``-th lowest legal card, so the playout makes
    the same moves as the checked path would with the same draws. Moon
    scoring follows the rules; where the shooter may choose, the playout
    takes "add" (others +26), the usual choice. ``hand`` must be in the PLAY
    phase and is left unchanged. Like any reachable position, its seats must
    hold ``hand_size - trick_index`` cards before playing to the current
    trick: the playout counts a seat's cards from that, not by popcount.
    """
    t = hand.rules.tables
    if not t.fast:
        return _general_playout(hand, rng)
    if hand.phase is not _PLAY:
        raise ValueError("random_playout needs a hand in the play phase")
    n = t.players
    size = t.hand_size
    followers = t.followers
    codes = t.play_codes
    allowed = t.first_trick_allowed
    ranks_in = RANKS_IN
    pop = POP13
    fpop = FPOP13
    rnd = rng.random
    n2 = n + n
    n3 = n2 + n
    hs = [0] * (4 * n)
    # each taken pile as the sum of its cards' codes (breaker bits left out:
    # only the moon part and the bonus count are read back). The moon cards
    # are hearts and Q♠, so only those two suits' penalties are looked up.
    pts = [0] * n
    hearts_penalty = t.suit_penalty[2]
    spades_penalty = t.suit_penalty[3]
    bonus = t.bonus
    taken = hand.taken
    for s, h in enumerate(hand.hands):
        hs[s] = h & 0x1FFF
        hs[n + s] = h >> 13 & 0x1FFF
        hs[n2 + s] = h >> 26 & 0x1FFF
        hs[n3 + s] = h >> 39
        m = taken[s]
        if m:
            p = hearts_penalty[m >> 26 & 0x1FFF] + spades_penalty[m >> 39]
            if bonus >= 0 and m >> bonus & 1:
                p += CODE_BONUS
            pts[s] = p
    broken = hand.broken
    ti = hand.trick_index
    # cards each seat holds before it plays to trick ti, as a float count
    left = FLOATS[size - ti]
    leader = hand.leader
    rest: tuple[int, ...] | None = None
    ls = lsn = br = winner = tc = 0
    lc = codes[0]
    if hand.trick:
        # finish the trick in progress before the loop deals with whole tricks
        first = hand.trick[0]
        ls = first // 13
        lsn = ls * n
        lc = codes[ls]
        br = first % 13
        winner = leader
        for i, c in enumerate(hand.trick):
            tc += codes[c // 13][c % 13]
            if c // 13 == ls and c % 13 > br:
                br = c % 13
                winner = (leader + i) % n
        rest = followers[leader][len(hand.trick) - 1 :]
    while True:
        if rest is None:
            # the lead
            if ti == 0:
                c = t.first_lead
                ls = c // 13
                r = c % 13
            else:
                hh = hs[n2 + leader]
                if broken or not (nh := left - fpop[hh]):
                    k = int(rnd() * left)
                    hh = -1  # hearts are as good as any suit
                else:
                    k = int(rnd() * nh)
                a = hs[leader]
                p = pop[a]
                if k < p:
                    ls = 0
                else:
                    k -= p
                    a = hs[n + leader]
                    p = pop[a]
                    if k < p:
                        ls = 1
                    else:
                        k -= p
                        if hh >= 0:  # no heart leads: skip the suit
                            ls = 3
                            a = hs[n3 + leader]
                        else:
                            a = hs[n2 + leader]
                            p = pop[a]
                            if k < p:
                                ls = 2
                            else:
                                k -= p
                                ls = 3
                                a = hs[n3 + leader]
                r = ranks_in[a][k]
            lsn = ls * n
            hs[lsn + leader] ^= 1 << r
            lc = codes[ls]
            tc = lc[r]
            br = r
            winner = leader
            rest = followers[leader]
        for s in rest:
            i = lsn + s
            f = hs[i]
            if f:
                r = ranks_in[f][int(rnd() * fpop[f])]
                hs[i] = f ^ 1 << r
                tc += lc[r]
                if r > br:
                    br = r
                    winner = s
                continue
            # void in the led suit: any card (a walk over the suits, the
            # led one being empty), but on the first trick none that is
            # banned while something else is held (rule 5)
            if ti == 0:
                d, r = _first_trick_discard(hs, s, n, allowed, left, rnd)
            else:
                k = int(rnd() * left)
                a = hs[s]
                p = pop[a]
                if k < p:
                    d = 0
                else:
                    k -= p
                    a = hs[n + s]
                    p = pop[a]
                    if k < p:
                        d = 1
                    else:
                        k -= p
                        a = hs[n2 + s]
                        p = pop[a]
                        if k < p:
                            d = 2
                        else:
                            k -= p
                            d = 3
                            a = hs[n3 + s]
                r = ranks_in[a][k]
            hs[d * n + s] ^= 1 << r
            tc += codes[d][r]
        pts[winner] += tc
        if tc >= CODE_BREAK:
            broken = True
        ti += 1
        if ti == size:
            break
        left -= 1.0
        leader = winner
        rest = None
    # points from the summed codes; the moon rules as in score_taken (a
    # seat whose positive points are all of them took every moon card; the
    # Omnibus jackpot needs the bonus card too)
    worth = t.moon_value if t.moon_cards else -1
    jackpot = t.moon == "jackpot"
    bonus_points = t.bonus_points
    out = [0] * n
    shooter = -1
    for s in range(n):
        p = pts[s]
        moon = p & 0xFF
        if moon == worth and (not jackpot or p >> 8 & 0xF):
            shooter = s
        out[s] = moon + bonus_points * (p >> 8 & 0xF)
    if shooter >= 0:
        return moon_scores(out, shooter, t, _playout_moon(hand.rules.moon))
    return out


def _playout_moon(mode: str) -> str:
    # where the shooter may choose, the playout takes "add", the usual choice
    return "add" if mode == "choice" else mode


def _general_playout(hand: Hand, rng: random.Random) -> list[int]:
    """The general path for the widow, domino and two-deck variants: play a
    copy to its end with uniformly random legal moves."""
    h = hand.copy()
    rnd = rng.random
    while True:
        phase = h.phase
        if phase is _PLAY:
            legal = cards_of(h.legal_mask())
            h.apply_unchecked(legal[int(rnd() * len(legal))])
        elif phase is Phase.WIDOW:
            seat = h.widow_seat if h.widow_seat is not None else 0
            k = len(h.dealt_stock)
            discard = random_pass_mask(h.hands[seat], k, rnd)
            h.discard_unchecked(discard)
        elif phase is Phase.MOON_CHOICE:
            h.moon_choice = "add"
            h._score()
        elif phase is Phase.DONE:
            assert h.scores is not None  # DONE sets the scores
            return list(h.scores)
        else:
            raise ValueError("random_playout needs a hand in the play phase")


def _first_trick_discard(
    hs: list[int],
    s: int,
    n: int,
    allowed: tuple[int, ...],
    left: float,
    rnd: Callable[[], float],
) -> tuple[int, int]:
    """Seat ``s``'s random discard on the first trick as ``(suit, rank)``:
    among the cards not banned there, or among all when it holds only
    banned ones."""
    masks = [hs[d * n + s] & allowed[d] for d in range(4)]
    cnt = POP13[masks[0]] + POP13[masks[1]] + POP13[masks[2]] + POP13[masks[3]]
    if cnt:
        k = int(rnd() * FLOATS[cnt])
    else:
        masks = [hs[d * n + s] for d in range(4)]
        k = int(rnd() * left)
    for d in range(3):
        p = POP13[masks[d]]
        if k < p:
            return d, RANKS_IN[masks[d]][k]
        k -= p
    return 3, RANKS_IN[masks[3]][k]


def score_taken(hand: Hand, taken: list[int]) -> list[int]:
    """Points per seat for complete taken piles, moon rules applied."""
    t = hand.rules.tables
    pts = [_pile_points(t, m) for m in taken]
    moon = t.moon_cards
    if not moon:
        return pts
    for s, m in enumerate(taken):
        if m & moon == moon:
            return moon_scores(pts, s, t, _playout_moon(hand.rules.moon))
    return pts


def _pile_points(t: RuleTables, m: int) -> int:
    sp0, sp1, sp2, sp3 = t.suit_penalty
    p = 0
    while m:  # a second deck's copies (bits 52-103) cost the same
        p += sp0[m & 0x1FFF] + sp1[m >> 13 & 0x1FFF] + sp2[m >> 26 & 0x1FFF] + sp3[m >> 39 & 0x1FFF]
        m >>= 52
    return p


def random_pass_mask(h: int, count: int, rnd: Callable[[], float]) -> int:
    """``count`` different cards of ``h`` chosen uniformly, as a mask: each
    the ``int(rnd() * held)``-th lowest of the cards not yet chosen (the
    draws ``random_pass`` makes). Works on the four suit masks so no pick
    shifts the 52-bit hand."""
    a0 = h & 0x1FFF
    a1 = h >> 13 & 0x1FFF
    a2 = h >> 26 & 0x1FFF
    a3 = h >> 39
    pop = POP13
    ranks_in = RANKS_IN
    held = pop[a0] + pop[a1] + pop[a2] + pop[a3]
    for _ in range(count):
        k = int(rnd() * FLOATS[held])
        held -= 1
        p = pop[a0]
        if k < p:
            a0 ^= 1 << ranks_in[a0][k]
            continue
        k -= p
        p = pop[a1]
        if k < p:
            a1 ^= 1 << ranks_in[a1][k]
            continue
        k -= p
        p = pop[a2]
        if k < p:
            a2 ^= 1 << ranks_in[a2][k]
        else:
            a3 ^= 1 << ranks_in[a3][k - p]
    return h ^ (a0 | a1 << 13 | a2 << 26 | a3 << 39)


def random_pass(hand: Hand, seat: int, rng: random.Random) -> list[int]:
    """A uniformly random legal pass for ``seat`` (used by benchmarks and Easy)."""
    h = hand.hands[seat]
    chosen: list[int] = []
    for _ in range(hand.rules.pass_count):
        c = random_card(h, rng.random)
        chosen.append(c)
        h ^= 1 << c
    return chosen


def random_hand(hand: Hand, rng: random.Random) -> list[int]:
    """Pass at random (when the hand passes) and play the hand out at random."""
    if hand.phase is Phase.PASS:
        rnd = rng.random
        k = hand.rules.pass_count
        hand.pass_all_unchecked([random_pass_mask(h, k, rnd) for h in hand.hands])
    return random_playout(hand, rng)
