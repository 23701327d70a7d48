"""Points a new player met at 80×24 and in larger terminals (issue #28),
on the real table screen over views built here (still.py): the moon's
sentence whole at 80×24, larger cards and a longer log in a larger
terminal, a ten-seat waiting room that keeps every seat's badge."""

from __future__ import annotations

from client.tui.i18n import Language
from protocol.common import RulesModel
from protocol.view import HandResult, SeatInfo, SeatView

from .still import still_text

NAMES = ("Tester", "Ірина", "Oleg", "Nina")


def moon_view(seat_names: tuple[str, ...] = NAMES) -> SeatView:
    """Between hands: seat 1 shot the moon in hand 1 (everyone else +26)."""
    seats = tuple(
        SeatInfo(
            seat=i,
            kind="human" if i == 0 else "bot",
            name=name,
            bot_level=None if i == 0 else "easy",
            connected=True,
            points_hand=26 if i == 1 else 0,
        )
        for i, name in enumerate(seat_names)
    )
    result = HandResult(hand_number=1, points=(26, 0, 26, 26), shooter=1, moon_choice="add")
    return SeatView(
        table_id="t",
        code="ABCDEF",
        name="t",
        public=False,
        rules=RulesModel(),
        seq=1,
        seat=0,
        host_seat=0,
        seats=seats,
        status="between_hands",
        hand_number=1,
        hands=(result,),
        totals=result.points,
        points_hand=(0, 26, 0, 0),
    )


MOON = {
    "en": ("☾ Ірина shot the moon: everyone else +26", "Your points: 26"),
    "uk": ("☾ Постріл у місяць: Ірина; кожному іншому +26", "Ваші очки: 26"),
    "ru": ("☾ Выстрел в луну: Ірина; каждому другому +26", "Ваши очки: 26"),
}


async def test_the_moon_is_said_whole_at_80x24_and_the_title_agrees() -> None:
    """The middle of an 80×24 table is 20 columns: a moon sentence that
    does not fit there is said whole on the notice line (the middle keeps
    "☾ NAME"), and the title gives the hand's score, +26, as the log does."""
    for language, (sentence, title) in MOON.items():
        lang: Language = language  # type: ignore[assignment]
        text = await still_text(moon_view(), (80, 24), lang, f"moon-80x24-{language}")
        lines = text.splitlines()
        assert any(line.strip() == sentence for line in lines), (language, text)
        assert title in lines[0], lines[0]
        assert "…" not in "".join(line for line in lines if "☾" in line), text
        text = await still_text(moon_view(), (120, 40), lang, f"moon-120x40-{language}")
        # Room enough: the middle of the table says it, once.
        assert text.count(sentence) == 1, (language, text)


def ten_seat_room() -> SeatView:
    """A ten-seat waiting room: the host (a person, online) and nine bots."""
    names = ("Hostess", "Anna", "Maxim", "Marta", "Nadia", "Zoya", "Oleg", "Nina", "Olga", "Pavel")
    seats = tuple(
        SeatInfo(
            seat=i,
            kind="human" if i == 0 else "bot",
            name=name,
            bot_level=None if i == 0 else "easy",
            host=i == 0,
            connected=True,
        )
        for i, name in enumerate(names)
    )
    return SeatView(
        table_id="t",
        code="G5EPE5",
        name="Hostess's table",
        public=False,
        rules=RulesModel(players=10, end="hands", end_at=2, bonus_card="JD"),
        seq=1,
        seat=0,
        host_seat=0,
        seats=seats,
        status="waiting",
    )


BADGES = {
    "en": ("● online", "bot · Easy", "Seat 10"),
    "uk": ("● онлайн", "бот · Легкий", "Місце 10"),
    "ru": ("● в сети", "бот · Лёгкий", "Место 10"),
}


async def test_a_ten_seat_waiting_room_keeps_every_badge_whole_at_80x24() -> None:
    """Two columns of seats at 80×24: your own name and its online badge
    are not cut (a person's "human" gives way first), and every bot's
    level shows whole, in each language."""
    for language, (online, level, last) in BADGES.items():
        lang: Language = language  # type: ignore[assignment]
        text = await still_text(ten_seat_room(), (80, 24), lang, f"ten-seat-room-{language}")
        assert last in text, text
        rows = [line for line in text.splitlines() if "Hostess" in line and online in line]
        assert rows, (language, text)
        assert "Hostess ★" in rows[0], rows[0]
        assert text.count(level) == 9, (language, text)
        seat_rows = [line for line in text.splitlines() if level in line or online in line]
        assert not any("…" in line for line in seat_rows), (language, seat_rows)


def ten_seat_tricks() -> SeatView:
    """A ten-seat hand with two tricks played (a 10 among the cards)."""
    from protocol.view import PlayedCard, TrickRecord

    room = ten_seat_room()
    clubs = ("2C", "TC", "QC", "KC", "AC", "3C", "4C", "5C", "6C", "7C")
    tricks = tuple(
        TrickRecord(
            leader=lead,
            cards=tuple(
                PlayedCard(seat=(lead + k) % 10, card=c.replace("C", suit))
                for k, c in enumerate(clubs)
            ),
            winner=(lead + 4) % 10,
            points=10 if suit == "H" else 0,
        )
        for lead, suit in ((1, "C"), (5, "H"))
    )
    return room.model_copy(
        update={
            "status": "playing",
            "phase": "play",
            "hand_number": 1,
            "turn": 2,
            "hand": ("8D", "9D"),
            "tricks": tricks,
            "seats": tuple(s.model_copy(update={"cards_left": 2}) for s in room.seats),
        }
    )


async def test_a_ten_card_trick_goes_on_under_its_own_cards_in_the_history() -> None:
    """Ten cards do not fit a row of the trick history: the row goes on
    indented under its first card, in every language (the legend's verbs
    in uk/ru are in the present tense, for every player alike)."""
    for language in ("en", "uk", "ru"):
        lang: Language = language  # type: ignore[assignment]
        text = await still_text(ten_seat_tricks(), (80, 24), lang, f"ten-seat-tricks-{language}")
        panel = [line[52:80] for line in text.splitlines()[2:22]]
        rows = [row[1:-1] for row in panel if row.startswith("│")]
        firsts = [i for i, row in enumerate(rows) if row[:2] in (" 1", " 2")]
        assert len(firsts) == 2, (language, rows)
        for first in firsts:
            start = rows[first].index("▸") + 2  # the first card's rank
            row = rows[first + 1]
            assert row[:start].strip() == "", (language, rows)  # indented, not at the edge
            assert row[start : start + 2] in ("3♣", "3♥"), (language, rows)  # under the first card
        legend = rows[0]
        assert {"en": "▸ led", "uk": "▸ починає", "ru": "▸ начинает"}[language] in legend


async def test_the_title_fits_80_columns_in_every_language() -> None:
    """Hand 12, passing across, hearts broken: the title says all of it
    and the connection without cutting anything (the game's name gives
    way to its ♥, the table to its code, the direction to its arrow)."""
    view = moon_view().model_copy(
        update={
            "status": "playing",
            "phase": "play",
            "turn": 0,
            "hand": ("2C", "3C"),
            "legal": ("2C",),
            "hearts_broken": True,
            "pass_direction": "across",
            "hand_number": 12,
            "hands": (),
        }
    )
    words = {
        "en": ("hand 12", "online"),
        "uk": ("роздача 12", "онлайн"),
        "ru": ("раздача 12", "в сети"),
    }
    for language, (hand, online) in words.items():
        lang: Language = language  # type: ignore[assignment]
        title = (await still_text(view, (80, 24), lang)).splitlines()[0]
        assert "…" not in title and "ABC-DEF" in title, title
        assert hand in title and online in title and ("across" in title or "↑" in title), title
