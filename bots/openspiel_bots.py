"""OpenSpiel's bots playing from our views (the ``openspiel`` extra).

``OpenSpielBot`` is a ``bots.interface.Bot``: given a seat's ``SeatView`` it
builds an OpenSpiel ``hearts`` state the seat cannot tell from the real one
and asks an OpenSpiel bot for its action there. What it translates:

* **Seats.** OpenSpiel's players 0..3 play in the same order as our seats
  (its "Left" passes to player + 1, as ours), so our seat ``s`` is player
  ``(s - me) % 4``: the deciding seat is always player 0. That is also how
  the pass is handled: OpenSpiel passes one player after another, and its
  resampling of a player's information state fails once that player's
  passer has passed; as player 0 the seat passes first, while nobody has.
* **Cards.** Ours are ``suit * 13 + rank`` with suits C, D, H, S; OpenSpiel's
  are ``rank * 4 + suit`` with the same suit order.
* **Hidden cards.** What the view hides is drawn by our ``DealSampler``
  (uniform over the deals consistent with everything the seat knows); the
  other seats' unknown passes are drawn among the cards their receivers
  held; the state is then the chance deal, the passes and every play so
  far, applied through OpenSpiel's own checked actions. ISMCTS resamples
  the hidden cards itself from that state's information state.
* **Rules.** OpenSpiel plays one hand with the standard rules (moon: the
  others get 26). ``no_points`` / ``anything`` first tricks, whether Q♠
  breaks hearts and the J♦ bonus translate; a first trick that bans only
  Q♠, the T♦ bonus and other moon scorings do not (``UnsupportedRules``).
  Asked for a moon choice, it adds (OpenSpiel's own scoring).

OpenSpiel's ISMCTS is not reproducible from its seed (two searches of one
state with the same seed may differ: the first one in a process does), so
neither are arena runs that seat it; ``random`` is.

Bots: ``ismcts`` (``pyspiel.ISMCTSBot`` with random rollouts; ``sims``
simulations per move or ``seconds`` of wall time) and ``random`` (uniform
over the legal moves, a baseline). A pass is three
OpenSpiel moves; each gets a third of a ``seconds`` budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.cards import card, cards_of
from protocol.common import RulesModel
from protocol.view import SeatView

from .api import Decision, needs_decision
from .knowledge import knowledge_of
from .sampler import DealSampler

# OpenSpiel's pass-direction chance outcomes.
_DIRECTIONS = {"hold": 0, "left": 1, "across": 2, "right": 3}
_OFFSETS = {"hold": 0, "left": 1, "across": 2, "right": 3}
PLAYERS = 4
# Simulations of an ISMCTS move whose wall-clock budget ran out before it
# began one (see ``OpenSpielBot._act``).
MIN_SIMS = 50
KINDS = ("ismcts", "random")


class UnsupportedRules(ValueError):
    """Rules OpenSpiel's hearts does not play."""


def to_openspiel(c: int) -> int:
    """Our card int (``suit * 13 + rank``) as OpenSpiel's (``rank * 4 + suit``)."""
    return (c % 13) * 4 + c // 13


def from_openspiel(a: int) -> int:
    """OpenSpiel's card action as our card int."""
    return (a % 4) * 13 + a // 4


def game_parameters(rules: RulesModel) -> dict[str, bool]:
    """OpenSpiel ``hearts`` parameters for our rules (``UnsupportedRules``
    when it cannot play them)."""
    if rules.players != PLAYERS or rules.pass_count != 3:
        raise UnsupportedRules("OpenSpiel plays four players passing three cards")
    if rules.first_trick == "no_queen":
        raise UnsupportedRules("OpenSpiel's first trick bans all points or none, not Q♠ alone")
    if rules.bonus_card == "TD":
        raise UnsupportedRules("OpenSpiel has a J♦ bonus, not a T♦ one")
    if rules.moon == "subtract":
        raise UnsupportedRules("OpenSpiel's moon adds 26 to the others")
    return {
        "pass_cards": True,
        "no_pts_on_first_trick": rules.first_trick == "no_points",
        "qs_breaks_hearts": rules.queen_breaks_hearts,
        "jd_bonus": rules.bonus_card == "JD",
    }


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise ImportError(
            "OpenSpiel is not installed: pip install 'hearts-online[openspiel]'"
        ) from None
    return pyspiel


class StateBuilder:
    """OpenSpiel states for one seat's views, its hidden cards sampled."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def state(self, view: SeatView, rng: random.Random) -> Any:
        """A full OpenSpiel state consistent with ``view``, the seat as
        player 0, at the seat's decision (a pass not yet begun, or its turn
        to play)."""
        me = view.seat
        assert me is not None  # only a seat's view asks for a decision
        current = DealSampler(knowledge_of(view)).sample(rng)
        tricks = _tricks_of(view)
        played = _played_masks(tricks)
        final = [current[s] | played[s] for s in range(PLAYERS)]
        direction = view.pass_direction or "hold"
        d = _OFFSETS[direction]
        passes: list[int] = [0] * PLAYERS
        original = final[:]
        if d and view.phase != "pass":
            passes = _sampled_passes(view, me, d, final, rng)
            original = [final[s] & ~passes[(s - d) % PLAYERS] | passes[s] for s in range(PLAYERS)]
        state = self.game.new_initial_state()
        state.apply_action(_DIRECTIONS[direction])
        _apply_deal(state, original, me)
        if view.phase == "pass":
            return state
        if d:
            for p in range(PLAYERS):
                for c in sorted(cards_of(passes[(p + me) % PLAYERS])):
                    state.apply_action(to_openspiel(c))
        _apply_tricks(state, tricks, me)
        return state


def _tricks_of(view: SeatView) -> list[tuple[int, list[str]]]:
    """(leader, cards) of every trick of the hand so far, the open one last."""
    tricks = [(t.leader, [p.card for p in t.cards]) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0].seat, [p.card for p in view.trick]))
    return tricks


def _played_masks(tricks: list[tuple[int, list[str]]]) -> list[int]:
    """The cards each seat has played, as masks."""
    played = [0] * PLAYERS
    for leader, cards in tricks:
        for i, text in enumerate(cards):
            played[(leader + i) % PLAYERS] |= 1 << card(text)
    return played


def _sampled_passes(
    view: SeatView, me: int, d: int, final: list[int], rng: random.Random
) -> list[int]:
    """Each seat's pass: the seat's own and the one it received as the view
    says, the others three cards drawn from what their receivers hold."""
    passes = [0] * PLAYERS
    passes[me] = _mask(view.passed)
    passes[(me - d) % PLAYERS] = _mask(view.received)
    for s in range(PLAYERS):
        if s == me or (s + d) % PLAYERS == me:
            continue
        pool = list(cards_of(final[(s + d) % PLAYERS]))
        passes[s] = _mask_ints(rng.sample(pool, 3))
    return passes


def _apply_deal(state: Any, original: list[int], me: int) -> None:
    # OpenSpiel deals one card to each player in turn, the seat as player 0.
    hands = [sorted(cards_of(original[(p + me) % PLAYERS])) for p in range(PLAYERS)]
    for i in range(13):
        for p in range(PLAYERS):
            state.apply_action(to_openspiel(hands[p][i]))


def _apply_tricks(state: Any, tricks: list[tuple[int, list[str]]], me: int) -> None:
    for leader, cards in tricks:
        for i, text in enumerate(cards):
            expected = (leader + i - me) % PLAYERS
            if state.current_player() != expected:
                raise RuntimeError("OpenSpiel's turn order differs from the view's")
            state.apply_action(to_openspiel(card(text)))


def _mask(texts: tuple[str, ...]) -> int:
    return _mask_ints(card(t) for t in texts)


def _mask_ints(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class OpenSpielBot:
    """An OpenSpiel bot (``kind``) deciding from our views. ``sims``: ISMCTS
    simulations per move; ``seconds``: ISMCTS's wall time per
    decision instead (a pass's three moves share it)."""

    def __init__(
        self,
        kind: str = "ismcts",
        seed: int | None = None,
        sims: int = 1000,
        seconds: float | None = None,
        uct_c: float | None = None,
        rollouts: int = 1,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown OpenSpiel bot {kind!r} ({', '.join(KINDS)})")
        if sims < 1 or rollouts < 1 or (seconds is not None and seconds <= 0):
            raise ValueError("sims and rollouts must be at least 1, seconds positive")
        self.kind = kind
        self.sims = sims
        self.seconds = seconds
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.rng = random.Random(seed)
        self._pyspiel = _pyspiel()
        self._games: dict[RulesModel, Any] = {}

    def _game(self, rules: RulesModel) -> Any:
        game = self._games.get(rules)
        if game is None:
            game = self._pyspiel.load_game("hearts", game_parameters(rules))
            self._games[rules] = game
        return game

    def _bot(self, game: Any, share: float, sims: int | None = None) -> Any:
        ps = self._pyspiel
        seed = self.rng.randrange(2**31)
        if self.kind == "random":
            return ps.make_uniform_random_bot(0, seed)
        evaluator = ps.RandomRolloutEvaluator(self.rollouts, seed)
        uct_c = self.uct_c if self.uct_c is not None else game.max_utility() - game.min_utility()
        seconds = -1.0 if self.seconds is None or sims is not None else self.seconds * share
        if sims is None:
            sims = self.sims if self.seconds is None else 10**9
        return ps.ISMCTSBot(
            seed,
            evaluator,
            uct_c,
            sims,
            -1,
            ps.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            False,
            seconds,
        )

    def decide(self, view: SeatView) -> Decision:
        """The OpenSpiel bot's move in a state consistent with ``view``."""
        asked = needs_decision(view)
        if asked == "moon_choice":
            return Decision("moon_choice", moon="add")
        game = self._game(view.rules)
        state = StateBuilder(game).state(view, self.rng)
        if asked == "pass":
            chosen: list[int] = []
            for _ in range(view.rules.pass_count):
                action = self._act(game, state, 1 / view.rules.pass_count)
                state.apply_action(action)
                chosen.append(from_openspiel(action))
            return Decision.pass_cards(chosen)
        if state.current_player() != 0:
            raise RuntimeError("the rebuilt state is not at the seat's turn")
        return Decision.play(from_openspiel(self._act(game, state, 1.0)))

    def _act(self, game: Any, state: Any, share: float) -> int:
        try:
            action: int = self._bot(game, share).step(state)
        except self._pyspiel.SpielError:
            if self.seconds is None:
                raise
            # ISMCTS with a wall-clock budget fails when the time ran out
            # before its first simulation (a busy machine descheduled it):
            # then it searches a few simulations, whatever they take.
            action = self._bot(game, share, sims=MIN_SIMS).step(state)
        return action

    def __repr__(self) -> str:
        return f"OpenSpielBot({self.kind!r}, sims={self.sims}, seconds={self.seconds})"


def openspiel_factory(kind: str) -> Callable[..., OpenSpielBot]:
    """The factory of ``openspiel:KIND?sims=…&seconds=…`` specs: options
    arrive as text."""

    def make(seed: int | None = None, **options: str) -> OpenSpielBot:
        known = {"sims", "seconds", "uct_c", "rollouts"}
        unknown = set(options) - known
        if unknown:
            raise ValueError(f"unknown OpenSpiel option(s) {sorted(unknown)} ({sorted(known)})")
        return OpenSpielBot(
            kind,
            seed,
            sims=int(options.get("sims", 1000)),
            seconds=float(options["seconds"]) if "seconds" in options else None,
            uct_c=float(options["uct_c"]) if "uct_c" in options else None,
            rollouts=int(options.get("rollouts", 1)),
        )

    return make


__all__ = [
    "KINDS",
    "OpenSpielBot",
    "StateBuilder",
    "UnsupportedRules",
    "from_openspiel",
    "game_parameters",
    "openspiel_factory",
    "to_openspiel",
]
