"""Rough edges a new player met: Claim is offered only in games whose claims
the server checks (never with two decks, a widow or a stock), and a game's
records asked for before it ends are refused in the player's own words."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, NewPage

# Our turn in the middle of a hand of ``variant``, drawn from a view.
OUR_TURN = """
async (variant) => {
  const { buildTable, renderTable } = await import('/js/table.js');
  const { app } = await import('/js/state.js');
  const seat = (i) => ({ seat: i, kind: i ? 'bot' : 'human', name: ['Mia', 'Igor', 'Olga', 'Taras'][i],
    bot_level: i ? 'medium' : null, host: i === 0, connected: true, away: false, bot_covering: false,
    cards_left: 2, points_hand: 0, passed: false, ready: false });
  app.view = { table_id: `t-${variant}`, code: 'ABCDEF', name: 'Claims', public: false,
    rules: { variant, players: 4, pass_cycle: ['hold'], pass_count: 3, moon: 'add', first_trick: 'no_points',
             queen_breaks_hearts: false, end: 'points', end_at: 100, bonus_card: null },
    seq: 40, seat: 0, host_seat: 0, seats: [0, 1, 2, 3].map(seat), status: 'playing', hand_number: 1,
    phase: 'play', pass_direction: 'hold', hand: ['AS', 'KS'], passed: [], passed_to: null, received: [],
    received_from: null, received_marked: false, legal: ['AS', 'KS'], turn: 0, trick_leader: 0, trick: [],
    tricks: [], hearts_broken: true, points_hand: [0, 0, 0, 0], totals: [0, 0, 0, 0], hands: [],
    moon_shooter: null, winner: null, kicked: [], knocks: [] };
  document.querySelector('#turn-box')?.remove();
  const box = document.createElement('div');
  box.id = 'turn-box';
  document.body.append(box);
  buildTable(box, {});
  renderTable();
}
"""


@pytest.mark.parametrize(
    ("variant", "offered"),
    [
        ("standard", True),
        ("omnibus", True),
        ("widow", False),
        ("domino", False),
        ("cancellation", False),
    ],
)
def test_claim_is_offered_only_where_claims_are_checked(
    new_page: NewPage, variant: str, offered: bool
) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.evaluate(OUR_TURN, variant)
    claim = page.locator("#turn-box .claim-button")
    if offered:
        expect(claim).to_be_visible()
    else:
        expect(claim).to_be_hidden()
    # Hint is there either way: only Claim depends on the game.
    expect(page.locator("#turn-box .hint-button")).to_be_visible()


SENTENCES = """
async () => {
  const { setLanguage, t } = await import('/js/i18n.js');
  const out = {};
  for (const lang of ['en', 'uk', 'ru']) {
    await setLanguage(lang);
    out[lang] = t('error.not_now.records_not_finished');
  }
  await setLanguage('en');
  return out;
}
"""


def test_records_not_finished_is_said_in_each_language(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#lobby")
    said = page.evaluate(SENTENCES)
    assert said == {
        "en": "That game is not finished yet: its records come once it is over.",
        "uk": "Ця гра ще не завершена: її записи будуть, коли вона скінчиться.",
        "ru": "Эта игра ещё не окончена: её записи появятся, когда она закончится.",
    }
