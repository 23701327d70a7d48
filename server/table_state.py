"""A table's full state: seats, the game, the event counter; and its storage form.

This is everything the server knows about a table, hidden cards included. It
never leaves the server: ``server.redaction`` turns it into the public facts
from which ``protocol.seat_view`` builds what each seat may see.
``to_bytes``/``from_bytes`` are the blob the store keeps under a version, in
the format ``server.state_format`` numbers (read through its migrations; a
newer release's blob is refused with ``TableTooNew``); the game inside is
stored as ``engine.record.game_to_json`` so a restored table is replayed by
the same code that verifies hand records.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from dataclasses import dataclass, field
from typing import Any, Literal

import orjson

from engine.errors import ClientError
from engine.game import Game
from engine.hand import Phase
from engine.record import game_from_json, game_to_json
from engine.rules import Rules
from protocol.seat_view import TrickCache

from . import state_format
from .errors import TableTooNew
from .seat_names import LEGACY_BOT_NAMES, bot_name, unique_name

SeatKind = Literal["open", "human", "bot"]
TableStatus = Literal["waiting", "playing", "between_hands", "game_over"]
COVER_LEVEL = "medium"  # the bot that plays for an away human
REMEMBERED_REQUESTS = 32
# Chat lines a table keeps for players who arrive or come back later.
CHAT_HISTORY = 30


def json_bytes(value: Any) -> bytes:
    """``value`` as compact JSON in UTF-8, as the stores keep state blobs and
    events. Encoded with orjson, since every commit writes a blob and its
    events (the standard library's encoder took a tenth of a busy server's
    time), and copied into a bytes object of its own size: orjson's result
    keeps its 4 KiB working buffer, and a table keeps thousands of events."""
    return memoryview(orjson.dumps(value)).tobytes()


def table_id_of_invite(link: str) -> str | None:
    """The table id an invite-link value names (``TABLEID.SECRET``), or None."""
    table_id, dot, secret = link.partition(".")
    return table_id if dot and table_id and secret else None


def hash_token(token: str) -> str:
    """What we store instead of a seat token (SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Constant-time check of a presented token against a stored hash."""
    return stored_hash is not None and hmac.compare_digest(hash_token(token), stored_hash)


@dataclass
class Seat:
    """One seat of a table (server side: includes the token hash)."""

    kind: SeatKind = "open"
    name: str = ""
    bot_level: str | None = None
    player_id: str | None = None
    token_hash: str | None = None
    connected: bool = False
    away: bool = False
    covering: bool = False
    ready: bool = False
    # Played by a program of the player's own (its hello said ``program``),
    # not by a person: shown to everyone, and not a person for the pause rule.
    program: bool = False
    # What a bot did in this human's name while covering (cards played in
    # order, cards passed, a moon choice), told to them when they come back.
    covered_played: list[str] = field(default_factory=list)
    covered_passed: list[str] = field(default_factory=list)
    covered_moon: str | None = None
    covered_discarded: list[str] = field(default_factory=list)
    # The same moves one by one with their hand numbers (a ``CoveredMove``
    # each, in its wire form), in order.
    covered_moves: list[dict[str, Any]] = field(default_factory=list)
    # Request ids already applied for this seat, newest last, with the reply
    # kind; a repeated id is answered again without being applied twice.
    recent: list[str] = field(default_factory=list)
    # (hand number, trick index) of this seat's last refused claim: one
    # refused claim per trick (server.table_claims). Runtime only, not stored.
    claim_refused: tuple[int, int] | None = field(default=None, compare=False, repr=False)

    @property
    def is_bot_turn(self) -> bool:
        """Whether a bot decides for this seat (a bot, or one covering)."""
        return self.kind == "bot" or (self.kind == "human" and self.covering)

    @property
    def decision_level(self) -> str:
        """The bot level that decides for this seat."""
        return self.bot_level or COVER_LEVEL

    def to_json(self) -> dict[str, Any]:
        """Storage form."""
        return {
            "kind": self.kind,
            "name": self.name,
            "bot_level": self.bot_level,
            "player_id": self.player_id,
            "token_hash": self.token_hash,
            "connected": self.connected,
            "away": self.away,
            "covering": self.covering,
            "ready": self.ready,
            "program": self.program,
            "recent": self.recent,
            "covered_played": self.covered_played,
            "covered_passed": self.covered_passed,
            "covered_moon": self.covered_moon,
            "covered_discarded": self.covered_discarded,
            "covered_moves": self.covered_moves,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        """Inverse of ``to_json``."""
        return cls(**data)


@dataclass
class TableState:
    """Everything about one table."""

    table_id: str
    code: str
    name: str
    public: bool
    rules: Rules
    seed: int
    seats: list[Seat]
    host_seat: int = 0
    status: TableStatus = "waiting"
    game: Game | None = None
    games_played: int = 0
    seq: int = 0
    # The last CHAT_HISTORY chat lines, oldest first: [seq, seat, name, text].
    chat: list[list[Any]] = field(default_factory=list)
    # Players the host kicked, [player_id, name]: they cannot join or watch
    # again until the host allows them back.
    kicked: list[list[str]] = field(default_factory=list)
    # The secret of the table's invite link (/t/CODE#k=SECRET): its holder
    # sits without knocking and without spending the address's lookup
    # budget. Empty for tables stored before links carried one.
    invite: str = ""
    # "Ask me before someone sits": without the link, players knock.
    approval: bool = False
    # Who knocks (player id -> name) and whom the host let in: stored, so a
    # knock waits for a host who is away (the table may leave memory).
    knocks: dict[str, str] = field(default_factory=dict)
    admitted: list[str] = field(default_factory=list)
    # Seconds each seat has for a move (None: no turn timer); a table
    # setting the host chose, not a rule of the game.
    turn_seconds: int | None = None
    # Wall-clock times (Unix seconds) of the table's creation and of its
    # last commit: what the admin API shows as its age and last move.
    created_at: float = 0.0
    moved_at: float = 0.0
    # When (time.monotonic()) each timed seat's move is made by a bot: the
    # countdown everyone sees. Runtime only, like cover_deadlines.
    turn_deadlines: dict[int, float] = field(default_factory=dict, repr=False, compare=False)
    # When (time.monotonic()) a bot starts covering each away seat whose
    # grace period runs: the countdown others see. The actor keeps it with
    # its timers; not stored (after a load every human is away and the
    # table is paused until one comes back).
    cover_deadlines: dict[int, float] = field(default_factory=dict, repr=False, compare=False)
    # Finished tricks never change: views keep them here between views (not
    # stored; rebuilt after a load).
    trick_cache: TrickCache = field(default_factory=TrickCache, repr=False, compare=False)

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    def hand_phase(self) -> Phase | None:
        """The current hand's phase, if a hand exists."""
        return self.game.hand.phase if self.game and self.game.hand else None

    def deal_rng(self) -> random.Random:
        """The seeded RNG of the next deal: reproducible after a restart."""
        number = self.game.hand_number + 1 if self.game else 1
        return random.Random(f"{self.seed}:{self.games_played}:{number}")

    def seat_of_token(self, token: str) -> int | None:
        """The seat a presented seat token proves, if any."""
        for i, seat in enumerate(self.seats):
            if seat.kind == "human" and token_matches(token, seat.token_hash):
                return i
        return None

    def is_paused(self) -> bool:
        """A game with human players none of whom is connected: nothing moves
        (no bot covers, no timer runs) until one comes back, so nobody
        returns to a hand that was played without them.

        A seat played by a program is not a person: while a person sits at
        the table, programs alone never keep it going (a person's seat is
        never covered because only programs are here). A table of programs
        and our bots, with no person seated, is paused only while none of
        its programs is connected: a program may play our bots alone."""
        if self.status not in ("playing", "between_hands"):
            return False
        players = [s for s in self.seats if s.kind == "human"]
        people = [s for s in players if not s.program]
        counted = people or players
        return bool(counted) and not any(s.connected for s in counted)

    def invite_link(self) -> str:
        """What an invite link carries after ``#k=``: the table id (so the
        link finds its table without a code lookup) and the secret."""
        return f"{self.table_id}.{self.invite}" if self.invite else ""

    def invite_matches(self, link: str | None) -> bool:
        """Whether ``link`` is this table's invite-link value (constant time)."""
        expected = self.invite_link()
        if not link or not expected:
            return False
        return hmac.compare_digest(link.encode(), expected.encode())

    def is_kicked(self, player_id: str) -> bool:
        """Whether the host removed this player (and has not allowed them back)."""
        return any(pid == player_id for pid, _ in self.kicked)

    def open_seats(self) -> list[int]:
        """Seats nobody holds."""
        return [i for i, s in enumerate(self.seats) if s.kind == "open"]

    def names_besides(self, seat: int) -> list[str]:
        """The names of every held seat but ``seat`` (server.seat_names)."""
        return [s.name for i, s in enumerate(self.seats) if i != seat and s.kind != "open"]

    def new_bot(self, seat: int, level: str) -> Seat:
        """A ``level`` bot for ``seat``, named for this table and seat
        (``server.seat_names.bot_name``): the same name each time the seat
        gets a bot, none that another seat has."""
        name = bot_name(self.seed, seat, self.names_besides(seat))
        return Seat(kind="bot", name=name, bot_level=level, ready=True)

    def name_for(self, seat: int, name: str) -> str:
        """What a player called ``name`` is called at ``seat``: their name,
        numbered when another seat is called that already ("Alex 2")."""
        return unique_name(name, self.names_besides(seat))

    def name_legacy_bots(self) -> None:
        """Bots of a table stored before each bot had a name of its own
        ("Medium bot" three times) get theirs, as ``new_bot`` gives it: the
        same on every load, so the names stay put until the table is stored
        again with them."""
        for i, seat in enumerate(self.seats):
            if seat.kind == "bot" and seat.name in LEGACY_BOT_NAMES:
                seat.name = bot_name(self.seed, i, self.names_besides(i))

    def to_json(self) -> dict[str, Any]:
        """Storage form (JSON-able), in this release's format."""
        return state_format.stamp(self._fields_json())

    def _fields_json(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "code": self.code,
            "name": self.name,
            "public": self.public,
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "seats": [s.to_json() for s in self.seats],
            "host_seat": self.host_seat,
            "status": self.status,
            "game": game_to_json(self.game) if self.game else None,
            "games_played": self.games_played,
            "seq": self.seq,
            "chat": self.chat,
            "kicked": self.kicked,
            "invite": self.invite,
            "approval": self.approval,
            "knocks": self.knocks,
            "admitted": self.admitted,
            "turn_seconds": self.turn_seconds,
            "created_at": self.created_at,
            "moved_at": self.moved_at,
        }

    def to_bytes(self) -> bytes:
        """The blob the store keeps: compact JSON in UTF-8 (``json_bytes``)."""
        return json_bytes(self.to_json())

    @classmethod
    def peek(cls, blob: bytes) -> TableState:
        """The table's settings and seats from a stored blob, without
        replaying its game (``game`` is None): for checks that need no cards."""
        data = state_format.read(_parsed(blob))
        data["game"] = None
        return cls.from_json(data)

    @staticmethod
    def hands_in_play(blob: bytes) -> int:
        """How many hands of the game in play have ended (each has its
        record stored with it), read from a stored blob without replaying
        its game: 0 when no game is in play (none has started, or it is
        over)."""
        data = json.loads(blob)
        game = data.get("game")
        if not game or data.get("status") == "game_over" or game.get("winner") is not None:
            return 0
        return len(game.get("hand_scores") or ())

    @staticmethod
    def game_in_play(blob: bytes) -> bool:
        """Whether a game is being played (started and not over), read from
        a stored blob as ``hands_in_play`` is."""
        data = json.loads(blob)
        game = data.get("game")
        return bool(game) and data.get("status") != "game_over" and game.get("winner") is None

    @classmethod
    def from_bytes(cls, blob: bytes) -> TableState:
        """Rebuild from the stored blob, read through the format's
        migrations (replays the current hand); ``TableTooNew`` for a blob
        of a newer release this one cannot read."""
        return cls.from_json(state_format.read(_parsed(blob)))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableState:
        """Inverse of ``to_json``, from a state in this release's format
        (``state_format.read`` gives one); ``TableTooNew`` if it cannot be
        read."""
        try:
            table = cls._from_fields(data)
        except (KeyError, TypeError, ValueError, ClientError) as exc:
            # A rules option, a record field or a value this release does
            # not know: a newer release wrote it, or the blob is damaged.
            raise TableTooNew(
                "this server cannot run this table: it was saved by a newer release, "
                "or its stored state is damaged"
            ) from exc
        table.name_legacy_bots()
        return table

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> TableState:
        return cls(
            table_id=data["table_id"],
            code=data["code"],
            name=data["name"],
            public=data["public"],
            rules=Rules.from_json(data["rules"]),
            seed=data["seed"],
            seats=[Seat.from_json(s) for s in data["seats"]],
            host_seat=data["host_seat"],
            status=data["status"],
            game=game_from_json(data["game"]) if data["game"] else None,
            games_played=data["games_played"],
            seq=data["seq"],
            chat=data["chat"],
            kicked=data["kicked"],
            invite=data["invite"],
            approval=data["approval"],
            knocks=data["knocks"],
            admitted=data["admitted"],
            turn_seconds=data["turn_seconds"],
            created_at=data["created_at"],
            moved_at=data["moved_at"],
        )


def _parsed(blob: bytes) -> Any:
    """A stored blob's JSON; ``TableTooNew`` if it is none."""
    try:
        return json.loads(blob)
    except ValueError as exc:
        raise TableTooNew("this server cannot read this table's stored state") from exc
