"""The bot API: a decision is a function of one seat's view and a seeded RNG.

    decision = decide(view, "hard", random.Random(seed))

``view`` is the ``SeatView`` the server would send that seat (built by
``protocol.seat_view.seat_view``); bots never see anything else. The same view,
level, seed and budget always give the same decision (unless a search runs
into its time cap). A bot answers whatever the view asks of its seat:

* ``phase == "pass"`` and ``view.passed`` empty: choose
  ``rules.pass_count`` cards from ``view.hand``;
* ``phase == "play"`` and ``view.turn == view.seat``: choose one card of
  ``view.legal``;
* ``phase == "widow"`` and ``view.widow_seat == view.seat``: choose
  ``view.discard_count`` cards of ``view.hand`` to put face down on its
  taken pile (Easy: ``widow_discard``, a simple rule; Medium and Hard
  judge it, ``bots.widow``);
* ``phase == "moon_choice"`` and ``view.moon_shooter == view.seat``:
  "add" (others +26) or "subtract" (itself -26).

``needs_decision(view)`` says whether there is anything to decide.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from engine.cards import card, card_text, cards_of
from protocol.view import SeatView

from .budget import Budget
from .easy import easy_play
from .knowledge import Knowledge, knowledge_of
from .medium import medium_play, moon_play
from .moon import choose_moon, shooting
from .passing import careful_pass, casual_pass
from .passsearch import search_pass
from .search import search_play
from .widow import careful_discard, plain_tricks, search_discard

Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
DecisionKind = Literal["pass", "play", "discard", "moon_choice"]


@dataclass(frozen=True, slots=True)
class Decision:
    """What a bot chose. Exactly one of ``cards`` (a pass or a widow
    discard), ``card``, ``moon`` is meaningful, as ``kind`` says; cards are
    wire texts (``"QS"``)."""

    kind: DecisionKind
    cards: tuple[str, ...] = ()
    card: str | None = None
    moon: Literal["add", "subtract"] | None = None

    @classmethod
    def pass_cards(cls, cards: list[int]) -> Decision:
        """A pass of the given card ints."""
        return cls("pass", cards=tuple(card_text(c) for c in sorted(cards)))

    @classmethod
    def discard(cls, cards: list[int]) -> Decision:
        """A widow discard of the given card ints."""
        return cls("discard", cards=tuple(card_text(c) for c in sorted(cards)))

    @classmethod
    def play(cls, card: int) -> Decision:
        """A play of the given card int."""
        return cls("play", card=card_text(card))

    @classmethod
    def moon_choice(cls, choice: str) -> Decision:
        """The shooter's choice."""
        if choice == "add":
            return cls("moon_choice", moon="add")
        if choice == "subtract":
            return cls("moon_choice", moon="subtract")
        raise ValueError(f"unknown moon choice {choice!r}")


class NothingToDecide(ValueError):
    """The view asks nothing of its seat right now."""


def needs_decision(view: SeatView) -> DecisionKind | None:
    """What the view asks of its seat now, or None."""
    if view.seat is None:
        return None
    if view.phase == "pass" and not view.passed and view.legal:
        return "pass"
    if view.phase == "play" and view.turn == view.seat and view.legal:
        return "play"
    if view.phase == "widow" and view.widow_seat == view.seat and view.discard_count:
        return "discard"
    if view.phase == "moon_choice" and view.moon_shooter == view.seat:
        return "moon_choice"
    return None


def widow_discard(view: SeatView) -> list[int]:
    """Easy's discard as the widow's taker: the discard joins its own taken
    pile, so it puts down the highest cards that cost nothing (the ones
    likeliest to win a trick later), and only then the cheapest point
    cards. Medium and Hard judge theirs (``LevelPolicy.choose_discard``)."""
    penalty = view.rules.to_rules().tables.penalty
    hand = 0
    for c in view.hand:
        hand |= 1 << card(c)
    return simple_discard(hand, view.discard_count, penalty)


def simple_discard(hand: int, count: int, penalty: tuple[int, ...]) -> list[int]:
    """The ``count`` highest cards of ``hand`` that cost nothing, then the
    cheapest point cards (the second deck's copy ranks as its first)."""
    order = sorted(cards_of(hand), key=lambda c: (penalty[c] > 0, penalty[c], -(c % 13)))
    return order[:count]


class LevelPolicy(Protocol):
    """How one of our levels decides, on the view turned into ``Knowledge``:
    everything comes from the view and ``rng``. (The interface for any bot,
    ours included, is ``bots.interface.Bot``: ``decide(view)``.)"""

    level: Level

    def choose_pass(self, k: Knowledge, rng: random.Random) -> list[int]:
        """The cards to pass (``k.rules.pass_count`` of ``k.hand``)."""
        ...

    def choose_play(self, k: Knowledge, rng: random.Random) -> int:
        """The card to play (one of ``k.legal``)."""
        ...

    def choose_moon(self, k: Knowledge, rng: random.Random) -> str:
        """ "add" or "subtract" after shooting the moon."""
        ...

    def choose_discard(self, k: Knowledge, count: int, rng: random.Random) -> list[int]:
        """The widow's taker's ``count`` discards (cards of ``k.hand``)."""
        ...


def _hands_played(view: SeatView) -> int:
    return len(view.hands)


class EasyBot:
    """Casual play: simple, a little random, never suicidal."""

    level: Level = "easy"

    def choose_pass(self, k: Knowledge, rng: random.Random) -> list[int]:
        """Some of the highest cards."""
        return casual_pass(k.hand, k.rules.pass_count, rng)

    def choose_play(self, k: Knowledge, rng: random.Random) -> int:
        """See ``bots.easy``."""
        return easy_play(k, rng)

    def choose_moon(self, k: Knowledge, rng: random.Random) -> str:
        """Easy always adds 26 to the others: the simple, usual choice."""
        return "add"

    def choose_discard(self, k: Knowledge, count: int, rng: random.Random) -> list[int]:
        """The highest free cards (``widow_discard``'s rule)."""
        return simple_discard(k.hand, count, k.rules.penalty)


class MediumBot:
    """The habits of a careful player (``bots.medium``)."""

    level: Level = "medium"

    def __init__(self, hands_played: int = 0) -> None:
        self.hands_played = hands_played

    def choose_pass(self, k: Knowledge, rng: random.Random) -> list[int]:
        """The cards hardest to get rid of (by the variant's penalties)."""
        return careful_pass(k.hand, k.rules.pass_count, k.rules.penalty)

    def choose_play(self, k: Knowledge, rng: random.Random) -> int:
        """See ``bots.medium``."""
        return medium_play(k)

    def choose_moon(self, k: Knowledge, rng: random.Random) -> str:
        """The choice best for the game score."""
        return choose_moon(k, self.hands_played)

    def choose_discard(self, k: Knowledge, count: int, rng: random.Random) -> list[int]:
        """The cards a careful player is gladdest to be rid of
        (``bots.widow.careful_discard``)."""
        return careful_discard(k.hand, count, k.rules.penalty)


class HardBot:
    """Sampling search over the hidden cards (``bots.search``)."""

    level: Level = "hard"

    def __init__(self, budget: Budget | None = None, hands_played: int = 0) -> None:
        self.budget = budget or Budget()
        self.hands_played = hands_played

    def choose_pass(self, k: Knowledge, rng: random.Random) -> list[int]:
        """The sensible pass that plays out best (``bots.passsearch``; with a
        widow, played out as a ``VariantHand``, the widow's step included);
        in the other variants with extra steps Medium's careful pass."""
        return search_pass(k, rng, self.budget)

    def choose_play(self, k: Knowledge, rng: random.Random) -> int:
        """The card best on average over sampled deals; a hand that can win
        every trick that matters plays for the moon instead."""
        # The moon plan reads the standard deck's points (hearts and Q♠).
        if k.rules.moon_cards and k.rules.variant == "standard" and shooting(k):
            return moon_play(k)
        # Past the widow's step the hand is plain tricks: the fast rollout.
        plain = plain_tricks(k)
        return search_play(plain or k, rng, self.budget, self.hands_played)

    def choose_moon(self, k: Knowledge, rng: random.Random) -> str:
        """The choice best for the game score."""
        return choose_moon(k, self.hands_played)

    def choose_discard(self, k: Knowledge, count: int, rng: random.Random) -> list[int]:
        """The sensible discard that plays out best (``bots.widow``)."""
        return search_discard(k, count, rng, self.budget, self.hands_played)


def make_bot(level: str, budget: Budget | None = None, hands_played: int = 0) -> LevelPolicy:
    """The bot of a level name ("easy", "medium", "hard")."""
    if level == "easy":
        return EasyBot()
    if level == "medium":
        return MediumBot(hands_played)
    if level == "hard":
        return HardBot(budget, hands_played)
    raise ValueError(f"unknown bot level {level!r}")


def decide(
    view: SeatView, level: str, rng: random.Random, budget: Budget | None = None
) -> Decision:
    """The decision of bot ``level`` for the seat of ``view``.

    Raises ``NothingToDecide`` when the view asks nothing of its seat and
    ``ValueError`` for an unknown level.
    """
    kind = needs_decision(view)
    if kind is None:
        raise NothingToDecide("the view asks nothing of this seat now")
    bot = make_bot(level, budget, _hands_played(view))
    k = knowledge_of(view)
    if kind == "discard":
        return _discard(bot, k, view.discard_count, rng)
    if kind == "pass":
        return _pass(bot, k, rng)
    if kind == "play":
        return _play(bot, k, rng)
    return Decision.moon_choice(bot.choose_moon(k, rng))


def _discard(bot: LevelPolicy, k: Knowledge, count: int, rng: random.Random) -> Decision:
    """The bot's widow discard, checked: ``count`` different cards of the
    hand (``RuntimeError`` otherwise: a bug of ours)."""
    chosen = bot.choose_discard(k, count, rng)
    if len(set(chosen)) != count or any(not k.hand >> c & 1 for c in chosen):
        raise RuntimeError(f"{bot.level} bot chose an impossible discard")
    return Decision.discard(chosen)


def _pass(bot: LevelPolicy, k: Knowledge, rng: random.Random) -> Decision:
    """The bot's pass, checked: the rules' count of cards of the hand."""
    chosen = bot.choose_pass(k, rng)
    if len(chosen) != k.rules.pass_count or any(not k.hand >> c & 1 for c in chosen):
        raise RuntimeError(f"{bot.level} bot chose an impossible pass")
    return Decision.pass_cards(chosen)


def _play(bot: LevelPolicy, k: Knowledge, rng: random.Random) -> Decision:
    """The bot's card, checked: a legal one."""
    c = bot.choose_play(k, rng)
    if not k.legal >> c & 1:
        raise RuntimeError(f"{bot.level} bot chose an illegal card {card_text(c)}")
    return Decision.play(c)


@dataclass(frozen=True, slots=True)
class Move:
    """A decision in the shape the server and the CLI autoplay read:
    ``kind`` is "pass", "play", "discard" or "moon"; ``cards`` (pass and
    discard), ``card`` or ``choice``."""

    kind: Literal["pass", "play", "discard", "moon"]
    cards: tuple[str, ...] = ()
    card: str = ""
    choice: str = ""


def decide_move(
    view: SeatView, level: str, rng: random.Random, budget_ms: int | None = None
) -> Any:
    """``decide`` for callers that speak in moves and milliseconds.

    ``budget_ms`` caps Hard's thinking time (its iteration budget stays the
    default). Returns a ``Move``; typed ``Any`` so a caller may read it as
    its own structurally identical move type (``server.bot_runner.BotMove``).
    """
    budget = None
    if budget_ms is not None:
        budget = Budget(max_seconds=max(budget_ms, 1) / 1000.0, started=time.perf_counter())
    d = decide(view, level, rng, budget)
    if d.kind == "pass":
        return Move("pass", cards=d.cards)
    if d.kind == "play":
        return Move("play", card=d.card or "")
    if d.kind == "discard":
        return Move("discard", cards=d.cards)
    return Move("moon", choice=d.moon or "")


__all__ = [
    "LEVELS",
    "Budget",
    "Decision",
    "EasyBot",
    "HardBot",
    "Level",
    "LevelPolicy",
    "MediumBot",
    "Move",
    "NothingToDecide",
    "decide",
    "decide_move",
    "make_bot",
    "needs_decision",
    "simple_discard",
    "widow_discard",
]
