"""server.version: the install metadata's version, pyproject.toml's in a bare
source tree, and ``hearts --version``."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import server.version
from server.version import UNKNOWN, package_version
from tools.cli.main import main

REPO = Path(__file__).resolve().parents[2]


def pyproject_version() -> str:
    with (REPO / "pyproject.toml").open("rb") as file:
        found: str = tomllib.load(file)["project"]["version"]
    return found


def test_installed_metadata_has_pyprojects_version() -> None:
    assert package_version() == pyproject_version() != UNKNOWN


def test_source_tree_without_metadata_reads_pyproject(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.version, "DISTRIBUTION", "hearts-online-never-installed")
    assert package_version() == pyproject_version()


def test_unknown_when_nothing_tells(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(server.version, "DISTRIBUTION", "hearts-online-never-installed")
    monkeypatch.setattr(server.version, "PYPROJECT", tmp_path / "missing.toml")
    assert package_version() == UNKNOWN
    (tmp_path / "broken.toml").write_text("[project\n", encoding="utf-8")
    monkeypatch.setattr(server.version, "PYPROJECT", tmp_path / "broken.toml")
    assert package_version() == UNKNOWN


def test_hearts_version_prints_the_package_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"hearts-online {pyproject_version()}"
