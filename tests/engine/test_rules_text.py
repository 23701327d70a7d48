"""``engine.rules_text.parse_rules``: the ``--rules`` spelling of every command."""

from __future__ import annotations

import pytest

from engine.rules import Rules, RulesError
from engine.rules_text import RULES_KEYS, parse_rules


@pytest.mark.parametrize("text", [None, "", "   "])
def test_nothing_given_is_the_standard_game(text: str | None) -> None:
    assert parse_rules(text) == Rules()


def test_key_values_take_numbers_booleans_names_and_null() -> None:
    rules = parse_rules(
        " moon=choice, end=hands ,end_at=7,queen_breaks_hearts=true,bonus_card=null"
    )
    assert rules == Rules(moon="choice", end="hands", end_at=7, queen_breaks_hearts=True)


def test_a_variant_takes_its_own_defaults_and_the_seat_count() -> None:
    rules = parse_rules("variant=widow,players=5")
    assert (rules.variant, rules.players) == ("widow", 5)
    assert rules == Rules.from_json({"variant": "widow", "players": 5})


def test_pass_cycle_is_directions_joined_by_plus_or_a_named_cycle() -> None:
    assert parse_rules("pass_cycle=left+right+hold").pass_cycle == ("left", "right", "hold")
    assert parse_rules("pass_cycle=none").pass_cycle == ("hold",)


def test_json_and_key_values_spell_the_same_rules() -> None:
    assert parse_rules('{"variant": "spot", "players": 5, "pass_cycle": ["left"]}') == (
        parse_rules("variant=spot,players=5,pass_cycle=left")
    )


def test_every_rules_field_is_a_key() -> None:
    assert set(RULES_KEYS) == set(Rules().to_json()) | {"variant"}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("colour=red", "unknown rules key 'colour' (known: players, "),
        ('{"colour": "red"}', "unknown rules key 'colour'"),
        ("moon", "'moon' is not key=value"),
        ("moon=", "'moon=' is not key=value"),
        ("=choice", "'=choice' is not key=value"),
        ("moon=choice,,end=hands", "'' is not key=value"),
        ("moon=choice,moon=add", "rules key 'moon' is given twice"),
        ('{"moon": ', "rules are not valid JSON: Expecting value at character 9"),
        ('{"moon"}', "rules are not valid JSON"),
        ("players=four", "players must be an integer"),
        ('{"players": 4.5}', "players must be an integer"),
        ("end_at=0", "end_at must be a positive number"),
        ("moon=banana", "moon must be add, subtract or choice"),
        ("queen_breaks_hearts=yes", "queen_breaks_hearts must be true or false"),
        ("pass_cycle=left+up", "pass_cycle must list left, right, across or hold"),
        ("bonus_card=QS", "bonus_card must be JD, TD or null"),
        ("variant=nope", "variant must be one of standard, "),
        ("players=11", "players must be between 3 and 10"),
        ("players=5,pass_cycle=across", "passing across needs an even number of players"),
        ("variant=black_maria,players=4", "Black Maria is played by"),
        ("variant=greek,pass_cycle=left", "Greek Hearts passes 3 cards to the right"),
        ("variant=omnibus,bonus_card=null", "needs a bonus card"),
    ],
)
def test_what_the_engine_refuses_is_one_rules_error_saying_why(text: str, says: str) -> None:
    with pytest.raises(RulesError) as refused:
        parse_rules(text)
    assert says in str(refused.value)
