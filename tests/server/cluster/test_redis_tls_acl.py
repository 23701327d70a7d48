"""TLS and an ACL user on real Redis the tests start (``tests/redis_ha.py``,
``Secure``: a throwaway CA made by openssl, nodes listening on TLS only with
the default user off): one Redis (``rediss://USER:PASSWORD@…``), a Sentinel
set (``rediss+sentinel://USER:PASSWORD@…/SERVICE?ca=``) and a Cluster
(``rediss+cluster://USER:PASSWORD@…?ca=``), the forms docs/deploy.md gives,
each carry a real game: every commit goes over TLS on the store's lanes, on
Sentinel and Cluster followed by a ``WAIT`` that a replica confirms, and the
game's records verify. Wrong credentials stop the server at start."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from engine.record import verify_record
from server.store.base import StoreError
from server.store.redis_store import RedisStore
from tests.redis_ha import ClusterSet, Node, Secure, SentinelSet, data_node_args, port_in_range

from ..conftest import ServerFactory
from ..harness import SHORT_RULES, WireClient, play_until


@pytest.fixture(scope="module")
def secure(tmp_path_factory: pytest.TempPathFactory) -> Secure:
    """One CA and node certificate for the module's Redis."""
    return Secure.make(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def tls_redis(secure: Secure, tmp_path: Path) -> Iterator[Node]:
    """One Redis on TLS only, with the ACL user."""
    port = port_in_range()
    node = Node(port, data_node_args(port, tmp_path, secure=secure), tmp_path, secure=secure)
    node.start()
    yield node
    node.kill()


Topology = TypeVar("Topology", SentinelSet, ClusterSet)


async def _running(topology: Topology) -> AsyncIterator[Topology]:
    """``topology`` started, and stopped afterwards."""
    try:
        await asyncio.to_thread(topology.start)
        yield topology
    finally:
        await asyncio.to_thread(topology.stop)


@pytest.fixture
async def tls_sentinel_set(secure: Secure, tmp_path: Path) -> AsyncIterator[SentinelSet]:
    """A Sentinel set speaking TLS everywhere, its data nodes the ACL user's."""
    async for started in _running(SentinelSet(tmp_path, secure=secure)):
        yield started


@pytest.fixture
async def tls_cluster(secure: Secure, tmp_path: Path) -> AsyncIterator[ClusterSet]:
    """A Cluster speaking TLS (its bus too), its nodes the ACL user's."""
    async for started in _running(ClusterSet(tmp_path, secure=secure)):
        yield started


async def _a_game_commits_through(make_server: ServerFactory, url: str, replicas: int) -> None:
    """A host and three Easy bots play a one-hand game on ``url``; every
    commit waited for ``replicas`` replicas, and the record verifies."""
    async with make_server(store_url=url) as server:
        store = server.store
        assert isinstance(store, RedisStore) and store.replicas == replicas
        host = await WireClient.open(server.url, "Host")
        try:
            await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
            await host.start()
            end = await play_until(host, random.Random(5), timeout=60)
            assert end.status == "game_over"
            records = await host.records()
            assert records
            for record in records:
                answer = verify_record(json.loads(record))
                assert answer["ok"] and answer["complete"], answer
            # Every commit was confirmed by its replicas (none gave up).
            assert store.replicas_behind == 0
        finally:
            await host.close()


async def test_a_game_commits_on_one_redis_over_tls_as_an_acl_user(
    make_server: ServerFactory, tls_redis: Node, secure: Secure
) -> None:
    url = (
        f"rediss://{secure.user}:{secure.password}@127.0.0.1:{tls_redis.port}/0"
        f"?ssl_ca_certs={secure.ca}"
    )
    await _a_game_commits_through(make_server, url, replicas=0)


async def test_wrong_acl_credentials_stop_the_server_at_start(
    tls_redis: Node, secure: Secure
) -> None:
    url = f"rediss://{secure.user}:wrong@127.0.0.1:{tls_redis.port}/0?ssl_ca_certs={secure.ca}"
    store = RedisStore(url)
    try:
        with pytest.raises(StoreError, match="refused the credentials"):
            await store.prepare()
    finally:
        await store.close()


async def test_a_game_commits_on_sentinel_over_tls_and_waits_for_the_replica(
    make_server: ServerFactory, tls_sentinel_set: SentinelSet
) -> None:
    assert tls_sentinel_set.url.startswith("rediss+sentinel://")
    await _a_game_commits_through(make_server, tls_sentinel_set.url, replicas=1)


async def test_a_game_commits_on_a_cluster_over_tls_and_waits_for_replicas(
    make_server: ServerFactory, tls_cluster: ClusterSet
) -> None:
    assert tls_cluster.url.startswith("rediss+cluster://")
    await _a_game_commits_through(make_server, tls_cluster.url, replicas=1)
