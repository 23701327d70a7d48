"""Copy the browser's card faces from ``node_modules`` into the client.

The browser client draws every card with the SVG files of the npm package
``@younestouati/playing-cards-standard-deck`` (LGPL-3.0: court cards drawn as
real court cards, pip cards a few hundred bytes each once gzipped), served
from ``/vendor/cards/``. Like the msgpack codec (``tools/maintenance/vendor_msgpack.py``)
they are kept in the repository under ``client/web/vendor/cards/`` with the
package's LICENSE and package.json, so installing or serving Hearts never
needs Node, and ``package-lock.json`` records the release;
``tests/client/test_vendored_cards.py`` checks the copy against it and, when
``node_modules`` exists, byte for byte against npm's.

To move to another release: change ``package.json``, run ``npm install``,
then ``make vendor-cards``. ``python -m tools.maintenance.vendor_cards`` copies;
``--check`` only compares (exit 1 when the copy differs).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from . import npm_copy

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "@younestouati/playing-cards-standard-deck"
LOCK_FILE = REPO / "package-lock.json"
NODE_PACKAGE = REPO / "node_modules" / "@younestouati" / "playing-cards-standard-deck"
VENDOR_DIR = REPO / "client" / "web" / "vendor" / "cards"
SUITS = "cdhs"
RANKS = tuple(str(n) for n in range(1, 14))
"""The package's names: 1 is the ace, 11 to 13 the jack, queen and king."""
FACES = tuple(f"{rank}{suit}.svg" for suit in SUITS for rank in RANKS)
NOTICES = ("LICENSE", "package.json")
"""Files copied beside the faces: the licence and the package's manifest."""


def locked_version(lock_file: Path = LOCK_FILE) -> str:
    """The release of the deck that ``package-lock.json`` pins."""
    return npm_copy.locked_version(PACKAGE, lock_file)


def package_version(folder: Path) -> str:
    """The ``version`` of the package.json in ``folder``."""
    return npm_copy.package_version(folder)


def upstream_files(package: Path = NODE_PACKAGE) -> dict[str, bytes]:
    """What is vendored from the installed package: its 52 faces (the joker
    and the back are not used) and the notices, by name."""
    files = {name: (package / "cards" / name).read_bytes() for name in FACES}
    for name in NOTICES:
        files[name] = (package / name).read_bytes()
    return files


def vendored_files(folder: Path = VENDOR_DIR) -> dict[str, bytes]:
    """Every file of the vendored copy, by name."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def copy(package: Path = NODE_PACKAGE, folder: Path = VENDOR_DIR) -> int:
    """Replace the vendored copy with the installed package's files; returns
    how many files were written."""
    files = upstream_files(package)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return len(files)


def main(argv: list[str] | None = None) -> int:
    """Copy (or with ``--check`` compare); returns the exit status."""
    return npm_copy.run(
        argv,
        "python -m tools.maintenance.vendor_cards",
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
