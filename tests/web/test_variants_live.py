"""The variants' own moments in the browser, reached by real play on a real
server: the widow taken and discarded, Domino Hearts' draws and a seat
dropping out, a Cancellation trick cancelled and carried to the next
trick's winner; and on the way, each trick card naming who played it, at
phone and desktop sizes, at four seats and at nine.

Each test runs a server of its own whose tables all get one seed
(``ServerConfig.table_seed``): the deal and the Easy bots' choices follow
from it, and the human plays a fixed policy (a card chosen by its place in
the hand), so the moment each test needs comes early, every run. Each seed
was picked by ``python -m tests.web.variant_seeds GAME FIRST LAST``, which
plays seeds through the server with the same policy; if a change of the
bots or the deal moves the moment, the test says which seed no longer
gives it, and that command finds another. What the page shows is checked against the snapshots
the server sent (the server's truth for that seat)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, NewPage, ServerThread, StartServer
from .helpers import TABLE, FrameLog, fast_play, hand_cards, play_legal, start, status, tap
from .test_variants import plates_apart
from .variant_seeds import page_order

# The seeds (see the module's docstring): what each gives, with Easy bots.
WIDOW_SEED = 1  # 4 seats, no passing: our highest club wins the first trick
DOMINO_SEED = 1  # 3 seats: we draw and seat 1 drops out within 5 tricks
CANCELLATION_SEED = 182  # 9 seats: trick 3 cancels to no winner, trick 4 takes it


def seeded(start_server: StartServer, seed: int) -> ServerThread:
    """A server of the test's own whose every table has seed ``seed`` (a
    test asks for ``start_server`` before ``new_page``, so its pages close
    before the server stops and never see it refuse them)."""
    return start_server(0, table_seed=seed)


# Keeps every line the page says to screen readers (its log region drops
# old lines) in ``window.said``.
KEEP_SAID = """
window.said = [];
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes) window.said.push(n.textContent);
  }).observe(document.getElementById('announcer'), { childList: true });
});
"""


def said(page: Page) -> list[str]:
    """Every line announced so far (see KEEP_SAID)."""
    lines: list[str] = page.evaluate("() => window.said")
    return lines


def host(page: Page, variant: str, players: int, no_passing: bool = False) -> None:
    """From the lobby: ``variant`` at ``players`` seats, Easy bots in every
    other seat, one hand, Fast play on; started."""
    page.add_init_script(KEEP_SAID)
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.fill("#player-name", "Olena")
    page.select_option("#opt-variant", variant)
    page.select_option("#opt-players", str(players))
    if no_passing:
        page.select_option("#opt-pass", "none")
    page.select_option("#opt-end", "hands")
    page.fill("#opt-end-hands", "1")
    selects = page.locator(".seat-selects select")
    expect(selects).to_have_count(players - 1)
    for k in range(players - 1):
        selects.nth(k).select_option("easy")
    page.click("#create-table")
    page.wait_for_selector(f'{TABLE}[data-status="waiting"]')
    start(page)
    fast_play(page)


def latest_view(log: FrameLog) -> dict[str, Any]:
    """The view of the last snapshot the page received."""
    for msg in reversed(log.received):
        if msg.get("type") == "snapshot":
            view: dict[str, Any] = msg["view"]
            return view
    raise AssertionError("no snapshot received")


def wait_for_us(page: Page) -> None:
    """Until it is our turn to play or the hand is over (the server then
    waits for us: the page shows its latest snapshot)."""
    page.wait_for_selector(f'{TABLE}[data-myturn="true"], {TABLE}:not([data-status="playing"])')


def tap_last_legal(page: Page) -> str:
    """On our turn: play the last playable card in hand order (in a suit
    led, our highest)."""
    wait_for_us(page)
    legal: list[str] = page.eval_on_selector_all(
        '.hand .card[data-legal="true"]', "els => els.map(e => e.dataset.card)"
    )
    tap(page, legal[-1])
    return legal[-1]


def trick_labels_readable(page: Page, names: dict[int, str]) -> int:
    """Every card of the trick on show carries the name of the seat that
    played it (``names``: seat -> name), whole, at a readable size, on
    screen and not hidden under another card; returns how many cards.

    Measured once the trick's cards have landed: a card just put down
    starts its fly-in (1 ms with reduced motion, but from the next frame
    drawn, and a loaded machine draws late), and until then it lies
    shifted towards its player, over a neighbour's tag."""
    page.evaluate(
        """() => Promise.all(document.querySelector('.trick').getAnimations({ subtree: true })
              .map((a) => a.finished.catch(() => null)))
           .then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))"""
    )
    tags: list[dict[str, Any]] = page.eval_on_selector_all(
        ".trick .card",
        """cards => cards.map(card => {
          const tag = card.querySelector('.played-by');
          const r = tag.getBoundingClientRect();
          const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return { seat: Number(card.dataset.seat), text: tag.textContent,
                   whole: tag.scrollWidth <= tag.clientWidth,
                   size: parseFloat(getComputedStyle(tag).fontSize),
                   x: r.x, y: r.y, w: r.width, h: r.height,
                   onTop: Boolean(top && top.closest('.played-by') === tag) };
        })""",
    )
    size = page.viewport_size or PHONE
    assert tags, "no trick on show"
    for tag in tags:
        assert tag["text"] == names[tag["seat"]], tag
        assert tag["whole"] and tag["size"] >= 11, tag
        assert tag["x"] >= 0 and tag["x"] + tag["w"] <= size["width"], tag
        assert tag["y"] >= 0 and tag["y"] + tag["h"] <= size["height"] * 2, tag
        assert tag["onTop"], tag
    return len(tags)


def seat_names(page: Page, view: dict[str, Any]) -> dict[int, str]:
    """What the page calls each seat: your name, or the name on its plate."""
    names = {view["seat"]: view["seats"][view["seat"]]["name"]}
    for seat in range(len(view["seats"])):
        if seat != view["seat"]:
            names[seat] = page.locator(f'.seat[data-seat="{seat}"] .seat-name').inner_text()
    return names


def labels_at_both_sizes(page: Page, view: dict[str, Any]) -> None:
    """The trick's name tags at a phone's size and a desktop's."""
    names = seat_names(page, view)
    original = page.viewport_size
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.locator(".trick").scroll_into_view_if_needed()
        assert trick_labels_readable(page, names) == len(view["trick"])
    if original:
        page.set_viewport_size(original)


def test_the_widow_is_taken_and_discarded_by_keyboard_and_click(
    start_server: StartServer, new_page: NewPage
) -> None:
    srv = seeded(start_server, WIDOW_SEED)
    page = new_page(viewport=DESKTOP, server_url=srv.url)
    log = FrameLog(page)
    host(page, "widow", 4, no_passing=True)
    wait_for_us(page)
    view = latest_view(log)
    # 2♠ out, 12 each, 3 face down: the pill says what the server says.
    assert view["stock_count"] == 3 and len(view["hand"]) == 12
    expect(page.locator(".pill.stock")).to_have_text("Widow: 3 cards")
    # Four seats: the cards already played name their players.
    assert view["trick"], f"seed {WIDOW_SEED}: we no longer follow in the first trick"
    labels_at_both_sizes(page, view)
    tap_last_legal(page)
    # We win the first trick and take the widow: the discard step.
    page.wait_for_selector(f'{TABLE}[data-phase="widow"] .center-panel[data-mode="discard"]')
    view = latest_view(log)
    assert view["widow_seat"] == view["seat"], f"seed {WIDOW_SEED}: we no longer take the widow"
    widow = view["widow"]
    assert len(widow) == 3 and all(c in view["hand"] for c in widow)
    # The widow's cards, named as the page names cards, in hand order.
    suit = {"C": "♣", "D": "♦", "S": "♠", "H": "♥"}
    named = [c[0].replace("T", "10") + suit[c[1]] for c in page_order(widow)]
    expect(page.locator(".widow-panel .pass-text")).to_contain_text(
        f"You took the widow ({' '.join(named)}): choose 3 cards"
    )
    expect(page.locator(".hand .card")).to_have_count(len(view["hand"]))
    discard = page.locator("#pass-button")
    expect(discard).to_be_disabled()
    # Two cards by keyboard (the hand is one tab stop; arrows move, Space
    # chooses), the third by a click.
    cards = hand_cards(page)
    page.locator('.hand .card[tabindex="0"]').focus()
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    chosen = cards[:2]
    for text in chosen:
        expect(page.locator(f'.hand .card[data-card="{text}"]')).to_have_attribute(
            "aria-pressed", "true"
        )
    expect(discard).to_be_disabled()
    tap(page, cards[-1])
    chosen.append(cards[-1])
    expect(page.locator(".widow-panel .pass-count")).to_contain_text("3")
    expect(discard).to_be_enabled()
    discard.click()
    # The server took exactly those: they left the hand, face down on our pile.
    page.wait_for_selector(f'{TABLE}:not([data-phase="widow"])')
    view = latest_view(log)
    assert sorted(view["discarded"]) == sorted(chosen)
    assert not set(chosen) & set(view["hand"]) and len(view["hand"]) == 11
    assert view["seats"][view["seat"]]["hidden_taken"] == 3
    assert log.types().count("discard") == 1
    assert sorted(hand_cards(page)) == sorted(view["hand"])
    expect(page.locator(".seat.me .hidden-taken")).to_have_text("3 face down")
    expect(page.locator(".pill.stock")).to_be_hidden()
    # We lead the second trick.
    expect(page.locator(TABLE)).to_have_attribute("data-myturn", "true")
    # The log speaks of us in sentences of our own.
    lines = said(page)
    assert "You take the widow, 3 cards." in lines and "You put 3 cards face down." in lines
    assert not [line for line in lines if line.startswith(("You takes", "You puts"))], lines


def test_domino_draws_from_the_stock_and_a_seat_drops_out(
    start_server: StartServer, new_page: NewPage
) -> None:
    srv = seeded(start_server, DOMINO_SEED)
    page = new_page(viewport=DESKTOP, server_url=srv.url)
    log = FrameLog(page)
    host(page, "domino", 3)
    wait_for_us(page)
    view = latest_view(log)
    # 6 cards each, the other 34 the stock.
    assert view["stock_count"] == 34 and len(view["hand"]) == 6
    expect(page.locator(".pill.stock")).to_have_text("Stock: 34 cards")
    me = view["seat"]
    # Play our first playable card each turn until we have drawn and a seat
    # is out; at each of our turns the page shows what the server says.
    for _ in range(12):
        wait_for_us(page)
        assert status(page) == "playing", f"seed {DOMINO_SEED}: the hand ended first"
        view = latest_view(log)
        expect(page.locator(".pill.stock")).to_have_text(f"Stock: {view['stock_count']} cards")
        assert sorted(hand_cards(page)) == sorted(view["hand"])
        for seat in view["seats"]:
            plate = page.locator(f'.seat[data-seat="{seat["seat"]}"]')
            drew = plate.locator(".drawn")
            if seat["drawn"]:
                expect(drew).to_have_text(f"drew {seat['drawn']}")
            else:
                expect(drew).to_have_count(0)
            if seat["out"]:
                expect(plate).to_have_class(re.compile(r"\bout\b"))
                expect(plate.locator(".badge.out")).to_have_text("out")
            else:
                expect(plate.locator(".badge.out")).to_have_count(0)
        out = [s["seat"] for s in view["seats"] if s["out"]]
        if view["seats"][me]["drawn"] and out:
            break
        play_legal(page)
    else:
        raise AssertionError(f"seed {DOMINO_SEED}: no draw and drop-out within 12 turns")
    lines = said(page)
    assert any(line.startswith("You draw ") for line in lines), lines
    names = seat_names(page, view)
    for seat in out:
        assert f"{names[seat]} has no cards left and is out." in lines, lines
    assert not [line for line in lines if line.startswith("You draws")], lines
    # The cards we drew came from the stock: 34 less what every seat drew.
    assert view["stock_count"] == 34 - sum(s["drawn"] for s in view["seats"])
    # A seat that is out plays no more: its plate shows no cards.
    for seat in out:
        assert view["seats"][seat]["cards_left"] == 0
        expect(page.locator(f'.seat[data-seat="{seat}"] .backs .count')).to_have_text("0")


@pytest.mark.slow
def test_cancellation_cancels_a_trick_and_carries_it_to_the_next_winner(
    start_server: StartServer, new_page: NewPage
) -> None:
    srv = seeded(start_server, CANCELLATION_SEED)
    page = new_page(viewport=DESKTOP, server_url=srv.url)
    log = FrameLog(page)
    host(page, "cancellation", 9)
    wait_for_us(page)
    view = latest_view(log)
    # 104 cards, 11 each, 5 face down.
    assert view["stock_count"] == 5 and len(view["hand"]) == 11
    expect(page.locator(".pill.stock")).to_have_text("5 cards face down")
    # The second deck's copies are marked (a small ², and in their names).
    seconds = [c for c in view["hand"] if len(c) == 3]
    assert seconds, f"seed {CANCELLATION_SEED}: no second-deck card in our hand"
    expect(page.locator(".hand .card .copy2")).to_have_count(len(seconds))
    for c in seconds:
        expect(page.locator(f'.hand .card[data-card="{c}"]')).to_have_attribute(
            "aria-label", re.compile(r"\(second deck\)")
        )
    # Eight opponents' plates, all on screen and apart, desktop and phone.
    expect(page.locator(".ring-seats .seat")).to_have_count(8)
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        plates_apart(page)
    page.set_viewport_size(DESKTOP)
    # Nine seats: the cards already played name their players.
    assert view["trick"], f"seed {CANCELLATION_SEED}: we no longer follow in the first trick"
    labels_at_both_sizes(page, view)
    carried_at = None
    saw_waiting = False
    fullest = len(view["trick"])
    struck_live = False
    for _ in range(11):
        wait_for_us(page)
        assert status(page) == "playing", f"seed {CANCELLATION_SEED}: the hand ended first"
        view = latest_view(log)
        on_table = [pc["card"][:2] for pc in view["trick"]]
        twins = [pc["card"] for pc in view["trick"] if on_table.count(pc["card"][:2]) > 1]
        if twins and not struck_live:
            # Identical cards in the trick on the table: struck through there.
            struck_live = True
            struck = page.locator(".trick .card.cancelled")
            expect(struck).to_have_count(len(twins))
            for card in twins:
                expect(page.locator(f'.trick .card[data-card="{card}"]')).to_have_attribute(
                    "aria-label", re.compile(r", cancelled$")
                )
        if len(view["trick"]) > max(fullest, 5):
            # A trick of six cards or more round the ring: still every tag shows.
            fullest = len(view["trick"])
            labels_at_both_sizes(page, view)
        tricks = view["tricks"]
        carried_at = next((k for k, tr in enumerate(tricks) if tr["winner"] is None), None)
        if carried_at is not None and len(tricks) > carried_at + 1:
            break
        if carried_at is not None:
            # The carried trick waits: the pill counts its cards, the trick
            # list marks it.
            waiting = view["carried"]
            assert len(waiting) == len(tricks[carried_at]["cards"])
            expect(page.locator(".pill.carried")).to_have_text(
                f"{len(waiting)} carried cards wait for the next trick's winner"
            )
            page.click("#tab-tricks")
            row = page.locator(".trick-row").nth(carried_at)
            expect(row.locator(".won.carried")).to_have_text(
                "carried: nothing of the led suit stood"
            )
            struck = row.locator(".mini.cancelled")
            expect(struck).to_have_count(len(tricks[carried_at]["cancelled"]))
            saw_waiting = True
        play_legal(page)
    assert carried_at is not None and len(view["tricks"]) > carried_at + 1, (
        f"seed {CANCELLATION_SEED}: no carried trick within 11 turns"
    )
    assert saw_waiting, "we had no turn while the carried trick waited"
    assert fullest > 5, f"seed {CANCELLATION_SEED}: we never played sixth or later in a trick"
    assert struck_live, f"seed {CANCELLATION_SEED}: no identical cards on the table at our turn"
    carried = view["tricks"][carried_at]
    taker = view["tricks"][carried_at + 1]
    # The server's truth: every card of the led suit cancelled, nobody won
    # it, and the next trick's winner took its cards with their own.
    assert carried["winner"] is None and taker["winner"] is not None
    assert sorted(taker["carried_in"]) == sorted(pc["card"] for pc in carried["cards"])
    assert not view["carried"]
    page.click("#tab-tricks")
    rows = page.locator(".trick-row")
    expect(rows).to_have_count(len(view["tricks"]))
    expect(rows.nth(carried_at).locator(".won.carried")).to_be_visible()
    expect(rows.nth(carried_at).locator(".mini.cancelled")).to_have_count(len(carried["cancelled"]))
    expect(rows.nth(carried_at + 1).locator(".carried-in")).to_have_text(
        f"+{len(taker['carried_in'])} carried"
    )
    expect(page.locator(".pill.carried")).to_be_hidden()
