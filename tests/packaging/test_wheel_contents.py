"""What ``python -m build`` puts in the sdist and the wheel: the whole
browser client (with the vendored msgpack modules and their licence), the
terminal client's stylesheet, the ``hearts`` command (``tools``, without
its maintenance scripts), the version from pyproject.toml, and
dependencies split into extras (the server alone pulls no Textual)."""

from __future__ import annotations

import re
import tarfile
import zipfile
from email.parser import Parser

from .conftest import REPO, Dist, project_version

WEB = REPO / "client" / "web"


def repo_web_files() -> set[str]:
    """client/web's files in this checkout, as paths inside the packages."""
    return {
        "client/web/" + path.relative_to(WEB).as_posix()
        for path in WEB.rglob("*")
        if path.is_file()
    }


def test_wheel_holds_the_browser_client_and_the_msgpack_modules(dist: Dist) -> None:
    with zipfile.ZipFile(dist.wheel) as wheel:
        names = set(wheel.namelist())
        licence = wheel.read("client/web/vendor/msgpack/LICENSE").decode()
    web = {name for name in names if name.startswith("client/web/")}
    assert web == repo_web_files()
    for needed in (
        "client/web/index.html",
        "client/web/js/net.js",
        "client/web/vendor/msgpack/index.mjs",
        "client/web/vendor/msgpack/utils/utf8.mjs",
        "client/web/vendor/msgpack/package.json",
        "client/tui/hearts.tcss",
        "server/http.py",
        "server/version.py",
        "tools/cli/main.py",
        "tools/bench/server.py",
        "tools/arena/hands.py",
    ):
        assert needed in names, needed
    assert "MessagePack" in licence
    # Only the product: no tests, no maintenance scripts, no npm tree.
    assert not [n for n in names if n.startswith(("tests/", "tools/maintenance/", "node_modules/"))]
    # The command the wheel installs is the one in this checkout.
    (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    with zipfile.ZipFile(dist.wheel) as wheel:
        assert "hearts = tools.cli.main:main" in wheel.read(entry_points).decode()


def test_sdist_holds_what_the_wheel_is_built_from(dist: Dist) -> None:
    prefix = f"hearts_online-{project_version()}/"
    with tarfile.open(dist.sdist) as sdist:
        names = {name.removeprefix(prefix) for name in sdist.getnames()}
    assert repo_web_files() <= names
    assert {"pyproject.toml", "README.md", "client/tui/hearts.tcss"} <= names
    assert not [n for n in names if n.startswith("node_modules/")]


def test_version_and_extras_in_the_metadata(dist: Dist) -> None:
    with zipfile.ZipFile(dist.wheel) as wheel:
        (path,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        meta = Parser().parsestr(wheel.read(path).decode())
    assert meta["Name"] == "hearts-online"
    assert meta["Version"] == project_version()
    assert dist.wheel.name == f"hearts_online-{project_version()}-py3-none-any.whl"
    assert {"tui", "openspiel", "test"} <= set(meta.get_all("Provides-Extra") or [])
    requires = meta.get_all("Requires-Dist") or []
    # The name before any version bound (``websockets<18,>=17``: one major version).
    core = {re.split(r"[<>=!~ ;]", r)[0] for r in requires if "extra ==" not in r}
    assert core == {
        "websockets",
        "msgpack",
        "orjson",
        "pydantic",
        "redis",
        "hiredis",
        "prometheus-client",
    }
    textual = [r for r in requires if r.startswith("textual")]
    assert textual and all('extra == "tui"' in r for r in textual)
    spiel = [r for r in requires if r.startswith("open_spiel") or r.startswith("open-spiel")]
    assert spiel and all('extra == "openspiel"' in r for r in spiel)
    assert any(r.startswith("playwright") and 'extra == "test"' in r for r in requires)
