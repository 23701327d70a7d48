"""docs/asyncapi.yaml: the AsyncAPI project's own parser (npm
``@asyncapi/parser``, installed by ``npm ci`` from the lock file, as
``make test`` does) takes it without an error or a warning, and it says
what the protocol is: each request with its replies and refusals, each
event with ``seq``. Needs Node and the npm packages: a skip on a developer
machine, a failure in CI."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from protocol.exchanges import EXCHANGES, message_type
from protocol.refusals import NOT_NOW_REASONS
from tests.ci import unavailable
from tools.maintenance import protocol_docs as docs

# Starts other programs (tests/conftest.py, markers).
pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[3]
CHECK = Path(__file__).with_name("asyncapi_check.mjs")


def _parse(*paths: Path) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        unavailable("node is not installed")
    if not (ROOT / "node_modules" / "@asyncapi" / "parser").is_dir():
        unavailable("the npm packages are missing: npm ci")
    done = subprocess.run(
        [node, str(CHECK), *map(str, paths)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.stdout, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.slow
def test_the_asyncapi_parser_takes_the_document_and_refuses_a_broken_one(
    tmp_path: Path,
) -> None:
    broken = yaml.safe_load((ROOT / "docs" / "asyncapi.yaml").read_text())
    del broken["components"]["schemas"]["CardPlayed"]
    broken_path = tmp_path / "broken.yaml"
    broken_path.write_text(yaml.safe_dump(broken))
    ours, theirs = _parse(ROOT / "docs" / "asyncapi.yaml", broken_path)
    assert ours["errors"] == [] and ours["warnings"] == []
    kinds = len(docs.client_models()) + len(docs.server_models())
    assert ours["messages"] == kinds
    assert "card_played" in ours["sent"] and "hello" not in ours["sent"]
    assert any("CardPlayed" in e for e in theirs["errors"])


def test_requests_name_their_replies_refusals_and_events_their_seq() -> None:
    document = docs.asyncapi()
    operations = document["operations"]
    schemas = document["components"]["schemas"]
    for model, exchange in EXCHANGES.items():
        kind = message_type(model)
        op = operations[kind]
        assert op["action"] == "receive"
        replies = {m["$ref"].rsplit("/", 1)[1] for m in op["reply"]["messages"]}
        assert replies == {*(message_type(m) for m in exchange.reply), "error"}
        wanted = {r for r, case in NOT_NOW_REASONS.items() if kind in case.requests}
        assert set(op["x-not-now-reasons"]) == wanted
    for model in docs.server_models():
        if docs.is_event(model):
            assert operations[message_type(model)]["action"] == "send"
            assert "seq" in schemas[model.__name__]["required"]
