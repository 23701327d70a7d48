"""The browser's hand review of a real widow hand with a moon: the hand is
played on a real server by wire clients (tests/server/moon_widow_hand.py:
seat 0 takes the widow, discards three cards and shoots the moon, scoring
it as "subtract"); the page then comes back to seat 0 with its tokens, as a
reload does, opens hand 1's replay and asks for the review. Its head names
the discard and the moon choice the seat made, each with the verdict of the
server's reply: the better option, the points lost and the label, or "the
best choice"."""

from __future__ import annotations

import asyncio
import math
from concurrent.futures import Future
from typing import Any

import pytest
from playwright.sync_api import expect

from protocol import client_messages as cm
from tests.server.moon_widow_hand import SEED, SHOOTER, PlayedHand, play_moon_widow_hand

from .conftest import DESKTOP, NewPage, ServerThread, StartServer, shoot
from .helpers import TABLE, FrameLog, wait_until

pytestmark = pytest.mark.browser

WORLDS = 12
# Reviews run in the bot workers: how long the page may say "reviewing…".
REVIEWED = 90_000
RANKS = {"2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
         "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}  # fmt: skip
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
MOON = {"add": "everyone else +26", "subtract": "the shooter −26"}
LABELS = {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}


def names(cards: list[str]) -> str:
    """Cards as the English page names them ("Three of clubs, Ace of hearts")."""
    return ", ".join(f"{RANKS[c[0]]} of {SUITS[c[1]]}" for c in cards)


def play_on(runner: ServerThread) -> PlayedHand:
    """Play the seeded hand on ``runner``'s server, from its own event loop;
    seat 0's client is closed after (the page takes the seat over)."""

    async def play() -> PlayedHand:
        played = await play_moon_widow_hand(runner.url.replace("http://", "ws://") + "/ws")
        await played.close_all()
        return played

    future: Future[PlayedHand] = asyncio.run_coroutine_threadsafe(play(), runner.loop)
    return future.result(timeout=120)


def test_the_review_of_a_widow_hand_names_the_discard_and_the_moon_choice(
    new_page: NewPage, start_server: StartServer
) -> None:
    runner = start_server(0, analysis_worlds=WORLDS, table_seed=SEED, tables_burst_per_address=0)
    played = play_on(runner)
    host = played.host
    assert host.view.widow_seat == SHOOTER and host.view.hands[0].shooter == SHOOTER
    discard = next(r for r in played.requests if isinstance(r, cm.DiscardWidow))
    moon = next(r for r in played.requests if isinstance(r, cm.MoonChoice))

    # The page is seat 0's player: its tokens in localStorage, as the page
    # keeps them itself (storage.js), then the site opened again.
    page = new_page(viewport=DESKTOP, server_url=runner.url)
    frames = FrameLog(page)
    page.goto("/")
    page.wait_for_selector("#lobby")
    saved = {
        "hearts.player": {"token": host.player_token, "name": host.name},
        "hearts.seat": {
            "table_id": host.table_id,
            "code": host.code,
            "seat": SHOOTER,
            "seat_token": host.seat_token,
            "last_seq": 0,
        },
    }
    page.evaluate(
        "saved => { for (const [k, v] of Object.entries(saved)) localStorage.setItem(k, JSON.stringify(v)); }",
        saved,
    )
    page.goto("/")
    page.wait_for_selector(f'{TABLE}[data-status="game_over"][data-seat="{SHOOTER}"]')

    page.click("#tab-scores")
    page.click('.replay-link[data-hand="1"]')
    dialog = page.locator("dialog.replay")
    expect(dialog.locator("h2")).to_have_text("Hand 1")
    dialog.locator(".review-ask").click()
    head = dialog.locator(".review-head")
    expect(head.locator(".review-accuracy")).to_have_count(1, timeout=REVIEWED)
    wait_until(page, lambda: any(m.get("type") == "analysis" for m in frames.received))
    reply: dict[str, Any] = next(m for m in frames.received if m.get("type") == "analysis")
    judged = {d["kind"]: d for d in reply["decisions"] if d["kind"] != "play"}
    assert set(judged) == {"discard", "moon_choice"}
    # Every trick has its step in the strip: 16 cards each at three seats.
    expect(dialog.locator(".review-step")).to_have_count(16)

    # The discard: the three cards the seat put down, then the verdict.
    line = head.locator('.review-decision[data-kind="discard"]')
    expect(line).to_have_count(1)
    assert set(judged["discard"]["chosen"]) == set(discard.cards)
    expect(line.locator(".review-chosen")).to_have_text(
        f"You discarded {names(judged['discard']['chosen'])}"
    )
    verdict(line, judged["discard"], names(judged["discard"]["best"] or []))

    # The moon: "subtract" as chosen, then its verdict.
    line = head.locator('.review-decision[data-kind="moon_choice"]')
    expect(line).to_have_count(1)
    assert judged["moon_choice"]["chosen"] == [moon.choice]
    expect(line.locator(".review-chosen")).to_have_text(
        f"You scored the moon as {MOON[moon.choice]}"
    )
    verdict(line, judged["moon_choice"], MOON.get((judged["moon_choice"]["best"] or [""])[0], ""))
    shoot(page, "review-moon-widow")


def verdict(line: Any, decision: dict[str, Any], better: str) -> None:
    """The line says the reply's verdict: the better option, the points
    lost and the label when the choice lost ground, else the best choice."""
    label = decision["label"]
    expect(line).to_have_attribute("data-label", label or "none")
    if decision["loss"]:
        expect(line.locator(".review-better")).to_have_text(f"better: {better}")
        # Rounded to hundredths as review.js does (Math.round), no trailing 0.
        n = math.floor(decision["loss"] * 100 + 0.5) / 100
        lost = f"{n:.2f}".rstrip("0").rstrip(".")
        expect(line.locator(".review-loss")).to_have_text(
            f"{lost} point lost" if n == 1 else f"{lost} points lost"
        )
    else:
        expect(line.locator(".review-best")).to_have_text("the best choice")
        expect(line.locator(".review-better")).to_have_count(0)
    if label:
        expect(line.locator(".review-label")).to_have_text(LABELS[label])
    else:
        expect(line.locator(".review-label")).to_have_count(0)
