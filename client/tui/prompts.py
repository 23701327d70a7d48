"""The prompt line: what the table is waiting for, said to the player (or
to a spectator, who is told what the players are doing)."""

from __future__ import annotations

from .cards import labels
from .i18n import Msg, Term
from .model import TableModel, passed_summary, seat_label
from .seats import seat_keys


def prompt_msg(model: TableModel) -> Msg:
    """The sentence of the prompt line now."""
    view = model.view
    if view is None:  # connected, no table yet (a knock waits): nothing to say
        return Msg("prompt.connecting") if model.connection == "connecting" else Msg.raw("")
    if model.connection == "lost":
        return Msg("prompt.lost")
    if model.spectating():
        return _watching(model)
    if view.status == "waiting":
        host = view.seat == view.host_seat
        if host:
            return Msg("prompt.lobby_host", {"keys": seat_keys(view)})
        return Msg("prompt.lobby_guest")
    if view.status == "game_over":
        return Msg("prompt.game_over")
    if view.status == "between_hands":
        me = view.seats[model.me]
        return Msg("prompt.waiting_ready" if me.ready else "prompt.hand_over")
    if view.phase == "pass":
        if view.passed:
            return passed_summary(view)
        k = view.rules.pass_count
        direction = Term("dir." + (view.pass_direction or "hold"))
        return Msg("prompt.pass", {"k": k, "n": len(model.selected), "dir": direction})
    if view.phase == "widow" and view.widow_seat is not None:
        if model.discarding():
            cards = labels(view.widow)
            return Msg("widow.choose", {"n": view.discard_count, "cards": cards})
        name = seat_label(view, view.widow_seat)
        return Msg("widow.waiting", {"name": name, "n": view.discard_count})
    if view.phase == "moon_choice":
        shooter = view.moon_shooter
        if shooter is not None and shooter == view.seat:
            return Msg("prompt.moon_you")
        name = seat_label(view, shooter) if shooter is not None else "?"
        return Msg("prompt.moon_wait", {"name": name})
    if model.my_turn():
        return Msg("prompt.lead" if not view.trick else "prompt.your_turn")
    if view.turn is not None:
        return Msg("prompt.waiting_turn", {"name": seat_label(view, view.turn)})
    return Msg.raw("")


def _watching(model: TableModel) -> Msg:
    """A spectator's prompt: what the players are doing."""
    view = model.view
    assert view is not None  # checked by the caller
    if view.status == "waiting":
        return Msg("prompt.watch_lobby")
    if view.status == "game_over":
        return Msg("prompt.game_over")
    if view.paused:
        return Msg("prompt.watch_paused")
    if view.status == "between_hands":
        return Msg("prompt.watch_hand_over")
    if view.phase == "pass":
        return Msg("prompt.watch_pass", {"dir": Term("dir." + (view.pass_direction or "hold"))})
    if view.phase == "moon_choice" and view.moon_shooter is not None:
        return Msg("prompt.moon_wait", {"name": seat_label(view, view.moon_shooter)})
    if view.turn is not None:
        return Msg("prompt.watch_turn", {"name": seat_label(view, view.turn)})
    return Msg("prompt.watch_lobby")
