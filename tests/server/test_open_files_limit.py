"""``hearts serve`` raises its open files limit (every client is a socket)."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

# Starts hearts (or other programs) as child processes.
pytestmark = pytest.mark.subprocess


def test_the_soft_open_files_limit_is_raised_to_the_hard_one() -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    low = 256
    if hard != resource.RLIM_INFINITY and hard <= low:
        pytest.skip(f"the hard limit here ({hard}) leaves nothing to raise")

    def lower_soft_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))

    program = (
        "import resource\n"
        "from server.app import raise_open_files_limit\n"
        "before = resource.getrlimit(resource.RLIMIT_NOFILE)[0]\n"
        "got = raise_open_files_limit()\n"
        "print(before, got, *resource.getrlimit(resource.RLIMIT_NOFILE))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=lower_soft_limit,
    ).stdout.split()
    before, got, now_soft, now_hard = (int(x) for x in out)
    assert before == low
    expected = hard if hard != resource.RLIM_INFINITY else max(low, 1 << 20)
    assert got == now_soft == expected
    assert now_hard == hard
