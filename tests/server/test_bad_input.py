"""Bad input: malformed frames, strict fields, limits, requests out of order,
illegal moves (floods: test_rate_limits). Each gets a clear error code (with the request id when one could be
read), nothing changes, and the server keeps serving other tables."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable

import msgpack
import pytest

from engine.cards import SUIT_NAMES, card, card_label
from engine.seats import seat_name
from protocol import client_messages as cm
from protocol import server_messages as sm
from protocol.common import PROTOCOL_VERSION, RulesModel
from protocol.view import SeatView
from server.app import RunningServer

from .harness import SHORT_RULES, WireClient, drive_all, play_until, seat_humans

FULL_DECK = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def blob(server: RunningServer, table_id: str) -> bytes:
    """The table's whole state as stored (to prove a refusal changed nothing)."""
    return server.lobby.actors[table_id].state.to_bytes()


async def refused(
    server: RunningServer, client: WireClient, request: cm.Request, code: str, message: str
) -> None:
    """``request`` is refused with exactly ``code`` and ``message``, echoes the
    request id, and leaves the table exactly as it was."""
    before = blob(server, client.table_id)
    err = await client.error(request)
    assert (err.code, err.message, err.id) == (code, message, request.id)
    assert blob(server, client.table_id) == before


@pytest.fixture
async def bystander(server: RunningServer) -> AsyncIterator[Callable[[], Awaitable[SeatView]]]:
    """Another table playing a whole game (one human, three bots) while a test
    misbehaves; the test awaits its final view to show the server kept
    serving it."""
    client = await WireClient.open(server.url, "Bystander")
    await client.create(seats=("easy", "easy", "medium"), rules=RulesModel(end_at=2, end="hands"))
    await client.start()
    task = asyncio.create_task(play_until(client, random.Random(99)))

    async def finished() -> SeatView:
        return await asyncio.wait_for(task, 60)

    yield finished
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await client.close()


async def test_malformed_frames_get_errors_and_change_nothing(
    server: RunningServer, bystander: Callable[[], Awaitable[SeatView]]
) -> None:
    """Garbage, text, wrong shapes, unknown types, oversized frames: an error
    each (id echoed when it could be read); the connection and its table
    carry on."""
    client = await WireClient.open(server.url, "Fuzz")
    await client.create(seats=("easy", "easy", "easy"))
    before = blob(server, client.table_id)
    pack = msgpack.packb
    cases: list[tuple[bytes | str, str, object]] = [
        (b"\xc1\xff\x00garbage", "bad_frame", None),
        ("a text frame", "bad_frame", None),
        (b"\xdd\xff\xff\xff\xff", "bad_frame", None),  # announces a 4-billion array
        (pack([1, 2, 3]), "bad_message", None),
        (pack({"id": 9}), "bad_message", 9),
        (pack({"type": 5, "id": 10}), "bad_message", 10),
        (pack({"type": "fly", "id": 8}), "unknown_type", 8),
        (pack({"type": "play_card", "id": "p-7", "card": "ZZ"}), "bad_message", "p-7"),
        (pack({"type": "ping", "id": 11, "extra": 1}), "bad_message", 11),
        (pack({"type": "ping", "id": True}), "bad_message", None),
        (pack({"type": "chat", "id": 12, "text": "x" * 201}), "bad_message", 12),
        (pack({"type": "ping", "id": 13, "pad": "x" * 17_000}), "frame_too_large", None),
    ]
    for frame, code, rid in cases:
        start = len(client.frames)
        await client.send_raw(frame)
        _, err = await client.wait_for(lambda m: isinstance(m, sm.Error), start=start)
        assert (err.code, err.id) == (code, rid), frame
        assert err.message and "Traceback" not in err.message
    _, unknown = await client.wait_for(
        lambda m: isinstance(m, sm.Error) and m.code == "unknown_type"
    )
    assert unknown.message == "unknown message type 'fly'"
    assert blob(server, client.table_id) == before
    assert isinstance(await client.request(cm.Ping(id="still-here")), sm.Ok)
    await client.start()  # the table still works for this connection too
    final = await bystander()
    assert final.status == "game_over"
    await client.close()


# Valid msgpack a lax reader would take: each refused with the field named.
STRICT_CASES: list[tuple[dict[object, object], str, object, str]] = [
    (
        {"type": "play_card", "id": 21, "card": True},
        "bad_message",
        21,
        "play_card: field 'card': expected a string",
    ),
    (
        {"type": "play_card", "id": 22, "card": b"QS"},
        "bad_message",
        22,
        "play_card: field 'card': expected a string, not binary data",
    ),
    (
        {"type": "play_card", "id": 23, "card": "ZZ"},
        "bad_message",
        23,
        "play_card: field 'card': expected a card like \"QS\" (rank 2-9 T J Q K A, suit C D H S)",
    ),
    (
        {"type": "take_seat", "id": 24, "seat": True},
        "bad_message",
        24,
        "take_seat: field 'seat': expected an integer, not a boolean",
    ),
    (
        {"type": "take_seat", "id": 25, "seat": 1.0},
        "bad_message",
        25,
        "take_seat: field 'seat': expected an integer",
    ),
    (
        {"type": "take_seat", "id": 26, "seat": 10},
        "bad_message",
        26,
        "take_seat: field 'seat': expected at most 9",
    ),
    (
        {"type": "resume", "id": 27, "table_id": "t", "seat_token": "x" * 32, "last_seq": 2**60},
        "bad_message",
        27,
        "resume: field 'last_seq': expected at most 9007199254740991",
    ),
    (
        {"type": "create_table", "id": 28, "public": 1},
        "bad_message",
        28,
        "create_table: field 'public': expected true or false",
    ),
    (
        {"type": "create_table", "id": 29, "rules": {"pass_cycle": ["left"] * 1000}},
        "bad_message",
        29,
        "create_table: field 'rules.pass_cycle': expected at most 8 entries",
    ),
    (
        {"type": "create_table", "id": 30, "rules": {"pass_cycle": []}},
        "bad_message",
        30,
        "create_table: field 'rules.pass_cycle': expected at least 1 entry",
    ),
    (
        {"type": "create_table", "id": 31, "rules": {"pass_count": 3.0}},
        "bad_message",
        31,
        "create_table: field 'rules.pass_count': expected an integer",
    ),
    (
        {"type": "create_table", "id": 32, "rules": {"end_at": 10.0}},
        "bad_message",
        32,
        "create_table: field 'rules.end_at': expected an integer",
    ),
    (
        {"type": "create_table", "id": 33, "rules": {"moon": "both"}},
        "bad_message",
        33,
        "create_table: field 'rules.moon': expected 'add', 'subtract', 'choice', "
        "'jackpot', 'transfer' or 'none'",
    ),
    (
        {"type": "create_table", "id": 34, "rules": [1, 2]},
        "bad_message",
        34,
        "create_table: field 'rules': expected a map",
    ),
    (
        {"type": "pass_cards", "id": 35, "cards": ["2C"] * 14},
        "bad_message",
        35,
        "pass_cards: field 'cards': expected at most 13 entries",
    ),
    (
        {"type": "pass_cards", "id": 36, "cards": ["2C", 3, "4C"]},
        "bad_message",
        36,
        "pass_cards: field 'cards[1]': expected a string",
    ),
    (
        {"type": "chat", "id": 37, "text": "   "},
        "bad_message",
        37,
        "chat: field 'text': must not be empty",
    ),
    (
        {"type": "join_table", "id": 38},
        "bad_message",
        38,
        "join_table: field 'code': required",
    ),
    (
        {"type": "ping", "id": 39, "sneaky": 1},
        "bad_message",
        39,
        "ping: field 'sneaky': unknown field",
    ),
    # Ids: an integer from 0 to 2**53 - 1 or a string of 1-64 characters;
    # anything else is not echoed (the reply's id would be invalid too).
    *[
        (
            {"type": "ping", "id": rid},
            "bad_message",
            None,
            "ping: field 'id': expected an integer from 0 to 2^53-1 or a string of 1 to 64"
            " characters",
        )
        for rid in (True, 1.0, -1, 2**53, b"raw", "", "x" * 65, None, [1])
    ],
    # Map keys: strings, each once.
    (
        {"type": "ping", "id": 40, 7: "seven"},
        "bad_map_key",
        40,
        "map keys must be strings; this frame has an integer as a key",
    ),
    (
        {"type": "create_table", "id": 41, "rules": {b"moon": "add"}},
        "bad_map_key",
        41,
        "map keys must be strings; this frame has binary data as a key",
    ),
]


async def test_strict_input_is_refused_naming_the_field(
    server: RunningServer, bystander: Callable[[], Awaitable[SeatView]]
) -> None:
    """Booleans or floats for integers, bytes for text, ids out of range,
    unbounded or empty arrays, non-string map keys: each gets its own error
    naming the field (id echoed when it is a valid id), nothing changes, the
    connection carries on."""
    client = await WireClient.open(server.url, "Strict")
    await client.create(seats=("easy", "easy", "easy"))
    before = blob(server, client.table_id)
    tables = set(server.lobby.actors)
    for data, code, rid, message in STRICT_CASES:
        start = len(client.frames)
        await client.send_raw(msgpack.packb(data))
        _, err = await client.wait_for(lambda m: isinstance(m, sm.Error), start=start)
        assert (err.code, err.id, err.message) == (code, rid, message), data
    # A key repeated in one map (msgpack allows it; which one would count?).
    start = len(client.frames)
    await client.send_raw(b"\x83\xa4type\xa4ping\xa2id\x2a\xa2id\x2b")
    _, err = await client.wait_for(lambda m: isinstance(m, sm.Error), start=start)
    assert (err.code, err.message) == ("bad_message", "the key 'id' appears twice in one map")
    assert blob(server, client.table_id) == before
    assert set(server.lobby.actors) == tables  # no create_table got through
    assert isinstance(await client.request(cm.Ping(id="still-here")), sm.Ok)
    assert (await bystander()).status == "game_over"
    await client.close()


HELLO_REPEATED = (
    "this connection has already said hello; away from a table a repeated hello may only"
    " change your name, with the same player token"
)


async def test_a_second_hello_is_refused_and_changes_nothing(server: RunningServer) -> None:
    """Who a connection is is settled by its first ``hello``: another one
    with another player's token, or any at a table (even a mere rename), is
    refused with ``hello_repeated``; the seat keeps its name and the
    connection its player id and statistics."""
    client = await WireClient.open(server.url, "Ann")
    await client.create(seats=("easy", "easy", "easy"))
    other = await WireClient.open(server.url, "Bob")
    stats_before = await client.call(cm.GetStats(id=client.next_id()))
    before = blob(server, client.table_id)
    for token in (other.player_token, client.player_token):
        err = await client.error(
            cm.Hello(
                id=client.next_id(), version=PROTOCOL_VERSION, name="Mallory", player_token=token
            )
        )
        assert (err.code, err.message) == ("hello_repeated", HELLO_REPEATED)
    assert not any(isinstance(m, sm.Welcome) for m in client.messages[1:])
    assert blob(server, client.table_id) == before
    # Still Ann at seat 0, with Ann's statistics (not Bob's identity).
    await client.call(cm.Chat(id=client.next_id(), text="who am I?"))
    _, line = await client.wait_for(lambda m: isinstance(m, sm.ChatMessage))
    assert (line.name, line.seat) == ("Ann", 0)
    assert client.view.seats[0].name == "Ann"
    assert await client.call(cm.GetStats(id=client.next_id())) == stats_before.model_copy(
        update={"id": client.messages[-1].id}
    )
    await other.close()
    await client.close()


async def test_away_from_a_table_a_repeated_hello_may_only_rename(server: RunningServer) -> None:
    """The browser client renames its player before creating or joining a
    table with another hello (same player token): that is answered with the
    same player id, and the table it creates then knows the new name. A
    repeated hello naming another player, or without a token, is refused."""
    client = await WireClient.open(server.url, "Player")
    first = next(m for m in client.messages if isinstance(m, sm.Welcome))
    other = await WireClient.open(server.url, "Bob")
    for token in (other.player_token, None):
        err = await client.error(
            cm.Hello(id=client.next_id(), version=PROTOCOL_VERSION, name="Eve", player_token=token)
        )
        assert (err.code, err.message) == ("hello_repeated", HELLO_REPEATED)
    renamed = await client.call(
        cm.Hello(
            id=client.next_id(),
            version=PROTOCOL_VERSION,
            name="Fedir",
            player_token=client.player_token,
        )
    )
    assert isinstance(renamed, sm.Welcome)
    assert (renamed.player_id, renamed.player_token) == (first.player_id, first.player_token)
    await client.create(seats=("easy", "easy", "easy"))
    assert client.view.seats[0].name == "Fedir"
    await other.close()
    await client.close()


async def test_frame_over_the_transport_limit_closes_with_1009(
    server: RunningServer, bystander: Callable[[], Awaitable[SeatView]]
) -> None:
    """Above ``transport_max_bytes`` the WebSocket layer hangs up with 1009
    (message too big); other clients are unaffected."""
    big = await WireClient.open(server.url, "Big")
    await big.send_raw(b"\x00" * (server.config.transport_max_bytes + 1))
    await asyncio.wait_for(big.closed.wait(), 10)
    assert big.close_code == 1009
    other = await WireClient.open(server.url, "Other")
    assert isinstance(await other.request(cm.Ping(id=1)), sm.Ok)
    assert (await bystander()).status == "game_over"
    await other.close()


async def test_hello_first_and_the_right_version(server: RunningServer) -> None:
    """Requests before ``hello`` get ``hello_required``; an unknown protocol
    version gets ``bad_version`` and leaves the connection unwelcomed."""
    client = await WireClient.open(server.url, "Early", hello=False)
    err = await client.error(cm.Ping(id=1))
    assert (err.code, err.id) == ("hello_required", 1)
    err = await client.error(cm.CreateTable(id="c"))
    assert (err.code, err.id) == ("hello_required", "c")
    err = await client.error(cm.Hello(id=2, version=PROTOCOL_VERSION + 1, name="Early"))
    assert (err.code, err.id) == ("bad_version", 2)
    assert str(PROTOCOL_VERSION) in err.message
    err = await client.error(cm.ListTables(id=3))
    assert err.code == "hello_required"
    welcome = await client.request(cm.Hello(id=4, version=PROTOCOL_VERSION, name="Early"))
    assert isinstance(welcome, sm.Welcome) and welcome.version == PROTOCOL_VERSION
    assert isinstance(await client.request(cm.Ping(id=5)), sm.Ok)
    await client.close()


async def test_unknown_invite_code(server: RunningServer) -> None:
    """Joining or watching a code nobody has: ``no_such_table``."""
    client = await WireClient.open(server.url, "Lost")
    err = await client.error(cm.JoinTable(id=1, code="zzzz-zz"))
    assert (err.code, err.id, err.message) == ("no_such_table", 1, "no table has the code ZZZZ-ZZ")
    err = await client.error(cm.Watch(id=2, code="ABCDEF"))
    assert (err.code, err.id) == ("no_such_table", 2)
    err = await client.error(cm.PlayCard(id=3, card="2C"))
    assert (err.code, err.id) == ("not_allowed", 3)
    await client.close()


def why_illegal(view: SeatView, text: str) -> tuple[str, str]:
    """The (code, sentence) the rules give for playing ``text`` (held, not
    legal) in ``view``, worked out independently of the engine."""
    hand = view.hand
    if not view.trick:
        if not view.tricks:
            return "must_lead_first_card", "the first trick must be led with 2♣"
        return "hearts_not_broken", "hearts are not broken yet"
    led = view.trick[0].card[1]
    if any(c[1] == led for c in hand):
        suit = SUIT_NAMES["CDHS".index(led)]
        return "must_follow_suit", f"you must follow suit (you hold {suit})"
    return "first_trick_points", "no hearts or Q♠ on the first trick"


async def test_illegal_moves_get_the_engines_sentences(server: RunningServer) -> None:
    """Four humans play one hand; before every legal move the test tries the
    illegal ones the position allows and checks each exact refusal (code,
    sentence, id) and that the table did not change."""
    clients = await seat_humans(server.url, rules=SHORT_RULES)
    host = clients[0]
    await host.start()
    rng = random.Random(17)
    seen: set[str] = set()

    # Passing.
    for seat, client in enumerate(clients):
        view = await client.snapshot_where(lambda v: v.phase == "pass")
        hand = list(view.hand)
        absent = next(c for c in FULL_DECK if c not in hand)
        await refused(
            server,
            client,
            cm.PlayCard(id=client.next_id(), card=hand[0]),
            "wrong_phase",
            "cards are being passed; play starts after the pass",
        )
        await refused(
            server,
            client,
            cm.PassCards(id=client.next_id(), cards=tuple(hand[:2])),
            "bad_pass",
            "pass exactly 3 cards",
        )
        await refused(
            server,
            client,
            cm.PassCards(id=client.next_id(), cards=(hand[0], hand[0], hand[1])),
            "bad_pass",
            "pass 3 different cards",
        )
        await refused(
            server,
            client,
            cm.PassCards(id=client.next_id(), cards=(hand[0], hand[1], absent)),
            "card_not_held",
            f"you do not hold {card_label(card(absent))}",
        )
        await refused(
            server,
            client,
            cm.MoonChoice(id=client.next_id(), choice="add"),
            "bad_moon_choice",
            "there is no moon choice to make",
        )
        await refused(
            server,
            client,
            cm.Ready(id=client.next_id()),
            "not_now",
            "there is no hand to wait for",
        )
        await client.call(cm.PassCards(id=client.next_id(), cards=tuple(hand[3:6])))
        if seat < 3:
            await refused(
                server,
                client,
                cm.PassCards(id=client.next_id(), cards=tuple(hand[6:9])),
                "bad_pass",
                "you have already passed",
            )
    await refused(
        server,
        clients[3],
        cm.PassCards(id=clients[3].next_id(), cards=("2C", "3C", "4C")),
        "wrong_phase",
        "the cards have already been passed",
    )
    await refused(
        server, host, cm.StartGame(id=host.next_id()), "not_now", "the game has already started"
    )

    # Playing: every seat gets a snapshot at every step, so "the first
    # snapshot at or after seq" is the same table state for all four.
    seq = (await host.snapshot_where(lambda v: v.phase == "play")).seq
    while True:
        views = [await c.snapshot_where(lambda v, s=seq: v.seq >= s) for c in clients]  # type: ignore[misc]
        if views[0].phase != "play":
            break
        turn = views[0].turn
        assert turn is not None
        view, mover = views[turn], clients[turn]
        holding = [s for s in range(4) if s != turn and views[s].hand]
        if holding:  # nobody else holds a card on the last play of a hand
            other = clients[holding[0]]
            await refused(
                server,
                other,
                cm.PlayCard(id=other.next_id(), card=views[holding[0]].hand[0]),
                "not_your_turn",
                f"it is {seat_name(turn, 4)}'s turn",
            )
            seen.add("not_your_turn")
        absent = next(c for c in FULL_DECK if c not in view.hand)
        await refused(
            server,
            mover,
            cm.PlayCard(id=mover.next_id(), card=absent),
            "card_not_held",
            f"you do not hold {card_label(card(absent))}",
        )
        for text in sorted(set(view.hand) - set(view.legal))[:2]:
            code, sentence = why_illegal(view, text)
            await refused(server, mover, cm.PlayCard(id=mover.next_id(), card=text), code, sentence)
            seen.add(code)
        start = len(mover.frames)
        await mover.call(cm.PlayCard(id=mover.next_id(), card=rng.choice(view.legal)))
        seq = (await mover.snapshot_where(lambda v: True, start=start)).seq

    assert {"not_your_turn", "must_lead_first_card", "must_follow_suit"} <= seen
    # A tie for the lowest total plays on: finish the game, whatever it takes.
    final = (await drive_all(clients, 18))[0]

    # A finished table refuses play and keeps its state.
    hand = final.hand
    assert final.winner is not None and not hand
    await refused(
        server, host, cm.PlayCard(id=host.next_id(), card="2C"), "wrong_phase", "the hand is over"
    )
    await refused(
        server,
        host,
        cm.PassCards(id=host.next_id(), cards=("2C", "3C", "4C")),
        "wrong_phase",
        "the cards have already been passed",
    )
    await refused(
        server, host, cm.Ready(id=host.next_id()), "not_now", "there is no hand to wait for"
    )
    await refused(
        server, host, cm.StartGame(id=host.next_id()), "not_now", "the game has already started"
    )
    await refused(
        server,
        host,
        cm.AddBot(id=host.next_id(), seat=1, level="easy"),
        "not_now",
        "bots are added before the game starts",
    )
    await refused(
        server,
        clients[1],
        cm.Rematch(id=clients[1].next_id()),
        "not_allowed",
        "only the host can do that",
    )
    for c in clients:
        await c.close()
