"""The server tests' waits are bounded: a WebSocket read of the test client, with a server that
sends nothing, fails at its limit saying what it waited for."""

from __future__ import annotations

from typing import Any

import anyio
import live
import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket
from waiting import WaitTimeout


async def silent(websocket: WebSocket) -> None:
    await websocket.accept()
    await websocket.receive()  # reads the client's message, answers nothing


def test_a_websocket_read_from_a_silent_server_fails_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "RECEIVE_LIMIT", 0.5)
    # The limits the read waited under: the test's own, not a longer one (nor pytest-timeout's).
    limits: list[float] = []
    fail_after = anyio.fail_after

    def recorded(delay: float, *args: Any, **kwargs: Any) -> Any:
        limits.append(delay)
        return fail_after(delay, *args, **kwargs)

    monkeypatch.setattr(anyio, "fail_after", recorded)
    app = Starlette(routes=[WebSocketRoute("/ws", silent)])
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.send_text("anyone there?")
        limits.clear()  # the connection's own reads
        with pytest.raises(WaitTimeout, match=r"waited 0\.5 s for a WebSocket message from the server"):
            ws.receive_text()
        assert limits == [0.5]
