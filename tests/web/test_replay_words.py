"""The replay's line of who won a trick agrees with its points: "(1 point)",
never "(1 points)", in English, Ukrainian and Russian."""

from __future__ import annotations

from .conftest import DESKTOP, NewPage

SAY = """
async ([lang, n]) => {
  const { setLanguage, t } = await import('/js/i18n.js');
  await setLanguage(lang);
  const said = t('replay.won', { name: 'Igor', n });
  await setLanguage('en');
  return said;
}
"""


def test_a_replayed_tricks_points_agree_with_their_number(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    said = {
        (lang, n): page.evaluate(SAY, [lang, n]) for lang in ("en", "uk", "ru") for n in (1, 3, 5)
    }
    assert said["en", 1] == "Igor won it (1 point)"
    assert said["en", 5] == "Igor won it (5 points)"
    assert said["uk", 1] == "Забирає Igor (1 очко)"
    assert said["uk", 3] == "Забирає Igor (3 очки)"
    assert said["uk", 5] == "Забирає Igor (5 очок)"
    assert said["ru", 1] == "Забирает Igor (1 очко)"
    assert said["ru", 3] == "Забирает Igor (3 очка)"
    assert said["ru", 5] == "Забирает Igor (5 очков)"
