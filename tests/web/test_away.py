"""Nothing played without you, and told when it was: others see a live
countdown to a bot covering an away player ("away" alone when none runs),
a spectator sees a table with no player present paused, and a player who
comes back after a bot played for them is told what it did."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .conftest import DESKTOP, PHONE, NewPage, shoot
from .helpers import (
    TABLE,
    create_table,
    fast_play,
    hand_cards,
    join_by_link,
    pass_three,
    play_legal,
    start,
)

FRIEND = 1
SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

# Records every number a countdown badge of the left seat shows, in order.
WATCH_COUNTDOWN = """
() => {
  window.countdownSeen = [];
  const note = () => {
    const badge = document.querySelector('.seat[data-pos="left"] .badge.countdown');
    const n = badge ? Number(badge.textContent.match(/\\d+/)[0]) : null;
    const seen = window.countdownSeen;
    if (n !== null && seen[seen.length - 1] !== n) seen.push(n);
  };
  new MutationObserver(note).observe(document.querySelector('.felt'),
    { subtree: true, childList: true, characterData: true });
  note();
}
"""
# The host's page: stop when the friend's seat has played three cards,
# else say whether it is the host's turn.
HOST_OR_ENOUGH = """
() => {
  const left = document.querySelector('.seat[data-pos="left"] .backs > span:last-child');
  if (left && Number(left.textContent) <= 10) return 'enough';
  const t = document.querySelector('#table');
  return t.dataset.myturn === 'true' ? 'host' : false;
}
"""


def short(card: str) -> str:
    """A card as the page writes it: "QS" -> "Q♠", "TD" -> "10♦"."""
    return ("10" if card[0] == "T" else card[0]) + SYMBOL[card[1]]


def come_back(new_page: NewPage, context: BrowserContext) -> Page:
    """Open the site again in the same browser (the saved seat resumes)."""
    page = context.new_page()
    new_page.watch(page)  # type: ignore[attr-defined]
    page.goto("/")
    return page


@pytest.mark.slow
def test_an_away_player_is_counted_down_covered_and_told(new_page: NewPage) -> None:
    host = new_page(viewport=DESKTOP)
    code = create_table(host, "Hana", seats=("open", "easy", "easy"), hands=1)
    friend = new_page(viewport=PHONE)
    join_by_link(friend, code, "Fedir", FRIEND)
    context = friend.context

    # Before the game no bot will cover anyone: "away", no countdown.
    friend.close()
    badge = host.locator('.seat[data-pos="left"] .badge.away')
    expect(badge).to_have_text("away")
    friend = come_back(new_page, context)
    friend.wait_for_selector(f'{TABLE}[data-status="waiting"][data-seat="{FRIEND}"]')
    expect(badge).to_have_count(0)

    fast_play(host)
    fast_play(friend)
    start(host)
    friend.wait_for_selector(f'{TABLE}[data-phase="pass"] #pass-button')
    dealt = hand_cards(friend)
    assert len(dealt) == 13
    pass_three(host)

    # The friend goes away before passing; the host is here, so the grace
    # period (4 s on the test server) counts down, second by second.
    host.evaluate(WATCH_COUNTDOWN)
    friend.close()
    countdown = host.locator('.seat[data-pos="left"] .badge.countdown')
    expect(countdown).to_have_text(re.compile(r"^bot in [0-4] s$"))
    shoot(host, "countdown")
    expect(host.locator('.seat[data-pos="left"] .badge.covering')).to_be_visible(timeout=15_000)
    seen = host.evaluate("() => window.countdownSeen")
    assert len(seen) >= 3, seen
    assert seen == sorted(seen, reverse=True) and len(set(seen)) == len(seen), seen
    assert seen[0] <= 4

    # The bot passes for the friend and plays on while the host plays.
    while host.wait_for_function(HOST_OR_ENOUGH).json_value() == "host":
        play_legal(host)

    friend = come_back(new_page, context)
    friend.wait_for_selector(f'{TABLE}[data-status="playing"][data-seat="{FRIEND}"]')
    report = friend.locator(".bot-report")
    expect(report).to_be_visible()
    text = report.locator("p").inner_text()
    card = "([0-9JQKA]+[♣♦♠♥])"
    said = re.fullmatch(
        rf"While you were away, a bot played (\d+) cards and passed {card}\xa0{card}\xa0{card} for you\.",
        text,
    )
    assert said, text
    held = hand_cards(friend)
    assert int(said[1]) == 13 - len(held) >= 3
    passed = set(said.groups()[1:])
    assert passed <= {short(c) for c in dealt}
    assert not passed & {short(c) for c in held}
    expect(friend.locator("#announcer")).to_contain_text(text)
    expect(host.locator('.seat[data-pos="left"] .badge')).to_have_count(0)
    shoot(friend, "bot-report")
    report.locator("button").click()
    expect(report).to_be_hidden()


def test_a_spectator_sees_a_table_paused_while_its_player_is_away(new_page: NewPage) -> None:
    host = new_page(viewport=DESKTOP)
    code = create_table(host, "Rita", seats=("easy", "easy", "easy"), hands=1)
    fast_play(host)
    start(host)
    host.wait_for_selector(f'{TABLE}[data-phase="pass"] #pass-button')
    dealt = hand_cards(host)

    spectator = new_page(viewport=PHONE)
    spectator.goto(f"/t/{code}")
    spectator.wait_for_selector("#join-form")
    spectator.fill("#player-name", "Sofia")
    spectator.click("#join-form .btn.ghost")
    spectator.wait_for_selector(f'{TABLE}[data-status="playing"][data-seat=""]')
    banner = spectator.locator(".paused-banner")
    expect(banner).to_be_hidden()

    # The only player leaves: the table pauses (no countdown, no bot).
    context = host.context
    host.close()
    expect(banner).to_be_visible()
    expect(banner).to_have_text("Paused: waiting for the players to come back")
    expect(spectator.locator('.seat[data-pos="bottom"] .badge.away')).to_have_text("away")
    expect(spectator.locator(".badge.countdown")).to_have_count(0)
    shoot(spectator, "paused")

    # The player comes back to the hand as it was; nothing to report.
    host = come_back(new_page, context)
    host.wait_for_selector(f'{TABLE}[data-phase="pass"] #pass-button')
    assert hand_cards(host) == dealt
    expect(banner).to_be_hidden()
    expect(host.locator(".bot-report")).to_be_hidden()
    expect(host.locator(".paused-banner")).to_be_hidden()
