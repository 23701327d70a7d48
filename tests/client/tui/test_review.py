"""The hand review in the terminal, against a real server on 127.0.0.1 whose
evaluator samples few deals (so a review takes a fraction of a second):
after a one-hand game the game-over screen shows each seat's accuracy, the
replay shows our decision beside each trick with its label and the hand's
accuracy, and at 80x24 nothing of either is cut."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from client.tui.app import HeartsApp
from client.tui.i18n import Msg, Translator
from client.tui.launch import Launch, StartServer
from client.tui.model import seat_label
from client.tui.review import accuracy_line, decision_line, review_refusal
from client.tui.screens.dialogs import GameOverScreen
from client.tui.screens.replay import ReplayScreen
from protocol import server_messages as sm
from protocol.common import RulesModel
from server.app import start_server
from server.config import ServerConfig
from tools.local_server import PlayServer, start_resource_tracker

from .conftest import (
    REVIEW_WORLDS,
    make_app,
    play_out_hand,
    review_from_game_over,
    save_svg,
    screen_text,
    wait_for,
)

LABELS = ("inaccuracy", "mistake", "blunder")


def review_server(**settings: float) -> StartServer:
    """``hearts play``'s server with a quick evaluator (20 deals a decision)
    and a fixed seed (the same deals, bot plays and review every run), and
    ``settings`` for the rest."""

    async def start(launch: Launch) -> PlayServer:
        start_resource_tracker()
        config = ServerConfig(
            host="127.0.0.1",
            port=0,
            bot_workers=1,
            bot_budget_ms=launch.bot_budget_ms,
            analysis_worlds=REVIEW_WORLDS,
            table_seed=7,
            **settings,  # type: ignore[arg-type]
        )
        return PlayServer(await start_server(config))

    return start


def one_hand_game() -> Launch:
    return Launch(
        mode="play",
        name="Looker",
        seats=("easy", "easy", "easy"),
        rules=RulesModel(end="hands", end_at=1),
        bot_budget_ms=20,
        local_server=review_server(),
    )


async def finish_game(pilot: object, app: HeartsApp) -> GameOverScreen:
    """Play the one hand; the game-over screen it opens."""
    await wait_for(pilot, app.model.passing, "the pass")
    await play_out_hand(pilot, app)
    await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "game over")
    screen = app.screen
    assert isinstance(screen, GameOverScreen)
    return screen


@pytest.mark.slow
async def test_game_over_shows_every_seats_accuracy_at_80x24() -> None:
    app = make_app(one_hand_game())
    async with app.run_test(size=(80, 24)) as pilot:
        over = await finish_game(pilot, app)
        await wait_for(pilot, lambda: over.answer is not None, "the game's accuracy")
        reply = over.answer
        assert isinstance(reply, sm.GameAccuracy), reply
        await pilot.pause()
        text = save_svg(app, "review-game-over-80x24")
        view = app.model.view
        assert view is not None
        assert reply.hands == 1 and len(reply.seats) == len(view.seats) == 4
        assert "Accuracy over the game (1 hand)" in text
        lines = text.split("\n")
        t = Translator("en")
        for seat in reply.seats:
            acc = seat.accuracy
            assert acc.decisions > 0  # people and bots alike were reviewed
            name = t.term(seat_label(view, seat.seat))[:14]
            mistakes = "mistake" if acc.mistakes == 1 else "mistakes"
            blunders = "blunder" if acc.blunders == 1 else "blunders"
            whole = (
                f"−{acc.mean_loss:.2f} points per decision · {acc.mistakes} {mistakes}"
                f" · {acc.blunders} {blunders}"
            )
            assert any(name in line and whole in line for line in lines), (
                f"{name}: {whole} is not on the screen:\n{text}"
            )
        # Below the accuracy, the key line and the buttons are still there.
        assert "Enter or r: rematch" in text and "Quit" in text and "Rematch" in text


@pytest.mark.slow
async def test_replay_shows_the_review_of_each_trick_at_80x24() -> None:
    app = make_app(one_hand_game())
    async with app.run_test(size=(80, 24)) as pilot:
        await finish_game(pilot, app)
        replay, analysis = await review_from_game_over(pilot, app)
        assert isinstance(analysis, sm.Analysis), analysis
        assert analysis.hand_number == 1 and analysis.seat == app.model.view.seat  # type: ignore[union-attr]
        await pilot.pause()
        text = screen_text(app)
        assert "Review of your decisions" in text and "Trick 1 of 13" in text
        acc = analysis.accuracy
        assert (
            f"Accuracy: −{acc.mean_loss:.2f} points per decision ({acc.decisions} decisions)"
            in text
        )
        assert "← → tricks · ↑ ↓ hands · Esc closes" in text  # nothing pushed off at 80x24
        passed = next(d for d in analysis.decisions if d.kind == "pass")
        assert "Pass: " in text
        if passed.chosen != passed.best:
            assert f"better {' '.join(_labels(passed.best))}" in text
        # Step through the tricks: each shows our card in it, and the
        # labelled ones their label, the better card and the loss.
        labelled = [d for d in analysis.decisions if d.kind == "play" and d.label is not None]
        assert labelled, "the seeded hand has no labelled play: pick another seed"
        seen: list[str] = []
        for trick in range(13):
            text = screen_text(app)
            assert f"Trick {trick + 1} of 13" in text
            play = next(d for d in analysis.decisions if d.kind == "play" and d.trick == trick)
            assert "Your card: " in text
            if play.label is not None:
                assert play.label in text and play.loss is not None
                assert f"−{play.loss:.1f} points" in text
                seen.append(play.label)
                if len(seen) == 1:
                    save_svg(app, "review-replay-80x24")
            elif play.best == play.chosen:
                assert "the best choice" in text
            await pilot.press("right")
            await pilot.pause()
        assert seen and all(label in LABELS for label in seen)

        # The same hand again, its review held back: "Reviewing…" under the
        # hand until the answer comes, then the refusal's sentence.
        hand = replay.replay
        assert hand is not None
        answered = asyncio.Event()

        async def same_hand(number: int) -> sm.HandReplay:
            return hand

        async def held_review(number: int) -> sm.Analysis | Msg:
            await answered.wait()
            return review_refusal("rate_limited", "busy", None, 4.5)

        await pilot.press("escape")
        again = ReplayScreen(Translator("en"), same_hand, 1, str, held_review)
        await app.push_screen(again)
        await wait_for(pilot, lambda: "Reviewing…" in screen_text(app), "the reviewing state")
        assert "Trick 1 of 13" in screen_text(app)  # the hand is shown meanwhile
        answered.set()
        await wait_for(pilot, lambda: 1 in again.reviews, "the answer")
        await pilot.pause()
        text = screen_text(app)
        assert "Reviewing…" not in text
        assert "Many hands are being reviewed just now: try again in 5 s." in text


def _labels(cards: tuple[str, ...] | None) -> list[str]:
    from client.tui.cards import label

    return [label(c) for c in cards or ()]


def test_a_refused_review_says_when_to_try_again() -> None:
    for language, wait in (("en", "in 3 s"), ("uk", "за 3 с"), ("ru", "через 3 с")):
        t = Translator(language)  # type: ignore[arg-type]
        assert wait in t.text(review_refusal("rate_limited", "busy", None, 2.2))
    t = Translator("en")
    unfinished = review_refusal("not_now", "not finished", "analysis_not_finished", None)
    assert t.text(unfinished).startswith("That hand is not finished yet")
    assert t.text(review_refusal("not_allowed", "spectator", None, None)) == "spectator"
    assert isinstance(unfinished, Msg)


async def test_game_over_says_reviewing_until_the_accuracy_comes() -> None:
    from textual.app import App

    from client.tui.model import TableModel

    answered = asyncio.Event()

    async def fetch() -> sm.GameAccuracy | Msg:
        await answered.wait()
        return review_refusal("rate_limited", "busy", None, 41.5)

    screen = GameOverScreen(Translator("en"), TableModel(), fetch)
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(screen)
        await wait_for(pilot, lambda: "Reviewing…" in screen_text(app), "the reviewing state")
        assert "Accuracy over the game" in screen_text(app)
        answered.set()
        await wait_for(pilot, lambda: screen.answer is not None, "the answer")
        await pilot.pause()
        text = screen_text(app)
        assert "Reviewing…" not in text
        assert "Many hands are being reviewed just now: try again in 42 s." in text


@pytest.mark.slow
async def test_game_over_says_when_to_try_again_when_the_review_budget_is_spent() -> None:
    # One seat-hand at once, refilled at one every two minutes: the game's
    # four seat-hands are over the budget.
    stingy_server = review_server(analysis_burst=1, analysis_per_minute=0.5)
    launch = dataclasses.replace(one_hand_game(), local_server=stingy_server)
    app = make_app(launch, language="uk")
    async with app.run_test(size=(80, 24)) as pilot:
        over = await finish_game(pilot, app)
        await wait_for(pilot, lambda: over.answer is not None, "the refusal")
        assert isinstance(over.answer, Msg) and over.answer.key == "review.rate_limited"
        await pilot.pause()
        text = screen_text(app)
        assert "Зараз розбирають багато роздач: спробуйте ще раз за" in text


@pytest.mark.parametrize(
    ("language", "loss", "mean"),
    [("en", "1.5", "0.42"), ("uk", "1,5", "0,42"), ("ru", "1,5", "0,42")],
)
def test_the_review_writes_decimals_the_language_s_way(language: str, loss: str, mean: str) -> None:
    """A point in English, a comma in Ukrainian and Russian (0,5)."""
    t = Translator(language)  # type: ignore[arg-type]
    play = sm.ReviewedDecision(
        kind="play", chosen=("QS",), best=("2C",), loss=1.5, label="inaccuracy", trick=0
    )
    assert f"−{loss} " in decision_line(t, play).plain
    accuracy = sm.Accuracy(decisions=13, mean_loss=0.42, inaccuracies=1, mistakes=0, blunders=0)
    assert f"−{mean} " in accuracy_line(t, accuracy).plain
