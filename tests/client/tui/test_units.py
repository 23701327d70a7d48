"""The client's pure parts: translations, refusals, hand layout, model."""

from __future__ import annotations

import re
import string

import pytest

from client.tui.explain import pass_refusal, play_refusal
from client.tui.i18n import CATALOGS, LANGUAGES, Msg, Term, Translator, language_from_env
from client.tui.launch import join_url, parse_seats
from client.tui.model import TableModel
from client.tui.widgets.hand import hand_layout
from protocol import server_messages as sm
from protocol.common import RulesModel
from protocol.view import PlayedCard, SeatInfo, SeatView, TrickRecord


def fields(template: str) -> set[str]:
    """The placeholders of a template."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_language_has_every_key_with_the_same_placeholders() -> None:
    english = CATALOGS["en"]
    for language in LANGUAGES:
        catalog = CATALOGS[language]
        assert set(catalog) == set(english), language
        for key, template in catalog.items():
            if key.startswith("error."):  # may leave out the server's English sentence
                assert fields(template) <= fields(english[key]), (language, key)
            else:
                assert fields(template) == fields(english[key]), (language, key)


def test_translations_are_not_left_in_english() -> None:
    for language in ("uk", "ru"):
        same = [
            key
            for key, text in CATALOGS[language].items()
            if text == CATALOGS["en"][key] and re.search(r"[a-z]{4}", re.sub(r"{\w+}", "", text))
        ]
        assert same == [], (language, same)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"LANG": "uk_UA.UTF-8"}, "uk"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LC_ALL": "ru_UA.UTF-8", "LANG": "uk_UA.UTF-8"}, "ru"),
        ({"LANGUAGE": "uk:en", "LANG": "en_US.UTF-8"}, "uk"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_language_comes_from_the_locale(env: dict[str, str], expected: str) -> None:
    assert language_from_env(env) == expected


def test_terms_inside_sentences_are_translated() -> None:
    t = Translator("uk")
    assert t.text(Msg("why.must_follow", {"suit": Term("suits.D")})) == (
        "Треба ходити в масть: у вас є бубни."
    )
    t.language = "ru"
    assert t.text(Msg("trick.pass", {"dir": Term("dir.across")})) == "Передача напротив"


def test_unknown_server_errors_show_the_servers_sentence() -> None:
    t = Translator("uk")
    assert t.text(Msg("error.something_new", {"message": "odd thing"})) == "odd thing"


def seats(turn: int | None = None) -> tuple[SeatInfo, ...]:
    return tuple(
        SeatInfo(seat=i, kind="human" if i == 0 else "bot", name=f"P{i}", cards_left=13)
        for i in range(4)
    )


def view(**kw: object) -> SeatView:
    base: dict[str, object] = {
        "table_id": "t",
        "code": "ABCDEF",
        "name": "test",
        "public": False,
        "rules": RulesModel(),
        "seq": 1,
        "seat": 0,
        "host_seat": 0,
        "seats": seats(),
        "status": "playing",
        "hand_number": 1,
        "phase": "play",
        "turn": 0,
    }
    base.update(kw)
    return SeatView.model_validate(base)


def test_refusal_reasons_follow_the_engine_order() -> None:
    hand = ("2C", "5C", "3H", "QS", "4D")
    first = view(hand=hand, legal=("2C",))
    assert play_refusal(first, "5C") == Msg("why.must_lead_first", {"card": "2♣"})
    follow = view(
        hand=hand,
        legal=("2C", "5C"),
        trick=(PlayedCard(seat=3, card="9C"),),
        tricks=(TrickRecord(leader=0, cards=(PlayedCard(seat=0, card="3C"),), winner=1, points=0),),
    )
    assert play_refusal(follow, "4D") == Msg("why.must_follow", {"suit": Term("suits.C")})
    assert play_refusal(follow, "5C") is None
    lead = view(hand=hand, legal=("2C", "5C", "QS", "4D"), tricks=follow.tricks)
    assert play_refusal(lead, "3H") == Msg("why.hearts_not_broken")
    void = view(
        hand=("3H", "QS", "4D"),
        legal=("4D",),
        trick=(PlayedCard(seat=3, card="2C"),),
    )
    assert play_refusal(void, "QS") == Msg("why.first_trick_points")
    queen_only = view(
        hand=("3H", "QS", "4D"),
        legal=("3H", "4D"),
        trick=(PlayedCard(seat=3, card="2C"),),
        rules=RulesModel(first_trick="no_queen"),
    )
    assert play_refusal(queen_only, "QS") == Msg("why.first_trick_queen")
    others = view(hand=hand, legal=(), turn=2)
    assert play_refusal(others, "2C", "North") == Msg("why.not_your_turn", {"name": "North"})


def test_pass_refusals() -> None:
    passing = view(phase="pass", turn=None, hand=("2C", "3C", "4C", "5C"), legal=("2C",))
    assert pass_refusal(passing, 2) == Msg("why.pick_count", {"k": 3, "n": 2})
    assert pass_refusal(passing, 3) is None
    assert pass_refusal(view(phase="pass", passed=("2C", "3C", "4C")), 3) == Msg("why.no_pass_now")


def test_picking_three_cards_and_putting_one_back() -> None:
    model = TableModel()
    for card in ("2C", "3C", "4C"):
        assert model.toggle_pick(card, 3) is None
    assert model.toggle_pick("5C", 3) == Msg("why.pick_full", {"k": 3})
    assert model.toggle_pick("3C", 3) is None
    assert model.selected == ["2C", "4C"]


def test_a_finished_trick_stays_past_the_next_snapshot_until_released() -> None:
    model = TableModel()
    model.apply(sm.Snapshot(seq=1, view=view(hand=("2C",), legal=("2C",))))
    model.apply(sm.CardPlayed(seq=2, seat=0, card="2C", trick=0))
    model.apply(
        sm.TrickWon(seq=3, trick=0, leader=0, winner=2, cards=("2C", "3C", "KC", "4C"), points=0)
    )
    assert model.lingering() and model.trick_winner == 2
    assert [p.seat for p in model.trick] == [0, 1, 2, 3]
    model.apply(sm.Snapshot(seq=3, view=view(turn=2)))
    assert model.lingering() and model.view is not None and model.view.turn == 2
    model.release()
    assert not model.lingering() and model.trick == ()


def test_hand_layout_fits_80_columns_with_gaps_between_suits() -> None:
    cards = ["2C", "5C", "9C", "3D", "TD", "4H", "6H", "QH", "AH", "2S", "QS", "KS", "AS"]
    slots = hand_layout(cards, 80)
    assert slots[0].x >= 0 and slots[-1].x + 4 <= 80
    assert [s.key for s in slots] == list("abcdefghijklm")
    assert slots[3].x - slots[2].x == 6  # a new suit: two columns between cards
    assert slots[2].x - slots[1].x == 5


def test_join_link_and_seat_levels() -> None:
    assert join_url("ws://127.0.0.1:8765/ws", "ABCDEF") == "http://127.0.0.1:8765/t/ABCDEF"
    assert join_url("wss://hearts.example/ws", "ABCDEF") == "https://hearts.example/t/ABCDEF"
    assert parse_seats("hard") == ("hard", "hard", "hard")
    assert parse_seats("easy, open ,hard") == ("easy", "open", "hard")
    with pytest.raises(ValueError):
        parse_seats("easy,medium")
    with pytest.raises(ValueError):
        parse_seats("expert")


EXAMPLE = {"k": 3, "n": 0, "dir": "праворуч", "name": "Середній бот", "code": "ABC-DEF"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_bottom_lines_fit_80_columns(language: str) -> None:
    """The keys line and the notices fit; each prompt fits beside its button."""
    from rich.cells import cell_len

    t = Translator(language)  # type: ignore[arg-type]
    for keys in ("keys.table", "keys.watch", "keys.chat", "list.keys"):
        assert cell_len(t(keys)) <= 80, keys
    for line in ("chat.placeholder", "chat.placeholder_watch", "list.empty", "notice.kicked"):
        assert cell_len(t(line)) <= 78, line
    for prompt in ("prompt.watch_lobby", "prompt.watch_pass", "prompt.watch_turn"):
        assert cell_len(t(prompt, **EXAMPLE)) <= 80, prompt
    for notice in ("notice.reconnecting", "notice.lost"):
        assert cell_len(t(notice)) <= 78, notice
    with_button = {
        "prompt.pass": "btn.pass",
        "prompt.hand_over": "btn.next",
        "prompt.lobby_host": "btn.start",
        "prompt.game_over": "btn.rematch",
    }
    for prompt, button in with_button.items():
        width = cell_len(t(prompt, **EXAMPLE)) + cell_len(t(button)) + 4
        assert width <= 80, (prompt, width)


def test_a_refused_resume_leaves_the_table_offline() -> None:
    model = TableModel(connection="online")
    model.apply(sm.Error(code="no_such_table", message="there is no such table"))
    assert model.connection == "lost"
    assert model.notice is not None and model.notice.level == "error"
