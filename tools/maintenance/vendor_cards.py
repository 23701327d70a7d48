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

One face is corrected on the way (``one_layout``): the package's
``4s.svg`` draws two layouts at once, a giant "4" and spade over the usual
corner indices and pips. The copy keeps only the usual layout, as every
other face has it; ``MODIFICATIONS`` beside the faces says so, as the
LGPL asks of a modified copy. Every other file is npm's, byte for byte.

To move to another release: change ``package.json``, run ``npm install``,
then ``make vendor-cards``. ``python -m tools.maintenance.vendor_cards`` copies;
``--check`` only compares (exit 1 when the copy differs).
"""

from __future__ import annotations

import re
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


MODIFICATIONS = "MODIFICATIONS"
"""The notice of what the copy changed, written beside the faces."""
CORRECTED_ON = "2026-12-02"
"""When the correction below was made (the notice's date)."""
_GROUP = re.compile(rb"<g(?: [^>]*)?>.*?</g>", re.S)
_STANDARD = b'<g class="maxi-card">'


def one_layout(svg: bytes) -> bytes:
    """``svg`` with one layout: a face that draws more than one group of
    pips and indices (the package's 4s.svg) keeps only the standard one,
    the group marked ``maxi-card``, unmarked like every other face's. A face
    of one layout is returned as it is; one of several, none of them
    marked, is refused (a new release to look at by hand)."""
    groups = _GROUP.findall(svg)
    if len(groups) <= 1:
        return svg
    standard = [g for g in groups if g.startswith(_STANDARD)]
    if len(standard) != 1:
        raise ValueError("a face draws several layouts and none is marked as the standard one")
    out = svg
    for group in groups:
        if group is not standard[0]:
            out = out.replace(group, b"", 1)
    return out.replace(_STANDARD, b"<g>", 1)


def notice(changed: list[str]) -> bytes:
    """The ``MODIFICATIONS`` notice: which files differ from the package's, and how."""
    lines = [
        f"Modified copy of {PACKAGE} (LGPL-3.0, see LICENSE).",
        "",
        f"On {CORRECTED_ON}, the Hearts online project changed these files when",
        "vendoring them (tools/maintenance/vendor_cards.py, one_layout):",
        "",
        *(
            f"- {name}: the package's file draws two layouts at once (a giant numeral"
            " and suit over the corner indices and pips); the copy keeps only the"
            ' standard layout (the group marked class="maxi-card", unmarked as on'
            " every other face) and removes the other."
            for name in changed
        ),
        "",
        "Every other file is the package's, byte for byte.",
        "",
    ]
    return "\n".join(lines).encode()


def vendored_form(files: dict[str, bytes]) -> dict[str, bytes]:
    """What the copy holds for the package's ``files``: each face with one
    layout, and the notice of the faces that changed."""
    out = {name: one_layout(data) if name in FACES else data for name, data in files.items()}
    changed = sorted(name for name in files if out[name] != files[name])
    if changed:
        out[MODIFICATIONS] = notice(changed)
    return out


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
    """Replace the vendored copy with the installed package's files (in
    their vendored form: ``vendored_form``); returns how many files were
    written."""
    files = vendored_form(upstream_files(package))
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
        lambda: vendored_files() == vendored_form(upstream_files()),
        copy,
    )


if __name__ == "__main__":
    sys.exit(main())
