"""docs/architecture.md's "The path of one play" matches the code: every
file it names exists, and every function, class or method it names is
defined in the file named before it (or, for a hop into another module, in
one of the files the path names)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "architecture.md"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## The path of one play")
    return text[start : text.index("\n## ", start + 1)]


def _where_column() -> list[list[str]]:
    """The backquoted names of each row's "where" cell, in order."""
    rows = []
    for line in _section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("hop", "---"):
            rows.append(re.findall(r"`([^`]+)`", cells[2]))
    return rows


def _defined(paths: list[Path]) -> set[str]:
    """Top-level functions and classes, ``Class.method`` and bare method names."""
    names: set[str] = set()
    for path in paths:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.ClassDef):
                names.add(node.name)
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        names.update({item.name, f"{node.name}.{item.name}"})
    return names


def _files(token: str) -> list[Path]:
    return sorted(REPO.glob(token)) if "*" in token else [REPO / token]


def test_the_path_of_one_play_names_what_the_code_defines() -> None:
    rows = _where_column()
    assert len(rows) >= 10, "the path's table was not found"
    tokens = [t for row in rows for t in row]
    files = [t for t in tokens if t.endswith(".py") or t.endswith("/*")]
    for token in files:
        found = _files(token.replace("/*", "/*.py"))
        assert found and all(p.exists() for p in found), f"no file {token}"
    everywhere = _defined([p for t in files for p in _files(t.replace("/*", "/*.py"))])
    current: set[str] = set()
    checked = 0
    for token in tokens:
        if token in files:
            current = _defined(_files(token.replace("/*", "/*.py")))
            continue
        name = token.split("(")[0]
        assert name in current or name in everywhere, f"the path names {token}: not defined"
        checked += 1
    assert checked >= 15
    # The hops the issue asks the path to show, in their order.
    where = " ".join(tokens)
    hops = [
        "Connection.run",
        "Request(",
        "apply_request",
        "log_event",
        "TableCommits.commit",
        "fan_out",
    ]
    positions = [where.index(hop) for hop in hops]
    assert positions == sorted(positions)
