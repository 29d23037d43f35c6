"""Fixtures of the server's tests; every WebSocket read of Starlette's test client is bounded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from live import LiveServer, bounded_receive
from starlette.testclient import WebSocketTestSession


@pytest.fixture(autouse=True)
def bounded_websocket_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(WebSocketTestSession, "receive", bounded_receive)


@pytest.fixture
def live_server(tmp_path: Any) -> Iterator[LiveServer]:
    with LiveServer(str(tmp_path / "games.sqlite3")) as server:
        yield server
