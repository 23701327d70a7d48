"""How the table feels to play: each trick card animates once, cards rise when
chosen, hovered or focused, the keyboard focus always lands somewhere useful,
a friend keeps the final scores when the host starts a rematch, the log
speaks of "you" in good grammar, forced cards play themselves, "Play vs
bots" is one click, the faces are a real deck, sound is off until turned on,
statistics are kept, and the page is served compressed and cached."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, NewPage
from .helpers import (
    TABLE,
    FrameLog,
    card,
    create_table,
    fast_play,
    hand_cards,
    join_by_link,
    pass_three,
    play_legal,
    start,
    status,
)

# Every animation that starts on a card of the trick, as "card:animation".
COUNT_TRICK_ANIMATIONS = """
() => {
  window.trickAnimations = [];
  document.addEventListener('animationstart', (e) => {
    const card = e.target.closest && e.target.closest('.trick .card');
    if (card) window.trickAnimations.push(`${card.dataset.card}:${e.animationName}`);
  }, true);
}
"""


def play_to_game_over(page: Page) -> None:
    """Play (passing, playing, Next hand) until the game is over: a one-hand
    game goes on while the lowest total is tied."""
    while True:
        page.wait_for_selector(
            f'{TABLE}[data-myturn="true"], {TABLE}[data-status="game_over"], '
            f'.next-hand:visible, .center-panel[data-mode="pass"]'
        )
        if status(page) == "game_over":
            return
        if page.locator(".next-hand:visible").count():
            page.click(".next-hand")
            page.wait_for_selector(
                f'{TABLE}[data-status="playing"], {TABLE}[data-status="game_over"]'
            )
        elif page.locator('.center-panel[data-mode="pass"]').count():
            pass_three(page)
        else:
            play_out_hand(page)


def play_out_hand(page: Page) -> None:
    """Play legal cards until the hand (and the game, one hand long) is over."""
    while True:
        page.wait_for_selector(
            f'{TABLE}[data-myturn="true"], {TABLE}[data-status="game_over"], {TABLE}[data-status="between_hands"]'
        )
        if status(page) != "playing":
            return
        play_legal(page)


@pytest.mark.slow
def test_keyboard_focus_trick_animations_and_forced_last_card(new_page: NewPage) -> None:
    """One hand through the keyboard with animations on: focus goes to the
    hand after Start and after Pass, Pass is one Tab from the hand, the
    last card plays itself, focus lands on Rematch at the end; every card
    of every trick flew in once and every winner glowed once."""
    page = new_page(viewport=DESKTOP, motion="no-preference", paced=True)
    frames = FrameLog(page)
    create_table(page, "Kira", seats=("easy", "medium", "hard"), hands=1)
    fast_play(page)
    page.evaluate(COUNT_TRICK_ANIMATIONS)

    page.focus(".start-game")
    page.keyboard.press("Enter")
    page.wait_for_selector(f'{TABLE}[data-phase="pass"] #pass-button')
    page.wait_for_function("() => document.activeElement?.matches('.hand .card')")
    # Choose three with the keyboard; Pass is the very next Tab stop.
    for _ in range(3):
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    expect(page.locator(".hand .card.selected")).to_have_count(3)
    page.keyboard.press("Tab")
    expect(page.locator("#pass-button")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_selector(f'{TABLE}:not([data-phase="pass"]), .center-panel[data-mode="passed"]')
    page.wait_for_function("() => document.activeElement?.matches('.hand .card')")

    play_out_hand(page)
    page.wait_for_selector(".over-panel, .result-panel")
    # The last card was played by the page: 13 plays, the last untouched.
    assert frames.types().count("play_card") == 13
    # Focus is on what comes next (Rematch, or Next hand when the lowest total is tied).
    expect(page.locator(".over-panel .rematch, .result-panel .next-hand")).to_be_focused()

    counts: dict[str, int] = {}
    for entry in page.evaluate("() => window.trickAnimations"):
        counts[entry] = counts.get(entry, 0) + 1
    flights = [k for k in counts if k.endswith(":fly-in")]
    glows = [k for k in counts if k.endswith(":glow")]
    assert len(flights) >= 40, counts  # most of the 52 cards (a resume-free hand shows them all)
    assert len(glows) >= 10, counts  # a winner for most tricks
    repeated = {k: n for k, n in counts.items() if n > 1}
    assert repeated == {}, f"animated more than once: {repeated}"

    # The trick list and the log say "you" in good grammar.
    rows = page.locator(".trick-row-head").all_inner_texts()
    assert not any("by You" in row for row in rows), rows


def settled(page: Page, text: str) -> None:
    """Until every animation and transition of the hand's card ``text`` has
    finished (asking for them starts a transition a style change is due to
    begin, so one just set off is waited for too)."""
    page.evaluate(
        "c => Promise.all(document.querySelector(`.hand .card[data-card='${c}']`)"
        ".getAnimations().map((a) => a.finished))",
        text,
    )


def test_chosen_hovered_and_focused_cards_rise(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP, motion="no-preference")
    create_table(page, "Lev", seats=("easy", "easy", "easy"), hands=1)
    start(page)
    page.wait_for_selector(f'{TABLE}[data-phase="pass"] #pass-button')
    # Let the deal finish: its animation must not hold the cards down after.
    page.evaluate(
        "() => Promise.all([...document.querySelectorAll('.hand .card')]"
        ".flatMap((c) => c.getAnimations()).map((a) => a.finished))"
    )
    cards = hand_cards(page)

    def top(text: str) -> float:
        box = card(page, text).bounding_box()
        assert box is not None
        return float(box["y"])

    resting = top(cards[6])
    card(page, cards[2]).click(position={"x": 6, "y": 30})  # chosen
    page.wait_for_function(
        "c => { const el = document.querySelector(`.hand .card[data-card='${c}']`);"
        " return el.getAnimations().length === 0 && el.classList.contains('selected'); }",
        arg=cards[2],
    )
    settled(page, cards[2])  # the lift's transition, to measure where it ends
    assert top(cards[2]) <= resting - 15
    card(page, cards[8]).hover(position={"x": 6, "y": 30})
    settled(page, cards[8])
    assert top(cards[8]) <= resting - 4
    card(page, cards[10]).focus()
    page.keyboard.press("ArrowRight")  # keyboard focus shows as :focus-visible
    settled(page, cards[11])
    assert top(cards[11]) <= resting - 8


@pytest.mark.slow
def test_host_rematch_leaves_the_friend_final_scores(new_page: NewPage) -> None:
    host = new_page(viewport=DESKTOP)
    friend = new_page(viewport=PHONE)
    code = create_table(host, "Hana", seats=("open", "easy", "easy"), hands=1)
    join_by_link(friend, code, "Fedir", 1)
    fast_play(host)
    fast_play(friend)
    start(host)
    friend.wait_for_selector(f'{TABLE}[data-status="playing"]')
    pass_three(host)
    pass_three(friend)
    while not all(status(p) == "game_over" for p in (host, friend)):
        for page in (host, friend):
            if page.locator(f'{TABLE}[data-myturn="true"]').count():
                play_legal(page)
            elif page.locator(".next-hand:visible").count():
                page.click(".next-hand")  # a tie for the lowest total: one more hand
            elif page.locator('.center-panel[data-mode="pass"]').count():
                pass_three(page)
        host.wait_for_timeout(50)
    friend.wait_for_selector(".over-panel")
    final = friend.locator(".over-panel .result-table").inner_text()
    host.click(".over-panel .rematch")
    host.wait_for_selector(f'{TABLE}[data-status="playing"][data-hand="1"]')
    friend.wait_for_selector(f'{TABLE}[data-status="playing"]')
    # The friend still has the final scores, and a way on.
    panel = friend.locator(".over-panel")
    expect(panel).to_be_visible()
    assert panel.locator(".result-table").inner_text() == final
    expect(panel).to_contain_text("The host started a rematch")
    friend.wait_for_timeout(600)  # longer than the 0.25 s it used to last
    expect(panel).to_be_visible()
    friend.click(".over-panel .continue")
    friend.wait_for_selector('.center-panel[data-mode="pass"]')
    expect(friend.locator(".hand .card")).to_have_count(13)


TRICK_LIST = """
async (lang) => {
  const { setLanguage } = await import('/js/i18n.js');
  const { buildTable, renderTable } = await import('/js/table.js');
  const { app } = await import('/js/state.js');
  await setLanguage(lang);
  const seat = (i, name) => ({ seat: i, kind: i ? 'bot' : 'human', name, bot_level: i ? 'easy' : null,
    host: i === 0, connected: true, away: false, bot_covering: false, cards_left: 12,
    points_hand: 0, passed: false, ready: false });
  const view = { table_id: 't1', code: 'ABCDEF', name: 'T', public: false,
    rules: { players: 4, pass_cycle: ['left'], pass_count: 3, moon: 'add', first_trick: 'no_points',
             queen_breaks_hearts: false, end: 'points', end_at: 100, bonus_card: null },
    seq: 9, seat: 0, host_seat: 0,
    seats: [seat(0, 'Mia'), seat(1, 'Olga'), seat(2, 'Easy bot'), seat(3, 'Easy bot')],
    status: 'playing', hand_number: 1, phase: 'play', pass_direction: 'left', hand: ['3C'],
    passed: [], passed_to: null, received: [], received_from: null, received_marked: false, legal: [],
    turn: 1, trick_leader: 1, trick: [],
    tricks: [
      { leader: 0, winner: 0, points: 0, cards: [0, 1, 2, 3].map((s, k) => ({ seat: s, card: ['2C', '4C', '5C', '6C'][k] })) },
      { leader: 1, winner: 1, points: 0, cards: [1, 2, 3, 0].map((s, k) => ({ seat: s, card: ['7D', '8D', '9D', 'TD'][k] })) },
    ],
    hearts_broken: false, points_hand: [0, 0, 0, 0], totals: [0, 0, 0, 0], hands: [], moon_shooter: null, winner: null };
  const box = document.createElement('div');
  document.body.append(box);
  buildTable(box, {});
  app.view = view;
  renderTable();
  const rows = [...box.querySelectorAll('.trick-row-head')].map((r) => r.innerText);
  box.remove();
  return rows;
}
"""


def test_you_takes_no_trick_in_any_language(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("#lobby")
    rows = {lang: page.evaluate(TRICK_LIST, lang) for lang in ("en", "uk", "ru")}
    assert "led by you" in rows["en"][0] and "won by you" in rows["en"][0]
    assert "led by Olga" in rows["en"][1] and "won by Olga" in rows["en"][1]
    assert "почали ви" in rows["uk"][0] and "забрали ви" in rows["uk"][0]
    assert "начали вы" in rows["ru"][0] and "забрали вы" in rows["ru"][0]
    strings = page.evaluate(
        """async () => {
          const { loadLanguage } = await import('/js/i18n.js');
          const out = {};
          for (const lang of ['en', 'uk', 'ru']) out[lang] = (await loadLanguage(lang)).strings;
          return out;
        }"""
    )
    assert strings["en"]["announce.trickYou"] == "You take the trick."
    assert strings["uk"]["announce.trickYou"] == "Ви забираєте взятку."
    assert strings["ru"]["announce.trickYou"] == "Вы забираете взятку."
    assert (
        strings["en"]["announce.trickPointsYou"]["other"] == "You take the trick with {n} points."
    )
    assert strings["uk"]["announce.gameOverYou"] == "Гру завершено. Ви перемагаєте."
    assert strings["ru"]["announce.gameOverYou"] == "Игра окончена. Вы побеждаете."


def test_play_vs_bots_is_one_click_with_a_real_deck(new_page: NewPage) -> None:
    page = new_page(viewport=PHONE)
    frames = FrameLog(page)
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.select_option("#quick-level", "hard")
    page.click("#quick-play")
    page.wait_for_selector(f'{TABLE}[data-status="playing"][data-phase="pass"]')
    assert [t for t in frames.types() if t in ("create_table", "start_game")] == [
        "create_table",
        "start_game",
    ]
    create = next(m for m in frames.sent if m["type"] == "create_table")
    assert create["seats"] == ["hard", "hard", "hard"]
    for pos in ("left", "top", "right"):
        seat = page.locator(f'.seat[data-pos="{pos}"]')
        expect(seat).to_contain_text("Hard")
        # Opponents' hands: fanned backs and the count.
        expect(seat.locator(".fan i")).to_have_count(13)
        expect(seat.locator(".backs .count")).to_have_text("13")
    # Real faces: the deck's SVG files, loaded (the queen of spades is 12s.svg).
    faces = page.eval_on_selector_all(
        ".hand .card img.face",
        "imgs => Promise.all(imgs.map(i => i.decode().then(() => [i.getAttribute('src'), i.naturalWidth])))",
    )
    assert len(faces) == 13
    assert all(src.startswith("/vendor/cards/") and width > 0 for src, width in faces), faces
    # The level is remembered for the next time.
    page.click(".table-bar .leave")
    page.click("#confirm-ok")
    page.wait_for_selector("#lobby")
    expect(page.locator("#quick-level")).to_have_value("hard")


def test_sound_is_off_until_turned_on_and_remembered(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.click("#quick-play")
    page.wait_for_selector(f'{TABLE}[data-status="playing"]')
    expect(page.locator("#sound")).not_to_be_checked()
    fast_play(page)
    pass_three(page)
    page.wait_for_selector(f'{TABLE}[data-myturn="true"], {TABLE}[data-played="4"]')
    assert page.evaluate("async () => (await import('/js/sound.js')).played.length") == 0
    page.click('label[for="sound"]')
    expect(page.locator("#sound")).to_be_checked()
    for _ in range(3):
        play_legal(page)
    page.wait_for_selector(f'{TABLE}[data-myturn="true"]')
    heard = page.evaluate("async () => [...(await import('/js/sound.js')).played]")
    assert "card" in heard or "queen" in heard, heard
    assert "trick" in heard and "turn" in heard, heard
    page.reload()
    page.wait_for_selector(f'{TABLE}[data-status="playing"]')
    expect(page.locator("#sound")).to_be_checked()


@pytest.mark.slow
def test_statistics_page_counts_finished_games(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP)
    create_table(page, "Ira", seats=("easy", "easy", "easy"), hands=1)
    fast_play(page)
    page.click('label[for="autoplay"]')  # any single legal card plays itself too
    start(page)
    play_to_game_over(page)
    page.wait_for_selector(".over-panel")
    page.click("#stats-link")
    stats = page.locator("#stats-page")
    expect(stats).to_be_visible()
    row = stats.locator('tr[data-opponents="easy"]')
    expect(row).to_contain_text("Easy")
    cells = row.locator("td").all_inner_texts()
    assert cells[0:2] in (["1", "1"], ["1", "0"]), cells  # one game, won or not
    # Seen again (a reload shows the same finished game): counted once.
    page.reload()
    page.wait_for_selector("#stats-page:not([hidden]) .mystats-table")
    assert stats.locator('tr[data-opponents="easy"] td').nth(0).inner_text() == "1"
    expect(stats.locator("#server-stats dl")).to_be_visible()


def test_layout_codes_links_and_trick_clear_of_name_plates(new_page: NewPage) -> None:
    page = new_page(viewport=PHONE, motion="no-preference", paced=True)
    table_code = create_table(page, "Marta", seats=("easy", "easy", "easy"), hands=1)
    # The code stays on one line; the whole invite link shows.
    code = page.locator(".big-code")
    box = code.bounding_box()
    assert box is not None and box["height"] < 50, box
    fits = page.eval_on_selector("#invite-link", "el => el.scrollHeight <= el.clientHeight + 1")
    assert fits
    start(page)
    pass_three(page)
    # Freeze every trick card at the start of its flight: none covers a name plate.
    shown: list[str] = []
    for _ in range(6):
        # A trick other than the one just checked (a new card, or a new
        # trick), or our turn to add to it.
        page.wait_for_function(
            "shown => { const now = [...document.querySelectorAll('.trick .card')]"
            ".map((c) => c.dataset.card); const mine = document.querySelector("
            "'[data-myturn=\"true\"]'); return (now.length > 0 && now.join() !== shown.join())"
            " || mine !== null; }",
            arg=shown,
        )
        overlaps = page.evaluate(
            """() => {
              const cards = [...document.querySelectorAll('.trick .card')];
              for (const c of cards) for (const a of c.getAnimations()) { a.pause(); a.currentTime = 0; }
              const boxes = cards.map((c) => c.getBoundingClientRect());
              const seats = [...document.querySelectorAll('.felt .seat')];
              const plates = seats.map((s) => s.getBoundingClientRect());
              const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
              const where = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
              const out = boxes.flatMap((b, i) => plates.flatMap((p, k) => (hit(b, p)
                ? [`${cards[i].dataset.card} (${where(b)}) over ${seats[k].dataset.pos} (${where(p)})`] : [])));
              for (const c of cards) for (const a of c.getAnimations()) a.play();
              return out;
            }"""
        )
        assert overlaps == [], overlaps
        shown = page.eval_on_selector_all(".trick .card", "cs => cs.map((c) => c.dataset.card)")
        if page.locator(f'{TABLE}[data-myturn="true"]').count():
            play_legal(page)
    # The join screen's way back to the lobby looks like a button, not a bare
    # link. (A real table's code: the join screen asks the server about the
    # code, and a code that names no table would spend the shared server's
    # budget of wrong codes.)
    guest = new_page(viewport=PHONE)
    guest.goto(f"/t/{table_code}")
    guest.wait_for_selector("#join-form")
    link = guest.locator(".lobby-link a")
    assert link.evaluate("a => getComputedStyle(a).textDecorationLine") == "none"
    assert float(link.evaluate("a => parseFloat(getComputedStyle(a).borderTopWidth)")) >= 1


def test_only_the_active_language_loads_and_reloads_use_the_cache(new_page: NewPage) -> None:
    page = new_page(viewport=DESKTOP, locale="uk-UA")
    responses: list[Any] = []
    page.on("response", lambda response: responses.append(response))
    page.goto("/")
    page.wait_for_selector("#lobby")
    # Scripts load by content-hashed names (server/hashed_urls.py): uk.<hash>.js.
    langs = sorted(
        {r.url.rsplit("/", 1)[1].split(".", 1)[0] for r in responses if "/js/lang/" in r.url}
    )
    assert langs == ["uk"]
    table = next(r for r in responses if re.search(r"/js/table\.[0-9a-f]{16}\.js$", r.url))
    headers = table.all_headers()
    assert headers.get("content-encoding") == "gzip" and headers.get("etag")
    assert headers.get("cache-control") == "public, max-age=31536000, immutable"
    responses.clear()
    page.reload()
    page.wait_for_selector("#lobby")
    scripts = [r for r in responses if r.url.endswith(".js") or r.url.endswith(".css")]
    assert scripts, "nothing was loaded on reload"
    # Kept a year under names that change with their bytes: the browser has them.
    assert all(r.all_headers().get("cache-control", "").endswith("immutable") for r in scripts)
    document = next(r for r in responses if r.request.resource_type == "document")
    assert document.all_headers().get("cache-control") == "no-cache"
