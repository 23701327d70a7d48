"""deploy/Dockerfile: hadolint, and the properties the image promises (slim
multi-stage, the wheel built in one stage and only it installed in the
runtime, no Node, non-root with a fixed UID, health check without curl).
There is no Docker engine here: these read the file; tests/packaging builds
and installs the same wheel for real."""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
import tomllib
from dataclasses import dataclass

import server.http

from .helpers import DOCKERFILE, DOCKERIGNORE, REPO, k8s_object, require_tool


@dataclass(frozen=True)
class Instruction:
    """One Dockerfile instruction, continuation lines joined."""

    keyword: str
    args: str
    stage: int  # index of the FROM it follows


def instructions() -> list[Instruction]:
    """The Dockerfile's instructions, comments dropped, ``\\`` lines joined."""
    found: list[Instruction] = []
    stage = -1
    pending = ""
    for raw in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        keyword, _, args = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            stage += 1
        found.append(Instruction(keyword, args.strip(), stage))
    assert not pending, "the Dockerfile ends inside a continued line"
    return found


def of(keyword: str, stage: int | None = None) -> list[Instruction]:
    """The instructions with that keyword (in that stage)."""
    return [
        i for i in instructions() if i.keyword == keyword and (stage is None or i.stage == stage)
    ]


def build_args() -> dict[str, str]:
    """Default values of the global ARGs (those before the first FROM)."""
    values: dict[str, str] = {}
    for i in instructions():
        if i.keyword == "ARG" and i.stage == -1 and "=" in i.args:
            name, _, value = i.args.partition("=")
            values[name] = value
    return values


def stage_bases() -> list[tuple[str, str]]:
    """(base image, stage name) of each FROM, global ARGs substituted."""
    args = build_args()
    bases = []
    for i in of("FROM"):
        words = i.args.split()
        image = re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], words[0])
        name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else ""
        bases.append((image, name))
    return bases


def last_stage() -> int:
    return len(of("FROM")) - 1


def test_hadolint_passes() -> None:
    hadolint = require_tool("hadolint")
    result = subprocess.run(
        [hadolint, "--no-color", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_multi_stage_on_python_3_11_slim() -> None:
    bases = stage_bases()
    assert len(bases) >= 2, "build and runtime stages"
    runtime_image, _ = bases[-1]
    assert runtime_image.startswith("python:3.11-slim"), runtime_image
    build_images = {image for image, _ in bases[:-1]}
    assert runtime_image in build_images, "the venv is built on the runtime's own Python"
    assert all(":" in image and not image.endswith(":latest") for image, _ in bases)


def test_build_stage_makes_the_wheel_without_node() -> None:
    runs = " ".join(i.args for i in of("RUN") if i.stage < last_stage())
    assert re.search(r"python -m build --wheel\b.*\s\.(\s|$)", runs), "builds the project's wheel"
    assert re.search(r"pip install\b.*\bbuild==\d", runs), "the build tool is pinned"
    # The wheel carries the browser client (msgpack vendored): no npm stage any more.
    assert not [image for image, _ in stage_bases() if image.startswith("node")]
    assert not [i for i in instructions() if re.search(r"\b(npm|node_modules)\b", i.args)]


def test_runtime_installs_only_the_wheel() -> None:
    """One pip install in the runtime: the wheel mounted from the build stage,
    no extras (no Textual, no test tools), no source tree, no editable install."""
    installs = [i.args for i in of("RUN", last_stage()) if "pip install" in i.args]
    assert len(installs) == 1, installs
    (install,) = installs
    assert re.search(r"--mount=type=bind,from=build\b", install)
    (target,) = re.findall(r"pip install [^&]*?(\S+\.whl)\b", install)
    assert target.startswith("/dist/hearts_online-"), target
    assert "[" not in install.split("pip install", 1)[1].split("&&")[0], "no extras"
    assert not re.search(r"pip install[^&]*\s(-e|\.)(\s|$)", install)
    assert "--no-cache-dir" in install


def test_runtime_checks_the_installed_browser_client() -> None:
    """The runtime's install step asks the installed server.http (python -I)
    whether its required files are there; the names it uses must exist."""
    (install,) = [i.args for i in of("RUN", last_stage()) if "pip install" in i.args]
    assert "python -I" in install, "must import the installed package"
    assert "hearts --version" in install
    names = set(re.findall(r"\bh\.([A-Z_]+)\b", install))
    assert {"WEB_ROOT", "REQUIRED_FILES"} <= names
    for name in names:
        assert hasattr(server.http, name), f"server/http.py no longer defines {name}"
    assert "/vendor/msgpack/index.mjs" in server.http.REQUIRED_FILES
    for path in server.http.REQUIRED_FILES:
        assert (server.http.WEB_ROOT / path.lstrip("/")).is_file(), path
    # In the repo the server serves client/web, the folder the wheel carries.
    assert server.http.WEB_ROOT == REPO / "client" / "web"


def test_runtime_takes_nothing_from_the_build_context() -> None:
    """No COPY of sources into the runtime; what it takes comes from the build stage."""
    copies = of("COPY", last_stage())
    assert all(c.args.startswith("--from=") for c in copies), copies
    mounts = re.findall(r"--mount=(\S+)", " ".join(i.args for i in of("RUN", last_stage())))
    assert mounts and all("from=build" in m for m in mounts), mounts


def test_runs_as_a_fixed_non_root_uid_matching_kubernetes() -> None:
    users = of("USER", last_stage())
    assert len(users) == 1
    uid_arg = next(i.args for i in of("ARG", last_stage()) if i.args.startswith("HEARTS_UID="))
    uid = int(uid_arg.partition("=")[2])
    assert uid >= 1000
    user = users[0].args.replace("${HEARTS_UID}", str(uid))
    assert user == f"{uid}:{uid}", "numeric, so runAsNonRoot can check it"
    pod = k8s_object("Deployment", "hearts")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsUser"] == uid


def test_healthcheck_uses_python_on_healthz() -> None:
    (check,) = of("HEALTHCHECK", last_stage())
    assert "CMD" in check.args
    command = json.loads(check.args[check.args.index("CMD") + 3 :].strip())
    assert command[0] == "python", "the slim image has no curl"
    assert "/healthz" in command[-1]
    assert ":8765/" in command[-1]


def test_exposes_8765_and_serves_on_all_interfaces() -> None:
    assert [i.args for i in of("EXPOSE", last_stage())] == ["8765"]
    (entrypoint,) = of("ENTRYPOINT", last_stage())
    assert json.loads(entrypoint.args) == ["hearts", "serve", "--host", "0.0.0.0"]


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether .dockerignore-style ``patterns`` (last match wins) leave out ``path``."""
    verdict = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        pat = pattern.lstrip("!").rstrip("/")
        if fnmatch.fnmatch(path, pat) or fnmatch.fnmatch(path, pat + "/*"):
            verdict = not negate
    return verdict


def test_dockerignore_sends_what_the_build_copies_and_nothing_private() -> None:
    patterns = [
        line.strip()
        for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    sources: list[str] = []
    for copy in of("COPY"):
        if copy.args.startswith("--from="):
            continue
        words = json.loads(copy.args) if copy.args.startswith("[") else copy.args.split()
        sources.extend(w.rstrip("/") for w in words[:-1])
    assert sources
    for source in sources:
        assert (REPO / source).exists(), f"COPY {source}: not in the repo"
        assert not ignored(source, patterns), f"COPY {source} is excluded by {DOCKERIGNORE.name}"
        assert not ignored(f"{source}/x.py", patterns) or not (REPO / source).is_dir()
    # The wheel's package data is sent too (the browser client, its vendored codec).
    for shipped in ("client/web/index.html", "client/web/vendor/msgpack/index.mjs"):
        assert not ignored(shipped, patterns), shipped
    for private in (".git/config", ".venv/bin/python", "node_modules/x/y.js", ".env", "tests/x.py"):
        assert ignored(private, patterns), f"{private} would be sent to the builder"


def wheel_packages() -> list[str]:
    """The top-level packages pyproject.toml puts in the wheel (its
    ``packages.find`` include patterns, ``common*`` → ``common``)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    include = project["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted({pattern.rstrip("*").rstrip(".") for pattern in include})


def test_the_build_stage_copies_every_package_the_wheel_holds() -> None:
    """The wheel is built from what the build stage copies: a package left
    out of the COPY lines (or of the context's allowlist) is silently
    missing from the image, whose server then fails on its first import."""
    build_copies = [c.args for c in of("COPY") if c.stage < last_stage()]
    sources = {w.rstrip("/") for args in build_copies for w in args.split()[:-1]}
    patterns = [
        line.strip()
        for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    packages = wheel_packages()
    assert "server" in packages and "common" in packages
    for package in packages:
        assert package in sources, f"the build stage does not COPY {package}/"
        assert not ignored(f"{package}/__init__.py", patterns), (
            f"{DOCKERIGNORE.name} keeps {package}/ out of the build context"
        )


def test_the_embedded_store_has_a_volume_its_user_owns() -> None:
    """Without --redis the server keeps SQLite under $XDG_DATA_HOME/hearts: the
    image points that at the volume /data, created for the server's user."""
    runtime = last_stage()
    assert any(i.args.strip() in ('["/data"]', "/data") for i in of("VOLUME", runtime))
    env = " ".join(i.args for i in of("ENV", runtime))
    assert re.search(r"\bXDG_DATA_HOME=/data\b", env)
    runs = " ".join(i.args for i in of("RUN", runtime))
    assert re.search(r'install -d -o "\$\{HEARTS_UID\}" -g "\$\{HEARTS_UID\}"[^&]*/data', runs)


LOCK = REPO / "deploy" / "requirements.lock"


def locked() -> dict[str, tuple[str, list[str]]]:
    """The lock's pins: normalised name -> (version, sha256 hashes)."""
    text = LOCK.read_text(encoding="utf-8").replace("\\\n", " ")
    pins: dict[str, tuple[str, list[str]]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)((?:\s+--hash=sha256:[0-9a-f]{64})+)", line)
        assert match, f"not an exact pin with hashes: {line}"
        name = re.sub(r"[-_.]+", "-", match.group(1)).lower()
        pins[name] = (match.group(2), re.findall(r"sha256:([0-9a-f]{64})", match.group(3)))
    return pins


def test_the_runtime_installs_the_locked_dependencies_by_hash_then_the_wheel_alone() -> None:
    (install,) = [i.args for i in of("RUN", last_stage()) if "pip install" in i.args]
    steps = [step.strip() for step in install.split("&&")]
    lock_step = next(s for s in steps if "-r /dist/requirements.lock" in s)
    assert "--require-hashes" in lock_step and "--no-cache-dir" in lock_step
    wheel_step = next(s for s in steps if ".whl" in s)
    assert "--no-deps" in wheel_step, "every dependency comes from the lock"
    assert steps.index(lock_step) < steps.index(wheel_step)
    assert "/opt/hearts/bin/pip check" in steps
    copies = [c.args for c in of("COPY") if c.stage < last_stage()]
    assert "deploy/requirements.lock /dist/requirements.lock" in copies


def test_the_lock_pins_every_runtime_dependency_and_theirs_with_hashes() -> None:
    """Exact versions with sha256 hashes, for every dependency pyproject.toml
    names (within its bounds) and every dependency of theirs, so pip's
    --require-hashes finds nothing missing."""
    from importlib.metadata import PackageNotFoundError, requires

    from packaging.requirements import Requirement

    pins = locked()
    assert all(hashes for _, hashes in pins.values())
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [Requirement(spec) for spec in project["project"]["dependencies"]]
    for requirement in wanted:
        name = re.sub(r"[-_.]+", "-", requirement.name).lower()
        assert name in pins, f"{name} is not in {LOCK.name}"
        assert requirement.specifier.contains(pins[name][0]), (name, pins[name][0])
    environment = {"python_version": "3.11", "sys_platform": "linux", "extra": ""}
    for name in pins:
        try:
            theirs = requires(name) or []
        except PackageNotFoundError:
            continue  # not installed here: pip-compile resolved it
        for spec in theirs:
            requirement = Requirement(spec)
            if requirement.marker is not None and not requirement.marker.evaluate(environment):
                continue
            dependency = re.sub(r"[-_.]+", "-", requirement.name).lower()
            assert dependency in pins, f"{name} needs {dependency}, not in {LOCK.name}"
