"""Write golden_event_log.json (run from the repo root:
``.venv/bin/python -m tests.data.make_golden_event_log``).

The scripted tables of ``tests/server/event_scenarios.py`` (every variant,
every kind of event), as the code of the day logged and sent them: each
scenario's stored event bodies (the JSON the stores keep, one string per
event) and, per seat and for a spectator, a SHA-256 of the event frames it
was sent. ``tests/server/test_event_log_golden.py`` holds the code to it:
a change to how events are made, stored or redacted that a stored table,
a hand replay or a client could notice fails there. Regenerate only for a
deliberate change of the stored or wire form (and say so in the protocol's
history).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.server.event_scenarios import every_scenario

GOLDEN = Path(__file__).parent / "golden_event_log.json"


async def golden() -> dict[str, Any]:
    """What the scenarios store and send today."""
    runs = await every_scenario()
    return {
        name: {
            "stored": [body.decode() for body in await run.stored()],
            "sent": run.sent(),
        }
        for name, run in runs.items()
    }


def main() -> None:
    """Write the file."""
    data = asyncio.run(golden())
    GOLDEN.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
