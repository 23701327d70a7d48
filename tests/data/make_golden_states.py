"""Write golden_state_format_<FORMAT>.json, the current format's golden
table state (run from the repo root: ``.venv/bin/python -m
tests.data.make_golden_states``).

Each format's golden blob is kept as that format's code wrote it: a widow
game of four in its first hand (a human covered by a bot while away,
chat, a kicked player, a knock). ``golden_state_format_1.json`` was
written by the code before formats were numbered and
``golden_state_format_1_early.json`` is it without the fields format 1's
later blobs gained (what the oldest stored tables hold); neither is ever
rewritten. When a format is added, run this once to write the new
format's blob from the last one, and keep the older ones as they are:
``tests/server/test_state_format.py`` reads every one of them.
"""

from __future__ import annotations

from pathlib import Path

from server.state_format import FORMAT
from server.table_state import TableState

HERE = Path(__file__).parent


def golden_path(number: int, suffix: str = "") -> Path:
    """The golden blob of format ``number``."""
    return HERE / f"golden_state_format_{number}{suffix}.json"


def main() -> None:
    """Write the current format's blob from the previous format's."""
    older = golden_path(FORMAT - 1).read_bytes().strip()
    golden_path(FORMAT).write_bytes(TableState.from_bytes(older).to_bytes() + b"\n")


if __name__ == "__main__":
    main()
