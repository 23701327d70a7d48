"""``hearts bench page``: a first visit to the home page, in Chromium, until
its name box shows, with the page's module preloads and without them.

The server runs in a child process (memory store, no bots). Each visit is a
new browser context with its cache off, so every file is fetched, over a
network that adds ``--latency-ms`` to each request for the page's files
(Chromium's emulation, as DevTools' throttling; the page itself is answered
through the interception below, in both variants alike). Both variants are served by the same server
through the same interception: "with" passes the page as served, "without"
removes its ``<link rel="modulepreload">`` elements, so the browser finds
the modules one level of imports at a time. The visits alternate between
the two, so the machine's other work falls on both alike.

Straight to the Python server the browser speaks HTTP/1.1, at most six
connections to one host: the preloads' gain there is smaller than behind a
proxy speaking HTTP/2, which this benchmark does not measure.

Needs Playwright (the test extra) and a Chromium (``--chromium``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import time
from typing import Any

from .load import ServerProcess

PRELOAD_LINK = re.compile(rb'<link rel="modulepreload" href="[^"]*">\n?')
VARIANTS = ("with", "without")


def add_bench_page_parser(bench_subparsers: Any) -> argparse.ArgumentParser:
    """Add ``hearts bench page`` to the ``bench`` subcommands."""
    p: argparse.ArgumentParser = bench_subparsers.add_parser(
        "page",
        help="a first visit to the home page in Chromium, with and without module preloads",
    )
    p.add_argument("--runs", type=int, default=9, help="visits per variant and latency")
    p.add_argument(
        "--latency-ms",
        default="0,100",
        metavar="LIST",
        help="emulated latency per request, comma-separated (default 0,100)",
    )
    p.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium to drive")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _visit(browser: Any, url: str, latency_ms: int, strip: bool) -> tuple[float, int]:
    """Seconds from asking for the page to its name box showing, and how
    many module preloads the page had."""
    context = browser.new_context()
    try:
        page = context.new_page()

        def serve(route: Any) -> None:
            reply = route.fetch()
            body = reply.body()  # decoded: the headers must no longer say gzip
            headers = {
                name: value
                for name, value in reply.headers.items()
                if name.lower() not in ("content-encoding", "content-length")
            }
            route.fulfill(
                status=reply.status,
                headers=headers,
                body=PRELOAD_LINK.sub(b"", body) if strip else body,
            )

        page.route(url, serve)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": latency_ms,
                "downloadThroughput": -1,
                "uploadThroughput": -1,
            },
        )
        start = time.monotonic()
        page.goto(url)
        page.wait_for_selector("#player-name", state="visible")
        seconds = time.monotonic() - start
        preloads: int = page.locator('link[rel="modulepreload"]').count()
        return seconds, preloads
    finally:
        context.close()


def measure(port: int, chromium: str, latencies: list[int], runs: int) -> dict[str, Any]:
    """Median and spread of the visits, per latency and variant (ms)."""
    from playwright.sync_api import sync_playwright

    url = f"http://127.0.0.1:{port}/"
    figures: dict[str, Any] = {}
    with sync_playwright() as playwright:
        # A page answered through the interception counts as not local for
        # Chromium's Local Network Access checks, which would then block its
        # WebSocket to 127.0.0.1: both variants go through it, so neither
        # is checked.
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--disable-features=LocalNetworkAccessChecks"]
        )
        try:
            _visit(browser, url, 0, False)  # warm: the server's first gzip, Chromium's start
            for latency in latencies:
                times: dict[str, list[float]] = {variant: [] for variant in VARIANTS}
                preloads: dict[str, int] = {}
                for _ in range(runs):
                    for variant in VARIANTS:
                        seconds, preloads[variant] = _visit(
                            browser, url, latency, variant == "without"
                        )
                        times[variant].append(seconds)
                figures[f"{latency}ms"] = {
                    variant: {
                        "median_ms": round(statistics.median(samples) * 1000),
                        "min_ms": round(min(samples) * 1000),
                        "max_ms": round(max(samples) * 1000),
                        "preloads": preloads[variant],
                    }
                    for variant, samples in times.items()
                }
        finally:
            browser.close()
    return figures


def run_bench_page(args: argparse.Namespace) -> int:
    """``hearts bench page``: print the figures."""
    try:
        latencies = [int(part) for part in str(args.latency_ms).split(",") if part.strip()]
    except ValueError:
        print(
            "hearts bench page: --latency-ms takes whole numbers, comma-separated", file=sys.stderr
        )
        return 2
    if args.runs < 1 or not latencies or min(latencies) < 0:
        print(
            "hearts bench page: --runs must be at least 1 and latencies 0 or more", file=sys.stderr
        )
        return 2
    server = ServerProcess("hearts")
    port = asyncio.run(server.start())
    try:
        figures = measure(port, args.chromium, latencies, args.runs)
    finally:
        asyncio.run(server.stop())
    if args.json:
        print(json.dumps({"runs": args.runs, "figures": figures}))
        return 0
    print(f"first visit until the name box shows, {args.runs} visits each (median, min-max):")
    for latency, variants in figures.items():
        line = " · ".join(
            f"{variant} preloads {v['median_ms']} ms ({v['min_ms']}-{v['max_ms']})"
            for variant, v in variants.items()
        )
        print(f"  latency {latency}: {line}")
    return 0
