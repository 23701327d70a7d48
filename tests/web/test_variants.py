"""Tables of other sizes than four and the variants, in the browser: the
host's form offers only what a game allows, a six-seat table puts its five
opponents on the ellipse (a grid on a phone) with every plate on screen and
none over another. (A nine-seat Cancellation table's face-down rest and
second-deck cards are checked in test_variants_live.py, in a real hand.)"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, NewPage, shoot
from .helpers import TABLE, WAIT_FOR_US, fast_play, pass_three, play_legal, start, status


def host_variant(page: Page, name: str, variant: str, players: int, hands: int = 1) -> None:
    """From the lobby: a table of ``players`` seats of ``variant`` with
    Medium bots in every other seat, started."""
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.fill("#player-name", name)
    page.select_option("#opt-variant", variant)
    page.select_option("#opt-players", str(players))
    page.select_option("#opt-end", "hands")
    page.fill("#opt-end-hands", str(hands))
    selects = page.locator(".seat-selects select")
    expect(selects).to_have_count(players - 1)
    for k in range(players - 1):
        selects.nth(k).select_option("medium")
    page.click("#create-table")
    page.wait_for_selector(f'{TABLE}[data-status="waiting"]')
    expect(page.locator(TABLE)).to_have_attribute("data-seats", str(players))
    start(page)


def plates_apart(page: Page) -> list[dict[str, float]]:
    """The opponents' plates' boxes; asserts each is on screen, inside the
    viewport's width, and that no two overlap."""
    boxes: list[dict[str, float]] = page.eval_on_selector_all(
        ".ring-seats .seat",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, w: r.width, h: r.height}; })",
    )
    width = page.viewport_size["width"] if page.viewport_size else 0
    for b in boxes:
        assert b["w"] > 40 and b["h"] > 20 and b["x"] >= 0 and b["x"] + b["w"] <= width + 0.5, b
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["x"] + a["w"] <= b["x"] + 0.5
                or b["x"] + b["w"] <= a["x"] + 0.5
                or a["y"] + a["h"] <= b["y"] + 0.5
                or b["y"] + b["h"] <= a["y"] + 0.5
            )
            assert apart, (a, b)
    return boxes


def test_the_form_offers_only_what_a_game_allows(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    players = page.locator("#opt-players")
    expect(players).to_have_value("4")
    expect(page.locator(".seat-selects select")).to_have_count(3)
    # Black Maria is three players: the count is shown, not changeable.
    page.select_option("#opt-variant", "black_maria")
    expect(players).to_have_value("3")
    expect(players).to_be_disabled()
    expect(page.locator(".seat-selects select")).to_have_count(2)
    expect(page.locator("#opt-bonus")).to_be_disabled()
    # Cancellation: 7 to 10 players, no passing, only hearts banned first.
    page.select_option("#opt-variant", "cancellation")
    assert players.locator("option").all_inner_texts() == [f"{n} players" for n in (7, 8, 9, 10)]
    expect(players).to_have_value("8")
    expect(page.locator("#opt-pass")).to_be_disabled()
    expect(page.locator("#opt-pass")).to_have_value("none")
    expect(page.locator("#opt-first option")).to_have_count(2)
    # The standard game at five: nobody is across.
    page.select_option("#opt-variant", "standard")
    page.select_option("#opt-players", "5")
    values = page.locator("#opt-pass option").evaluate_all("os => os.map(o => o.value)")
    assert "lrah" not in values and values[0] == "lrh"
    expect(page.locator(".seat-selects select")).to_have_count(4)
    expect(page.locator("#opt-variant-hint")).to_contain_text("3 to 10 players")


def test_six_seats_sit_round_the_table_and_play(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    host_variant(page, "Olena", "standard", 6)
    fast_play(page)
    pass_three(page)
    for viewport in (
        DESKTOP,
        {"width": 1920, "height": 1080},
        {"width": 1366, "height": 768},
        PHONE,
    ):
        page.set_viewport_size(viewport)  # type: ignore[arg-type]
        expect(page.locator(".ring-seats .seat")).to_have_count(5)
        plates_apart(page)
    page.set_viewport_size(DESKTOP)
    # Each bot has the name the server gave it, different from the others'.
    view = page.evaluate("async () => (await import('/js/state.js')).app.view")
    plates = page.locator(".ring-seats .seat .seat-name").all_inner_texts()
    n = len(view["seats"])
    assert plates == [view["seats"][(view["seat"] + k) % n]["name"] for k in range(1, n)]
    assert len(set(plates)) == n - 1
    # The whole hand (8 cards each) plays out, every seat taking its turn.
    while status(page) == "playing":
        page.wait_for_selector(WAIT_FOR_US)
        if status(page) != "playing":
            break
        play_legal(page)
    # The hand's result (a tie for the lowest total plays one more hand):
    # a row per seat.
    page.wait_for_selector(
        f'{TABLE}[data-status="between_hands"], {TABLE}[data-status="game_over"]'
    )
    expect(page.locator(".center-panel .result-table tbody tr")).to_have_count(6)
    shoot(page, "six-seats-over")
