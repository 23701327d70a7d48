"""The table's log: chat lines and table events, oldest first.

Chat comes two ways: live ``chat_message`` events, and the ``chat_history``
the server sends before the snapshot of every join, resume and watch (the
table's last lines, oldest first). Both carry the table's ``seq``, so the
history is merged by it: a line we already show is not shown twice (after a
reconnect the missed lines arrive both replayed and in the history), and a
line we missed is put where it was said. Every line remembers the ``seq`` it
came with; lines of our own (a reconnection) take the last one seen, so
they stay where they happened.

At least ``KEEP`` chat lines and ``KEEP`` event lines are kept: a long game's
announcements never push the conversation out of the scrollback.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from protocol import server_messages as sm

from .i18n import Msg

KEEP: Final = 200
# The lines ``withdraw_away`` looks at: a seat away, back, and our own return.
AWAY: Final = "log.away"
BACK: Final = "log.back"
RECONNECTED: Final = "log.reconnected"


@dataclass(frozen=True)
class LogLine:
    """A line of the log: a chat message (``name`` set) or a table event."""

    msg: Msg
    name: str = ""
    seq: int = 0
    chat: bool = False


class TableLog:
    """Chat and events in table order, with a revision to redraw on change."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self.revision = 0
        self.last_seq = 0
        self._lines: list[LogLine] = []
        self._chat_seqs: set[int] = set()

    def __iter__(self) -> Iterator[LogLine]:
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    def clear(self) -> None:
        """Forget every line (another table); the revision goes on."""
        self._lines = []
        self._chat_seqs = set()
        self.last_seq = 0
        self.revision += 1

    def tail(self, n: int) -> list[LogLine]:
        """The newest ``n`` lines, oldest first."""
        return self._lines[-n:] if n > 0 else []

    def chat_lines(self) -> list[LogLine]:
        """Only the conversation."""
        return [line for line in self._lines if line.chat]

    def saw(self, seq: int | None) -> None:
        """A table event numbered ``seq`` arrived (lines of our own go after it)."""
        if seq is not None and seq > self.last_seq:
            self.last_seq = seq

    def event(self, msg: Msg, seq: int | None = None) -> None:
        """An announcement: a hand dealt, hearts broken, a player left…"""
        self.saw(seq)
        self._lines.append(LogLine(msg, seq=self.last_seq if seq is None else seq))
        self._trim()

    def withdraw_away(self, name: object) -> bool:
        """``name`` came back right after our own reconnection (a server
        restart drops everyone at once): take back the "lost the
        connection" said of them since, and say nothing of their return.
        True when it was withdrawn; only while the lines since our
        reconnection are such comings and goings."""
        for index in range(len(self._lines) - 1, -1, -1):
            line = self._lines[index]
            if line.chat or line.msg.key not in (AWAY, BACK):
                return False
            if line.msg.key == AWAY and line.msg.params.get("name") == name:
                before = self._lines[:index]
                earlier = [li for li in before if li.chat or li.msg.key not in (AWAY, BACK)]
                if not earlier or earlier[-1].msg.key != RECONNECTED:
                    return False
                del self._lines[index]
                self.revision += 1
                return True
        return False

    def chat(self, line: sm.ChatMessage) -> bool:
        """A live chat line; False when it is already shown."""
        self.saw(line.seq)
        return self.merge((line,)) == 1

    def merge(self, lines: Iterable[sm.ChatMessage]) -> int:
        """Chat lines (a history, or one live line) put in ``seq`` order
        among the lines already kept; returns how many were new."""
        new = [
            LogLine(Msg.raw(m.text), name=m.name or "?", seq=m.seq, chat=True)
            for m in lines
            if m.seq not in self._chat_seqs
        ]
        if not new:
            return 0
        self._chat_seqs.update(line.seq for line in new)
        if self._lines and new[0].seq < self._lines[-1].seq:
            # Stable: a line already kept stays before a new one of its seq.
            self._lines = sorted([*self._lines, *new], key=lambda line: line.seq)
        else:
            self._lines.extend(new)
        self._trim()
        return len(new)

    def _trim(self) -> None:
        self.revision += 1
        chats = sum(1 for line in self._lines if line.chat)
        extra_chat = chats - self.keep
        extra_events = len(self._lines) - chats - self.keep
        if extra_chat <= 0 and extra_events <= 0:
            return
        kept: list[LogLine] = []
        for line in self._lines:
            if line.chat and extra_chat > 0:
                extra_chat -= 1
                self._chat_seqs.discard(line.seq)
            elif not line.chat and extra_events > 0:
                extra_events -= 1
            else:
                kept.append(line)
        self._lines = kept
