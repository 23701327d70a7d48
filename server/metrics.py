"""Prometheus metrics of one server process, served at ``/metrics``.

Each server has its own registry (no global state): tests can run several
servers in one process. Gauges that describe tables are computed when
scraped, from the tables the lobby runs (``Metrics.watch``), so they are
never stale. This module imports nothing else of the server: everything
else may count here.

| metric | kind | labels |
| --- | --- | --- |
| ``hearts_tables`` | gauge | ``status`` (waiting, playing, between_hands, game_over) |
| ``hearts_tables_owned`` | gauge | — tables this process runs now |
| ``hearts_connected_seats`` | gauge | — seats with a live connection here |
| ``hearts_actions_total`` | counter | ``kind`` (request, bot_move, attach, …) |
| ``hearts_errors_total`` | counter | ``code`` (the error code sent to clients) |
| ``hearts_clients_dropped_total`` | counter | ``reason`` (slow_consumer, flooding) |
| ``hearts_tables_refused_total`` | counter | ``reason`` (player_budget, address_budget, …) |
| ``hearts_bot_think_seconds`` | histogram | ``level`` |
| ``hearts_store_commit_seconds`` | histogram | — a commit's round trip |
| ``hearts_reviews_total`` | counter | ``source`` (computed, memory, store): seat-hand reviews answered |
| ``hearts_store_commits_waiting_replicas`` | gauge | — Redis commits waiting for their replicas now |
| ``hearts_store_replica_timeouts_total`` | counter | — Redis commits not confirmed by their replicas in time (retried) |
| ``hearts_build_info`` | gauge (1) | ``version`` |
| ``process_*`` | gauges | — memory, CPU seconds, open and maximum file descriptors, start time |
| ``python_*`` | gauges, counters | — the interpreter's version and garbage collections |

Counters and histograms have no ``_created`` series: they doubled the
series count and no dashboard of ours reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from prometheus_client import (
    GC_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.registry import Collector

_STATUSES = ("waiting", "playing", "between_hands", "game_over")


class TableGauge(NamedTuple):
    """What the gauges count of one table this process runs."""

    status: str
    connected_seats: int


TableSource = Callable[[], Iterable[TableGauge]]


class _TableCollector(Collector):
    def __init__(self, tables: Callable[[], TableSource | None]) -> None:
        self._tables = tables

    def collect(self) -> Iterable[Metric]:
        source = self._tables()
        tables = list(source()) if source is not None else []
        by_status = GaugeMetricFamily(
            "hearts_tables", "Tables run by this process", labels=["status"]
        )
        for status in _STATUSES:
            by_status.add_metric([status], sum(t.status == status for t in tables))
        yield by_status
        yield GaugeMetricFamily(
            "hearts_tables_owned", "Tables this process owns now", value=len(tables)
        )
        yield GaugeMetricFamily(
            "hearts_connected_seats",
            "Seats with a live connection to a table of this process",
            value=sum(t.connected_seats for t in tables),
        )


ReplicaSource = Callable[[], tuple[int, int]]


class _ReplicaCollector(Collector):
    def __init__(self, source: ReplicaSource) -> None:
        self._source = source

    def collect(self) -> Iterable[Metric]:
        waiting, behind = self._source()
        yield GaugeMetricFamily(
            "hearts_store_commits_waiting_replicas",
            "Redis commits written on the master and waiting for their replicas (WAIT)",
            value=waiting,
        )
        yield CounterMetricFamily(
            "hearts_store_replica_timeouts",
            "Redis commits whose replicas did not confirm in time (not acknowledged; retried)",
            value=behind,
        )


class Metrics:
    """The metrics of one server."""

    def __init__(self, version: str = "") -> None:
        # prometheus_client's switch is process-wide; every registry of
        # ours wants it off.
        disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        # The garbage collector's collector reads only process-wide counters:
        # the library's one instance is shared, not a second copy made.
        self.registry.register(GC_COLLECTOR)
        Gauge(
            "hearts_build_info",
            "The running release (always 1)",
            ["version"],
            registry=self.registry,
        ).labels(version).set(1)
        self._children: dict[tuple[int, str], Any] = {}
        self._tables: TableSource | None = None
        self.registry.register(_TableCollector(lambda: self._tables))
        self.actions = Counter(
            "hearts_actions", "Jobs applied by table actors", ["kind"], registry=self.registry
        )
        self.errors = Counter(
            "hearts_errors", "Errors sent to clients", ["code"], registry=self.registry
        )
        self.clients_dropped = Counter(
            "hearts_clients_dropped",
            "Connections the server closed because of the client's behaviour",
            ["reason"],
            registry=self.registry,
        )
        self.bot_think = Histogram(
            "hearts_bot_think_seconds",
            "Time a bot spent deciding (not counting any wait for a worker)",
            ["level"],
            buckets=(0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0),
            registry=self.registry,
        )
        self.code_lookups = Counter(
            "hearts_code_lookups",
            "Table lookups by invite code or link: found, missed_code, missed_invite, refused "
            "(the address must wait)",
            ["result"],
            registry=self.registry,
        )
        self.address_refusals = Counter(
            "hearts_address_refusals",
            "Connections refused per client address, by reason",
            ["reason"],
            registry=self.registry,
        )
        self.tables_refused = Counter(
            "hearts_tables_refused",
            "New tables refused: player_budget, address_budget (creation budgets), "
            "process_tables, store_tables, store_full (caps)",
            ["reason"],
            registry=self.registry,
        )
        self.bot_queue_wait = Histogram(
            "hearts_bot_queue_wait_seconds",
            "Time a bot decision waited for a worker (quick levels never wait)",
            ["level"],
            buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0),
            registry=self.registry,
        )
        self.store_commit = Histogram(
            "hearts_store_commit_seconds",
            "Time a table commit took",
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.0),
            registry=self.registry,
        )

        self.reviews = Counter(
            "hearts_reviews",
            "Seat-hand reviews answered (get_analysis, get_accuracy) by where they came "
            "from: computed (the evaluator ran), memory (this process had it), store "
            "(kept with the table by any process, before any restart)",
            ["source"],
            registry=self.registry,
        )

    def child(self, metric: MetricWrapperBase, label: str) -> Any:
        """``metric.labels(label)``, kept: a table counts each job and each
        bot decision, and a lookup takes prometheus_client's lock, checks
        the label and hashes it every time (2-4% of a busy server)."""
        key = (id(metric), label)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = metric.labels(label)
        return found

    def watch(self, tables: TableSource) -> None:
        """Describe the tables ``tables()`` gives when scraped (the lobby's)."""
        self._tables = tables

    def watch_replicas(self, source: ReplicaSource) -> None:
        """Report the Redis store's commits waiting for replicas:
        ``source()`` gives (waiting now, not confirmed in time so far)."""
        self.registry.register(_ReplicaCollector(source))

    def render(self) -> bytes:
        """The text exposition format."""
        return generate_latest(self.registry)
