"""``hearts serve`` as a real child process, for tests that kill a server
and start the same command again.

Blocking calls (Playwright's sync tests use them as they are; asyncio tests
through ``asyncio.to_thread``). ``subprocess.Popen`` rather than asyncio's:
asyncio's ``wait()`` also waits for the stdout pipe to close, which the
server's bot worker processes (spawned children) may keep open for a moment
after a SIGKILL.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[1]
# hearts serve's start-up line, with the port it listens on (bound by the
# server itself: ``--port 0`` picks a free one).
SERVING = re.compile(r"serving http://[^/\s]+:(\d+)/")


def serving_port(text: str) -> int | None:
    """The port in ``text``'s first start-up line of hearts serve, or None."""
    found = SERVING.search(text)
    return int(found.group(1)) if found else None


class ServeProcess:
    """One run of ``hearts serve ARGS`` (start it again for a restart)."""

    def __init__(self, args: list[str], log: Path) -> None:
        """``args`` follow ``hearts serve``; stderr is appended to ``log``.
        With ``--port 0`` in ``args`` the server binds a free port, read
        from its start-up line into ``port`` (pass that port to a restart)."""
        self.args = args
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.port: int | None = None

    def command(self) -> list[str]:
        """The command line (this Python running ``hearts serve ARGS``)."""
        return [sys.executable, "-m", "tools.cli.main", "serve", *self.args]

    def start(self, timeout: float = 30.0) -> str:
        """Start the command and wait for its "serving" log line, which is
        returned. Its standard error is copied to the log file as it comes
        (by a thread, until the process closes it)."""
        self.proc = subprocess.Popen(
            self.command(),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        serving: Future[str] = Future()
        threading.Thread(target=self._copy_log, args=(serving,), daemon=True).start()
        try:
            line = serving.result(timeout)
        except FutureTimeout:
            self.proc.kill()
            line = ""
        self.port = serving_port(line)
        assert self.port is not None, f"hearts serve did not start: {line!r}\n{self.log_text()}"
        return line

    def _copy_log(self, serving: Future[str]) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        with self.log.open("ab") as log:
            for raw in self.proc.stderr:
                log.write(raw)
                log.flush()
                if not serving.done() and b"serving http" in raw:
                    serving.set_result(raw.decode(errors="replace"))
        if not serving.done():
            serving.set_result("")  # it ended without serving

    def kill(self) -> int:
        """SIGKILL it (no chance to close anything) and return its exit status."""
        return self._signal(signal.SIGKILL)

    def stop(self) -> int:
        """SIGTERM it (a clean stop) and return its exit status."""
        return self._signal(signal.SIGTERM)

    def _signal(self, sig: int) -> int:
        assert self.proc is not None, "not started"
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.proc.wait(30)

    def log_text(self) -> str:
        """What it wrote to stderr so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def __enter__(self) -> ServeProcess:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        """Kill it if it still runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)
