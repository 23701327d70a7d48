"""docs/protocol-transcript.md: every frame of one real hand, both
directions, in JSON form, with notes.

A server is started in this process on a fixed table seed (the deal and
the Easy bots' choices follow from it) with one bot worker (the bots
answer in seat order), and a raw WebSocket client plays seat 0 of a
one-hand game against three Easy bots: it acts on snapshots by the rule of
docs/protocol.md "What is asked of you now", choosing the first of its
legal cards, and passes once the bots have passed, so the frames come in
the same order every time. Secrets and random names (tokens, ids, the
invite code) are replaced by placeholders. A test plays the hand again and
compares the result with the committed file;
``python -m tools.maintenance.protocol_transcript`` (or ``make docs``)
writes it.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import msgpack

from common.ws_adapter import ClientConnection, connect
from server.app import start_server
from server.config import ServerConfig

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPT_MD = ROOT / "docs" / "protocol-transcript.md"
SEED = 11
TIMEOUT = 30.0
# Values that differ from run to run (or are secret): shown as placeholders.
PLACEHOLDERS = ("table_id", "code", "player_id", "player_token", "seat_token", "server_version")

Frame = tuple[str, dict[str, Any]]
"""A frame's direction (``>`` client to server, ``<`` server to client) and content."""

NOTES: dict[str, str] = {
    "hello": "The first frame of a connection. Without `player_token` the server makes one.",
    "welcome": "Keep `player_token` (secret) for every later `hello`; `player_id` is public.",
    "create_table": "Three Easy bots, one hand (`end: hands`, `end_at: 1`). The rules not"
    " given take the variant's values; the reply and the views carry them all.",
    "seated": "The table, your seat and its secret `seat_token` (for `resume`), and the link"
    " to share.",
    "chat_history": "The table's recent chat, sent before the first snapshot.",
    "snapshot": "The whole view at `seq`: render from it. Later snapshots below show only the"
    " view's fields that changed since the previous one (the frame holds them all).",
    "start_game": "The host starts; the `ok` carries the `seq` of the request's last event.",
    "ok": "Accepted. `seq`: the first snapshot at or after it shows the request.",
    "game_started": "Events follow the reply, each with its `seq`, then one snapshot.",
    "hand_dealt": "Your 13 cards (a spectator's list is empty).",
    "pass_locked": "A seat has passed (which cards is its secret).",
    "pass_cards": "Asked by the snapshot: phase `pass`, `legal` not empty, `passed` empty.",
    "cards_received": "The cards passed to you (to you alone).",
    "play_begins": "The seat holding the 2 of clubs leads.",
    "card_played": "Each card, with the trick's number (from 0).",
    "play_card": "Asked by the snapshot: phase `play` and `turn` is your seat.",
    "trick_won": "Who won, the cards in play order from the leader and who played each.",
    "hearts_broken": "Hearts may be led from now on.",
    "hand_scored": "The hand's points (after moon scoring) and the totals.",
    "game_over": "The one-hand game is over: the lowest total wins.",
}


class Recorder:
    """A raw client that keeps every frame, both directions."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[Frame] = []

    async def send(self, message: dict[str, Any]) -> None:
        """Send a message (a msgpack map in a binary frame)."""
        self.frames.append((">", message))
        await self.ws.send(msgpack.packb(message, use_bin_type=True))

    async def receive(self) -> dict[str, Any]:
        """The next message the server sends."""
        raw = await asyncio.wait_for(self.ws.recv(), TIMEOUT)
        if not isinstance(raw, bytes):
            raise TypeError("the server sends binary frames only")
        message: dict[str, Any] = msgpack.unpackb(raw, raw=False)
        self.frames.append(("<", message))
        return message

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a request; its reply (the frames before it are kept)."""
        await self.send(message)
        while True:
            got = await self.receive()
            if got.get("id") == message["id"]:  # events and snapshots carry no id
                if got["type"] == "error":
                    raise RuntimeError(f"{message['type']} refused: {got}")
                return got


def _asked(view: dict[str, Any]) -> dict[str, Any] | None:
    """What the view asks of its seat (docs/protocol.md's table), as a
    request without its id; None: nothing. The pass waits for the bots'."""
    me = view["seat"]
    seats = view["seats"]
    if view["status"] != "playing":
        return None
    if view["phase"] == "pass" and view["legal"] and not view["passed"]:
        if not all(s["passed"] for s in seats if s["seat"] != me):
            return None  # pass last, so that the frames keep one order
        return {"type": "pass_cards", "cards": sorted(view["legal"])[:3]}
    if view["phase"] == "play" and view["turn"] == me:
        return {"type": "play_card", "card": view["legal"][0]}
    return None


async def record_hand(url: str) -> list[Frame]:
    """Play seat 0 of a one-hand game against three Easy bots at ``url``;
    every frame, both directions."""
    async with connect(url, max_size=4 * 1024 * 1024) as ws:
        client = Recorder(ws)
        ids = iter(range(1, 1000))
        await client.request({"type": "hello", "id": next(ids), "version": 1, "name": "Ann"})
        await client.request(
            {
                "type": "create_table",
                "id": next(ids),
                "seats": ["easy", "easy", "easy"],
                "rules": {"end": "hands", "end_at": 1},
            }
        )
        await client.receive()  # chat_history
        await client.receive()  # snapshot
        await client.request({"type": "start_game", "id": next(ids)})
        at_least = 0
        while True:
            message = await client.receive()
            if message["type"] == "game_over":
                await client.receive()  # its snapshot
                return client.frames
            if message["type"] != "snapshot" or message["seq"] < at_least:
                continue
            wanted = _asked(message["view"])
            if wanted is not None:
                reply = await client.request({**wanted, "id": next(ids)})
                at_least = reply["seq"]


def _placeheld(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            k: f"<{k}>" if k in PLACEHOLDERS and isinstance(v, str) and v else _placeheld(v)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_placeheld(v) for v in node]
    if isinstance(node, str) and "#k=" in node:
        return node.split("/t/")[0] + "/t/<code>#k=<invite>"
    return node


def render(frames: list[Frame]) -> str:
    """The transcript as Markdown."""
    lines = [
        "# A hand, frame by frame",
        "",
        "Generated from a real game by `python -m tools.maintenance.protocol_transcript`"
        " (`make docs`); a test plays it again and fails if this file differs. One",
        "client plays seat 0 of a one-hand game against three Easy bots. Each line is",
        "one frame in JSON form (on the wire: a msgpack map in a binary WebSocket",
        "frame): `→` from the client, `←` from the server. Secrets and random names",
        "are placeholders in angle brackets. A note comes before the first frame of",
        "each type. See [protocol.md](protocol.md) for the reference.",
        "",
    ]
    noted: set[str] = set()
    previous: dict[str, Any] | None = None
    for direction, message in frames:
        shown = _placeheld(message)
        kind = shown["type"]
        if kind in NOTES and kind not in noted:
            noted.add(kind)
            lines += ["", f"*{NOTES[kind]}*", ""]
        arrow = "→" if direction == ">" else "←"
        if kind == "snapshot":
            view = shown["view"]
            if previous is None:  # the first one whole, laid out
                lines += [f"- {arrow}", "", "  ```json"]
                lines += [f"  {line}" for line in json.dumps(shown, indent=1).splitlines()]
                lines += ["  ```", ""]
                previous = view
                continue
            shown = {**shown, "view": {k: v for k, v in view.items() if previous.get(k) != v}}
            previous = view
        text = json.dumps(shown, ensure_ascii=False, separators=(", ", ": "))
        lines.append(f"- {arrow} `{text}`")
    return "\n".join(lines) + "\n"


async def transcript() -> str:
    """Play the hand on a server of this process; the Markdown."""
    server = await start_server(ServerConfig(port=0, bot_workers=1, table_seed=SEED))
    try:
        return render(await record_hand(server.url))
    finally:
        await server.close()


def main() -> None:
    """Write docs/protocol-transcript.md."""
    text = asyncio.run(transcript())
    if not TRANSCRIPT_MD.exists() or TRANSCRIPT_MD.read_text() != text:
        TRANSCRIPT_MD.write_text(text)
        print(f"wrote: {TRANSCRIPT_MD.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
