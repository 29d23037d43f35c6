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


def test_serve_without_the_server_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "persian_rummy.server", None)  # as if it could not be imported
    assert main(["serve"]) == 2
    assert 'pip install "persian-rummy[server]"' in capsys.readouterr().err
