"""Where ``RedisStore`` and ``server.cluster`` keep things in Redis: the key
layout, one for a lone Redis, a Sentinel set and Redis Cluster alike.

Redis Cluster runs a script or a transaction only on keys of one hash slot,
and a key's slot is that of its hash tag (the text between the first ``{``
and the next ``}``). The layout is made so that every script touches one
slot (``P`` is the store's prefix, ``hearts:`` by default)::

    P{<bucket>}:table:<id>     hash: state, version, last_seq, code, created,
                               token
    P{<bucket>}:events:<id>    stream, entry id ``<seq>-0``, field ``b`` = body
    P{<bucket>}:records:<id>   list of hand records, oldest first
    P{<bucket>}:reviews:<id>   hash: hand reviews, ``<review key>`` -> review
                               (server.stored_reviews); expires with the table
    P{<bucket>}:lease:<id>     the table's owner (server.cluster)
    P{<bucket>}:pending:<id>   hash: statistics a commit owes its players,
                               ``<version>|<player id>`` -> six numbers
    P{<bucket>}:tables         set: ids of the bucket's tables
    P{<bucket>}:running        set: ids whose last commit said a game is on
    P{<bucket>}:owing          set: ids with statistics still pending
    P{c:<code>}:code           the table id an invite code names
    P{s:<player>}:stats        hash: games, wins, hands, points, moons, queens
    P{s:<player>}:counted:<id>:<version>
                               marker: that commit's statistics are counted
    P{lobby}:public            sorted set: listed table id -> creation number
    P{lobby}:listed            hash: ``c:<id>`` -> code, ``s:<id>`` -> summary
    P{lobby}:created           counter giving each table its creation number
    P{lobby}:layout            the layout's version ("2"; server.store.redis_migrate)
    P{p:<process>}:alive       a server process's heartbeat (server.cluster)
    P{p:<process>}:bus         a server process's bus channel (sharded pub/sub)

**Buckets.** A table's keys carry the tag of one of ``BUCKETS`` buckets,
chosen from its id (CRC-32, so every process agrees). The bucket's own
sets (its tables, its running tables, its tables owing statistics) share
that slot, so a commit updates the running set in the same atomic script
as the table, fencing check included (the lease is in the slot too). Each
bucket's tag was picked so that its slot lies in the bucket's own 64th of
the slot range (``tests/server/store/test_redis_keys.py`` checks it): a
Cluster's masters, which hold contiguous slot ranges, each get their share
of the buckets, and so of the tables.

**Where one action writes two slots** (nothing else does), the second write
is idempotent and a later pass repairs a crash between the two
(docs/architecture.md, "Stores", lists each case).

The kind of key and the tag come before any id, so no id (whatever
characters it holds) names another table's key or another kind of key, and
every key of one player or one code shares its tag even when the id holds
braces. The prefix itself must hold none.
"""

from __future__ import annotations

import zlib

BUCKETS = 64
# Bucket k's tag hashes to a slot in [256 k, 256 (k + 1)).
BUCKET_TAGS = (
    "b0.52", "b1.128", "b2.162", "b3.353", "b4.108", "b5.20", "b6.58", "b7.2",
    "b8.122", "b9.33", "b10.61", "b11.48", "b12.173", "b13.20", "b14.120", "b15.13",
    "b16.143", "b17.372", "b18.28", "b19.163", "b20.62", "b21.101", "b22.33", "b23.123",
    "b24.40", "b25.69", "b26.11", "b27.38", "b28.352", "b29.163", "b30.60", "b31.49",
    "b32.72", "b33.133", "b34.41", "b35.68", "b36.29", "b37.322", "b38.302", "b39.133",
    "b40.69", "b41.40", "b42.38", "b43.11", "b44.32", "b45.142", "b46.63", "b47.160",
    "b48.20", "b49.169", "b50.130", "b51.43", "b52.8", "b53.143", "b54.31", "b55.18",
    "b56.9", "b57.172", "b58.22", "b59.363", "b60.68", "b61.41", "b62.1", "b63.10",
)  # fmt: skip
LAYOUT_VERSION = "2"


class Keyspace:
    """The keys of one store prefix (see the module docstring)."""

    __slots__ = ("prefix",)

    def __init__(self, prefix: str = "hearts:") -> None:
        """``ValueError`` for a prefix holding a brace (it would move the
        hash tag and split a table's keys over several slots)."""
        if "{" in prefix or "}" in prefix:
            raise ValueError("the Redis key prefix cannot contain '{' or '}'")
        self.prefix = prefix

    @staticmethod
    def bucket(table_id: str) -> int:
        """The bucket of a table (0 … BUCKETS - 1)."""
        return zlib.crc32(table_id.encode()) % BUCKETS

    def _bucket_key(self, bucket: int, kind: str) -> str:
        return f"{self.prefix}{{{BUCKET_TAGS[bucket]}}}:{kind}"

    def _table_key(self, kind: str, table_id: str) -> str:
        return f"{self._bucket_key(self.bucket(table_id), kind)}:{table_id}"

    # -- one table (all in its bucket's slot) --------------------------------

    def table(self, table_id: str) -> str:
        """The table's hash."""
        return self._table_key("table", table_id)

    def events(self, table_id: str) -> str:
        """The table's event stream."""
        return self._table_key("events", table_id)

    def records(self, table_id: str) -> str:
        """The table's hand records."""
        return self._table_key("records", table_id)

    def reviews(self, table_id: str) -> str:
        """The table's kept hand reviews."""
        return self._table_key("reviews", table_id)

    def lease(self, table_id: str) -> str:
        """The table's lease (its owner's process id)."""
        return self._table_key("lease", table_id)

    def pending(self, table_id: str) -> str:
        """The statistics the table's commits still owe its players."""
        return self._table_key("pending", table_id)

    # -- a bucket's indexes ----------------------------------------------------

    def bucket_set(self, bucket: int, kind: str) -> str:
        """A bucket's index ``kind``: its ``tables``, its ``running`` tables
        or its tables ``owing`` statistics."""
        return self._bucket_key(bucket, kind)

    def bucket_table_stem(self, bucket: int) -> str:
        """A bucket's table hash keys without their ids (what a script over a
        bucket index appends an id to)."""
        return self._bucket_key(bucket, "table:")

    def table_set(self, table_id: str, kind: str) -> str:
        """The index ``kind`` of a table's bucket (see ``bucket_set``)."""
        return self._bucket_key(self.bucket(table_id), kind)

    # -- shared by many tables ---------------------------------------------------

    def code(self, code: str) -> str:
        """What an invite code names."""
        return f"{self.prefix}{{c:{code}}}:code"

    def stats(self, player_id: str) -> str:
        """A player's statistics."""
        return f"{self.prefix}{{s:{player_id}}}:stats"

    def counted(self, player_id: str, table_id: str, version: int) -> str:
        """The marker that one commit's statistics were added for a player."""
        return f"{self.prefix}{{s:{player_id}}}:counted:{table_id}:{version}"

    def lobby(self, kind: str) -> str:
        """A key of the lobby's slot: public, listed, created, layout, migration."""
        return f"{self.prefix}{{lobby}}:{kind}"

    def alive(self, process_id: str) -> str:
        """A server process's heartbeat."""
        return f"{self.prefix}{{p:{process_id}}}:alive"

    def channel(self, process_id: str) -> str:
        """A server process's bus channel."""
        return f"{self.prefix}{{p:{process_id}}}:bus"
