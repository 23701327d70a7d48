"""The table model's typed dispatch: every message the session can put on
the table's stream has a handler, or is one the next snapshot shows."""

from __future__ import annotations

from typing import get_args

from client.session import Reconnected
from client.tui.message_table import SHOWN_BY_SNAPSHOT, TABLE_MESSAGES
from client.tui.model import TableModel
from protocol import server_messages as sm
from protocol.exchanges import REPLY_TYPES


def server_message_classes() -> set[type]:
    """Every class of the protocol's union of server messages."""
    (union, *_) = get_args(sm.ServerMessage)
    return set(get_args(union))


def test_every_table_message_has_a_handler_or_is_shown_by_the_snapshot() -> None:
    handled = set(TableModel().handlers)
    missing = set(TABLE_MESSAGES) - handled - SHOWN_BY_SNAPSHOT
    assert not missing, f"no handler for {sorted(c.__name__ for c in missing)}"
    # A handler or a "shown by the snapshot", never both, and nothing else.
    assert not handled & SHOWN_BY_SNAPSHOT
    assert handled | SHOWN_BY_SNAPSHOT == set(TABLE_MESSAGES)


def test_every_server_message_that_is_not_a_reply_reaches_the_table_stream() -> None:
    # A new kind of message the server pushes (not an answer to a request)
    # must be listed for the table, and so given a handler.
    pushed = server_message_classes() - set(REPLY_TYPES) - {sm.KnockAnswered}
    assert pushed <= set(TABLE_MESSAGES)
    assert Reconnected in TABLE_MESSAGES and sm.Error in TABLE_MESSAGES


def test_a_message_is_handed_to_the_handler_filed_under_its_class() -> None:
    model = TableModel()
    before = model.revision
    model.apply(sm.Notice(text="Maintenance at noon"))
    assert model.revision == before + 1
    assert [line.msg.key for line in model.log] == ["log.operator_notice"]
    assert [n.key for n in model.take_notifications()] == ["log.operator_notice"]


def test_a_message_shown_by_the_snapshot_changes_nothing() -> None:
    model = TableModel()
    before = model.revision
    model.apply(sm.PlayBegins(seq=3, leader=1))
    assert model.revision == before
    assert list(model.log) == []
