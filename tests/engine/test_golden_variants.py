"""The variants' golden hand records (tests/data/golden_variants.jsonl)
through the real `hearts verify`; the expected answers of the constructed
ones were derived by hand from docs/rules.md (tests/data/make_golden_variants.py)."""

from __future__ import annotations

import json

import pytest

from .test_golden import DATA, verify


@pytest.mark.subprocess
def test_every_variants_golden_record_verifies_as_derived_by_hand() -> None:
    done = verify(DATA / "golden_variants.jsonl")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    expected = [
        json.loads(line)
        for line in (DATA / "golden_variants_expected.jsonl").read_text("utf-8").splitlines()
    ]
    assert len(answers) == len(expected)
    for number, (got, want) in enumerate(zip(answers, expected, strict=True), start=1):
        assert got == want, f"answer {number}"
    assert done.returncode == 2  # some lines are unreadable
    assert done.stderr == ""


def test_the_golden_variant_records_cover_every_variant_complete() -> None:
    records = [
        json.loads(line)
        for line in (DATA / "golden_variants.jsonl").read_text("utf-8").splitlines()
    ]
    expected = [
        json.loads(line)
        for line in (DATA / "golden_variants_expected.jsonl").read_text("utf-8").splitlines()
    ]
    complete = {
        (r.get("rules") or {}).get("variant")
        for r, e in zip(records, expected, strict=True)
        if e.get("complete") is True
    }
    assert complete == {
        "omnibus", "spot", "greek", "black_maria", "domino", "widow", "cancellation",
    }  # fmt: skip
