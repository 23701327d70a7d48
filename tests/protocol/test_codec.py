"""The msgpack codec: round trips, and every kind of bad frame refused clearly."""

from __future__ import annotations

import json
from pathlib import Path

import msgpack
import pytest

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import decode_client, decode_server, encode, request_id_of
from protocol.errors import BadFrame, BadMessage, FrameTooLarge, UnknownType
from protocol.schema import protocol_schema

CLIENT_SAMPLES = [
    cm.Hello(id=1, version=1, name="Ann", player_token="x" * 32),
    cm.CreateTable(id="a-1", name="Friday", public=True, seats=("open", "hard", "easy")),
    cm.JoinTable(id=2, code="ABC-DEF", seat=2),
    cm.PassCards(id=3, cards=("QS", "AH", "KH")),
    cm.PlayCard(id=4, card="2C"),
    cm.MoonChoice(id=5, choice="subtract"),
    cm.Resume(id=6, table_id="t1", seat_token="y" * 32, last_seq=17),
    cm.Chat(id=7, text="hello"),
]


@pytest.mark.parametrize("message", CLIENT_SAMPLES, ids=lambda m: m.type)
def test_client_messages_round_trip_through_msgpack(message: cm.Request) -> None:
    assert decode_client(encode(message)) == message


def test_server_messages_round_trip_through_msgpack() -> None:
    for message in [
        sm.Error(id=None, code="bad_frame", message="x"),
        sm.CardPlayed(seq=3, seat=1, card="QS", trick=0),
        sm.HandScored(
            seq=9,
            hand_number=1,
            points=(0, 26, 0, 0),
            totals=(0, 26, 0, 0),
            shooter=None,
            moon_choice=None,
        ),
    ]:
        assert decode_server(encode(message)) == message


@pytest.mark.parametrize(
    ("frame", "error", "words"),
    [
        ("text", BadFrame, "binary"),
        (b"\xc1\xc1", BadFrame, "msgpack"),
        (msgpack.packb([1, 2, 3]), BadMessage, "map"),
        (msgpack.packb({"id": 1}), BadMessage, "type"),
        (msgpack.packb({"type": "fly", "id": 1}), UnknownType, "fly"),
        (msgpack.packb({"type": "play_card", "id": 1, "card": "1X"}), BadMessage, "card"),
        (
            msgpack.packb({"type": "play_card", "id": 1, "card": "QS", "extra": 1}),
            BadMessage,
            "extra",
        ),
        (msgpack.packb({"type": "play_card", "card": "QS"}), BadMessage, "id"),
        (msgpack.packb({"type": "chat", "id": 1, "text": "x" * 201}), BadMessage, "text"),
    ],
)
def test_bad_frames_are_refused_with_a_readable_reason(
    frame: bytes | str, error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as caught:
        decode_client(frame)
    assert words in str(caught.value)


def test_oversized_frames_are_refused_before_decoding() -> None:
    frame = msgpack.packb({"type": "chat", "id": 1, "text": "x" * 100})
    with pytest.raises(FrameTooLarge):
        decode_client(frame, limit=50)


def test_request_id_is_recovered_from_an_invalid_message() -> None:
    assert request_id_of(msgpack.packb({"type": "play_card", "id": 42, "card": "ZZ"})) == 42
    assert request_id_of(b"\xc1") is None


def test_committed_schema_matches_the_models() -> None:
    committed = json.loads(
        Path(__file__).resolve().parents[2].joinpath("docs/protocol-schema.json").read_text()
    )
    assert committed == json.loads(json.dumps(protocol_schema())), (
        "run: python -m protocol.schema > docs/protocol-schema.json"
    )
