"""Every seat has one name, the same in every view: bots are named by the
server (from the table's seed and the seat), unique at the table, kept over
a restart and given back when a seat changes hands; people keep theirs,
numbered when someone at the table has it already."""

from __future__ import annotations

from engine.rules import Rules
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import RulesModel
from protocol.view import SeatView
from server.seat_names import BOT_NAMES, LEGACY_BOT_NAMES, bot_name, unique_name
from server.table_state import Seat, TableState

from .conftest import ServerFactory
from .harness import SHORT_RULES, WireClient

TEN_SEATS = RulesModel(end="hands", end_at=1, players=10)


def names(view: SeatView) -> list[str]:
    """Every seat's name in ``view``, in seat order."""
    return [s.name for s in view.seats]


# -- the naming itself -------------------------------------------------------------


def test_a_bot_name_depends_only_on_the_seed_the_seat_and_what_is_taken() -> None:
    """The same seed and seat give the same name; the names come from the list."""
    for seed in (0, 1, 2**62):
        for seat in range(10):
            first = bot_name(seed, seat, ["Host"])
            assert first == bot_name(seed, seat, ["Host"])
            assert first in BOT_NAMES


def test_a_bot_never_takes_a_name_someone_at_the_table_has() -> None:
    """Whatever is taken (in any case), the bot gets another name; with every
    listed name taken, a numbered one."""
    wanted = bot_name(7, 3, [])
    other = bot_name(7, 3, [wanted.upper()])
    assert other != wanted and other in BOT_NAMES
    assert bot_name(7, 3, BOT_NAMES) not in BOT_NAMES


def test_seeds_spread_the_names() -> None:
    """Different tables do not all start with the same bot names."""
    assert len({bot_name(seed, 1, []) for seed in range(50)}) > 5


def test_a_taken_person_name_is_numbered() -> None:
    """Alex twice: "Alex" and "Alex 2"; a third "alex" is "alex 3"."""
    assert unique_name("Alex", ["Bob"]) == "Alex"
    assert unique_name("Alex", ["Alex"]) == "Alex 2"
    assert unique_name("alex", ["Alex", "Alex 2"]) == "alex 3"


def test_a_stored_table_of_level_named_bots_gets_names_the_same_way_each_load() -> None:
    """Tables stored when every Medium bot was "Medium bot" load with bots of
    distinct names, the same on every load."""
    table = TableState(
        table_id="t",
        code="ABCDEF",
        name="old",
        public=False,
        rules=Rules(),
        seed=99,
        seats=[
            Seat(kind="human", name="Ann", player_id="p"),
            *(Seat(kind="bot", name="Medium bot", bot_level="medium") for _ in range(3)),
        ],
    )
    blob = table.to_bytes()
    first = [s.name for s in TableState.from_bytes(blob).seats]
    assert first == [s.name for s in TableState.from_bytes(blob).seats]
    assert len(set(first)) == 4 and not LEGACY_BOT_NAMES & set(first)


# -- at a table ----------------------------------------------------------------------


async def test_every_viewer_sees_the_same_unique_names(make_server: ServerFactory) -> None:
    """At ten seats with nine bots, the host, a friend and a spectator are
    sent the same name for every seat, all different, each bot's from the
    list (its level a separate field)."""
    async with make_server() as server:
        host = await WireClient.open(server.url, "Host")
        friend = await WireClient.open(server.url, "Friend")
        watcher = await WireClient.open(server.url, "Watcher")
        try:
            await host.create(seats=("open", *("medium",) * 8), rules=TEN_SEATS)
            await friend.join(host.code)
            await watcher.call(cm.Watch(id=watcher.next_id(), code=host.code))
            seen = []
            for client in (host, friend, watcher):
                view = await client.snapshot_where(lambda v: v.seats[1].kind == "human")
                seen.append(names(view))
            assert seen[0] == seen[1] == seen[2]
            assert len(set(seen[0])) == 10
            assert seen[0][:2] == ["Host", "Friend"]
            bots = view.seats[2:]
            assert all(s.kind == "bot" and s.bot_level == "medium" for s in bots)
            assert all(s.name in BOT_NAMES for s in bots)
            await host.start()
            started = await friend.snapshot_where(lambda v: v.status == "playing")
            assert names(started) == seen[0]
        finally:
            for client in (host, friend, watcher):
                await client.close()


async def test_a_second_person_of_a_taken_name_is_numbered(make_server: ServerFactory) -> None:
    """A friend named like the host, and one named like a bot, sit under a
    numbered name; the bot keeps its own, and chat lines carry the seat's name."""
    async with make_server() as server:
        host = await WireClient.open(server.url, "Alex")
        try:
            await host.create(seats=("easy", "open", "open"))
            bot = host.view.seats[1].name
            twin = await WireClient.open(server.url, "Alex")
            mimic = await WireClient.open(server.url, bot.lower())
            await twin.join(host.code)
            await mimic.join(host.code)
            view = await host.snapshot_where(lambda v: v.seats[3].kind == "human")
            assert names(view) == ["Alex", bot, "Alex 2", f"{bot.lower()} 2"]
            await twin.call(cm.Chat(id=twin.next_id(), text="hi"))
            _, line = await host.wait_for(lambda m: isinstance(m, sm.ChatMessage))
            assert line.name == "Alex 2"
            await twin.close()
            await mimic.close()
        finally:
            await host.close()


async def test_a_seat_that_changes_hands_gets_its_bot_back(make_server: ServerFactory) -> None:
    """A bot removed for a person, who leaves, and a bot added again: the
    same name as the first bot, and nobody else's name changed on the way."""
    async with make_server() as server:
        host = await WireClient.open(server.url, "Host")
        guest = await WireClient.open(server.url, "Guest")
        try:
            await host.create(seats=("hard", "medium", "easy"))
            before = names(host.view)
            await host.call(cm.RemoveBot(id=host.next_id(), seat=2))
            await guest.join(host.code, seat=2)
            with_guest = await host.snapshot_where(lambda v: v.seats[2].kind == "human")
            assert names(with_guest) == [*before[:2], "Guest", before[3]]
            mark = len(host.frames)
            await guest.call(cm.LeaveSeat(id=guest.next_id()))
            await host.snapshot_where(lambda v: v.seats[2].kind == "open", start=mark)
            mark = len(host.frames)
            await host.call(cm.AddBot(id=host.next_id(), seat=2, level="easy"))
            back = await host.snapshot_where(lambda v: v.seats[2].kind == "bot", start=mark)
            assert names(back) == before
            assert back.seats[2].bot_level == "easy"
        finally:
            await host.close()
            await guest.close()


async def test_a_player_who_leaves_mid_game_is_followed_by_a_bot_of_their_name(
    make_server: ServerFactory,
) -> None:
    """During a game a bot takes a leaving player's seat under their name,
    marked: "Guest (bot)", the level a field of its own."""
    async with make_server() as server:
        host = await WireClient.open(server.url, "Host")
        guest = await WireClient.open(server.url, "Guest")
        try:
            await host.create(seats=("open", "medium", "medium"), rules=SHORT_RULES)
            await guest.join(host.code)
            await host.start()
            await guest.call(cm.LeaveSeat(id=guest.next_id()))
            view = await host.snapshot_where(lambda v: v.seats[1].kind == "bot")
            assert view.seats[1].name == "Guest (bot)"
            assert len(set(names(view))) == 4
        finally:
            await host.close()
            await guest.close()


async def test_names_are_kept_over_a_restart(make_server: ServerFactory, redis_db: str) -> None:
    """A server on Redis is closed mid-game and another started on the same
    Redis: the host comes back to the same names for every seat."""
    async with make_server(redis_url=redis_db) as first:
        host = await WireClient.open(first.url, "Host")
        await host.create(seats=("easy", "medium", "hard"))
        await host.start()
        before = names(await host.snapshot_where(lambda v: v.status == "playing"))
        table_id, token, player = host.table_id, host.seat_token, host.player_token
        await host.close()
    async with make_server(redis_url=redis_db) as second:
        again = await WireClient.open(second.url, "Host", player_token=player)
        try:
            await again.call(
                cm.Resume(id=again.next_id(), table_id=table_id, seat_token=token, last_seq=0)
            )
            after = await again.snapshot_where(lambda v: v.status == "playing")
            assert names(after) == before
            assert len(set(before)) == 4
        finally:
            await again.close()
