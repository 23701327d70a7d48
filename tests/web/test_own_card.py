"""Your own card goes to the table as soon as you choose it: the page moves
it before the server answers (a refusal puts it back), and the pacing of
the bots' cards never holds it. Checked inside the page, at normal and at
fast speed: the card is on the table before the click's event has finished
(the same task of the page, so no answer from the server, nor a bot's card,
can come first). That is an order, not a time: how fast the page draws is
the machine's business, not the test's."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, NewPage
from .helpers import TABLE, WAIT_FOR_US, create_table, fast_play, pass_three, played, status, tap

# Every click on a hand's card is noted (capture phase: before the page's
# own handler runs), and when the click has gone through the page's handler
# (bubbling, its last stop: the window) the card is looked for among the
# page's marks: the page marks the moment it puts a card you chose on the
# table before the server's answer (performance.mark "own-card-on-table";
# a card drawn from the server's snapshot is not marked).
WATCH = """
() => {
  window.ownCard = { checks: [] };
  let click = null;
  document.addEventListener('click', (e) => {
    const c = e.target.closest('.hand .card');
    click = c ? { card: c.dataset.card, at: performance.now() } : null;
  }, true);
  window.addEventListener('click', () => {
    if (!click) return;
    const { card, at } = click;
    const marked = performance.getEntriesByName('own-card-on-table')
      .some((m) => m.detail === card && m.startTime >= at);
    window.ownCard.checks.push({ card, marked });
    click = null;
  });
}
"""

MY_TURN = f'{TABLE}[data-myturn="true"]'


def play_tricks(page: Page, tricks: int) -> int:
    """Play our card in ``tricks`` tricks, each as soon as our turn shows
    (while a bot's card just put down is still on its pause), by a click;
    returns how many cards we clicked."""
    clicked = 0
    while clicked < tricks:
        page.wait_for_selector(WAIT_FOR_US)
        if status(page) != "playing":
            break
        if not page.locator(MY_TURN).count():
            continue
        legal = page.eval_on_selector_all(
            '.hand .card[data-legal="true"]', "els => els.map(e => e.dataset.card)"
        )
        before = played(page)
        tap(page, legal[0])
        clicked += 1
        page.wait_for_function(
            "n => { const t = document.querySelector('#table');"
            " return t.dataset.status !== 'playing' || Number(t.dataset.played) > n; }",
            arg=before,
        )
    return clicked


def test_your_card_is_on_the_table_at_once_at_both_speeds(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    create_table(page, "Olha", seats=("easy", "easy", "easy"), hands=1)
    page.click(".start-game")
    page.wait_for_selector(f'{TABLE}[data-status="playing"]')
    pass_three(page)
    page.evaluate(WATCH)  # the plays' clicks, not the pass's
    normal = play_tricks(page, 3)
    fast_play(page)
    fast = play_tricks(page, 3)
    checks: list[dict[str, Any]] = page.evaluate("() => window.ownCard.checks")
    assert normal == fast == 3
    # Each clicked card was put on the table by the page itself while its
    # click was being handled: before anything the server sent could be.
    assert len(checks) == normal + fast, checks
    assert all(c["marked"] for c in checks), checks


# A four-seat table drawn from a view in the middle of a trick, our turn:
# ``pending`` is the card we sent (app.pending), or null once refused.
DRAW = """
async (pending) => {
  const { buildTable, renderTable } = await import('/js/table.js');
  const { app } = await import('/js/state.js');
  const seat = (i, name) => ({ seat: i, kind: i ? 'bot' : 'human', name, bot_level: i ? 'easy' : null,
    host: i === 0, connected: true, away: false, bot_covering: false, cards_left: 3,
    points_hand: 0, passed: false, ready: false });
  app.view = { table_id: 't-own', code: 'ABCDEF', name: 'Own card', public: false,
    rules: { variant: 'standard', players: 4, pass_cycle: ['hold'], pass_count: 3, moon: 'add',
             first_trick: 'no_points', queen_breaks_hearts: false, end: 'points', end_at: 100, bonus_card: null },
    seq: 9, seat: 0, host_seat: 0,
    seats: [seat(0, 'Mia'), seat(1, 'Oleg'), seat(2, 'Nina'), seat(3, 'Pavel')],
    status: 'playing', hand_number: 1, phase: 'play', pass_direction: 'hold', hand: ['2S', '5S', '9H'],
    passed: [], passed_to: null, received: [], received_from: null, received_marked: false,
    legal: ['2S', '5S'], turn: 0, trick_leader: 2, trick: [{ seat: 2, card: 'KS' }, { seat: 3, card: '3S' }],
    tricks: [], hearts_broken: false, points_hand: [0, 0, 0, 0], totals: [0, 0, 0, 0], hands: [],
    moon_shooter: null, winner: null };
  if (!document.querySelector('#own-box')) {
    const box = document.createElement('div');
    box.id = 'own-box';
    document.body.append(box);
    buildTable(box, {});
  }
  app.pending = pending;
  renderTable();
}
"""


def test_a_refused_card_goes_back_to_the_hand(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    trick = page.locator("#own-box .trick .card")
    hand = page.locator("#own-box .hand .card")
    page.evaluate(DRAW, "5S")
    expect(trick).to_have_count(3)
    expect(page.locator('#own-box .trick .card[data-seat="0"]')).to_have_attribute(
        "data-card", "5S"
    )
    expect(hand).to_have_count(2)
    expect(page.locator('#own-box .hand .card[data-card="5S"]')).to_have_count(0)
    # The server refused it: the page forgets the pending card and draws again.
    page.evaluate(DRAW, None)
    expect(trick).to_have_count(2)
    expect(hand).to_have_count(3)
    expect(page.locator('#own-box .hand .card[data-card="5S"]')).to_have_count(1)
