"""What the table screen fixes and adds for players: your own points in the
title, a card's letter kept for the whole hand, opponents' hands as fanned
backs, the key line of each state, settings drawn on and off, the "terminal
too small" cover, the bell on your turn and auto-play of forced cards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from client.tui import app as app_module
from client.tui.app import HeartsApp
from client.tui.pacing import INSTANT
from client.tui.screens.dialogs import HelpScreen, SettingsScreen
from client.tui.settings import Settings
from client.tui.widgets.hand import HandView
from client.tui.widgets.too_small import TooSmall
from protocol.common import RulesModel
from server.app import RunningServer

from .conftest import (
    first_legal_key,
    hand_below,
    make_app,
    pass_by_keys,
    quick,
    save_svg,
    screen_text,
    wait_for,
)


def key_row(app: HeartsApp) -> dict[str, str]:
    """The letter drawn under each card, read from the hand's layout."""
    return {slot.card: slot.key for slot in app.screen.query_one(HandView).slots()}


async def test_a_card_keeps_its_letter_and_your_points_show(server: RunningServer) -> None:
    app = make_app(quick(server))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        text = screen_text(app)
        # Each opponent's 13 cards as a fan of backs, with the count.
        assert text.count("▏" * 12 + "▒") == 3 and "cards: 13" in text
        await pass_by_keys(pilot, app)
        await wait_for(pilot, lambda: bool(model.view and model.view.phase == "play"), "play")
        letters = key_row(app)
        assert sorted(letters.values()) == list("abcdefghijklm")
        played: list[str] = []
        while len(played) < 4:
            await wait_for(pilot, model.my_turn, "our turn")
            view = model.view
            assert view is not None
            key = first_legal_key(app)
            card = model.card_for_key(key)
            assert card is not None
            await pilot.press(key)
            await wait_for(pilot, hand_below(app, len(view.hand)), "our card")
            played.append(card)
            # The cards left keep the letters they had; the played ones' are gone.
            assert key_row(app) == {c: k for c, k in letters.items() if c not in played}
            view = model.view
            assert view is not None
            me = view.seats[view.seat or 0]
            # The title says our points this hand, as the seat reports them.
            assert f"Your points: {me.points_hand}" in screen_text(app)
        gone = letters[played[0]]
        await wait_for(pilot, model.my_turn, "our turn")
        await pilot.press(gone)
        assert f"No card on key {gone}." in screen_text(app)
        save_svg(app, "letters-kept-80x24")


async def test_the_key_line_shows_what_works_now(server: RunningServer) -> None:
    app = make_app(quick(server))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        keys = screen_text(app).splitlines()[-1]
        assert "a–m pick" in keys and "p pass" in keys and "Ctrl+Q quit" in keys
        await pass_by_keys(pilot, app)
        await wait_for(pilot, model.my_turn, "our turn")
        keys = screen_text(app).splitlines()[-1]
        assert "a–m play" in keys and "p pass" not in keys and "Ctrl+Q quit" in keys
        await pilot.press("slash")
        await wait_for(pilot, lambda: "Enter sends" in screen_text(app).splitlines()[-1], "chat")
        assert "a–m" not in screen_text(app).splitlines()[-1]
        await pilot.press("escape")
        await wait_for(pilot, lambda: "a–m" in screen_text(app).splitlines()[-1], "the table")


async def test_the_key_line_names_undo_and_claim_and_refits_on_resize(
    server: RunningServer,
) -> None:
    """On our turn with a card of ours in the hand, at a table of bots, a wide
    terminal's key line names `u undo` and `C claim`; a narrower one drops
    optional keys at once when the terminal shrinks (not at the next key)
    and keeps how to leave, and gives them back when it grows."""
    app = make_app(quick(server))
    async with app.run_test(size=(200, 50)) as pilot:
        await to_our_second_card(pilot, app)

        def keys() -> str:
            return screen_text(app).splitlines()[-1]

        wide = keys()
        assert "u undo" in wide and "C claim" in wide and "o settings" in wide, wide
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: "o settings" not in keys(), "the key line refitted")
        narrow = keys()
        assert narrow.endswith("Ctrl+Q quit") and len(narrow) <= 80, narrow
        await pilot.resize_terminal(200, 50)
        await wait_for(pilot, lambda: "o settings" in keys(), "the keys back")
        assert "u undo" in keys()


async def to_our_second_card(pilot: object, app: HeartsApp) -> None:
    """Pass, play our first card, and wait for our next turn."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    model = app.model
    await wait_for(pilot, model.passing, "the pass")
    await pass_by_keys(pilot, app)
    await wait_for(pilot, model.my_turn, "our turn")
    view = model.view
    assert view is not None
    await pilot.press(first_legal_key(app))
    await wait_for(pilot, hand_below(app, len(view.hand)), "our card")
    await wait_for(pilot, model.my_turn, "our next turn")


def in_dialog(text: str, label: str) -> str:
    """The part of the line holding ``label`` inside the dialog's border."""
    line = next(line for line in text.splitlines() if label in line)
    return line.split("█")[1]


async def test_settings_are_drawn_on_and_off_and_saved(
    server: RunningServer, tmp_path: Path
) -> None:
    path = tmp_path / "tui.json"
    app = HeartsApp(quick(server), Settings(), settings_path=path, pacing=INSTANT)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "settings")
        text = save_svg(app, "settings-off-80x24")
        for label in ("Fast play", "Play a card by itself", "Ring the terminal bell"):
            assert "✓" not in in_dialog(text, label)
        await pilot.click("#auto_single")
        await pilot.click("#bell")
        text = save_svg(app, "settings-on-80x24")
        lines = {
            label: next(li for li in text.splitlines() if label in li)
            for label in ("Fast play", "Play a card by itself", "Ring the terminal bell")
        }
        assert "✓" not in lines["Fast play"]
        assert "✓" in lines["Play a card by itself"] and "✓" in lines["Ring the terminal bell"]
        # The chosen language is marked by its glyph too, the others blank.
        assert "●" in in_dialog(text, "English") and "●" not in in_dialog(text, "Русский")
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert saved["auto_single"] is True and saved["bell"] is True and saved["fast"] is False
        assert Settings.load(path).auto_single and Settings.load(path).bell


async def test_settings_answer_the_arrows_and_say_which_keys_work(
    server: RunningServer,
) -> None:
    """↓ and ↑ move between the settings, Space toggles the one in focus,
    and the dialog says so (Tab moves too)."""
    app = make_app(quick(server))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app.model.passing, "the pass")
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), "settings")
        text = screen_text(app)
        assert "↑↓ Tab move" in text and "Space toggles" in text, text
        assert app.screen.focused is not None and app.screen.focused.id == "fast"
        await pilot.press("down")
        assert app.screen.focused is not None and app.screen.focused.id == "auto_single"
        await pilot.press("space")
        await wait_for(pilot, lambda: app.settings.auto_single, "auto-play on")
        assert "✓" in in_dialog(screen_text(app), "Play a card by itself")
        await pilot.press("down", "up", "up")
        assert app.screen.focused is not None and app.screen.focused.id == "fast"
        assert not app.settings.fast


async def test_a_small_terminal_is_told_so_and_the_table_comes_back(
    server: RunningServer,
) -> None:
    app = make_app(quick(server))
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        await wait_for(pilot, model.passing, "the pass")
        await pilot.resize_terminal(70, 20)
        # Mounted is not yet drawn: wait for its sentence on the screen.
        await wait_for(pilot, lambda: "too small" in screen_text(app), "the cover")
        text = save_svg(app, "too-small-70x20")
        assert "The terminal is 70×20: too small for the table." in text
        assert "at least 80×24" in text and "Ctrl+Q" in text
        await pilot.press("a")  # under the cover keys do nothing
        assert model.selected == []
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, lambda: not app.screen.query(TooSmall), "the table")
        assert "too small" not in screen_text(app)
        await pilot.press("a")  # the hand has the keys again
        assert model.selected == [model.card_for_key("a")]
        # A dialog opened while too small is covered as well, and uncovered.
        await pilot.resize_terminal(60, 30)
        await wait_for(pilot, lambda: bool(app.screen.query(TooSmall)), "the cover")
        app.push_screen(HelpScreen(app.t))
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, HelpScreen) and bool(app.screen.query(TooSmall)),
            "the dialog covered",
        )
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: not app.screen.query(TooSmall), "the dialog")
        assert "Esc closes" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), "the table")
        assert not app.screen.query(TooSmall)


class CountingBells(HeartsApp):
    """Counts the bells instead of ringing them."""

    CSS_PATH = str(Path(app_module.__file__).with_name("hearts.tcss"))  # not beside this file
    bells = 0

    def bell(self) -> None:
        """Count."""
        self.bells += 1


async def test_the_bell_rings_on_your_turn_only_when_asked(server: RunningServer) -> None:
    quiet = CountingBells(quick(server), Settings(), pacing=INSTANT)
    async with quiet.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, quiet.model.passing, "the pass")
        await pass_by_keys(pilot, quiet)
        await wait_for(pilot, quiet.model.my_turn, "our turn")
        assert quiet.bells == 0  # off by default
    ringing = CountingBells(quick(server), Settings(bell=True), pacing=INSTANT)
    async with ringing.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, ringing.model.passing, "the pass")
        assert ringing.bells == 1  # the table asks for our pass
        await pass_by_keys(pilot, ringing)
        await wait_for(pilot, ringing.model.my_turn, "our turn")
        assert ringing.bells == 2  # and for our card


@pytest.mark.slow
async def test_a_single_legal_card_plays_itself_when_asked(server: RunningServer) -> None:
    """With the setting on, every turn with one legal card is played without
    a key (the 2♣ lead, a lone card of the suit led, the last card); the
    test presses keys only when there is a choice."""
    app = make_app(quick(server, rules=RulesModel(end="hands", end_at=3)))
    app.settings.auto_single = True
    hands = 0
    async with app.run_test(size=(80, 24)) as pilot:
        model = app.model
        while hands < 3:
            await wait_for(pilot, lambda: model.passing() or model.my_turn(), "the deal")
            await pass_by_keys(pilot, app)
            number = model.view.hand_number if model.view else 0

            def over(n: int = number) -> bool:
                v = model.view
                return v is not None and (v.status != "playing" or v.hand_number != n)

            while not over():
                await wait_for(pilot, lambda: model.my_turn() or over(), "our turn")
                view = model.view
                if view is None or over():
                    break
                if len(view.legal) == 1:  # it plays itself: wait for it, press nothing
                    card = view.legal[0]
                    await wait_for(
                        pilot,
                        lambda c=card: model.view is not None and c not in model.view.hand,
                        "the forced card to play itself",
                    )
                    continue
                await pilot.press(first_legal_key(app))
                await wait_for(pilot, hand_below(app, len(view.hand), over), "our card")
            hands += 1
            if model.view is not None and model.view.status == "game_over":
                break
            await pilot.press("n")

        def auto() -> list[str]:
            lines = model.log.tail(400)
            return [app.t.text(li.msg) for li in lines if li.msg.key == "log.auto_played"]

        # The last card of every hand, and at least one forced card before it
        # (each said once the server took it).
        await wait_for(pilot, lambda: len(auto()) > hands, "the forced cards told")
        assert auto()[0].startswith("You played ")


@pytest.mark.parametrize(("size", "log_rows"), [((120, 40), 7), ((200, 50), 12)])
async def test_a_larger_terminal_gets_larger_cards_and_a_longer_log(
    server: RunningServer, size: tuple[int, int], log_rows: int
) -> None:
    """120×40 and 200×50: the hand's cards and the trick's are six columns
    by four rows (rank and suit in two corners, the suit in the middle),
    the log shows more lines; back at 80×24 the small cards return."""
    from client.tui.cards import label
    from client.tui.widgets.bars import ChatLog
    from client.tui.widgets.chat_panel import log_line_text
    from client.tui.widgets.trick import TrickView

    app = make_app(quick(server))
    async with app.run_test(size=size) as pilot:
        model = app.model
        await to_our_second_card(pilot, app)
        hand = app.screen.query_one(HandView)
        log = app.screen.query_one(ChatLog)
        assert hand.large() and hand.size.height == 6 and log.size.height == log_rows
        trick = app.screen.query_one(TrickView)
        assert trick.large(trick.size.width, trick.size.height)
        text = save_svg(app, f"larger-{size[0]}x{size[1]}")
        lines = text.splitlines()
        letters = [app.model.key_of(c) for c in app.model.hand()]
        keys_row = next(i for i, line in enumerate(lines) if line.split() == letters)
        # Each card's rank and suit twice (top left, bottom right), the
        # letters under them.
        first = label(app.model.hand()[0])
        assert lines[keys_row - 4].split()[0].startswith(first)
        assert lines[keys_row - 1].split()[0].strip("░").startswith(first)
        # Chat lines fill the log: it shows as many as its rows hold.
        await pilot.press("slash")
        for n in range(log_rows):
            await pilot.press(*f"line {n}", "enter")
        await wait_for(pilot, lambda: len(model.log.tail(log_rows)) == log_rows, "the chat")
        await pilot.press("escape")
        await wait_for(pilot, lambda: f"line {log_rows - 1}" in screen_text(app), "the log")
        text = save_svg(app, f"larger-log-{size[0]}x{size[1]}")
        for entry in model.log.tail(log_rows):
            assert log_line_text(app.t, entry).plain[:30] in text, text
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: not hand.large() and hand.size.height == 4, "small cards")
        assert log.size.height == 2
