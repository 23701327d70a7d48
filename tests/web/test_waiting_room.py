"""The waiting room says what is true of its seats: the host reads that open
seats get Medium bots only while a seat is open, and a bot's level shows
once on its plate (the host's level menu, or a badge for everyone else)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, NewPage

# A four-seat table waiting to start, drawn from a view: Mia hosts at seat
# 0; ``seats`` are the kinds of seats 1 to 3 (bots are Medium); ``me`` is
# the seat the page is (0: the host).
DRAW = """
async ({ seats, me }) => {
  const { buildTable, renderTable } = await import('/js/table.js');
  const { app } = await import('/js/state.js');
  const names = ['Mia', 'Oleg', 'Nina', 'Pavel'];
  const kinds = ['human', ...seats];
  const seat = (i) => ({ seat: i, kind: kinds[i], name: kinds[i] === 'open' ? '' : names[i],
    bot_level: kinds[i] === 'bot' ? 'medium' : null, host: i === 0, connected: true, away: false,
    bot_covering: false, cards_left: 0, points_hand: 0, passed: false, ready: kinds[i] === 'bot' });
  app.view = { table_id: 't-wait', code: 'ABCDEF', name: 'Waiting', public: false,
    rules: { variant: 'standard', players: 4, pass_cycle: ['left'], pass_count: 3, moon: 'add',
             first_trick: 'no_points', queen_breaks_hearts: false, end: 'points', end_at: 100, bonus_card: null },
    seq: 3, seat: me, host_seat: 0, seats: [0, 1, 2, 3].map(seat), status: 'waiting', hand_number: 0,
    phase: null, pass_direction: null, hand: [], passed: [], passed_to: null, received: [],
    received_from: null, received_marked: false, legal: [], turn: null, trick_leader: null, trick: [],
    tricks: [], hearts_broken: false, points_hand: [], totals: [], hands: [], moon_shooter: null,
    winner: null, kicked: [], knocks: [] };
  document.querySelector('#wait-box')?.remove();
  const box = document.createElement('div');
  box.id = 'wait-box';
  document.body.append(box);
  buildTable(box, {});
  renderTable();
}
"""


def draw(page: Page, seats: list[str], me: int = 0) -> None:
    page.evaluate(DRAW, {"seats": seats, "me": me})


def test_the_start_hint_and_the_bot_levels_say_what_is_true(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    hint = page.locator("#wait-box .center-panel .hint:not(.approval-note)")
    draw(page, ["bot", "open", "bot"])
    expect(hint).to_have_text("Empty seats are filled with Medium bots.")
    draw(page, ["bot", "bot", "bot"])
    expect(hint).to_have_text("Every seat is taken: start when you are ready.")
    # The host's plates: the level menu, no badge beside it.
    plate = page.locator('#wait-box .seat[data-seat="1"]')
    expect(plate.locator("select.bot-level")).to_have_value("medium")
    expect(plate.locator(".badge.bot")).to_have_count(0)
    # A guest's: the badge, once.
    draw(page, ["human", "bot", "bot"], me=1)
    plate = page.locator('#wait-box .seat[data-seat="2"]')
    expect(plate.locator(".badge.bot")).to_have_count(1)
    expect(plate.locator("select.bot-level")).to_have_count(0)
