"""docs/deploy.md: says how to run each setup, names only files that exist, and
keeps the sections operators look for."""

from __future__ import annotations

import re

from .helpers import DOCS, REPO


def docs() -> str:
    return DOCS.read_text(encoding="utf-8")


def test_every_deploy_path_it_names_exists() -> None:
    paths = set(re.findall(r"`(deploy/[\w./-]+)`", docs()))
    assert "deploy/Dockerfile" in paths
    # Files the TLS steps ask the reader to create are not in the repo.
    # certbot's webroot is made by Docker (the bind mount) or certbot.
    expected_absent = {
        "deploy/certs/fullchain.pem",
        "deploy/certs/privkey.pem",
        "deploy/certbot",
    }
    for path in sorted(paths - expected_absent):
        assert (REPO / path).exists(), f"docs/deploy.md names {path}, which does not exist"


def test_how_to_run_each_setup() -> None:
    text = docs()
    assert "docker build -f deploy/Dockerfile" in text
    assert "docker compose -f deploy/compose.yaml up" in text
    assert "kubectl apply -k deploy/k8s" in text


def test_sections_operators_look_for() -> None:
    headings = set(re.findall(r"^#+ (.+)$", docs(), re.MULTILINE))
    for heading in (
        "Scaling: any replica accepts any client",
        "Redis: AOF and restarts",
        "TLS",
        "Exposed metrics",
        "Logs",
        "Sizing",
        "Security",
        "Budgets and caps",
        "A VM with systemd",
        "Rolling update (Compose)",
    ):
        assert heading in headings, heading


def test_metrics_and_logs_are_described() -> None:
    text = docs()
    section = text[text.index("### Exposed metrics") : text.index("### Logs")]
    assert "/metrics" in section
    # Every metric the server really exposes is documented by its name.
    from server.metrics import Metrics

    exposed = {
        line.split()[2]
        for line in Metrics().render().decode().splitlines()
        if line.startswith("# TYPE") and not line.split()[2].endswith("_created")
    }
    assert "hearts_tables_owned" in exposed
    for metric in sorted(exposed):
        name = metric.removesuffix("_total")
        assert f"`{name}" in section, metric
    assert "--log-format json" in text
