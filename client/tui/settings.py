"""The player's settings: fast play, language, auto-play of any single legal
card and the bell on your turn, kept in a small JSON file
(``$XDG_CONFIG_HOME/hearts/tui.json``) so the next game starts the same."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from .i18n import LANGUAGES, Language, language_from_env


def default_settings_file() -> Path:
    """``$XDG_CONFIG_HOME/hearts/tui.json`` (``~/.config`` by default)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "hearts" / "tui.json"


@dataclass
class Settings:
    """What the settings dialog changes."""

    language: Language = "en"
    fast: bool = False
    # Play a card by itself whenever it is the only legal one (the last card
    # of the hand is always played by itself).
    auto_single: bool = False
    bell: bool = False  # ring the terminal bell when it is your turn

    @classmethod
    def load(cls, path: Path | None) -> Settings:
        """The saved settings; the locale's language when none are saved."""
        settings = cls(language=language_from_env())
        if path is None or not path.exists():
            return settings
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return settings
        if isinstance(data, dict):
            if data.get("language") in LANGUAGES:
                settings.language = data["language"]
            for name in ("fast", "auto_single", "bell"):
                if isinstance(data.get(name), bool):
                    setattr(settings, name, data[name])
        return settings

    def save(self, path: Path | None) -> None:
        """Write the file (quietly does nothing when it cannot)."""
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(asdict(self)), encoding="utf-8")
        except OSError:
            pass
