"""Copy the browser's msgpack codec from ``node_modules`` into the client.

The browser client imports ``@msgpack/msgpack`` as native ES modules from
``/vendor/msgpack/``. Those files are kept in the repository under
``client/web/vendor/msgpack/`` (with the package's LICENSE and package.json),
so the server serves them from the same folder as the rest of the client in
a source checkout and in an installed wheel alike, and neither installing
nor running Hearts needs Node. ``package-lock.json`` stays the record of
which release that is; ``tests/client/test_vendored_msgpack.py`` checks the
copy against it and, when ``node_modules`` exists, byte for byte against npm's.

To move to another release: change ``package.json``, run ``npm install``
(which rewrites the lock file), then ``make vendor-msgpack``.

``python -m tools.maintenance.vendor_msgpack`` copies; ``--check`` only compares
(exit 1 when the copy differs from ``node_modules``).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from . import npm_copy

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "@msgpack/msgpack"
LOCK_FILE = REPO / "package-lock.json"
NODE_PACKAGE = REPO / "node_modules" / "@msgpack" / "msgpack"
VENDOR_DIR = REPO / "client" / "web" / "vendor" / "msgpack"
ESM_DIR = "dist.esm"
NOTICES = ("LICENSE", "package.json")
"""Files copied beside the modules: the licence, and the package's own
manifest (its name, version and licence field)."""


def locked_version(lock_file: Path = LOCK_FILE) -> str:
    """The release of ``@msgpack/msgpack`` that ``package-lock.json`` pins."""
    return npm_copy.locked_version(PACKAGE, lock_file)


def package_version(folder: Path) -> str:
    """The ``version`` of the package.json in ``folder``."""
    return npm_copy.package_version(folder)


def upstream_files(package: Path = NODE_PACKAGE) -> dict[str, bytes]:
    """What is vendored from an installed npm package, by path relative to the
    vendor folder: its ES modules (``dist.esm/**/*.mjs``, without the folder
    name: the browser imports ``/vendor/msgpack/index.mjs``) and the notices.
    Type declarations and source maps are left out: the browser uses neither."""
    esm = package / ESM_DIR
    files = {
        path.relative_to(esm).as_posix(): path.read_bytes()
        for path in sorted(esm.rglob("*.mjs"))
        if path.is_file()
    }
    for name in NOTICES:
        files[name] = (package / name).read_bytes()
    return files


def vendored_files(folder: Path = VENDOR_DIR) -> dict[str, bytes]:
    """Every file of the vendored copy, by relative path."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def copy(package: Path = NODE_PACKAGE, folder: Path = VENDOR_DIR) -> int:
    """Replace the vendored copy with the installed package's files; returns
    how many files were written."""
    files = upstream_files(package)
    if folder.exists():
        shutil.rmtree(folder)
    for relative, data in files.items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return len(files)


def main(argv: list[str] | None = None) -> int:
    """Copy (or with ``--check`` compare); returns the exit status."""
    return npm_copy.run(
        argv,
        "python -m tools.maintenance.vendor_msgpack",
        __doc__,
        PACKAGE,
        NODE_PACKAGE,
        VENDOR_DIR,
        REPO,
        locked_version(),
        lambda: vendored_files() == upstream_files(),
        copy,
    )


if __name__ == "__main__":
    sys.exit(main())
