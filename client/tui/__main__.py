"""``python -m client.tui play|host|join|resume|watch …``: the ``hearts``
command itself (one parser for both)."""

from __future__ import annotations

import sys

from client.cli.main import main

if __name__ == "__main__":  # bot worker processes re-import this module
    sys.exit(main())
