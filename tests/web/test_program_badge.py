"""A seat played by a program (``hearts bot``) carries a "program" badge on
every page at the table, never shown as a person's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import expect

from .conftest import DESKTOP, NewPage, ServerThread, shoot
from .helpers import TABLE, create_table

REPO = Path(__file__).resolve().parents[2]


def test_a_program_seat_has_a_badge(new_page: NewPage, server: ServerThread) -> None:
    host = new_page(viewport=DESKTOP)
    code = create_table(host, "Hana", seats=("open", "easy", "easy"), hands=1)
    ws_url = server.url.replace("http://", "ws://") + "/ws"
    command = [sys.executable, "-m", "tools.cli.main", "bot", "--server", ws_url]
    command += ["--code", code, "--seat", "1", "--bot", "bots.interface:medium", "--name", "Robo"]
    program = subprocess.Popen(
        command,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        left = host.locator('.seat[data-pos="left"]')
        # A new Python process imports the client before it joins: under a
        # loaded machine that alone took longer than Playwright's default 5 s.
        expect(left).to_contain_text("Robo", timeout=60_000)
        expect(left.locator(".badge.program")).to_have_text("⚙ program")
        expect(host.locator('.seat[data-pos="bottom"] .badge.program')).to_have_count(0)
        expect(host.locator('.seat[data-pos="top"] .badge.program')).to_have_count(0)
        expect(host.locator(f'{TABLE}[data-status="waiting"]')).to_have_count(1)
        shoot(host, "program-seat")
    finally:
        program.kill()
        program.wait(10)
