"""``client.rules_option.table_rules``: ``--rules`` of play/host as a table's
wire rules, every refusal one ``RulesError`` sentence."""

from __future__ import annotations

import pytest

from client.rules_option import table_rules
from engine.rules import RulesError
from protocol.common import RulesModel


def test_no_rules_are_the_default_table() -> None:
    assert table_rules(None) == RulesModel()


def test_the_rules_given_reach_the_wire_model() -> None:
    model = table_rules("variant=widow,players=5,end=hands,end_at=3")
    assert (model.variant, model.players, model.end, model.end_at) == ("widow", 5, "hands", 3)


def test_what_the_engine_refuses_is_refused_before_the_wire() -> None:
    with pytest.raises(RulesError, match="Black Maria is played by"):
        table_rules("variant=black_maria,players=6")


def test_a_value_over_the_wire_limit_is_one_sentence_naming_the_field() -> None:
    with pytest.raises(RulesError) as refused:
        table_rules("end_at=5000")
    assert str(refused.value) == "end_at: Input should be less than or equal to 1000"
