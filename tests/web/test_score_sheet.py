"""The score table keeps running totals: under each hand's points, the
seat's total after that hand; the last one is the Total row's."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import DESKTOP, NewPage

# A four-seat table between hands, drawn from a view: three hands scored.
DRAW = """
async () => {
  const { buildTable, renderTable } = await import('/js/table.js');
  const { app } = await import('/js/state.js');
  const names = ['Mia', 'Oleg', 'Nina', 'Pavel'];
  const seat = (i) => ({ seat: i, kind: i ? 'bot' : 'human', name: names[i], bot_level: i ? 'easy' : null,
    host: i === 0, connected: true, away: false, bot_covering: false, cards_left: 0, points_hand: 0,
    passed: false, ready: true });
  const hands = [
    { hand_number: 1, points: [3, 10, 13, 0], shooter: null },
    { hand_number: 2, points: [26, 0, 26, 26], shooter: 1, moon_choice: 'add' },
    { hand_number: 3, points: [0, 5, 1, 20], shooter: null },
  ];
  app.view = { table_id: 't-scores', code: 'ABCDEF', name: 'Scores', public: false,
    rules: { variant: 'standard', players: 4, pass_cycle: ['left'], pass_count: 3, moon: 'add',
             first_trick: 'no_points', queen_breaks_hearts: false, end: 'points', end_at: 100, bonus_card: null },
    seq: 200, seat: 0, host_seat: 0, seats: [0, 1, 2, 3].map(seat), status: 'between_hands', hand_number: 3,
    phase: 'done', pass_direction: 'hold', hand: [], passed: [], passed_to: null, received: [],
    received_from: null, received_marked: false, legal: [], turn: null, trick_leader: null, trick: [],
    tricks: [], hearts_broken: true, points_hand: [0, 0, 0, 0], totals: [29, 15, 40, 46], hands,
    moon_shooter: null, winner: null, kicked: [], knocks: [] };
  const box = document.createElement('div');
  box.id = 'score-box';
  document.body.append(box);
  buildTable(box, {});
  renderTable();
}
"""


def test_each_hand_shows_each_seats_running_total(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.evaluate(DRAW)
    page.click("#score-box #tab-scores")
    rows = page.locator("#score-box .score-table tbody tr")
    expect(rows).to_have_count(3)

    def running(row: int, seat: int) -> str:
        cell = rows.nth(row).locator(f'td[data-seat="{seat}"] .running')
        return cell.inner_text()

    assert [running(0, s) for s in range(4)] == ["3", "10", "13", "0"]
    assert [running(1, s) for s in range(4)] == ["29", "10", "39", "26"]
    assert [running(2, s) for s in range(4)] == ["29", "15", "40", "46"]
    totals = page.locator("#score-box .score-table tfoot td").all_inner_texts()
    assert totals == ["29", "15", "40", "46"]  # in play order from seat 0
