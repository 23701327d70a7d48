"""``make docs``: docs/protocol.md's reference tables, the JSON Schema and
the AsyncAPI document are what the models generate, and the generator reads
the models generically (a message added to a union is documented)."""

from __future__ import annotations

import re

import pytest

from protocol import server_messages as sm
from protocol.exchanges import EXCHANGES, message_type
from protocol.refusals import ERROR_CODES, NOT_NOW_REASONS
from server.config import ServerConfig
from tools.maintenance import protocol_docs as docs


def test_the_committed_files_are_what_the_models_generate() -> None:
    for path, text in docs.generated_files().items():
        assert path.read_text() == text, f"{path.name} is stale: run make docs"


def test_every_request_has_its_answer() -> None:
    assert set(EXCHANGES) == set(docs.client_models())


def test_every_message_type_code_and_reason_has_a_row() -> None:
    text = docs.PROTOCOL_MD.read_text()
    rows = set(re.findall(r"^\| `([a-z_]+)` \|", text, re.MULTILINE))
    kinds = {message_type(m) for m in [*docs.client_models(), *docs.server_models()]}
    assert kinds - rows == set()
    assert set(ERROR_CODES) - rows == set()
    assert set(NOT_NOW_REASONS) - rows == set()


def test_replies_events_and_other_messages_split_the_server_union() -> None:
    models = docs.server_models()
    replies = [m for m in models if docs.is_reply(m)]
    events = [m for m in models if docs.is_event(m)]
    assert sm.Ok in replies and sm.Ok not in events  # ok carries seq, yet answers a request
    assert sm.CardPlayed in events and sm.Snapshot in events
    assert not set(replies) & set(events)


def test_limits_come_from_the_config() -> None:
    table = docs.limits_table(ServerConfig(rate_per_second=1234.0, rate_burst=99.0))
    assert "1,234/s per connection, burst 99" in table


def test_a_marker_without_a_block_or_a_block_without_a_marker_is_an_error() -> None:
    blocks = {"a": "new"}
    text = "x\n<!-- generated: a (make docs) -->\nold\n<!-- end generated: a -->\ny\n"
    assert docs.fill(text, blocks) == text.replace("old", "new")
    with pytest.raises(ValueError, match="b"):
        docs.fill(text, {**blocks, "b": "more"})
    with pytest.raises(KeyError):
        docs.fill(text, {})


def test_the_bounds_table_gives_the_seat_count_of_ten_seat_tables() -> None:
    assert "| `seat` | integer 0 … 9 |" in docs.blocks()["bounds"]
