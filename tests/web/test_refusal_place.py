"""Refusals show where the player looks: at the table a refused card's
reason appears just above the hand (on a desktop and on a phone), and a
claim made takes a refusal still on show off the screen (the claim's
banner says what happened now)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, NewPage
from .helpers import tap_disabled
from .test_own_card import DRAW


def gap_above_hand(page: Page) -> float:
    """How far the toast's bottom is above the hand's top (negative: over it)."""
    gap: float = page.evaluate(
        "() => document.querySelector('#own-box .hand').getBoundingClientRect().top"
        " - document.querySelector('#toast').getBoundingClientRect().bottom"
    )
    return gap


def test_a_refused_card_is_explained_just_above_the_hand(new_page: NewPage) -> None:
    for viewport in (DESKTOP, PHONE):
        page = new_page(viewport=viewport)
        page.goto("/")
        page.wait_for_selector("#lobby")
        page.evaluate(DRAW, None)
        # The table fills the window as the real table screen does (the
        # lobby below would let the page scroll under the fixed toast).
        page.evaluate("() => { document.querySelector('#lobby').hidden = true; }")
        # 9♥ cannot be played (spades were led and we hold some).
        tap_disabled(page.locator('#own-box .hand .card[data-card="9H"]'))
        toast = page.locator("#toast")
        expect(toast).to_contain_text("follow suit")
        # The toast is placed once the hand has its cards back (the refused
        # card returns to it after its move to the table).
        page.wait_for_function(
            "() => { const gap = document.querySelector('#own-box .hand').getBoundingClientRect()"
            ".top - document.querySelector('#toast').getBoundingClientRect().bottom;"
            " return gap >= 0 && gap <= 40; }",
            timeout=5000,
        )
        assert 0 <= gap_above_hand(page) <= 40, viewport


CLAIM = """
async () => {
  const { toast } = await import('/js/dom.js');
  const { claimMade } = await import('/js/claim.js');
  const { seatName } = await import('/js/table.js');
  const { app } = await import('/js/state.js');
  toast('That claim was refused.', 'error');
  const shown = !document.querySelector('#toast').hidden;
  claimMade({ type: 'claim_made', seat: 2, reason: 'top_cards' }, app.view, seatName);
  return [shown, document.querySelector('#toast').hidden];
}
"""


def test_a_claim_made_clears_a_refusal_still_on_show(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.evaluate(DRAW, None)
    assert page.evaluate(CLAIM) == [True, True]
