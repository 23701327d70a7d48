"""The lobby's public list and join by code, the languages, and the
Rules/FAQ page."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import DESKTOP, NewPage
from .helpers import TABLE, create_table


def test_public_table_is_listed_and_joined_by_code(new_page: NewPage) -> None:
    host = new_page(viewport=DESKTOP)
    code = create_table(host, "Pavlo", seats=("open", "open", "hard"), hands=None, public=True)
    guest = new_page()
    guest.goto("/")
    guest.wait_for_selector("#lobby")
    guest.fill("#player-name", "Olena")
    listed = guest.locator(".public-table", has_text="Pavlo's table")
    expect(listed).to_be_visible()
    expect(listed).to_contain_text("2 open seats")
    # Join by typing the code the way people say it (lower case, with a dash).
    guest.fill("#join-code", f"{code[:3].lower()}-{code[3:].lower()}")
    guest.click(".join-form button[type=submit]")
    guest.wait_for_selector(f'{TABLE}[data-status="waiting"][data-seat="1"]')
    expect(host.locator('.seat[data-pos="left"]')).to_contain_text("Olena")
    # The host controls the other seats: a bot on the last open one, then start.
    host.locator('.seat[data-pos="top"] .add-bot').click()
    expect(host.locator('.seat[data-pos="top"]')).to_contain_text("Medium")
    host.locator('.seat[data-pos="right"] select.bot-level').select_option("easy")
    expect(host.locator('.seat[data-pos="right"]')).to_contain_text("Easy")
    expect(guest.locator('.seat[data-pos="left"]')).to_contain_text("Medium")  # seat 2
    expect(guest.locator('.seat[data-pos="top"]')).to_contain_text("Easy")  # seat 3
    host.click(".start-game")
    guest.wait_for_selector(f'{TABLE}[data-status="playing"][data-phase="pass"]')
    expect(guest.locator(".hand .card")).to_have_count(13)


def test_languages_and_rules_page(new_page: NewPage) -> None:
    page = new_page(locale="uk-UA")
    page.goto("/")
    page.wait_for_selector("#lobby")
    expect(page.locator(".hero h1")).to_have_text("Чирви")
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    page.click("#rules-link")
    rules = page.locator("#rules-page")
    expect(rules).to_be_visible()
    expect(rules).to_contain_text("Дама пік — це чирва?")
    expect(rules).to_contain_text("Як грати на цій сторінці")
    page.select_option("#lang", "ru")
    expect(rules).to_contain_text("Дама пик — это черва?")
    page.reload()
    page.wait_for_selector("#rules-page:not([hidden])")
    expect(page.locator("#rules-page")).to_contain_text("Выстрел в луну")
    page.select_option("#lang", "en")
    expect(page.locator("#rules-page h1")).to_have_text("Hearts: rules and FAQ")
    page.locator("#rules-page details summary", has_text="Is the queen of spades a heart?").click()
    expect(page.locator("#rules-page details[open]")).to_contain_text("She is a spade")
    page.click("#rules-page .rules-head button")
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator(".hero h1")).to_have_text("Hearts")


MOON_VIEW = """
async () => {
  const { buildTable, renderTable } = await import('/js/table.js');
  const { app } = await import('/js/state.js');
  const seat = (i, name) => ({ seat: i, kind: i ? 'bot' : 'human', name, bot_level: i ? 'hard' : null,
    host: i === 0, connected: true, away: false, bot_covering: false, cards_left: 0,
    points_hand: i ? 0 : 26, passed: false, ready: false });
  const view = { table_id: 't1', code: 'ABCDEF', name: 'Moon table', public: false,
    rules: { players: 4, pass_cycle: ['left', 'right', 'across', 'hold'], pass_count: 3, moon: 'choice',
             first_trick: 'no_points', queen_breaks_hearts: false, end: 'points', end_at: 100, bonus_card: null },
    seq: 60, seat: 0, host_seat: 0,
    seats: [seat(0, 'Mia'), seat(1, 'Hard bot'), seat(2, 'Hard bot'), seat(3, 'Hard bot')],
    status: 'playing', hand_number: 1, phase: 'moon_choice', pass_direction: 'left', hand: [],
    passed: [], passed_to: null, received: [], received_from: null, received_marked: false, legal: [],
    turn: null, trick_leader: null, trick: [], tricks: [], hearts_broken: true,
    points_hand: [26, 0, 0, 0], totals: [0, 0, 0, 0], hands: [], moon_shooter: 0, winner: null };
  const box = document.createElement('div');
  document.body.append(box);
  window.moonChoices = [];
  buildTable(box, { moon: (choice) => window.moonChoices.push(choice) });
  app.view = view;
  renderTable();
}
"""


def test_moon_choice_dialog(new_page: NewPage) -> None:
    """The shooter's choice, drawn from a view in moon_choice (a real moon is
    too rare to wait for): both choices are offered and sent."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.evaluate(MOON_VIEW)
    dialog = page.locator(".moon-panel[role=dialog]")
    expect(dialog).to_contain_text("You shot the moon!")
    expect(dialog.locator(".moon-add")).to_have_text("Everyone else +26")
    dialog.locator(".moon-subtract").click()
    assert page.evaluate("() => window.moonChoices") == ["subtract"]


EVERY_STRING = """
async () => {
  const { loadLanguage } = await import('/js/i18n.js');
  const keys = Object.keys((await loadLanguage('en')).strings);
  const missing = {};
  for (const lang of ['uk', 'ru']) {
    const strings = (await loadLanguage(lang)).strings;
    missing[lang] = keys.filter((k) => !(k in strings)
      // Slavic plurals need their own few and many forms.
      || (typeof strings[k] === 'object' && !['one', 'few', 'many', 'other'].every((f) => f in strings[k])));
  }
  return missing;
}
"""

BOT_REPORTS = """
async () => {
  const { setLanguage } = await import('/js/i18n.js');
  const { botReportText } = await import('/js/table.js');
  const reports = [
    { played: ['2C', 'TD', 'QS', 'AH', '3H'], passed: ['QS', 'AH', 'KH'], moon: null },
    { played: ['2C'], passed: [], moon: null },
    { played: [], passed: ['QS', 'AH', 'KH'], moon: null },
    { played: Array(13).fill('2C'), passed: [], moon: 'add' },
  ];
  const out = {};
  for (const lang of ['en', 'uk', 'ru']) {
    await setLanguage(lang);
    out[lang] = reports.map(botReportText);
  }
  await setLanguage('en');
  return out;
}
"""


def test_every_string_is_translated(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#lobby")
    assert page.evaluate(EVERY_STRING) == {"uk": [], "ru": []}


def test_what_a_bot_did_is_said_in_each_language(new_page: NewPage) -> None:
    """Only what the bot did is mentioned, in each language's grammar
    (plurals, lists joined the language's way)."""
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#lobby")
    said = page.evaluate(BOT_REPORTS)
    cards = "Q♠\u00a0A♥\u00a0K♥"
    assert said["en"] == [
        f"While you were away, a bot played 5 cards and passed {cards} for you.",
        "While you were away, a bot played 1 card for you.",
        f"While you were away, a bot passed {cards} for you.",
        "While you were away, a bot played 13 cards and shot the moon (everyone else +26) for you.",
    ]
    assert said["uk"] == [
        f"Поки вас не було, бот замість вас зіграв 5 карт і передав {cards}.",
        "Поки вас не було, бот замість вас зіграв 1 карту.",
        f"Поки вас не було, бот замість вас передав {cards}.",
        "Поки вас не було, бот замість вас зіграв 13 карт і зробив постріл у місяць (іншим +26).",
    ]
    assert said["ru"] == [
        f"Пока вас не было, бот вместо вас сыграл 5 карт и передал {cards}.",
        "Пока вас не было, бот вместо вас сыграл 1 карту.",
        f"Пока вас не было, бот вместо вас передал {cards}.",
        "Пока вас не было, бот вместо вас сыграл 13 карт и выстрелил в луну (остальным +26).",
    ]
