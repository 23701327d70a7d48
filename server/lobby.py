"""The lobby: creating tables, finding them by invite code or id, listing
public ones, and keeping one actor per running table in this process."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets

from engine.rules import RulesError
from protocol import client_messages as cm
from protocol import server_messages as sm

from .bot_runner import BotRunner
from .config import ServerConfig
from .errors import BadRules, NotFound
from .store.base import StoreConflict, TableStore
from .table_actor import Job, TableActor, Watcher
from .table_state import BOT_NAMES, Seat, TableState, hash_token

log = logging.getLogger("hearts.lobby")

# Invite codes: six characters without look-alikes (no 0/O, 1/I/L), easy to
# read aloud and type on a phone; shown as ABC-DEF.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_code() -> str:
    """A fresh random invite code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str:
    """What a player typed (``abc-def``, ``ABC DEF``) as a stored code."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


class Lobby:
    """Tables of this process. One ``TableActor`` per table at a time."""

    def __init__(self, store: TableStore, bots: BotRunner, config: ServerConfig) -> None:
        self.store = store
        self.bots = bots
        self.config = config
        self._actors: dict[str, TableActor] = {}
        self._lock = asyncio.Lock()

    @property
    def actors(self) -> dict[str, TableActor]:
        """Running actors by table id (read-only use)."""
        return self._actors

    async def create_table(self, conn: Watcher, msg: cm.CreateTable) -> TableActor:
        """Create a table with ``conn`` as host at seat 0."""
        try:
            rules = msg.rules.to_rules()
        except RulesError as exc:
            raise BadRules(f"those rules cannot be played: {exc}") from None
        token = secrets.token_urlsafe(24)
        seats = [
            Seat(
                kind="human",
                name=conn.name,
                player_id=conn.player_id,
                token_hash=hash_token(token),
                connected=True,
            )
        ]
        for spec in msg.seats[: rules.players - 1]:
            if spec == "open":
                seats.append(Seat())
            else:
                seats.append(Seat(kind="bot", name=BOT_NAMES[spec], bot_level=spec, ready=True))
        for _ in range(8):
            state = TableState(
                table_id=secrets.token_hex(8),
                code=new_code(),
                name=msg.name or f"{conn.name}'s table",
                public=msg.public,
                rules=rules,
                seed=secrets.randbits(63),
                seats=seats,
            )
            try:
                await self.store.create_table(state.table_id, state.code, state.to_bytes())
                break
            except StoreConflict:
                continue  # the code (or id) was taken: draw again
        else:
            raise StoreConflict("could not find a free invite code")
        await self.store.expire_table(state.table_id, self.config.table_ttl)
        actor = self._start(state, 1, loaded=False)
        await actor.call(
            Job("attach", conn=conn, message=msg, extra={"mode": "host", "token": token})
        )
        await self.refresh_listing(actor)
        return actor

    def _start(self, state: TableState, version: int, loaded: bool = True) -> TableActor:
        actor = TableActor(state, version, self.store, self.bots, self.config, lobby=self)
        self._actors[state.table_id] = actor
        actor.start(loaded)
        return actor

    async def actor_for_id(self, table_id: str) -> TableActor:
        """The running actor of a table, loading it from the store if needed."""
        actor = self._actors.get(table_id)
        if actor is not None:
            return actor
        async with self._lock:
            actor = self._actors.get(table_id)
            if actor is not None:
                return actor
            stored = await self.store.load_table(table_id)
            if stored is None:
                raise NotFound("there is no such table (it may have finished long ago)")
            return self._start(TableState.from_bytes(stored.state), stored.version)

    async def actor_for_code(self, code: str) -> TableActor:
        """The table an invite code names."""
        table_id = await self.store.table_id_for_code(normalize_code(code))
        if table_id is None:
            raise NotFound(f"no table has the code {code.upper()}")
        return await self.actor_for_id(table_id)

    async def list_public(self) -> tuple[sm.TableSummary, ...]:
        """Public tables waiting for players."""
        out = []
        for entry in await self.store.list_public():
            try:
                out.append(sm.TableSummary.model_validate_json(entry.summary))
            except ValueError:
                log.warning("bad lobby entry for %s", entry.table_id)
        return tuple(out)

    async def refresh_listing(self, actor: TableActor) -> None:
        """List a public table while it waits for players; unlist it after."""
        state = actor.state
        if not state.public:
            return
        if state.status != "waiting" or not state.open_seats():
            await self.store.set_public(state.table_id, state.code, None)
            return
        summary = sm.TableSummary(
            table_id=state.table_id,
            code=state.code,
            name=state.name,
            host=state.seats[state.host_seat].name,
            open_seats=len(state.open_seats()),
            bots=sum(s.kind == "bot" for s in state.seats),
            rules=state.rules.to_json(),
        )
        await self.store.set_public(
            state.table_id, state.code, json.dumps(summary.model_dump(mode="json")).encode()
        )

    async def resume_all(self) -> int:
        """After a restart: start an actor for every stored table in play."""
        count = 0
        for table_id in await self.store.table_ids():
            stored = await self.store.load_table(table_id)
            if stored is None or table_id in self._actors:
                continue
            state = TableState.from_bytes(stored.state)
            if state.status in ("playing", "between_hands"):
                self._start(state, stored.version)
                count += 1
        return count

    async def close(self) -> None:
        """Stop every actor."""
        for actor in list(self._actors.values()):
            await actor.stop()
        self._actors.clear()
