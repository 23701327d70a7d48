"""A seat played by a program (its hello said ``program``) is shown as such
to everyone, and a program is not a person for the pause rule: a person's
table pauses when no person is connected, whatever programs are; a table of
programs and our bots runs while one of its programs is connected."""

from __future__ import annotations

import json
import random

from protocol import client_messages as cm
from protocol import server_messages as sm
from server import table_intents as intents
from server.bus import ForwardedJob, decode, decode_batch, encode_batch
from server.jobs import Attach
from server.table_state import Seat, TableState

from .absent_client import AbsentClient
from .conftest import ServerFactory
from .harness import SHORT_RULES, WireClient, play_until


def _table(*seats: Seat) -> TableState:
    from engine.rules import Rules

    return TableState(
        table_id="t",
        code="ABCDEF",
        name="",
        public=False,
        rules=Rules(),
        seed=1,
        seats=list(seats),
        status="playing",
    )


def test_the_pause_rule_counts_people_not_programs() -> None:
    person = Seat(kind="human", name="Ann", connected=True)
    program = Seat(kind="human", name="Bot", connected=True, program=True)
    bot = Seat(kind="bot", name="Easy bot", bot_level="easy")
    assert not _table(person, program, bot, bot).is_paused()
    person.connected = False
    # Only a program is here: a person's hand is not played without them.
    assert _table(person, program, bot, bot).is_paused()
    # Programs alone with our bots play while one of them is here.
    other = Seat(kind="human", name="Bot 2", connected=False, program=True)
    assert not _table(program, other, bot, bot).is_paused()
    program.connected = False
    assert _table(program, other, bot, bot).is_paused()


def test_a_programs_attach_keeps_its_mark_over_the_bus() -> None:
    """A program joining through another process (the table's owner is
    elsewhere) is still a program there; a person's attach carries nothing
    new on the wire (a process of the previous release reads it as ever)."""
    client = AbsentClient()
    join = cm.JoinTable(id=3, code="ABCDEF")
    for program in (True, False):
        job = Attach(client, join, "join", program=program)
        data = encode_batch([ForwardedJob.of(job, "t1", "procA", None)])
        (raw,) = decode_batch(data)
        assert raw["extra"] == ({"mode": "join", "program": True} if program else {"mode": "join"})
        forwarded = decode(raw)
        assert isinstance(forwarded, ForwardedJob) and forwarded.job(client) == job


def test_the_mark_is_stored_and_old_blobs_load_as_people() -> None:
    table = _table(Seat(kind="human", name="Bot", program=True), Seat(), Seat(), Seat())
    again = TableState.from_bytes(table.to_bytes())
    assert again.seats[0].program and not again.seats[1].program
    old = json.loads(table.to_bytes())
    for s in old["seats"]:
        del s["program"]
    assert not TableState.from_json(old).seats[0].program


async def test_everyone_sees_a_program_seat_and_a_person_alone_keeps_the_table_going(
    make_server: ServerFactory,
) -> None:
    async with make_server(grace_seconds=0.05) as server:
        host = await WireClient.open(server.url, "Ann")
        seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
        program = await WireClient.open(server.url, "Robo", program=True)
        await program.join(seated.code, seat=1)
        _, joined = await host.wait_for(
            lambda m: isinstance(m, sm.SeatChanged) and m.change == "joined"
        )
        assert joined.seat.program and joined.seat.kind == "human"
        for client in (host, program):
            view = await client.snapshot_where(lambda v: v.seats[1].kind == "human")
            assert view.seats[1].program and not view.seats[0].program
            assert not view.seats[2].program  # our bots are bots, not programs
        await host.start()
        await host.snapshot_where(lambda v: v.phase == "pass")
        mark = len(program.frames)
        await host.drop()
        # The program is connected, but no person is: the game pauses, the
        # host's seat is not counted down to a bot.
        paused = await program.snapshot_where(lambda v: v.paused, start=mark)
        assert paused.seats[0].away and paused.seats[0].cover_in is None
        actor = server.lobby.actors[seated.table_id]
        assert not any(key.startswith("grace") for key in actor._duties.armed())
        assert intents.seats_to_decide(actor.state) == []
        await program.close()


async def test_a_program_plays_our_bots_alone_and_its_mark_follows_who_resumes(
    make_server: ServerFactory,
) -> None:
    async with make_server(grace_seconds=0.05) as server:
        program = await WireClient.open(server.url, "Robo", program=True)
        seated = await program.create(seats=("easy", "medium", "easy"), rules=SHORT_RULES)
        await program.start()
        view = await play_until(program, random.Random(2), done=lambda v: len(v.tricks) >= 2)
        assert not view.paused and view.seats[0].program
        await program.drop()
        # Its player takes the seat back by hand (a person's hello): the
        # seat shows a person now.
        person = await WireClient.open(server.url, "Robo", player_token=program.player_token)
        await person.call(
            cm.Resume(id=person.next_id(), table_id=seated.table_id, seat_token=seated.seat_token)
        )
        back = await person.snapshot_where(lambda v: v.seats[0].connected)
        assert not back.seats[0].program
        final = await play_until(person, random.Random(3))
        assert final.status == "game_over"
        await person.close()


async def test_a_seat_left_to_a_program_is_a_programs(make_server: ServerFactory) -> None:
    """A person hands their seat to their program (it resumes the seat while
    the person's own connection is still there), then closes theirs: the
    seat shows a program, and when the only other person drops the game
    pauses; no bot covers a person because only a program is here."""
    async with make_server(grace_seconds=30) as server:
        host = await WireClient.open(server.url, "Ann")
        seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
        person = await WireClient.open(server.url, "Bea")
        await person.join(seated.code, seat=1)
        await host.start()
        await host.snapshot_where(lambda v: v.phase == "pass")
        program = await WireClient.open(
            server.url, "Bea", program=True, player_token=person.player_token
        )
        await program.call(
            cm.Resume(id=program.next_id(), table_id=seated.table_id, seat_token=person.seat_token)
        )
        # Both show the seat: a person is there, so it is a person's.
        assert not (await program.snapshot_where(lambda v: True)).seats[1].program
        mark = len(host.frames)
        await person.close()
        handed = await host.snapshot_where(lambda v: v.seats[1].program, start=mark)
        assert handed.seats[1].connected and not handed.seats[1].away
        mark = len(program.frames)
        await host.drop()
        paused = await program.snapshot_where(lambda v: v.seats[0].away, start=mark)
        assert paused.paused and paused.seats[0].cover_in is None
        actor = server.lobby.actors[seated.table_id]
        assert not any(key.startswith("grace") for key in actor._duties.armed())
        await program.close()


async def test_a_program_hosts_keep_their_mark_when_a_person_looks_in(
    make_server: ServerFactory,
) -> None:
    """A program hosts; its player looks in on the seat by hand (a person's
    resume) and leaves again: the seat is a program's again, as when the
    program alone showed it."""
    async with make_server() as server:
        program = await WireClient.open(server.url, "Robo", program=True)
        seated = await program.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
        person = await WireClient.open(server.url, "Robo", player_token=program.player_token)
        await person.call(
            cm.Resume(id=person.next_id(), table_id=seated.table_id, seat_token=seated.seat_token)
        )
        assert not (await program.snapshot_where(lambda v: not v.seats[0].program)).seats[0].away
        mark = len(program.frames)
        await person.close()
        again = await program.snapshot_where(lambda v: v.seats[0].program, start=mark)
        assert again.seats[0].connected
        await program.close()
