"""The hand review in the browser: after a game, the replay of a hand shows
"Review my play", which asks the server for the review of our decisions and
shows the pass and the hand's accuracy at the top and our card beside each
trick, with the better card, the points lost and the label; on the
game-over panel "Accuracy of each player" shows every seat's accuracy over
the game, and the score table a Loss row. A busy server's refusal is a
sentence saying when to ask again."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, NewPage, StartServer, shoot
from .helpers import (
    TABLE,
    WAIT_FOR_US,
    create_table,
    fast_play,
    next_hand,
    pass_three,
    play_legal,
    start,
    status,
)

pytestmark = pytest.mark.browser

RANKS = "23456789TJQKA"
# A light review for the test: the evaluator's deals per decision.
WORLDS = 24
# Reviews run in the bot workers and take seconds on a busy machine: how
# long the page may say "reviewing…" before the test gives up (ms).
REVIEWED = 90_000


def highest(legal: list[str]) -> str:
    """The highest playable card: a way of playing that loses points the
    review can see."""
    return max(legal, key=lambda card: RANKS.index(card[0]))


def play_short_game(page: Page) -> int:
    """Host a one-hand game against three Easy bots and play it out badly
    (a game tied for the lowest score goes on to another hand); returns
    how many hands it took."""
    create_table(page, "Reviewer", seats=("easy", "easy", "easy"), hands=1)
    fast_play(page)
    start(page)
    while status(page) != "game_over":
        page.wait_for_selector(f"{WAIT_FOR_US}, {TABLE}[data-status='between_hands']")
        if status(page) == "between_hands":
            next_hand(page)
        elif page.locator(f'{TABLE}[data-phase="pass"] .center-panel[data-mode="pass"]').count():
            pass_three(page)
        elif status(page) == "playing":
            play_legal(page, highest)
    return int(page.get_attribute(TABLE, "data-hand") or 0)


LABELS = {
    "en": {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"},
    "uk": {"inaccuracy": "Неточність", "mistake": "Помилка", "blunder": "Груба помилка"},
}
WORDS = {
    "en": {
        "askGame": "Accuracy of each player",
        "ask": "Review my play",
        "accuracy": "Accuracy: ",
        "played": "You played ",
        "passed": "You passed ",
    },
    "uk": {
        "askGame": "Точність кожного гравця",
        "ask": "Розбір моєї гри",
        "accuracy": "Точність: ",
        "played": "Ви зіграли ",
        "passed": "Ви передали ",
    },
}


REVIEWED_DEAL = 1
"""The table seed of the reviewed game: its hand has labelled decisions."""


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.slow
def test_a_finished_hand_is_reviewed_beside_each_trick_and_the_game_shows_accuracy(
    new_page: NewPage, start_server: StartServer, lang: str
) -> None:
    # A fixed deal (and Easy bots' choices): with a random one, playing the
    # highest card sometimes lost no ground anywhere and nothing was labelled.
    runner = start_server(
        0, analysis_worlds=WORLDS, tables_burst_per_address=0, table_seed=REVIEWED_DEAL
    )
    locale = "en-GB" if lang == "en" else "uk-UA"
    page = new_page(viewport=DESKTOP, locale=locale, server_url=runner.url)
    words = WORDS[lang]
    hands = play_short_game(page)

    # The game-over panel: asked for, every seat's mean loss and counts.
    expect(page.locator(".score-table .accuracy-row")).to_have_count(0)
    expect(page.locator(".over-panel .accuracy-ask")).to_have_text(words["askGame"])
    shoot(page, f"game-over-ask-{lang}")
    page.locator(".over-panel .accuracy-ask").click()
    rows = page.locator(".over-panel .accuracy-table tbody tr")
    expect(rows).to_have_count(4, timeout=REVIEWED)
    for k in range(4):
        assert re.fullmatch(r"\d+([.,]\d{1,2})?", rows.nth(k).locator(".mean-loss").inner_text())
        assert re.fullmatch(r"\d+", rows.nth(k).locator(".blunders").inner_text())
    expect(page.locator(".over-panel .accuracy-table caption")).to_contain_text(words["accuracy"])
    # The score sheet's last row has the same figures.
    page.click("#tab-scores")
    sheet = page.locator(".score-table .accuracy-row td")
    expect(sheet).to_have_count(4)
    shoot(page, f"game-accuracy-{lang}")
    mine = page.locator('.over-panel .accuracy-table tr[data-seat="0"] .mean-loss').inner_text()
    expect(page.locator('.score-table .accuracy-row td[data-seat="0"]')).to_have_text(mine)

    # The replay of hand 1: review our play.
    page.click('.replay-link[data-hand="1"]')
    dialog = page.locator("dialog.replay")
    ask = dialog.locator(".review-ask")
    expect(ask).to_have_text(words["ask"])
    ask.click()
    head = dialog.locator(".review-head")
    expect(head.locator('.review-decision[data-kind="pass"]')).to_have_count(1, timeout=REVIEWED)
    expect(head.locator(".review-decision .review-chosen")).to_contain_text(words["passed"])
    expect(head.locator(".review-accuracy")).to_contain_text(words["accuracy"])
    if hands == 1:  # the hand's accuracy is then our seat's over the game
        expect(head.locator(".review-accuracy")).to_contain_text(mine)
    expect(dialog.locator(".review-step")).to_have_count(13)
    shoot(page, f"hand-review-{lang}")

    # Each trick shows our card in it, and its label when it lost ground.
    labels: list[str] = []
    for k in range(13):
        trick = dialog.locator(f'.replay-trick[data-trick="{k}"]')
        decision = trick.locator('.review-decision[data-kind="play"]')
        expect(decision).to_have_count(1)
        expect(decision.locator(".review-chosen")).to_contain_text(words["played"])
        label = decision.get_attribute("data-label") or ""
        if label != "none":
            labels.append(label)
            expect(decision.locator(".review-label")).to_have_text(LABELS[lang][label])
            # A labelled decision names the better card and the points lost.
            expect(decision.locator(".review-better")).to_have_count(1)
            expect(decision.locator(".review-loss")).to_contain_text(re.compile(r"\d"))
            step = dialog.locator(f'.review-step[data-trick="{k}"]')
            expect(step).to_have_class(re.compile(f"label-{label}"))
        if k < 12:
            dialog.locator(".replay-next").click()
    # Always the highest card: the review finds ground lost somewhere.
    assert labels, "no decision of a highest-card game was labelled"


def test_a_busy_server_says_when_to_ask_for_a_review_again(
    new_page: NewPage, start_server: StartServer
) -> None:
    # No review may start: every request is refused with retry_after 5.
    runner = start_server(0, analysis_max_pending=0, tables_burst_per_address=0)
    page = new_page(viewport=DESKTOP, server_url=runner.url)
    play_short_game(page)
    page.locator(".over-panel .accuracy-ask").click()
    refused = page.locator('.over-panel .accuracy-state[data-state="refused"]')
    expect(refused).to_have_text(
        "The server is busy with reviews: try again in 5 seconds.", timeout=REVIEWED
    )
    page.click("#tab-scores")
    expect(page.locator(".score-table .accuracy-row")).to_have_count(0)
    expect(page.locator(".over-panel .accuracy-ask")).to_have_text("Ask again")
    page.click('.replay-link[data-hand="1"]')
    dialog = page.locator("dialog.replay")
    dialog.locator(".review-ask").click()
    state = dialog.locator('.review-state[data-state="refused"]')
    expect(state).to_have_text(
        "The server is busy with reviews: try again in 5 seconds.", timeout=REVIEWED
    )
    # The review may be asked for again.
    expect(dialog.locator(".review-ask")).to_have_text("Ask again")
    expect(dialog.locator(".review-ask")).to_be_enabled()
    expect(dialog.locator(".review-decision")).to_have_count(0)


# A widow hand's replay (one trick shown) and its review, drawn in the page
# from replies as the server sends them: the discard and the moon choice at
# the top, a blunder in the trick, and a trick with the best card.
DRAW_WIDOW_REVIEW = """
async () => {
  const { showReplay } = await import('/js/replay.js');
  const play = (seat, card) => ({ seat, card });
  const trick = (cards, winner, points) => ({ leader: cards[0].seat, cards, winner, points, cancelled: [], carried_in: [] });
  const replay = { type: 'hand_replay', id: 'x', hand_number: 2, game: 1, seat: 0, direction: 'hold',
    dealt: ['QS', 'AH'], passed: [], received: [],
    tricks: [trick([play(0, 'AH'), play(1, '2H'), play(2, '3H')], 0, 3),
             trick([play(0, 'QS'), play(1, '2S'), play(2, '3S')], 0, 13)],
    points: [26, 0, 0], shooter: 0 };
  const analysis = { type: 'analysis', id: 'y', hand_number: 2, game: 1, seat: 0, accuracy:
      { decisions: 4, mean_loss: 1.5, inaccuracies: 0, mistakes: 0, blunders: 1 },
    decisions: [
      { kind: 'discard', chosen: ['KD', 'QD'], best: ['KD', 'QD'], loss: 0, label: null, trick: null },
      { kind: 'play', chosen: ['AH'], best: ['2C'], loss: 6, label: 'blunder', trick: 0 },
      { kind: 'play', chosen: ['QS'], best: ['QS'], loss: 0, label: null, trick: 1 },
      { kind: 'moon_choice', chosen: ['add'], best: ['add'], loss: 0, label: null, trick: null },
    ] };
  const names = ['Мия', 'Олег', 'Нина'];
  showReplay(replay, (seat) => names[seat], async () => analysis, { variant: 'widow', players: 3 });
}
"""


def test_a_widow_hands_review_names_the_discard_and_the_moon_choice_in_russian(
    new_page: NewPage,
) -> None:
    page = new_page(viewport=DESKTOP, locale="ru-RU")
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.evaluate(DRAW_WIDOW_REVIEW)
    dialog = page.locator("dialog.replay")
    dialog.locator(".review-ask").click()
    head = dialog.locator(".review-head")
    expect(head.locator('.review-decision[data-kind="discard"] .review-chosen')).to_have_text(
        "Вы сбросили короля бубен, даму бубен"
    )
    expect(head.locator('.review-decision[data-kind="discard"] .review-best')).to_have_text(
        "лучший выбор"
    )
    expect(head.locator('.review-decision[data-kind="moon_choice"] .review-chosen')).to_have_text(
        "Вы засчитали луну так: остальным по +26"
    )
    expect(head.locator(".review-accuracy")).to_have_text(
        "Точность: в среднем потеряно 1,5 очка за решение (меньше — лучше)."
        " 0 неточностей · 0 ошибок · 1 грубая ошибка."
    )
    trick = dialog.locator('.replay-trick[data-trick="0"] .review-decision')
    expect(trick.locator(".review-chosen")).to_have_text("Вы сыграли туза черв")
    expect(trick.locator(".review-better")).to_have_text("лучше: Двойка треф")
    expect(trick.locator(".review-loss")).to_have_text("потеряно 6 очков")
    expect(trick.locator(".review-label")).to_have_text("Грубая ошибка")
    expect(dialog.locator('.review-step[data-trick="0"]')).to_have_attribute(
        "aria-label", "Взятка 1: Грубая ошибка"
    )
    dialog.locator(".replay-next").click()
    second = dialog.locator('.replay-trick[data-trick="1"] .review-decision')
    expect(second.locator(".review-chosen")).to_have_text("Вы сыграли даму пик")
    expect(second.locator(".review-best")).to_have_text("лучший выбор")
    expect(second.locator(".review-label")).to_have_count(0)
