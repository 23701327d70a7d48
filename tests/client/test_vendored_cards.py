"""The card faces vendored in client/web/vendor/cards: the release of
@younestouati/playing-cards-standard-deck that package-lock.json pins, all 52
faces the browser asks for, each drawing one layout, its licence beside
them with the notice of what the copy changed, and the very bytes npm
installs but for that change (``tools/maintenance/vendor_cards.py`` makes
the copy)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from tests.ci import unavailable
from tools.maintenance.vendor_cards import (
    FACES,
    LOCK_FILE,
    MODIFICATIONS,
    NODE_PACKAGE,
    PACKAGE,
    VENDOR_DIR,
    locked_version,
    one_layout,
    package_version,
    upstream_files,
    vendored_files,
    vendored_form,
)

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"

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


def test_copy_has_the_bytes_npm_installs_but_the_corrected_face() -> None:
    if not (NODE_PACKAGE / "package.json").is_file():
        unavailable(f"{NODE_PACKAGE} is missing (npm ci, or make test, installs it)")
    assert package_version(NODE_PACKAGE) == locked_version(), "node_modules is stale: npm ci"
    upstream, vendored = upstream_files(), vendored_files()
    assert sorted(vendored) == sorted([*upstream, MODIFICATIONS])
    differ = [name for name in upstream if upstream[name] != vendored[name]]
    assert differ == ["4s.svg"], f"differ from npm's: {differ}"
    assert vendored == vendored_form(upstream), "make vendor-cards"


def layouts(face: bytes) -> list[ET.Element]:
    """The groups of pips and indices a face draws (each a layout)."""
    root = ET.fromstring(face)
    return [child for child in root if child.tag == f"{SVG}g"]


def test_every_face_draws_one_layout() -> None:
    """Each of the 52 faces: one group, in it the two corner indices (the
    numeral, upright and upside down) and pips no larger than the suit's own
    drawing (a giant numeral or suit over the pips was the package's 4♠)."""
    files = vendored_files()
    for name in FACES:
        groups = layouts(files[name])
        assert len(groups) == 1, name
        uses = [u for u in groups[0].iter(f"{SVG}use")]
        numerals = [u for u in uses if u.get(XLINK) == "#numeral"]
        assert len(numerals) == 2, name
        for use in uses:
            scale = re.match(r"matrix\((-?[\d.]+)", use.get("transform", ""))
            assert scale is None or abs(float(scale.group(1))) <= 1, (name, use.attrib)


def test_the_corrected_four_of_spades_is_laid_out_as_the_other_fours() -> None:
    """The corrected 4♠ draws exactly the 4♣'s layout with the spade."""
    files = vendored_files()
    spades, clubs = (ET.tostring(layouts(files[f"4{s}.svg"])[0]) for s in "sc")
    assert spades == clubs


def test_one_layout_keeps_the_marked_layout_and_leaves_others_alone() -> None:
    single = b'<svg><g><use href="#suit"/></g></svg>'
    assert one_layout(single) == single
    double = b'<svg><g><use href="#big"/></g><g class="maxi-card"><use href="#pip"/></g></svg>'
    assert one_layout(double) == b'<svg><g><use href="#pip"/></g></svg>'
    with pytest.raises(ValueError):
        one_layout(b"<svg><g>a</g><g>b</g></svg>")


def test_the_notice_says_what_the_copy_changed() -> None:
    notice = (VENDOR_DIR / MODIFICATIONS).read_text(encoding="utf-8")
    assert "LGPL-3.0" in notice and "4s.svg" in notice
    assert "Every other file is the package's, byte for byte." in notice
