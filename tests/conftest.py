"""What every test folder shares: the markers that select parts of the suite,
Debian's Chromium, and the test Redis's key prefixes.

Markers (``pytest -m "not browser and not subprocess"`` is ``make quick``):

* ``browser``: drives Chromium. Given to every test that uses the
  ``browser`` fixture (directly or through another fixture).
* ``redis``: needs the test Redis. Given to every test that uses the
  ``redis_space`` fixture; a test that reaches Redis another way says so.
* ``subprocess``: starts programs (``hearts`` commands, nginx,
  redis-server…). Given to every test under tests/packaging and
  tests/deploy and to every test using a fixture in ``PROCESS_FIXTURES``;
  any other test says so with ``@pytest.mark.subprocess``, and a test that
  starts one without the marker fails saying so (``subprocess.Popen`` is
  watched), so the quick run never starts one by surprise.
* ``slow``: takes several seconds even on an idle machine (whole games,
  failovers). Given to every test under tests/server/cluster (several
  server processes each); other tests are marked by hand.

Chromium: the browser tests (tests/web) and the installed wheel's browser
check (tests/packaging) share one Chromium, started when a test first asks
for ``browser`` and kept while the tests that run next ask for it too. It
is stopped before any other test: Playwright's sync API keeps an event loop
running in the main thread while it lives, which no asyncio test can run
beside (pytest-xdist mixes both kinds on a worker), and it allows only one
instance per thread. Playwright is imported only when a browser starts, so
the rest of the suite runs without it.
"""

from __future__ import annotations

import logging
import secrets
import subprocess
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.ci import unavailable
from tests.redis_space import REDIS_BASE, RedisSpace, delete_prefix, new_space, require_redis

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

TESTS = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

MARKERS = {
    "browser": "drives Chromium through Playwright (automatic: the browser fixture)",
    "redis": "needs the test Redis (automatic: the redis_space fixture)",
    "subprocess": "starts other programs: hearts commands, nginx, redis-server "
    "(automatic: tests/packaging, tests/deploy and the process fixtures)",
    "slow": "takes several seconds even on an idle machine (automatic: tests/server/cluster)",
    "chaos": "kills a Redis Cluster master mid-game (in make test; make chaos runs it alone)",
}
# Folders whose every test starts programs.
PROCESS_FOLDERS = ("packaging", "deploy")
# Folders whose every test is slow.
SLOW_FOLDERS = (("server", "cluster"),)
# Fixtures that start programs for the test that uses them.
PROCESS_FIXTURES = frozenset(
    {
        "servers",
        "aof_redis",
        "redis_cluster",
        "sentinel_set",
        "cluster",
        "tls_redis",
        "tls_sentinel_set",
        "tls_cluster",
    }
)


class Chromium:
    """One Playwright with one headless Chromium, started on demand."""

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def get(self) -> Browser:
        """The running browser (started now if it is not running)."""
        if self._browser is None:
            if not CHROMIUM.exists():
                unavailable(f"{CHROMIUM} is missing (bash .ci/services installs it)")
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
            )
        return self._browser

    def stop(self) -> None:
        """Close the browser and stop Playwright (its event loop with it)."""
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._playwright is not None:
            self._playwright.stop()
            self._playwright = None


class ProcessWatch:
    """Fails a test that starts a program without the ``subprocess`` (or
    ``browser``) marker: wraps ``subprocess.Popen.__init__`` for the run."""

    def __init__(self) -> None:
        self.item: pytest.Item | None = None
        self._original = subprocess.Popen.__init__

    def install(self) -> None:
        """Start watching."""
        watch = self
        original = self._original

        def init(popen: Any, *args: Any, **kwargs: Any) -> None:
            item = watch.item
            if item is not None and not _may_start_programs(item):
                raise pytest.fail.Exception(
                    f"{item.nodeid} starts a program but is not marked: add "
                    "@pytest.mark.subprocess (see tests/conftest.py)"
                )
            original(popen, *args, **kwargs)

        subprocess.Popen.__init__ = init  # type: ignore[method-assign]

    def uninstall(self) -> None:
        """Stop watching."""
        subprocess.Popen.__init__ = self._original  # type: ignore[method-assign]


class LoggingState:
    """The logging set-up as it was: each logger's level, handlers and
    propagation. A test that runs ``hearts serve``'s start in-process
    (``configure_logging``) points the root logger at the standard error
    pytest captured for that test alone; left so, the servers later tests
    run in threads would log into that closed capture ("I/O operation on
    closed file")."""

    def __init__(self) -> None:
        loggers = [logging.getLogger()] + [
            logger
            for logger in logging.Logger.manager.loggerDict.values()
            if isinstance(logger, logging.Logger)
        ]
        self._kept = [
            (logger, logger.level, logger.handlers[:], logger.propagate) for logger in loggers
        ]

    def restore(self) -> None:
        """Put every logger there was back as it was."""
        for logger, level, handlers, propagate in self._kept:
            logger.setLevel(level)
            logger.handlers[:] = handlers
            logger.propagate = propagate


def _may_start_programs(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(name) for name in ("subprocess", "browser"))


CHROMIUM_KEY = pytest.StashKey[Chromium]()
WATCH_KEY = pytest.StashKey[ProcessWatch]()
RUN_PREFIX_KEY = pytest.StashKey[str]()
REDIS_USED_KEY = pytest.StashKey[bool]()


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers; nothing is started yet (the first test that
    asks for ``browser`` starts it). The run's Redis prefix is shared by
    the pytest-xdist workers of one run (``testrunuid``), each adding its
    own name."""
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    config.stash[CHROMIUM_KEY] = Chromium()
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    run = workerinput["testrunuid"][:12] if workerinput else secrets.token_hex(6)
    worker = workerinput["workerid"] if workerinput else "main"
    config.stash[RUN_PREFIX_KEY] = f"hearts-test:{run}:{worker}:"
    watch = ProcessWatch()
    watch.install()
    config.stash[WATCH_KEY] = watch


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add the markers the module docstring says are automatic (first: ``-m``
    selects on them after this)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        parts = item.path.relative_to(TESTS).parts if item.path.is_relative_to(TESTS) else ()
        if "browser" in names:
            item.add_marker(pytest.mark.browser)
        if "redis_space" in names:
            item.add_marker(pytest.mark.redis)
        if names & PROCESS_FIXTURES or (parts and parts[0] in PROCESS_FOLDERS):
            item.add_marker(pytest.mark.subprocess)
        if any(parts[: len(folder)] == folder for folder in SLOW_FOLDERS):
            item.add_marker(pytest.mark.slow)
    items[:] = _run_order(items, _worker_count(config))


def _worker_count(config: pytest.Config) -> int:
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    return int(workerinput["workercount"]) if workerinput else 1


def _rank(item: pytest.Item) -> int:
    """The slow tests without the browser, the slow ones with it, the other
    browser tests, the rest."""
    slow = item.get_closest_marker("slow") is not None
    browser = item.get_closest_marker("browser") is not None
    if slow:
        return 1 if browser else 0
    return 2 if browser else 3


def _run_order(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The order to run in: the longest first, so a run ends on short tests
    and no worker is left finishing a whole game while the others wait.
    pytest-xdist's work stealing (``--dist worksteal``, pyproject.toml) first
    hands each of the ``workers`` an equal run of the list, so the tests
    are dealt round like cards: each run gets its share of the slow and the
    browser tests, in the order of ``_rank`` (then as collected); a worker
    that runs out takes tests from the end of another's, the short ones.
    Within each run the browser tests follow each other, so a worker starts
    Chromium about once (see ``pytest_runtest_setup``)."""
    ranked = sorted(items, key=_rank)  # stable: the collection order within a rank
    return [item for pile in range(workers) for item in ranked[pile::workers]]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Every test leaves logging as it found it (see ``LoggingState``). Around
    the whole protocol, not a fixture: pytest adds its own capturing handler
    for each of a test's phases."""
    state = LoggingState()
    try:
        return (yield)
    finally:
        state.restore()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test that does not use the browser (and before its fixtures),
    stop it: see the module's docstring."""
    item.config.stash[WATCH_KEY].item = item
    if "browser" not in getattr(item, "fixturenames", ()):
        item.config.stash[CHROMIUM_KEY].stop()


def pytest_unconfigure(config: pytest.Config) -> None:
    """The browser does not outlive the run; the Popen watch ends with it."""
    config.stash[CHROMIUM_KEY].stop()
    config.stash[WATCH_KEY].uninstall()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Delete what this run (this worker) left under its Redis prefix: a test
    cleans its own, but one killed by a timeout may not have."""
    prefix = session.config.stash.get(RUN_PREFIX_KEY, None)
    if prefix is None or not session.config.stash.get(REDIS_USED_KEY, False):
        return
    delete_prefix(REDIS_BASE, prefix)


@pytest.fixture
def browser(pytestconfig: pytest.Config) -> Browser:
    """Debian's Chromium, headless (never downloaded: without it the test
    skips locally and fails in CI); shared with the tests around it that use
    it too."""
    return pytestconfig.stash[CHROMIUM_KEY].get()


@pytest.fixture
def redis_space(pytestconfig: pytest.Config) -> Iterator[RedisSpace]:
    """A key prefix of this test's own on the test Redis (see
    tests/redis_space.py); its keys are deleted afterwards. Skips locally,
    fails in CI, when Redis does not answer."""
    require_redis()
    pytestconfig.stash[REDIS_USED_KEY] = True
    space = new_space(pytestconfig.stash[RUN_PREFIX_KEY])
    try:
        yield space
    finally:
        delete_prefix(space.base, space.prefix)
