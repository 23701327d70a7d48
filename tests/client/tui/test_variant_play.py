"""The variants' own moments in the terminal, reached through a real server
and real play, each on a seeded deal where it is certain to happen
(``seeded_server``): the widow taken and discarded with the keys, a Domino
hand where we draw from the stock and a seat drops out, and a
Cancellation trick with cancelled cards and a carried trick. What the
screen shows is checked against the server's own hand."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.pilot import Pilot

from client.tui.app import HeartsApp
from client.tui.cards import label
from client.tui.launch import Launch
from client.tui.pacing import INSTANT, Pacing
from engine.cards import card, card_text, mask_of
from engine.variant_hand import VariantHand
from protocol.common import RulesModel, SeatSpec
from server.app import RunningServer

from .conftest import (
    first_legal_key,
    make_app,
    save_svg,
    screen_text,
    seeded_server,
    under,
    wait_for,
)

# Seeds whose first deal makes the moment certain (engine.dealing deals
# hand 1 of a table from "SEED:0:1"; tests below say why each is certain).
WIDOW_SEED = 29
DOMINO_SEED = 7


def server_hand(server: RunningServer, app: HeartsApp) -> VariantHand:
    """The hand as the server plays it (the truth the screen is held to)."""
    view = app.model.view
    assert view is not None
    state = server.lobby.actors[view.table_id].state
    assert state.game is not None and isinstance(state.game.hand, VariantHand)
    return state.game.hand


def quick_game(server: RunningServer, rules: RulesModel, pacing: Pacing = INSTANT) -> HeartsApp:
    """A one-hand game against Easy bots at ``rules``'s seat count."""
    easy: SeatSpec = "easy"
    seats = (easy,) * (rules.players - 1)
    rules = rules.model_copy(update={"end": "hands", "end_at": 1})
    return make_app(Launch(mode="play", server=server.url, seats=seats, rules=rules), pacing=pacing)


async def test_we_take_the_widow_and_discard_with_the_keys() -> None:
    # Seed 29 deals us A♣ (the widow is 7♣ Q♠; seat 3 holds 2♣ and leads):
    # clubs are led to the first trick, so our A♣ wins it, and the widow is ours.
    rules = RulesModel(variant="widow", players=5, pass_cycle=("hold",))
    async with seeded_server(WIDOW_SEED) as server:
        app = quick_game(server, rules)
        async with app.run_test(size=(80, 24)) as pilot:
            model = app.model
            await wait_for(pilot, model.my_turn, "our turn in the first trick")
            assert "AC" in model.view.hand  # type: ignore[union-attr]
            await pilot.press(model.key_of("AC"))
            await wait_for(pilot, model.discarding, "the widow to be ours")
            hand = server_hand(server, app)
            widow = sorted(card_text(c) for c in hand.dealt_stock)
            assert hand.widow_seat == 0 and widow == ["7C", "QS"]
            text = screen_text(app)
            assert "You took the widow (7♣ Q♠): choose 2 cards" in text, text
            assert "You took the widow: 7♣ Q♠." in text, text
            assert all(c in model.view.hand for c in widow)  # type: ignore[union-attr]
            # One card picked is not enough: Enter says so and sends nothing.
            await pilot.press(model.key_of("QS"))
            await pilot.press("enter")
            await wait_for(pilot, lambda: "Pick 2 cards" in screen_text(app), "the refusal")
            assert server_hand(server, app).discard is None
            await pilot.press(model.key_of("7C"), "enter")
            await wait_for(pilot, lambda: not model.discarding(), "the discard")
            hand = server_hand(server, app)
            assert hand.discard == mask_of([card("7C"), card("QS")])
            await wait_for(pilot, lambda: "You put 7♣ Q♠ face down." in screen_text(app), "log")
            assert "QS" not in model.view.hand and "7C" not in model.view.hand  # type: ignore[union-attr]
            # We lead the second trick, as the rules say.
            await wait_for(pilot, model.my_turn, "our lead")
            save_svg(app, "widow-discarded-80x24")


def shows(app: HeartsApp, text: str) -> Callable[[], bool]:
    """A predicate: the screen shows ``text``."""
    return lambda: text in screen_text(app)


def gone_from_hand(app: HeartsApp, card: str | None) -> Callable[[], bool]:
    """A predicate: ``card`` has left our hand (or the hand is over)."""

    def gone() -> bool:
        view = app.model.view
        return view is None or view.status != "playing" or card not in view.hand

    return gone


async def test_a_domino_hand_shows_our_draws_and_a_seat_out() -> None:
    # Seed 7 at five seats: playing our first legal card each turn, we
    # cannot follow in our second trick and draw, and Seat 4 plays its last
    # card before our seventh turn (the bots' choices are seeded too).
    rules = RulesModel(variant="domino", players=5)
    async with seeded_server(DOMINO_SEED) as server:
        app = quick_game(server, rules)
        async with app.run_test(size=(80, 24)) as pilot:
            model = app.model

            def over() -> bool:
                return model.view is None or model.view.status != "playing"

            await wait_for(pilot, lambda: model.view is not None, "the table")
            drew = out = False
            while not over():
                await wait_for(pilot, lambda: model.my_turn() or over(), "our turn")
                if over():
                    break
                view = model.view
                assert view is not None and view.seat == 0
                hand = server_hand(server, app)
                if not drew and view.seats[0].drawn:
                    # Our draw, as the server made it, in the log and in our hand.
                    ours = [cards for seat, cards in hand.draws if seat == 0]
                    assert ours, hand.draws
                    drawn = [card_text(c) for c in ours[0]]
                    assert all(c in view.hand for c in drawn)
                    said = "You drew " + " ".join(label(c) for c in drawn) + " from the stock."
                    await wait_for(pilot, shows(app, said), said)
                    assert "stock: " in screen_text(app)  # the side panel counts it
                    assert f"stock: {len(hand.stock)} face down" in screen_text(app)
                    save_svg(app, "domino-we-drew-80x24")
                    drew = True
                gone = [s.seat for s in view.seats if s.out and s.seat != 0]
                if not out and gone:
                    # The table waits for us: the screen is still.
                    assert all(hand.hands[s] == 0 for s in gone)
                    text = screen_text(app)
                    for seat in gone:
                        name = view.seats[seat].name
                        assert under(text, name) == "out", text
                        assert f"{name} has played every card" in text, text
                    for seat in range(1, 5):
                        if seat not in gone:
                            assert under(text, view.seats[seat].name) != "out", text
                    save_svg(app, "domino-seat-out-80x24")
                    out = True
                key = first_legal_key(app)
                played = model.card_for_key(key)
                await pilot.press(key)
                await wait_for(pilot, gone_from_hand(app, played), "our card to be played")
            assert drew and out


CANCELLATION_SEED = 23
# Our cards, trick by trick, at seed 23's ten-seat table: in the sixth trick
# 10♦ is led and its twin 10♦² played by a seat with no other diamond while
# every other seat has none: both cancel, nothing of the led suit stands,
# and the trick is carried. (Found by playing seeded games; the bots'
# choices are seeded too, so the same cards bring the same tricks.)
OUR_CARDS = ("TC", "6S", "2D2", "5D2", "9H", "3H2", "8H")


async def test_a_cancellation_trick_cancels_and_is_carried() -> None:
    rules = RulesModel(variant="cancellation", players=10)
    async with seeded_server(CANCELLATION_SEED) as server:
        # Finished tricks stay until Enter: the carried one can be seen.
        app = quick_game(server, rules, Pacing(card=0.0, trick=60.0))
        async with app.run_test(size=(80, 24)) as pilot:
            model = app.model
            for number, ours in enumerate(OUR_CARDS, start=1):
                await until_our_turn(pilot, app)
                view = model.view
                assert view is not None
                assert ours in view.legal, (number, ours, view.legal)
                await pilot.press(model.key_of(ours))
                await wait_for(pilot, gone_from_hand(app, ours), f"{ours} played")
                if number == 6:
                    break
            # The sixth trick ends carried: it stays on the table, saying so.
            await wait_for(pilot, lambda: model.trick_carried, "the carried trick")
            await wait_for(pilot, shows(app, "Nobody takes it: carried"), "the status")
            hand = server_hand(server, app)
            assert hand.cancelled[5] == mask_of([card("TD"), card("TD") + 52])
            carried = [card_text(c) for c in range(104) if hand.carried >> c & 1]
            assert sorted(p.card for p in model.trick) == sorted(carried)
            text = save_svg(app, "cancellation-carried-80x24")
            assert "10♦" in text and "10♦²" in text
            await pilot.press("enter")  # the trick leaves the table
            await wait_for(pilot, lambda: not model.trick_carried, "the trick to leave")
            await until_our_turn(pilot, app)
            view = model.view
            assert view is not None
            assert view.tricks[5].winner is None and set(view.carried) == set(carried)
            # The history keeps its newest row in sight once laid out.
            await wait_for(pilot, shows(app, "★carried"), "the carried trick's row")
            text = screen_text(app)
            assert "Nobody takes trick 6: its cards go to the next trick's winner." in text
            assert f"{len(carried)} carried cards wait" in text, text
            assert "★carried" in text and "✕ cancelled: 10♦" in text, text
            # The history's rows go on under their cards, never at the edge.
            panel = [line[52:80] for line in text.splitlines()[2:14]]
            assert not any(row.startswith("│10♦") for row in panel), text
            save_svg(app, "cancellation-carried-history-80x24")


async def until_our_turn(pilot: Pilot[None], app: HeartsApp) -> None:
    """Let the game run to our turn, cutting each finished trick's pause
    short with Enter (a carried trick is left for the test to see)."""
    deadline = asyncio.get_running_loop().time() + 20.0
    model = app.model
    while not (model.my_turn() and not model.lingering()):
        assert asyncio.get_running_loop().time() < deadline, screen_text(app)
        if model.lingering() and not model.trick_carried:
            await pilot.press("enter")
        if model.trick_carried:
            return
        await pilot.pause(0.02)
