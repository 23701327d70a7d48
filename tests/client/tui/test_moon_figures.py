"""Every moon sentence of the terminal says the table's own figures
(docs/rules.md, "Moon scoring, in general": 26, Spot 104, Black Maria 43,
Cancellation 52; the Omnibus jackpot; the Greek transfer): the host's form
offers only the game's moon options, the lobby and the rules page say them,
the moon choice, a bot's report and the end of a hand count them."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Select, Static

from client.tui.i18n import LANGUAGES, Translator
from client.tui.launch import Launch
from client.tui.model import covered_summary
from client.tui.moon import hand_moon, moon_value
from client.tui.screens.dialogs import MoonScreen
from client.tui.screens.host_setup import HostSetupScreen
from client.tui.screens.rules import options_text
from client.tui.widgets.lobby import rules_text
from protocol import server_messages as sm
from protocol.common import RulesModel
from protocol.view import HandResult
from server.app import RunningServer

from .conftest import make_app, save_svg, screen_text, wait_for


def test_the_moon_is_worth_the_decks_penalties() -> None:
    assert moon_value("standard") == 26 and moon_value("standard", 10) == 26
    assert moon_value("spot") == 104
    assert moon_value("black_maria") == 43
    assert moon_value("cancellation", 9) == 52
    assert moon_value("omnibus") == 26 and moon_value("greek", 5) == 26


async def test_the_host_form_offers_each_games_moon_with_its_figures(
    server: RunningServer,
) -> None:
    app = make_app(Launch(mode="host", server=server.url, name="Hostess"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the form")
        form = app.screen
        await wait_for(pilot, lambda: "Bonus card" in screen_text(app), "the form drawn")
        variant = form.query_one("#variant", Select)
        moon = form.query_one("#moon", Select)

        def offered() -> dict[str, str]:
            return {
                str(value): str(prompt) for prompt, value in moon._options if value != Select.BLANK
            }

        standard = {
            "add": "everyone else +26",
            "subtract": "shooter −26",
            "choice": "shooter chooses",
        }
        assert offered() == standard and not moon.disabled
        assert "everyone else +26" in screen_text(app)
        expected = {
            "spot": {
                "add": "everyone else +104",
                "subtract": "shooter −104",
                "choice": "shooter chooses",
            },
            "greek": {"transfer": "shooter takes 26 from each"},
            "omnibus": {"jackpot": "the jackpot: −26 to the taker"},
            "black_maria": {
                "add": "everyone else +43",
                "subtract": "shooter −43",
                "choice": "shooter chooses",
                "none": "no moon",
            },
            "domino": {"none": "no moon"},
            "cancellation": {
                "add": "everyone else +52",
                "subtract": "shooter −52",
                "choice": "shooter chooses",
            },
        }
        for game, moons in expected.items():
            variant.value = game
            await wait_for(pilot, lambda m=moons: offered() == m, f"{game}'s moons")  # type: ignore[misc]
            assert moon.disabled == (len(moons) == 1), game  # a fixed moon is shown, not chosen
            shown = moons[str(moon.value)]
            await wait_for(pilot, lambda s=shown: s in screen_text(app), shown)  # type: ignore[misc]
        variant.value = "spot"
        await wait_for(pilot, lambda: offered() == expected["spot"], "spot again")
        moon.value = "subtract"
        await wait_for(pilot, lambda: "shooter −104" in screen_text(app), "the spot moon drawn")
        save_svg(app, "host-form-spot-moon-80x24")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.model.view is not None, "the table")
        await wait_for(pilot, lambda: "moon: shooter −104" in screen_text(app), "the lobby's rules")
        assert app.model.view is not None and app.model.view.rules.moon == "subtract"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_and_the_rules_page_say_the_tables_figures(language: str) -> None:
    t = Translator(language)  # type: ignore[arg-type]
    spot = RulesModel(variant="spot")
    greek = RulesModel(variant="greek", players=5)
    assert "104" in rules_text(t, spot) and "26" not in rules_text(t, spot)
    assert "26" in rules_text(t, greek)
    page = options_text(t, spot).plain
    assert "+104" in page and "−104" in page and "26" not in page.replace("2026", "")
    assert "+26" in options_text(t, None).plain  # no table: the standard game's


class MoonApp(App[None]):
    """The moon choice alone, over an empty screen."""

    def __init__(self, t: Translator, rules: RulesModel) -> None:
        super().__init__()
        self.t, self.rules = t, rules

    def compose(self) -> ComposeResult:
        yield Static("table")

    def on_mount(self) -> None:
        self.push_screen(MoonScreen(self.t, self.rules))


@pytest.mark.parametrize(
    ("variant", "players", "took", "value"),
    [
        ("standard", 4, "every heart and Q♠", 26),
        ("spot", 4, "every heart.", 104),
        ("black_maria", 3, "every heart, Q♠, K♠ and A♠", 43),
        ("cancellation", 8, "every heart and both Q♠", 52),
    ],
)
async def test_the_moon_choice_says_what_was_taken_and_its_worth(
    variant: str, players: int, took: str, value: int
) -> None:
    rules = RulesModel(variant=variant, players=players, moon="choice")  # type: ignore[arg-type]
    app = MoonApp(Translator("en"), rules)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MoonScreen), "the dialog")
        await wait_for(pilot, lambda: "Everyone else" in screen_text(app), "drawn")
        text = screen_text(app)
        assert f"You took {took}" in text, text
        assert f"1 · Everyone else +{value}" in text and f"2 · Me −{value}" in text, text
        await pilot.press("2")
        await wait_for(pilot, lambda: not isinstance(app.screen, MoonScreen), "the answer")


async def test_the_moon_choice_in_ukrainian_and_russian() -> None:
    for language, words in (("uk", "Кожному іншому +104"), ("ru", "Каждому из остальных +104")):
        await _shows_in(language, words)


async def _shows_in(language: str, words: str) -> None:
    app = MoonApp(Translator(language), RulesModel(variant="spot", moon="choice"))  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: words in screen_text(app), words)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_end_of_a_hand_and_a_bots_report_count_the_moon(language: str) -> None:
    t = Translator(language)  # type: ignore[arg-type]

    def said(rules: RulesModel, points: tuple[int, ...], choice: str | None = None) -> str:
        result = HandResult(hand_number=1, points=points, shooter=1, moon_choice=choice)  # type: ignore[arg-type]
        msg = hand_moon(rules, result, "Ann")
        assert msg is not None
        return t.text(msg)

    standard = said(RulesModel(), (26, 0, 26, 26), "add")
    assert "+26" in standard and "Ann" in standard
    assert "−26" in said(RulesModel(moon="choice"), (0, -26, 0, 0), "subtract")
    assert "+104" in said(RulesModel(variant="spot"), (104, 0, 104, 104), "add")
    greek = said(RulesModel(variant="greek"), (26, -78, 26, 26), "transfer")
    assert "+26" in greek and "−78" in greek
    greek5 = said(RulesModel(variant="greek", players=5), (26, -104, 26, 26, 26), "transfer")
    assert "−104" in greek5
    assert "−26" in said(RulesModel(variant="omnibus"), (0, -26, 0, 0), "jackpot")
    assert hand_moon(RulesModel(), HandResult(hand_number=1, points=(1, 2, 3, 20)), "Ann") is None
    # A bot that chose for us says the table's figure.
    covered = sm.BotCovered(seq=9, seat=0, played=(), passed=(), moon_choice="add")
    summary = covered_summary(covered, RulesModel(variant="spot", moon="choice"))
    assert summary is not None and "+104" in t.text(summary)
    summary = covered_summary(covered, RulesModel(moon="choice"))
    assert summary is not None and "+26" in t.text(summary)
