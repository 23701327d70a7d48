"""The catalogs: one module per language, the same keys in each
(``tests/client/tui/test_units.py`` checks keys and placeholders).

An entry is a template, or for a sentence that depends on a number ``n`` a
mapping from plural category to template: ``one`` and ``other`` in English,
``one``, ``few`` and ``many`` in Ukrainian and Russian."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

Entry: TypeAlias = str | Mapping[str, str]
