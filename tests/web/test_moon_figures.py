"""Every moon text in the browser says the table's own figures: a moon is
worth the deck's penalties (26; Spot 104, Black Maria 43, Cancellation 52)
and Greek Hearts transfers it from each other seat (docs/rules.md "Moon
scoring, in general"). The host's form (and the Table panel's summary), the
moon dialog, the hint, the report of a bot's moon and the hand's summary,
in English, Ukrainian and Russian. A real moon is too rare to wait for: the
table screens are drawn from views in the moment that shows them."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from engine.rules import Rules
from engine.variants import VARIANTS

from .conftest import DESKTOP, NewPage

# A four-seat table of ``variant`` (moon scoring ``moon``) at ``phase``:
# Mia (seat 0) and three Hard bots (Oleg, Nina, Pavel); Nina (seat 2) shot the moon of a finished hand
# (scored ``choice``) when ``status`` is between_hands.
DRAW_VIEW = """
async ({ variant, moon, status, phase, choice, points, lang }) => {
  const { setLanguage } = await import('/js/i18n.js');
  await setLanguage(lang);
  const { buildTable, renderTable } = await import('/js/table.js');
  const { app } = await import('/js/state.js');
  const seat = (i, name) => ({ seat: i, kind: i ? 'bot' : 'human', name, bot_level: i ? 'hard' : null,
    host: i === 0, connected: true, away: false, bot_covering: false, cards_left: 0,
    points_hand: 0, passed: false, ready: false });
  const view = { table_id: 't-' + variant + status, code: 'ABCDEF', name: 'Moon table', public: false,
    rules: { variant, players: 4, pass_cycle: ['hold'], pass_count: 3, moon,
             first_trick: 'no_points', queen_breaks_hearts: false, end: 'points', end_at: 100, bonus_card: null },
    seq: 60, seat: 0, host_seat: 0,
    seats: [seat(0, 'Mia'), seat(1, 'Oleg'), seat(2, 'Nina'), seat(3, 'Pavel')],
    status, hand_number: 1, phase, pass_direction: 'hold', hand: [],
    passed: [], passed_to: null, received: [], received_from: null, received_marked: false, legal: [],
    turn: null, trick_leader: null, trick: [], tricks: [], hearts_broken: true,
    points_hand: [0, 0, 0, 0], totals: points || [0, 0, 0, 0],
    hands: points ? [{ hand_number: 1, points, shooter: 2, moon_choice: choice }] : [],
    moon_shooter: phase === 'moon_choice' ? 0 : null, winner: null };
  document.querySelector('#moon-box')?.remove();
  const box = document.createElement('div');
  box.id = 'moon-box';
  document.body.append(box);
  window.moonChoices = [];
  buildTable(box, { moon: (c) => window.moonChoices.push(c), hint: async () => ({ kind: 'moon', choice: 'add' }) });
  app.view = view;
  renderTable();
}
"""

BOT_MOONS = """
async (lang) => {
  const { setLanguage } = await import('/js/i18n.js');
  await setLanguage(lang);
  const { botReportText } = await import('/js/table.js');
  const rules = (variant) => ({ variant, players: 4 });
  const out = [
    botReportText({ played: ['2C'], passed: [], moon: 'add', rules: rules('standard') }),
    botReportText({ played: ['2C'], passed: [], moon: 'add', rules: rules('spot') }),
    botReportText({ played: ['2C'], passed: [], moon: 'subtract', rules: rules('spot') }),
    botReportText({ played: ['2C'], passed: [], moon: 'transfer', rules: rules('greek') }),
  ];
  await setLanguage('en');
  return out;
}
"""


def draw(page: Page, variant: str, moon: str, lang: str = "en", **moment: Any) -> None:
    """Draw the table screen of a view (see DRAW_VIEW)."""
    args: dict[str, Any] = {"variant": variant, "moon": moon, "status": "playing", "phase": "play"}
    args.update({"choice": None, "points": None, "lang": lang})
    args.update(moment)
    page.evaluate(DRAW_VIEW, args)


def hand_over(
    page: Page, variant: str, moon: str, choice: str, points: list[int], lang: str = "en"
) -> None:
    """Draw the hand's summary after Nina (seat 2) shot the moon."""
    draw(
        page,
        variant,
        moon,
        lang,
        status="between_hands",
        phase="done",
        choice=choice,
        points=points,
    )


def moon_options(page: Page) -> list[str]:
    options: list[str] = page.locator("#opt-moon option").all_inner_texts()
    return options


def test_the_form_offers_the_variants_moons_with_their_figures(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    assert moon_options(page) == ["Everyone else +26", "Shooter −26", "Shooter chooses"]
    page.select_option("#opt-variant", "spot")
    assert moon_options(page) == ["Everyone else +104", "Shooter −104", "Shooter chooses"]
    page.select_option("#opt-variant", "black_maria")
    assert moon_options(page)[:2] == ["Everyone else +43", "Shooter −43"]
    page.select_option("#opt-variant", "cancellation")
    assert moon_options(page)[:2] == ["Everyone else +52", "Shooter −52"]
    # Greek and Omnibus fix their scoring: shown, not changeable.
    page.select_option("#opt-variant", "greek")
    assert moon_options(page) == ["The shooter takes 26 from each player"]
    expect(page.locator("#opt-moon")).to_be_disabled()
    page.select_option("#opt-variant", "omnibus")
    assert moon_options(page) == ["The jackpot: −26 to the taker"]
    page.select_option("#opt-variant", "domino")
    assert moon_options(page) == ["No moon"]
    # The other languages say the same figures.
    page.select_option("#opt-variant", "spot")
    page.select_option("#lang", "uk")
    # The language loads, then the lobby is drawn again: choose after that.
    page.wait_for_function("() => document.documentElement.lang === 'uk'")
    page.select_option("#opt-variant", "spot")
    assert moon_options(page)[:2] == ["Іншим +104", "Стрілку −104"]
    page.select_option("#lang", "ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    page.select_option("#opt-variant", "spot")
    assert moon_options(page)[:2] == ["Остальным +104", "Стрелку −104"]


def test_the_moon_dialog_and_hint_say_the_tables_figures(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    dialog = page.locator(".moon-panel[role=dialog]")
    for variant, cards, value in (
        ("standard", "every heart and the Q♠", 26),
        ("spot", "all 13 hearts", 104),
        ("cancellation", "every heart and both Q♠", 52),
    ):
        draw(page, variant, "choice", phase="moon_choice")
        expect(dialog).to_contain_text(f"You took {cards}. How should it count?")
        expect(dialog.locator(".moon-add")).to_have_text(f"Everyone else +{value}")
        expect(dialog.locator(".moon-subtract")).to_have_text(f"Me −{value}")
        page.click(".hint-button")
        expect(page.locator(".advice-line")).to_have_text(f"Hint: add {value} to the others")
    dialog.locator(".moon-add").click()
    assert page.evaluate("() => window.moonChoices") == ["add"]
    # The Table panel's summary of the rules says it too.
    page.click("#tab-info")
    expect(page.locator(".rules-list")).to_contain_text("Shooter chooses")
    draw(page, "spot", "add")
    page.click("#tab-info")
    expect(page.locator(".rules-list")).to_contain_text("Shooting the moon: Everyone else +104")
    draw(page, "spot", "choice", phase="moon_choice", lang="uk")
    expect(dialog).to_contain_text("Ви забрали усі 13 чирв.")
    expect(dialog.locator(".moon-add")).to_have_text("Іншим по +104")
    draw(page, "spot", "choice", phase="moon_choice", lang="ru")
    expect(dialog.locator(".moon-subtract")).to_have_text("Мне −104")
    page.evaluate("async () => (await import('/js/i18n.js')).setLanguage('en')")


def test_the_hands_summary_says_how_the_moon_scored(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    line = page.locator(".center-panel .moon-line")
    hand_over(page, "standard", "add", "add", [26, 26, 0, 26])
    expect(line).to_have_text("Nina shot the moon: everyone else +26.")
    hand_over(page, "spot", "choice", "subtract", [0, 0, -104, 0])
    expect(line).to_have_text("Nina shot the moon: the shooter −104.")
    # Greek: each other seat +26, the shooter −26 for each of the three.
    hand_over(page, "greek", "transfer", "transfer", [26, 26, -78, 26])
    expect(line).to_have_text("Nina shot the moon: everyone else +26, the shooter −78.")
    expect(page.locator(".center-panel .result-table")).to_contain_text("-78")
    hand_over(page, "greek", "transfer", "transfer", [26, 26, -78, 26], lang="uk")
    expect(line).to_have_text("Nina: постріл у місяць, іншим по +26, стрілку −78.")
    hand_over(page, "spot", "add", "add", [104, 104, 0, 104], lang="ru")
    expect(line).to_have_text("Nina: выстрел в луну, остальным по +104.")
    page.evaluate("async () => (await import('/js/i18n.js')).setLanguage('en')")


def test_a_bots_moon_is_reported_with_the_tables_figures(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#lobby")
    assert page.evaluate(BOT_MOONS, "en") == [
        "While you were away, a bot played 1 card and shot the moon (everyone else +26) for you.",
        "While you were away, a bot played 1 card and shot the moon (everyone else +104) for you.",
        "While you were away, a bot played 1 card and shot the moon (your score −104) for you.",
        "While you were away, a bot played 1 card and shot the moon"
        " (everyone else +26, your score −78) for you.",
    ]
    uk = page.evaluate(BOT_MOONS, "uk")
    assert uk[1].endswith("зробив постріл у місяць (іншим +104).")
    assert uk[3].endswith("зробив постріл у місяць (іншим по +26, вам −78).")
    ru = page.evaluate(BOT_MOONS, "ru")
    assert ru[2].endswith("выстрелил в луну (вам −104).")
    assert ru[3].endswith("выстрелил в луну (остальным по +26, вам −78).")


def test_the_pages_games_mirror_the_engines(new_page: NewPage) -> None:
    """js/variants.js says what engine/variants.py says: each game's seat
    counts, moon scorings, the moon's value (at every seat count) and
    whether a claim is checked (the page offers Claim only there)."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#lobby")
    games = page.evaluate(
        "async () => (await import('/js/variants.js')).VARIANTS",
    )
    assert list(games) == list(VARIANTS)
    for name, variant in VARIANTS.items():
        game = games[name]
        assert tuple(game["players"]) == variant.players, name
        assert tuple(game["moons"]) == variant.moons, name
        for players in variant.players:
            tables = Rules(variant=name, players=players).tables
            assert game["moonValue"] == tables.moon_value, (name, players)
            # Claim is offered exactly where the server checks claims.
            assert game["claims"] == tables.fast, (name, players)
