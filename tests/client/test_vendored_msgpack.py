"""The browser's msgpack codec vendored in client/web/vendor/msgpack: the
release package-lock.json pins, complete, with its licence, and the very
bytes npm installs (``tools/maintenance/vendor_msgpack.py`` makes the copy)."""

from __future__ import annotations

import json
import re

from tests.ci import unavailable
from tools.maintenance.vendor_msgpack import (
    LOCK_FILE,
    NODE_PACKAGE,
    VENDOR_DIR,
    locked_version,
    package_version,
    upstream_files,
    vendored_files,
)

IMPORT = re.compile(r"""(?:^|\s)(?:import|export)\b[^'"]*?\sfrom\s*["']([^"']+)["']""", re.M)


def test_vendored_release_is_the_one_package_lock_pins() -> None:
    assert package_version(VENDOR_DIR) == locked_version()
    lock = json.loads(LOCK_FILE.read_text(encoding="utf-8"))
    locked = lock["packages"]["node_modules/@msgpack/msgpack"]
    manifest = json.loads((VENDOR_DIR / "package.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "@msgpack/msgpack"
    assert manifest["license"] == locked["license"]


def test_licence_ships_beside_the_modules() -> None:
    licence = (VENDOR_DIR / "LICENSE").read_text(encoding="utf-8")
    assert "MessagePack" in licence
    assert "Permission to use, copy, modify, and/or distribute this software" in licence


def test_every_module_import_resolves_inside_the_copy() -> None:
    """A partial copy would fail in the browser only: follow every relative
    import from index.mjs (what net.js imports) and find each file."""
    files = vendored_files()
    assert "index.mjs" in files
    seen: set[str] = set()
    todo = ["index.mjs"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        assert name in files, f"{name} is imported but not vendored"
        folder = name.rpartition("/")[0]
        for target in IMPORT.findall(files[name].decode("utf-8")):
            assert target.startswith("./") or target.startswith("../"), (name, target)
            parts = folder.split("/") if folder else []
            for part in target.split("/"):
                if part == "..":
                    parts.pop()
                elif part != ".":
                    parts.append(part)
            todo.append("/".join(parts))
    assert len(seen) > 10, sorted(seen)  # the codec's modules, not just the index


def test_copy_has_the_bytes_npm_installs() -> None:
    if not (NODE_PACKAGE / "package.json").is_file():
        unavailable(f"{NODE_PACKAGE} is missing (npm ci, or make test, installs it)")
    assert package_version(NODE_PACKAGE) == locked_version(), "node_modules is stale: npm ci"
    upstream, vendored = upstream_files(), vendored_files()
    assert sorted(vendored) == sorted(upstream)
    differ = [name for name in upstream if upstream[name] != vendored[name]]
    assert differ == [], f"differ from npm's (make vendor-msgpack): {differ}"
