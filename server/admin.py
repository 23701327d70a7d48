"""The admin API: HTTP and JSON on a listener of its own
(``hearts serve --admin-listen HOST:PORT --admin-token-file FILE``), never
on the game port; ``hearts admin`` is its client.

Every request carries ``Authorization: Bearer TOKEN``, compared in constant
time; a wrong or missing token gets 401 and nothing else. The caller may
name themselves in ``X-Hearts-Operator`` (``hearts admin`` sends the user
name): every action is logged (``hearts.events``, ``event=admin_action``)
with that name and the caller's address.

=======================================  =====================================
``GET  /v1/tables``                      live tables: id, variant, seats,
                                         people/bots, owner process, age,
                                         last move
``GET  /v1/tables/ID``                   one table's public facts (a
                                         spectator's view: never a hidden card)
``POST /v1/tables/ID/close``             tell its players and spectators, send
                                         them away, delete the table
``POST /v1/tables/ID/purge``             delete the table at once (also one
                                         that no process runs)
``POST /v1/kick``                        ``{"player"|"address", "reason"}``:
                                         close their connections here
``POST /v1/ban``                         the same plus ``"seconds"``: kicked,
                                         and refused until then
``POST /v1/notice``                      ``{"text"}``: shown to every seat and
                                         spectator (every process of a cluster)
``POST /v1/drain``                       no new tables; this process's tables
                                         handed over (rolling restarts)
=======================================  =====================================

What acts on connections (kick, ban) or on a running table (close) acts on
this process: in a cluster, each process has its own admin listener;
``tables`` names the process that runs each table. A notice goes to every
process of the cluster, over the bus.
"""

from __future__ import annotations

import hmac
import json
import logging
import time
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, Protocol

from protocol import server_messages as sm
from protocol.codec import encode

from .address_guard import client_key
from .bus import Broadcast
from .lifecycle_log import lifecycle
from .plain_http import PlainRequest, PlainResponse, json_response
from .redaction import public_view
from .store.base import StoreError
from .table_state import TableState

if TYPE_CHECKING:
    from .cluster import Cluster
    from .connection import Connection
    from .lobby import Lobby
    from .store.base import TableStore


class AdminTarget(Protocol):
    """The running server the API acts on (``server.app.RunningServer``)."""

    lobby: Lobby
    store: TableStore
    cluster: Cluster | None
    connections: set[Connection]

    async def drain(self) -> int:
        """Hand this process's tables over; how many there were."""
        ...


log = logging.getLogger("hearts.admin")

MAX_LISTED = 1000
"""Most tables one ``GET /v1/tables`` reads from the store."""
MAX_BAN_SECONDS = 30 * 24 * 3600


class AdminError(Exception):
    """A request the API refuses: its status and sentence."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _seconds_since(stamp: float, now: float) -> float | None:
    return round(now - stamp, 1) if stamp else None


def table_row(state: TableState, owner: str | None, now: float) -> dict[str, Any]:
    """One table as ``tables`` lists it (settings and seats: no cards)."""
    seats = state.seats
    return {
        "table": state.table_id,
        "code": state.code,
        "name": state.name,
        "variant": state.rules.variant,
        "seats": state.players,
        "people": sum(s.kind == "human" for s in seats),
        "connected": sum(s.kind == "human" and s.connected for s in seats),
        "bots": sum(s.kind == "bot" for s in seats),
        "open": sum(s.kind == "open" for s in seats),
        "status": state.status,
        "public": state.public,
        "owner": owner,
        "age_seconds": _seconds_since(state.created_at, now),
        "last_move_seconds": _seconds_since(state.moved_at or state.created_at, now),
    }


class AdminApi:
    """Answers the admin listener's requests for one running server."""

    def __init__(self, server: AdminTarget, token: str) -> None:
        self.server = server
        self._token = token.encode()

    async def handle(self, request: PlainRequest) -> PlainResponse:
        """One request: authenticated, routed, answered in JSON."""
        if not self._authorized(request):
            return json_response(HTTPStatus.UNAUTHORIZED, {"error": "wrong or missing admin token"})
        try:
            data = self._body(request)
            return json_response(HTTPStatus.OK, await self._route(request, data))
        except AdminError as exc:
            return json_response(exc.status, {"error": exc.message})
        except StoreError as exc:
            return json_response(HTTPStatus.SERVICE_UNAVAILABLE, {"error": str(exc)})

    def _authorized(self, request: PlainRequest) -> bool:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(given.strip().encode(), self._token)

    @staticmethod
    def _body(request: PlainRequest) -> dict[str, Any]:
        if not request.body:
            return {}
        try:
            data = json.loads(request.body)
        except ValueError:
            raise AdminError(HTTPStatus.BAD_REQUEST, "the body is not JSON") from None
        if not isinstance(data, dict):
            raise AdminError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        return data

    async def _route(self, request: PlainRequest, data: dict[str, Any]) -> dict[str, Any]:
        match request.method, _v1_route(request.path):
            case "GET", ["tables"]:
                return await self.tables()
            case "GET", ["tables", table_id]:
                return await self.show(table_id)
            case "POST", ["tables", table_id, ("close" | "purge") as what]:
                who = self._who(request)
                return await self.close(table_id, purge=what == "purge", who=who, data=data)
            case "POST", ["kick"]:
                return self.kick(data, self._who(request), ban_seconds=None)
            case "POST", ["ban"]:
                seconds = _number(data, "seconds")
                return self.kick(data, self._who(request), ban_seconds=seconds)
            case "POST", ["notice"]:
                return await self.notice(data, self._who(request))
            case "POST", ["drain"]:
                return await self.drain(self._who(request))
        raise AdminError(HTTPStatus.NOT_FOUND, f"no such request {request.method} {request.path}")

    def _who(self, request: PlainRequest) -> dict[str, str]:
        name = request.headers.get("x-hearts-operator", "").strip()[:64] or "?"
        return {"operator": name, "operator_address": request.peer}

    def _action(self, action: str, who: dict[str, str], **fields: Any) -> None:
        lifecycle(
            "admin_action",
            f"admin: {action} by {who['operator']} from {who['operator_address']}",
            action=action,
            process=self.server.lobby.process,
            **who,
            **fields,
        )

    # -- reading -------------------------------------------------------------

    async def tables(self) -> dict[str, Any]:
        """Every live table in the store (the running ones here as they are
        now), with the process that runs it."""
        lobby, store = self.server.lobby, self.server.store
        now = time.time()
        ids = (await store.table_ids())[:MAX_LISTED]
        owners: dict[str, str | None] = {}
        cluster = self.server.cluster
        if cluster is not None and ids:
            owners = dict(await cluster.owners(ids))
        rows = []
        for table_id in ids:
            actor = lobby.actors.get(table_id)
            if actor is not None:
                state = actor.state
                owner: str | None = lobby.process
            else:
                stored = await store.load_table(table_id)
                if stored is None:
                    continue  # expired meanwhile
                state = TableState.peek(stored.state)
                owner = owners.get(table_id)
            rows.append(table_row(state, owner, now))
        rows.sort(key=lambda row: row["age_seconds"] or 0.0)
        return {"process": lobby.process, "tables": rows}

    async def _state(self, table_id: str) -> tuple[TableState, str | None]:
        actor = self.server.lobby.actors.get(table_id)
        if actor is not None:
            return actor.state, self.server.lobby.process
        stored = await self.server.store.load_table(table_id)
        if stored is None:
            raise AdminError(HTTPStatus.NOT_FOUND, f"there is no table {table_id}")
        owner = None
        if self.server.cluster is not None:
            owner = await self.server.cluster.owner(table_id)
        return TableState.from_bytes(stored.state), owner

    async def show(self, table_id: str) -> dict[str, Any]:
        """One table's public facts: what a spectator is shown (built by the
        redaction, so no hidden card can be in it), plus who runs it and who
        is watching here."""
        state, owner = await self._state(table_id)
        row = table_row(state, owner, time.time())
        row["spectators_here"] = sum(
            1
            for conn in self.server.connections
            if conn.actor is not None and conn.actor.table_id == table_id and conn.seat is None
        )
        return {"table": row, "view": public_view(state)}

    # -- acting --------------------------------------------------------------

    def _connections_at(self, table_id: str) -> list[Connection]:
        return [
            conn
            for conn in self.server.connections
            if conn.actor is not None and conn.actor.table_id == table_id
        ]

    async def close(
        self, table_id: str, *, purge: bool, who: dict[str, str], data: dict[str, Any]
    ) -> dict[str, Any]:
        """Close (tell everyone, send them away, delete) or purge (delete at
        once) a table. A table another live process runs is refused: ask
        that process."""
        lobby = self.server.lobby
        state, owner = await self._state(table_id)
        if owner is not None and owner != lobby.process:
            raise AdminError(
                HTTPStatus.CONFLICT,
                f"table {table_id} is run by process {owner}: ask that process's admin listener",
            )
        reason = _text(data, "reason", required=False)
        here = self._connections_at(table_id)
        if not purge:
            text = "The server's operator closed this table." + (f" {reason}" if reason else "")
            for conn in here:
                conn.send(sm.Notice(text=text[:500]))
        ran = await lobby.remove_table(table_id)
        await self.server.store.expire_table(table_id, 0)
        for conn in here:
            conn.close(1000, "the operator closed this table")
        action = "purge" if purge else "close"
        self._action(action, who, table=table_id, variant=state.rules.variant, reason=reason)
        lifecycle(
            "table_closed",
            f"table {table_id} {'purged' if purge else 'closed'} by the operator",
            table=table_id,
            variant=state.rules.variant,
            process=lobby.process,
            by=who["operator"],
        )
        return {"table": table_id, action: True, "was_running_here": ran, "clients": len(here)}

    def kick(
        self, data: dict[str, Any], who: dict[str, str], ban_seconds: float | None
    ) -> dict[str, Any]:
        """Close the connections of a player (public id) or an address (its
        IPv4 address or IPv6 /64) here; with ``ban_seconds``, refuse them
        until then too."""
        player = _text(data, "player", required=False)
        address = _text(data, "address", required=False)
        if bool(player) == bool(address):
            raise AdminError(HTTPStatus.BAD_REQUEST, "name one player or one address")
        reason = _text(data, "reason", required=False)
        if ban_seconds is not None:
            self._ban(player, address, ban_seconds, reason)
        kicked = self._connections_of(player, address)
        message = "removed by the operator" + (f": {reason}" if reason else "")
        for conn in kicked:
            self._log_kick(conn, who)
            conn.close(1008, message[:120])
        action = "ban" if ban_seconds is not None else "kick"
        self._action(
            action, who, player=player or None, address=address or None, seconds=ban_seconds
        )
        return {action: player or address, "connections_closed": len(kicked)}

    def _ban(self, player: str, address: str, seconds: float, reason: str) -> None:
        if not 0 < seconds <= MAX_BAN_SECONDS:
            raise AdminError(HTTPStatus.BAD_REQUEST, f"seconds must be in 1..{MAX_BAN_SECONDS}")
        kind = "player" if player else "address"
        self.server.lobby.bans.ban(kind, player or address, seconds, reason)

    def _connections_of(self, player: str, address: str) -> list[Connection]:
        """This process's connections of one player, or of one address (an
        IPv6 address stands for its /64, as budgets count it)."""
        if player:
            return [c for c in self.server.connections if c.player_id == player]
        key = client_key(address)
        return [c for c in self.server.connections if client_key(c.address) == key]

    def _log_kick(self, conn: Connection, who: dict[str, str]) -> None:
        lifecycle(
            "player_kicked",
            f"player {conn.player_id or '?'} removed by the operator",
            table=conn.actor.table_id if conn.actor is not None else None,
            player=conn.player_id or None,
            address=conn.address,
            process=self.server.lobby.process,
            by=who["operator"],
        )

    async def notice(self, data: dict[str, Any], who: dict[str, str]) -> dict[str, Any]:
        """Show ``text`` to everyone connected here and, with a cluster, to
        everyone connected to the other live processes (over the bus)."""
        text = _text(data, "text", required=True)
        if len(text) > 500:
            raise AdminError(HTTPStatus.BAD_REQUEST, "a notice has at most 500 characters")
        message = sm.Notice(text=text)
        connections = list(self.server.connections)
        for conn in connections:
            conn.send(message)
        others: list[str] = []
        cluster = self.server.cluster
        if cluster is not None:
            frame = Broadcast(encode(message))
            others = [p for p in await cluster.members() if p != cluster.process_id]
            for process in others:
                cluster.publish(process, frame)
        self._action("notice", who, text=text, clients=len(connections), processes=len(others))
        return {"notice": text, "clients": len(connections), "other_processes": len(others)}

    async def drain(self, who: dict[str, str]) -> dict[str, Any]:
        """Take no new tables and hand this process's tables over."""
        self._action("drain", who)
        handed = await self.server.drain()
        return {"drained": True, "tables_handed_over": handed, "process": self.server.lobby.process}


def _v1_route(path: str) -> list[str]:
    """The parts of a path under /v1/ (the API's only version so far)."""
    parts = [p for p in path.split("/") if p]
    if parts[:1] != ["v1"]:
        raise AdminError(HTTPStatus.NOT_FOUND, f"no such path {path}")
    return parts[1:]


def _text(data: dict[str, Any], key: str, *, required: bool) -> str:
    value = data.get(key)
    if value is None or value == "":
        if required:
            raise AdminError(HTTPStatus.BAD_REQUEST, f"{key} is required")
        return ""
    if not isinstance(value, str):
        raise AdminError(HTTPStatus.BAD_REQUEST, f"{key} must be a string")
    return value.strip()


def _number(data: dict[str, Any], key: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AdminError(HTTPStatus.BAD_REQUEST, f"{key} must be a number")
    return float(value)
