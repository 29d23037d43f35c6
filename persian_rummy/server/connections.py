"""The open WebSockets of the table server: a :class:`Connection` per seat or spectator, and
the sending of frames under a time limit, so a client that does not read cannot hold up its
table (:func:`send_in_turn`). The frames themselves are the protocol's typed values
(:mod:`~persian_rummy.server.protocol`); ``ack_frame`` and ``error_frame``, which built two of
them here, still work, with a deprecation warning.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from persian_rummy._moved import moved_names
from persian_rummy.actions import Action
from persian_rummy.server.protocol import NO_ID, Ack, ErrorFrame, ServerFrame, encode_frame
from persian_rummy.server.quotas import Limits, TokenBucket
from persian_rummy.server.tables import Table

__all__ = ["SEND_TIMEOUT", "Connection", "close_connection", "send_in_turn", "within"]

#: Seconds a frame may wait for a client that does not read before the client is dropped.
SEND_TIMEOUT: Final = 10.0


class Connection:
    """One open WebSocket of a table: for a seat (0-3) or a spectator (``seat`` is ``None``),
    with its own rate limit, measured by ``clock`` (see :class:`~persian_rummy.server.quotas.TokenBucket`).
    :meth:`send` never raises: a connection that went away is marked ``closed``."""

    def __init__(
        self,
        websocket: WebSocket,
        table: Table,
        seat: int | None,
        limits: Limits,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.websocket = websocket
        self.table = table
        self.seat = seat
        self.bucket = TokenBucket(limits.rate, limits.burst, clock=clock)
        self.strikes = 0
        self.closed = False
        #: The number of this window of its seat: a later window of the seat supersedes it.
        self.window = 0

    async def send(self, frame: ServerFrame) -> None:
        """Send one frame, encoded (:func:`~persian_rummy.server.protocol.encode_frame`),
        unless the connection is closed (:meth:`send_text`)."""
        await self.send_text(encode_frame(frame))

    async def send_text(self, text: str) -> None:
        """Send a frame already written as JSON text. A client that does not read for
        ``SEND_TIMEOUT`` seconds is dropped, so it cannot hold up its table."""
        try:
            await within(self.write(text), SEND_TIMEOUT)
        except asyncio.TimeoutError:
            self.closed = True

    async def write(self, text: str) -> None:
        """Send ``text`` with no time limit (the caller sets one, as ``send_in_turn``
        does), unless the connection is closed; a connection found gone is marked closed."""
        if self.closed or self.websocket.application_state is not WebSocketState.CONNECTED:
            return
        try:
            await self.websocket.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True


async def send_in_turn(sends: Sequence[tuple[Connection, str]]) -> None:
    """Send each text to its connection, in turn, under one time limit for them all: a send to
    a client that reads finishes at once, so one timer serves an action's acknowledgement and
    frames instead of one timer each. When a client has not read for ``SEND_TIMEOUT``
    seconds, it is dropped and the connections after it are sent theirs side by side, each
    within ``SEND_TIMEOUT``: clients that do not read hold up their table that long in all."""
    sent = [0]

    async def each() -> None:
        for connection, text in sends:
            await connection.write(text)
            sent[0] += 1

    try:
        await within(each(), SEND_TIMEOUT)
    except asyncio.TimeoutError:
        sends[sent[0]][0].closed = True
        await asyncio.gather(*(connection.send_text(text) for connection, text in sends[sent[0] + 1 :]))


async def within(work: Awaitable[None], seconds: float) -> None:
    """Await ``work``, raising ``TimeoutError`` after ``seconds``. A send to a client that
    reads finishes at once, so this runs in the caller's task (``asyncio.timeout``) instead of
    in a task of its own for every frame, as ``asyncio.wait_for`` does before Python 3.12."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(seconds):
            await work
    else:  # pragma: no cover - Python 3.10
        await asyncio.wait_for(work, seconds)


async def close_connection(connection: Connection, code: int, notice: ErrorFrame) -> None:
    """Mark a connection closed, tell it why and close it with ``code`` (it may be gone already)."""
    connection.closed = True
    websocket = connection.websocket
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError, asyncio.TimeoutError):
        if websocket.application_state is WebSocketState.CONNECTED:
            await within(websocket.send_text(encode_frame(notice)), SEND_TIMEOUT)
        await websocket.close(code=code)


def _ack_frame(seq: int, action: Action, request_id: object) -> str:
    return encode_frame(Ack(seq, str(action), request_id))  # type: ignore[arg-type]


def _error_frame(code: str, reason: str, **extra: Any) -> dict[str, Any]:
    return ErrorFrame(code, reason, id=extra.get("id", NO_ID), action=extra.get("action")).value()


_MOVED = moved_names(
    __name__,
    {
        "ack_frame": (_ack_frame, "persian_rummy.server.protocol.Ack (a typed frame, written by encode_frame)"),
        "error_frame": (
            _error_frame,
            "persian_rummy.server.protocol.ErrorFrame (a typed frame, written by encode_frame)",
        ),
    },
)


def __getattr__(name: str) -> object:
    # Deprecated names, each still given with a warning that names its new one.
    return _MOVED(name)
