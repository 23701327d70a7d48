"""deploy/Dockerfile: hadolint, and the properties the image promises (slim
multi-stage, non-root with a fixed UID, health check without curl, the web
files placed where server/http.py looks for them)."""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
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


def test_build_installs_the_wheel_and_runs_npm_ci() -> None:
    runs = " ".join(i.args for i in of("RUN") if i.stage < last_stage())
    assert "npm ci" in runs
    assert re.search(r"pip wheel\b.*\s\.(\s|$)", runs), "builds the project's wheel"
    assert "pip install /tmp/wheels/" in runs
    # Nothing is compiled or fetched in the runtime stage.
    assert not [i for i in of("RUN", last_stage()) if "pip" in i.args or "npm" in i.args]


def test_web_files_go_where_server_http_looks() -> None:
    """The build asks the installed server.http for its folders; those names must exist."""
    copy_step = next(i.args for i in of("RUN") if "copytree" in i.args)
    assert "python -I" in copy_step, "must import the installed package, not /src/server"
    names = set(re.findall(r"\bh\.([A-Z_]+)\b", copy_step))
    assert {"WEB_ROOT", "MSGPACK_ROOT"} <= names
    for name in names:
        assert hasattr(server.http, name), f"server/http.py no longer defines {name}"
    # The sources copied there are the ones the server serves from in the repo.
    assert server.http.WEB_ROOT == REPO / "client" / "web"
    msgpack = server.http.MSGPACK_ROOT.relative_to(REPO).as_posix()
    assert msgpack in copy_step
    assert (REPO / "client" / "web" / "index.html").is_file()


def test_runtime_copies_only_the_venv() -> None:
    copies = of("COPY", last_stage())
    assert copies, "the runtime copies the venv from the build stage"
    assert all(c.args.startswith("--from=") for c in copies), copies


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
    for private in (".git/config", ".venv/bin/python", "node_modules/x/y.js", ".env", "tests/x.py"):
        assert ignored(private, patterns), f"{private} would be sent to the builder"
