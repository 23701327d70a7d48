"""Intents: how each request changes a ``TableState``, without any I/O.

Every function checks first and changes after: it raises a ``ClientError``
(a ``RuleViolation`` from the engine, or one of ``server.errors``) with
nothing changed, or it mutates the state and returns the logged events
(``server.logged_events``, without ``seq``: the actor numbers and commits
them). The table actor is the
only caller, one intent at a time.

Table status, besides the hand's own phases (engine/hand.py)::

    waiting ──start──► playing ──hand scored──► between_hands ──all ready──► playing
                          │                          │
                          └──────game over───────────┴──► game_over ──rematch──► playing
"""

from __future__ import annotations

import secrets
from typing import Any

from engine.cards import card
from engine.events import Event, GameOver, HandScored
from engine.game import Game

from . import logged_events as logged
from .errors import Kicked, KnockRequired, NotAllowed, NotFound, NotNow, TableFull
from .logged_events import Events
from .redaction import seat_info
from .table_events import log_event
from .table_state import CHAT_HISTORY, Seat, TableState, hash_token


def _seat_event(table: TableState, seat: int, change: str) -> logged.SeatChanged:
    return logged.SeatChanged(seat=seat_info(table, seat), change=change)


def _engine_events(table: TableState, events: list[Event]) -> Events:
    out: Events = []
    for e in events:
        out.append(log_event(e, table.game.totals if table.game else None, table.players))
        if isinstance(e, HandScored) and table.game and not table.game.over:
            table.status = "between_hands"
            for s in table.seats:
                s.ready = s.kind == "bot"
        if isinstance(e, GameOver):
            table.status = "game_over"
    return out


def _require_host(table: TableState, seat: int | None) -> None:
    if seat != table.host_seat:
        raise NotAllowed("only the host can do that")


def _require_seat(seat: int | None) -> int:
    if seat is None:
        raise NotAllowed("spectators cannot do that; join a seat first")
    return seat


def _game(table: TableState) -> Game:
    if table.game is None or table.status == "waiting":
        raise NotNow("the game has not started yet", "game_not_started")
    return table.game


# -- seats -------------------------------------------------------------------


def sit(
    table: TableState, name: str, player_id: str, seat: int | None, program: bool = False
) -> tuple[int, str, Events]:
    """A player takes ``seat`` (or the first open one); ``program``: a
    program plays it (its hello said so). Returns the seat, its new secret
    token (only its hash is stored) and the events."""
    for i, held in enumerate(table.seats):
        if held.kind == "human" and held.player_id == player_id:
            # A repeated join (its reply was lost in a handover): the same
            # seat again, with a new token, never a second seat.
            token = secrets.token_urlsafe(24)
            held.token_hash = hash_token(token)
            return i, token, []
    require_not_kicked(table, player_id)
    open_seats = table.open_seats()
    if seat is None:
        if not open_seats:
            raise TableFull("the table is full")
        seat = open_seats[0]
    elif not 0 <= seat < table.players or seat not in open_seats:
        raise TableFull(f"seat {seat} is not open")
    token = secrets.token_urlsafe(24)
    table.seats[seat] = Seat(
        kind="human",
        name=table.name_for(seat, name),
        player_id=player_id,
        token_hash=hash_token(token),
        connected=True,
        program=program,
    )
    return seat, token, [_seat_event(table, seat, "joined")]


def require_not_kicked(table: TableState, player_id: str) -> None:
    """Refuse a player the host removed (to sit or to watch)."""
    if table.is_kicked(player_id):
        raise Kicked("the host removed you from this table")


# How many players may wait at one table's door at once, and how many let-ins
# a table remembers (the oldest are forgotten first).
MAX_KNOCKS = 20
MAX_ADMITTED = 100


def admit(table: TableState, player_id: str, invite: str | None) -> None:
    """May this player sit at (or watch) the table? Refuses a kicked player,
    and, at a table whose host approves who sits, anyone without the invite
    link whom the host has not let in (they must knock)."""
    require_not_kicked(table, player_id)
    if invite is not None and not table.invite_matches(invite):
        # Counted as a failed lookup by the connection, like a wrong code.
        raise NotFound("that invite link is not valid; ask for a new one")
    if not table.approval or invite is not None or player_id in table.admitted:
        return
    if any(s.kind == "human" and s.player_id == player_id for s in table.seats):
        return  # already at the table (a repeated join)
    raise KnockRequired("the host lets players in at this table: knock to ask")


def knock(table: TableState, player_id: str, name: str) -> Events:
    """A player asks the host to let them in. The knock is stored (an event
    only the host's view shows), so it waits for a host who is away. None
    when the player was already let in."""
    require_not_kicked(table, player_id)
    if not table.approval:
        raise NotNow("this table lets anyone with the code sit: join it", "knock_not_needed")
    if player_id in table.admitted or table.knocks.get(player_id) == name:
        return []
    if player_id not in table.knocks and len(table.knocks) >= MAX_KNOCKS:
        raise TableFull("too many players are waiting for this table's host; try later")
    table.knocks[player_id] = name
    return [logged.Knocked(player_id=player_id)]


def answer_knock(table: TableState, by: int | None, player_id: str, accept: bool) -> Events:
    """Host: let a knocking player in, or send them away."""
    _require_host(table, by)
    if table.knocks.pop(player_id, None) is None:
        raise NotAllowed("that player is not knocking")
    if accept:
        table.admitted = [*table.admitted, player_id][-MAX_ADMITTED:]
    return [logged.KnockSettled(player_id=player_id, accepted=accept)]


def move_seat(table: TableState, seat: int | None, to: int) -> Events:
    """Before the game: move to another open seat."""
    seat = _require_seat(seat)
    if table.status != "waiting":
        raise NotNow("seats can only change before the game starts", "seats_fixed")
    if seat == table.host_seat:
        raise NotAllowed("the host stays at the host's seat")
    if not 0 <= to < table.players or table.seats[to].kind != "open":
        raise TableFull(f"seat {to} is not open")
    table.seats[to], table.seats[seat] = table.seats[seat], Seat()
    return [_seat_event(table, seat, "opened"), _seat_event(table, to, "joined")]


def vacate(table: TableState, seat: int, change: str) -> Events:
    """A human leaves (or is kicked): before the game the seat opens, during
    it a Medium bot takes the seat for good."""
    old = table.seats[seat]
    if table.status == "waiting":
        table.seats[seat] = Seat()
    else:
        # The bot keeps the player's name, marked, so the seat's earlier
        # hands still read as theirs.
        name = table.name_for(seat, f"{old.name} (bot)")
        table.seats[seat] = Seat(kind="bot", name=name, bot_level="medium", ready=True)
    return [_seat_event(table, seat, change)]


def leave_seat(table: TableState, seat: int | None) -> Events:
    """The player gives up their seat."""
    seat = _require_seat(seat)
    if seat == table.host_seat and table.status == "waiting":
        raise NotAllowed("the host cannot leave before the game starts")
    return vacate(table, seat, "left")


def kick(table: TableState, by: int | None, seat: int) -> Events:
    """Host: remove the human at ``seat``."""
    _require_host(table, by)
    if not 0 <= seat < table.players or table.seats[seat].kind != "human" or seat == by:
        raise NotAllowed("there is no other player at that seat")
    player_id, name = table.seats[seat].player_id, table.seats[seat].name
    if player_id and not table.is_kicked(player_id):
        table.kicked.append([player_id, name])
    return vacate(table, seat, "kicked")


def allow_back(table: TableState, by: int | None, player_id: str) -> Events:
    """Host: a kicked player may join (or watch) this table again."""
    _require_host(table, by)
    if not table.is_kicked(player_id):
        raise NotAllowed("that player was not removed from this table")
    table.kicked = [entry for entry in table.kicked if entry[0] != player_id]
    # Logged so the change is committed and everyone's view shows it; no
    # seat is told anything beyond their next snapshot.
    return [logged.AllowedBack(player_id=player_id)]


def add_bot(table: TableState, by: int | None, seat: int, level: str) -> Events:
    """Host: a bot on an open seat."""
    _require_host(table, by)
    if table.status != "waiting":
        raise NotNow("bots are added before the game starts", "bots_fixed")
    if not 0 <= seat < table.players or table.seats[seat].kind != "open":
        raise TableFull(f"seat {seat} is not open")
    table.seats[seat] = table.new_bot(seat, level)
    return [_seat_event(table, seat, "bot")]


def remove_bot(table: TableState, by: int | None, seat: int) -> Events:
    """Host: open a bot's seat again."""
    _require_host(table, by)
    if table.status != "waiting":
        raise NotNow("bots are removed before the game starts", "bots_fixed")
    if not 0 <= seat < table.players or table.seats[seat].kind != "bot":
        raise NotAllowed("there is no bot at that seat")
    table.seats[seat] = Seat()
    return [_seat_event(table, seat, "opened")]


def set_connected(
    table: TableState, seat: int, connected: bool, program: bool | None = None
) -> Events:
    """A seat's first connection arrived or its last one dropped. A
    connection that comes back says whether it is a ``program``: the seat
    shows who plays it now (a player may hand a seat to their bot, or take
    it back). For a seat still connected, ``program`` is the mark of the
    connections that show it now (one came or went)."""
    s = table.seats[seat]
    if s.kind != "human":
        return []
    if s.connected == connected:
        if connected and program is not None and s.program != program:
            s.program = program
            return [_seat_event(table, seat, "connected")]
        return []
    s.connected = connected
    if connected and program is not None:
        s.program = program
    s.away = not connected
    events: Events = [_seat_event(table, seat, "connected" if connected else "away")]
    if connected:
        s.covering = False
        events += _covered_report(s, seat)
    return events


def _covered_report(s: Seat, seat: int) -> Events:
    """What a bot did in a returning player's name, told to them alone (and
    then forgotten)."""
    if not (s.covered_played or s.covered_passed or s.covered_moon or s.covered_discarded):
        return []
    report = logged.BotCovered(
        seat=seat,
        played=tuple(s.covered_played),
        passed=tuple(s.covered_passed),
        moon_choice=s.covered_moon,
        discarded=tuple(s.covered_discarded),
        moves=tuple(s.covered_moves),
    )
    s.covered_played, s.covered_passed, s.covered_moon = [], [], None
    s.covered_discarded, s.covered_moves = [], []
    return [report]


def start_covering(table: TableState, seat: int) -> Events:
    """The grace period passed: a bot plays for the away human."""
    s = table.seats[seat]
    if s.kind != "human" or s.connected or s.covering or table.is_paused():
        return []
    s.covering = True
    s.ready = True
    return [_seat_event(table, seat, "covering")]


# -- the game ----------------------------------------------------------------


def start_game(table: TableState, by: int | None) -> Events:
    """Host: start; open seats become Medium bots."""
    _require_host(table, by)
    if table.status != "waiting":
        raise NotNow("the game has already started", "game_started")
    events: Events = []
    for i in table.open_seats():
        table.seats[i] = table.new_bot(i, "medium")
        events.append(_seat_event(table, i, "bot"))
    return events + _new_game(table)


def rematch(table: TableState, by: int | None) -> Events:
    """Host, after game over: a new game with the same seats."""
    _require_host(table, by)
    if table.status != "game_over":
        raise NotNow("a rematch starts after the game is over", "rematch_not_yet")
    table.games_played += 1
    return _new_game(table)


def _new_game(table: TableState) -> Events:
    table.game = Game(table.rules)
    table.status = "playing"
    return [logged.GameStarted(), *deal(table)]


def deal(table: TableState) -> Events:
    """Deal the next hand."""
    game = table.game
    if game is None:
        raise NotNow("the game has not started yet", "game_not_started")
    rng = table.deal_rng()
    table.status = "playing"
    for s in table.seats:
        s.ready = False
    return _engine_events(table, game.start_hand(rng))


def pass_cards(table: TableState, seat: int | None, cards: tuple[str, ...]) -> Events:
    """Lock a pass."""
    seat = _require_seat(seat)
    game = _game(table)
    return _engine_events(table, game.pass_cards(seat, [card(c) for c in cards]))


def play_card(table: TableState, seat: int | None, card_text: str) -> Events:
    """Play a card."""
    seat = _require_seat(seat)
    game = _game(table)
    return _engine_events(table, game.play(seat, card(card_text)))


def discard_widow(table: TableState, seat: int | None, cards: tuple[str, ...]) -> Events:
    """Hearts with a widow: the widow's taker puts cards face down."""
    seat = _require_seat(seat)
    game = _game(table)
    return _engine_events(table, game.discard_widow(seat, [card(c) for c in cards]))


def choose_moon(table: TableState, seat: int | None, choice: str) -> Events:
    """The shooter's moon choice."""
    seat = _require_seat(seat)
    return _engine_events(table, _game(table).choose_moon(seat, choice))


def ready(table: TableState, seat: int | None) -> Events:
    """Ready for the next hand; deals when every present human is ready."""
    seat = _require_seat(seat)
    if table.status != "between_hands":
        raise NotNow("there is no hand to wait for", "no_hand_to_wait_for")
    events: Events = []
    if not table.seats[seat].ready:
        table.seats[seat].ready = True
        events.append(_seat_event(table, seat, "ready"))
    if all_ready(table):
        events += deal(table)
    return events


def no_humans_seated(table: TableState) -> bool:
    """Every human left the game for good (bots took their seats): nobody to
    wait for between hands. (A table whose humans are only away is paused
    instead: ``TableState.is_paused``.)"""
    return not any(s.kind == "human" for s in table.seats)


def grace_can_run(table: TableState, seat: int) -> bool:
    """Whether the away human at ``seat`` may be counted down to a bot: only
    while another human is at the table (alone, the table pauses)."""
    s = table.seats[seat]
    return (
        s.kind == "human"
        and not s.connected
        and not s.covering
        and table.status in ("playing", "between_hands")
        and not table.is_paused()
    )


def make_move(table: TableState, seat: int, kind: str, value: Any) -> Events:
    """A move made in ``seat``'s name (a bot's, or a timed-out player's):
    ``kind`` ``pass`` or ``discard`` (``value`` the cards), ``play`` (the
    card) or ``moon`` (the choice); checked like a player's own."""
    if kind == "pass":
        return pass_cards(table, seat, value)
    if kind == "moon":
        return choose_moon(table, seat, value)
    if kind == "discard":
        return discard_widow(table, seat, value)
    return play_card(table, seat, value)


def bot_acted(table: TableState, seat: int, kind: str, value: Any) -> None:
    """Remember what a bot did for a covered human (told to them on return)."""
    s = table.seats[seat]
    if s.kind != "human":
        return
    s.covered_moves = [*s.covered_moves, covered_move(table, kind, value)]
    if kind == "pass":
        s.covered_passed = [*s.covered_passed, *value]
    elif kind == "moon":
        s.covered_moon = value
    elif kind == "discard":
        s.covered_discarded = [*s.covered_discarded, *value]
    else:
        s.covered_played = [*s.covered_played, value]


def covered_move(table: TableState, kind: str, value: Any) -> dict[str, Any]:
    """A bot's move in a player's name, as ``bot_covered`` lists it: ``kind``
    ``pass``, ``discard`` (``value`` the cards), ``play`` (the card) or
    ``moon`` (the choice), in the hand being played."""
    hand = table.game.hand_number if table.game is not None else 0
    if kind == "moon":
        return {"hand_number": hand, "kind": "moon_choice", "cards": [], "choice": value}
    cards = [value] if kind == "play" else list(value)
    return {"hand_number": hand, "kind": kind, "cards": cards, "choice": None}


def all_ready(table: TableState) -> bool:
    """Every human who is here has said ready (bots and covered seats always are)."""
    present = [s for s in table.seats if s.kind == "human" and s.connected]
    return bool(present) and all(s.ready for s in present)


def chat(table: TableState, seat: int | None, name: str, text: str) -> Events:
    """A chat line, also kept in the table's recent chat for those who
    (re)attach later. A seated player speaks under their seat's name (the
    one every view shows); a spectator under the name of their hello."""
    if seat is not None and table.seats[seat].kind == "human":
        name = table.seats[seat].name
    # The one event this intent returns is committed as the next number.
    table.chat.append([table.seq + 1, seat, name, text])
    del table.chat[:-CHAT_HISTORY]
    return [logged.ChatMessage(seat=seat, name=name, text=text)]


def seats_to_decide(table: TableState) -> list[int]:
    """Seats a bot must decide for now (bots and covered humans)."""
    game = table.game
    if game is None or game.hand is None or table.status != "playing" or table.is_paused():
        return []
    seats = table.seats
    return [i for i in game.hand.waiting_seats() if seats[i].is_bot_turn]
