"""How the app opens its session and the host's form: a session for the
command (one that keeps or only borrows the saved seat), ``hearts play``'s
session on its own server, and the form that describes a table to host."""

from __future__ import annotations

from pathlib import Path

from client.session import ClientSession, RequestFailed, SavedSession

from .i18n import Translator
from .launch import Launch
from .screens.host_setup import HostSetupScreen, TableSpec


def new_session(launch: Launch, url: str, name: str) -> ClientSession:
    """The session the command plays through (not yet connected)."""
    if launch.mode == "watch" or (launch.mode == "join" and not launch.code):
        # Watching, or looking at the list, must not cost the saved seat:
        # the session starts without its file and only borrows our player
        # token; the app hands it the file once a seat is taken.
        session = ClientSession(url, name, max_backoff=launch.max_backoff)
        session.saved.player_token = SavedSession.load(launch.session_file).player_token
        return session
    # Hosting or joining keeps a saved seat in the file until the server
    # grants the new one (a wrong code must not cost it).
    return ClientSession(
        url,
        name,
        session_file=launch.session_file,
        max_backoff=launch.max_backoff,
        resume_saved=launch.mode == "resume",
    )


async def play_session(launch: Launch, url: str, name: str, path: Path) -> ClientSession:
    """``hearts play`` on its own server: connected, back at the game saved
    in ``path`` if the server still has it (else a new one is to be
    created)."""
    saved = SavedSession.load(path)
    backoff = launch.max_backoff
    session = ClientSession(url, name, session_file=path, max_backoff=backoff)
    try:
        await session.connect()
        return session
    except RequestFailed:
        if not (saved.table_id and saved.seat_token):
            raise
        await session.close()
    # The saved game is gone (it expired): start afresh, forgetting it.
    session = ClientSession(url, name, session_file=path, max_backoff=backoff)
    session.forget_table()
    await session.connect()
    return session


def host_form(t: Translator, spec: TableSpec) -> HostSetupScreen:
    """The form to host a table, filled in from ``spec``."""
    return HostSetupScreen(
        t,
        spec.name,
        spec.seats,
        spec.rules,
        public=spec.public,
        approval=spec.approval,
        turn_seconds=spec.turn_seconds,
    )
