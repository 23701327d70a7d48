"""The version of Hearts that is running.

``pyproject.toml`` is the one place the version is written. An installed
package (a wheel, or ``pip install -e``) reports it through its metadata;
a source tree used without installing (``PYTHONPATH=.``) reads it from the
``pyproject.toml`` beside the packages.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

DISTRIBUTION = "hearts-online"
UNKNOWN = "0+unknown"
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def package_version() -> str:
    """``hearts-online``'s version, e.g. ``0.1.0`` (``0+unknown`` when
    neither the install metadata nor ``pyproject.toml`` can tell)."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        pass  # not installed: a bare source tree
    try:
        with PYPROJECT.open("rb") as file:
            found = tomllib.load(file)["project"]["version"]
    except (OSError, tomllib.TOMLDecodeError, KeyError):
        return UNKNOWN
    return found if isinstance(found, str) else UNKNOWN
