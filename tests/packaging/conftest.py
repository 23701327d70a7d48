"""Fixtures of the packaging tests: the sdist and wheel that ``python -m
build`` makes from this checkout, a fresh virtualenv with only the wheel
installed (plain pip from the configured index, no source tree on the path),
and that install's ``hearts serve`` running on a free port.

Everything the virtualenv runs starts in a scratch folder with no
``PYTHONPATH``, so it imports the installed copy, never this checkout.

Under pytest-xdist the build and the virtualenvs are made once per run, by
whichever worker needs them first, and the others reuse them (``made_once``);
each worker keeps a scratch folder of its own.
"""

from __future__ import annotations

import fcntl
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT = 300.0
INSTALL_TIMEOUT = 300.0
START_TIMEOUT = 60.0
NOT_SOURCES = (
    ".git",
    ".venv",
    "node_modules",
    "*.egg-info",
    "build",
    "dist",
    "__pycache__",
    "*.pyc",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "test-artifacts",
)
"""Names .gitignore leaves out of the repository, left out of the build's copy."""
SERVING = re.compile(r"serving (http://[^/\s]+:(\d+))/ ")


def project_version() -> str:
    """The version written in pyproject.toml."""
    with (REPO / "pyproject.toml").open("rb") as file:
        version: str = tomllib.load(file)["project"]["version"]
    return version


def run(
    args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 120.0
) -> subprocess.CompletedProcess[str]:
    """Run a program to its end; output captured as text."""
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def made_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder ``make(folder)`` fills, made once per test run. Alone, it is
    a fresh temporary folder. Under pytest-xdist, the workers share their
    run's temporary root: the first worker to take the lock makes the folder,
    the others wait for it and reuse it (one that failed is made again)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        folder = factory.mktemp(name)
        make(folder)
        return folder
    root = factory.getbasetemp().parent
    folder = root / name
    with (root / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        done = root / f"{name}.done"
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@dataclass(frozen=True)
class Dist:
    """What ``python -m build`` made."""

    sdist: Path
    wheel: Path


def build(folder: Path) -> None:
    """The sdist and the wheel in ``folder/out``, built from a copy of this
    checkout in ``folder/source``."""
    source = folder / "source" / "hearts-online"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*NOT_SOURCES))
    out = folder / "out"
    out.mkdir()
    built = run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(source)],
        cwd=out,
        timeout=BUILD_TIMEOUT,
    )
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    """The sdist, and the wheel built from it (``python -m build``'s default),
    from a copy of this checkout without what .gitignore leaves out: a stale
    ``*.egg-info`` left by an earlier build would otherwise add the files it
    lists to the sdist, and hide a file the configuration no longer ships."""
    out = made_once(tmp_path_factory, "dist", build) / "out"
    (sdist,) = out.glob("hearts_online-*.tar.gz")
    (wheel,) = out.glob("hearts_online-*-py3-none-any.whl")
    return Dist(sdist, wheel)


@dataclass(frozen=True)
class Venv:
    """A virtualenv with the wheel installed, and a scratch folder to run in."""

    root: Path
    home: Path

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    def env(self) -> dict[str, str]:
        """This process's environment without anything that would put this
        checkout or its virtualenv on the path; HOME is the scratch folder
        (the clients keep settings and sessions under it, the server its
        SQLite file)."""
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
        }
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        env["HOME"] = str(self.home)
        env["XDG_CONFIG_HOME"] = str(self.home / ".config")
        env["XDG_DATA_HOME"] = str(self.home / ".local" / "share")
        return env

    def run(self, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
        """Run one of the virtualenv's programs (``hearts``, ``python``) in the scratch folder."""
        return run([str(self.bin / args[0]), *args[1:]], self.home, self.env(), timeout)

    def pip_install(self, requirement: str) -> None:
        """``pip install REQUIREMENT`` into this virtualenv: this test run's
        pip (same version and configured index), pointed at the virtualenv's
        Python, which saves seeding each virtualenv with a pip of its own."""
        args = [sys.executable, "-m", "pip", "--python", str(self.bin / "python"), "install"]
        done = run([*args, "--no-compile", requirement], self.home, self.env(), INSTALL_TIMEOUT)
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]


def make_venv(factory: pytest.TempPathFactory, name: str, requirement: str) -> Venv:
    """A virtualenv (``python -m venv``) with ``requirement`` installed, and
    nothing else (not even pip), made once per run (``made_once``); the
    scratch folder is this worker's own."""

    def make(base: Path) -> None:
        made = run(
            [sys.executable, "-m", "venv", "--without-pip", str(base / "env")],
            cwd=base,
            timeout=120,
        )
        assert made.returncode == 0, made.stderr
        Venv(base / "env", base).pip_install(requirement)

    env = made_once(factory, name, make) / "env"
    return Venv(env, factory.mktemp(f"{name}-home"))


@pytest.fixture(scope="session")
def venv(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """The wheel alone, no extras: what an operator installs to serve."""
    return make_venv(tmp_path_factory, "venv", str(dist.wheel))


@pytest.fixture(scope="session")
def tui_venv(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """The wheel with the ``tui`` extra: what a player installs."""
    return make_venv(tmp_path_factory, "tui-venv", f"{dist.wheel}[tui]")


@dataclass
class ServeProcess:
    """``hearts serve`` of the virtualenv, with every line it printed."""

    proc: subprocess.Popen[str]
    url: str
    port: int
    lines: list[str] = field(default_factory=list)

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def output(self) -> str:
        return "\n".join(self.lines)


def start_serve(venv: Venv) -> ServeProcess:
    """Start the installed ``hearts serve`` on a port it binds itself
    (``--port 0``) and wait (bounded) for the line it prints once it
    listens, which says that port."""
    proc = subprocess.Popen(
        [str(venv.bin / "hearts"), "serve", "--port", "0", "--bot-workers", "1"],
        cwd=venv.home,
        env=venv.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    serving = ServeProcess(proc, "", 0)
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            serving.lines.append(line.rstrip("\n"))
            lines.put(line)
        lines.put(None)  # the process closed its output

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            proc.kill()
            pytest.fail(f"hearts serve did not start in {START_TIMEOUT} s:\n{serving.output()}")
        if line is None:
            proc.wait(timeout=10)
            pytest.fail(f"hearts serve exited ({proc.returncode}):\n{serving.output()}")
        found = SERVING.search(line)
        if found:
            serving.url = found.group(1)
            serving.port = int(found.group(2))
            return serving


@pytest.fixture(scope="session")
def installed_server(venv: Venv) -> Iterator[ServeProcess]:
    """The installed ``hearts serve`` (its default store: a SQLite file under
    the scratch HOME); stopped with SIGTERM, which must end it cleanly (exit
    status 0)."""
    serving = start_serve(venv)
    # The installed package's default store works: its file is where it said.
    data = venv.home / ".local" / "share" / "hearts" / "hearts.sqlite3"
    assert f"tables in SQLite {data}" in serving.output(), serving.output()
    assert data.is_file()
    yield serving
    serving.proc.send_signal(signal.SIGTERM)
    try:
        status = serving.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        serving.proc.kill()
        serving.proc.wait(timeout=10)
        pytest.fail(f"hearts serve did not stop on SIGTERM:\n{serving.output()}")
    assert status == 0, serving.output()
    assert "Traceback" not in serving.output(), serving.output()
