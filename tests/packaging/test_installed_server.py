"""The wheel installed alone into a fresh virtualenv, as an operator would:
``hearts --version``, then ``hearts serve`` serves a browser client that
loads without a console error, runs its msgpack codec and creates a table
in Debian's Chromium; /healthz names the version; a headless seat plays a
game against it without Textual."""

from __future__ import annotations

import json
import re
import urllib.request

import msgpack
from playwright.sync_api import Browser, Response

from tests.web.conftest import Problems
from tests.web.helpers import TABLE, create_table

from .conftest import ServeProcess, Venv, project_version

CODE = re.compile(r"^[A-Z0-9]{6}$")
ENCODE_IN_PAGE = """
async () => {
  const { encode, decode } = await import('/vendor/msgpack/index.mjs');
  const packed = encode({ type: 'ping', seq: 7, cards: ['QS', 'AH'] });
  return { packed: Array.from(packed), back: decode(packed) };
}
"""


def test_version_comes_from_pyproject(venv: Venv) -> None:
    done = venv.run("hearts", "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"hearts-online {project_version()}"


def test_it_runs_the_installed_copy_not_this_checkout(venv: Venv) -> None:
    """Guard for every other test here: the modules and the browser's files
    are the virtualenv's."""
    code = "import client, server.http as h; print(h.__file__); print(h.WEB_ROOT)"
    done = venv.run("python", "-c", code)
    assert done.returncode == 0, done.stderr
    module, web_root = done.stdout.split()
    site = str(venv.root / "lib")
    assert module.startswith(site) and web_root.startswith(site), done.stdout


def test_healthz_names_the_version(installed_server: ServeProcess) -> None:
    with urllib.request.urlopen(f"{installed_server.url}/healthz", timeout=10) as reply:
        assert reply.status == 200
        assert json.loads(reply.read()) == {"status": "ok", "version": project_version()}


def test_installed_server_serves_a_working_browser_client(
    installed_server: ServeProcess, browser: Browser
) -> None:
    problems = Problems()
    failed: list[str] = []
    context = browser.new_context(base_url=installed_server.url, locale="en-GB")
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.on("console", problems.console)
    page.on("pageerror", problems.page_error)

    def response(reply: Response) -> None:
        if reply.status >= 400:
            failed.append(f"{reply.status} {reply.url}")

    page.on("response", response)
    try:
        code = create_table(page, "Operator", seats=("easy", "medium", "hard"), hands=1)
        assert CODE.match(code), code
        assert page.get_attribute(TABLE, "data-status") == "waiting"
        # The codec the page imported is the vendored one, and it works.
        result = page.evaluate(ENCODE_IN_PAGE)
        expected = {"type": "ping", "seq": 7, "cards": ["QS", "AH"]}
        assert bytes(result["packed"]) == msgpack.packb(expected)
        assert result["back"] == expected
    finally:
        context.close()
    assert failed == []
    assert problems.messages == [], "\n".join(problems.messages)
    assert "incomplete" not in installed_server.output(), installed_server.output()


def test_headless_seat_plays_a_game_without_textual(
    venv: Venv, installed_server: ServeProcess
) -> None:
    done = venv.run(
        "hearts",
        "host",
        "--server",
        installed_server.ws_url,
        "--seats",
        "easy,easy,easy",
        "--autoplay",
        "easy",
        "--json",
        "--rules",
        "end=hands,end_at=1",
        "--budget-ms",
        "20",
        "--session-file",
        str(venv.home / "session.json"),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert lines[0]["type"] == "table"
    assert lines[-1]["type"] == "game_over"
    scored = [line for line in lines if line["type"] == "hand_scored"]
    assert scored and scored[-1]["totals"] == lines[-1]["totals"]
    assert not [line for line in lines if line["type"] == "refused"]
    assert venv.run("python", "-c", "import textual").returncode != 0
