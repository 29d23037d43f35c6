"""What the server's in-process tests share: the hub behind a test client or an app, and a
WebSocket that records what the hub sends it."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient
from starlette.websockets import WebSocketState

from persian_rummy.server.hub import Server


def server_of(client_or_app: TestClient | Any) -> Server:
    """The hub (:class:`~persian_rummy.server.hub.Server`) of a test client's app, or of an app."""
    app = client_or_app.app if isinstance(client_or_app, TestClient) else client_or_app
    server = app.state.server
    assert isinstance(server, Server)
    return server


class Socket:
    """A WebSocket whose client reads everything at once, and that remembers how it closed."""

    def __init__(self) -> None:
        self.application_state = WebSocketState.CONNECTED
        self.texts: list[str] = []
        self.code: int | None = None

    async def send_text(self, text: str) -> None:
        self.texts.append(text)

    async def close(self, code: int = 1000) -> None:
        self.code = code
        self.application_state = WebSocketState.DISCONNECTED

    def frames(self, kind: str = "state") -> list[dict[str, Any]]:
        """The frames of type ``kind`` sent so far, decoded."""
        return [frame for frame in map(json.loads, self.texts) if frame["type"] == kind]
