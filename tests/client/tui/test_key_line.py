"""The key line shows the keys that work now, and what is due and how to
leave always fit 80 columns, in every language."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from client.tui.i18n import LANGUAGES, Translator
from client.tui.key_line import Segment, fit_keys, segment_text, table_keys
from client.tui.model import TableModel
from client.tui.screens.table_list import LIST_KEYS
from protocol.view import Knocker, SeatInfo, SeatView

from .test_units import seats, view


def knocker() -> Knocker:
    return Knocker(player_id="p", name="Ann")


def states() -> dict[str, tuple[TableModel, bool]]:
    """A model in each state the table screen can be in (and the chat)."""
    ready = tuple(
        SeatInfo.model_validate({**s.model_dump(), "ready": True}) if s.seat == 0 else s
        for s in seats()
    )
    views: dict[str, SeatView | None] = {
        "connecting": None,
        "lobby_host": view(status="waiting", phase=None, turn=None, knocks=(knocker(),)),
        "lobby_guest": view(status="waiting", phase=None, turn=None, seat=1),
        "pass": view(phase="pass", turn=None, hand=("2C", "3C", "4C")),
        "play": view(hand=("2C",), legal=("2C",)),
        "others_turn": view(turn=1, hand=("2C",)),
        "hand_over": view(status="between_hands", phase=None, turn=None),
        "ready": view(status="between_hands", phase=None, turn=None, seats=ready),
        "over_host": view(status="game_over", phase=None, turn=None, winner=0),
        "over_guest": view(status="game_over", phase=None, turn=None, seat=2, winner=0),
        "watch": view(seat=None),
    }
    out = {name: (TableModel(view=v), False) for name, v in views.items()}
    out["chat"] = (TableModel(view=views["play"]), True)
    return out


DUE = {
    "lobby_host": ("key.seats", "key.start", "key.knock"),
    "pass": ("key.cards_pick", "key.pass"),
    "play": ("key.cards_play",),
    "hand_over": ("key.next",),
    "over_host": ("key.rematch",),
    "chat": ("key.send", "key.back"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_state_shows_what_is_due_and_how_to_quit_in_80_columns(language: str) -> None:
    t = Translator(language)  # type: ignore[arg-type]
    lines = {}
    for name, (model, chatting) in states().items():
        segments = table_keys(model, chatting)
        line = fit_keys(t, segments, 80)
        lines[name] = line
        assert cell_len(line) <= 80, (name, line)
        said = {segment.key: segment_text(t, segment) for segment in segments}
        for segment in segments:
            if not segment.optional:
                assert said[segment.key] in line, (name, segment.key, line)
        assert t("key.quit") in line, name  # Ctrl+Q on every screen
        for key in DUE.get(name, ()):
            assert said[key] in line, (name, key)
    # The line changes with the screen: what works while passing is not what
    # works while watching or chatting.
    assert len(set(lines.values())) >= 9
    assert (
        t("key.cards_pick", keys="a–m") not in lines["watch"] + lines["others_turn"] + lines["chat"]
    )
    assert t("key.rematch") not in lines["over_guest"]
    assert t("key.start") not in lines["lobby_guest"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_public_tables_keys_fit_and_offer_bots(language: str) -> None:
    t = Translator(language)  # type: ignore[arg-type]
    line = fit_keys(t, LIST_KEYS, 80)
    assert cell_len(line) <= 80
    assert t("list.key_bots") in line and t("key.quit") in line


def test_optional_keys_go_last_first_when_the_line_is_narrow() -> None:
    t = Translator("en")
    segments = [
        Segment("key.side", optional=True),
        Segment("key.rules", optional=True),
        Segment("key.quit"),
    ]
    assert fit_keys(t, segments, 80) == "t tricks/score · F2 rules · Ctrl+Q quit"
    assert fit_keys(t, segments, 30) == "t tricks/score · Ctrl+Q quit"
    assert fit_keys(t, segments, 5) == "Ctrl+Q quit"  # the required ones stay, even too wide


def test_the_card_keys_name_the_letters_in_use_capitals_past_13_cards() -> None:
    """A 17-card hand (three seats) has capital letters under its last
    cards: the key line names them too; a card played takes its letter off."""
    from client.tui.cards import RANKS
    from client.tui.key_line import card_keys
    from client.tui.model import hand_letters

    hand = (*(r + "C" for r in RANKS), "2D", "3D", "4D", "5D")
    three = tuple(s for s in seats() if s.seat < 3)
    model = TableModel(view=view(seats=three, hand=hand, legal=hand))
    model.keys = hand_letters(model.view)  # type: ignore[arg-type]
    assert card_keys(model) == "a–m A–E"
    t = Translator("en")
    line = fit_keys(t, table_keys(model, False), 80)
    assert line.startswith("a–m A–E play"), line
    passing = TableModel(view=view(seats=three, hand=hand, phase="pass", turn=None))
    passing.keys = hand_letters(passing.view)  # type: ignore[arg-type]
    assert fit_keys(t, table_keys(passing, False), 80).startswith("a–m A–E pick")
    four = TableModel(view=view(hand=hand[:13], legal=hand[:13]))
    four.keys = hand_letters(four.view)  # type: ignore[arg-type]
    assert card_keys(four) == "a–m"
