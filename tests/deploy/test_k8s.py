"""deploy/k8s: every manifest validates (strictly) against the Kubernetes
schemas that kubernetes-validate ships (offline), the kustomization lists them
all, and the objects fit together (labels, ports, probes, the Redis URL, the
non-root security context)."""

from __future__ import annotations

import re
import subprocess
from types import ModuleType
from typing import Any

import pytest
import yaml

from tools.cli.main import build_parser

from .helpers import K8S, k8s_object, k8s_resources, load_docs, load_one, missing, require_tool

# The oldest and the newest Kubernetes the manifests are checked against.
KUBERNETES_VERSIONS = ("1.25.0", "1.37.0")


def kubernetes_validate() -> ModuleType:
    try:
        import kubernetes_validate.utils as utils
    except ImportError:
        missing("kubernetes-validate")
        raise
    return utils


def kustomization() -> dict[str, Any]:
    return load_one(K8S / "kustomization.yaml")


def pod_spec() -> dict[str, Any]:
    spec: dict[str, Any] = k8s_object("Deployment", "hearts")["spec"]["template"]["spec"]
    return spec


def hearts_container() -> dict[str, Any]:
    (container,) = pod_spec()["containers"]
    return dict(container)


def resource_names() -> list[str]:
    return [f"{r['kind']}/{r['metadata']['name']}" for r in k8s_resources()]


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_manifest_validates_strictly(version: str) -> None:
    utils = kubernetes_validate()
    errors = []
    for resource in k8s_resources():
        name = f"{resource['kind']}/{resource['metadata']['name']}"
        try:
            utils.validate(resource, version, strict=True)
        except utils.ValidationError as error:
            path = ".".join(str(p) for p in error.path)
            errors.append(f"{name}: {path}: {error.message}")
        except utils.SchemaNotFoundError as error:
            errors.append(f"{name}: {error.message}")
    assert not errors, "\n".join(errors)


def test_the_validator_does_reject_a_misspelt_field() -> None:
    utils = kubernetes_validate()
    deployment = k8s_object("Deployment", "hearts")
    broken = yaml.safe_load(yaml.safe_dump(deployment))
    broken["spec"]["template"]["spec"]["containers"][0]["readinessprobe"] = {}
    with pytest.raises(utils.ValidationError):
        utils.validate(broken, KUBERNETES_VERSIONS[-1], strict=True)


def test_kustomization_lists_every_manifest_once() -> None:
    listed = kustomization()["resources"]
    assert len(listed) == len(set(listed))
    on_disk = sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")
    assert sorted(listed) == on_disk
    names = resource_names()
    assert len(names) == len(set(names)), "duplicate objects"


def test_one_namespace_set_by_kustomize() -> None:
    namespace = kustomization()["namespace"]
    assert k8s_object("Namespace", namespace)
    for resource in k8s_resources():
        assert resource["metadata"].get("namespace") in (None, namespace)


def test_kustomize_builds_the_manifests() -> None:
    kubectl = require_tool("kubectl")
    result = subprocess.run(
        [kubectl, "kustomize", str(K8S)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    built = [doc for doc in yaml.safe_load_all(result.stdout) if doc]
    assert sorted(f"{r['kind']}/{r['metadata']['name']}" for r in built) == sorted(resource_names())
    namespace = kustomization()["namespace"]
    assert all(
        r["metadata"].get("namespace") == namespace for r in built if r["kind"] != "Namespace"
    )
    (deployment,) = [r for r in built if r["kind"] == "Deployment"]
    image = kustomization()["images"][0]
    assert deployment["spec"]["template"]["spec"]["containers"][0]["image"] == (
        f"{image['newName']}:{image['newTag']}"
    )


def test_deployment_runs_two_non_root_read_only_replicas() -> None:
    deployment = k8s_object("Deployment", "hearts")
    assert deployment["spec"]["replicas"] == 2
    pod = pod_spec()["securityContext"]
    assert pod["runAsNonRoot"] is True
    assert pod["runAsUser"] > 0 and pod["runAsGroup"] > 0
    assert pod["seccompProfile"]["type"] == "RuntimeDefault"
    container = hearts_container()["securityContext"]
    assert container["readOnlyRootFilesystem"] is True
    assert container["allowPrivilegeEscalation"] is False
    assert container["capabilities"]["drop"] == ["ALL"]
    assert pod_spec()["automountServiceAccountToken"] is False
    resources = hearts_container()["resources"]
    assert {"cpu", "memory"} <= set(resources["requests"])
    assert "memory" in resources["limits"]


def test_probes_use_healthz_and_readyz_on_the_server_port() -> None:
    container = hearts_container()
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"http": 8765}
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["startupProbe"]["httpGet"]["path"] == "/healthz"
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert container[probe]["httpGet"]["port"] in ports
    annotations = k8s_object("Deployment", "hearts")["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(ports["http"])
    assert annotations["prometheus.io/path"] == "/metrics"


def test_args_are_real_serve_flags_and_point_at_the_redis_service() -> None:
    container = hearts_container()
    # No secret in the environment or on the command line: the Redis URL
    # is the Secret's file, mounted where --redis-url-file reads it.
    assert "env" not in container
    parsed = build_parser().parse_args(["serve", "--host", "0.0.0.0", *container["args"]])
    assert parsed.port == 8765 and parsed.redis is None
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in pod_spec()["volumes"]}
    (name,) = [n for n, path in mounts.items() if parsed.redis_url_file.startswith(path + "/")]
    secret = k8s_object("Secret", volumes[name]["secret"]["secretName"])
    redis_url = secret["stringData"][parsed.redis_url_file.rsplit("/", 1)[1]]
    match = re.fullmatch(r"redis://([\w.-]+):(\d+)/\d+", redis_url)
    assert match, redis_url
    service = k8s_object("Service", match.group(1))
    assert int(match.group(2)) in [p["port"] for p in service["spec"]["ports"]]
    assert service["spec"]["selector"] == {"app.kubernetes.io/name": "redis"}
    image = kustomization()["images"][0]["name"]
    assert container["image"].split(":")[0] == image


def test_service_pdb_and_ingress_reach_the_pods() -> None:
    pod_labels = k8s_object("Deployment", "hearts")["spec"]["template"]["metadata"]["labels"]
    service = k8s_object("Service", "hearts")
    assert service["spec"]["selector"].items() <= pod_labels.items()
    assert service["spec"].get("sessionAffinity", "None") == "None", "no stickiness needed"
    port_names = {p["name"] for p in hearts_container()["ports"]}
    assert {p["targetPort"] for p in service["spec"]["ports"]} <= port_names
    pdb = k8s_object("PodDisruptionBudget", "hearts")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    assert 0 < pdb["spec"]["minAvailable"] < k8s_object("Deployment", "hearts")["spec"]["replicas"]
    ingress = k8s_object("Ingress", "hearts")
    annotations = ingress["metadata"]["annotations"]
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 600
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-send-timeout"]) >= 600
    assert ingress["spec"]["ingressClassName"] == "nginx"
    (rule,) = ingress["spec"]["rules"]
    paths = {p["path"]: p for p in rule["http"]["paths"]}
    path = paths["/"]
    assert path["pathType"] == "Prefix"
    backend = path["backend"]["service"]
    assert backend["name"] == "hearts"
    assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}


def test_metrics_are_denied_at_the_edge_whatever_the_ingress_controller() -> None:
    """/metrics (Exact, which beats the Prefix / on every controller) goes
    to a Service with no selector and no endpoints: no pod can answer it,
    and no controller-specific annotation is needed for that."""
    ingresses = [r for r in k8s_resources() if r["kind"] == "Ingress"]
    routes = [
        (path, ingress)
        for ingress in ingresses
        for rule in ingress["spec"]["rules"]
        for path in rule["http"]["paths"]
        if path["path"].startswith("/metrics") or path["path"] == "/"
    ]
    metrics = [path for path, _ in routes if path["path"] == "/metrics"]
    assert len(metrics) == 1
    (deny,) = metrics
    assert deny["pathType"] == "Exact"
    name = deny["backend"]["service"]["name"]
    service = k8s_object("Service", name)
    assert "selector" not in service["spec"], "a selector would find the pods"
    assert deny["backend"]["service"]["port"]["name"] in {
        p["name"] for p in service["spec"]["ports"]
    }
    for kind in ("Endpoints", "EndpointSlice"):
        assert not [r for r in k8s_resources() if r["kind"] == kind], f"{kind} would route it"
    # Every route that reaches the pods is the Prefix / of the same host.
    for path, ingress in routes:
        if path is not deny:
            assert path["backend"]["service"]["name"] == "hearts"
            assert (
                ingress["spec"]["rules"][0]["host"]
                == (k8s_object("Ingress", "hearts")["spec"]["rules"][0]["host"])
            )


def test_the_servers_trust_the_ingress_controller_for_client_addresses() -> None:
    """Behind the Ingress every peer of a pod is in the cluster: the server
    believes X-Forwarded-For from the private ranges pod networks use, so
    each player's own address counts (one flag per range, all valid)."""
    import ipaddress

    args = [str(a) for a in hearts_container()["args"]]
    parsed = build_parser().parse_args(["serve", "--host", "0.0.0.0", *args])
    networks = [ipaddress.ip_network(spec) for spec in parsed.trusted_proxy]
    for pod_cidr in ("10.244.0.0/16", "10.42.0.0/16", "172.20.0.0/16", "192.168.0.0/16"):
        assert any(ipaddress.ip_network(pod_cidr).subnet_of(n) for n in networks if n.version == 4)
    assert all(network.is_private for network in networks)


def test_redis_keeps_an_append_only_file_on_a_volume_claim() -> None:
    redis = k8s_object("StatefulSet", "redis")
    (container,) = redis["spec"]["template"]["spec"]["containers"]
    assert re.fullmatch(r"redis:7[.\w-]*", container["image"]), container["image"]
    args = [str(a) for a in container["args"]]
    assert args[0] == "redis-server"
    pairs = dict(zip(args[1::2], args[2::2], strict=True))
    assert pairs["--appendonly"] == "yes"
    assert pairs["--appendfsync"] == "everysec"
    # Full, it refuses writes; it never drops a key (a live table).
    assert pairs["--maxmemory-policy"] == "noeviction"
    maxmemory = int(pairs["--maxmemory"].removesuffix("mb"))
    limit = int(container["resources"]["limits"]["memory"].removesuffix("Mi"))
    assert 0 < maxmemory < limit, "room under the limit for the AOF rewrite's fork"
    (claim,) = redis["spec"]["volumeClaimTemplates"]
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts[claim["metadata"]["name"]] == pairs["--dir"] == "/data"
    headless = k8s_object("Service", redis["spec"]["serviceName"])
    assert headless["spec"]["clusterIP"] == "None"
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert redis["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True


def test_only_the_servers_may_reach_redis() -> None:
    policy = k8s_object("NetworkPolicy", "redis")
    assert policy["spec"]["podSelector"]["matchLabels"] == {"app.kubernetes.io/name": "redis"}
    (rule,) = policy["spec"]["ingress"]
    (source,) = rule["from"]
    pod_labels = k8s_object("Deployment", "hearts")["spec"]["template"]["metadata"]["labels"]
    assert source["podSelector"]["matchLabels"].items() <= pod_labels.items()


def test_every_yaml_file_in_deploy_parses() -> None:
    for path in sorted((K8S.parent).rglob("*.yaml")):
        assert load_docs(path), f"{path} is empty"
