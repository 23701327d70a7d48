"""The browser loads every file of the client by its content-hashed name
(server.hashed_urls), plays as ever with them, and a second visit takes
them from its cache without asking the server."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Request, expect

from .conftest import DESKTOP, NewPage
from .helpers import create_table, pass_three, play_legal, start

HASHED = re.compile(r"\.[0-9a-f]{16}\.[a-z]+$")


class AccessPaths(logging.Handler):
    """The paths of the server's access lines (``hearts.access``): what
    reached the server, as against what the browser took from its cache."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.paths: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        fields = getattr(record, "fields", {})
        if fields.get("kind") == "http":
            self.paths.append(str(fields["path"]))


@pytest.fixture
def served() -> Iterator[AccessPaths]:
    """The server's access lines while the test runs."""
    logger = logging.getLogger("hearts.access")
    handler, level = AccessPaths(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


def test_modules_load_by_hashed_names_and_come_from_cache_next_time(
    new_page: NewPage, served: AccessPaths
) -> None:
    page = new_page(viewport=DESKTOP)
    requested: list[str] = []
    modules: list[str] = []

    def note(request: Request) -> None:
        path = urlsplit(request.url).path
        if request.resource_type in ("script", "stylesheet"):
            requested.append(path)
        if path.endswith((".js", ".mjs")):
            modules.append(path)

    page.on("request", note)
    create_table(page, "Ada", hands=1)
    start(page)
    pass_three(page)
    play_legal(page)
    expect(page.locator(".hand .card")).to_have_count(12)
    # Every script and stylesheet, the lazily imported language and the
    # modules that net.js imports (msgpack, the generated exchanges.js)
    # included, by its hashed name.
    assert requested, "the page loaded no script"
    assert [path for path in requested if not HASHED.search(path)] == []
    stems = {HASHED.sub("", path) for path in requested}
    for stem in (
        "/js/main",
        "/js/state",
        "/js/exchanges",
        "/js/lang/en",
        "/vendor/msgpack/index",
        "/css/style",
    ):
        assert stem in stems, (stem, sorted(stems))
    # Every module the page imports statically was named by a preload and
    # fetched once (a preload under another URL than the import resolves
    # to would be fetched twice); only the page's script and the language,
    # imported when needed, were not preloaded.
    preloaded = page.eval_on_selector_all(
        'link[rel="modulepreload"]', "els => els.map(e => new URL(e.href).pathname)"
    )
    assert len(preloaded) > 30, preloaded
    assert sorted(modules) == sorted(set(modules)), "a module was fetched twice"
    assert set(preloaded) <= set(modules)
    late = {HASHED.sub("", path) for path in set(modules) - set(preloaded)}
    assert late == {"/js/main", "/js/lang/en"}, late
    first_visit = [path for path in served.paths if HASHED.search(path)]
    assert set(first_visit) >= set(requested)
    # A second visit: the page is revalidated, the hashed files are not asked for.
    served.paths.clear()
    requested.clear()
    page.goto("/")
    # The page takes its seat again (the seat it keeps in localStorage).
    page.wait_for_selector('#table[data-status="playing"] .hand .card')
    expect(page.locator("#conn-status")).to_have_attribute("data-status", "online")
    assert requested, "the browser loaded no script on the second visit"
    assert "/" in served.paths
    assert [path for path in served.paths if HASHED.search(path)] == []
