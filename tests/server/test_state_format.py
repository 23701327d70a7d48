"""The stored table state's format (server/state_format.py): the golden
blob of every format is read through the migrations; what a newer release
wrote is refused, or read forward-compatibly when it says older readers
may; and a rolling upgrade works both ways: a table written by this
release is read by a reader one format behind, written back by it, and
read again by this release, the same table throughout."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server import state_format
from server.errors import TableTooNew
from server.state_format import FORMAT, MIGRATIONS, READABLE_FROM, SEAT_FIELDS, TABLE_FIELDS
from server.table_state import TableState, json_bytes
from tests.data.make_golden_states import golden_path


def _golden(number: int, suffix: str = "") -> bytes:
    return golden_path(number, suffix).read_bytes().strip()


def _current() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_golden(FORMAT))
    return data


def test_every_format_has_a_golden_blob_and_a_migration_to_the_next() -> None:
    assert sorted(MIGRATIONS) == list(range(1, FORMAT))
    assert sorted(TABLE_FIELDS) == sorted(SEAT_FIELDS) == list(range(1, FORMAT + 1))
    for number in range(1, FORMAT + 1):
        assert golden_path(number).exists(), number


def test_the_current_formats_golden_blob_reads_and_writes_back_byte_for_byte() -> None:
    blob = _golden(FORMAT)
    state = TableState.from_bytes(blob)
    assert state.to_bytes() == blob
    assert json.loads(blob)["format"] == FORMAT
    assert json.loads(blob)["readable_from"] == READABLE_FROM


@pytest.mark.parametrize("number", range(1, FORMAT))
def test_an_older_formats_golden_blob_reads_as_the_same_table(number: int) -> None:
    state = TableState.from_bytes(_golden(number))
    assert state.to_bytes() == _golden(FORMAT)


def test_the_oldest_format_1_blobs_take_the_defaults_of_what_they_lack() -> None:
    early = TableState.from_bytes(_golden(1, "_early"))
    full = TableState.from_bytes(_golden(1))
    assert (early.chat, early.kicked, early.knocks, early.admitted) == ([], [], {}, [])
    assert (early.invite, early.approval, early.turn_seconds) == ("", False, None)
    assert [s.program for s in early.seats] == [False] * 4
    assert [s.covered_discarded for s in early.seats] == [[]] * 4
    # Everything else is the table it was.
    assert early.game is not None and full.game is not None
    assert early.game.hand is not None and full.game.hand is not None
    assert early.game.hand.plays == full.game.hand.plays
    assert [s.name for s in early.seats] == [s.name for s in full.seats]
    assert early.seats[3].covered_played == full.seats[3].covered_played


def test_a_newer_format_is_refused_with_a_sentence() -> None:
    newer = {**_current(), "format": FORMAT + 1, "readable_from": FORMAT + 1}
    with pytest.raises(TableTooNew, match="newer release") as caught:
        TableState.from_bytes(json_bytes(newer))
    assert caught.value.code == "table_too_new"
    # A format with no word on its readers is refused too.
    unsaid = {k: v for k, v in newer.items() if k != "readable_from"}
    with pytest.raises(TableTooNew):
        TableState.from_bytes(json_bytes(unsaid))


def test_a_newer_format_older_readers_may_read_is_read_without_its_additions() -> None:
    data = _current()
    newer = {**data, "format": FORMAT + 1, "readable_from": FORMAT, "table_colour": "green"}
    newer["seats"] = [{**seat, "avatar": "owl"} for seat in data["seats"]]
    state = TableState.from_bytes(json_bytes(newer))
    assert state.to_bytes() == _golden(FORMAT)


@pytest.mark.parametrize("where", ["seat", "top", "unversioned seat"])
def test_an_unknown_field_in_a_format_this_release_knows_is_refused(where: str) -> None:
    data = _current()
    if where == "top":
        data["table_colour"] = "green"
    else:
        data["seats"][1]["avatar"] = "owl"
        if where == "unversioned seat":  # as the release before this one stored it
            data = {k: v for k, v in data.items() if k not in ("format", "readable_from")}
    with pytest.raises(TableTooNew, match="newer release"):
        TableState.from_bytes(json_bytes(data))


@pytest.mark.parametrize(
    "blob", [b"not json", b"[]", b'{"seats": 3}', b'{"format": "two", "seats": []}']
)
def test_a_blob_that_is_no_table_state_is_refused_not_a_crash(blob: bytes) -> None:
    with pytest.raises(TableTooNew):
        TableState.from_bytes(blob)


def test_a_known_field_of_a_shape_this_release_cannot_use_is_refused() -> None:
    data = _current()
    data["rules"]["variant"] = "from_the_future"
    with pytest.raises(TableTooNew, match="newer release"):
        TableState.from_bytes(json_bytes(data))


BEHIND = FORMAT - 1


def _read_one_behind(blob: bytes) -> TableState:
    """The table as a server whose reader is one format behind reads it:
    what its format does not have is left out, then it is its own table."""
    seen = state_format.read(json.loads(blob), reader=BEHIND)
    assert set(seen) <= TABLE_FIELDS[BEHIND]
    assert all(set(seat) <= SEAT_FIELDS[BEHIND] for seat in seen["seats"])
    return TableState.from_json(state_format.read(seen))


def _write_one_behind(state: TableState) -> bytes:
    """The blob that server writes: its format's fields, all of them."""
    return json_bytes(state_format.read(state.to_json(), reader=BEHIND))


def test_a_rolling_upgrade_reads_a_table_both_ways() -> None:
    current = TableState.from_bytes(_golden(FORMAT))
    # Written by this release, read by the release before (this format's
    # additions are ones it may ignore: readable_from says so) ...
    old = _read_one_behind(current.to_bytes())
    assert old.to_bytes() == current.to_bytes()
    # ... which plays on and writes it back in its own format ...
    old.chat.append([old.seq, 1, "Ann", "still here"])
    written_back = _write_one_behind(old)
    assert json.loads(written_back).get("format", 1) == BEHIND
    # ... and this release reads that again: the same table, the new line too.
    again = TableState.from_bytes(written_back)
    assert again.chat[-1] == [old.seq, 1, "Ann", "still here"]
    assert again.to_bytes() == old.to_bytes()


def test_a_reader_one_behind_refuses_what_it_may_not_read() -> None:
    # A later change older readers must not read raises readable_from.
    data = {**_current(), "readable_from": FORMAT}
    with pytest.raises(TableTooNew):
        state_format.read(data, reader=FORMAT - 1)
