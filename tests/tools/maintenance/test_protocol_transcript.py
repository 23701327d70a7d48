"""docs/protocol-transcript.md is the hand a real server plays now: the
test plays it again (same seed, same choices) and compares, and every frame
of it, both directions, is valid against the schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.app import start_server
from server.config import ServerConfig
from tests.protocol.strict_schema import validator
from tools.maintenance import protocol_transcript as transcript

# Starts other programs (tests/conftest.py, markers).
pytestmark = pytest.mark.subprocess

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[3] / "docs" / "protocol-schema.json").read_text()
)


async def test_the_committed_transcript_is_the_hand_played_now() -> None:
    server = await start_server(ServerConfig(port=0, bot_workers=1, table_seed=transcript.SEED))
    try:
        frames = await transcript.record_hand(server.url)
    finally:
        await server.close()
    sent = validator(SCHEMA, "ClientMessage")
    received = validator(SCHEMA, "ServerMessage")
    for direction, message in frames:
        check = sent if direction == ">" else received
        assert check.is_valid(message), list(check.iter_errors(message))
    kinds = {m["type"] for _, m in frames}
    assert {"pass_cards", "play_card", "trick_won", "hand_scored", "game_over"} <= kinds
    assert sum(1 for d, m in frames if d == ">" and m["type"] == "play_card") == 13
    assert transcript.TRANSCRIPT_MD.read_text() == transcript.render(frames), (
        "docs/protocol-transcript.md is stale: run make docs"
    )
