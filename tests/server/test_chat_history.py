"""The table keeps its recent chat: a player who joins late, a spectator and
a seat that resumes on a new connection all get it, in order, with the same
numbers the live ``chat_message`` events had, just before their snapshot."""

from __future__ import annotations

from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer
from server.table_state import CHAT_HISTORY, TableState

from .harness import SHORT_RULES, WireClient
from .test_reconnect import resume


def _history_then_snapshot(client: WireClient, start: int) -> sm.ChatHistory:
    """The chat history received at or after message ``start``; the next
    table message after it is the snapshot."""
    messages = client.messages[start:]
    (at,) = [i for i, m in enumerate(messages) if isinstance(m, sm.ChatHistory)]
    assert isinstance(messages[at + 1], sm.Snapshot)
    history = messages[at]
    assert isinstance(history, sm.ChatHistory)
    return history


async def test_late_joiners_spectators_and_resumers_get_the_recent_chat(
    server: RunningServer,
) -> None:
    host = await WireClient.open(server.url, "Host")
    seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
    first = _history_then_snapshot(host, 0)
    assert first.lines == ()
    live = []
    for n in range(CHAT_HISTORY + 5):
        await host.call(cm.Chat(id=host.next_id(), text=f"line {n}"))
        _, line = await host.wait_for(
            lambda m, n=n: isinstance(m, sm.ChatMessage) and m.text == f"line {n}"
        )
        live.append(line)

    guest = await WireClient.open(server.url, "Guest")
    await guest.join(seated.code)
    history = _history_then_snapshot(guest, 0)
    # The last CHAT_HISTORY lines, oldest first, exactly as they went out live.
    assert history.lines == tuple(live[-CHAT_HISTORY:])

    await guest.call(cm.Chat(id=guest.next_id(), text="hi all"))
    _, hello = await host.wait_for(lambda m: isinstance(m, sm.ChatMessage) and m.text == "hi all")
    assert (hello.seat, hello.name) == (1, "Guest")

    watcher = await WireClient.open(server.url, "Eve")
    await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
    watched = _history_then_snapshot(watcher, 0)
    assert watched.lines[-1] == hello and len(watched.lines) == CHAT_HISTORY

    # A new connection resuming the guest's seat: nothing kept, all sent.
    await guest.drop()
    again, _ = await resume(server.url, guest, last_seq=guest.seq)
    resumed = _history_then_snapshot(again, 0)
    assert resumed.lines == watched.lines
    for c in (host, again, watcher):
        await c.close()


async def test_chat_lines_are_part_of_the_stored_table(server: RunningServer) -> None:
    """Kept with the table (a restarted or new owner has them), not only in
    the process's memory."""
    host = await WireClient.open(server.url, "Host")
    await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
    await host.call(cm.Chat(id=host.next_id(), text="remember me"))
    stored = await server.lobby.store.load_table(host.table_id)
    assert stored is not None
    state = TableState.from_bytes(stored.state)
    assert [line[1:] for line in state.chat] == [[0, "Host", "remember me"]]
    await host.close()
