"""Key formats shared by the Redis store and the cluster: one home for
each, so the store's commit script (which checks a table's lease) and the
cluster (which takes, renews and releases it) can never disagree.

Every key starts with the deployment's ``prefix`` (``hearts:`` unless
configured). The store's own data keys are laid out in
``server.store.redis_scripts``.
"""

from __future__ import annotations


def lease_key(prefix: str, table_id: str) -> str:
    """A table's ownership lease: the owner's process id, with an expiry
    (server.cluster); the store's commit refuses a writer it does not name."""
    return f"{prefix}lease:{table_id}"


def alive_key(prefix: str, process_id: str) -> str:
    """A process's heartbeat, renewed with its leases (server.cluster)."""
    return f"{prefix}alive:{process_id}"


def channel(prefix: str, process_id: str) -> str:
    """The pub/sub channel a process listens on (server.cluster)."""
    return f"{prefix}proc:{process_id}"
