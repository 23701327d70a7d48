"""``python -m tools.cli ARGS``: the ``hearts`` command without its entry point."""

from __future__ import annotations

import sys

from tools.cli.main import main

if __name__ == "__main__":  # bot worker processes re-import this module
    sys.exit(main())
