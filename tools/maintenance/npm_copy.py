"""What the vendoring scripts share: the release package-lock.json pins,
an installed package's release, and the command line that copies a
package's files into client/web/vendor (or with ``--check`` compares)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path


def locked_version(package: str, lock_file: Path) -> str:
    """The release of ``package`` that ``lock_file`` pins."""
    lock = json.loads(lock_file.read_text(encoding="utf-8"))
    version: str = lock["packages"][f"node_modules/{package}"]["version"]
    return version


def package_version(folder: Path) -> str:
    """The ``version`` of the package.json in ``folder``."""
    manifest = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    version: str = manifest["version"]
    return version


def run(
    argv: list[str] | None,
    prog: str,
    description: str | None,
    package: str,
    node_package: Path,
    vendor_dir: Path,
    repo: Path,
    locked: str,
    same: Callable[[], bool],
    copy: Callable[[], int],
) -> int:
    """Copy (or with ``--check`` compare) once the installed package is the
    locked release; returns the exit status."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    args = parser.parse_args(argv)
    if not (node_package / "package.json").is_file():
        print(f"{node_package} is missing: run `npm ci` first", file=sys.stderr)
        return 2
    installed = package_version(node_package)
    if installed != locked:
        print(
            f"node_modules has {package} {installed}, package-lock.json pins {locked}: "
            "run `npm ci` first",
            file=sys.stderr,
        )
        return 2
    if args.check:
        equal = same()
        print(f"{vendor_dir.relative_to(repo)}: {'same as' if equal else 'DIFFERS from'} npm's")
        return 0 if equal else 1
    count = copy()
    print(f"{package} {locked}: {count} files in {vendor_dir.relative_to(repo)}")
    return 0
