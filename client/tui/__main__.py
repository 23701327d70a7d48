"""``python -m client.tui play|host|join|resume …`` (the same as ``hearts``)."""

from __future__ import annotations

import sys

from .commands import main

if __name__ == "__main__":  # bot worker processes re-import this module
    sys.exit(main())
