"""`hearts serve` flags (tools/cli/serve.py): which store they ask for, where
the default data folder is, and contradicting flags refused before anything
starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.cli.main import build_parser, main
from tools.cli.serve import default_data_dir, store_url_of


def url_of(*flags: str) -> str:
    return store_url_of(build_parser().parse_args(["serve", *flags]))


def test_the_default_is_sqlite_in_the_xdg_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "hearts"
    assert (
        url_of() == f"sqlite://{tmp_path / 'xdg' / 'hearts' / 'hearts.sqlite3'}?synchronous=normal"
    )
    # Unset, empty or relative: ~/.local/share, as the XDG rules say.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for value in ("", "relative/dir"):
        monkeypatch.setenv("XDG_DATA_HOME", value)
        assert default_data_dir() == tmp_path / "home" / ".local" / "share" / "hearts"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_data_dir() == tmp_path / "home" / ".local" / "share" / "hearts"


def test_data_and_synchronous_choose_the_file_and_its_setting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    assert (
        url_of("--data", "games")
        == f"sqlite://{tmp_path / 'games' / 'hearts.sqlite3'}?synchronous=normal"
    )
    assert url_of("--store", "sqlite", "--data", str(tmp_path), "--synchronous", "full") == (
        f"sqlite://{tmp_path / 'hearts.sqlite3'}?synchronous=full"
    )


def test_memory_and_redis() -> None:
    assert url_of("--store", "memory") == "memory://"
    assert url_of("--redis", "redis://r:6379/0") == "redis://r:6379/0"
    assert url_of("--store", "redis", "--redis", "redis://r:6379/0") == "redis://r:6379/0"


@pytest.mark.parametrize(
    ("flags", "complaint"),
    [
        (["--store", "memory", "--data", "x"], "--data is for the sqlite store"),
        (["--redis", "redis://r/0", "--data", "x"], "--data is for the sqlite store"),
        (["--store", "memory", "--synchronous", "full"], "--synchronous is for the sqlite store"),
        (["--store", "redis"], "--store redis needs --redis URL"),
        (["--store", "sqlite", "--redis", "redis://r/0"], "cannot go with --store sqlite"),
        (["--data", "what?"], "cannot contain '?'"),
        (["--redis", "redis+sentinel://h:26379"], "--redis: redis+sentinel://"),
        (["--redis", "redis+sentinel://h:1/s", "--redis-replicas", "-1"], "0 or more"),
        (["--store", "memory", "--redis-replicas", "1"], "not the memory store"),
    ],
)
def test_contradicting_flags_are_refused_before_anything_starts(
    flags: list[str],
    complaint: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "1", *flags]) == 2
    printed = capsys.readouterr()
    assert complaint in printed.err and printed.out == ""
    assert list(tmp_path.iterdir()) == []  # no data folder was made


def test_a_sentinel_set_nobody_answers_at_stops_the_start_with_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Nothing listens on port 1: no sentinel answers.
    url = "redis+sentinel://127.0.0.1:1,127.0.0.1:1/hearts"
    assert main(["serve", "--port", "0", "--redis", url, "--store-wait", "0"]) == 1
    printed = capsys.readouterr().err.strip().splitlines()
    assert printed[-1].startswith("hearts serve: the table store (Redis ")
    assert printed[-1].endswith(
        "cannot be used: no sentinel answers at 127.0.0.1:1,127.0.0.1:1;"
        " gave up after 0 s (--store-wait 0)"
    )


def test_the_budgets_and_caps_reach_the_server_config_and_help_shows_their_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from server.config import ServerConfig
    from tools.cli.serve import budget_settings

    defaults = ServerConfig(**budget_settings(build_parser().parse_args(["serve"])))
    assert defaults == ServerConfig()
    flags = [
        "--tables-burst-per-address=40",
        "--tables-per-minute-per-address=30",
        "--tables-burst-per-player=6",
        "--tables-per-minute-per-player=3",
        "--max-tables-per-process=500",
        "--max-live-tables=0",
        "--store-size-mb=2048",
        "--store-fill-limit=0.9",
        "--unstarted-table-ttl=600",
        "--analysis-worlds=100",
        "--analysis-burst=5",
        "--analysis-per-minute=2",
        "--analysis-max-pending=8",
    ]
    config = ServerConfig(**budget_settings(build_parser().parse_args(["serve", *flags])))
    assert (config.tables_burst_per_address, config.tables_per_minute_per_address) == (40, 30.0)
    assert (config.tables_burst_per_player, config.tables_per_minute_per_player) == (6, 3.0)
    assert (config.max_tables_per_process, config.max_live_tables) == (500, 0)
    assert (config.store_size_mb, config.store_fill_limit) == (2048, 0.9)
    assert config.unstarted_table_ttl == 600
    assert (config.analysis_worlds, config.analysis_burst) == (100, 5)
    assert (config.analysis_per_minute, config.analysis_max_pending) == (2.0, 8)
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--tables-burst-per-address N tables one client address may create at once" in shown
    assert "(default: 20)" in shown and "(default: 1000)" in shown and "(default: 0.8)" in shown
