"""deploy/compose.yaml: `docker compose config` accepts it, and the stack has
the shape docs/deploy.md describes (Redis with AOF, two hardened servers on
it, nginx in front)."""

from __future__ import annotations

import re
import subprocess
from typing import Any

import pytest

from tools.cli.main import build_parser

from .helpers import COMPOSE, DEPLOY, NGINX_CONF, find_tool, load_one, missing

SERVERS = ("hearts1", "hearts2")


def compose() -> dict[str, Any]:
    return load_one(COMPOSE)


def compose_command() -> list[str]:
    """How to run Compose: the standalone v2 binary, else the docker plugin."""
    standalone = find_tool("docker-compose")
    if standalone is not None:
        return [standalone]
    docker = find_tool("docker")
    if docker is not None:
        probe = subprocess.run(
            [docker, "compose", "version"], capture_output=True, timeout=30, check=False
        )
        if probe.returncode == 0:
            return [docker, "compose"]
    missing("docker-compose")
    raise AssertionError("unreachable")


def test_docker_compose_config_accepts_it() -> None:
    result = subprocess.run(
        [*compose_command(), "-f", str(COMPOSE), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=DEPLOY,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_redis_7_keeps_an_append_only_file_on_a_volume() -> None:
    redis = compose()["services"]["redis"]
    assert re.fullmatch(r"redis:7[.\w-]*", redis["image"]), redis["image"]
    command = [str(word) for word in redis["command"]]
    assert command[0] == "redis-server"
    pairs = dict(zip(command[1::2], command[2::2], strict=True))
    assert pairs["--appendonly"] == "yes"
    assert pairs["--appendfsync"] == "everysec"
    # Full, it refuses writes; it never drops a key (a live table), and it
    # is full well before the container's memory limit (the AOF fork).
    assert pairs["--maxmemory-policy"] == "noeviction"
    maxmemory = int(pairs["--maxmemory"].removesuffix("mb"))
    assert 0 < maxmemory < int(str(redis["mem_limit"]).removesuffix("m"))
    volume = next(v for v in redis["volumes"] if v.endswith(":/data"))
    assert volume.split(":")[0] in compose()["volumes"], "a named volume, not the container"
    assert "ports" not in redis, "Redis is not published"


@pytest.mark.parametrize("name", SERVERS)
def test_servers_share_redis_and_are_hardened(name: str) -> None:
    service = compose()["services"][name]
    assert service["depends_on"]["redis"]["condition"] == "service_healthy"
    assert service["read_only"] is True
    assert "no-new-privileges:true" in service["security_opt"]
    assert service["cap_drop"] == ["ALL"]
    assert "ports" not in service, "only nginx is published"
    assert service["build"]["dockerfile"] == "deploy/Dockerfile"
    assert service["build"]["context"] == ".."
    args = ["serve", "--host", "0.0.0.0", *[str(word) for word in service["command"]]]
    parsed = build_parser().parse_args(args)  # every flag exists in `hearts serve`
    assert parsed.redis == "redis://redis:6379/0"
    assert any(
        "/readyz" in str(word) or "/healthz" in str(word) for word in service["healthcheck"]["test"]
    )


def test_nginx_fronts_both_servers_once_they_are_healthy() -> None:
    services = compose()["services"]
    nginx = services["nginx"]
    assert set(nginx["depends_on"]) == set(SERVERS)
    assert all(dep["condition"] == "service_healthy" for dep in nginx["depends_on"].values())
    mount = next(v for v in nginx["volumes"] if "hearts.conf" in v)
    source, target = mount.split(":")[:2]
    assert (DEPLOY / source).resolve() == NGINX_CONF
    assert target == "/etc/nginx/conf.d/default.conf"
    assert any(str(port).endswith(":80") for port in nginx["ports"])
    upstreams = re.findall(r"^\s*server\s+([\w.-]+):(\d+)", NGINX_CONF.read_text(), re.MULTILINE)
    assert sorted(upstreams) == [(name, "8765") for name in SERVERS]
    # nginx sits on both networks; the servers and Redis only on the internal one.
    assert compose()["networks"]["backend"]["internal"] is True
    assert services["redis"]["networks"] == ["backend"]
    for name in SERVERS:
        assert list(services[name]["networks"]) == ["backend"]


def test_the_servers_trust_nginx_alone_and_keep_their_addresses() -> None:
    """Each player's address is what nginx saw (X-Forwarded-For believed
    from nginx's fixed address only); the servers have fixed addresses of
    their own, so one recreated in a rolling update is where nginx looks,
    and nginx is not restarted (dropping everyone) when that happens."""
    import ipaddress

    services = compose()["services"]
    subnet = ipaddress.ip_network(compose()["networks"]["backend"]["ipam"]["config"][0]["subnet"])
    nginx_address = services["nginx"]["networks"]["backend"]["ipv4_address"]
    addresses = {nginx_address}
    for name in SERVERS:
        args = ["serve", *[str(word) for word in services[name]["command"]]]
        assert build_parser().parse_args(args).trusted_proxy == [nginx_address]
        address = services[name]["networks"]["backend"]["ipv4_address"]
        assert ipaddress.ip_address(address) in subnet
        addresses.add(address)
        assert "restart" not in services["nginx"]["depends_on"][name]
    assert len(addresses) == 1 + len(SERVERS)


def test_nginx_serves_the_acme_challenge_from_certbots_webroot() -> None:
    nginx = compose()["services"]["nginx"]
    (webroot,) = re.findall(
        r"location \^~ /\.well-known/acme-challenge/ \{\s*root (\S+);", NGINX_CONF.read_text()
    )
    mounts = [v.split(":") for v in nginx["volumes"]]
    assert any(target == webroot and mode == "ro" for _, target, mode in mounts), mounts
