"""``persian-rummy serve``: the command line starts the server with its options, and says what
to install when the [server] extra is missing."""

from __future__ import annotations

import sys

import pytest

import persian_rummy.server
from persian_rummy.cli import main


def test_serve_passes_its_options_to_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    monkeypatch.setattr(persian_rummy.server, "serve", lambda *args: calls.append(args))
    assert main(["serve", "--port", "8123", "--db", "games.sqlite3"]) == 0
    assert main(["serve"]) == 0
    assert calls == [("127.0.0.1", 8123, "games.sqlite3"), ("127.0.0.1", 8000, "persian-rummy.sqlite3")]


def test_serve_without_the_server_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "persian_rummy.server", None)  # as if it could not be imported
    assert main(["serve"]) == 2
    assert 'pip install "persian-rummy[server]"' in capsys.readouterr().err
