"""The lobby and the host's controls: the public listing, statistics after
games (and a rematch), what only the host may do, kicking and leaving."""

from __future__ import annotations

import json
import random

from engine.cards import QUEEN_SPADES
from engine.record import replay
from protocol import client_messages as cm
from protocol import server_messages as sm
from server.app import RunningServer

from .harness import SHORT_RULES, WireClient, play_until


async def listing(client: WireClient) -> dict[str, sm.TableSummary]:
    """The public listing by invite code."""
    reply = await client.call(cm.ListTables(id=client.next_id()))
    assert isinstance(reply, sm.Tables)
    return {t.code: t for t in reply.tables}


async def test_public_listing_shows_waiting_tables_only(server: RunningServer) -> None:
    """A public waiting table is listed with its open seats; a private one
    never is; a table leaves the listing when it starts (or fills up)."""
    host = await WireClient.open(server.url, "Pia")
    public = await host.create(seats=("open", "easy", "open"), public=True, name="Come in")
    private_host = await WireClient.open(server.url, "Quiet")
    private = await private_host.create(seats=("open", "open", "open"))
    browser = await WireClient.open(server.url, "Browser")

    tables = await listing(browser)
    assert private.code not in tables
    entry = tables[public.code]
    assert (entry.table_id, entry.name, entry.host) == (public.table_id, "Come in", "Pia")
    assert (entry.open_seats, entry.bots) == (2, 1)
    assert entry.rules["end_at"] == SHORT_RULES.end_at

    await browser.join(public.code)
    assert (await listing(browser))[public.code].open_seats == 1
    await host.start()
    await host.snapshot_where(lambda v: v.status == "playing")
    assert public.code not in await listing(browser)

    filler_host = await WireClient.open(server.url, "Full")
    full = await filler_host.create(seats=("open", "easy", "easy"), public=True)
    assert full.code in await listing(browser)
    await filler_host.call(cm.AddBot(id=filler_host.next_id(), seat=1, level="medium"))
    assert full.code not in await listing(browser)
    await filler_host.call(cm.RemoveBot(id=filler_host.next_id(), seat=1))
    assert (await listing(browser))[full.code].open_seats == 1
    for c in (host, private_host, browser, filler_host):
        await c.close()


async def test_stats_after_a_game_and_a_rematch(server: RunningServer) -> None:
    """``get_stats`` counts games, wins, hands, points, moons and Q♠ from the
    hands actually played; a rematch adds a second game."""
    player = await WireClient.open(server.url, "Stat")
    fresh = await player.call(cm.GetStats(id=player.next_id()))
    assert isinstance(fresh, sm.Stats) and (fresh.games, fresh.hands) == (0, 0)
    await player.create(seats=("easy", "easy", "medium"), rules=SHORT_RULES)
    await player.start()
    finals = [await play_until(player, random.Random(31))]
    start = len(player.frames)
    await player.call(cm.Rematch(id=player.next_id()))
    await player.wait_for(lambda m: isinstance(m, sm.GameStarted), start=start)
    await player.snapshot_where(lambda v: v.status == "playing", start=start)
    finals.append(await play_until(player, random.Random(32)))

    games = [await player.records(game) for game in (1, 2)]
    assert [len(g) for g in games] == [len(v.hands) for v in finals]
    records = [replay(json.loads(r)) for g in games for r in g]
    points = sum(h.scores[0] for h in records if h.scores is not None)
    stats = await player.call(cm.GetStats(id=player.next_id()))
    assert isinstance(stats, sm.Stats)
    assert stats.games == 2
    assert stats.wins == sum(v.winner == 0 for v in finals)
    assert stats.hands == len(records)
    assert stats.average_points == round(points / len(records), 2)
    assert stats.moons == sum(h.shooter == 0 for h in records)
    assert stats.queens == sum(bool(h.taken[0] >> QUEEN_SPADES & 1) for h in records)
    # Statistics belong to the player (token), not the connection.
    again = await WireClient.open(server.url, "Stat", player_token=player.player_token)
    same = await again.call(cm.GetStats(id=again.next_id()))
    assert same.model_dump(exclude={"id"}) == stats.model_dump(exclude={"id"})
    other = await WireClient.open(server.url, "Other")
    assert (await other.call(cm.GetStats(id=other.next_id()))).games == 0
    for c in (player, again, other):
        await c.close()


async def test_only_the_host_controls_the_table(server: RunningServer) -> None:
    """Bots, kicks and the start are the host's: anyone else gets
    ``not_allowed``; the host's own mistakes get precise codes; nothing
    changes on a refusal."""
    host = await WireClient.open(server.url, "Host")
    seated = await host.create(seats=("open", "open", "open"))
    guest = await WireClient.open(server.url, "Guest")
    await guest.join(seated.code, seat=1)
    state = server.lobby.actors[seated.table_id].state
    before = state.to_bytes()
    for request in (
        cm.AddBot(id=guest.next_id(), seat=2, level="easy"),
        cm.RemoveBot(id=guest.next_id(), seat=2),
        cm.Kick(id=guest.next_id(), seat=0),
        cm.StartGame(id=guest.next_id()),
        cm.Rematch(id=guest.next_id()),
    ):
        err = await guest.error(request)
        assert (err.code, err.message, err.id) == (
            "not_allowed",
            "only the host can do that",
            request.id,
        )
    assert server.lobby.actors[seated.table_id].state.to_bytes() == before

    err = await host.error(cm.AddBot(id=host.next_id(), seat=1, level="easy"))
    assert (err.code, err.message) == ("table_full", "seat 1 is not open")
    err = await host.error(cm.RemoveBot(id=host.next_id(), seat=1))
    assert (err.code, err.message) == ("not_allowed", "there is no bot at that seat")
    err = await host.error(cm.Kick(id=host.next_id(), seat=0))
    assert err.code == "not_allowed"
    err = await host.error(cm.LeaveSeat(id=host.next_id()))
    assert (err.code, err.message) == (
        "not_allowed",
        "the host cannot leave before the game starts",
    )
    err = await guest.error(cm.TakeSeat(id=guest.next_id(), seat=0))
    assert err.code == "table_full"

    await host.call(cm.AddBot(id=host.next_id(), seat=2, level="easy"))
    view = await host.snapshot_where(lambda v: v.seats[2].kind == "bot")
    assert view.seats[2].bot_level == "easy"
    await host.call(cm.RemoveBot(id=host.next_id(), seat=2))
    await host.snapshot_where(lambda v: v.seats[2].kind == "open")
    await guest.call(cm.TakeSeat(id=guest.next_id(), seat=3))
    moved = await guest.snapshot_where(lambda v: v.seat == 3)
    assert moved.seats[1].kind == "open" and moved.seats[3].name == "Guest"

    guest_id = next(m.player_id for m in guest.messages if isinstance(m, sm.Welcome))
    mark, host_mark = len(guest.frames), len(host.frames)
    await host.call(cm.Kick(id=host.next_id(), seat=3))
    view = await host.snapshot_where(lambda v: v.seats[3].kind == "open", start=host_mark)
    assert [(k.name, k.player_id) for k in view.kicked] == [("Guest", guest_id)]
    _, kicked = await guest.wait_for(lambda m: isinstance(m, sm.Kicked), start=mark)
    assert kicked.table_id == seated.table_id and "removed you" in kicked.message
    # Out means out: nothing more from the table, not even chat.
    after_kick = len(guest.frames)
    await host.call(cm.Chat(id=host.next_id(), text="bye"))
    await host.wait_for(lambda m: isinstance(m, sm.ChatMessage) and m.text == "bye")
    err = await guest.error(cm.Chat(id=guest.next_id(), text="let me back"))
    assert err.code == "not_allowed"
    assert all(isinstance(m, sm.Error) for m in guest.messages[after_kick:])
    err = await guest.error(cm.JoinTable(id=guest.next_id(), code=seated.code))
    assert err.code == "kicked"
    err = await guest.error(cm.Watch(id=guest.next_id(), code=seated.code))
    assert err.code == "kicked"
    err = await guest.error(cm.AllowBack(id=guest.next_id(), player_id=guest_id))
    assert err.code == "not_allowed"  # only the host lets anyone back

    await host.call(cm.AllowBack(id=host.next_id(), player_id=guest_id))
    view = await host.snapshot_where(lambda v: v.kicked == ())
    rejoined = await guest.join(seated.code)  # allowed back, the player may sit again
    assert rejoined.seat == 1
    for c in (host, guest):
        await c.close()


async def test_kick_during_a_game_gives_the_seat_to_a_bot(server: RunningServer) -> None:
    """Kicked mid-game, a player's seat goes to a bot for good: the game
    goes on, the kicked player is told and is no longer at the table, and
    the old seat token no longer resumes anything."""
    host = await WireClient.open(server.url, "Host")
    seated = await host.create(seats=("open", "easy", "easy"), rules=SHORT_RULES)
    guest = await WireClient.open(server.url, "Guest")
    await guest.join(seated.code, seat=1)
    await host.start()
    await guest.snapshot_where(lambda v: v.phase == "pass")
    await host.call(cm.Kick(id=host.next_id(), seat=1))
    view = await host.snapshot_where(lambda v: v.seats[1].kind == "bot")
    assert view.seats[1].name == "Guest (bot)" and view.seats[1].bot_level == "medium"
    await guest.wait_for(lambda m: isinstance(m, sm.Kicked))
    err = await guest.error(cm.PassCards(id=guest.next_id(), cards=("2C", "3C", "4C")))
    assert (err.code, err.message) == ("not_allowed", "join a table first")
    final = await play_until(host, random.Random(41))
    assert final.status == "game_over"
    thief = await WireClient.open(server.url, "Guest", player_token=guest.player_token)
    err = await thief.error(
        cm.Resume(id=thief.next_id(), table_id=seated.table_id, seat_token=guest.seat_token)
    )
    assert err.code == "bad_token"
    for c in (host, guest, thief):
        await c.close()


async def test_spectators_watch_but_cannot_act(server: RunningServer) -> None:
    """A spectator sees the table (no hand), may chat, and is refused every
    seat action; a chat line reaches the players with the spectator's name."""
    host = await WireClient.open(server.url, "Host")
    seated = await host.create(seats=("easy", "easy", "easy"), rules=SHORT_RULES)
    watcher = await WireClient.open(server.url, "Eve")
    reply = await watcher.call(cm.Watch(id=watcher.next_id(), code=seated.code))
    assert reply.seat is None and reply.seat_token == ""
    await host.start()
    view = await watcher.snapshot_where(lambda v: v.phase == "pass")
    assert view.seat is None and view.hand == () and view.legal == ()
    err = await watcher.error(cm.PassCards(id=watcher.next_id(), cards=("2C", "3C", "4C")))
    assert err.code == "not_allowed"
    err = await watcher.error(cm.StartGame(id=watcher.next_id()))
    assert err.code == "not_allowed"
    err = await watcher.error(cm.GetRecords(id=watcher.next_id()))
    assert err.code == "not_allowed"
    await watcher.call(cm.Chat(id=watcher.next_id(), text="go go"))
    _, line = await host.wait_for(lambda m: isinstance(m, sm.ChatMessage))
    assert (line.seat, line.name, line.text) == (None, "Eve", "go go")
    await play_until(host, random.Random(43))
    await watcher.wait_for(lambda m: isinstance(m, sm.GameOver))
    for c in (host, watcher):
        await c.close()


async def test_a_repeated_join_gets_the_same_seat_not_a_second_one(server: RunningServer) -> None:
    """A join whose reply was lost (a handover) is sent again: the player is
    given the same seat with a new token, and the old token stops working."""
    host = await WireClient.open(server.url, "Host")
    seated = await host.create(seats=("open", "open", "easy"))
    guest = await WireClient.open(server.url, "Guest")
    first = await guest.join(seated.code)
    again = await WireClient.open(server.url, "Guest", player_token=guest.player_token)
    second = await again.join(seated.code)
    assert second.seat == first.seat
    assert second.seat_token and second.seat_token != first.seat_token
    state = server.lobby.actors[seated.table_id].state
    assert [s.kind for s in state.seats].count("human") == 2  # the host and the guest
    thief = await WireClient.open(server.url, "Old")
    err = await thief.error(
        cm.Resume(id=thief.next_id(), table_id=seated.table_id, seat_token=first.seat_token)
    )
    assert err.code == "bad_token"
    for c in (host, guest, again, thief):
        await c.close()
