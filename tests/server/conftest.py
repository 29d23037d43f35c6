"""Fixtures of the server's tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from live import LiveServer


@pytest.fixture
def live_server(tmp_path: Any) -> Iterator[LiveServer]:
    with LiveServer(str(tmp_path / "games.sqlite3")) as server:
        yield server
