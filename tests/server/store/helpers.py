"""Short forms of store calls for the store tests: a commit from its
parts, and a hand record or a player's statistics added the only way the
server adds them, with a commit of the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from server.store import CommitRequest, StatsDelta, TableStore


async def commit(
    store: TableStore,
    table_id: str,
    expected_version: int,
    state: bytes,
    events: Sequence[bytes] = (),
    *,
    owner: str | None = None,
    running: bool | None = None,
    records: Sequence[bytes] = (),
    stats: Mapping[str, StatsDelta] | None = None,
    token: str | None = None,
) -> tuple[int, int]:
    """``store.commit`` of a ``CommitRequest`` of these parts."""
    request = CommitRequest(
        table_id,
        expected_version,
        state,
        events,
        owner=owner,
        running=running,
        records=records,
        stats=stats or {},
        token=token,
    )
    return await store.commit(request)


async def add_hand_record(store: TableStore, table_id: str, record: bytes) -> None:
    """Keep ``record`` with the table: a commit of its state as stored,
    with the record and no event (a table that is gone: ``StoreConflict``)."""
    stored = await store.load_table(table_id)
    version, state = (stored.version, stored.state) if stored is not None else (1, b"")
    await commit(store, table_id, version, state, records=[record])


async def add_stats(store: TableStore, table_id: str, player_id: str, delta: StatsDelta) -> None:
    """Add ``delta`` to a player's statistics with a commit of ``table_id``."""
    stored = await store.load_table(table_id)
    assert stored is not None, "add_stats commits an existing table"
    await commit(store, table_id, stored.version, stored.state, stats={player_id: delta})
