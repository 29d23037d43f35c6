"""What an accepted action sends: the acknowledgement to its sender, then every connection's
frame, in that order on each connection, under one time limit for them all; a client that does
not read is dropped after ``SEND_TIMEOUT`` and the others are still sent theirs, clients that do
not read holding up the table about that long in all rather than that long each.

The time limits run on an event loop whose clock moves only when the loop would wait
(:class:`VirtualTimeLoop`): the time an action takes is then the limits that ran out, however
slowly the machine runs the rest."""

from __future__ import annotations

import asyncio
import json
import selectors
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest
from starlette.websockets import WebSocketState

from persian_rummy import legal_actions
from persian_rummy.server import connections as app_module
from persian_rummy.server.connections import Connection
from persian_rummy.server.hub import Server
from persian_rummy.server.live import LiveTable
from persian_rummy.server.storage import Database
from persian_rummy.server.store import SqliteStore

TIMEOUT = 1.0
T = TypeVar("T")


class _JumpingSelector(selectors.DefaultSelector):
    """A selector that, asked to wait for a time, looks for ready sockets and, finding none,
    moves its clock on by that time instead of waiting. A wait without a time (no timer is set:
    the loop waits for a thread's result) is a real one."""

    def __init__(self) -> None:
        super().__init__()
        self.clock = 0.0

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is None or timeout <= 0:
            return super().select(timeout)
        ready = super().select(0)
        if not ready:
            self.clock += timeout
        return ready


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on the clock of a :class:`_JumpingSelector`: a timer with nothing else to
    do falls due at once, and ``time()`` says how long the loop would have waited."""

    def __init__(self) -> None:
        self._selector_with_clock = _JumpingSelector()
        super().__init__(self._selector_with_clock)

    def time(self) -> float:
        return self._selector_with_clock.clock


def run_in_virtual_time(work: Coroutine[Any, Any, T]) -> tuple[T, float]:
    """Run ``work`` on a :class:`VirtualTimeLoop`: its result and the seconds the loop's timers made it wait."""
    loop = VirtualTimeLoop()
    try:
        result = loop.run_until_complete(work)
        return result, loop.time()
    finally:
        loop.close()


class Socket:
    """A WebSocket whose client reads everything, or (``reads=False``) nothing at all."""

    application_state = WebSocketState.CONNECTED

    def __init__(self, *, reads: bool = True) -> None:
        self.reads = reads
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        if not self.reads:
            await asyncio.Event().wait()  # the client's buffer is full: this send never ends
        self.texts.append(text)


async def seated(
    server: Server, readers: dict[int | None, list[bool]]
) -> tuple[LiveTable, dict[int | None, list[Connection]]]:
    """A table of four people with connections as ``readers`` says (per seat, ``None`` for the
    spectators: whether each connection's client reads, once it has joined), on the server
    started."""
    await server.start()
    table, _ = await server.create_table(["human"] * 4, client="192.0.2.1", seed=3, dealer=0)
    live = server.live_table(table.id)
    assert live is not None
    connections: dict[int | None, list[Connection]] = {}
    for seat, reads in readers.items():
        for flag in reads:
            socket = Socket()
            connection = Connection(socket, table, seat, server.limits)  # type: ignore[arg-type]
            assert await live.admit(connection)
            socket.texts.clear()  # the welcome and the first frame
            socket.reads = flag
            connections.setdefault(seat, []).append(connection)
    return live, connections


def test_an_action_sends_the_ack_then_each_connections_frame(storage: Callable[[], Database]) -> None:
    server = Server(storage())

    async def play() -> tuple[LiveTable, dict[int | None, list[Connection]]]:
        live, connections = await seated(server, {0: [True], 1: [True], 2: [True], 3: [True], None: [True, True]})
        for _ in range(30):
            seat = live.table.state.current_player
            action = legal_actions(live.table.state)[0]
            await server.accept(live, seat, action, connections[seat][0], request_id=7)
        await server.close()
        return live, connections

    live, connections = asyncio.run(play())
    table = live.table
    for viewer, group in connections.items():
        for connection in group:
            texts = connection.websocket.texts  # type: ignore[attr-defined]
            frames = [json.loads(text) for text in texts]
            acks = [frame for frame in frames if frame["type"] == "ack"]
            states = [frame for frame in frames if frame["type"] == "state"]
            assert len(states) == 30 and [frame["seq"] for frame in states] == list(range(1, 31))
            # Each ack comes right before the frame of the action it acknowledges.
            for index, frame in enumerate(frames):
                if frame["type"] == "ack":
                    assert frame["id"] == 7
                    assert (frames[index + 1]["type"], frames[index + 1]["seq"]) == ("state", frame["seq"])
            entries = [entry for frame in states for entry in frame["log"]]
            assert len(acks) == sum(1 for entry in entries if entry.get("seat") == viewer)
            # The log entries of the frames, one action after another, are the table's log after the first deal's heading.
            assert [entry["seq"] for entry in entries if entry["kind"] == "action"] == list(range(1, 31))
            assert states[-1] == json.loads(table.frames([viewer])[0]) | {"log": states[-1]["log"]}


def test_clients_that_do_not_read_are_dropped_and_the_others_get_their_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(app_module, "SEND_TIMEOUT", TIMEOUT)
    # SQLite's storage, whatever the suite's store: sending does not depend on it, and the
    # loop's virtual clock would move with a database's own timers. No sweeper either: its
    # timer would be what the virtual clock jumps to while the commit's thread works.
    server = Server(SqliteStore(":memory:"))
    monkeypatch.setattr(server, "start_sweeping", lambda: None)
    readers: dict[int | None, list[bool]] = {0: [True], 1: [False], 2: [True], 3: [True], None: [False, True, False]}

    async def act() -> tuple[float, dict[int | None, list[Connection]]]:
        # East does not read, nor two of the three spectators: the first found stuck is dropped
        # after the time limit, then the rest are sent theirs side by side.
        live, connections = await seated(server, readers)
        table = live.table
        seat = table.state.current_player
        assert seat == 1
        loop = asyncio.get_running_loop()
        started = loop.time()
        await server.accept(live, seat, legal_actions(table.state)[0])
        elapsed = loop.time() - started
        await server.close()
        return elapsed, connections

    (elapsed, connections), _ = run_in_virtual_time(act())
    everyone = [connection for group in connections.values() for connection in group]
    stuck = [connection for connection in everyone if not connection.websocket.reads]  # type: ignore[attr-defined]
    reading = [connection for connection in everyone if connection not in stuck]
    assert all(connection.closed for connection in stuck)
    assert not any(connection.closed for connection in reading)
    for connection in reading:
        (text,) = connection.websocket.texts  # type: ignore[attr-defined]
        assert json.loads(text)["seq"] == 1
    # Two waits of the time limit (East's, then the stuck spectators' together), not three.
    assert elapsed == pytest.approx(2 * TIMEOUT)
