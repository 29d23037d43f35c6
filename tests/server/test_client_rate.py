"""A bot client keeps within the server's message rate (Limits.rate and burst): bots answer at
once, so a game between bots goes faster than the rate allows, and a message refused for the
rate is not played: a client that sent one and waited would wait for a frame that never
comes. Real clients against uvicorn on 127.0.0.1, each game bounded in time.

The server and the client measure the rate by one :class:`~live.PacedClock`, which only the
client's waits for its pace move: however slowly the machine plays the bots' game, the client's
messages come at the pace the client keeps, so a client told too high a rate is refused, and
one told the server's is not, on any machine."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from live import LiveServer, PacedClock

from persian_rummy.server import Limits
from persian_rummy.server.client import SeatClient

# South has about 40 actions in a one-deal game: more than a burst of this rate.
SLOW = Limits(rate=10.0, burst=10.0)


def one_deal_table(url: str) -> dict[str, Any]:
    """A one-deal table with South for a client and three bots of the server's."""
    body = json.dumps({"seats": ["random", "random", "human", "random"], "rules": "deals=1"}).encode()
    request = urllib.request.Request(url + "/api/tables", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return dict(json.loads(response.read()))


def play_south(db: str, told: Limits) -> tuple[SeatClient, PacedClock]:
    clock = PacedClock()
    with LiveServer(db, limits=SLOW, clock=clock) as server:
        created = one_deal_table(server.url)
        token = created["seats"][2]["token"]
        client = SeatClient(server.ws + token, "random", seed=2, limits=told, clock=clock, sleep=clock.sleep)
        asyncio.run(asyncio.wait_for(client.run(), timeout=240))  # only a guard against a hang
        return client, clock


def test_a_client_told_the_server_s_limits_is_never_refused_for_the_rate(db: str) -> None:
    client, clock = play_south(db, SLOW)
    assert client.finished and not client.errors
    assert len(client.acks) > SLOW.burst  # more than a burst: the pace was kept, not just lucky
    # It waited for its pace (9 a second after a burst of 5), and no longer.
    assert (len(client.acks) - 5) / 9 <= clock.now <= (len(client.acks) - 5) / 9 + 0.01 * len(client.acks)


def test_a_client_refused_for_the_rate_sends_again_slower_and_finishes(db: str) -> None:
    client, _ = play_south(db, Limits(rate=1000.0, burst=1000.0))  # told a rate far above the server's
    assert client.finished and len(client.acks) > SLOW.burst
    codes = [error["code"] for error in client.errors]
    assert codes and set(codes) == {"rate_limited"}
    assert len(codes) < SLOW.strikes  # it slowed down before the server would close it


def test_a_clock_or_sleep_that_is_no_function_is_refused_where_it_enters(tmp_path: Path) -> None:
    """Each is refused with the library's error before anything is made: no database opened."""
    from persian_rummy import ArgumentTypeError
    from persian_rummy.server import Server, SqliteStore, create_app
    from persian_rummy.server.quotas import TokenBucket

    db = tmp_path / "games.sqlite3"
    with pytest.raises(ArgumentTypeError, match=r"a clock is a function that returns seconds, not 0\.0"):
        create_app(str(db), clock=0.0)  # type: ignore[arg-type]
    assert not db.exists()
    with pytest.raises(ArgumentTypeError, match="a clock is a function that returns seconds, not 'now'"):
        Server(SqliteStore(":memory:"), clock="now")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="a clock is a function"):
        TokenBucket(1.0, 1.0, clock=None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="SeatClient's clock must be a function, not 1"):
        SeatClient("ws://127.0.0.1:1/ws/x", "random", clock=1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="SeatClient's sleep must be a function, not None"):
        SeatClient("ws://127.0.0.1:1/ws/x", "random", sleep=None)  # type: ignore[arg-type]
