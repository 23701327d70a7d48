"""Events keep their stored and wire forms: the scripted tables of
``event_scenarios`` (every variant, every kind of event) store the same
JSON and send every seat the same frames as the golden log
(``tests/data/golden_event_log.json``, ``make_golden_event_log.py``), and
a resuming seat's replay from the stored log sends what the live fan-out
sent."""

from __future__ import annotations

import json

import pytest
import pytest_asyncio

from server.table_fan_out import replay
from tests.data.make_golden_event_log import GOLDEN

from .event_scenarios import Recorder, Run, every_scenario


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def runs() -> dict[str, Run]:
    return await every_scenario()


@pytest.mark.asyncio(loop_scope="module")
async def test_every_scenario_stores_and_sends_what_the_golden_log_holds(
    runs: dict[str, Run],
) -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(golden) == sorted(runs)
    for name, run in runs.items():
        stored = [body.decode() for body in await run.stored()]
        assert stored == golden[name]["stored"], name
        assert run.sent() == golden[name]["sent"], name


@pytest.mark.asyncio(loop_scope="module")
async def test_a_replay_from_the_stored_log_sends_each_seat_what_it_was_sent_live(
    runs: dict[str, Run],
) -> None:
    for name, run in runs.items():
        for seat, live in run.recorders.items():
            again = Recorder("again", "pa", "ca")
            await replay(run.store, run.state, again, seat, 0)
            assert again.event_frames() == live.event_frames(), (name, seat)
