"""client/web/js/exchanges.js says what protocol/exchanges.py says: each
request's reply types, every reply type and the protocol version (the
committed file is checked against the generator in test_protocol_docs)."""

from __future__ import annotations

import json
import re

from protocol.common import PROTOCOL_VERSION
from protocol.exchanges import EXCHANGES, REPLY_TYPES, message_type
from tools.maintenance.browser_exchanges import EXCHANGES_JS, exchanges_module
from tools.maintenance.protocol_docs import generated_files


def test_make_docs_writes_the_module() -> None:
    assert generated_files()[EXCHANGES_JS] == exchanges_module()


def test_the_module_maps_each_request_to_its_replies() -> None:
    text = exchanges_module()
    block = text.split("export const REPLY_OF = /** @type {const} */ ({\n")[1].split("\n});")[0]
    mapping = {
        key: json.loads(value)
        for key, value in re.findall(r"^  ([a-z_]+): (\[[^\]]*\]),$", block, re.MULTILINE)
    }
    assert mapping == {
        message_type(request): [message_type(m) for m in exchange.reply]
        for request, exchange in EXCHANGES.items()
    }
    replies = re.search(r"^export const REPLY_TYPES = new Set\((\[.*\])\);$", text, re.MULTILINE)
    assert replies is not None
    assert set(json.loads(replies.group(1))) == {message_type(m) for m in REPLY_TYPES}
    assert f"export const PROTOCOL_VERSION = {PROTOCOL_VERSION};" in text
