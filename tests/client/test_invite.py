"""Invite codes and links as ``hearts join``/``watch`` take them: a code, a
player's link (code, secret and server), a spectator's link, ``--invite``
and ``--server`` winning over the link; what is not a table says so without
repeating what was typed; the command friends are told to run."""

from __future__ import annotations

import argparse

import pytest

from client.invite import BadTableRef, TableRef, join_command, parse_table_ref, share_link
from tools.cli.clients import take_table_ref
from tools.cli.main import build_parser

SECRET = "0123456789abcdef.AbCdEfGhIjKlMnOpQrStUvWx"


def test_a_code_is_taken_as_typed() -> None:
    assert parse_table_ref(" abc-def ") == TableRef("abc-def")


def test_a_players_link_gives_the_code_the_secret_and_the_server() -> None:
    ref = parse_table_ref(f"http://127.0.0.1:8765/t/ABCDEF#k={SECRET}")
    assert ref == TableRef("ABCDEF", SECRET, "ws://127.0.0.1:8765/ws")
    secure = parse_table_ref(f"https://hearts.example/t/ABCDEF/#k={SECRET}")
    assert secure.server == "wss://hearts.example/ws" and secure.invite == SECRET


def test_a_spectators_link_and_a_bare_path() -> None:
    assert parse_table_ref("http://h:1/t/ABCDEF") == TableRef("ABCDEF", None, "ws://h:1/ws")
    assert parse_table_ref(f"/t/ABCDEF#k={SECRET}") == TableRef("ABCDEF", SECRET, None)


def test_an_invite_given_apart_wins_over_the_links() -> None:
    ref = parse_table_ref(f"http://h:1/t/ABCDEF#k={SECRET}", invite="other.secret")
    assert ref.invite == "other.secret"
    assert parse_table_ref("ABC-DEF", invite=SECRET).invite == SECRET


@pytest.mark.parametrize(
    "text",
    [
        f"ftp://h/t/ABCDEF#k={SECRET}",
        f"http://h/table/ABCDEF#k={SECRET}",
        f"http://h/t/AB#k={SECRET}",
        "ABC",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "http://h/t/ABCDEF#k=" + "x" * 65,
    ],
)
def test_what_is_not_a_table_is_refused_without_repeating_it(text: str) -> None:
    with pytest.raises(BadTableRef) as info:
        parse_table_ref(text)
    assert SECRET not in str(info.value) and "xxxx" not in str(info.value)
    assert "ABCDEF" not in str(info.value)


def test_the_secret_stays_out_of_the_repr() -> None:
    assert SECRET not in repr(parse_table_ref(f"http://h:1/t/ABCDEF#k={SECRET}"))


def test_the_link_to_share_and_the_command_friends_run() -> None:
    path = f"/t/ABCDEF#k={SECRET}"
    link = share_link("ws://127.0.0.1:8765/ws", path)
    assert link == f"http://127.0.0.1:8765{path}"
    assert share_link("wss://hearts.example/ws", path) == f"https://hearts.example{path}"
    # The link names the server: no --server, and quoted for the shell.
    assert join_command(
        "ABCDEF", "ws://10.1.2.3:9000/ws", share_link("ws://10.1.2.3:9000/ws", path)
    ) == (f"hearts join 'http://10.1.2.3:9000{path}'")
    # A server the link does not name (a path behind a proxy) is added.
    behind = "wss://example.org/hearts/ws"
    assert join_command("ABCDEF", behind, share_link(behind, path)) == (
        f"hearts join 'https://example.org{path}' --server {behind}"
    )
    # Without a secret (a spectator's link): the code, --server unless default.
    assert join_command("ABCDEF", "ws://127.0.0.1:8765/ws") == "hearts join ABC-DEF"
    assert join_command("ABCDEF", "wss://h/ws", "https://h/t/ABCDEF") == (
        "hearts join ABC-DEF --server wss://h/ws"
    )


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def test_join_and_watch_take_a_link_and_the_options_still_win() -> None:
    args = parse("join", f"http://h:1/t/ABCDEF#k={SECRET}")
    assert take_table_ref(args) is None
    assert (args.code, args.invite, args.server) == ("ABCDEF", SECRET, "ws://h:1/ws")
    args = parse("watch", f"http://h:1/t/ABCDEF#k={SECRET}", "--server", "ws://x:2/ws")
    assert take_table_ref(args) is None
    assert (args.code, args.invite, args.server) == ("ABCDEF", SECRET, "ws://x:2/ws")
    args = parse("join", "ABC-DEF", "--invite", SECRET)
    assert take_table_ref(args) is None
    assert (args.code, args.invite, args.server) == ("ABC-DEF", SECRET, None)
    args = parse("join", "--invite", SECRET)
    assert take_table_ref(args) == "--invite needs a code or a link"
    args = parse("join", f"http://h:1/nowhere#k={SECRET}")
    problem = take_table_ref(args)
    assert problem is not None and SECRET not in problem
