"""A table in play is one value (:class:`~persian_rummy.server.live.LiveTable`: the game, its
lock, its people's connections, its spectators), and the hub lets it go in one
place, which releases everything it holds: nothing of a table let go is left in the hub, no
connection stays on it, no bot plays on it, and a connection that waited to join it is sent
nowhere."""

from __future__ import annotations

import asyncio
import gc
import json
import time
import weakref
from collections.abc import Callable

from clients import Socket
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from waiting import wait_until

from persian_rummy import legal_actions
from persian_rummy.rules import Rules
from persian_rummy.server import Limits, create_app
from persian_rummy.server.connections import Connection
from persian_rummy.server.hub import KEEP_FINISHED, Server
from persian_rummy.server.live import LiveTable
from persian_rummy.server.protocol import CLOSE_CODES
from persian_rummy.server.storage import Database


def live_of(server: Server, table_id: str) -> LiveTable:
    live = server.live_table(table_id)
    assert live is not None
    return live


async def settle(sockets: list[Socket]) -> None:
    """Let the server's tasks that close these sockets run (a bounded number of turns)."""
    for _ in range(100):
        if all(socket.code is not None for socket in sockets):
            return
        await asyncio.sleep(0)
    raise AssertionError("the sockets were not closed")


def test_an_expired_table_releases_its_seats_spectators_and_lock_and_nothing_keeps_it(
    storage: Callable[[], Database],
) -> None:
    server = Server(storage(), limits=Limits(unplayed_seconds=60))
    sockets = [Socket() for _ in range(5)]

    async def run() -> tuple[weakref.ref[LiveTable], list[str]]:
        await server.start()
        table, _ = await server.create_table(["human", "human", "greedy", "greedy"], seed=1, dealer=0)
        live = live_of(server, table.id)
        connections = [
            Connection(socket, table, seat, server.limits)  # type: ignore[arg-type]
            for socket, seat in zip(sockets, [0, 0, 1, None, None], strict=True)
        ]
        for number, connection in enumerate(connections, 1):
            connection.window = number
            assert await live.admit(connection)
        # The second window of North took the seat from the first.
        assert sockets[0].code == CLOSE_CODES["superseded"] and live.seated(0) is connections[1]
        assert live.spectator_count == 2 and live.is_watched
        expired = await server.expire(time.time() + 61)  # a minute later, and nobody has played
        await settle(sockets[1:])
        assert expired == [table.id]
        assert server.tables == {} and server.live_table(table.id) is None
        assert live.ended and not live.is_watched and live.spectator_count == 0
        assert [live.seated(seat) for seat in range(4)] == [None] * 4
        assert not live.lock.locked()
        for connection, socket in zip(connections[1:], sockets[1:], strict=True):
            assert connection.closed and not live.holds(connection)
            assert socket.code == CLOSE_CODES["expired"] and json.loads(socket.texts[-1])["code"] == "expired"
        await server.close()
        return weakref.ref(live), expired

    kept, _ = asyncio.run(run())
    # Nothing the server keeps refers to the table any more.
    gc.collect()
    assert kept() is None


async def play_to_the_end(server: Server, live: LiveTable) -> None:
    """Play every seat's first legal action through the server until the game is over."""
    while not live.table.finished:
        seat = live.table.state.current_player
        await server.accept(live, seat, legal_actions(live.table.state)[0])


def test_seats_asking_together_get_one_rematch_on_any_worker_and_again_the_same(
    storage: Callable[[], Database],
) -> None:
    server = Server(storage())

    async def run() -> weakref.ref[LiveTable]:
        await server.start()
        table, links = await server.create_table(["human"] * 4, rules=Rules(deals=1), seed=2, dealer=0)
        live = live_of(server, table.id)
        await play_to_the_end(server, live)
        tokens = dict(links["seats"])
        again = await asyncio.gather(*(server.rematch(tokens[seat], "192.0.2.1") for seat in range(4)))
        assert len(server.tables) == 2  # one rematch table, however many seats asked at once
        opened = [await server.open(token) for token in again]
        assert all(found is not None for found in opened)
        assert {found[0].id for found in opened if found is not None} == {next(iter(set(server.tables) - {table.id}))}
        assert [found[1] for found in opened if found is not None] == [0, 1, 2, 3]
        assert await server.rematch(tokens[2], "192.0.2.1") == again[2]  # asked again: the same
        # Nobody is connected and the game ended long ago: the table leaves memory; the
        # rematch is the database's, so asking after it is loaded again gives the same.
        table.touched -= KEEP_FINISHED + 1
        assert await server.expire() == []  # let go, not expired: its links load it again
        assert server.live_table(table.id) is None and live.ended
        reloaded = await server.open(tokens[0])
        assert reloaded is not None and reloaded[0].table.finished and reloaded[0] is not live
        assert await server.rematch(tokens[1], "192.0.2.1") == again[1]
        await server.close()
        return weakref.ref(live)

    kept = asyncio.run(run())
    gc.collect()
    assert kept() is None


def test_a_bot_waiting_for_the_lock_of_a_table_let_go_plays_nothing(storage: Callable[[], Database]) -> None:
    server = Server(storage(), limits=Limits(unplayed_seconds=60))

    async def run() -> None:
        await server.start()
        # A bot is to act (East), so a driver starts and waits for the table's lock.
        table, _ = await server.create_table(["human", "greedy", "human", "greedy"], seed=1, dealer=0)
        live = live_of(server, table.id)
        async with live.lock:
            for _ in range(10):
                await asyncio.sleep(0)  # the driver reaches the lock and waits
            assert await server.expire(time.time() + 61) == [table.id]
        for _ in range(10):
            await asyncio.sleep(0)
        assert table.seq == 0 and live.ended
        await server.close()

    asyncio.run(run())


def test_a_connection_that_waited_to_join_a_table_expired_meanwhile_is_told_and_kept_nowhere(db: str) -> None:
    app = create_app(db, limits=Limits(unplayed_seconds=60))
    with TestClient(app) as client:
        server: Server = app.state.server
        assert client.portal is not None
        table, links = client.portal.call(lambda: server.create_table(["human"] * 4, seed=1, dealer=0))
        live = live_of(server, table.id)
        client.portal.call(live.lock.acquire)  # the table is busy: the new connection waits to join
        with client.websocket_connect(f"/ws/{links['seats'][0][1]}") as ws:
            portal = client.portal

            def waiting_for_the_lock() -> int:
                return portal.call(lambda: len(live.lock._waiters or ()))  # type: ignore[attr-defined]

            wait_until(lambda: waiting_for_the_lock() >= 1, "the new connection to wait for the table's lock")
            assert client.portal.call(server.expire, time.time() + 61) == [table.id]
            client.portal.call(live.lock.release)
            # Not welcomed to a table that is gone: its link opens nothing now.
            assert ws.receive_json()["code"] == "unknown_token"
            try:
                ws.receive_json()
            except WebSocketDisconnect as closed:
                assert closed.code == CLOSE_CODES["unknown_token"]
            else:
                raise AssertionError("the connection was not closed")
        assert server.live_table(table.id) is None and live.seated(0) is None and not live.is_watched
