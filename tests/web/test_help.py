"""Help for every control at the table: Rules & FAQ has a section naming
Hint, Undo, Claim, Play forced cards, the replay and Rematch by their own
labels in each language, and the table's ? (a link a finger can use, where
a title shows only under a mouse) opens it at that section; Back returns
to the table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, NewPage
from .helpers import TABLE

LABELS = """
async () => {
  const { setLanguage, t, rulesContent } = await import('/js/i18n.js');
  const out = {};
  for (const lang of ['en', 'uk', 'ru']) {
    await setLanguage(lang);
    const section = rulesContent().sections.find((s) => s.id === 'controls');
    const labels = ['advice.button', 'undo.button', 'claim.button', 'table.autoplay', 'table.fast', 'game.rematch', 'game.continue']
      .map((k) => t(k));
    out[lang] = { items: section ? section.list.length : 0,
      missing: labels.filter((l) => !section || !section.list.some((item) => item.includes(l))) };
  }
  await setLanguage('en');
  return out;
}
"""


def test_rules_explain_every_control_by_its_label(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#lobby")
    said = page.evaluate(LABELS)
    for lang in ("en", "uk", "ru"):
        assert said[lang]["missing"] == [], (lang, said[lang])
        assert said[lang]["items"] >= 7, (lang, said[lang])


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_the_tables_question_mark_opens_the_controls_help(new_page: NewPage, locale: str) -> None:
    page = new_page(viewport=PHONE, locale=locale)
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.click("#quick-play")
    page.wait_for_selector(f'{TABLE}[data-status="playing"][data-phase="pass"]')
    help_link = page.locator(".help-link")
    expect(help_link).to_be_visible()
    box = help_link.bounding_box()
    assert box is not None and box["width"] >= 34 and box["height"] >= 34, box
    help_link.click()
    section = page.locator("#rules-controls")
    expect(section).to_be_visible()
    expect(section).to_be_focused()
    expect(section).to_contain_text(
        page.evaluate("async () => (await import('/js/i18n.js')).t('claim.button')")
    )
    top = section.bounding_box()
    assert top is not None and 0 <= top["y"] < PHONE["height"] / 2, top
    page.go_back()
    expect(page.locator(TABLE)).to_be_visible()
    expect(page.locator(".hand .card")).to_have_count(13)
