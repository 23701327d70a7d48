"""The card faces vendored in client/web/vendor/cards: the release of
@younestouati/playing-cards-standard-deck that package-lock.json pins, all 52
faces the browser asks for, its licence beside them, and the very bytes npm
installs (``tools/maintenance/vendor_cards.py`` makes the copy)."""

from __future__ import annotations

import json
import re

from tests.ci import unavailable
from tools.maintenance.vendor_cards import (
    LOCK_FILE,
    NODE_PACKAGE,
    PACKAGE,
    VENDOR_DIR,
    locked_version,
    package_version,
    upstream_files,
    vendored_files,
)

REPO = VENDOR_DIR.parents[3]


def test_vendored_release_is_the_one_package_lock_pins() -> None:
    assert package_version(VENDOR_DIR) == locked_version()
    locked = json.loads(LOCK_FILE.read_text(encoding="utf-8"))["packages"][
        f"node_modules/{PACKAGE}"
    ]
    manifest = json.loads((VENDOR_DIR / "package.json").read_text(encoding="utf-8"))
    assert manifest["name"] == PACKAGE
    assert manifest["license"] == locked["license"] == "LGPL-3.0"


def test_licence_ships_beside_the_faces() -> None:
    licence = (VENDOR_DIR / "LICENSE").read_text(encoding="utf-8")
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in licence and "Version 3" in licence


def test_every_face_the_browser_asks_for_is_there() -> None:
    """cards.js names a face by rank number (A=1, T=10, J=11, Q=12, K=13) and
    suit letter: each of the 52 is an SVG drawing."""
    source = (REPO / "client" / "web" / "js" / "cards.js").read_text(encoding="utf-8")
    assert re.search(r'DECK_RANK = \{ A: "1", T: "10", J: "11", Q: "12", K: "13" \}', source)
    files = vendored_files()
    for suit in "cdhs":
        for rank in range(1, 14):
            face = files[f"{rank}{suit}.svg"]
            assert b"<svg" in face[:400], (rank, suit)
    assert len([name for name in files if name.endswith(".svg")]) == 52


def test_copy_has_the_bytes_npm_installs() -> None:
    if not (NODE_PACKAGE / "package.json").is_file():
        unavailable(f"{NODE_PACKAGE} is missing (npm ci, or make test, installs it)")
    assert package_version(NODE_PACKAGE) == locked_version(), "node_modules is stale: npm ci"
    upstream, vendored = upstream_files(), vendored_files()
    assert sorted(vendored) == sorted(upstream)
    differ = [name for name in upstream if upstream[name] != vendored[name]]
    assert differ == [], f"differ from npm's (make vendor-cards): {differ}"
