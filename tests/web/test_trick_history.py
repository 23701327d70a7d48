"""The trick history tells who won a trick only once the trick has been
taken: while the finished trick still lies on the table (with its winning
card glowing), "won by you +2" is not written yet."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, NewPage
from .helpers import (
    TABLE,
    WAIT_FOR_US,
    create_table,
    fast_play,
    pass_three,
    play_legal,
    start,
    status,
)

# Every drawing of the table, checked as it happens: while a trick lingers,
# the history has one row fewer than the tricks finished.
WATCH = """
() => {
  window.lingerLog = { seen: 0, early: [] };
  const table = document.querySelector('#table');
  new MutationObserver(() => {
    if (table.dataset.lingering !== 'true') return;
    const finished = Math.floor(Number(table.dataset.played) / Number(table.dataset.seats));
    const rows = document.querySelectorAll('.trick-list .trick-row').length;
    window.lingerLog.seen += 1;
    if (rows !== finished - 1) window.lingerLog.early.push({ finished, rows });
  }).observe(table, { subtree: true, childList: true, attributes: true, characterData: true });
}
"""


@pytest.mark.slow
def test_a_trick_is_won_in_the_history_only_once_it_is_taken(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP, paced=True)
    create_table(page, "Mia", seats=("easy", "easy", "easy"))
    fast_play(page)
    start(page)
    page.evaluate(WATCH)
    while True:
        page.wait_for_selector(WAIT_FOR_US)
        if status(page) != "playing":
            break
        if page.locator(f'{TABLE}[data-phase="pass"] .center-panel[data-mode="pass"]').count():
            pass_three(page)
            continue
        play_legal(page)
    log = page.evaluate("() => window.lingerLog")
    assert log["seen"] > 0, log
    assert log["early"] == [], log
