"""The lobby does not jump while it loads: its cumulative layout shift (the
browser's own measure, ``layout-shift`` entries) stays below 0.1, the
threshold of a good page, on a phone and on a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import ViewportSize, expect

from .conftest import PHONE, NewPage

# Before any script of the page: add up every shift not caused by input.
MEASURE = """
window.layoutShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) {
      window.layoutShifts.push({
        value: entry.value,
        nodes: entry.sources.map((s) => (s.node && (s.node.id || s.node.className)) || "?"),
      });
    }
  }
}).observe({ type: "layout-shift", buffered: true });
"""
WIDE: ViewportSize = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["390px", "1280px"])
def test_lobby_layout_shift_is_below_a_tenth(new_page: NewPage, viewport: ViewportSize) -> None:
    page = new_page(viewport=viewport)
    page.add_init_script(MEASURE)
    page.goto("/")
    page.wait_for_selector("#lobby")
    expect(page.locator("#conn-status")).to_have_attribute("data-status", "online")
    page.wait_for_load_state("networkidle")
    shifts = page.evaluate("window.layoutShifts")
    total = sum(shift["value"] for shift in shifts)
    assert total < 0.1, shifts
