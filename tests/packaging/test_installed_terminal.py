"""The terminal client is the ``tui`` extra: the wheel alone has no Textual
and its interactive commands say how to get it (exit 2, no traceback);
with ``hearts-online[tui]`` installed, ``hearts play`` runs in a terminal
(a pseudo-terminal here) and deals a hand. ``hearts bench engine`` without
the ``openspiel`` extra says how to install it."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import termios
import threading
import time

import pytest

from .conftest import Venv

ANSI = re.compile(rb"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")
SCREEN_TIMEOUT = 60.0
TUI_HINT = "pip install 'hearts-online[tui]'"


@pytest.mark.parametrize(
    "args",
    [("play",), ("host",), ("join", "ABC-DEF"), ("resume",), ("watch", "ABC-DEF")],
    ids=lambda args: args[0],
)
def test_interactive_commands_without_textual_say_how_to_install_it(
    venv: Venv, args: tuple[str, ...]
) -> None:
    done = venv.run("hearts", *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert TUI_HINT in done.stderr
    assert "Traceback" not in done.stderr
    if args[0] in ("host", "join", "resume"):
        assert "--autoplay" in done.stderr  # these can still play by bot
    assert venv.run("python", "-c", "import textual").returncode != 0


def test_bench_engine_without_openspiel_says_how_to_install_it(venv: Venv) -> None:
    done = venv.run("hearts", "bench", "engine", "--seconds", "0.05")
    assert done.returncode == 0, done.stderr
    assert "checked API" in done.stdout and "playout kernel" in done.stdout
    assert "pip install 'hearts-online[openspiel]'" in done.stdout


class Terminal:
    """A program on a pseudo-terminal of 120x40, its screen output collected
    (escape sequences dropped) by a reader thread."""

    def __init__(self, args: list[str], venv: Venv) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        env = venv.env()
        env["TERM"] = "xterm-256color"
        self.proc = subprocess.Popen(
            args,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=venv.home,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.raw = bytearray()
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: the program closed the terminal
                data = b""
            with self.changed:
                self.raw.extend(data)
                self.changed.notify_all()
            if not data:
                return

    def text(self) -> str:
        with self.changed:
            return ANSI.sub(b"", bytes(self.raw)).decode("utf-8", "replace")

    def wait_for(self, pattern: str, timeout: float = SCREEN_TIMEOUT) -> re.Match[str]:
        """Until the output shows ``pattern`` (a regex); fails after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                found = re.search(
                    pattern, ANSI.sub(b"", bytes(self.raw)).decode("utf-8", "replace")
                )
                if found:
                    return found
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    pytest.fail(f"no {pattern!r} on the screen:\n{self.text()[-3000:]}")
                self.changed.wait(left)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        os.close(self.master)


def test_play_runs_with_the_tui_extra(tui_venv: Venv) -> None:
    assert tui_venv.run("python", "-c", "import textual").returncode == 0
    term = Terminal([str(tui_venv.bin / "hearts"), "play", "--fast", "--lang", "en"], tui_venv)
    try:
        # The table screen, laid out by the packaged stylesheet, with a hand dealt.
        term.wait_for(r"Hearts · table [A-Z0-9]{3}-[A-Z0-9]{3} · hand 1")
        # The seat across, by place, and its bot by the name the server gave it.
        term.wait_for(r"╭─ ↑ across ─")
        term.wait_for(r"│\w+ · bot · Medium")
        term.wait_for(r"Pass left")
        term.type(b"\x11")  # Ctrl+Q: Textual's quit
        assert term.proc.wait(timeout=30) == 0, term.text()[-3000:]
    finally:
        term.close()
    assert "Traceback" not in term.text()
