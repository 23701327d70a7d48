"""Messages the server sends.

Replies answer one request and carry its ``id``. Table events carry ``seq``,
numbered per table from 1 with no gaps *in the table's log*; a seat may not be
sent every number (a pass between two other seats is not its business), so
clients use ``seq`` only to say where to resume from. After each accepted
action a seat receives that action's events and then a ``snapshot`` whose
view is the truth at that ``seq``: clients render snapshots and use events
for animation and announcements.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .common import BotLevel, Card, RequestId, RulesModel, WireModel
from .view import PassDirection, SeatInfo, SeatKind, SeatView, TableStatus, TrickRecord

# -- replies -----------------------------------------------------------------


class Welcome(WireModel):
    """Reply to ``hello``. Keep ``player_token`` secret: it proves who you
    are. ``version`` is the protocol's; ``server`` names the server and
    ``server_version`` gives its release."""

    type: Literal["welcome"] = "welcome"
    id: RequestId
    version: int
    player_id: str
    player_token: str
    server: str
    # The server's release (as /healthz says it), e.g. "0.1.0"; empty from
    # servers before the field.
    server_version: str = ""


class Ok(WireModel):
    """A request was accepted (or had already been, for a repeated id).
    ``seq``, for a request to a table: the table's event number once the
    request was applied (its last event's, when it caused any): every
    snapshot from that ``seq`` on shows it. Absent for a request that is
    not a table's (``ping``, ``leave``)."""

    type: Literal["ok"] = "ok"
    id: RequestId
    # Left out of the frame when absent, like ``Error.retry_after``.
    seq: int | None = Field(default=None, ge=0, exclude_if=lambda v: v is None)


class Error(WireModel):
    """A request was refused; nothing changed. ``code`` is stable (see
    docs/protocol.md), ``message`` is a sentence for the player. ``id`` is
    null when the frame could not be read far enough to find it.
    ``retry_after`` (seconds) comes with ``rate_limited`` (the request may
    be sent again, with the same id, after that long), ``too_many_tables``
    and ``server_full`` (a table may be created again after that long)."""

    type: Literal["error"] = "error"
    id: RequestId | None = None
    code: str
    message: str
    # With ``rate_limited``, ``too_many_tables`` and ``server_full``: seconds
    # to wait before sending the request again.
    # Left out of the frame when absent: every other error keeps its bytes.
    retry_after: float | None = Field(default=None, ge=0, exclude_if=lambda v: v is None)
    # With ``not_now`` (and ``claim_refused``), ``too_many_tables`` and
    # ``server_full``: which case, a stable key
    # (docs/protocol.md lists them) for a client to say in its language.
    # Left out when absent, like ``retry_after``.
    reason: str | None = Field(default=None, max_length=40, exclude_if=lambda v: v is None)


class Seated(WireModel):
    """Reply to ``create_table``, ``join_table``, ``resume`` and ``watch``:
    where you sit. ``seat_token`` is secret and proves the seat on ``resume``
    (empty for spectators and on ``resume``). ``join_path`` is the link to
    share: for a player ``/t/CODE#k=SECRET`` (whoever has it sits at once),
    for a spectator ``/t/CODE``."""

    type: Literal["seated"] = "seated"
    id: RequestId
    table_id: str
    code: str
    seat: int | None
    seat_token: str = ""
    join_path: str


class TableSummary(WireModel):
    """A public table in the lobby listing."""

    table_id: str
    code: str
    name: str
    host: str
    open_seats: int
    bots: int
    rules: dict[str, object]


class Tables(WireModel):
    """Reply to ``list_tables``."""

    type: Literal["tables"] = "tables"
    id: RequestId
    tables: tuple[TableSummary, ...]


class TableFactsSeat(WireModel):
    """One seat of a table described by ``table_facts``: who sits there
    (``kind`` "open" when nobody does), by the seat's one name (as in every
    view's ``SeatInfo``), a bot's level."""

    seat: int
    kind: SeatKind
    name: str
    bot_level: BotLevel | None = None
    program: bool = False


class TableFacts(WireModel):
    """Reply to ``get_table_facts``: what anyone holding the table's code may
    know before sitting, taken from a spectator's view of the table and
    nothing more (no player ids, no tokens, no cards). ``host`` is the
    host's seat name; ``approval``: the host lets people sit only after a
    knock (an invite link's holder sits at once)."""

    type: Literal["table_facts"] = "table_facts"
    id: RequestId
    code: str
    name: str
    host: str
    host_seat: int
    public: bool
    rules: RulesModel
    status: TableStatus
    seats: tuple[TableFactsSeat, ...]
    approval: bool = False
    turn_seconds: int | None = None


class Records(WireModel):
    """Reply to ``get_records``: hand records (docs/hand-record.md) as JSON
    text, of one finished game of the table. ``game``: which (from 1; None
    while no game is finished); ``games``: how many finished games the table
    has; ``next_hand``: the hand the rest of this game's records start at
    (ask again with ``from_hand``), None when these are the last. Servers
    before these three fields sent none (and every hand of every game)."""

    type: Literal["records"] = "records"
    id: RequestId
    records: tuple[str, ...]
    game: int | None = None
    games: int = 0
    next_hand: int | None = None


class HandReplay(WireModel):
    """Reply to ``get_replay``: a finished hand as the asking seat may know
    it. Every trick (who led, each card and who played it, who won, its
    points) and each seat's points; for a player also the cards it was
    dealt, the cards it passed and the cards it received (never another
    seat's pass or deal); for a spectator those are empty."""

    type: Literal["hand_replay"] = "hand_replay"
    id: RequestId
    hand_number: int
    # Which game of the table, from 1 (None from servers before the field).
    game: int | None = None
    seat: int | None
    direction: PassDirection
    dealt: tuple[Card, ...]
    passed: tuple[Card, ...]
    received: tuple[Card, ...]
    tricks: tuple[TrickRecord, ...]
    points: tuple[int, ...]
    shooter: int | None = None


class ReviewedDecision(WireModel):
    """One decision in a hand review. ``kind``: ``pass``, ``play``,
    ``discard`` (the widow's) or ``moon_choice``; ``chosen`` and ``best``:
    the cards (one for a play) or the moon choice (``add``, ``subtract``);
    ``loss``: the expected points lost against ``best`` (0 when the choice
    is the best); ``label``: ``inaccuracy`` (loss ≥ 0.5), ``mistake``
    (≥ 1.5), ``blunder`` (≥ 4) or null; ``trick``: a play's trick, from 0.
    ``best`` and ``loss`` are null for a decision the evaluator does not
    judge (none in today's rules: every decision they ask is judged)."""

    kind: Literal["pass", "play", "discard", "moon_choice"]
    chosen: tuple[str, ...]
    best: tuple[str, ...] | None
    loss: float | None
    label: Literal["inaccuracy", "mistake", "blunder"] | None
    trick: int | None = None


class Accuracy(WireModel):
    """A seat's accuracy over some decisions: ``mean_loss``, the mean
    expected loss in points per judged decision (lower is better), over
    ``decisions`` of them, and how many got each label."""

    decisions: int
    mean_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int


class Analysis(WireModel):
    """Reply to ``get_analysis``: the review of the asking seat's own
    decisions in one finished hand, in the order they were made, and its
    accuracy over them. Judged from what the seat knew at each moment."""

    type: Literal["analysis"] = "analysis"
    id: RequestId
    hand_number: int
    game: int
    seat: int
    decisions: tuple[ReviewedDecision, ...]
    accuracy: Accuracy


class SeatAccuracy(WireModel):
    """One seat's line in ``game_accuracy``."""

    seat: int
    accuracy: Accuracy


class GameAccuracy(WireModel):
    """Reply to ``get_accuracy``: every seat's accuracy over all the hands
    of a finished game, people and bots alike."""

    type: Literal["game_accuracy"] = "game_accuracy"
    id: RequestId
    game: int
    hands: int
    seats: tuple[SeatAccuracy, ...]


class Advice(WireModel):
    """Reply to ``hint``: what the Medium bot would do in your seat, judged
    from your own view. ``kind`` says what is asked of you: ``pass`` (the
    cards to pass), ``play`` (one card in ``cards``) or ``moon_choice``
    (``choice``)."""

    type: Literal["advice"] = "advice"
    id: RequestId
    kind: Literal["pass", "play", "moon_choice"]
    cards: tuple[Card, ...] = ()
    choice: Literal["add", "subtract"] | None = None


class Stats(WireModel):
    """Reply to ``get_stats``."""

    type: Literal["stats"] = "stats"
    id: RequestId
    games: int
    wins: int
    hands: int
    average_points: float
    moons: int
    queens: int


# -- table events ------------------------------------------------------------


class Snapshot(WireModel):
    """Your whole view of the table at event ``seq``."""

    type: Literal["snapshot"] = "snapshot"
    seq: int
    view: SeatView


class SeatChanged(WireModel):
    """A seat changed: joined, left, connected, went away, bot added or covering."""

    type: Literal["seat_changed"] = "seat_changed"
    seq: int
    seat: SeatInfo
    change: Literal[
        "joined", "left", "connected", "away", "bot", "covering", "kicked", "opened", "ready"
    ]


class GameStarted(WireModel):
    """The host started the game (or a rematch)."""

    type: Literal["game_started"] = "game_started"
    seq: int


class HandDealt(WireModel):
    """A new hand; ``cards`` are yours (empty for spectators);
    ``stock_count`` cards were dealt face down (widow, stock, rest)."""

    type: Literal["hand_dealt"] = "hand_dealt"
    seq: int
    hand_number: int
    direction: PassDirection
    cards: tuple[Card, ...]
    stock_count: int = 0


class PassLocked(WireModel):
    """``seat`` has chosen its cards to pass."""

    type: Literal["pass_locked"] = "pass_locked"
    seq: int
    seat: int


class CardsReceived(WireModel):
    """The cards passed to you, and from whom (sent to the receiver only)."""

    type: Literal["cards_received"] = "cards_received"
    seq: int
    from_seat: int
    cards: tuple[Card, ...]


class PlayBegins(WireModel):
    """Passing is over; ``leader`` holds 2♣ and leads."""

    type: Literal["play_begins"] = "play_begins"
    seq: int
    leader: int


class CardPlayed(WireModel):
    """``seat`` played ``card`` to trick ``trick`` (0-based)."""

    type: Literal["card_played"] = "card_played"
    seq: int
    seat: int
    card: Card
    trick: int


class HeartsBroken(WireModel):
    """Hearts may be led from now on."""

    type: Literal["hearts_broken"] = "hearts_broken"
    seq: int
    seat: int


class TrickWon(WireModel):
    """A trick is complete; ``cards`` in play order from ``leader``, played
    by ``seats`` (a seat that dropped out plays no more). Cancellation
    Hearts: ``cancelled`` cards cancelled, and ``carried`` are the cards of
    earlier carried tricks the winner takes along (``points`` counts them)."""

    type: Literal["trick_won"] = "trick_won"
    seq: int
    trick: int
    leader: int
    winner: int
    cards: tuple[Card, ...]
    points: int
    seats: tuple[int, ...] = ()
    cancelled: tuple[Card, ...] = ()
    carried: tuple[Card, ...] = ()


class TrickCarried(WireModel):
    """Cancellation Hearts: no card of the led suit stood in trick ``trick``
    (identical cards cancel); nobody wins it, its cards wait for the next
    trick's winner and ``leader`` leads again."""

    type: Literal["trick_carried"] = "trick_carried"
    seq: int
    trick: int
    leader: int
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    cancelled: tuple[Card, ...]


class WidowTaken(WireModel):
    """Hearts with a widow: ``seat`` won the first trick and took the
    ``count`` widow cards into its hand; ``cards`` are sent to it alone
    (empty for everybody else). It discards as many next."""

    type: Literal["widow_taken"] = "widow_taken"
    seq: int
    seat: int
    count: int
    cards: tuple[Card, ...] = ()


class WidowDiscarded(WireModel):
    """``seat`` put ``count`` cards face down on its taken pile; ``cards``
    are sent to it alone. It leads the next trick."""

    type: Literal["widow_discarded"] = "widow_discarded"
    seq: int
    seat: int
    count: int
    cards: tuple[Card, ...] = ()


class CardsDrawn(WireModel):
    """Domino Hearts: ``seat`` could not follow and drew ``count`` cards
    from the stock; ``cards`` are sent to it alone."""

    type: Literal["cards_drawn"] = "cards_drawn"
    seq: int
    seat: int
    count: int
    cards: tuple[Card, ...] = ()


class SeatOut(WireModel):
    """Domino Hearts: ``seat`` played its last card and is out of the hand."""

    type: Literal["seat_out"] = "seat_out"
    seq: int
    seat: int


class LeftoverTaken(WireModel):
    """Domino Hearts: play is over; ``seat`` takes the unplayed ``cards``
    (its own hand and the stock), shown to all."""

    type: Literal["leftover_taken"] = "leftover_taken"
    seq: int
    seat: int
    cards: tuple[Card, ...]


class RestTaken(WireModel):
    """Cancellation Hearts: the ``count`` face-down cards left over by the
    deal join ``seat``'s taken pile (it won the first trick); ``cards`` are
    sent to it alone."""

    type: Literal["rest_taken"] = "rest_taken"
    seq: int
    seat: int
    count: int
    cards: tuple[Card, ...] = ()


class PlaysUndone(WireModel):
    """``seat`` took back its last card: ``cards`` (in play order, that
    seat's card first, then the bots' replies) are back in their hands and
    ``trick`` (0-based) is the trick now being played. The snapshot that
    follows shows the table as it is again."""

    type: Literal["plays_undone"] = "plays_undone"
    seq: int
    seat: int
    cards: tuple[Card, ...]
    trick: int


class ClaimMade(WireModel):
    """``seat`` claimed the ``tricks`` tricks left and the server proved it:
    ``reason`` is ``top_cards`` (that seat holds the top cards of every suit
    left to it) or ``every_line`` (every way the others could play was
    checked). The hand's remaining cards follow as ``card_played`` events:
    the claimant's winning line, each other seat's first legal card in suit
    order (clubs, diamonds, hearts, spades; low to high within a suit)."""

    type: Literal["claim_made"] = "claim_made"
    seq: int
    seat: int
    tricks: int
    reason: Literal["top_cards", "every_line"]


class MoonChoiceNeeded(WireModel):
    """``seat`` shot the moon and chooses how it scores."""

    type: Literal["moon_choice_needed"] = "moon_choice_needed"
    seq: int
    seat: int


class HandScored(WireModel):
    """The hand's points (after moon scoring) and the new totals."""

    type: Literal["hand_scored"] = "hand_scored"
    seq: int
    hand_number: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    shooter: int | None
    # How the moon scored: the shooter's choice, or the rules' own way
    # (Omnibus "jackpot", Greek "transfer").
    moon_choice: Literal["add", "subtract", "jackpot", "transfer"] | None


class GameOver(WireModel):
    """The game is over; ``winner`` has the lowest total."""

    type: Literal["game_over"] = "game_over"
    seq: int
    totals: tuple[int, ...]
    winner: int


class ChatMessage(WireModel):
    """A chat line (``seat`` null for a spectator)."""

    type: Literal["chat_message"] = "chat_message"
    seq: int
    seat: int | None
    name: str
    text: str


class CoveredMove(WireModel):
    """One move a bot made in a player's name: in hand ``hand_number``, a
    ``pass`` or ``discard`` (``cards``), a ``play`` (one card in ``cards``)
    or a ``moon_choice`` (``choice``)."""

    hand_number: int
    kind: Literal["pass", "play", "discard", "moon_choice"]
    cards: tuple[Card, ...] = ()
    choice: Literal["add", "subtract"] | None = None


class BotCovered(WireModel):
    """Sent to you alone when you come back after a bot played for you, or
    at once when your turn timer ran out and the bot made your move: what it
    did in your name (cards played, in order; the cards it passed; its moon
    choice, if it had to make one)."""

    type: Literal["bot_covered"] = "bot_covered"
    seq: int
    seat: int
    played: tuple[Card, ...]
    passed: tuple[Card, ...]
    moon_choice: Literal["add", "subtract"] | None = None
    # Hearts with a widow: the cards it discarded after taking the widow.
    discarded: tuple[Card, ...] = ()
    # The table's turn timer ran out (the player was here, too slow), rather
    # than the player being away.
    timed_out: bool = False
    # The same moves one by one, in order, each with its hand: the fields
    # above merge every hand the bot covered.
    moves: tuple[CoveredMove, ...] = ()


class Kicked(WireModel):
    """The host removed you from the table: no more frames come from it,
    your seat token is void, and you cannot join it again unless the host
    allows you back. Not a table event (no ``seq``)."""

    type: Literal["kicked"] = "kicked"
    table_id: str
    message: str


class KnockAnswered(WireModel):
    """The host's answer to your ``knock``: if ``accepted``, send
    ``join_table`` (or ``watch``) with the code again and you are let in.
    Not a table event (no ``seq``)."""

    type: Literal["knock_answered"] = "knock_answered"
    table_id: str
    code: str
    accepted: bool
    message: str


class Notice(WireModel):
    """A message from the server's operator to everyone connected ("the
    server restarts in 5 minutes"): show it to every seat and spectator
    until dismissed. ``text`` is the operator's, in their words; nothing in
    the game changes. Not a table event (no ``seq``)."""

    type: Literal["notice"] = "notice"
    text: Annotated[str, Field(min_length=1, max_length=500)]


class ChatHistory(WireModel):
    """The table's recent chat (its last lines, oldest first), sent when you
    join, resume or watch, just before your snapshot: show these lines
    (merged by ``seq`` with any you kept). Later lines come as
    ``chat_message`` events. Not a table event: it has no ``seq`` of its own."""

    type: Literal["chat_history"] = "chat_history"
    lines: tuple[ChatMessage, ...]


TableEvent = (
    SeatChanged
    | GameStarted
    | HandDealt
    | PassLocked
    | CardsReceived
    | PlayBegins
    | CardPlayed
    | HeartsBroken
    | TrickWon
    | PlaysUndone
    | ClaimMade
    | TrickCarried
    | WidowTaken
    | WidowDiscarded
    | CardsDrawn
    | SeatOut
    | LeftoverTaken
    | RestTaken
    | MoonChoiceNeeded
    | HandScored
    | GameOver
    | ChatMessage
    | BotCovered
)
"""Every table event (a message with ``seq``): the one list of them, which
``ServerMessage`` includes. Which logged event becomes which of these, and
for whom, is the server's registry of event kinds (``server.event_kinds``)."""

ServerMessage = Annotated[
    Welcome
    | Ok
    | Error
    | Seated
    | Tables
    | TableFacts
    | Records
    | HandReplay
    | Analysis
    | GameAccuracy
    | Advice
    | Stats
    | Snapshot
    | TableEvent
    | Kicked
    | KnockAnswered
    | ChatHistory
    | Notice,
    Field(discriminator="type"),
]
"""Every message the server may send, told apart by ``type``."""
