"""A memory store whose commits a test can make fail, to check that nothing
the server keeps in memory runs ahead of what the store accepted."""

from __future__ import annotations

from server.store import CommitRequest, MemoryStore, StoreError
from server.store.base import StoreConflict


class RefusingStore(MemoryStore):
    """``MemoryStore`` that fails the next ``refuse`` commits with a
    ``StoreError`` (the store is unreachable), writing nothing. With
    ``only_if`` set, only commits one of whose events contains those bytes
    are refused (and counted). While ``conflicts`` is positive, commits
    fail with ``StoreConflict`` instead (another writer moved the version),
    writing nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.refuse = 0
        self.refused = 0
        self.conflicts = 0
        self.only_if: bytes | None = None

    async def commit(self, request: CommitRequest) -> tuple[int, int]:
        """Refuse while ``refuse`` is positive; otherwise commit."""
        matches = self.only_if is None or any(self.only_if in e for e in request.events)
        if self.conflicts > 0 and matches:
            self.conflicts -= 1
            self.refused += 1
            raise StoreConflict("the test store says another writer committed first")
        if self.refuse > 0 and matches:
            self.refuse -= 1
            self.refused += 1
            raise StoreError("the test store refuses this commit")
        return await super().commit(request)
