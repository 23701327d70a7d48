"""Logging set-up for ``hearts serve``: readable text, or JSON lines for log
collectors (``--log-format json``), with a level per logger.

A line may carry structured fields (``extra={"fields": {...}}``, see
``server.lifecycle_log``): JSON puts them beside ts/level/logger/message, the
text format appends them as ``key=value``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable
from typing import Any

# websockets' own lines ("connection open", "HTTP response sent") say less
# than hearts.access, which replaces them: only its warnings are kept,
# unless a level is set for it.
_QUIET_BY_DEFAULT = ("websockets",)
# The start-up line ("serving …") shows whatever the root level is.
_LOUD_BY_DEFAULT = ("hearts.serving",)


def fields_of(record: logging.LogRecord) -> dict[str, Any]:
    """The structured fields a record carries (none: empty)."""
    fields = getattr(record, "fields", None)
    return fields if isinstance(fields, dict) else {}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the record's
    fields (+ exception)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line."""
        data: dict[str, object] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in fields_of(record).items():
            data.setdefault(key, value)
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``time LEVEL logger: message key=value …``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of text."""
        line = super().format(record)
        fields = fields_of(record)
        if not fields:
            return line
        message = record.getMessage()
        # What the message already says is not repeated after it.
        extra = " ".join(
            f"{key}={value}"
            for key, value in fields.items()
            if value is not None and (key == "event" or str(value) not in message)
        )
        head, sep, rest = line.partition("\n")  # an exception's lines stay below
        return f"{head} {extra}{sep}{rest}"


def parse_levels(specs: Iterable[str]) -> dict[str, int]:
    """``--log-level`` values (``LEVEL``, ``LOGGER=LEVEL``, comma-separated)
    as levels by logger name ("" for the root); the last one given for a
    logger wins. ``ValueError`` names a level that does not exist."""
    levels: dict[str, int] = {}
    for spec in specs:
        for item in spec.split(","):
            item = item.strip()
            if not item:
                continue
            name, _, level = item.rpartition("=")
            number = logging.getLevelName(level.strip().upper())
            if not isinstance(number, int):
                raise ValueError(f"{level.strip()!r} is not a log level (debug, info, warning, …)")
            levels[name.strip()] = number
    return levels


def configure_logging(levels: Iterable[str] | str = "INFO", fmt: str = "text") -> None:
    """Send logs to standard error in ``fmt`` ("text" or "json"), each
    logger at its level (see ``parse_levels``)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    by_logger = parse_levels([levels] if isinstance(levels, str) else levels)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(by_logger.pop("", logging.INFO))
    for name in _QUIET_BY_DEFAULT:
        logging.getLogger(name).setLevel(by_logger.pop(name, logging.WARNING))
    for name in _LOUD_BY_DEFAULT:
        logging.getLogger(name).setLevel(by_logger.pop(name, logging.INFO))
    for name, level in by_logger.items():
        logging.getLogger(name).setLevel(level)
