"""Options from the command line, the environment and a TOML file.

``hearts serve`` is configured the way containers and service managers
expect: every option ``--some-option`` may also come from the environment
variable ``HEARTS_SOME_OPTION`` and from a TOML file (``--config FILE``, or
``HEARTS_CONFIG``) as the key ``some-option`` (or ``some_option``). The
command line wins over the environment, the environment over the file, the
file over the built-in default.

It is generic over the parser's options: an option added to the parser gets
its variable and its key with nothing more to write. The parser is made by
``argparse`` as usual (``LayeredParser`` is passed as the subparsers'
``parser_class``); with ``env_prefix`` set, its ``parse_known_args`` fills
every option the command line did not give from the other two sources,
converted and checked as the command line would be (its ``type`` and
``choices``), so a bad value in the environment or the file is refused with
the same exit status 2 and names where it came from.

A value from the environment is a string: a list option (``append``) takes
a comma-separated list, a flag (``store_true``) takes true/false/1/0/yes/no.
In the file, lists are TOML arrays and flags booleans.
"""

from __future__ import annotations

import argparse
import os
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


class DefaultsHelpFormatter(argparse.HelpFormatter):
    """``--help`` names every option's default, and the environment variable
    that can set it, even for an option written without a help text."""

    env_prefix = "HEARTS_"

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if not action.option_strings or action.default is argparse.SUPPRESS:
            return text
        if isinstance(action, argparse._HelpAction | argparse._VersionAction):
            return text
        name = env_name(self.env_prefix, action)
        extra = f"env {name}" if name is not None else ""
        # A help text that already says its default (or a flag) needs none.
        says_default = "default" in text.lower() or "%(default)" in text
        if not says_default and not isinstance(action, argparse._StoreTrueAction):
            default = _shown(action.default).replace("%", "%%")
            extra = f"default: {default}; {extra}" if extra else f"default: {default}"
        return f"{text.strip()} ({extra})" if extra else text

    def _format_action(self, action: argparse.Action) -> str:
        if action.option_strings and not action.help and action.help is not argparse.SUPPRESS:
            # argparse leaves out the help column (and so the default)
            # of an option without help: give it an empty one.
            action.help = " "
        return super()._format_action(action)


def _shown(default: object) -> str:
    """A default as ``--help`` shows it: lists comma-separated, None as none."""
    if default is None or default == []:
        return "none"
    if isinstance(default, list | tuple):
        return ",".join(map(str, default))
    return str(default)


def long_option(action: argparse.Action) -> str | None:
    """An option's long spelling without its dashes (``redis-url-file``)."""
    for spelling in action.option_strings:
        if spelling.startswith("--"):
            return spelling[2:]
    return None


def env_name(prefix: str, action: argparse.Action) -> str | None:
    """The environment variable of an option: ``--redis-url-file`` is
    ``HEARTS_REDIS_URL_FILE``."""
    name = long_option(action)
    if name is None or name in ("help", "version"):
        return None
    return prefix + name.upper().replace("-", "_")


class LayeredParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` that, given ``env_prefix``, also reads its
    options from the environment and from the TOML file its
    ``config_option`` names (see the module's docstring)."""

    def __init__(
        self,
        *args: Any,
        env_prefix: str | None = None,
        config_option: str = "config",
        environ: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        if env_prefix is not None:
            kwargs.setdefault("formatter_class", DefaultsHelpFormatter)
        super().__init__(*args, **kwargs)
        self.env_prefix = env_prefix
        self.config_option = config_option
        self._environ = environ

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse as ``ArgumentParser`` does, then fill what the command line
        left out from the environment, then from the file."""
        parsed, rest = super().parse_known_args(args, namespace)
        if self.env_prefix is None:
            return parsed, rest
        given = self._given_on_command_line(args)
        environ = self._environ if self._environ is not None else os.environ
        actions = {
            action.dest: action
            for action in self._actions
            if long_option(action) is not None and action.default is not argparse.SUPPRESS
        }
        config_path = self._config_path(parsed, given, environ, self.env_prefix)
        from_file = self._read_file(config_path, actions) if config_path else {}
        for dest, action in actions.items():
            if dest in given or dest == self.config_option.replace("-", "_"):
                continue
            name = env_name(self.env_prefix, action)
            if name is not None and name in environ:
                setattr(parsed, dest, self._convert(action, environ[name], f"${name}"))
            elif dest in from_file:
                setattr(parsed, dest, from_file[dest])
        return parsed, rest

    def _given_on_command_line(self, args: Sequence[str] | None) -> set[str]:
        """The options the command line names: the same parse with every
        default taken away leaves only those in the namespace."""
        saved = [(action, action.default) for action in self._actions]
        try:
            for action, _ in saved:
                action.default = argparse.SUPPRESS
            bare, _ = super().parse_known_args(args, None)
        finally:
            for action, default in saved:
                action.default = default
        return set(vars(bare))

    def _config_path(
        self,
        parsed: argparse.Namespace,
        given: set[str],
        environ: Mapping[str, str],
        prefix: str,
    ) -> str | None:
        """The TOML file to read: the command line's, else the environment's."""
        dest = self.config_option.replace("-", "_")
        if dest in given:
            value = getattr(parsed, dest, None)
            return str(value) if value else None
        from_env = environ.get(prefix + dest.upper())
        if from_env:
            setattr(parsed, dest, from_env)
            return from_env
        return None

    def _read_file(self, path: str, actions: dict[str, argparse.Action]) -> dict[str, Any]:
        """The file's values by destination, converted and checked."""
        try:
            with open(path, "rb") as file:
                data = tomllib.load(file)
        except OSError as exc:
            self.error(f"--{self.config_option} {path}: {exc.strerror or exc}")
        except tomllib.TOMLDecodeError as exc:
            self.error(f"--{self.config_option} {path} is not valid TOML: {exc}")
        by_key = {long_option(action): action for action in actions.values()}
        values: dict[str, Any] = {}
        for key, value in data.items():
            action = by_key.get(key.replace("_", "-"))
            if action is None or key.replace("_", "-") == self.config_option:
                self.error(f"{path}: {key!r} is not an option of {self.prog}")
            values[action.dest] = self._convert(action, value, f"{path}: {key}")
        return values

    def _convert(self, action: argparse.Action, raw: object, where: str) -> Any:
        """``raw`` (a string from the environment, or a TOML value) as the
        command line would have given it, or exit 2 saying where it was."""
        if isinstance(action, argparse._StoreTrueAction | argparse._StoreFalseAction):
            flag = _boolean(raw)
            if flag is None:
                self.error(f"{where}: expected true or false, got {raw!r}")
            return flag if isinstance(action, argparse._StoreTrueAction) else not flag
        if isinstance(action, argparse._AppendAction):
            if isinstance(raw, list):
                items: list[object] = list(raw)
            else:
                items = [part.strip() for part in str(raw).split(",") if part.strip()]
            return [self._one(action, item, where) for item in items]
        if isinstance(raw, list | dict):
            self.error(f"{where}: expected one value, got {raw!r}")
        return self._one(action, raw, where)

    def _one(self, action: argparse.Action, raw: object, where: str) -> Any:
        text = str(raw).lower() if isinstance(raw, bool) else str(raw)
        convert = action.type if callable(action.type) else str
        try:
            value = convert(text)
        except (TypeError, ValueError, argparse.ArgumentTypeError) as exc:
            self.error(f"{where}: invalid value {text!r} ({exc})")
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(str, action.choices))
            self.error(f"{where}: {text!r} is not one of {choices}")
        return value


def _boolean(raw: object) -> bool | None:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None
