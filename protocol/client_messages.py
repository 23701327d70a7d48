"""Messages a client sends. Each is a request: it carries ``id`` and gets
exactly one reply (``ok``, ``error`` or a specific reply) with the same id.

Client messages are strict (no ``true`` or ``1.0`` for an integer, no bytes
for a string, arrays only where the model has a tuple) and every field is
bounded: a string by its length, an integer by its range, an array by its
number of entries, a map by its fixed fields."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StringConstraints

from .common import (
    MAX_CHAT_CHARS,
    MAX_PLAYERS,
    MAX_SAFE_INT,
    MAX_TABLE_NAME_CHARS,
    BotLevel,
    Card,
    Name,
    RequestId,
    RulesModel,
    SeatSpec,
    WireModel,
)

Token = Annotated[str, StringConstraints(min_length=16, max_length=128)]
InviteCode = Annotated[str, StringConstraints(strip_whitespace=True, min_length=4, max_length=16)]
# The secret part of an invite link (``/t/CODE#k=SECRET``): whoever holds it
# may sit without asking and without touching the address's lookup budget.
InviteSecret = Annotated[str, StringConstraints(min_length=1, max_length=64)]
SeatIndex = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
# The turn timers a host may choose (seconds per move).
TurnSeconds = Literal[15, 30, 60]
SafeInt = Annotated[int, Field(ge=0, le=MAX_SAFE_INT)]


class Request(WireModel):
    """Common fields of every client message."""

    # Strict: what a client sends must already have the field's type; the
    # codec also validates nested models (the rules) strictly.
    model_config = ConfigDict(strict=True)

    id: RequestId


class Hello(Request):
    """First message of a connection: protocol version, display name and the
    player token from an earlier ``welcome`` (omit it the first time).
    ``program``: this connection is a program playing by itself (a bot of
    the player's own, ``hearts bot``), not a person; the seat it takes is
    shown as such to everyone."""

    type: Literal["hello"] = "hello"
    version: SafeInt
    name: Name
    player_token: Token | None = None
    client: Annotated[str, StringConstraints(max_length=40)] = ""
    program: bool = False


class CreateTable(Request):
    """Create a table and sit at seat 0 as its host. ``seats`` names the other
    seats in play order from the host's left: ``open`` or a bot level; the
    table has ``rules.players`` seats (the variant's count when not given):
    entries beyond them are ignored, missing ones are ``open``."""

    type: Literal["create_table"] = "create_table"
    name: Annotated[
        str, StringConstraints(strip_whitespace=True, max_length=MAX_TABLE_NAME_CHARS)
    ] = ""
    public: bool = False
    rules: RulesModel = RulesModel()
    seats: tuple[SeatSpec, ...] = Field(
        default=("open", "open", "open"), max_length=MAX_PLAYERS - 1
    )
    # "Ask me before someone sits": a player with the code but not the invite
    # link must knock and wait for the host (``knock``, ``answer_knock``).
    approval: bool = False
    # Seconds each seat has for a move (pass, play, moon choice); when they
    # run out, a bot makes the move for the seat. None: no turn timer.
    turn_seconds: TurnSeconds | None = None


class ListTables(Request):
    """Public tables waiting for players."""

    type: Literal["list_tables"] = "list_tables"


class JoinTable(Request):
    """Join by invite code, at ``seat`` or the first open seat. ``invite`` is
    the secret of an invite link, when the player has the link."""

    type: Literal["join_table"] = "join_table"
    code: InviteCode
    seat: SeatIndex | None = None
    invite: InviteSecret | None = None


class Knock(Request):
    """Ask the host of a table that wants approval to let you sit (after
    ``join_table`` answered ``knock_required``). Answered ``ok`` at once; the
    host's answer comes later as ``knock_answered``."""

    type: Literal["knock"] = "knock"
    code: InviteCode


class GetTableFacts(Request):
    """What a table is, before you sit at it: its name, host, rules and who
    sits (answered ``table_facts``). Found like ``join_table`` finds it, by
    ``code`` or by the invite link's ``invite``, and a code that names no
    table is refused the same way and counts the same against your
    address's budget of wrong codes: asking is no cheaper way to guess."""

    type: Literal["get_table_facts"] = "get_table_facts"
    code: InviteCode
    invite: InviteSecret | None = None


class AnswerKnock(Request):
    """Host: let a knocking player in (``accept``) or send them away."""

    type: Literal["answer_knock"] = "answer_knock"
    player_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    accept: bool


class TakeSeat(Request):
    """Move to another open seat before the game starts."""

    type: Literal["take_seat"] = "take_seat"
    seat: SeatIndex


class LeaveSeat(Request):
    """Give up your seat (before the game: it opens; during it: a bot takes over)."""

    type: Literal["leave_seat"] = "leave_seat"


class AddBot(Request):
    """Host: put a bot of ``level`` on an open seat."""

    type: Literal["add_bot"] = "add_bot"
    seat: SeatIndex
    level: BotLevel


class RemoveBot(Request):
    """Host: open a bot's seat again (before the game starts)."""

    type: Literal["remove_bot"] = "remove_bot"
    seat: SeatIndex


class Kick(Request):
    """Host: remove the human at ``seat`` (a bot takes the seat in a game)."""

    type: Literal["kick"] = "kick"
    seat: SeatIndex


class AllowBack(Request):
    """Host: let a kicked player (``player_id`` from the view's ``kicked``)
    join this table again."""

    type: Literal["allow_back"] = "allow_back"
    player_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class StartGame(Request):
    """Host: start; empty seats become bots (Medium)."""

    type: Literal["start_game"] = "start_game"


class PassCards(Request):
    """Lock your pass: exactly the rules' count of cards from your hand."""

    type: Literal["pass_cards"] = "pass_cards"
    cards: tuple[Card, ...] = Field(max_length=13)


class PlayCard(Request):
    """Play a card on your turn."""

    type: Literal["play_card"] = "play_card"
    card: Card


class DiscardWidow(Request):
    """Hearts with a widow: having taken the widow, put as many cards face
    down on your taken pile (the view's ``discard_count``)."""

    type: Literal["discard"] = "discard"
    cards: tuple[Card, ...] = Field(max_length=13)


class MoonChoice(Request):
    """After shooting the moon, when the rules let you choose."""

    type: Literal["moon_choice"] = "moon_choice"
    choice: Literal["add", "subtract"]


class Hint(Request):
    """Ask what the Medium bot would do in your seat now, from your own view
    only (it sees nothing you do not). Answered with ``advice``; refused with
    ``not_now`` when nothing is asked of your seat. Nothing changes at the
    table and nobody else is told."""

    type: Literal["hint"] = "hint"


class Undo(Request):
    """Take back your last card of this hand, and the bots' cards played
    since, on your turn at a table where no other human plays."""

    type: Literal["undo"] = "undo"


class Claim(Request):
    """Claim every trick left, on your turn: the server checks the claim
    against every hand and, if it holds whatever the others play, plays the
    hand out (``claim_made`` tells everyone why); otherwise it is refused
    (``claim_refused``) and nothing changes."""

    type: Literal["claim"] = "claim"


class Ready(Request):
    """Ready for the next hand ("Next hand")."""

    type: Literal["ready"] = "ready"


class Rematch(Request):
    """Host, after game over: a new game at the same table and seats."""

    type: Literal["rematch"] = "rematch"


class Chat(Request):
    """A chat line to the table."""

    type: Literal["chat"] = "chat"
    text: Annotated[
        str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_CHAT_CHARS)
    ]


class Resume(Request):
    """Reattach to a seat after a drop or a reload; ``last_seq`` is the
    number of the last event you saw: the events after it that the log
    holds are sent again (0: you saw none, so all of them)."""

    type: Literal["resume"] = "resume"
    table_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    seat_token: Token
    last_seq: SafeInt = 0


class Watch(Request):
    """Watch a table as a spectator (public information only). ``invite``
    as for ``join_table``."""

    type: Literal["watch"] = "watch"
    code: InviteCode
    invite: InviteSecret | None = None


class Leave(Request):
    """Stop receiving the table's events (your seat stays yours until the
    grace period passes; use ``leave_seat`` to give it up)."""

    type: Literal["leave"] = "leave"


class GetRecords(Request):
    """The hand records of one of your table's finished games (a game in
    play has none to give: its hands hold the other seats' cards).
    ``game``: which finished game, from 1 (oldest), the latest when left
    out; ``from_hand``: the first hand wanted (a reply holds a bounded
    amount of records, and ``next_hand`` says where the rest start)."""

    type: Literal["get_records"] = "get_records"
    game: Annotated[int, Field(ge=1, le=MAX_SAFE_INT)] | None = None
    from_hand: Annotated[int, Field(ge=1, le=MAX_SAFE_INT)] = 1


class GetReplay(Request):
    """A finished hand of one of the table's games, trick by trick, as your
    seat may know it (``hand``: its number, from 1; ``game``: which game,
    from 1, the current one when left out)."""

    type: Literal["get_replay"] = "get_replay"
    hand: Annotated[int, Field(ge=1, le=1000)]
    game: Annotated[int, Field(ge=1, le=MAX_SAFE_INT)] | None = None


class GetAnalysis(Request):
    """The review of your own decisions in a finished hand of one of the
    table's games (``hand``: its number, from 1; ``game``: which game, from
    1, the current one when left out): for each decision the option chosen,
    the best one by the server's evaluator and the expected loss in points
    (docs/protocol.md "Hand review")."""

    type: Literal["get_analysis"] = "get_analysis"
    hand: Annotated[int, Field(ge=1, le=1000)]
    game: Annotated[int, Field(ge=1, le=MAX_SAFE_INT)] | None = None


class GetAccuracy(Request):
    """Every seat's accuracy over a finished game of the table (``game``:
    which game, from 1, the latest finished one when left out): the mean
    expected loss per decision and the counts of inaccuracies, mistakes and
    blunders (docs/protocol.md "Hand review")."""

    type: Literal["get_accuracy"] = "get_accuracy"
    game: Annotated[int, Field(ge=1, le=MAX_SAFE_INT)] | None = None


class GetStats(Request):
    """Your statistics."""

    type: Literal["get_stats"] = "get_stats"


class Ping(Request):
    """Liveness check; answered with ``ok``."""

    type: Literal["ping"] = "ping"


ClientMessage = Annotated[
    Hello
    | CreateTable
    | ListTables
    | JoinTable
    | Knock
    | GetTableFacts
    | AnswerKnock
    | TakeSeat
    | LeaveSeat
    | AddBot
    | RemoveBot
    | Kick
    | AllowBack
    | StartGame
    | PassCards
    | PlayCard
    | DiscardWidow
    | MoonChoice
    | Hint
    | Undo
    | Claim
    | Ready
    | Rematch
    | Chat
    | Resume
    | Watch
    | Leave
    | GetRecords
    | GetReplay
    | GetAnalysis
    | GetAccuracy
    | GetStats
    | Ping,
    Field(discriminator="type"),
]
"""Every message a client may send, told apart by ``type``."""
