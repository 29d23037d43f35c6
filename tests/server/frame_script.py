"""A scripted session that makes the server send one of every kind of frame (welcome, state,
ack, pong, hint, and the error frames of every code), each connection's texts recorded as
sent. Its output at a past commit is kept beside the tests (``frames_60eaaeb.json``), and
:mod:`test_frame_bytes` checks today's server sends the same bytes.

Only the hub's public calls are used, so the script runs on the old server as on the new:
``python tests/server/frame_script.py > frames.json`` with the old checkout first on the path.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from typing import Any

from starlette.websockets import WebSocketState

from persian_rummy.bots import GreedyBot
from persian_rummy.server import tables
from persian_rummy.server.app import open_storage
from persian_rummy.server.connections import Connection
from persian_rummy.server.hub import Server
from persian_rummy.server.quotas import Limits
from persian_rummy.server.storage import StoreUnavailable


class Socket:
    """A WebSocket that records what it is sent."""

    def __init__(self, name: str, sent: list[list[Any]]) -> None:
        self.name, self.sent = name, sent
        self.application_state = WebSocketState.CONNECTED
        self.client = None

    async def accept(self) -> None:
        pass

    async def send_text(self, text: str) -> None:
        self.sent.append([self.name, text])

    async def close(self, code: int = 1000) -> None:
        self.sent.append([self.name, f"close {code}"])
        self.application_state = WebSocketState.DISCONNECTED

    async def receive(self) -> dict[str, Any]:
        return {"type": "websocket.disconnect"}


async def session() -> list[list[Any]]:
    """Every frame of the scripted session, as ``[connection, text]`` in the order sent."""
    sent: list[list[Any]] = []
    tables.secrets.token_hex = lambda size=None: "5f0c2a9e1b3d4c6a"  # type: ignore[assignment]
    server = Server(open_storage(":memory:"), limits=Limits(rate=1.0, burst=20, strikes=1), clock=lambda: 0.0)
    table, _ = await server.create_table(["human"] * 4, names=["Ann", "Bo", "Cy", "Di"], seed=7, dealer=0)
    live = server.live_table(table.id)
    assert live is not None

    def connection(name: str, seat: int | None) -> Connection:
        return Connection(Socket(name, sent), table, seat, server.limits, clock=lambda: 0.0)  # type: ignore[arg-type]

    north, east, watcher = connection("north", 0), connection("east", 1), connection("watcher", None)
    for each in (north, east, watcher):
        await live.admit(each)
    messages = [
        (north, '{"type":"ping","id":"p1"}'),
        (north, '{"type":"ping","id":7}'),
        (north, '{"type":"ping"}'),
        (north, None),
        (north, "x" * 5000),
        (north, "nope"),
        (north, '{"type":"dance"}'),
        (north, '{"type":"ping","id":[1]}'),
        (north, '{"type":"action","action":"zzz","id":2}'),
        (north, '{"type":"action","action":7,"id":"a"}'),
        (north, '{"type":"action","action":"draw","id":3}'),
        (north, '{"type":"hint","id":4}'),
        (watcher, '{"type":"action","action":"draw","id":5}'),
        (watcher, '{"type":"ping","id":"w"}'),
        (east, '{"type":"hint","id":"h1"}'),
        (east, '{"type":"hint","id":"h2"}'),
        (east, '{"type":"action","action":"draw","id":6}'),
        (east, '{"type":"action","action":"draw","id":8}'),
    ]
    for each, text in messages:
        await server.receive(each, {"type": "websocket.receive", "text": text})

    async def away(row: object) -> None:
        raise StoreUnavailable("the database is away")

    discard = json.dumps({"type": "action", "action": live.table.frame_values([1])[0]["legal"][-1], "id": 9})
    server.storage.add_action = away  # type: ignore[method-assign]
    await server.receive(east, {"type": "websocket.receive", "text": discard})
    del server.storage.add_action
    await server.receive(east, {"type": "websocket.receive", "text": discard})
    for _ in range(25):  # past the burst: rate-limited, then closed
        if not await server.receive(north, {"type": "websocket.receive", "text": '{"type":"ping"}'}):
            break
    again = connection("east again", 1)
    await live.admit(again)  # the earlier window is superseded
    await server.connect(Socket("stranger", sent), "no-such-token-here")  # type: ignore[arg-type]

    async def unreachable(key: str, limit: int) -> bool:
        raise StoreUnavailable("the database is away")

    server.storage.enter = unreachable  # type: ignore[method-assign]
    await server.connect(Socket("stranger", sent), "no-such-token-here")  # type: ignore[arg-type]
    del server.storage.enter
    await server.expire(table.created + 10**6)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    await server.close()
    return sent


async def whole_game() -> list[str]:
    """Every frame a spectator is sent over a whole game of two deals (greedy choices for
    each seat, played through the hub): the finished deal's frames, score sheets, game over."""
    sent: list[list[Any]] = []
    tables.secrets.token_hex = lambda size=None: "00ff00ff00ff00ff"  # type: ignore[assignment]
    server = Server(open_storage(":memory:"))
    table, _ = await server.create_table(["human"] * 4, seed=11, dealer=3)
    live = server.live_table(table.id)
    assert live is not None
    watcher = Connection(Socket("watcher", sent), table, None, server.limits)  # type: ignore[arg-type]
    await live.admit(watcher)
    bots = [GreedyBot(seat) for seat in range(4)]
    while not table.finished:
        seat = table.state.current_player
        async with live.lock:
            await server.accept(live, seat, bots[seat](table.state.view(seat)))
    await server.close()
    return [text for _, text in sent]


if __name__ == "__main__":
    texts = asyncio.run(whole_game())
    digest = hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()
    json.dump(
        {"session": asyncio.run(session()), "game": [len(texts), digest]}, sys.stdout, ensure_ascii=True, indent=0
    )
    sys.stdout.write("\n")
