"""The few rule facts bots need, read from the view's rules in microseconds.

``engine.rules.Rules`` precomputes lookup tables worth ~25 ms per object,
which would dominate an Easy or Medium decision if a bot rebuilt it from every
view. ``Rulebook`` holds just what the bots read (the same names and values
as ``engine.rules.RuleTables``; a test checks they agree for every option)
and is built straight from ``protocol.common.RulesModel``. Hand points are
computed with popcounts instead of the engine's per-suit tables.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        )

    def pile_points(self, pile: int) -> int:
        """Raw points of a set of taken cards (no moon rule)."""
        pts = (pile & HEARTS_MASK).bit_count()
        if pile & QS_BIT:
            pts += 13
        if self.bonus >= 0 and pile >> self.bonus & 1:
            pts += self.bonus_points
        return pts

    def hand_points(self, taken: list[int], moon: str | None = None) -> list[int]:
        """Each seat's points for complete taken piles, the moon applied.

        ``moon`` is how a moon scores ("add": others +26, "subtract": the
        shooter -26); by default the table's option, with "choice" read as
        "add" (the engine's playout does the same).
        """
        pts = [self.pile_points(m) for m in taken]
        need = self.moon_cards
        for s, m in enumerate(taken):
            if m & need == need:
                worth = self.moon_points
                how = moon or self.moon
                if how == "subtract":
                    pts[s] -= 2 * worth
                else:
                    pts = [p + worth for p in pts]
                    pts[s] -= 2 * worth
                break
        return pts
