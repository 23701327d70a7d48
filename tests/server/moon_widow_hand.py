"""A real hand in which seat 0 took the widow, discarded and shot the moon,
played on a real server by three wire clients (the tests of the hand
review's discard and moon choice: tests/server/test_review_moon_widow.py,
tests/web/ and tests/client/tui/ of the same name).

Hearts with a widow for three (16 cards each, 3 in the widow), no passing,
the moon scored as the shooter chooses, one hand. The table's seed
(``ServerConfig.table_seed``) fixes the deal; the three seats are people
played by the test: seat 0 plays for the moon (its highest card, a card
nobody can beat when it leads, its lowest cards discarded), the other two
help it (their lowest card of the suit led, their penalty cards and high
cards thrown away when void). The seed below is one where seat 0 so takes
the first trick (hence the widow) and every penalty card. To pick another
when a change of the deal moves it:

    python -m tests.server.moon_widow_hand 1 40

prints, for each seed, whether seat 0 took the widow and shot the moon.
Not a test: pytest collects only ``test_*`` files."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from dataclasses import dataclass
from typing import Any, Literal

from protocol import client_messages as cm
from protocol.common import RulesModel
from protocol.view import SeatView
from server.app import start_server
from server.config import ServerConfig

from .harness import WireClient, play_until

RULES = RulesModel(
    variant="widow", players=3, pass_cycle=("hold",), moon="choice", end="hands", end_at=1
)
SEED = 2
"""A table seed whose deal lets seat 0 take the widow and shoot the moon."""

MOON_CHOICE: Literal["add", "subtract"] = "subtract"
"""What seat 0 chooses for its moon (not the first of the two offered, so a
review that said the default instead would be caught)."""

RANKS = "23456789TJQKA"
SHOOTER = 0


def rank(card: str) -> int:
    """The card's rank, 0 (two) to 12 (ace)."""
    return RANKS.index(card[0])


def is_penalty(card: str) -> bool:
    """A heart or Q♠: the moon needs every one of them."""
    return card[1] == "H" or card[:2] == "QS"


def _seen(view: SeatView) -> set[str]:
    """The cards seat 0 knows are out of the others' hands: its own, its
    discard and every card played."""
    played = {p.card for t in view.tricks for p in t.cards} | {p.card for p in view.trick}
    return set(view.hand) | set(view.discarded) | played


def _master(card: str, seen: set[str]) -> bool:
    """Whether no card the others may hold beats ``card`` in its suit."""
    return all(f"{r}{card[1]}" in seen for r in RANKS[rank(card) + 1 :])


def shooter_move(view: SeatView, rng: random.Random, rid: int | str) -> cm.Request:
    """Seat 0's move, playing for the moon."""
    if view.status == "between_hands":
        return cm.Ready(id=rid)  # a seed where the hand settled nothing
    if view.phase == "moon_choice":
        return cm.MoonChoice(id=rid, choice=MOON_CHOICE)
    if view.phase == "widow":
        # The lowest cards go (a low heart would lose a trick; discarded it
        # still counts towards the moon), hearts first among equals.
        cards = sorted(view.legal, key=lambda c: (rank(c), not is_penalty(c)))
        return cm.DiscardWidow(id=rid, cards=tuple(cards[: view.discard_count]))
    legal = sorted(view.legal, key=rank, reverse=True)
    if not view.trick:
        seen = _seen(view)
        masters = [c for c in legal if _master(c, seen)]
        if masters:
            return cm.PlayCard(id=rid, card=masters[0])
    return cm.PlayCard(id=rid, card=legal[0])


def helper_move(view: SeatView, rng: random.Random, rid: int | str) -> cm.Request:
    """Seats 1 and 2: never in seat 0's way (at a seed where they take the
    widow or the moon, or the hand settles nothing, anything legal)."""
    if view.status == "between_hands":
        return cm.Ready(id=rid)
    if view.phase == "moon_choice":
        return cm.MoonChoice(id=rid, choice="add")
    legal = list(view.legal)
    if view.phase == "widow":
        return cm.DiscardWidow(id=rid, cards=tuple(legal[: view.discard_count]))
    led = view.trick[0].card[1] if view.trick else None
    following = [c for c in legal if c[1] == led]
    if following:
        return cm.PlayCard(id=rid, card=min(following, key=rank))
    if led is not None:
        # Void: throw a penalty card onto the trick, else the highest card.
        throw = sorted(legal, key=lambda c: (is_penalty(c), c[:2] == "QS", rank(c)))
        return cm.PlayCard(id=rid, card=throw[-1])
    return cm.PlayCard(id=rid, card=min(legal, key=rank))


@dataclass
class PlayedHand:
    """The finished one-hand game: seat 0's client (still connected), the
    hand's record as the server keeps it, and the requests seat 0 made."""

    host: WireClient
    record: dict[str, Any]
    others: tuple[WireClient, ...]
    requests: tuple[cm.Request, ...]

    async def close_all(self) -> None:
        """Close every client."""
        for client in (self.host, *self.others):
            await client.close()


async def play_moon_widow_hand(url: str, name: str = "Mia") -> PlayedHand:
    """Play the hand on the server at ``url`` (whose tables have the seed
    ``SEED``): seat 0 is ``name``'s, the others join by code."""
    host = await WireClient.open(url, name)
    seated = await host.create(seats=("open", "open"), rules=RULES)
    others = []
    for other in ("Oleg", "Nina"):
        client = await WireClient.open(url, other)
        await client.join(seated.code)
        others.append(client)
    await host.start()
    over = lambda v: v.status == "game_over"  # noqa: E731
    requests: list[cm.Request] = []
    await asyncio.gather(
        play_until(
            host,
            random.Random(0),
            over,
            on_action=lambda view, request: requests.append(request),
            chooser=shooter_move,
        ),
        *(play_until(c, random.Random(0), over, chooser=helper_move) for c in others),
    )
    record = json.loads((await host.records())[0])
    return PlayedHand(host, record, tuple(others), tuple(requests))


async def try_seed(seed: int) -> str:
    """One line on what happened to seat 0 at ``seed``."""
    server = await start_server(ServerConfig(port=0, bot_workers=1, table_seed=seed))
    try:
        played = await play_moon_widow_hand(f"ws://127.0.0.1:{server.port}/ws")
        await played.close_all()
    finally:
        await server.close()
    record = played.record
    view = played.host.view
    took = view.widow_seat == SHOOTER and "discard" in record
    moon = record.get("moon_choice") == MOON_CHOICE
    return f"{seed} widow={took} moon={moon} points={view.hands[0].points}"


async def main(first: int, last: int) -> None:
    for seed in range(first, last):
        print(await try_seed(seed), flush=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
