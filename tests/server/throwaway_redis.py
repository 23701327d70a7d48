"""A redis-server of one test's own, on a free port: for tests that stop it,
pause it (SIGSTOP) or give it a password, which must never happen to the
shared test Redis."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from redis import Redis
from redis.exceptions import RedisError

from tests.ci import in_ci
from tests.ports import free_port


class ThrowawayRedis:
    """One redis-server process (no persistence) on 127.0.0.1."""

    def __init__(self, workdir: Path, password: str | None = None) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.password = password
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its URL (with the password, if it has one)."""
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it and wait until it answers."""
        binary = shutil.which("redis-server")
        if binary is None:
            if in_ci():
                pytest.fail("redis-server is not installed")
            pytest.skip("redis-server is not installed")
        args = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(self.workdir)]  # fmt: skip
        if self.password:
            args += ["--requirepass", self.password]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        client = Redis(port=self.port, password=self.password)
        deadline = time.monotonic() + 10
        try:
            while True:
                try:
                    if client.ping():
                        return
                except (RedisError, OSError):  # not listening yet
                    pass
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.02)  # polling for the port to open
        finally:
            client.close()

    def pause(self) -> None:
        """SIGSTOP: connections stay open, nothing is answered."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)

    def stop(self) -> None:
        """Stop it (resumed first, so that it can)."""
        if self.proc is None:
            return
        self.resume()
        self.proc.terminate()
        self.proc.wait(10)
        self.proc = None
