"""The cluster bus's messages (server.bus): what each looks like on the wire
(the maps processes of the previous release send and read, so a rolling
restart may mix releases), that each comes back as it went, and that a
forwarded job comes back as the same typed job, without a host's token."""

from __future__ import annotations

import msgpack
import pytest

from protocol import client_messages as cm
from protocol.codec import encode
from server.bus import (
    Attached,
    Broadcast,
    BusMessage,
    Close,
    Done,
    ForwardedJob,
    Frame,
    Removed,
    decode,
    decode_batch,
    encode_batch,
)
from server.jobs import Attach, Detach, Knock, Request

from .absent_client import AbsentClient

PLAY = cm.PlayCard(id=7, card="QS")

WIRE: list[tuple[BusMessage, dict[str, object]]] = [
    (
        ForwardedJob.of(Request(AbsentClient(), PLAY), "t1", "procA", "call1"),
        {
            "op": "job",
            "table": "t1",
            "from": "procA",
            "conn": "c1",
            "name": "Ann",
            "player_id": "p1",
            "kind": "request",
            "message": encode(PLAY),  # the request as a client frame
            "extra": {},
            "call": "call1",
        },
    ),
    (
        Frame("c1", b"\x81\xa4type\xa2ok"),
        {"op": "frame", "conn": "c1", "frame": b"\x81\xa4type\xa2ok"},
    ),
    (
        Attached("c1", "t1", 2, "procB"),
        {"op": "attached", "conn": "c1", "table": "t1", "seat": 2, "owner": "procB"},
    ),
    (
        Attached("c1", "t1", None, "procB"),
        {"op": "attached", "conn": "c1", "table": "t1", "seat": None, "owner": "procB"},
    ),
    (Removed("c1", "t1"), {"op": "removed", "conn": "c1", "table": "t1"}),
    (Close("c1"), {"op": "close", "conn": "c1"}),
    (Done("call1", gone=True), {"op": "done", "call": "call1", "gone": True}),
    (Broadcast(b"\x81\xa4type\xa6notice"), {"op": "broadcast", "frame": b"\x81\xa4type\xa6notice"}),
]


@pytest.mark.parametrize(("message", "wire"), WIRE)
def test_each_message_travels_as_the_map_of_the_previous_release(
    message: BusMessage, wire: dict[str, object]
) -> None:
    data = encode_batch([message])
    assert msgpack.unpackb(data, raw=False) == wire  # a lone message: a bare map
    assert [decode(raw) for raw in decode_batch(data)] == [message]
    assert decode(wire) == message  # what an older process sent reads the same


def test_several_messages_travel_as_one_list_in_order() -> None:
    batch = [message for message, _ in WIRE]
    data = encode_batch(batch)
    assert isinstance(msgpack.unpackb(data, raw=False), list)
    assert [decode(raw) for raw in decode_batch(data)] == batch


def test_a_forwarded_job_comes_back_as_the_same_job_from_the_stand_in() -> None:
    client = AbsentClient()
    resume = cm.Resume(id=3, table_id="t1", seat_token="seat-secret-0123456789", last_seq=12)
    knock = cm.Knock(id=4, code="ABCDEF")
    for job in (
        Request(client, PLAY),
        Knock(client, knock),
        Attach(client, resume, "resume"),
        Detach(client),
    ):
        data = encode_batch([ForwardedJob.of(job, "t1", "procA", None)])
        forwarded = decode(decode_batch(data)[0])
        assert isinstance(forwarded, ForwardedJob)
        assert forwarded.job(client) == job


def test_a_hosts_seat_token_never_travels() -> None:
    job = Attach(AbsentClient(), cm.CreateTable(id=1), "host", "host-seat-secret")
    data = encode_batch([ForwardedJob.of(job, "t1", "procA", None)])
    assert b"host-seat-secret" not in data
    forwarded = decode(decode_batch(data)[0])
    assert isinstance(forwarded, ForwardedJob)
    # Hosting is local (the lobby that made the table runs it): an owner
    # never takes a forwarded host attach.
    with pytest.raises(ValueError, match="no client sends"):
        forwarded.job(AbsentClient())


@pytest.mark.parametrize(
    "raw",
    [
        {"op": "shout", "conn": "c1"},
        {"op": "frame", "conn": "c1", "frame": "not bytes"},
        {"op": "close"},
        ["not", "a", "map"],
    ],
)
def test_a_message_we_do_not_know_is_refused_not_guessed(raw: object) -> None:
    with pytest.raises(ValueError):
        decode(raw)


def test_bytes_that_are_not_msgpack_are_refused() -> None:
    with pytest.raises(ValueError, match="unreadable"):
        decode_batch(b"\xc1")
