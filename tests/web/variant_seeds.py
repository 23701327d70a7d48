"""How test_variants_live.py's seeds were picked, to pick new ones when a
change of the deal or of the Easy bots moves a moment:

    python -m tests.web.variant_seeds widow 1 20
    python -m tests.web.variant_seeds domino 1 20
    python -m tests.web.variant_seeds cancellation 1 100

Each seed is played on a server of its own (``table_seed``) by a raw client
that plays the human's seat as the test's page does (the same table, the
same cards chosen by their place in the hand, sorted as the page sorts
them), and the line printed says whether the test's moment came and after
how many tricks. Not a test: pytest collects only ``test_*`` files."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from protocol.view import SeatView
from server.app import start_server
from server.config import ServerConfig
from tests.server.harness import WireClient

SUITS = "CDSH"  # the page's hand order: colours alternate
RANKS = "23456789TJQKA"


def page_order(cards: tuple[str, ...] | list[str]) -> list[str]:
    """Cards as the page shows a hand (cards.js ``sortHand``)."""
    return sorted(cards, key=lambda c: (SUITS.index(c[1]), RANKS.index(c[0]), len(c)))


def widow_moment(view: SeatView) -> str | None:
    """After the first trick: did we take the widow, following in it?"""
    if not view.tricks:
        return None
    first = view.tricks[0]
    followed = first.leader != view.seat
    return "ok" if view.widow_seat == view.seat and followed else "no"


def domino_moment(view: SeatView) -> str | None:
    """On our turn: have we drawn, and is a seat out?"""
    if view.seat is None or view.turn != view.seat or view.phase != "play":
        return None
    out = [s.seat for s in view.seats if s.out]
    return (
        f"ok: drew {view.seats[view.seat].drawn}, out {out}"
        if view.seats[view.seat].drawn and out
        else None
    )


def cancellation_moment(view: SeatView) -> str | None:
    """A winnerless trick that a later trick took, and we follow in the first trick."""
    if view.tricks and view.tricks[0].leader == view.seat:
        return "no: we lead the first trick"
    for k, trick in enumerate(view.tricks[:-1]):
        if trick.winner is None:
            return f"ok: trick {k + 1} carried to seat {view.tricks[k + 1].winner}"
    return None


GAMES: dict[str, tuple[RulesModel, Callable[[SeatView], str | None], bool]] = {
    # rules, the moment, whether we play our highest playable card (else the lowest)
    "widow": (RulesModel(variant="widow", players=4, pass_cycle=("hold",)), widow_moment, True),
    "domino": (RulesModel(variant="domino", players=3), domino_moment, False),
    "cancellation": (RulesModel(variant="cancellation", players=9), cancellation_moment, False),
}


async def try_seed(game: str, seed: int, max_plays: int = 16) -> tuple[str | None, int]:
    """Play one hand of ``game`` at seed ``seed``: (the moment, tricks by then)."""
    base, moment, highest = GAMES[game]
    rules = base.model_copy(update={"end": "hands", "end_at": 1})
    server = await start_server(ServerConfig(port=0, bot_workers=1, table_seed=seed))
    try:
        client = await WireClient.open(f"ws://127.0.0.1:{server.port}/ws", "Olena")
        await client.create(seats=("easy",) * (rules.players - 1), rules=rules)
        await client.start()
        seen = plays = 0
        while True:
            i, snapshot = await client.wait_for(lambda m: isinstance(m, sm.Snapshot), start=seen)
            seen = i + 1
            if any(isinstance(f.msg, sm.Snapshot) for f in client.frames[seen:]):
                continue  # act on the latest snapshot only
            view = snapshot.view
            if view.status == "waiting":
                continue  # the table before the start
            found = moment(view)
            if found or view.status != "playing" or plays > max_plays:
                return found, len(view.tricks)
            if view.phase == "widow" and view.widow_seat == view.seat and not view.discarded:
                cards = tuple(page_order(view.hand)[: view.discard_count])
                await client.call(cm.Discard(id=client.next_id(), cards=cards))
            elif view.phase == "play" and view.turn == view.seat:
                legal = [c for c in page_order(view.hand) if c in view.legal]
                plays += 1
                card = legal[-1] if highest else legal[0]
                await client.call(cm.PlayCard(id=client.next_id(), card=card))
    finally:
        await server.close()


async def main(game: str, first: int, last: int) -> None:
    for seed in range(first, last):
        found, tricks = await try_seed(game, seed)
        print(seed, found, f"after {tricks} tricks", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
