"""`hearts serve` options from the environment and a TOML file
(tools/cli/layered.py): every option has its variable and key, the command
line wins over the environment and the environment over the file, bad
values are refused naming where they came from, secrets come from files,
and --help names every default."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tools.cli.layered import env_name, long_option
from tools.cli.main import build_parser, main
from tools.cli.serve import resolve_secrets


def serve_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser: argparse.ArgumentParser = sub.choices["serve"]
    return parser


def parse(*flags: str) -> argparse.Namespace:
    return build_parser().parse_args(["serve", *flags])


def test_every_option_has_a_variable_and_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = serve_parser()
    options = [a for a in parser._actions if long_option(a) not in (None, "help")]
    assert len(options) >= 20
    for action in options:
        name = env_name("HEARTS_", action)
        assert name is not None and name == "HEARTS_" + action.dest.upper()
    # An option added to the parser later gets its variable with nothing
    # more written: the layering reads the parser.
    parser.add_argument("--made-up-budget", type=int, default=3)
    monkeypatch.setenv("HEARTS_MADE_UP_BUDGET", "7")
    args, _ = parser.parse_known_args([])
    assert args.made_up_budget == 7


def test_the_command_line_wins_over_the_environment_over_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = tmp_path / "hearts.toml"
    config.write_text(
        'port = 9001\nhost = "0.0.0.0"\ngrace = 12.5\ntrusted-proxy = ["10.0.0.0/8"]\n'
        'log_level = ["info", "hearts.access=warning"]\nstore = "memory"\n'
    )
    args = parse("--config", str(config))
    assert (args.port, args.host, args.grace) == (9001, "0.0.0.0", 12.5)
    assert args.trusted_proxy == ["10.0.0.0/8"]
    assert args.log_level == ["info", "hearts.access=warning"]
    assert args.store == "memory"

    monkeypatch.setenv("HEARTS_PORT", "9002")
    monkeypatch.setenv("HEARTS_TRUSTED_PROXY", "10.1.0.0/16, 192.168.0.0/24")
    args = parse("--config", str(config))
    assert args.port == 9002 and args.host == "0.0.0.0"
    assert args.trusted_proxy == ["10.1.0.0/16", "192.168.0.0/24"]

    args = parse("--config", str(config), "--port", "9003", "--trusted-proxy", "127.0.0.1")
    assert args.port == 9003 and args.trusted_proxy == ["127.0.0.1"]

    # The file itself may be named by the environment.
    monkeypatch.setenv("HEARTS_CONFIG", str(config))
    assert parse().grace == 12.5
    # Nothing set anywhere: the built-in defaults.
    monkeypatch.delenv("HEARTS_CONFIG")
    monkeypatch.delenv("HEARTS_PORT")
    monkeypatch.delenv("HEARTS_TRUSTED_PROXY")
    args = parse()
    assert (args.port, args.host, args.trusted_proxy) == (8765, "127.0.0.1", [])


@pytest.mark.parametrize(
    ("env", "toml", "complaint"),
    [
        ({"HEARTS_PORT": "eighty"}, "", "$HEARTS_PORT: invalid value 'eighty'"),
        ({"HEARTS_STORE": "disk"}, "", "$HEARTS_STORE: 'disk' is not one of sqlite, memory, redis"),
        ({}, "prot = 1\n", "'prot' is not an option of hearts serve"),
        ({}, "port = [1, 2]\n", "port: expected one value"),
        ({}, "port = \n", "is not valid TOML"),
    ],
)
def test_bad_values_are_refused_naming_where_they_came_from(
    env: dict[str, str],
    toml: str,
    complaint: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    flags = []
    if toml:
        config = tmp_path / "bad.toml"
        config.write_text(toml)
        flags = ["--config", str(config)]
    with pytest.raises(SystemExit) as stopped:
        parse(*flags)
    assert stopped.value.code == 2
    assert complaint in capsys.readouterr().err


def test_a_missing_config_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        parse("--config", str(tmp_path / "none.toml"))
    assert stopped.value.code == 2
    assert "No such file or directory" in capsys.readouterr().err


def test_secrets_come_from_files(tmp_path: Path) -> None:
    url = tmp_path / "redis-url"
    url.write_text("redis://:s3cret@redis:6379/0\n")
    token = tmp_path / "token"
    token.write_text("x" * 32 + "\n")
    args = parse(
        "--redis-url-file",
        str(url),
        "--admin-listen",
        "127.0.0.1:0",
        "--admin-token-file",
        str(token),
    )
    assert resolve_secrets(args) == "x" * 32
    assert args.redis == "redis://:s3cret@redis:6379/0"


@pytest.mark.parametrize(
    ("flags", "complaint"),
    [
        (["--redis", "redis://r/0", "--redis-url-file", "f"], "give the Redis URL once"),
        (["--redis-url-file", "/nonexistent/url"], "No such file or directory"),
        (["--admin-listen", "127.0.0.1:0"], "--admin-listen and --admin-token-file go together"),
        (["--metrics-listen", "nowhere"], "--metrics-listen: 'nowhere' is not HOST:PORT"),
        (["--log-level", "hearts.access=loud"], "'loud' is not a log level"),
    ],
)
def test_bad_operator_flags_exit_2_before_anything_starts(
    flags: list[str], complaint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--store", "memory", *flags]) == 2
    assert complaint in capsys.readouterr().err


def test_a_short_admin_token_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    token = tmp_path / "token"
    token.write_text("short\n")
    flags = ["--admin-listen", "127.0.0.1:0", "--admin-token-file", str(token)]
    assert main(["serve", "--store", "memory", *flags]) == 2
    assert "at least 16 characters" in capsys.readouterr().err


def test_help_names_every_default_and_variable(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for action in serve_parser()._actions:
        name = env_name("HEARTS_", action)
        if name is None:
            continue
        assert f"env {name})" in text, name
    for shown in (
        "default: 8765",
        "default: 127.0.0.1",
        "default: 60.0",
        "default: info",
        "default: text",
        "default: 4000",
    ):
        assert shown in text
    assert "HEARTS_<OPTION>" in text and "--config" in text
