"""The table screen's requests whose answers open a screen: the replay of
the finished hands (with a hand's review for a seated player) and the
game's accuracy for the game-over screen."""

from __future__ import annotations

from client.session import ClientSession, RequestFailed, SessionClosed
from protocol import client_messages as cm
from protocol import server_messages as sm

from ..i18n import Msg, Translator
from ..model import TableModel
from ..review import REVIEW_TIMEOUT, review_refusal
from ..table_client import TableClient
from ..widgets.seat_panel import seat_name
from .replay import ReplayScreen


def replay_screen(
    session: ClientSession, model: TableModel, t: Translator, hands: int
) -> ReplayScreen:
    """The replay of the game's ``hands`` finished hands."""

    async def fetch(number: int) -> sm.HandReplay | None:
        try:
            reply = await session.request(cm.GetReplay(id=session.next_id(), hand=number))
        except RequestFailed as exc:
            model.refused(exc.code, exc.message)
            return None
        except (SessionClosed, TimeoutError):
            model.say(Msg("error.no_reply"), "error")
            return None
        return reply if isinstance(reply, sm.HandReplay) else None

    def name(seat: int) -> str:
        current = model.view
        if current is None or not 0 <= seat < len(current.seats):
            return str(seat)
        if seat == current.seat:
            return t("replay.you")
        return seat_name(t, current, current.seats[seat])

    async def review(number: int) -> sm.Analysis | Msg:
        # A review takes the server seconds (longer when its workers are
        # busy): a long wait, and a budget refusal told, not waited out.
        try:
            reply = await session.request_once(
                cm.GetAnalysis(id=session.next_id(), hand=number), timeout=REVIEW_TIMEOUT
            )
        except RequestFailed as exc:
            return review_refusal(exc.code, exc.message, exc.reason, exc.retry_after)
        except (SessionClosed, TimeoutError):
            return Msg("error.no_reply")
        return reply if isinstance(reply, sm.Analysis) else Msg("error.no_reply")

    seated = model.view is not None and model.view.seat is not None
    return ReplayScreen(t, fetch, hands, name, review if seated else None)


async def game_accuracy(client: TableClient | None) -> sm.GameAccuracy | Msg:
    """Every seat's accuracy over the game just finished (for the
    game-over screen): the reply, or why there is none."""
    if client is None:
        return Msg("error.no_reply")
    session = client.session
    try:
        reply = await session.request_once(
            cm.GetAccuracy(id=session.next_id()), timeout=REVIEW_TIMEOUT * 4
        )
    except RequestFailed as exc:
        return review_refusal(exc.code, exc.message, exc.reason, exc.retry_after)
    except (SessionClosed, TimeoutError):
        return Msg("error.no_reply")
    return reply if isinstance(reply, sm.GameAccuracy) else Msg("error.no_reply")
