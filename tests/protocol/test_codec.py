"""The msgpack codec: round trips, and every kind of bad frame refused clearly."""

from __future__ import annotations

import msgpack
import pytest

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.codec import (
    decode_client,
    decode_server,
    encode,
    encode_snapshot,
    encode_snapshots,
    request_id_of,
)
from protocol.errors import BadFrame, BadMapKey, BadMessage, FrameTooLarge, UnknownType

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


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "ping", "id": True}, "field 'id': expected an integer from 0 to 2^53-1"),
        ({"type": "ping", "id": 2.0}, "field 'id'"),
        ({"type": "ping", "id": -5}, "field 'id'"),
        ({"type": "ping", "id": 2**53}, "field 'id'"),
        ({"type": "ping", "id": "x" * 65}, "field 'id'"),
        ({"type": "play_card", "id": 1, "card": b"QS"}, "field 'card': expected a string, not"),
        ({"type": "take_seat", "id": 1, "seat": True}, "field 'seat': expected an integer, not"),
        ({"type": "take_seat", "id": 1, "seat": 2.0}, "field 'seat': expected an integer"),
        ({"type": "create_table", "id": 1, "public": 0}, "field 'public': expected true or"),
        ({"type": "create_table", "id": 1, "seats": ["open"] * 10}, "field 'seats'"),
        ({"type": "create_table", "id": 1, "rules": {"players": 4.0}}, "'rules.players'"),
        ({"type": "create_table", "id": 1, "rules": {"pass_cycle": []}}, "at least 1 entry"),
        ({"type": "create_table", "id": 1, "rules": {"pass_cycle": ["left"] * 9}}, "at most 8"),
        ({"type": "create_table", "id": 1, "rules": {"queen_breaks_hearts": 1}}, "true or false"),
        ({"type": "hello", "id": 1, "version": 1.0, "name": "A"}, "field 'version'"),
        ({"type": "hello", "id": 1, "version": 1, "name": "A", "client": "c" * 41}, "at most 40"),
    ],
)
def test_client_frames_are_validated_strictly(data: dict[str, object], words: str) -> None:
    """What a lax reader would coerce (``true`` for 1, ``2.0`` for 2, bytes
    for text) or take unbounded is refused, naming the field."""
    with pytest.raises(BadMessage) as caught:
        decode_client(msgpack.packb(data))
    assert words in caught.value.message
    assert "pydantic" not in caught.value.message and "RulesModel" not in caught.value.message


def test_strict_client_frames_still_take_every_valid_message() -> None:
    """msgpack arrays arrive as tuples, nested rules as a map: a valid
    create_table with every kind of field decodes."""
    data = {
        "type": "create_table",
        "id": "c-1",
        "name": "Fri",
        "public": True,
        "seats": ["easy", "open", "hard"],
        "rules": {"pass_cycle": ["left", "hold"], "end": "hands", "end_at": 3, "bonus_card": None},
    }
    message = decode_client(msgpack.packb(data))
    assert isinstance(message, cm.CreateTable)
    assert message.seats == ("easy", "open", "hard")
    assert message.rules.pass_cycle == ("left", "hold") and message.rules.end_at == 3


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        ({1: "x", "type": "ping", "id": 1}, "an integer"),
        ({b"type": "ping", "id": 1}, "binary data"),
        ({"type": "create_table", "id": 1, "rules": {None: 1}}, "nil"),
        ({"type": "create_table", "id": 1, "rules": {1.5: 1}}, "a float"),
    ],
)
def test_non_string_map_keys_are_not_called_invalid_msgpack(
    data: dict[object, object], kind: str
) -> None:
    """Valid msgpack whose map keys are not strings gets its own code."""
    frame = msgpack.packb(data)
    with pytest.raises(BadMapKey) as caught:
        decode_client(frame)
    assert caught.value.code == "bad_map_key"
    assert caught.value.message == f"map keys must be strings; this frame has {kind} as a key"
    assert request_id_of(frame) == 1


def test_a_key_repeated_in_a_map_is_refused() -> None:
    frame = b"\x83\xa4type\xa4ping\xa2id\x01\xa2id\x02"  # {type, id: 1, id: 2}
    with pytest.raises(BadMessage, match="the key 'id' appears twice in one map"):
        decode_client(frame)


def test_oversized_frames_are_refused_before_decoding() -> None:
    frame = msgpack.packb({"type": "chat", "id": 1, "text": "x" * 100})
    with pytest.raises(FrameTooLarge):
        decode_client(frame, limit=50)


def test_request_id_is_recovered_from_an_invalid_message() -> None:
    assert request_id_of(msgpack.packb({"type": "play_card", "id": 42, "card": "ZZ"})) == 42
    assert request_id_of(b"\xc1") is None
    # Only ids a reply may carry are echoed.
    for rid in (True, 1.5, -1, 2**53, "", "x" * 65, b"id"):
        assert request_id_of(msgpack.packb({"type": "ping", "id": rid})) is None
    assert request_id_of(msgpack.packb({"type": "ping", "id": 2**53 - 1})) == 2**53 - 1
    assert request_id_of(msgpack.packb({"type": "ping", "id": "x" * 64})) == "x" * 64


def test_retry_after_is_the_only_change_to_error_frames() -> None:
    """An ``error`` without ``retry_after`` has exactly the bytes it had
    before the field existed; with it, the field rides along and decodes."""
    plain = sm.Error(id=7, code="not_now", message="later")
    assert encode(plain) == msgpack.packb(
        {"type": "error", "id": 7, "code": "not_now", "message": "later"}, use_bin_type=True
    )
    limited = sm.Error(id="r-1", code="rate_limited", message="slow down", retry_after=0.005)
    assert msgpack.unpackb(encode(limited))["retry_after"] == 0.005
    assert decode_server(encode(limited)) == limited
    assert decode_server(encode(plain)).retry_after is None


def test_snapshots_sharing_a_public_part_are_the_bytes_of_each_alone() -> None:
    # 20 shared fields (a map 16 header), a seat's own ones between them.
    public: dict[str, object] = {f"f{i:02}": [i, "x" * i] for i in range(20)}
    public["seat"] = None
    public["hand"] = ()
    views: dict[int | None, dict[str, object]] = {None: dict(public)}
    for seat in range(4):
        view = dict(public)
        view["seat"] = seat
        view["hand"] = ["QS", "2C"][: seat % 3]
        views[seat] = view
    # A view with its fields in another order is packed whole, still right.
    odd = dict(reversed(list(public.items())))
    odd["seat"] = 9
    views[9] = odd
    frames = encode_snapshots(41, public, views)
    for seat, view in views.items():
        assert frames[seat] == encode_snapshot(41, view)
        decoded = msgpack.unpackb(frames[seat], raw=False, use_list=False)
        assert decoded["view"]["seat"] == seat and decoded["seq"] == 41
    # Nothing of their own: every view is the public one.
    same = encode_snapshots(7, public, {1: public, 2: dict(public)})
    assert same[1] == same[2] == encode_snapshot(7, public)


def test_a_client_reads_server_messages_with_fields_it_does_not_know() -> None:
    """Fields a newer server adds within version 1 are ignored, nested ones
    too; a type nobody knows is still ``UnknownType`` (a client skips it)."""
    frame = msgpack.packb(
        {
            "type": "seat_changed",
            "seq": 4,
            "change": "joined",
            "added_later": [1],
            "seat": {"seat": 1, "kind": "human", "name": "Bea", "also_new": True},
        }
    )
    decoded = decode_server(frame)
    assert isinstance(decoded, sm.SeatChanged) and decoded.seat.name == "Bea"
    with pytest.raises(UnknownType):
        decode_server(msgpack.packb({"type": "notice_from_the_future", "text": "hi"}))
