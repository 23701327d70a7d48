"""The client's pure parts: translations, refusals, hand layout, model."""

from __future__ import annotations

import re
import string

import pytest

from client.tui.explain import pass_refusal, play_refusal
from client.tui.i18n import (
    CATALOGS,
    LANGUAGES,
    Language,
    Msg,
    Term,
    Translator,
    language_from_env,
    plural_category,
)
from client.tui.launch import join_url, parse_seats
from client.tui.locales import Entry
from client.tui.model import TableModel, covered_summary, refusal_msg
from client.tui.widgets.hand import hand_layout
from client.tui.widgets.lobby import join_command
from protocol import server_messages as sm
from protocol.common import RulesModel
from protocol.view import Knocker, PlayedCard, SeatInfo, SeatView, TrickRecord


def fields(template: str) -> set[str]:
    """The placeholders of a template."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# The plural forms each language's entries need (whole numbers only).
PLURAL_FORMS = {"en": {"one", "other"}, "uk": {"one", "few", "many"}, "ru": {"one", "few", "many"}}


def forms(entry: Entry) -> dict[str, str]:
    """An entry's templates by plural form (a plain template is "other")."""
    return {"other": entry} if isinstance(entry, str) else dict(entry)


def test_every_language_has_every_key_with_the_same_placeholders() -> None:
    english = CATALOGS["en"]
    for language in LANGUAGES:
        catalog = CATALOGS[language]
        assert set(catalog) == set(english), language
        for key, entry in catalog.items():
            expected = fields(forms(english[key])["other"])
            if not isinstance(entry, str):
                assert set(entry) == PLURAL_FORMS[language], (language, key)
            for template in forms(entry).values():
                if key.startswith("error."):  # may leave out the server's English sentence
                    assert fields(template) <= expected, (language, key)
                else:
                    assert fields(template) == expected, (language, key)


def test_translations_are_not_left_in_english() -> None:
    for language in ("uk", "ru"):
        same = [
            key
            for key, entry in CATALOGS[language].items()
            for text in forms(entry).values()
            if text in forms(CATALOGS["en"][key]).values()
            and re.search(r"[a-z]{4}", re.sub(r"{\w+}", "", text))
        ]
        assert same == [], (language, same)


@pytest.mark.parametrize(
    ("language", "counts"),
    [
        ("en", {"one": [1], "other": [0, 2, 5, 11, 13, 21]}),
        ("uk", {"one": [1, 21, 101], "few": [2, 3, 4, 22, 104], "many": [0, 5, 11, 12, 14, 25]}),
        ("ru", {"one": [1, 31], "few": [2, 23], "many": [0, 5, 11, 13, 111]}),
    ],
)
def test_plural_categories(language: Language, counts: dict[str, list[int]]) -> None:
    for category, numbers in counts.items():
        assert [plural_category(language, n) for n in numbers] == [category] * len(numbers)


def covered(played: int = 0, passed: tuple[str, ...] = (), moon: str | None = None) -> Msg:
    event = sm.BotCovered.model_validate(
        {
            "seq": 9,
            "seat": 0,
            "played": [
                "2C",
                "3D",
                "4S",
                "5H",
                "6C",
                "7C",
                "8C",
                "9C",
                "TC",
                "JC",
                "QC",
                "KC",
                "AC",
            ][:played],
            "passed": passed,
            "moon_choice": moon,
        }
    )
    summary = covered_summary(event)
    assert summary is not None
    return summary


def test_what_a_bot_did_is_said_in_one_sentence_with_plurals() -> None:
    en, uk, ru = Translator("en"), Translator("uk"), Translator("ru")
    both = covered(5, ("AH", "QS", "KH"))
    assert en.text(both) == (
        "A bot covered for you while you were away: it played 5 cards and passed K♥ A♥ Q♠."
    )
    assert uk.text(both) == (
        "Поки вас не було, за вас грав бот: він зіграв 5 карт і передав K♥ A♥ Q♠."
    )
    assert ru.text(both) == (
        "Пока вас не было, за вас играл бот: он сыграл 5 карт и передал K♥ A♥ Q♠."
    )
    assert en.text(covered(1)).endswith("it played 1 card.")
    assert uk.text(covered(1)).endswith("він зіграв 1 карту.")
    assert uk.text(covered(3)).endswith("він зіграв 3 карти.")
    assert ru.text(covered(2)).endswith("он сыграл 2 карты.")
    assert ru.text(covered(11)).endswith("он сыграл 11 карт.")
    assert en.text(covered(passed=("2C", "3C", "4C"))).endswith("it passed 2♣ 3♣ 4♣.")
    everything = covered(13, moon="subtract")
    assert en.text(everything).endswith("it played 13 cards and scored your moon as −26 for you.")
    assert ru.text(covered(13, ("2C", "3C", "4C"), "add")).endswith(
        "он сыграл 13 карт, передал 2♣ 3♣ 4♣ и засчитал ваш выстрел в луну как +26 всем остальным."
    )
    nothing = sm.BotCovered(seq=9, seat=0, played=(), passed=())
    assert covered_summary(nothing) is None
    widow = sm.BotCovered(seq=9, seat=0, played=("2C",), passed=(), discarded=("QS", "7C"))
    summary = covered_summary(widow)
    assert summary is not None
    assert en.text(summary).endswith("it played 1 card and put 7♣ Q♠ face down.")
    assert uk.text(summary).endswith("він зіграв 1 карту і скинув закритими 7♣ Q♠.")


def test_a_replayed_tricks_points_agree_with_their_number() -> None:
    """ "(1 point)", never "(1 points)", in the three languages."""
    en, uk, ru = Translator("en"), Translator("uk"), Translator("ru")
    assert en("replay.won", name="Igor", n=1) == "Igor won it (1 point)"
    assert en("replay.won", name="Igor", n=13) == "Igor won it (13 points)"
    assert uk("replay.won", name="Igor", n=2) == "Забирає Igor (2 очки)"
    assert uk("replay.won", name="Igor", n=5) == "Забирає Igor (5 очок)"
    assert ru("replay.won", name="Igor", n=1) == "Забирает Igor (1 очко)"
    assert ru("replay.won", name="Igor", n=3) == "Забирает Igor (3 очка)"


def test_a_bot_covering_is_logged_and_popped_up_once() -> None:
    model = TableModel(view=view())
    model.apply(sm.BotCovered(seq=9, seat=0, played=("2C",), passed=()))
    assert [line.msg.key for line in model.log] == ["covered.summary"]
    assert [m.key for m in model.take_notifications()] == ["covered.summary"]
    assert model.take_notifications() == []


def test_a_knock_is_logged_and_popped_up_once_and_again_when_it_comes_back() -> None:
    ann, bob = Knocker(player_id="p1", name="Ann"), Knocker(player_id="p2", name="Bob")
    model = TableModel()
    model.apply(sm.Snapshot(seq=1, view=view(knocks=(ann,))))
    model.apply(sm.Snapshot(seq=1, view=view(knocks=(ann, bob))))  # Ann still waits
    said = [m.params["name"] for m in model.take_notifications()]
    assert said == ["Ann", "Bob"]
    assert [line.msg.key for line in model.log] == ["knock.arrived", "knock.arrived"]
    model.apply(sm.Snapshot(seq=1, view=view(knocks=(bob,))))  # Ann answered
    model.apply(sm.Snapshot(seq=1, view=view(knocks=(bob, ann))))  # and knocking again
    assert [m.params["name"] for m in model.take_notifications()] == ["Ann"]


def test_an_away_seat_counts_down_from_each_snapshot() -> None:
    now = [100.0]
    model = TableModel(clock=lambda: now[0])
    away = [s.model_copy(update={"kind": "human", "away": True}) for s in seats()]
    away[2] = away[2].model_copy(update={"cover_in": 42.0})
    model.apply(sm.Snapshot(seq=1, view=view(seats=tuple(away))))
    # to a bot covering, then to the end of each seat's move time (none here)
    assert model.countdowns() == (None, None, 42, None) + (None,) * 4
    now[0] += 0.4
    assert model.cover_left(2) == 42  # whole seconds, rounded up
    now[0] += 10
    assert model.cover_left(2) == 32
    now[0] += 60
    assert model.cover_left(2) == 0  # never below zero while the bot is coming
    away[2] = away[2].model_copy(update={"cover_in": 5.0})
    model.apply(sm.Snapshot(seq=2, view=view(seats=tuple(away))))
    assert model.cover_left(2) == 5  # each snapshot sets the clock again
    away[2] = away[2].model_copy(update={"cover_in": None, "bot_covering": True})
    model.apply(sm.Snapshot(seq=3, view=view(seats=tuple(away))))
    assert model.cover_left(2) is None


def test_the_join_command_names_the_server_unless_it_is_the_default() -> None:
    assert join_command("ABCDEF", "ws://127.0.0.1:8765/ws") == "hearts join ABC-DEF"
    assert join_command("ABCDEF", "wss://hearts.example/ws") == (
        "hearts join ABC-DEF --server wss://hearts.example/ws"
    )


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


EXAMPLE = {
    "k": 3,
    "n": 0,
    "dir": "праворуч",
    "name": "Середній бот",
    "code": "ABC-DEF",
    "keys": "1 2 3",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_bottom_lines_fit_80_columns(language: str) -> None:
    """The keys line and the notices fit; each prompt fits beside its button."""
    from rich.cells import cell_len

    t = Translator(language)  # type: ignore[arg-type]
    for line in ("chat.placeholder", "chat.placeholder_watch", "list.empty", "notice.kicked"):
        assert cell_len(t(line)) <= 78, line
    # The public tables' notice line counts a throttled address's wait down.
    for line in ("throttle.wait", "throttle.over"):
        assert cell_len("✕ " + t(line, n=300)) <= 80, line
    # The knock dialog's state line (70 columns inside its box).
    for line in ("knock.ask", "knock.waiting", "knock.refused", "knock.accepted"):
        assert cell_len(t(line)) <= 70, line
    # A narrow seat panel (14 columns inside) has the countdown on a line of its own.
    assert cell_len(t("seat.cover_in", n=59)) <= 14
    for prompt in (
        "prompt.watch_lobby",
        "prompt.watch_pass",
        "prompt.watch_turn",
        "prompt.watch_paused",
    ):
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


def test_a_reset_model_forgets_the_table_but_its_log_keeps_counting() -> None:
    """After the host removed us the next table starts from nothing; views
    that compare the log's revision still see a change."""
    model = TableModel(view=view(), connection="online", join_url="http://x/t/ABCDEF")
    model.apply(sm.ChatMessage(seq=4, seat=1, name="P1", text="hi"))
    log, revision = model.log, model.log.revision
    model.reset()
    assert model.view is None and model.join_url == "" and model.connection == "online"
    assert model.log is log and len(log) == 0 and log.revision > revision
    model.apply(sm.ChatMessage(seq=2, seat=1, name="P1", text="again"))
    assert [line.msg.params["text"] for line in model.log] == ["again"]  # seq 2 is new here


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Undo works on your turn"),
        ("uk", "Скасування працює на вашому ході"),
        ("ru", "Отмена работает в ваш ход"),
    ],
)
def test_a_not_now_refusal_says_its_reason(language: Language, said: str) -> None:
    """The server's ``reason`` picks the sentence; an unknown one falls back
    to the code's."""
    model = TableModel(connection="online")
    model.apply(sm.Error(code="not_now", message="wait", reason="undo_not_your_turn"))
    assert model.notice is not None and model.notice.level == "error"
    assert said in Translator(language).text(model.notice.msg)
    model.apply(sm.Error(code="not_now", message="wait", reason="a_future_case"))
    assert model.notice is not None and model.notice.msg.key == "error.not_now"


@pytest.mark.parametrize(
    ("language", "player", "network", "full"),
    [
        (
            "en",
            "You have created many tables in a short time: you can create another in 8 s.",
            "Many tables were created from your network in a short time: you can create"
            " another in 3 s.",
            "The server's storage is nearly full: no new tables for now (try again in 60 s).",
        ),
        (
            "uk",
            "Ви створили багато столів за короткий час: наступний можна створити через 8 с.",
            "З вашої мережі створили багато столів за короткий час: наступний можна створити"
            " через 3 с.",
            "Сховище сервера майже заповнене: нових столів поки немає (спробуйте через 60 с).",
        ),
        (
            "ru",
            "Вы создали много столов за короткое время: следующий можно создать через 8 с.",
            "Из вашей сети создали много столов за короткое время: следующий можно создать"
            " через 3 с.",
            "Хранилище сервера почти заполнено: новых столов пока нет (попробуйте через 60 с).",
        ),
    ],
)
def test_a_refused_table_says_which_budget_and_when(
    language: Language, player: str, network: str, full: str
) -> None:
    """``too_many_tables`` and ``server_full`` name their case (``reason``)
    and the whole seconds of ``retry_after``; an unknown case falls back to
    the code's sentence."""
    said = Translator(language).text
    assert said(refusal_msg("too_many_tables", "wait", "player_budget", 7.2)) == player
    assert said(refusal_msg("too_many_tables", "wait", "address_budget", 3.0)) == network
    assert said(refusal_msg("server_full", "wait", "store_full", 60.0)).startswith(full)
    fallback = refusal_msg("server_full", "wait", "a_future_cap", 60.0)
    assert fallback.key == "error.server_full"


def test_hand_letters_come_from_the_snapshot_and_never_move() -> None:
    """Letters run over the hand as it stood when cards last arrived: a
    pass sent (its cards gone) or cards played keep the others' letters,
    and the same snapshot always gives the same letters (a restart)."""
    from client.tui.model import hand_letters

    dealt = ("2C", "5C", "9C", "3D", "7D", "2H", "8H", "QH", "4S", "QS", "KS", "AS", "TD")
    letters = hand_letters(view(phase="pass", turn=None, hand=dealt))
    assert sorted(letters.values()) == list("abcdefghijklm")
    passed = view(phase="pass", turn=None, hand=dealt[3:], passed=dealt[:3])
    assert hand_letters(passed) == {c: letters[c] for c in dealt[3:]}
    # The pass over, the received cards arrive: the new hand is lettered a–m.
    after = (*dealt[3:], "3C", "JH", "6S")
    fresh = hand_letters(view(hand=after))
    assert sorted(fresh.values()) == list("abcdefghijklm")
    trick = TrickRecord(
        leader=1,
        cards=(PlayedCard(seat=1, card="2C"), PlayedCard(seat=0, card="3C")),
        winner=1,
        points=0,
    )
    played = view(
        hand=tuple(c for c in after if c not in ("3C", "JH")),
        tricks=(trick,),
        trick=(PlayedCard(seat=0, card="JH"),),
    )
    assert hand_letters(played) == {c: fresh[c] for c in after if c not in ("3C", "JH")}
    # Widow cards put face down keep the held cards' letters too.
    widow = view(hand=dealt[2:], discarded=dealt[:2])
    assert hand_letters(widow) == {c: letters[c] for c in dealt[2:]}
    assert hand_letters(view(seat=None)) == {}


def test_hand_letters_hold_to_the_last_trick_and_past_the_letters() -> None:
    """Ten cards played and three held: the three keep the letters they were
    dealt with (k, l, m); a hand that drew more cards than there are letters
    keeps its newest plays' places."""
    from client.tui.cards import KEYS, RANKS
    from client.tui.model import hand_letters

    dealt = [r + "S" for r in RANKS]
    tricks = tuple(
        TrickRecord(leader=0, cards=(PlayedCard(seat=0, card=c),), winner=0, points=0)
        for c in dealt[:10]
    )
    late = hand_letters(view(hand=tuple(dealt[10:]), tricks=tricks))
    assert late == {"QS": "k", "KS": "l", "AS": "m"}
    # 30 cards through the hand (a long run of draws): the letters still fit.
    many = [r + s for s in "CD" for r in RANKS][:26] + dealt[:4]
    held = tuple(many[-3:])
    played = tuple(
        TrickRecord(leader=0, cards=(PlayedCard(seat=0, card=c),), winner=0, points=0)
        for c in many[:-3]
    )
    letters = hand_letters(view(hand=held, tricks=played))
    assert set(letters) == set(held) and set(letters.values()) <= set(KEYS)
    assert len(set(letters.values())) == 3
