"""Running the shipped nginx site (deploy/nginx/hearts.conf) on 127.0.0.1.

nginx needs resolvable upstreams and a free port, so tests run a copy in a
temporary folder: only its upstream servers and its listen address change,
every proxy line stays as shipped. Used by the deploy checks and by the
chaos test that puts three real servers behind it.
"""

from __future__ import annotations

import contextlib
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from .helpers import NGINX_CONF

UPSTREAM_SERVER = re.compile(r"^(\s*)server\s+hearts\d+:8765(.*)$", re.MULTILINE)


def conf_text() -> str:
    """The shipped site config."""
    return NGINX_CONF.read_text(encoding="utf-8")


def site_with(upstreams: Sequence[str], port: int | None = None, site: str | None = None) -> str:
    """The site with its upstream servers replaced by ``upstreams`` (each
    keeping the shipped options) and, given ``port``, listening on
    127.0.0.1:``port`` instead of port 80."""
    site = conf_text() if site is None else site
    shipped = UPSTREAM_SERVER.findall(site)
    assert shipped, "the site names no upstream server"
    indent, options = shipped[0]
    lines = "\n".join(f"{indent}server {address}{options}" for address in upstreams)
    site = UPSTREAM_SERVER.sub("", site, count=len(shipped) - 1)
    site = UPSTREAM_SERVER.sub(lambda _: lines, site, count=1)
    if port is not None:
        site = site.replace("listen 80 default_server;", f"listen 127.0.0.1:{port};")
        assert f"127.0.0.1:{port}" in site
    return site


def write_main_config(folder: Path, site: str) -> Path:
    """A main nginx.conf including ``site``, every path nginx writes inside
    ``folder``."""
    (folder / "hearts.conf").write_text(site, encoding="utf-8")
    main = folder / "nginx.conf"
    main.write_text(
        f"""
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/hearts.conf;
}}
""",
        encoding="utf-8",
    )
    return main


@contextlib.contextmanager
def running_nginx(nginx: str, main: Path, port: int) -> Iterator[None]:
    """nginx in the foreground on 127.0.0.1:``port`` until the block ends."""
    folder = main.parent
    files = ["-p", str(folder), "-e", str(folder / "error.log"), "-c", str(main)]
    proc = subprocess.Popen(
        [nginx, *files, "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"nginx did not start: {err}")
            time.sleep(0.05)  # polling for the port to open
        yield
    finally:
        proc.send_signal(signal.SIGQUIT)  # graceful stop of the master we started
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        if proc.stderr:
            proc.stderr.close()
