"""The registry of event kinds (server/event_kinds.py) is complete and
true: every kind the engine or the server can emit has an entry, every
entry is emitted by some table, its wire models are exactly the protocol's
table events, each kind reaches exactly the audience its entry names, and
an event the registry does not know is refused loudly, never sent."""

from __future__ import annotations

import ast
import dataclasses
import logging
import typing
from pathlib import Path

import pytest
import pytest_asyncio

from engine import events as ev
from protocol import server_messages as sm
from server import logged_events as logged
from server.errors import UnknownEvent
from server.event_kinds import KINDS, Audience, kind_of, parse_event, redact_event
from server.logged_events import Logged
from server.store import CommitRequest
from server.table_events import log_event
from server.table_fan_out import replay

from .event_scenarios import Recorder, Run, every_scenario

SERVER = Path(__file__).resolve().parents[2] / "server"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def runs() -> dict[str, Run]:
    return await every_scenario()


def _sample(cls: type) -> object:
    """An instance of an engine event class, its fields filled by type."""
    values: dict[str, object] = {}
    for f in dataclasses.fields(cls):
        kind = str(f.type)
        values[f.name] = () if "tuple" in kind else "left" if kind == "str" else 0
    return cls(**values)


def test_every_engine_event_has_a_logged_form_the_registry_knows() -> None:
    for cls in typing.get_args(ev.Event):
        event = log_event(_sample(cls))  # type: ignore[arg-type]
        assert kind_of(event).logged is type(event), cls


def test_the_registry_and_the_logged_event_classes_are_the_same_set() -> None:
    classes = set(typing.get_args(logged.LoggedEvent))
    assert {k.logged for k in KINDS.values()} == classes
    assert len(KINDS) == len(classes)  # one entry per class, kinds unique
    for name, kind in KINDS.items():
        assert kind.logged.kind == name


def test_the_registry_makes_exactly_the_protocols_table_events() -> None:
    made = {model for kind in KINDS.values() for model in kind.wire}
    assert made == set(typing.get_args(sm.TableEvent))


def test_no_server_module_builds_an_event_as_a_dict() -> None:
    # Typed events only: a dict literal whose "type" is a kind would go
    # around the registry.
    for path in SERVER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "type":
                    kind = value.value if isinstance(value, ast.Constant) else None
                    assert kind not in KINDS, f"{path.name}:{node.lineno} builds a {kind} dict"


@pytest.mark.asyncio(loop_scope="module")
async def test_every_kind_is_emitted_by_some_table_and_every_emitted_kind_is_registered(
    runs: dict[str, Run],
) -> None:
    emitted = {kind for run in runs.values() for kind in run.kinds}
    assert emitted == set(KINDS)


@pytest.mark.asyncio(loop_scope="module")
async def test_each_kind_reaches_the_audience_its_entry_names(runs: dict[str, Run]) -> None:
    for run in runs.values():
        seats: list[int | None] = [*range(run.state.players), None]
        for body in await run.stored():
            entry = parse_event(body)
            kind = kind_of(entry.event)
            sent = {seat: redact_event(entry, seat) for seat in seats}
            reached = [seat for seat, msg in sent.items() if msg is not None]
            if kind.audience is Audience.EVERY_SEAT:
                assert reached == seats, kind.name
            elif kind.audience is Audience.OWN_SEAT:
                assert len(reached) == 1 and reached[0] is not None, kind.name
            else:
                assert reached == [], kind.name
            assert all(type(msg) in kind.wire for msg in sent.values() if msg is not None)
            if not kind.per_seat:
                assert len({msg.model_dump_json() for msg in sent.values() if msg}) <= 1


@dataclasses.dataclass(frozen=True, slots=True)
class _Unlisted:
    kind: typing.ClassVar[str] = "unlisted"
    seat: int


def test_an_event_the_registry_lacks_is_refused_not_dropped() -> None:
    with pytest.raises(UnknownEvent, match="_Unlisted"):
        redact_event(Logged(1, _Unlisted(0)), 0)  # type: ignore[arg-type]
    with pytest.raises(UnknownEvent, match="unknown kind 'unlisted'"):
        parse_event(b'{"type":"unlisted","seat":0,"seq":1}')
    with pytest.raises(UnknownEvent):
        parse_event(b'{"type":"card_played","seq":1}')  # fields missing
    with pytest.raises(UnknownEvent):
        parse_event(b"not json")


def test_an_engine_event_without_a_logged_form_is_refused() -> None:
    with pytest.raises(UnknownEvent, match="_Unlisted"):
        log_event(_Unlisted(0))  # type: ignore[arg-type]


def test_a_variant_trick_keeps_its_seats_and_a_standard_trick_counts_them_from_the_leader() -> None:
    variant = log_event(ev.VariantTrickWon(3, 2, 4, (0, 1, 2), 0, seats=(2, 4, 0)), players=5)
    standard = log_event(ev.TrickWon(3, 2, 4, (0, 1, 2), 0), players=3)
    assert isinstance(variant, logged.TrickWon) and isinstance(standard, logged.TrickWon)
    assert variant.seats == (2, 4, 0)
    assert standard.seats == (2, 0, 1)


def test_a_stored_event_reads_back_with_old_fields_defaulted_and_new_ones_ignored() -> None:
    old = parse_event(
        b'{"type":"hand_dealt","hand_number":1,"direction":"left","hands":[],"seq":4}'
    )
    assert old == Logged(4, logged.HandDealt(1, "left", (), ()))
    newer = parse_event(b'{"type":"seat_out","seat":2,"why":"later","seq":9}')
    assert newer == Logged(9, logged.SeatOut(2))


@pytest.mark.asyncio(loop_scope="module")
async def test_a_replay_skips_an_unknown_stored_event_and_says_so_in_the_log(
    runs: dict[str, Run], caplog: pytest.LogCaptureFixture
) -> None:
    run = runs["undo"]
    last = run.state.seq
    # A newer release's event in the log: written straight into the store.
    table = await run.store.load_table(run.state.table_id)
    assert table is not None
    future = b'{"type":"from_the_future","seq":%d}' % (last + 1)
    started = Logged(last + 2, logged.GameStarted()).body()
    await run.store.commit(
        CommitRequest(run.state.table_id, table.version, table.state, [future, started])
    )
    seen = Recorder("late", "pl", "cl")
    with caplog.at_level(logging.ERROR, logger="hearts.table"):
        await replay(run.store, run.state, seen, 0, last)
    types = [m.type for m in map(_decode, seen.event_frames())]
    assert types == ["game_started"]
    assert "not replayed" in caplog.text and "from_the_future" in caplog.text


def _decode(frame: bytes) -> sm.ServerMessage:
    from protocol.codec import decode_server

    return decode_server(frame)
