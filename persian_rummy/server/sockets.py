"""The WebSockets of the tables in play here (:class:`Sockets`): each is admitted within the
limits (connections per address, spectators per table, counted on every worker by the
database), joined to its table, and every message it sends goes through :meth:`Sockets.receive`:
rate-limited, decoded by the protocol's one decoder
(:func:`~persian_rummy.server.protocol.parse_message`), and answered with a typed frame: a
pong, a hint, the action played (:class:`~persian_rummy.server.commits.Commits`) or an error
frame saying why not, never a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from persian_rummy.errors import NotYourTurnError, PersianRummyError
from persian_rummy.presentation import addressed
from persian_rummy.server.commits import Commits, Notices
from persian_rummy.server.connections import Connection
from persian_rummy.server.hints import Hints
from persian_rummy.server.keeper import TableKeeper
from persian_rummy.server.live import LiveTable
from persian_rummy.server.protocol import (
    CLOSE_CODES,
    WEB_STYLE,
    ActionMessage,
    BadMessage,
    ErrorFrame,
    HintMessage,
    Pong,
    encode_frame,
    parse_message,
)
from persian_rummy.server.quotas import Limits, client_address
from persian_rummy.server.storage import StoreUnavailable

__all__ = ["Sockets"]


class Sockets:
    """The open connections of this server and what they send: :meth:`connect` serves one
    WebSocket until it closes, :meth:`receive` answers one message. :attr:`clients` counts
    this process's open connections of each client address (the limit counts every worker's,
    :meth:`~persian_rummy.server.storage.Database.enter`); ``clock`` measures the
    connections' message rates (:class:`~persian_rummy.server.quotas.TokenBucket`).

    >>> from persian_rummy.server.keeper import Tasks
    >>> from persian_rummy.server.quotas import DEFAULT_LIMITS
    >>> from persian_rummy.server.store import SqliteStore
    >>> store, tasks = SqliteStore(":memory:"), Tasks()
    >>> commits = Commits(store, TableKeeper(store, DEFAULT_LIMITS, tasks), tasks)
    >>> sockets = Sockets(commits, Notices(commits), Hints(), DEFAULT_LIMITS)
    >>> sockets.clients, sockets.limits.message_bytes
    (Counter(), 4096)
    """

    def __init__(
        self,
        commits: Commits,
        notices: Notices,
        hints: Hints,
        limits: Limits,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.commits = commits
        self.notices = notices
        self.keeper: TableKeeper = commits.keeper
        self.database = commits.database
        self.hints = hints
        self.limits = limits
        self.clock = clock
        #: This process's open connections of each client address.
        self.clients: Counter[str] = Counter()

    async def connect(self, websocket: WebSocket, token: str) -> None:
        """Serve one WebSocket until it closes."""
        await websocket.accept()
        client = client_address(websocket)
        try:
            entered = await self.database.enter(f"c:{client}", self.limits.connections_per_client)
        except StoreUnavailable:
            await _refuse(websocket, "unavailable", "the server cannot reach its database: try again")
            return
        if not entered:
            reason = f"at most {self.limits.connections_per_client} connections from one address"
            await _refuse(websocket, "too_many_connections", reason)
            return
        self.clients[client] += 1
        try:
            await self._serve(websocket, token)
        except StoreUnavailable:
            await _refuse(websocket, "unavailable", "the server cannot reach its database: try again")
        finally:
            self.clients[client] -= 1
            if not self.clients[client]:
                del self.clients[client]
            await self._leave(f"c:{client}")

    async def _join(self, websocket: WebSocket, token: str) -> tuple[LiveTable, Connection] | None:
        """Open the table ``token`` names and admit the connection to it, or refuse it (a
        table let go while the connection waited to join is opened again, or found gone)."""
        for _ in range(3):
            opened = await self.keeper.open(token)
            if opened is None:
                await _refuse(websocket, "unknown_token", "this link opens no table")
                return None
            live, seat = opened
            if seat is None:
                if not await self.database.enter(f"s:{live.id}", self.limits.spectators):
                    reason = f"this table already has {self.limits.spectators} spectators"
                    await _refuse(websocket, "too_many_connections", reason)
                    return None
                window = 0
            else:
                window = await self.database.open_window(live.id, seat)
            connection = Connection(websocket, live.table, seat, self.limits, clock=self.clock)
            connection.window = window
            admitted = False
            try:
                admitted = await live.admit(connection)
            finally:
                if seat is None and not admitted:
                    await self._leave(f"s:{live.id}")
            if admitted:
                return live, connection
        return None

    async def _serve(self, websocket: WebSocket, token: str) -> None:
        joined = await self._join(websocket, token)
        if joined is None:
            return
        live, connection = joined
        try:
            while not connection.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not await self.receive(connection, message):
                    break
        except WebSocketDisconnect:
            pass
        finally:
            live.leave(connection)
            if connection.seat is None:
                await self._leave(f"s:{live.id}")

    async def _leave(self, key: str) -> None:
        """Count a connection under ``key`` fewer, even if the connection's task is cancelled
        meanwhile (a count that stayed would refuse others for ever)."""

        async def leave() -> None:
            with contextlib.suppress(StoreUnavailable):
                await self.database.leave(key)

        await asyncio.shield(self.commits.tasks.spawn(leave()))

    async def receive(self, connection: Connection, message: Mapping[str, Any]) -> bool:
        """Handle one message from a client; returns ``False`` when the connection must close."""
        if not connection.bucket.take():
            connection.strikes += 1
            if connection.strikes > self.limits.strikes:
                await connection.send(ErrorFrame("rate_limited", "too many messages: closing"))
                await connection.websocket.close(code=1008)
                return False
            await connection.send(ErrorFrame("rate_limited", f"at most {self.limits.rate:g} messages a second"))
            return True
        try:
            request = parse_message(message.get("text"), self.limits.message_bytes, spectator=connection.seat is None)
        except BadMessage as error:
            await connection.send(error.frame())
            return True
        if not isinstance(request, ActionMessage | HintMessage):
            await connection.send(Pong(request.id))
            return True
        assert connection.seat is not None  # parse_message refuses a spectator's action
        live = self.keeper.of(connection)
        if live is None:
            return False  # the table expired
        async with live.lock:
            # Asked under the lock, as the seat changes hands under it: a window replaced while
            # its action waited for the lock does not play it.
            if not live.holds(connection):
                return False
            if isinstance(request, HintMessage):
                await self.hints.answer(live, connection, request.id)
            else:
                await self._play(live, connection, request)
        return True

    async def _play(self, live: LiveTable, connection: Connection, request: ActionMessage) -> None:
        """Play a seat's action (under the table's lock), or tell the seat why not."""
        assert connection.seat is not None
        action, request_id = request.action, request.id
        try:
            await self.commits.accept(live, connection.seat, action, connection, request_id)
        except StoreUnavailable:
            # Not stored, so not played: the table is unchanged and the client may retry. (Where
            # the commit's answer was lost, it may be stored after all: the table reads again.)
            if self.database.shared:
                self.notices.behind(live.id)
            await connection.send(ErrorFrame("unavailable", "the action could not be stored: try again", id=request_id))
        except PersianRummyError as error:
            # The reason in words for the player who tried (only they are sent it).
            code = "not_your_turn" if isinstance(error, NotYourTurnError) else "refused"
            reason = addressed(error, connection.seat, WEB_STYLE)
            await connection.send(ErrorFrame(code, reason, id=request_id, action=str(action)))


async def _refuse(websocket: WebSocket, code: str, reason: str) -> None:
    """Tell a connection why it is not served, and close it with the code that says so."""
    await websocket.send_text(encode_frame(ErrorFrame(code, reason)))
    await websocket.close(code=CLOSE_CODES[code])
