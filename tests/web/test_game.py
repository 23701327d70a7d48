"""A whole game against three bots through the page, with the checks that
need a live hand: passing needs exactly three cards, a hatched card cannot be
played, the keyboard works; and the screenshots of the lobby, passing, a
trick and the score table at phone and desktop sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import NewPage, shoot
from .helpers import (
    TABLE,
    WAIT_FOR_US,
    FrameLog,
    card,
    create_table,
    fast_play,
    hand_cards,
    pass_three,
    play_legal,
    start,
    status,
    tap,
)


def check_passing_rules(page: Page) -> None:
    """Pass stays disabled until exactly three cards are chosen; chosen cards
    rise (aria-pressed), a second tap puts one back, a fourth is refused; the
    keyboard chooses too (arrow keys + Enter)."""
    page.wait_for_selector(f'{TABLE}[data-phase="pass"] #pass-button')
    button = page.locator("#pass-button")
    cards = hand_cards(page)
    assert len(cards) == 13
    expect(button).to_be_disabled()
    tap(page, cards[0])
    tap(page, cards[1])
    expect(card(page, cards[0])).to_have_attribute("aria-pressed", "true")
    expect(card(page, cards[0])).to_contain_class("selected")
    expect(button).to_be_disabled()
    tap(page, cards[1])  # a second tap lowers it
    expect(card(page, cards[1])).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".pass-count")).to_contain_text("1 of 3")
    # The keyboard: focus the first card, move right twice, choose with Enter and Space.
    card(page, cards[0]).focus()
    page.keyboard.press("ArrowRight")
    expect(card(page, cards[1])).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    expect(page.locator(".hand .card.selected")).to_have_count(3)
    expect(button).to_be_enabled()
    tap(page, cards[5])  # a fourth card is refused
    expect(page.locator(".hand .card.selected")).to_have_count(3)
    expect(card(page, cards[5])).to_have_attribute("aria-pressed", "false")


def check_illegal_card(page: Page, frames: FrameLog) -> bool:
    """On our turn, tapping a hatched card sends nothing and changes nothing.
    Returns False when every card is playable this turn (try the next)."""
    blocked = page.locator('.hand .card[data-legal="false"]')
    if blocked.count() == 0:
        return False
    text = blocked.first.get_attribute("data-card") or ""
    expect(card(page, text)).to_contain_class("blocked")
    expect(card(page, text)).to_have_attribute("aria-disabled", "true")
    before = hand_cards(page)
    sent = len(frames.sent)
    tap(page, text, force=True)  # force: the page marks it aria-disabled
    expect(page.locator("#toast")).to_be_visible()
    assert hand_cards(page) == before
    assert "play_card" not in frames.types()[sent:]
    expect(page.locator(TABLE)).to_have_attribute("data-myturn", "true")
    return True


@pytest.mark.slow
def test_whole_game_against_three_bots(new_page: NewPage) -> None:
    page = new_page()
    frames = FrameLog(page)
    page.goto("/")
    page.wait_for_selector("#stats dl")
    page.fill("#player-name", "Ann")
    shoot(page, "lobby")

    create_table(page, "Ann", seats=("easy", "medium", "hard"), hands=1)
    expect(page.locator('.seat[data-pos="left"]')).to_contain_text("Easy")
    fast_play(page)
    start(page)

    check_passing_rules(page)
    shoot(page, "passing")
    passed = [
        c
        for c in hand_cards(page)
        if page.get_attribute(f'.hand .card[data-card="{c}"]', "aria-pressed") == "true"
    ]
    page.click("#pass-button")
    page.wait_for_selector(f'{TABLE}[data-phase="play"]')
    assert not set(passed) & set(hand_cards(page))
    # Cards passed to us are marked until the first trick ends.
    expect(page.locator(".hand .card.received")).to_have_count(3)

    illegal_checked = False
    trick_shot = False
    hands_seen = {1}
    while True:
        page.wait_for_selector(WAIT_FOR_US)
        state = status(page)
        if state == "game_over":
            break
        if state == "between_hands":
            page.click(".next-hand")
            page.wait_for_selector(f'{TABLE}[data-status="playing"]')
            hands_seen.add(int(page.get_attribute(TABLE, "data-hand") or 0))
            continue
        phase = page.get_attribute(TABLE, "data-phase")
        if phase == "pass":
            pass_three(page)
            continue
        if phase == "moon_choice":
            page.click(".moon-add")
            continue
        if not illegal_checked:
            illegal_checked = check_illegal_card(page, frames)
        if (
            not trick_shot
            and page.locator(".trick .card").count() >= 2
            and page.locator(".trick-row").count() >= 1
        ):
            shoot(page, "trick")
            trick_shot = True
        play_legal(page)

    assert illegal_checked, "never had a card that could not be played"
    assert trick_shot
    over = page.locator(".over-panel")
    expect(over).to_be_visible()
    expect(over.locator(".winner-line")).not_to_be_empty()
    expect(page.locator(".rematch")).to_be_visible()  # we are the host
    page.click("#tab-scores")
    rows = page.locator(".score-table tbody tr")
    expect(rows).to_have_count(len(hands_seen))
    shoot(page, "score")
    assert frames.types().count("ready") == len(hands_seen) - 1

    # Rematch deals a new game at the same table.
    page.click(".rematch")
    page.wait_for_selector(f'{TABLE}[data-status="playing"][data-hand="1"]')
    expect(page.locator(".hand .card")).to_have_count(13)

    # Leaving mid-game asks first (a bot takes the seat); the lobby then
    # shows the finished game in our statistics.
    page.click(".table-bar .leave")
    expect(page.locator("#confirm")).to_be_visible()
    page.click("#confirm-ok")
    page.wait_for_selector("#lobby #stats dl")
    expect(page.locator(".stat", has_text="Games")).to_contain_text("1")
    expect(page.locator(".resume-banner")).to_have_count(0)
    assert page.evaluate("() => localStorage.getItem('hearts.seat')") is None
