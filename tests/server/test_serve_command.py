"""``persian-rummy serve``: the command line starts the server with its options, and says what
to install when the [server] extra is missing."""

from __future__ import annotations

import sys
from typing import Any

import pytest

import persian_rummy.server
from persian_rummy.cli import main


def test_serve_passes_its_options_to_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    monkeypatch.setattr(persian_rummy.server, "serve", lambda *args: calls.append(args))
    assert main(["serve", "--port", "8123", "--db", "games.sqlite3"]) == 0
    assert main(["serve"]) == 0
    assert calls == [("127.0.0.1", 8123, "games.sqlite3"), ("127.0.0.1", 8000, "persian-rummy.sqlite3")]


def test_serve_passes_its_workers_and_refuses_several_on_sqlite(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    runs: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: runs.append((app, options)))
    monkeypatch.setattr(persian_rummy.server, "_reach", lambda db: None)  # no database is asked here
    url = "postgresql://ann:secret@db.example/games"
    assert main(["serve", "--db", url, "--workers", "3"]) == 0
    ((app, options),) = runs
    assert app == "persian_rummy.server:worker_app" and options["factory"] and options["workers"] == 3
    assert "ann:***@db.example" in capsys.readouterr().out  # the password is not printed
    assert main(["serve", "--db", "games.sqlite3", "--workers", "2"]) == 2
    assert "PostgreSQL" in capsys.readouterr().err
    assert main(["serve", "--db", url, "--workers", "0"]) == 2
    assert "workers is a whole number 1-64, not 0" in capsys.readouterr().err
    assert len(runs) == 1


def test_serve_leaves_the_calling_process_environment_as_it_was_and_never_follows_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # serve() left the workers' settings and its own process id in the caller's environment:
    # worker_app() then called in that same process (as the module's doctest does) took
    # itself for an orphaned worker and sent itself SIGTERM, which killed a test worker.
    import os
    import threading

    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    monkeypatch.setattr(persian_rummy.server, "_reach", lambda db: None)
    monkeypatch.delenv("PERSIAN_RUMMY_SUPERVISOR", raising=False)
    monkeypatch.delenv("PERSIAN_RUMMY_SERVE", raising=False)
    persian_rummy.server.serve("127.0.0.1", 8123, "postgresql://db.example/games", workers=2)
    assert "PERSIAN_RUMMY_SUPERVISOR" not in os.environ and "PERSIAN_RUMMY_SERVE" not in os.environ
    monkeypatch.setenv("PERSIAN_RUMMY_SERVE", '{"db": ":memory:", "bot_delay": 0.1, "limits": {}}')
    monkeypatch.setenv("PERSIAN_RUMMY_SUPERVISOR", str(os.getpid()))
    persian_rummy.server.worker_app()
    assert "persian-rummy supervisor" not in {thread.name for thread in threading.enumerate()}


def test_serve_without_the_server_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "persian_rummy.server", None)  # as if it could not be imported
    assert main(["serve"]) == 2
    assert 'pip install ".[server]" in a clone of the repository' in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--port", "99999"], "a port is a whole number 0-65535, not 99999"),
        (["--port", "-1"], "a port is a whole number 0-65535, not -1"),
        (["--db", "{tmp}/no-such-folder/games.sqlite3"], "cannot be opened: unable to open database file"),
        (["--db", "{tmp}"], "cannot be opened"),  # a folder
        (["--db", "postgresql://nobody@127.0.0.1:{closed}/games"], "cannot be reached: connection failed"),
        (["--db", "postgresql://nobody@127.0.0.1:{closed}/games", "--workers", "2"], "cannot be reached"),
    ],
)
def test_serve_refuses_a_port_or_a_database_it_cannot_use_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Any,
    arguments: list[str],
    message: str,
) -> None:
    # Each was a traceback (a port past 65535, a SQLite file in no folder), or 30 s of silence
    # then one (a PostgreSQL server that does not answer): now one line, exit status 2, and
    # no server is started.
    import uvicorn
    from live import free_port

    runs: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: runs.append(app))
    filled = [argument.format(tmp=tmp_path, closed=free_port()) for argument in arguments]
    assert main(["serve", *filled]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("persian-rummy: serve: ") and captured.err.count("\n") == 1, captured.err
    assert message in captured.err and "Traceback" not in captured.err and captured.out == ""
    assert runs == []
