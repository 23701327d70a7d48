"""Translations: English, Ukrainian and Russian, chosen from the locale.

Strings live in ``client.tui.locales`` (one module per language, the same
keys in each). A ``Msg`` is a key with parameters, translated when it is
drawn, so switching the language redraws everything in the new one. A
parameter that is itself a ``Term`` (a key) is translated first: a suit name
inside a sentence, a direction inside a prompt; a ``Msg`` parameter is a
sentence part, and a ``Series`` several parts said as "a, b and c".

An entry may have plural forms: a mapping from the CLDR plural category of
its ``n`` parameter (``one``, ``few``, ``many``, ``other``) to the template,
as in the browser client.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Literal

from .locales import Entry, en, ru, uk

Language = Literal["en", "uk", "ru"]
LANGUAGES: Final[tuple[Language, ...]] = ("en", "uk", "ru")
LANGUAGE_NAMES: Final[Mapping[Language, str]] = MappingProxyType(
    {"en": "English", "uk": "Українська", "ru": "Русский"}
)
CATALOGS: Final[Mapping[Language, Mapping[str, Entry]]] = MappingProxyType(
    {"en": en.STRINGS, "uk": uk.STRINGS, "ru": ru.STRINGS}
)


class Term(str):
    """A parameter value that is a key to translate, not text to show."""

    __slots__ = ()


@dataclass(frozen=True)
class Msg:
    """A sentence to show: a key and its parameters (``raw`` shows ``text``
    as it is, for the server's own sentences and chat)."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    @classmethod
    def raw(cls, text: str) -> Msg:
        """Text shown as it is, in every language."""
        return cls("raw", {"text": text})


@dataclass(frozen=True)
class Series:
    """Sentence parts said as one list: "a, b and c" in the language's words."""

    parts: tuple[Msg, ...]


def plural_category(language: Language, n: int) -> str:
    """The CLDR cardinal plural category of the whole number ``n``."""
    n = abs(n)
    if language == "en":
        return "one" if n == 1 else "other"
    # Ukrainian and Russian share the rule for whole numbers.
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


def language_from_env(env: Mapping[str, str] | None = None) -> Language:
    """The language the locale asks for (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``), English when none of ours matches."""
    env = os.environ if env is None else env
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            code = part.split(".", 1)[0].split("_", 1)[0].split("-", 1)[0].lower()
            if code in LANGUAGES:
                return code
            if code == "ua":
                return "uk"
        if var != "LANGUAGE":
            break  # the first locale variable that is set decides
    return "en"


class Translator:
    """Turns keys into sentences in the current ``language``."""

    def __init__(self, language: Language = "en") -> None:
        self.language: Language = language

    def __call__(self, key: str, **params: object) -> str:
        """The sentence for ``key`` with ``params`` filled in."""
        return self.text(Msg(key, params))

    def text(self, msg: Msg) -> str:
        """The sentence of a ``Msg``."""
        if msg.key == "raw":
            return str(msg.params.get("text", ""))
        entry = CATALOGS[self.language].get(msg.key) or en.STRINGS.get(msg.key)
        if entry is None:  # a code we have no sentence for: the server's own
            return str(msg.params.get("message", msg.key))
        template = self._form(entry, msg.params.get("n", 0))
        values = {
            k: self.term(v) if isinstance(v, Term | Msg | Series) else v
            for k, v in msg.params.items()
        }
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return template

    def _form(self, entry: Entry, n: object) -> str:
        """The template of an entry: its plural form for ``n``, if it has forms."""
        if isinstance(entry, str):
            return entry
        count = n if isinstance(n, int) else 0
        form = entry.get(plural_category(self.language, count)) or entry.get("other")
        return form if form is not None else next(iter(entry.values()), "")

    def term(self, value: object) -> str:
        """A name as shown: a ``Term`` translated, a ``Msg`` or ``Series``
        said, anything else as text."""
        if isinstance(value, Term):
            return self(value)
        if isinstance(value, Msg):
            return self.text(value)
        if isinstance(value, Series):
            said = [self.text(part) for part in value.parts]
            if len(said) < 2:
                return "".join(said)
            return self("list.comma").join(said[:-1]) + self("list.and") + said[-1]
        return str(value)

    def decimal(self, value: float, places: int) -> str:
        """``value`` with ``places`` decimals and the language's decimal
        separator (0.5 in English, 0,5 in Ukrainian and Russian)."""
        return f"{value:.{places}f}".replace(".", self("num.decimal"))

    def has(self, key: str) -> bool:
        """Whether ``key`` has a sentence (in English, the reference)."""
        return has_sentence(key)


def has_sentence(key: str) -> bool:
    """Whether ``key`` has a sentence (in English, the reference; every
    catalog has the same keys)."""
    return key in en.STRINGS
