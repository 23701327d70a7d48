"""Card names in Ukrainian and Russian take the grammatical case their
sentence needs: every rank has its own nominative, accusative and genitive
form (the language modules' ``terms``), and a template names the case it
wants ("зіграйте {card:acc}"), so a hint says "зіграйте короля бубон",
never "зіграйте Король бубон"."""

from __future__ import annotations

from .conftest import NewPage

SAID = """
async () => {
  const { setLanguage, t } = await import('/js/i18n.js');
  const { cardName, cardTerm, cardsTerm } = await import('/js/cards.js');
  const out = {};
  for (const lang of ['en', 'uk', 'ru']) {
    await setLanguage(lang);
    out[lang] = {
      name: cardName('KD'),
      play: t('advice.play', { card: cardTerm('KD') }),
      pass: t('advice.pass', { cards: cardsTerm(['QS', 'AH', 'TD']) }),
      selected: t('announce.selected', { card: cardTerm('QS'), n: 1 }),
      received: t('announce.received', { cards: cardsTerm(['JC', '2H']), name: 'Igor' }),
      second: cardTerm('QS2').acc ?? cardTerm('QS2').nom,
    };
  }
  await setLanguage('en');
  return out;
}
"""

# Every placeholder with a case in every language's strings, and the cases
# every rank and suit of that language has.
CASES = """
async () => {
  const { loadLanguage } = await import('/js/i18n.js');
  const out = {};
  for (const lang of ['en', 'uk', 'ru']) {
    const { strings, terms } = await loadLanguage(lang);
    const texts = Object.values(strings).flatMap((v) => (typeof v === 'object' ? Object.values(v) : [v]));
    const asked = new Set(texts.flatMap((s) => [...s.matchAll(/\\{\\w+:(\\w+)\\}/g)].map((m) => m[1])));
    const forms = (entry) => (typeof entry === 'string' ? ['*'] : Object.keys(entry));
    const ranks = Object.values(terms.rank).map(forms);
    const suits = Object.values(terms.suit).map(forms);
    out[lang] = { asked: [...asked].sort(), ranks: ranks.length, suits: suits.length,
      missing: [...asked].filter((c) => ranks.some((f) => !f.includes('*') && !f.includes(c))) };
  }
  return out;
}
"""


def test_card_names_take_the_case_their_sentence_needs(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#lobby")
    said = page.evaluate(SAID)
    assert said["en"] == {
        "name": "King of diamonds",
        "play": "Hint: play King of diamonds",
        "pass": "Hint: pass Queen of spades, Ace of hearts, Ten of diamonds",
        "selected": "Queen of spades chosen, 1 of 3.",
        "received": "You received Jack of clubs, Two of hearts from Igor.",
        "second": "Queen of spades (second deck)",
    }
    assert said["uk"] == {
        "name": "Король бубон",
        "play": "Підказка: зіграйте короля бубон",
        "pass": "Підказка: передайте даму пік, туза чирв, десятку бубон",
        "selected": "Ви вибрали даму пік, 1 з 3.",
        "received": "Вам передано валета треф, двійку чирв (Igor).",
        "second": "даму пік (друга колода)",
    }
    assert said["ru"] == {
        "name": "Король бубен",
        "play": "Подсказка: сыграйте короля бубен",
        "pass": "Подсказка: передайте даму пик, туза черв, десятку бубен",
        "selected": "Вы выбрали даму пик, 1 из 3.",
        "received": "Вам передали валета треф, двойку черв (Igor).",
        "second": "даму пик (вторая колода)",
    }


def test_every_case_a_template_asks_for_exists(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#lobby")
    cases = page.evaluate(CASES)
    for lang in ("en", "uk", "ru"):
        assert cases[lang]["ranks"] == 13 and cases[lang]["suits"] == 4, cases[lang]
        assert cases[lang]["missing"] == [], cases[lang]
    assert cases["uk"]["asked"] == ["acc"] and cases["ru"]["asked"] == ["acc"]
