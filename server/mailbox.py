"""A first-in first-out queue for one consuming task, light enough to keep
one per connection and per table.

``asyncio.Queue`` allocates four deques and an ``Event`` up front (about
3 KiB each): with a send queue per connection and an inbox per table that
was an eighth of what an idle seated connection cost the server. A
``Mailbox`` holds one list and, only while its consumer waits, one future.
It has no size limit of its own: callers that need one check ``len()``.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    """Items in arrival order; ``get`` waits for one. One consumer at a time."""

    __slots__ = ("_head", "_items", "_waiter")

    def __init__(self) -> None:
        # A list read from ``_head`` on, emptied whenever it is all read: an
        # empty list holds no item array, where a deque keeps a 64-slot block.
        self._items: list[T | None] = []
        self._head = 0
        self._waiter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self._items) - self._head

    def empty(self) -> bool:
        """Whether nothing is waiting to be taken."""
        return self._head == len(self._items)

    def put_nowait(self, item: T) -> None:
        """Add ``item`` (never blocks) and wake the consumer if it waits."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> T:
        """The oldest item; ``asyncio.QueueEmpty`` if there is none."""
        if self._head == len(self._items):
            raise asyncio.QueueEmpty
        item = self._items[self._head]
        self._items[self._head] = None  # taken: no longer held here
        self._head += 1
        if self._head == len(self._items):
            self._items.clear()
            self._head = 0
        return item  # type: ignore[return-value]

    async def get(self) -> T:
        """The oldest item, waiting for one if need be (cancellable: an item
        is taken only when ``get`` returns it)."""
        while self._head == len(self._items):
            if self._waiter is not None:
                raise RuntimeError("a Mailbox has one consumer at a time")
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self.get_nowait()
