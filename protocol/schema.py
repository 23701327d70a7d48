"""JSON Schema of every wire message, for docs/protocol-schema.json.

``python -m protocol.schema > docs/protocol-schema.json`` regenerates it; a
test checks that the committed file matches the models.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter

from .client_messages import ClientMessage
from .server_messages import ServerMessage


def protocol_schema() -> dict[str, Any]:
    """Both directions' message unions as one JSON Schema document."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Hearts wire protocol (msgpack maps; this schema describes their JSON form)",
        "client_to_server": TypeAdapter(ClientMessage).json_schema(),
        "server_to_client": TypeAdapter(ServerMessage).json_schema(),
    }


def main() -> None:
    """Print the schema."""
    print(json.dumps(protocol_schema(), indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
