"""Claiming in the browser: with two cards left, the Claim button either
has the hand played out with a banner saying why, or shows the refusal and
leaves the cards to play; over a few hands both are seen."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, NewPage
from .helpers import TABLE, create_table, fast_play, pass_three, play_legal, start, status

RANKS = "23456789TJQKA"


def lowest(cards: list[str]) -> str:
    """The lowest-ranked card, of any suit ("QS": rank Q, spades)."""
    return min(cards, key=lambda card: RANKS.index(card[0]))


def to_last_trick(page: Page, pick: Callable[[list[str]], str] | None) -> None:
    """Play legal cards (``pick``'s, or the first) until our turn with two
    cards left (the Claim button shows from two cards; the last card plays
    itself)."""
    while True:
        page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
        if page.locator(".hand .card").count() == 2:
            return
        play_legal(page, pick)


@pytest.mark.slow
def test_claim_button_plays_out_or_refuses(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    create_table(page, "Claimer", seats=("easy", "easy", "easy"), hands=None)
    fast_play(page)
    start(page)
    outcomes: set[str] = set()
    for _ in range(8):  # hands, until both a claim that held and one refused were seen
        if status(page) != "playing":
            page.click(".next-hand")
        page.wait_for_selector(f'{TABLE}[data-myturn="true"], .center-panel[data-mode="pass"]')
        if page.locator('.center-panel[data-mode="pass"]').count():
            pass_three(page)
        # Keeping the high cards for the end makes a claim that holds likely;
        # once one was seen, the first legal card makes a refusal likely.
        to_last_trick(page, lowest if "held" not in outcomes else None)
        claim = page.locator(".claim-button")
        expect(claim).to_be_visible()
        claim.click()
        page.wait_for_selector(
            f'{TABLE}:not([data-status="playing"]), #toast[data-kind="error"]:visible'
        )
        if status(page) != "playing":
            expect(page.locator(".claim-banner")).to_contain_text("You claimed every trick left")
            outcomes.add("held")
        else:
            expect(page.locator("#toast")).to_contain_text("Your claim does not hold")
            outcomes.add("refused")
            play_legal(page)
        page.wait_for_selector(
            f'{TABLE}[data-status="between_hands"], {TABLE}[data-status="game_over"]'
        )
        if outcomes == {"held", "refused"}:
            break
    assert outcomes == {"held", "refused"}
