"""Fixtures of the server's tests; every WebSocket read of Starlette's test client is bounded.

The server's tests run on both stores: ``db`` is a SQLite file's path or the URL of a fresh
PostgreSQL database (a throwaway cluster for the session, :mod:`pgcluster`), and ``storage``
makes a fresh :class:`~persian_rummy.server.storage.Database` of either kind. Without
PostgreSQL installed, its half is skipped saying why, unless ``PERSIAN_RUMMY_REQUIRE_EXTRAS=1``
(CI), where that fails.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser import chromium
from live import LiveServer, bounded_receive
from pgcluster import Cluster, binaries
from playwright.sync_api import Browser
from starlette.testclient import WebSocketTestSession

from persian_rummy.server.app import open_storage
from persian_rummy.server.storage import Database
from persian_rummy.server.store import SqliteStore

STORES = ("sqlite", "postgres")


@pytest.fixture(autouse=True)
def bounded_websocket_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(WebSocketTestSession, "receive", bounded_receive)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium driven by Playwright, one for each module of browser tests."""
    with chromium() as browser:
        yield browser


@pytest.fixture
def server(tmp_path: Any) -> Iterator[LiveServer]:
    """A live server on a fresh SQLite file, on the loopback address (the page's tests)."""
    with LiveServer(str(tmp_path / "games.sqlite3")) as server:
        yield server


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster for the session (each xdist worker has its own)."""
    folder, why = binaries()
    if folder is None:
        if os.environ.get("PERSIAN_RUMMY_REQUIRE_EXTRAS") == "1":
            pytest.fail(why)
        pytest.skip(why)
    with Cluster() as cluster:
        yield cluster


@pytest.fixture(params=STORES)
def db(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """Where a server stores its games: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return cluster.database()


@pytest.fixture
def storage(db: str) -> Callable[[], Database]:
    """Makes the storage of ``db`` (not started: a server starts it on its own event loop);
    SQLite's in memory, as the hub's unit tests had it."""
    if db.startswith("postgresql://"):
        return lambda: open_storage(db)
    return lambda: SqliteStore(":memory:")


@pytest.fixture
def live_server(db: str) -> Iterator[LiveServer]:
    with LiveServer(db) as server:
        yield server
