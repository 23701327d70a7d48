"""The host's form offers every rule of the table: passing, the moon, the
first trick, Q♠ breaking hearts, the end (100 or 50 points, or a number of
hands) and the bonus card; a bad number of hands is said, not sent; Ctrl+B
plays against bots at once."""

from __future__ import annotations

from textual.widgets import Checkbox, Input, Select

from client.tui.launch import Launch
from client.tui.screens.host_setup import HostSetupScreen
from protocol.common import RulesModel
from server.app import RunningServer

from .conftest import make_app, save_svg, screen_text, wait_for


async def test_every_rule_is_chosen_in_the_form(server: RunningServer) -> None:
    app = make_app(Launch(mode="host", server=server.url, name="Hostess"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the form")
        await wait_for(pilot, lambda: "Bonus card" in screen_text(app), "the form drawn")
        text = save_svg(app, "host-form-rules-80x24")
        for label in ("Passing", "Shooting the moon", "First trick", "Game ends", "Bonus card"):
            assert label in text, label
        assert "Create table" in text and "Cancel" in text  # it all fits in 80×24
        form = app.screen
        form.query_one("#cycle", Select).value = "l"
        form.query_one("#moon", Select).value = "choice"
        form.query_one("#first-trick", Select).value = "anything"
        form.query_one("#bonus", Select).value = "TD"
        form.query_one("#queen", Checkbox).value = True
        hands = form.query_one("#hands", Input)
        assert hands.disabled  # counts only for "after a number of hands"
        form.query_one("#end", Select).value = "hands"
        await wait_for(pilot, lambda: not hands.disabled, "the hands field")

        hands.focus()
        await pilot.press("ctrl+u", "0", "enter")
        await wait_for(pilot, lambda: "from 1 to 1000" in screen_text(app), "the refusal")
        assert isinstance(app.screen, HostSetupScreen) and app.model.view is None

        await pilot.press("ctrl+u", "3", "enter")
        await wait_for(pilot, lambda: app.model.view is not None, "the table")
        view = app.model.view
        assert view is not None
        assert view.rules == RulesModel(
            pass_cycle=("left",),
            moon="choice",
            first_trick="anything",
            queen_breaks_hearts=True,
            end="hands",
            end_at=3,
            bonus_card="TD",
        )
        await wait_for(pilot, lambda: "bonus 10♦ −10" in screen_text(app), "the lobby's rules")
        text = screen_text(app)  # the rules line (wrapped inside the lobby's box)
        assert "· 3 hands ·" in text and "anything goes" in text


async def test_the_form_in_ukrainian_fits_and_shows_the_given_rules(
    server: RunningServer,
) -> None:
    rules = RulesModel(end="hands", end_at=5, bonus_card="JD", first_trick="no_queen")
    launch = Launch(mode="host", server=server.url, rules=rules)
    app = make_app(launch, language="uk")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Бонусна карта" in screen_text(app), "the form")
        text = save_svg(app, "host-form-uk-80x24")
        assert "після заданої кількості роздач" in text and "J♦: −10 очок" in text
        assert "заборонено лише даму пік" in text and "Створити стіл" in text
        assert app.screen.query_one("#hands", Input).value == "5"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.model.view is not None, "the table")
        assert app.model.view is not None and app.model.view.rules == rules


async def test_ctrl_b_in_the_form_plays_against_bots_at_once(server: RunningServer) -> None:
    """One key from the form: the open seats get Medium bots, a chosen bot
    keeps its level, the rules chosen count, and the game starts."""
    app = make_app(Launch(mode="host", server=server.url, name="Solo"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the form")
        form = app.screen
        form.query_one("#spec-across", Select).value = "hard"
        form.query_one("#moon", Select).value = "subtract"
        form.query_one("#public", Checkbox).value = True
        # A ticked box shows ✓, an empty one nothing (not only another shade).
        await wait_for(pilot, lambda: "▐✓▌ List the table" in screen_text(app), "the tick")
        assert "▐ ▌ Q♠ breaks hearts" in screen_text(app)
        await pilot.press("ctrl+b")
        await wait_for(
            pilot,
            lambda: bool(app.model.view and app.model.view.status == "playing"),
            "the game",
        )
        view = app.model.view
        assert view is not None and view.seat == 0 and not view.public
        assert [s.bot_level for s in view.seats[1:]] == ["medium", "hard", "medium"]
        assert view.rules.moon == "subtract"
