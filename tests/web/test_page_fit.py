"""Every page fits its screen: the lobby, the new-table form (Omnibus at ten
seats, the widest rule menus), the Rules & FAQ page, the waiting room, the
table (passing and playing, ten seats), the score sheet, the Table panel and the join
screen, in English, Ukrainian and Russian, on a phone (390 px) and a
desktop (1280×800). Nothing may stick out sideways: neither the page (no
sideways scroll) nor anything out of the box that clips it (a hidden card of
the trick history, a menu past its form's edge); the name plates stay
whole inside the felt, and no card of the trick lies on a plate. On a phone a hand's replay link is a finger's
target."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import SCREENSHOTS, NewPage, save_screenshot
from .helpers import TABLE, WAIT_FOR_US, next_hand, pass_three, play_legal, start, status

SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}

# What sticks out, on the page as it is now: the page wider than the
# window, an element past the box that clips it (its nearest ancestor whose
# overflow is not visible, else the window) on the left or the right, and
# a name plate not whole inside the felt. Text cut on purpose with an
# ellipsis is the element's own business and not looked at; neither is
# what screen readers alone get (.sr-only).
SCAN = """
() => {
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1) out.push(`page ${root.scrollWidth} px wide in ${window.innerWidth}`);
  const name = (el) => {
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    const text = (el.textContent || '').trim().slice(0, 40);
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls} "${text}"`;
  };
  const clipper = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') return p;
    }
    return null;
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('.sr-only, .sprite, [hidden], dialog:not([open])')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.position === 'fixed') continue;
    const c = clipper(el);
    const box = c ? c.getBoundingClientRect() : { left: 0, right: window.innerWidth };
    if (r.right > box.right + 1 || r.left < box.left - 1) {
      out.push(`${name(el)} [${Math.round(r.left)}, ${Math.round(r.right)}] outside ${c ? name(c) : 'the window'} [${Math.round(box.left)}, ${Math.round(box.right)}]`);
    }
  }
  const felt = document.querySelector('.felt');
  if (felt) {
    const f = felt.getBoundingClientRect();
    for (const seat of felt.querySelectorAll('.seat:not([hidden])')) {
      const r = seat.getBoundingClientRect();
      if (!r.width) continue;
      if (r.top < f.top - 1 || r.bottom > f.bottom + 1 || r.left < f.left - 1 || r.right > f.right + 1) {
        out.push(`plate ${name(seat)} [${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, ${Math.round(r.bottom)}] cut by the felt [${Math.round(f.left)}, ${Math.round(f.top)}, ${Math.round(f.right)}, ${Math.round(f.bottom)}] in ${window.innerWidth}x${window.innerHeight}`);
      }
    }
  }
  // A card on the table (its name tag with it) never lies under or over a
  // plate once in its place. A card played since the page settled is still
  // flying in from its player's side, from over that player's plate (its
  // first frame even under reduced motion): not yet in its place.
  const plates = [...document.querySelectorAll('.felt .seat:not(.me):not([hidden])')].map((p) => [p, p.getBoundingClientRect()]);
  const flying = (el) => el.closest('.card').getAnimations().some((a) => a.pending || a.playState === 'running');
  for (const card of document.querySelectorAll('.trick .card, .trick .card .played-by')) {
    if (flying(card)) continue;
    const r = card.getBoundingClientRect();
    for (const [plate, p] of plates) {
      if (r.width && p.width && r.left < p.right - 1 && r.right > p.left + 1 && r.top < p.bottom - 1 && r.bottom > p.top + 1) {
        out.push(`${name(card)} [${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, ${Math.round(r.bottom)}] over ${name(plate)} [${Math.round(p.left)}, ${Math.round(p.top)}, ${Math.round(p.right)}, ${Math.round(p.bottom)}]`);
      }
    }
  }
  return out;
}
"""


# The page is laid out at the window's size: the window reports it and, on
# a screen 900 px or wider, the table (when shown) fills the window below
# the 48 px top bar with the felt reaching its foot, as the stylesheet says.
# Seen in about one run in three of the whole suite under load: right after
# a phone-to-desktop resize a frame had the felt 18 px tall (the phone's
# padding) while the window already reported 1280×800; the next frames are
# right. A layout that never comes right still fails here, with what was
# measured.
LAID_OUT = """
([w, h]) => {
  if (window.innerWidth !== w || window.innerHeight !== h) return false;
  const screen = document.querySelector('.table-screen');
  const felt = document.querySelector('.table-screen .felt');
  if (w < 900 || !screen || !felt || !screen.getClientRects().length) return true;
  const s = screen.getBoundingClientRect();
  const f = felt.getBoundingClientRect();
  return Math.abs(s.height - (h - 48)) <= 1 && Math.abs(f.bottom - s.bottom) <= 1;
}
"""

MEASURED = """
() => {
  const box = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return 'none';
    const r = el.getBoundingClientRect();
    return `[${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, ${Math.round(r.bottom)}]`;
  };
  const felt = document.querySelector('.felt');
  const pad = felt ? getComputedStyle(felt).padding : 'none';
  return `window ${innerWidth}x${innerHeight}, scrollY ${scrollY}, table ${box('.table-screen')}, body ${box('.table-body')}, felt ${box('.felt')} padding ${pad}`;
}
"""


def settle(page: Page, viewport: ViewportSize) -> None:
    """Resize the window to ``viewport``, scroll to the top and wait until
    the page is laid out at that size (``LAID_OUT``, checked each frame),
    then two frames more."""
    page.set_viewport_size(viewport)
    page.evaluate("() => window.scrollTo(0, 0)")
    size = [viewport["width"], viewport["height"]]
    try:
        page.wait_for_function(LAID_OUT, arg=size, polling="raf", timeout=10_000)
    except PlaywrightTimeoutError:
        raise AssertionError(f"not laid out at {size} in 10 s: {page.evaluate(MEASURED)}") from None
    # Two frames drawn since: what started with the resize (a trick card's
    # 1 ms fly-in under reduced motion, from its player's side) has ended.
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def fits(page: Page, label: str, found: list[str]) -> None:
    """Scan the page at each size, keeping what sticks out in ``found``,
    then, if screenshots are asked for, take one at each under
    test-artifacts/web/ (after every scan: a whole-page screenshot resizes
    the window for a moment)."""
    original = page.viewport_size
    for size, viewport in SIZES.items():
        settle(page, viewport)
        found.extend(f"{label} at {size}: {problem}" for problem in page.evaluate(SCAN))
    if SCREENSHOTS:
        for size, viewport in SIZES.items():
            settle(page, viewport)
            save_screenshot(page, f"fit-{label}-{size}", full_page=size == "phone")
    if original is not None:
        settle(page, original)


def omnibus_form(page: Page) -> None:
    page.select_option("#opt-variant", "omnibus")
    page.select_option("#opt-players", "10")
    page.select_option("#opt-end", "hands")
    page.fill("#opt-end-hands", "1")
    selects = page.locator(".seat-selects select")
    expect(selects).to_have_count(9)
    for k in range(9):
        selects.nth(k).select_option("medium")


def play_to_the_end(page: Page, found: list[str], lang: str) -> None:
    """Play to the game over, scanning the pass and the play once each (a
    game tied for the lowest score goes on to another hand)."""
    scanned_pass = scanned_play = False
    while True:
        page.wait_for_selector(WAIT_FOR_US)
        state = status(page)
        if state == "game_over":
            return
        if state == "between_hands":
            next_hand(page)
            continue
        if page.locator(f'{TABLE}[data-phase="pass"] .center-panel[data-mode="pass"]').count():
            if not scanned_pass:
                fits(page, f"{lang}-pass", found)
                scanned_pass = True
            pass_three(page)
            continue
        if not scanned_play and page.locator(".trick-row").count():
            fits(page, f"{lang}-play", found)
            scanned_play = True
        play_legal(page)


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
@pytest.mark.slow
def test_every_page_fits_a_phone_and_a_desktop(new_page: NewPage, lang: str) -> None:
    locale = {"en": "en-GB", "uk": "uk-UA", "ru": "ru-RU"}[lang]
    found: list[str] = []
    page = new_page(viewport=SIZES["phone"], locale=locale)
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.fill("#player-name", "Olha Kovalenko")
    fits(page, f"{lang}-lobby", found)
    omnibus_form(page)
    fits(page, f"{lang}-omnibus-form", found)
    page.click("#rules-link")
    expect(page.locator("#rules-page")).to_be_visible()
    fits(page, f"{lang}-rules", found)
    page.click("#rules-page .rules-head button")
    page.wait_for_selector("#lobby")
    omnibus_form(page)
    page.click("#create-table")
    page.wait_for_selector(f'{TABLE}[data-status="waiting"]')
    fits(page, f"{lang}-waiting", found)
    code = page.locator(".big-code").inner_text().replace("-", "")
    start(page)
    play_to_the_end(page, found, lang)
    # The game over as drawn, not the hand's end on its way to it: the
    # table's last frames can still be arriving when the hand ends.
    page.wait_for_selector(f'{TABLE}[data-status="game_over"] .over-panel .accuracy-ask')
    fits(page, f"{lang}-over", found)
    page.click("#tab-scores")
    fits(page, f"{lang}-scores", found)
    # A hand's replay link is a finger's target on a phone, not 10×20 px.
    settle(page, SIZES["phone"])
    link = page.locator(".replay-link").first.bounding_box()
    assert link is not None and link["width"] >= 36 and link["height"] >= 36, link
    page.click("#tab-info")
    fits(page, f"{lang}-info", found)
    page.click("#tab-tricks")
    fits(page, f"{lang}-tricks", found)
    friend = new_page(viewport=SIZES["phone"], locale=locale)
    friend.goto(f"/t/{code}")
    friend.wait_for_selector("#join-form")
    fits(friend, f"{lang}-join", found)
    assert found == [], "\n".join(found)
