"""Steps the browser tests share: create a table through the lobby form,
pass, play a legal card, wait for the table to move on. Every wait is one
of Playwright's auto-waiting calls on something the page shows."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgpack
from playwright.sync_api import Locator, Page, WebSocket, expect

TABLE = "#table"


def create_table(
    page: Page,
    name: str,
    seats: tuple[str, str, str] = ("easy", "medium", "hard"),
    hands: int | None = 1,
    public: bool = False,
    approval: bool = False,
    table_name: str = "",
) -> str:
    """From the lobby: fill the form and create a table (named
    ``table_name``, else as the form suggests); returns its code (the
    invite link the page shows is ``/t/CODE#k=SECRET``)."""
    page.goto("/")
    page.wait_for_selector("#lobby")
    page.fill("#player-name", name)
    if table_name:
        page.fill("#table-name", table_name)
    if public:
        page.check("#vis-public")
    if approval:
        page.check("#opt-approval")
    if hands is not None:
        page.select_option("#opt-end", "hands")
        page.fill("#opt-end-hands", str(hands))
    for k, seat in enumerate(seats, start=1):
        page.select_option(f"#seat-{k}", seat)
    page.click("#create-table")
    page.wait_for_selector(f'{TABLE}[data-status="waiting"]')
    return code_of(page.input_value("#invite-link"))


def join_by_link(page: Page, code: str, name: str, seat: int | None = None) -> None:
    """Open the table's link ``/t/CODE``, give ``name`` and take the open
    seat; returns once the page shows the waiting table (from ``seat``,
    when given)."""
    page.goto(f"/t/{code}")
    page.wait_for_selector("#join-form")
    page.fill("#player-name", name)
    page.click("#join-button")
    at = f'[data-seat="{seat}"]' if seat is not None else ""
    page.wait_for_selector(f'{TABLE}[data-status="waiting"]{at}')


def code_of(link: str) -> str:
    """The code of an invite link (``http://host/t/CODE#k=SECRET``)."""
    return link.split("/t/", 1)[1].split("#", 1)[0]


def secret_of(link: str) -> str:
    """The invite secret of an invite link (what follows ``#k=``)."""
    _, found, secret = link.partition("#k=")
    assert found and secret, f"not an invite link with a secret: {link}"
    return secret


def fast_play(page: Page) -> None:
    """Turn the Fast play switch on."""
    switch = page.locator("#fast-play")
    if not switch.is_checked():
        page.click('label[for="fast-play"]')
    expect(switch).to_be_checked()


def start(page: Page) -> None:
    """Host: start the game and wait for the first hand."""
    page.click(".start-game")
    page.wait_for_selector(f'{TABLE}[data-status="playing"]')


def hand_cards(page: Page) -> list[str]:
    """The cards in our hand, in the order shown."""
    cards: list[str] = page.eval_on_selector_all(
        ".hand .card", "els => els.map(e => e.dataset.card)"
    )
    return cards


def card(page: Page, text: str) -> Any:
    """The button of one card in our hand."""
    return page.locator(f'.hand .card[data-card="{text}"]')


def tap(page: Page, text: str, force: bool = False) -> None:
    """Tap a card where it shows: cards overlap, so on their left edge.
    ``force``: tap a card the page marks disabled (``tap_disabled``)."""
    if force:
        tap_disabled(card(page, text))
    else:
        card(page, text).click(position={"x": 6, "y": 30})


# Every animation and transition of an element has ended (none: at once).
STILL = "el => el.getAnimations().every((a) => a.playState === 'finished')"


def tap_disabled(target: Locator) -> None:
    """Tap a card the page marks disabled, on its left edge, once it is in
    its place. Playwright's click waits for an element to stand still, but
    not a forced one: a card still being dealt is read at its animation's
    first frame, 60 px above the hand even under reduced motion, and the
    tap lands on what is there (a CI run once clicked the Claim button)."""
    target.page.wait_for_function(STILL, arg=target.element_handle())
    target.click(position={"x": 6, "y": 30}, force=True)


def pass_three(page: Page) -> list[str]:
    """Choose the first three cards and press Pass; returns them."""
    page.wait_for_selector(f'{TABLE}[data-phase="pass"] #pass-button')
    chosen = hand_cards(page)[:3]
    for text in chosen:
        tap(page, text)
        # Chosen and drawn so before the next tap (a CI run once found the
        # Pass button still off after three taps: this says which tap).
        expect(card(page, text)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#pass-button")).to_be_enabled()
    page.click("#pass-button")
    page.wait_for_selector(
        f'{TABLE}[data-phase="pass"] .center-panel[data-mode="passed"], {TABLE}:not([data-phase="pass"])'
    )
    return chosen


def played(page: Page) -> int:
    """Cards played so far in this hand, as the page shows it."""
    return int(page.get_attribute(TABLE, "data-played") or 0)


def play_legal(page: Page, pick: Callable[[list[str]], str] | None = None) -> str:
    """On our turn: tap the first playable card (or the one ``pick`` chooses
    from the playable ones) and wait until the page shows it played. Our last
    card is played by the page itself (a forced move): then nothing is
    tapped, only waited for."""
    page.wait_for_selector(f'{TABLE}[data-myturn="true"], {TABLE}:not([data-status="playing"])')
    if status(page) != "playing":
        return ""  # a forced last card already ended the hand
    before = played(page)
    hand, legal, auto = page.evaluate(
        "() => [[...document.querySelectorAll('.hand .card')].map(c => c.dataset.card),"
        " [...document.querySelectorAll('.hand .card[data-legal=\"true\"]')].map(c => c.dataset.card),"
        " Boolean(document.querySelector('#autoplay')?.checked)]"
    )
    text = (pick(legal) if pick is not None else legal[0]) if legal else ""
    # A forced card plays itself: the last one always, any single legal card
    # when "Play forced cards" is on (no legal card shown: it just did).
    if len(hand) > 1 and legal and not (auto and len(legal) == 1):
        tap(page, text)
    page.wait_for_function(
        "n => { const t = document.querySelector('#table');"
        " return t.dataset.status !== 'playing' || Number(t.dataset.played) > n; }",
        arg=before,
    )
    return text


# Whose move the host's page shows in the play (``arg``: the friend's seat):
# "host", "friend", "over" once the hand is, or false while nobody of the
# two may play (a bot's turn, a trick still on show).
WHOSE_MOVE = (
    "seat => { const t = document.querySelector('#table');"
    " if (t.dataset.status !== 'playing') return 'over';"
    " if (t.dataset.phase === 'play' && t.dataset.lingering === 'false' && t.dataset.myturn === 'true') return 'host';"
    " if (t.dataset.phase === 'play' && t.dataset.lingering === 'false' && t.dataset.turn === String(seat)) return 'friend';"
    " return false; }"
)


def play_hand_together(host: Page, friend: Page, friend_seat: int) -> None:
    """Two humans at one table (bots in the other seats), passes done: play
    the hand to its end, whoever's turn the host's page shows acting, and
    wait until both pages show the hand's result or the game's end. After
    each of the friend's cards the host's page is waited for, so it never
    answers for a turn it has not seen move on."""
    while True:
        who = host.wait_for_function(WHOSE_MOVE, arg=friend_seat).json_value()
        if who == "over":
            break
        if who == "host":
            play_legal(host)
        else:
            before = played(host)
            play_legal(friend)
            host.wait_for_function(
                "n => { const t = document.querySelector('#table');"
                " return t.dataset.status !== 'playing' || Number(t.dataset.played) > n; }",
                arg=before,
            )
    for page in (host, friend):
        page.wait_for_selector(".result-panel, .over-panel")


WAIT_FOR_US = (
    f'{TABLE}[data-myturn="true"], {TABLE}[data-status="between_hands"], '
    f'{TABLE}[data-status="game_over"], {TABLE}[data-phase="pass"] .center-panel[data-mode="pass"], '
    f'{TABLE}[data-phase="moon_choice"] .moon-add'
)


def status(page: Page) -> str:
    return page.get_attribute(TABLE, "data-status") or ""


def next_hand(page: Page) -> None:
    """Between hands: ask for the next one and wait until it is dealt (or the
    game is over: a game tied for the lowest score after its last hand
    goes on, one that is not ends)."""
    page.click(".next-hand")
    page.wait_for_selector(f'{TABLE}[data-status="playing"], {TABLE}[data-status="game_over"]')


class FrameLog:
    """Every frame a page sends and receives over its WebSockets, decoded;
    ``sockets`` are the page's WebSockets, newest last."""

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.sockets: list[WebSocket] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: WebSocket) -> None:
        self.sockets.append(ws)
        ws.on("framesent", self._frame)
        ws.on("framereceived", self._received)

    def _frame(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            self.sent.append(msgpack.unpackb(payload, raw=False))

    def _received(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            self.received.append(msgpack.unpackb(payload, raw=False))

    def types(self) -> list[str]:
        return [str(m.get("type")) for m in self.sent]


def wait_until(page: Page, condition: Callable[[], bool], timeout: float = 20.0) -> None:
    """Until ``condition()`` holds (of something Playwright reports, such as
    a FrameLog): Playwright delivers a page's events only while one of its
    calls runs, so the check runs between short waits of the page, for at
    most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s")
        page.wait_for_timeout(50)
