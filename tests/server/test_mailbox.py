"""server/mailbox.py: the light queue of table inboxes and send queues."""

from __future__ import annotations

import asyncio

import pytest

from server.mailbox import Mailbox


async def test_items_come_out_in_order_and_wake_a_waiting_consumer() -> None:
    box: Mailbox[int] = Mailbox()
    assert box.empty() and len(box) == 0
    consumer = asyncio.create_task(box.get())
    await asyncio.sleep(0)  # the consumer is waiting now
    assert not consumer.done()
    box.put_nowait(1)
    box.put_nowait(2)
    assert await asyncio.wait_for(consumer, 5) == 1
    assert len(box) == 1 and box.get_nowait() == 2
    with pytest.raises(asyncio.QueueEmpty):
        box.get_nowait()


async def test_a_cancelled_get_takes_nothing() -> None:
    box: Mailbox[str] = Mailbox()
    waiting = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    box.put_nowait("kept")
    assert await asyncio.wait_for(box.get(), 5) == "kept"


async def test_one_consumer_at_a_time() -> None:
    box: Mailbox[int] = Mailbox()
    first = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="one consumer"):
        await box.get()
    box.put_nowait(7)
    assert await asyncio.wait_for(first, 5) == 7


def test_a_long_backlog_drains_in_order_and_lets_go_of_its_items() -> None:
    box: Mailbox[object] = Mailbox()
    items = [object() for _ in range(2000)]
    for item in items:
        box.put_nowait(item)
    taken = [box.get_nowait() for _ in range(1000)]
    box.put_nowait("late")
    taken += [box.get_nowait() for _ in range(1001)]
    assert taken == [*items, "late"] and box.empty() and len(box) == 0
    assert box._items == [] and box._head == 0  # nothing kept once all is read
