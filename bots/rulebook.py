"""The few rule facts bots need, read from the view's rules in microseconds.

``engine.rules.Rules`` precomputes lookup tables worth ~25 ms per object,
which would dominate an Easy or Medium decision if a bot rebuilt it from every
view. ``Rulebook`` holds just what the bots read (the same names and values
as ``engine.rules.RuleTables``; a test checks they agree for every option)
and is built straight from ``protocol.common.RulesModel`` for the standard
four-seat game. Its hand points are computed with popcounts there; every
other table (3-10 seats, the variants of docs/rules.md "Variants") takes the
engine's tables: per-card penalties, per-suit penalty lookups (both copies
of a card cost the same with two decks) and the variant's moon scoring.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import FULL_DECK, HEARTS_MASK, QUEEN_SPADES, card
from engine.rules import Rules
from protocol.common import RulesModel

QS_BIT = 1 << QUEEN_SPADES


@dataclass(frozen=True, slots=True)
class Rulebook:
    """Rule facts for bots; field names follow ``engine.rules.RuleTables``."""

    players: int
    hand_size: int
    deck: int
    first_lead: int
    first_trick_banned: int
    breakers: int
    moon_cards: int
    moon_points: int
    point_cards: int
    bonus: int
    bonus_points: int
    pass_count: int
    moon: str
    end: str
    end_at: int
    variant: str = "standard"
    # 1, or 2 (card c + 52 is the second copy of card c)
    decks: int = 1
    # cards dealt face down: widow, domino stock, cancellation rest
    stock_size: int = 0
    # "trim", "widow", "domino" or "rest" (engine.variants.Variant.deal)
    deal_kind: str = "trim"
    # what a moon is worth to the others (26; Spot 104, Black Maria 43, ...)
    moon_value: int = 26
    # penalty of a 13-bit suit mask, per suit (engine.rules.RuleTables);
    # empty for the standard game, whose points are popcounts
    suit_penalty: tuple[tuple[int, ...], ...] = ()
    # each card's penalty (card ints of both decks); empty for the standard game
    penalty: tuple[int, ...] = ()
    # the engine's rules, kept for the variants whose rollouts play a
    # ``VariantHand`` (``bots.variant_rollout``); None for the standard game
    engine: Rules | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_model(cls, model: RulesModel) -> Rulebook:
        """The rule facts of a view's rules (fast for the 4-player deck)."""
        if model.players != 4 or model.variant != "standard":
            return cls.from_rules(model.to_rules())
        bonus = card(model.bonus_card) if model.bonus_card else -1
        moon_cards = HEARTS_MASK | QS_BIT
        if model.first_trick == "no_points":
            banned = moon_cards
        elif model.first_trick == "no_queen":
            banned = QS_BIT
        else:
            banned = 0
        return cls(
            players=4,
            hand_size=13,
            deck=FULL_DECK,
            first_lead=0,
            first_trick_banned=banned,
            breakers=HEARTS_MASK | (QS_BIT if model.queen_breaks_hearts else 0),
            moon_cards=moon_cards,
            moon_points=26,
            point_cards=moon_cards | (1 << bonus if bonus >= 0 else 0),
            bonus=bonus,
            bonus_points=-10 if bonus >= 0 else 0,
            pass_count=model.pass_count,
            moon=model.moon,
            end=model.end,
            end_at=model.end_at,
        )

    @classmethod
    def from_rules(cls, rules: Rules) -> Rulebook:
        """The rule facts of engine rules (any number of players)."""
        t = rules.tables
        standard = t.variant == "standard"
        return cls(
            players=t.players,
            hand_size=t.hand_size,
            deck=t.deck,
            first_lead=t.first_lead,
            first_trick_banned=t.first_trick_banned,
            breakers=t.breakers,
            moon_cards=t.moon_cards,
            moon_points=t.moon_points,
            point_cards=t.point_cards,
            bonus=t.bonus,
            bonus_points=t.bonus_points,
            pass_count=rules.pass_count,
            moon=rules.moon,
            end=rules.end,
            end_at=rules.end_at,
            variant=t.variant,
            decks=t.decks,
            stock_size=t.stock_size,
            deal_kind=t.deal_kind,
            moon_value=t.moon_value,
            suit_penalty=() if standard else t.suit_penalty,
            penalty=() if standard else t.penalty,
            engine=None if t.fast else rules,
        )

    @property
    def extra_steps(self) -> bool:
        """Whether a hand of these rules has steps beyond tricks of every
        seat (a widow, a domino stock, two decks): then the rollouts play a
        ``VariantHand`` (``bots.variant_rollout``)."""
        return self.engine is not None

    @property
    def deck_limit(self) -> int:
        """Every card int of these rules is below this (52 or 104)."""
        return 52 * self.decks

    def pile_points(self, pile: int) -> int:
        """Raw points of a set of taken cards (no moon rule)."""
        sp = self.suit_penalty
        if sp:
            p = 0
            while pile:
                p += (
                    sp[0][pile & 0x1FFF]
                    + sp[1][pile >> 13 & 0x1FFF]
                    + sp[2][pile >> 26 & 0x1FFF]
                    + sp[3][pile >> 39 & 0x1FFF]
                )
                pile >>= 52  # the second deck's copies cost the same
            return p
        pts = (pile & HEARTS_MASK).bit_count()
        if pile & QS_BIT:
            pts += 13
        if self.bonus >= 0 and pile >> self.bonus & 1:
            pts += self.bonus_points
        return pts

    def hand_points(self, taken: list[int], moon: str | None = None) -> list[int]:
        """Each seat's points for complete taken piles, the moon applied.

        ``moon`` is how a moon scores ("add": others get the moon's value,
        "subtract": the shooter loses it, "jackpot" like subtract, "transfer":
        each other seat pays it to the shooter); by default the table's
        option, with "choice" read as "add" (the engine's playout does the
        same). The arithmetic is ``engine.rules.moon_scores``'s (a test
        checks they agree for every variant).
        """
        pts = [self.pile_points(m) for m in taken]
        need = self.moon_cards
        if not need:
            return pts
        for s, m in enumerate(taken):
            if m & need == need:
                how = moon or self.moon
                pts[s] -= self.moon_points
                value = self.moon_value
                if how in ("subtract", "jackpot"):
                    pts[s] -= value
                    return pts
                for o in range(len(pts)):
                    if o != s:
                        pts[o] += value
                if how == "transfer":
                    pts[s] -= value * (len(pts) - 1)
                break
        return pts
