"""A bot client keeps within the server's message rate (Limits.rate and burst): bots answer at
once, so a game between bots goes faster than the rate allows, and a message refused for the
rate is not played: a client that sent one and waited would wait for a frame that never
comes. Real clients against uvicorn on 127.0.0.1, each game bounded in time."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

from live import LiveServer

from persian_rummy.server import Limits
from persian_rummy.server.client import SeatClient

# A rate a fast game of bots outruns at once: about 40 actions of South's in a one-deal game
# that the server plays in well under a second.
SLOW = Limits(rate=10.0, burst=10.0)


def one_deal_table(url: str) -> dict[str, Any]:
    """A one-deal table with South for a client and three bots of the server's."""
    body = json.dumps({"seats": ["random", "random", "human", "random"], "rules": "deals=1"}).encode()
    request = urllib.request.Request(url + "/api/tables", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return dict(json.loads(response.read()))


def play_south(db: str, told: Limits) -> SeatClient:
    with LiveServer(db, limits=SLOW) as server:
        created = one_deal_table(server.url)
        client = SeatClient(server.ws + created["seats"][2]["token"], "random", seed=2, limits=told)
        asyncio.run(asyncio.wait_for(client.run(), timeout=120))
        return client


def test_a_client_told_the_server_s_limits_is_never_refused_for_the_rate(db: str) -> None:
    client = play_south(db, SLOW)
    assert client.finished and not client.errors
    assert len(client.acks) > SLOW.burst  # more than a burst: the pace was kept, not just lucky


def test_a_client_refused_for_the_rate_sends_again_slower_and_finishes(db: str) -> None:
    client = play_south(db, Limits(rate=1000.0, burst=1000.0))  # told a rate far above the server's
    assert client.finished and len(client.acks) > SLOW.burst
    codes = [error["code"] for error in client.errors]
    assert codes and set(codes) == {"rate_limited"}
    assert len(codes) < SLOW.strikes  # it slowed down before the server would close it
