"""Invite links: what a host shares, and what ``hearts join`` and ``hearts
watch`` accept instead of a bare code.

A table's link is the server's HTTP address followed by the ``join_path``
of a ``seated`` reply: ``http://HOST:PORT/t/CODE#k=SECRET`` for a player
(whoever holds it sits at once, even at a table whose host approves who
sits, and is never throttled), ``http://HOST:PORT/t/CODE`` for a spectator.
The browser client serves that page and opens ``ws://HOST:PORT/ws``
(``wss`` behind ``https``), so a link also names its server.

The secret is the only private part: it appears in the link a player
shares and nowhere else (``TableRef`` leaves it out of its repr, and no
error message here repeats what was typed).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from .session import DEFAULT_SERVER

# The protocol's bounds (protocol.client_messages.InviteCode, InviteSecret).
MAX_CODE_CHARS = 16
MIN_CODE_LETTERS = 4
MAX_SECRET_CHARS = 64
WS_PATH = "/ws"
_TABLE_PATH = re.compile(r"/t/([^/]+)/?")


class BadTableRef(ValueError):
    """What was given is neither an invite code nor a table's link (the
    message says what was expected, never what was typed)."""


@dataclass(frozen=True)
class TableRef:
    """A table as a player names it: its code, and from a link the invite
    secret and the server's WebSocket URL."""

    code: str
    invite: str | None = field(default=None, repr=False)
    server: str | None = None


def parse_table_ref(text: str, invite: str | None = None) -> TableRef:
    """An invite code (``ABC-DEF``) or a link (``http://HOST:PORT/t/CODE``,
    with ``#k=SECRET`` for a player's link). ``invite`` (``--invite``) wins
    over a secret in the link. Raises ``BadTableRef``."""
    text = text.strip()
    server: str | None = None
    secret: str | None = None
    if "/" in text or "#" in text:
        code, secret, server = _read_link(text)
    else:
        code = text
    if invite is not None:
        secret = invite.strip()
    letters = sum(ch.isalnum() for ch in code)
    if letters < MIN_CODE_LETTERS or len(code) > MAX_CODE_CHARS:
        raise BadTableRef("an invite code has six letters and digits, like ABC-DEF")
    if secret is not None and not 0 < len(secret) <= MAX_SECRET_CHARS:
        raise BadTableRef("that invite secret cannot be right: copy the whole link again")
    return TableRef(code=code, invite=secret, server=server)


def _read_link(text: str) -> tuple[str, str | None, str | None]:
    """(code, secret, server) of a table's link."""
    parts = urlsplit(text)
    if parts.scheme not in ("", "http", "https"):
        raise BadTableRef("a table's link starts with http:// or https://")
    match = _TABLE_PATH.fullmatch(parts.path)
    if match is None:
        raise BadTableRef("not a table's link: it looks like http://HOST:PORT/t/CODE#k=…")
    found = parse_qs(parts.fragment).get("k")
    server = ws_url_of(parts.scheme, parts.netloc) if parts.scheme and parts.netloc else None
    return unquote(match.group(1)), found[0] if found else None, server


def ws_url_of(scheme: str, netloc: str) -> str:
    """The WebSocket URL of the server whose pages are at ``scheme://netloc``."""
    return urlunsplit(("wss" if scheme == "https" else "ws", netloc, WS_PATH, "", ""))


def http_base(ws_url: str) -> str:
    """``ws://host:port/ws`` → ``http://host:port`` (``wss`` → ``https``)."""
    parts = urlsplit(ws_url)
    return urlunsplit(("https" if parts.scheme == "wss" else "http", parts.netloc, "", "", ""))


def share_link(ws_url: str, join_path: str) -> str:
    """The link to share: our server's HTTP address and a ``join_path``."""
    return http_base(ws_url) + join_path


def has_secret(link: str) -> bool:
    """Whether ``link`` is a player's link (it seats its holder at once)."""
    return "#k=" in link


def join_command(code: str, server: str, link: str = "") -> str:
    """What a friend runs to join. With a player's link: ``hearts join
    'LINK'`` (the link names the server; ``--server`` only when ours is
    somewhere the link does not say). Without one: ``hearts join ABC-DEF``,
    with ``--server`` unless ours is the default one."""
    if link and has_secret(link):
        command = f"hearts join {shlex.quote(link)}"
        parts = urlsplit(link)
        named = ws_url_of(parts.scheme, parts.netloc)
        return command if not server or server == named else f"{command} --server {server}"
    command = f"hearts join {format_code(code)}"
    return command if not server or server == DEFAULT_SERVER else f"{command} --server {server}"


def format_code(code: str) -> str:
    """``ABCDEF`` as ``ABC-DEF``, easy to read aloud."""
    return f"{code[:3]}-{code[3:]}" if len(code) == 6 else code
