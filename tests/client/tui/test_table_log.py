"""The table log: chat history merged by ``seq`` with the lines already kept
(no duplicates, missed lines where they were said), events and our own
lines in place, and the scrollback's limits."""

from __future__ import annotations

from client.tui.i18n import Msg
from client.tui.model import TableModel
from client.tui.table_log import TableLog
from protocol import server_messages as sm


def chat(seq: int, text: str, name: str = "Ann") -> sm.ChatMessage:
    return sm.ChatMessage(seq=seq, seat=1, name=name, text=text)


def texts(log: TableLog) -> list[str]:
    return [str(line.msg.params.get("text", line.msg.key)) for line in log]


def test_history_merges_by_seq_without_duplicates() -> None:
    log = TableLog()
    log.chat(chat(3, "three"))
    log.event(Msg("log.hearts_broken"), seq=5)
    log.chat(chat(7, "seven"))
    # After a reconnect the history holds lines we have and lines we missed.
    added = log.merge([chat(2, "two"), chat(3, "three"), chat(6, "six"), chat(7, "seven")])
    assert added == 2
    assert texts(log) == ["two", "three", "log.hearts_broken", "six", "seven"]
    assert not log.chat(chat(7, "seven"))  # a replayed live line is not shown twice
    assert log.chat(chat(8, "eight"))
    assert [line.seq for line in log] == [2, 3, 5, 6, 7, 8]


def test_our_own_lines_stay_where_they_happened() -> None:
    log = TableLog()
    log.saw(10)
    log.event(Msg("log.reconnected"))  # no seq of its own: after event 10
    log.merge([chat(9, "before"), chat(11, "after")])
    assert texts(log) == ["before", "log.reconnected", "after"]


def test_the_conversation_is_not_pushed_out_by_events() -> None:
    log = TableLog(keep=200)
    seq = 0
    for n in range(250):
        seq += 1
        log.chat(chat(seq, f"line {n}"))
        seq += 1
        log.event(Msg("log.hearts_broken"), seq=seq)
    chats = log.chat_lines()
    assert len(chats) == 200 and len(log) == 400
    assert texts(log)[-2:] == ["line 249", "log.hearts_broken"]
    assert str(chats[0].msg.params["text"]) == "line 50"
    # An old line the history sends again does not come back in front.
    log.merge([chat(1, "line 0")])
    assert str(log.chat_lines()[0].msg.params["text"]) == "line 50"


def test_the_model_takes_chat_history_and_live_lines() -> None:
    model = TableModel()
    model.apply(sm.ChatHistory(lines=(chat(1, "hi"), chat(2, "hello", "Bob"))))
    model.apply(chat(2, "hello", "Bob"))
    model.apply(chat(4, "bye"))
    assert [(line.name, texts_of(line.msg)) for line in model.log] == [
        ("Ann", "hi"),
        ("Bob", "hello"),
        ("Ann", "bye"),
    ]


def texts_of(msg: Msg) -> str:
    return str(msg.params.get("text", ""))
