"""Acceptance of every variant at every seat count it allows (issue 14):
``hearts host --seats … --rules variant=V,players=N --autoplay medium --json
--records F`` finishes a whole game (one hand: ``end=hands,end_at=1``) and
``hearts verify F`` exits 0 on what it wrote.

The suite runs two cases (the widow and Cancellation at their largest
tables); ``make acceptance-variants`` (or
``HEARTS_VARIANT_ACCEPTANCE=all``) runs all of them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.variants import VARIANTS
from server.app import RunningServer

from .test_headless import first_line, hearts, rest, server  # noqa: F401 (a fixture)

EVERY = [(name, n) for name, v in VARIANTS.items() for n in v.players]
FEW = [("widow", 6), ("cancellation", 10)]
CASES = EVERY if os.environ.get("HEARTS_VARIANT_ACCEPTANCE") == "all" else FEW


@pytest.mark.subprocess
@pytest.mark.parametrize(("variant", "players"), CASES, ids=[f"{v}-{n}" for v, n in CASES])
async def test_host_autoplays_a_whole_game_and_its_records_verify(
    server: RunningServer,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
    variant: str,
    players: int,
) -> None:
    records = tmp_path / "records.jsonl"
    host = await hearts(
        "host",
        "--server",
        server.url,
        "--seats",
        ",".join(["medium"] * (players - 1)),
        "--rules",
        f"variant={variant},players={players},end=hands,end_at=1",
        "--autoplay",
        "medium",
        "--json",
        "--records",
        str(records),
        "--session-file",
        str(tmp_path / "host.json"),
        "--seed",
        "5",
    )
    assert (await first_line(host))["type"] == "table"
    status, lines, err = await rest(host)
    assert status == 0, err
    assert lines[-1]["type"] == "game_over"
    assert len(lines[-1]["totals"]) == players
    assert not [line for line in lines if line["type"] == "refused"]
    written = records.read_text().splitlines()
    assert len(written) == len([x for x in lines if x["type"] == "hand_scored"]) >= 1
    verify = await hearts("verify", str(records))
    status, answers, err = await rest(verify)
    assert status == 0, err
    assert len(answers) == len(written) and all(a["ok"] and a["complete"] for a in answers)
