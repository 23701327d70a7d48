"""``get_table_facts``: what a private table is (name, host, rules, who sits)
for someone holding its code or invite link, before they sit: nothing a
spectator could not see, looked up within the same budget of wrong codes as
joining, and answered by any process of a cluster. All through real
connections on 127.0.0.1."""

from __future__ import annotations

from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.view import SeatView
from server.connection import player_id_of

from .conftest import ServerFactory
from .harness import SHORT_RULES, WireClient


def _invite_of(seated: sm.Seated) -> str:
    _, _, fragment = seated.join_path.partition("#k=")
    assert fragment
    return fragment


async def _facts(client: WireClient, code: str, invite: str | None = None) -> sm.TableFacts:
    reply = await client.call(cm.GetTableFacts(id=client.next_id(), code=code, invite=invite))
    assert isinstance(reply, sm.TableFacts)
    return reply


def _raw_reply(client: WireClient, reply: sm.TableFacts) -> bytes:
    """The frame that carried ``reply``, as it came over the wire."""
    return next(r.raw for r in client.frames if r.msg == reply)


def _seen_by_a_spectator(view: SeatView) -> dict[str, object]:
    """The part of a view a ``table_facts`` reply repeats."""
    return {
        "code": view.code,
        "name": view.name,
        "host": view.seats[view.host_seat].name,
        "host_seat": view.host_seat,
        "public": view.public,
        "rules": view.rules,
        "status": view.status,
        "seats": tuple(
            sm.TableFactsSeat(
                seat=s.seat, kind=s.kind, name=s.name, bot_level=s.bot_level, program=s.program
            )
            for s in view.seats
        ),
        "approval": view.approval,
        "turn_seconds": view.turn_seconds,
    }


def _facts_fields(facts: sm.TableFacts) -> dict[str, object]:
    return {k: getattr(facts, k) for k in sm.TableFacts.model_fields if k not in ("type", "id")}


async def test_a_private_table_is_described_by_its_code_and_by_its_invite_link(
    make_server: ServerFactory,
) -> None:
    async with make_server() as server:
        host = await WireClient.open(server.url, "Olena")
        seated = await host.call(
            cm.CreateTable(
                id=host.next_id(),
                seats=("open", "medium", "hard"),
                rules=SHORT_RULES.model_copy(update={"players": 4}),
                name="Friday cards",
                approval=True,
            )
        )
        friend = await WireClient.open(server.url, "Taras B.")  # no bot is called that
        assert (await friend.join_with(seated.code, _invite_of(seated))).seat == 1
        view = await host.snapshot_where(lambda v: v.seats[1].kind == "human")

        stranger = await WireClient.open(server.url, "Newcomer")
        by_code = await _facts(stranger, seated.code.lower())
        by_link = await _facts(stranger, seated.code, _invite_of(seated))
        assert _facts_fields(by_code) == _facts_fields(by_link) == _seen_by_a_spectator(view)
        assert by_code.name == "Friday cards" and by_code.host == "Olena"
        assert by_code.code == seated.code and not by_code.public and by_code.approval
        assert by_code.status == "waiting"
        assert [(s.kind, s.bot_level) for s in by_code.seats] == [
            ("human", None),
            ("human", None),
            ("bot", "medium"),
            ("bot", "hard"),
        ]
        assert [s.name for s in by_code.seats][:2] == ["Olena", "Taras B."]
        assert by_code.rules.players == 4 and by_code.rules.end == "hands"
        # Asking sat nobody down and took no seat: the table is as it was.
        assert stranger.seat is None
        assert await _facts(friend, seated.code) == by_code.model_copy(
            update={"id": friend.next_id() - 1}
        )
        for c in (host, friend, stranger):
            await c.close()


async def test_the_facts_hold_nothing_a_spectator_may_not_see(
    make_server: ServerFactory,
) -> None:
    """Mid-game, with a kicked player: the reply repeats a spectator's view
    (less: no kicked player's id, no scores, no cards) and carries no
    player id or seat token of anyone."""
    async with make_server() as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("open", "easy"), rules=SHORT_RULES, name="T")
        friend = await WireClient.open(server.url, "Friend")
        await friend.join(seated.code)
        await host.call(cm.Kick(id=host.next_id(), seat=1))
        await host.call(cm.AddBot(id=host.next_id(), seat=1, level="easy"))
        await host.start()
        watcher = await WireClient.open(server.url, "Watcher")
        await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
        view = await watcher.snapshot_where(lambda v: v.status == "playing")
        assert view.kicked and view.seat is None

        stranger = await WireClient.open(server.url, "Stranger")
        facts = await _facts(stranger, seated.code)
        assert _facts_fields(facts) == _seen_by_a_spectator(view)
        raw = _raw_reply(stranger, facts)
        secrets = [player_id_of(c.player_token) for c in (host, friend, watcher)] + [
            host.seat_token,
            friend.seat_token,
            host.player_token,
            seated.table_id,
        ]
        assert all(s and s.encode() not in raw for s in secrets)
        assert set(facts.model_dump()) == {"type", "id"} | set(_seen_by_a_spectator(view))
        assert set(facts.seats[0].model_dump()) == {"seat", "kind", "name", "bot_level", "program"}
        for c in (host, friend, watcher, stranger):
            await c.close()


async def test_a_wrong_code_is_refused_as_join_refuses_it_and_counts_toward_the_lockout(
    make_server: ServerFactory,
) -> None:
    async with make_server(free_code_misses=1) as server:
        host = await WireClient.open(server.url, "Host")
        seated = await host.create(seats=("open", "open", "easy"), rules=SHORT_RULES)
        stranger = await WireClient.open(server.url, "Stranger")
        wrong = "ZZZZZZ" if seated.code != "ZZZZZZ" else "YYYYYY"
        asked = await stranger.error(cm.GetTableFacts(id=stranger.next_id(), code=wrong))
        joined = await stranger.error(cm.JoinTable(id=stranger.next_id(), code=wrong))
        assert (asked.code, asked.message) == (joined.code, joined.message)
        assert asked.code == "no_such_table"
        # Two misses (one by asking, one by joining) with one free: the
        # address now waits, for facts and for joining alike, right code or not.
        assert server.lobby.guard.lookup_wait("127.0.0.1") > 0
        for request in (
            cm.GetTableFacts(id=stranger.next_id(), code=seated.code),
            cm.JoinTable(id=stranger.next_id(), code=seated.code),
        ):
            err = await stranger.error(request)
            assert err.code == "rate_limited" and err.retry_after and err.retry_after > 0
        # A forged link is refused as join refuses it; the real link's holder
        # is answered at once, as joining lets them sit at once.
        forged = f"{seated.table_id}.not-the-secret"
        err = await stranger.error(
            cm.GetTableFacts(id=stranger.next_id(), code=seated.code, invite=forged)
        )
        assert err.code == "no_such_table"
        facts = await _facts(stranger, seated.code, _invite_of(seated))
        assert facts.host == "Host"
        metrics = server.lobby.metrics
        assert metrics is not None
        text = metrics.render().decode()
        assert 'hearts_code_lookups_total{result="missed_code"} 2.0' in text
        assert 'hearts_code_lookups_total{result="missed_invite"} 1.0' in text
        for c in (host, stranger):
            await c.close()


async def test_a_table_another_process_runs_is_described_without_taking_it(
    make_server: ServerFactory, redis_db: str
) -> None:
    """Two server processes on one Redis (a cluster): the table's owner is
    the first; the second answers from the state the owner stored, and
    leaves the table where it runs. A change at the owner shows in the
    next answer."""
    async with (
        make_server(redis_url=redis_db) as owner,
        make_server(redis_url=redis_db) as other,
    ):
        host = await WireClient.open(owner.url, "Host")
        seated = await host.create(seats=("open", "hard"), rules=SHORT_RULES, name="Far")
        stranger = await WireClient.open(other.url, "Stranger")
        before = await _facts(stranger, seated.code)
        assert (before.name, before.host) == ("Far", "Host")
        assert [s.kind for s in before.seats] == ["human", "open", "bot", "open"]
        assert seated.table_id in owner.lobby.actors
        assert seated.table_id not in other.lobby.actors

        friend = await WireClient.open(owner.url, "Friend")
        await friend.join_with(seated.code, _invite_of(seated))
        view = await host.snapshot_where(lambda v: v.seats[1].kind == "human")
        after = await _facts(stranger, seated.code, _invite_of(seated))
        assert _facts_fields(after) == _seen_by_a_spectator(view)
        assert after.seats[1].name == "Friend"
        assert seated.table_id not in other.lobby.actors
        for c in (host, friend, stranger):
            await c.close()
