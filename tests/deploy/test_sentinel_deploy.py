"""deploy/compose.sentinel.yaml and deploy/k8s-sentinel: Compose accepts the
file, the kustomization builds and every object it makes validates strictly,
and the pieces agree (the servers' sentinel URL names the sentinels and the
service they monitor; the single Redis of deploy/k8s is gone)."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
import yaml

from server.store.redis_target import parse_redis_url
from tools.cli.main import build_parser

from .helpers import DEPLOY, load_one, require_tool
from .test_compose import compose_command
from .test_k8s import KUBERNETES_VERSIONS, kubernetes_validate

COMPOSE = DEPLOY / "compose.sentinel.yaml"
K8S_SENTINEL = DEPLOY / "k8s-sentinel"


def built() -> list[dict[str, Any]]:
    """The objects ``kubectl kustomize deploy/k8s-sentinel`` makes."""
    result = subprocess.run(
        [require_tool("kubectl"), "kustomize", str(K8S_SENTINEL)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


def test_docker_compose_config_accepts_the_sentinel_file() -> None:
    result = subprocess.run(
        [*compose_command(), "-f", str(COMPOSE), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=DEPLOY,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_compose_servers_reach_the_master_through_three_sentinels() -> None:
    services = load_one(COMPOSE)["services"]
    sentinels = sorted(name for name in services if name.startswith("sentinel"))
    assert len(sentinels) == 3
    for name in ("hearts1", "hearts2"):
        command = [str(word) for word in services[name]["command"]]
        args = build_parser().parse_args(["serve", *command])  # every flag exists
        target = parse_redis_url(args.redis)
        assert target.topology == "sentinel" and target.service == "hearts"
        assert sorted(host for host, _ in target.nodes) == sentinels
        assert args.redis_replicas == 1
    script = "\n".join(services["sentinel1"]["command"])
    assert "sentinel monitor hearts" in script
    assert "--replicaof redis-a 6379" in services["redis-b"]["command"]


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_object_of_the_sentinel_kustomization_validates_strictly(version: str) -> None:
    utils = kubernetes_validate()
    errors = []
    for resource in built():
        name = f"{resource['kind']}/{resource['metadata']['name']}"
        try:
            utils.validate(resource, version, strict=True)
        except utils.ValidationError as error:
            errors.append(f"{name}: {'.'.join(map(str, error.path))}: {error.message}")
    assert not errors, "\n".join(errors)


def test_the_servers_use_the_sentinels_instead_of_one_redis() -> None:
    objects = {(o["kind"], o["metadata"]["name"]): o for o in built()}
    for gone in [("StatefulSet", "redis"), ("Service", "redis"), ("Service", "redis-headless")]:
        assert gone not in objects
    assert objects[("StatefulSet", "redis-node")]["spec"]["replicas"] == 2
    sentinels = objects[("StatefulSet", "redis-sentinel")]
    assert sentinels["spec"]["replicas"] == 3
    target = parse_redis_url(objects[("Secret", "hearts-redis")]["stringData"]["redis-url"])
    assert target.topology == "sentinel" and target.service == "hearts"
    assert [host for host, _ in target.nodes] == [
        f"redis-sentinel-{i}.redis-sentinel" for i in range(3)
    ]
    assert {port for _, port in target.nodes} == {26379}
    scripts = objects[("ConfigMap", "redis-sentinel")]["data"]
    assert "sentinel monitor hearts" in scripts["sentinel.sh"]
    for obj in objects.values():
        assert obj["metadata"].get("namespace", "hearts") == "hearts"
