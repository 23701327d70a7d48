"""The import graph: layers only point down, and no module imports itself
round a cycle (docs/architecture.md, Layers).

Every module of our packages is parsed (``ast``, not imported) and every
import statement in it counts: at the top, inside functions, under
``if TYPE_CHECKING:``, relative (``from . import x``, ``from ..y import z``)
or absolute. ``from package import name`` counts as importing the module
``package.name`` when there is one, else ``package``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# engine <- protocol <- bots <- server <- client/tools, with common (helpers
# that know nothing of Hearts) below them all: what each package may import
# of ours (itself included).
ALLOWED: dict[str, frozenset[str]] = {
    "common": frozenset({"common"}),
    "engine": frozenset({"common", "engine"}),
    "protocol": frozenset({"common", "engine", "protocol"}),
    "bots": frozenset({"common", "engine", "protocol", "bots"}),
    "server": frozenset({"common", "engine", "protocol", "bots", "server"}),
    # The clients talk to a server over the wire only: never server, never tools.
    "client": frozenset({"common", "engine", "protocol", "bots", "client"}),
    "tools": frozenset({"common", "engine", "protocol", "bots", "server", "client", "tools"}),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of our packages, by dotted name."""
    found: dict[str, Path] = {}
    for package in ALLOWED:
        for path in sorted((REPO / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _known(name: str) -> str | None:
    """The module ``name`` names, or the longest of its prefixes that is one
    of ours (``import a.b.f`` names ``a.b`` when ``f`` is not a module)."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path) -> Iterator[str]:
    """The modules of ours that ``module`` imports, every import statement
    counted. ``from a import b`` imports the module ``a.b`` when there is
    one, else (a name defined in ``a``) the module ``a``."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: one package up per dot after the first
                base = package[: len(package) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            targets = [
                f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules() else source
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target.split(".")[0] in ALLOWED:
                found = _known(target)
                if found is not None and found != module:
                    yield found


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module -> the modules of ours it imports."""
    return {module: frozenset(_imports(module, path)) for module, path in modules().items()}


def cycles() -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_package_is_parsed() -> None:
    names = modules()
    for package in ALLOWED:
        assert package in names, package
    # Some modules at each depth: the walk finds nested packages too.
    assert {"server.store.redis_store", "client.tui.screens.table", "tools.bench.load"} <= set(
        names
    )


def test_imports_are_resolved_as_python_does() -> None:
    edges = graph()
    # A relative import in a package's __init__, and from a sibling.
    assert "server.store.base" in edges["server.store"]
    assert "tools.bench.load" in edges["tools.bench.cluster"]
    # One inside a function (the dispatch imports what it runs when it runs).
    assert "tools.bench.engine" in edges["tools.cli.bench"]
    # ``from protocol import server_messages``: the module, not the package.
    assert "protocol.server_messages" in edges["server.event_kinds"]
    # The helpers below every layer are in the graph too.
    assert any(target.startswith("common.") for target in edges["server.table_commit"])


def test_layers_only_point_down() -> None:
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in graph().items()
        for target in targets
        if target.split(".")[0] not in ALLOWED[module.split(".")[0]]
    )
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles() -> None:
    cyclic = [sorted(c) for c in cycles()]
    assert not cyclic, f"import cycles: {cyclic}"
