"""The moon's figures as the table plays them (docs/rules.md, "Moon
scoring, in general"): its value (26; Spot Hearts 104, Black Maria 43,
Cancellation Hearts 52), what the shooter took, and each sentence that
says how a moon scores, for the host form, the lobby, the moon choice, the
rules page, a bot's report and the end of a hand."""

from __future__ import annotations

from engine.variants import VARIANTS
from protocol.common import RulesModel
from protocol.view import HandResult

from .i18n import Msg, Term

STANDARD_VALUE = 26


def moon_value(variant: str, players: int | None = None) -> int:
    """What a moon is worth in ``variant`` (at ``players`` seats, else the
    variant's usual count): the deck's penalties, as the engine counts them."""
    v = VARIANTS.get(variant)
    if v is None:
        return STANDARD_VALUE
    count = players if players in v.players else v.default_players
    try:
        rules = RulesModel(variant=variant, players=count).to_rules()  # type: ignore[arg-type]
    except ValueError:  # RulesError, or a count the model refuses
        return STANDARD_VALUE
    return rules.tables.moon_value


def table_moon_value(rules: RulesModel) -> int:
    """The moon's value at a table with ``rules``."""
    return moon_value(rules.variant, rules.players)


def moon_cards(rules: RulesModel) -> Term:
    """What a shooter took, as the moon-choice dialog says it ("every heart
    and Q♠"; Spot Hearts every heart; Black Maria Q♠, K♠ and A♠ too;
    Cancellation Hearts both Q♠)."""
    kind = rules.variant if rules.variant in ("spot", "black_maria", "cancellation") else "standard"
    return Term("moon.cards_" + kind)


def option_params(rules: RulesModel | None, mode: str) -> dict[str, object]:
    """The figures of a moon option's sentence (``host.moon_…``,
    ``lobby.moon_…``, ``rules.opt.moon.…``): the moon's value, and for a
    transfer what the shooter gains from everyone."""
    value = table_moon_value(rules) if rules is not None else STANDARD_VALUE
    players = rules.players if rules is not None else 4
    params: dict[str, object] = {"n": value}
    if mode == "transfer":
        params["total"] = value * (players - 1)
    return params


def hand_moon(rules: RulesModel, result: HandResult, name: object) -> Msg | None:
    """The end of a hand in which a moon was shot: who shot it and how it
    scored ("☾ West shot the moon: everyone else +26"), None when none was."""
    shooter = result.shooter
    if shooter is None:
        return None
    value = table_moon_value(rules)
    mode = result.moon_choice or rules.moon
    if mode == "choice":  # an older result without the choice: its points tell
        mode = "subtract" if result.points[shooter] < 0 else "add"
    params: dict[str, object] = {"name": name, "n": value}
    if mode == "transfer":
        params["total"] = value * (len(result.points) - 1)
    return Msg("trick.moon_" + mode, params)
