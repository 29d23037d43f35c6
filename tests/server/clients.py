"""What the server's in-process tests share: the hub behind a test client or an app."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from persian_rummy.server.hub import Server


def server_of(client_or_app: TestClient | Any) -> Server:
    """The hub (:class:`~persian_rummy.server.hub.Server`) of a test client's app, or of an app."""
    app = client_or_app.app if isinstance(client_or_app, TestClient) else client_or_app
    server = app.state.server
    assert isinstance(server, Server)
    return server
