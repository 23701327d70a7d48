"""Redis store URLs: the three topologies parsed, mistakes refused with one
line, passwords never in the label."""

from __future__ import annotations

import pytest

from server.store import RedisStore, open_store, store_label
from server.store.redis_target import BadRedisUrl, parse_redis_url


def test_a_sentinel_url_names_its_sentinels_service_database_and_credentials() -> None:
    target = parse_redis_url(
        "rediss+sentinel://ann:p%40ss@10.0.0.1:26379,[::1]:26380/mymaster/3"
        "?sentinel_password=s&ca=/etc/ca.pem"
    )
    assert target.topology == "sentinel" and target.tls
    assert target.nodes == (("10.0.0.1", 26379), ("::1", 26380))
    assert (target.service, target.db) == ("mymaster", 3)
    assert (target.username, target.password, target.sentinel_password) == ("ann", "p@ss", "s")
    assert target.ca == "/etc/ca.pem" and target.has_replicas
    assert target.label() == "rediss+sentinel://10.0.0.1:26379,::1:26380/mymaster/3"


def test_a_lone_redis_waits_for_no_replica_and_sentinel_for_one() -> None:
    lone = open_store("redis://127.0.0.1:6379/0")
    watched = open_store("redis+sentinel://127.0.0.1:26379/hearts")
    asked = open_store("redis+sentinel://127.0.0.1:26379/hearts", redis_replicas=2)
    assert isinstance(lone, RedisStore) and isinstance(watched, RedisStore)
    assert isinstance(asked, RedisStore)
    assert (lone.replicas, watched.replicas, asked.replicas) == (0, 1, 2)


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("redis+sentinel://", "at least one HOST:PORT"),
        ("redis+sentinel://127.0.0.1:26379", "needs the service"),
        ("redis+sentinel://127.0.0.1/hearts", "is not HOST:PORT"),
        ("redis+sentinel://127.0.0.1:99999/hearts", "is not HOST:PORT"),
        ("redis+sentinel://127.0.0.1:26379/hearts/x", "is not a number"),
        ("redis+sentinel://127.0.0.1:26379/hearts/0/more", "needs the service"),
        ("redis+sentinel://127.0.0.1:26379/hearts?colour=blue", "unknown option 'colour'"),
        ("redis+cluster://127.0.0.1:7000/0", "takes no path"),
        ("redis+sentinal://127.0.0.1:26379/hearts", "a Redis store URL is"),
    ],
)
def test_a_malformed_url_is_one_line_saying_what_is_wrong(url: str, says: str) -> None:
    with pytest.raises(BadRedisUrl, match=says) as caught:
        parse_redis_url(url)
    assert "\n" not in str(caught.value)


def test_the_label_of_a_sentinel_url_has_no_password() -> None:
    label = store_label("redis+sentinel://:s3cret@h1:26379,h2:26379/hearts")
    assert label == "in Redis redis+sentinel://h1:26379,h2:26379/hearts/0"
    assert "s3cret" not in label
