"""The ASGI application: HTTP pages, the table API and one WebSocket per seat or spectator.

:func:`~persian_rummy.server.create_app` builds a Starlette application around a :class:`Server`, which owns the
tables in memory, their SQLite :class:`~persian_rummy.server.store.Store`, the open
connections and the bots. Every message from a client goes through :meth:`Server.receive`:
it is size- and rate-limited, parsed, and answered with an error frame when it is bad, never
with a crash. An action is applied by the table for the seat its token opens
(``play(..., seat=...)``), written to SQLite, acknowledged to its sender and then sent to
every connection of the table as that seat's (or the spectators') frame: its view, its legal
actions and the new entries of the table's log (protocol
:data:`~persian_rummy.server.tables.PROTOCOL`).

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(":memory:")) as client:
...     created = client.post("/api/tables", json={"seats": ["human", "greedy", "greedy", "greedy"]}).json()
...     with client.websocket_connect(f"/ws/{created['seats'][0]['token']}") as ws:
...         welcome, first = ws.receive_json(), ws.receive_json()
>>> sorted(created), [seat["bot"] for seat in created["seats"]]
(['id', 'seats', 'spectator'], [None, 'greedy', 'greedy', 'greedy'])
>>> welcome["type"], welcome["protocol"], first["type"], first["seat"], first["view"]["seat"]
('welcome', 2, 'state', 0, 0)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ipaddress
import json
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Mapping, Sequence
from importlib import resources
from typing import Any, Final
from urllib.parse import parse_qs

import attrs
from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from persian_rummy.actions import Action
from persian_rummy.errors import NotationError, NotYourTurnError, PersianRummyError
from persian_rummy.rules import Rules
from persian_rummy.server.pages import created, lobby, problem, table_page
from persian_rummy.server.store import ActionRow, Store
from persian_rummy.server.tables import HUMAN, PROTOCOL, Table, new_token
from persian_rummy.state import PLAYERS, SEAT_NAMES, GameState, Phase

#: The server's icon (also its ``/favicon.ico``, which browsers ask for).
_ICON: Final = str(resources.files("persian_rummy.server").joinpath("static").joinpath("favicon.svg"))

__all__ = ["CapacityError", "Connection", "Limits", "Server", "create_app"]

#: Seconds a frame may wait for a client that does not read before the client is dropped.
SEND_TIMEOUT: Final = 10.0
# One encoder for the small frames (an acknowledgement, an error): json.dumps with options
# builds a new one at each call.
_FRAME_ENCODER: Final = json.JSONEncoder(separators=(",", ":"))
#: Seconds between two sweeps for tables to expire.
SWEEP_SECONDS: Final = 60.0
#: Seconds a finished game stays in memory with no connection (it is loaded again on demand).
KEEP_FINISHED: Final = 600.0
# No inline script, no other origin, no framing, and no token in a Referer header: on every
# HTTP response, the server's errors (404, 405, 413) included (:class:`_SecurityHeaders`).
_HEADERS: Final = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}
# Pages hold secret links: never cached. The script, the style sheet and the icon: for 5 minutes.
_NO_STORE: Final = "no-store"
_CACHED: Final = "max-age=300"


@attrs.frozen
class Limits:
    """What the server allows, per WebSocket connection, per HTTP request, in tables and in
    connections: the attributes below.

    >>> Limits().message_bytes, Limits().rate, Limits().tables_per_client
    (4096, 20.0, 20)
    """

    #: The largest WebSocket message, in bytes.
    message_bytes: int = 4096
    #: WebSocket messages a second a connection may send on average (a token bucket)...
    rate: float = 20.0
    #: ... with bursts of this many.
    burst: float = 40.0
    #: Messages refused for the rate before the connection is closed.
    strikes: int = 50
    #: The largest HTTP request body, in bytes.
    body_bytes: int = 4096
    #: The most fields in the lobby's form.
    form_fields: int = 20
    #: The most tables in play, in all.
    tables: int = 10_000
    #: The most tables in play created by one client address (an IPv6 address by its /64).
    tables_per_client: int = 20
    #: Seconds after its creation that a table on which no person has played expires.
    unplayed_seconds: float = 3600.0
    #: Seconds after its last action that any table expires.
    idle_seconds: float = 86_400.0
    #: Spectators per table, beside its four seats.
    spectators: int = 60
    #: Connections open at once from one client address.
    connections_per_client: int = 256


class CapacityError(PersianRummyError):
    """A request the server turns away for its limits (:class:`Limits`), not for what it asks:
    the server is full, or the client already has as many tables or connections as it may.
    ``reason`` says which limit, and is safe to show; ``status`` is the HTTP status that
    answers it (503 when the server is full, 429 when the client is at its limit).

    >>> error = CapacityError("the server is full", status=503)
    >>> error.reason, error.status
    ('the server is full', 503)
    """

    message_is_public = True

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status


class _Bucket:
    """A token bucket: :meth:`take` says whether one more message fits the rate."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class Connection:
    """One open WebSocket of a table: for a seat (0-3) or a spectator (``seat`` is ``None``),
    with its own rate limit. :meth:`send` never raises: a connection that went away is
    marked ``closed``."""

    def __init__(self, websocket: WebSocket, table: Table, seat: int | None, limits: Limits) -> None:
        self.websocket = websocket
        self.table = table
        self.seat = seat
        self.bucket = _Bucket(limits.rate, limits.burst)
        self.strikes = 0
        self.closed = False

    async def send(self, frame: Mapping[str, Any]) -> None:
        """Send one frame as JSON text, unless the connection is closed (:meth:`send_text`)."""
        await self.send_text(_FRAME_ENCODER.encode(frame))

    async def send_text(self, text: str) -> None:
        """Send a frame already written as JSON text. A client that does not read for
        ``SEND_TIMEOUT`` seconds is dropped, so it cannot hold up its table."""
        try:
            await _within(self.write(text), SEND_TIMEOUT)
        except asyncio.TimeoutError:
            self.closed = True

    async def write(self, text: str) -> None:
        """Send ``text`` with no time limit (the caller sets one, as ``_send_in_turn``
        does), unless the connection is closed; a connection found gone is marked closed."""
        if self.closed or self.websocket.application_state is not WebSocketState.CONNECTED:
            return
        try:
            await self.websocket.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True


async def _send_in_turn(sends: Sequence[tuple[Connection, str]]) -> None:
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
        await _within(each(), SEND_TIMEOUT)
    except asyncio.TimeoutError:
        sends[sent[0]][0].closed = True
        await asyncio.gather(*(connection.send_text(text) for connection, text in sends[sent[0] + 1 :]))


async def _within(work: Awaitable[None], seconds: float) -> None:
    """Await ``work``, raising ``TimeoutError`` after ``seconds``. A send to a client that
    reads finishes at once, so this runs in the caller's task (``asyncio.timeout``) instead of
    in a task of its own for every frame, as ``asyncio.wait_for`` does before Python 3.12."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(seconds):
            await work
    else:  # pragma: no cover - Python 3.10
        await asyncio.wait_for(work, seconds)


def _ack(seq: int, action: Action, request_id: object) -> str:
    return _FRAME_ENCODER.encode({"type": "ack", "seq": seq, "action": str(action), "id": request_id})


def _error(code: str, reason: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "reason": reason, **extra}


class _GroupCommit:
    """The commits of accepted actions, on the store's own thread: the actions accepted while
    a commit runs (other tables') are committed together in the next one, so a busy server
    makes one ``fsync`` and one hand-over between threads for many actions. Each :meth:`add`
    returns once its action is committed, or raises the ``sqlite3.Error`` that kept it out of
    the database: a failed batch is retried one action at a time, so only the action that
    cannot be stored fails."""

    def __init__(self, store: Store, writer: concurrent.futures.Executor) -> None:
        self._store = store
        self._writer = writer
        self._pending: list[tuple[ActionRow, asyncio.Future[None]]] = []
        self._committing = False

    async def add(self, row: ActionRow) -> None:
        """Store ``row``, committed before this returns."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._pending.append((row, done))
        if not self._committing:
            # At the end of this turn of the event loop: the actions that came in together
            # (their sockets were read at once) are committed together.
            self._committing = True
            loop.call_soon(self._start, loop)
        await done

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Hand the pending rows to the store's thread; its callback brings the outcomes back
        to the loop (no task of its own: a commit costs one hand-over each way)."""
        batch, self._pending = self._pending, []
        try:
            work = self._writer.submit(self._commit, [row for row, _ in batch])
        except RuntimeError as error:  # the server is closing: its writer is shut down
            self._finish(loop, batch, error)
            return

        def back(work: concurrent.futures.Future[list[sqlite3.Error | None]]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(self._finish, loop, batch, work)

        work.add_done_callback(back)

    def _finish(
        self,
        loop: asyncio.AbstractEventLoop,
        batch: list[tuple[ActionRow, asyncio.Future[None]]],
        work: concurrent.futures.Future[list[sqlite3.Error | None]] | BaseException,
    ) -> None:
        """On the loop: give each row's sender its outcome, and commit what came meanwhile."""
        outcomes: list[BaseException | None]
        if isinstance(work, BaseException):
            outcomes = [work] * len(batch)
        else:
            try:
                outcomes = list(work.result())
            except Exception as error:  # the commit failed unexpectedly
                outcomes = [error] * len(batch)
        for (_, done), outcome in zip(batch, outcomes, strict=True):
            if done.done():
                continue  # its sender went away meanwhile
            if outcome is None:
                done.set_result(None)
            else:
                done.set_exception(outcome)
        self._committing = bool(self._pending)
        if self._pending:
            self._start(loop)

    def _commit(self, rows: list[ActionRow]) -> list[sqlite3.Error | None]:
        """On the store's thread: commit ``rows`` together, or one by one if that fails."""
        try:
            self._store.add_actions(rows)
            return [None] * len(rows)
        except sqlite3.Error as error:
            if len(rows) == 1:
                return [error]
        outcomes: list[sqlite3.Error | None] = []
        for row in rows:
            try:
                self._store.add_actions([row])
                outcomes.append(None)
            except sqlite3.Error as error:
                outcomes.append(error)
        return outcomes


class Server:
    """The tables of one server, their database and their connections.

    ``bot_delay`` is the pause (seconds) before each bot move, so people can follow the
    game; tests use 0.

    >>> server = Server(Store(":memory:"))
    >>> table, links = server.create_table(["human", "random", "human", "random"], client="192.0.2.1")
    >>> [seat for seat, _ in links["seats"]], links["spectator"] != links["seats"][0][1], table.owner
    ([0, 2], True, '192.0.2.1')
    """

    def __init__(self, store: Store, *, bot_delay: float = 0.0, limits: Limits = Limits()) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.players: dict[tuple[str, int], Connection] = {}
        self.spectators: dict[str, set[Connection]] = {}
        #: The open connections of each client address.
        self.clients: Counter[str] = Counter()
        self._tasks: set[asyncio.Task[None]] = set()
        self._writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="persian-rummy-store")
        self._commits = _GroupCommit(store, self._writer)
        # Tables being stored by create_table_async, by client: they count towards the limits.
        self._creating: Counter[str] = Counter()
        self._swept = 0.0
        #: The rematch of each finished table that has one: its people's seats' tokens.
        self.rematches: dict[str, dict[int, str]] = {}

    # --- tables ----------------------------------------------------------------------------

    def create_table(
        self,
        seats: list[str],
        *,
        rules: Rules = Rules(),
        names: list[str] | None = None,
        seed: int | None = None,
        dealer: int | None = None,
        client: str = "",
    ) -> tuple[Table, dict[str, Any]]:
        """Create, store and start a table for ``client`` (its address); returns it and its
        secret tokens (``{"seats": [(seat, token), ...], "spectator": token}``, people's seats
        only). The seed and first dealer are random unless given (tests give them). Raises
        :class:`~persian_rummy.NotationError` for a bad seat kind or name, and
        :class:`CapacityError` when the server or the client has as many tables in play as
        :class:`Limits` allows (after expiring the tables nobody plays)."""
        self._check_capacity(client)
        table, tokens, links = self._new_table(seats, rules, names, seed, dealer, client)
        self.store.add_table(table, tokens)
        self._adopt(table)
        return table, links

    async def create_table_async(
        self, seats: list[str], *, rules: Rules = Rules(), names: list[str] | None = None, client: str = ""
    ) -> tuple[Table, dict[str, Any]]:
        """:meth:`create_table` on the event loop: the table is stored on the store's thread,
        so the loop serves the other tables meanwhile, a commit of their actions in progress
        included. The table counts towards the limits from the check on, so creations that
        wait together cannot pass a limit between them.

        >>> import asyncio
        >>> server = Server(Store(":memory:"))
        >>> table, links = asyncio.run(server.create_table_async(["human"] * 4))
        >>> server.open(links["spectator"])[0] is table
        True
        """
        self._check_capacity(client)
        table, tokens, links = self._new_table(seats, rules, names, None, None, client)
        self._creating[client] += 1
        try:
            await asyncio.get_running_loop().run_in_executor(self._writer, self.store.add_table, table, tokens)
        finally:
            self._creating[client] -= 1
            if not self._creating[client]:
                del self._creating[client]
        self._adopt(table)
        return table, links

    async def rematch(self, token: str, client: str) -> str:
        """The token of the same seat at the rematch of the finished game ``token`` opens (a
        new table with the same seats, names and rules, made by the first seat to ask).
        Raises :class:`~persian_rummy.NotationError` for a link that opens no seat or a game
        not over, and :class:`CapacityError` as :meth:`create_table` does."""
        opened = self.open(token)
        if opened is None or opened[1] is None:
            raise NotationError("this link opens no seat", reason="this link opens no seat")
        table, seat = opened[0], opened[1]
        if not table.finished:
            raise NotationError("the game is not over yet", reason="the game is not over yet")
        if table.id not in self.rematches:
            _, links = await self.create_table_async(
                list(table.seats), rules=table.rules, names=list(table.names), client=client
            )
            self.rematches.setdefault(table.id, dict(links["seats"]))
        return self.rematches[table.id][seat]

    def _new_table(
        self, seats: list[str], rules: Rules, names: list[str] | None, seed: int | None, dealer: int | None, client: str
    ) -> tuple[Table, dict[str, int | None], dict[str, Any]]:
        """A new table for ``client``, its tokens (token -> seat) and its links."""
        table = Table.new(
            seats=seats, rules=rules, names=SEAT_NAMES if names is None else names, seed=seed, dealer=dealer
        )
        table.owner = client
        tokens: dict[str, int | None] = {new_token(): seat for seat in range(PLAYERS) if seats[seat] == HUMAN}
        spectator = new_token()
        tokens[spectator] = None
        links = {"seats": [(seat, token) for token, seat in tokens.items() if seat is not None], "spectator": spectator}
        return table, tokens, links

    def _check_capacity(self, client: str) -> None:
        """Raise :class:`CapacityError` if one more table for ``client`` is over a limit."""
        for attempt in range(2):
            if attempt or time.monotonic() - self._swept > 1.0:
                self.expire()
            in_play = [table for table in self.tables.values() if not table.finished]
            if len(in_play) + self._creating.total() >= self.limits.tables:
                if attempt:
                    raise CapacityError(
                        f"the server is full ({self.limits.tables} tables in play): try again later", status=503
                    )
            elif (
                client
                and sum(table.owner == client for table in in_play) + self._creating[client]
                >= self.limits.tables_per_client
            ):
                if attempt:
                    raise CapacityError(
                        f"this address already has {self.limits.tables_per_client} tables in play: finish one "
                        f"(a table nobody plays expires after {self.limits.unplayed_seconds / 60:g} minutes)",
                        status=429,
                    )
            else:
                return

    def is_stale(self, table: Table, now: float) -> bool:
        """Whether a table in play has expired: no person has played on it for
        ``unplayed_seconds`` since it was created, or nothing at all for ``idle_seconds``."""
        if table.finished:
            return False
        return (not table.played and now - table.created > self.limits.unplayed_seconds) or (
            now - table.touched > self.limits.idle_seconds
        )

    def expire(self) -> list[str]:
        """Expire the stale tables (:meth:`is_stale`): marked so in the database, so they are
        never replayed and their links open nothing, dropped from memory, their connections
        closed (code 4410). Returns their ids. A finished game with no connection left for
        ``KEEP_FINISHED`` seconds is let go from memory too (not expired: its links load it
        again). The server sweeps every ``SWEEP_SECONDS`` and before refusing a table for a
        limit.

        >>> server = Server(Store(":memory:"), limits=Limits(unplayed_seconds=60))
        >>> table, links = server.create_table(["human"] * 4)
        >>> table.created -= 61  # an hour ago, and nobody has played
        >>> server.expire() == [table.id], server.tables, server.open(links["spectator"])
        (True, {}, None)
        """
        self._swept = time.monotonic()
        now = time.time()
        for table in [
            table for table in self.tables.values() if table.finished and now - table.touched > KEEP_FINISHED
        ]:
            if not self.spectators.get(table.id) and not any(
                (table.id, seat) in self.players for seat in range(PLAYERS)
            ):
                del self.tables[table.id], self.locks[table.id], self.spectators[table.id]
        stale = [table for table in self.tables.values() if self.is_stale(table, now)]
        if not stale:
            return []
        self.store.expire(table.id for table in stale)
        for table in stale:
            del self.tables[table.id], self.locks[table.id]
            connections = list(self.spectators.pop(table.id, ()))
            connections += [
                self.players.pop((table.id, seat)) for seat in range(PLAYERS) if (table.id, seat) in self.players
            ]
            for connection in connections:
                connection.closed = True
                if _loop_running():
                    self._spawn(
                        _close(connection, 4410, _error("expired", "this table expired: nobody played at it in time"))
                    )
        return [table.id for table in stale]

    def _adopt(self, table: Table) -> None:
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.spectators[table.id] = set()
        self._start_bots(table)

    def resume_all(self) -> int:
        """Replay every unfinished table from the database (on start), then expire the stale
        ones; returns how many are in play."""
        tables = self.store.unfinished()
        for table in tables:
            self._adopt(table)
        self.expire()
        return len(self.tables)

    def open(self, token: str) -> tuple[Table, int | None] | None:
        """The table (loaded from the database if need be) and seat a token opens, or ``None``."""
        found = self.store.find_token(token) if 8 <= len(token) <= 64 else None
        if found is None:
            return None
        table_id, seat = found
        if table_id not in self.tables:
            table = self.store.load(table_id)
            if table is None:
                return None
            self._adopt(table)
        return self.tables[table_id], seat

    # --- actions ---------------------------------------------------------------------------

    async def accept(self, table: Table, seat: int, action: Action, sender: Connection | None = None,
                     request_id: object = None) -> None:  # fmt: skip
        """Apply ``action`` for ``seat`` (under the table's lock), store it, acknowledge it to
        ``sender`` and send every connection its new frame. Raises what the table raises."""
        before, logged = table.state, len(table.log)
        action, after = table.check(seat, action)
        # The commit (an fsync) runs on the store's own thread: the event loop serves the other
        # tables meanwhile, and this table's lock keeps its actions in order.
        await self._commits.add(ActionRow(table.id, table.seq + 1, seat, str(action), after.phase is Phase.GAME_OVER))
        table.commit(action, after)
        sends = [] if sender is None else [(sender, _ack(table.seq, action, request_id))]
        if table.state.deal_number != before.deal_number and table.ended is not None:
            # The finished deal (its action and score), then the next deal's heading.
            heading = len(table.log) - 1
            sends += self._frames(table, (logged, heading), table.ended)
            logged = heading
        await _send_in_turn(sends + self._frames(table, (logged, len(table.log))))
        self._start_bots(table)

    def _frames(
        self, table: Table, log: tuple[int, int], state: GameState | None = None
    ) -> list[tuple[Connection, str]]:
        """Each connection of a table and its frame with the log entries ``log`` (a slice):
        the frames are written together (:meth:`~persian_rummy.server.tables.Table.frames`),
        the spectators' once for them all."""
        found = [(seat, self.players.get((table.id, seat))) for seat in range(PLAYERS)]
        seated = [(seat, connection) for seat, connection in found if connection is not None]
        watchers = list(self.spectators.get(table.id, ()))
        if not seated and not watchers:
            return []
        seats: list[int | None] = [seat for seat, _ in seated]
        frames = table.frames([*seats, None] if watchers else seats, state, log)
        sends = [(connection, frame) for (_, connection), frame in zip(seated, frames, strict=False)]
        sends += [(connection, frames[-1]) for connection in watchers]
        return sends

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _start_bots(self, table: Table) -> None:
        state = table.state
        if state.phase.is_live and table.bots[state.current_player] is not None and _loop_running():
            self._spawn(self._drive_bots(table))

    async def _drive_bots(self, table: Table) -> None:
        """Play the bots' moves while a bot is to act (one driver per move: each accepted move
        starts the next)."""
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        lock = self.locks.get(table.id)
        if lock is None or self.tables.get(table.id) is not table:
            return  # expired meanwhile
        async with lock:
            state = table.state
            seat = state.current_player
            bot = table.bots[seat]
            if bot is None or not state.phase.is_live:
                return
            action = await asyncio.to_thread(bot, state.view(seat))
            if table.state is state and self.tables.get(table.id) is table:
                await self.accept(table, seat, action)

    async def sweep(self) -> None:
        """Expire the stale tables every ``SWEEP_SECONDS`` (run for the server's life)."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.expire()

    async def close(self) -> None:
        """Stop the bots and close the database."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._writer.shutdown()
        self.store.close()

    # --- connections ------------------------------------------------------------------------

    async def connect(self, websocket: WebSocket, token: str) -> None:
        """Serve one WebSocket until it closes."""
        await websocket.accept()
        client = _client(websocket)
        if self.clients[client] >= self.limits.connections_per_client:
            reason = f"at most {self.limits.connections_per_client} connections from one address"
            await websocket.send_text(json.dumps(_error("too_many_connections", reason)))
            await websocket.close(code=4429)
            return
        self.clients[client] += 1
        try:
            await self._serve(websocket, token)
        finally:
            self.clients[client] -= 1
            if not self.clients[client]:
                del self.clients[client]

    async def _serve(self, websocket: WebSocket, token: str) -> None:
        opened = self.open(token)
        if opened is None:
            await websocket.send_text(json.dumps(_error("unknown_token", "this link opens no table")))
            await websocket.close(code=4404)
            return
        table, seat = opened
        if seat is None and len(self.spectators[table.id]) >= self.limits.spectators:
            reason = f"this table already has {self.limits.spectators} spectators"
            await websocket.send_text(json.dumps(_error("too_many_connections", reason)))
            await websocket.close(code=4429)
            return
        connection = Connection(websocket, table, seat, self.limits)
        lock = self.locks[table.id]
        try:
            # Under the table's lock: the welcome and the current frame go out before any
            # broadcast can reach the new connection, so frames never arrive out of order.
            async with lock:
                await connection.send(
                    {
                        "type": "welcome",
                        "protocol": PROTOCOL,
                        "table": table.id,
                        "seat": seat,
                        "role": "spectator" if seat is None else "player",
                        "names": list(table.names),
                    }
                )
                # The connection's first frame holds the whole log.
                await connection.send_text(table.frames([seat])[0])
                if seat is None:
                    self.spectators[table.id].add(connection)
                else:
                    previous = self.players.get((table.id, seat))
                    self.players[(table.id, seat)] = connection
                    if previous is not None:
                        # Closed before the lock is let go: an action it sent meanwhile is refused.
                        await _close(previous, 4409, _error("superseded", "this seat was opened in another window"))
            while not connection.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not await self.receive(connection, message):
                    break
        except WebSocketDisconnect:
            pass
        finally:
            connection.closed = True
            self.spectators.get(table.id, set()).discard(connection)
            if seat is not None and self.players.get((table.id, seat)) is connection:
                del self.players[(table.id, seat)]

    def _holds(self, connection: Connection) -> bool:
        """Whether a connection still speaks for its seat: open, the seat's latest window, at
        a table still in play on this server."""
        table = connection.table
        return (
            not connection.closed
            and self.tables.get(table.id) is table
            and (connection.seat is None or self.players.get((table.id, connection.seat)) is connection)
        )

    async def receive(self, connection: Connection, message: Mapping[str, Any]) -> bool:
        """Handle one message from a client; returns ``False`` when the connection must close."""
        text = message.get("text")
        if not connection.bucket.take():
            connection.strikes += 1
            if connection.strikes > self.limits.strikes:
                await connection.send(_error("rate_limited", "too many messages: closing"))
                await connection.websocket.close(code=1008)
                return False
            await connection.send(_error("rate_limited", f"at most {self.limits.rate:g} messages a second"))
            return True
        if text is None:
            await connection.send(_error("bad_frame", "messages are JSON text, not binary"))
            return True
        if (
            len(text) > self.limits.message_bytes
            or len(text.encode("utf-8", "surrogatepass")) > self.limits.message_bytes
        ):
            await connection.send(_error("too_large", f"a message is at most {self.limits.message_bytes} bytes"))
            return True
        try:
            frame = json.loads(text)
        except (ValueError, RecursionError):
            await connection.send(_error("bad_frame", "a message is one JSON object"))
            return True
        if not isinstance(frame, dict) or frame.get("type") not in ("action", "ping"):
            await connection.send(
                _error("bad_frame", 'a message is {"type": "action", "action": "..."} or {"type": "ping"}')
            )
            return True
        request_id = frame.get("id")
        if not (request_id is None or (isinstance(request_id, int | str) and len(str(request_id)) <= 40)):
            await connection.send(_error("bad_frame", "an id is a number or a short text"))
            return True
        if frame["type"] == "ping":
            await connection.send({"type": "pong", "id": request_id})
            return True
        if connection.seat is None:
            await connection.send(_error("spectator", "a spectator link cannot play", id=request_id))
            return True
        text_action = frame.get("action")
        if not isinstance(text_action, str):
            await connection.send(_error("bad_frame", 'an action is its text, such as "draw"', id=request_id))
            return True
        try:
            action = Action.parse(text_action)
        except NotationError as error:
            await connection.send(_error("bad_action", error.reason, id=request_id))
            return True
        lock = self.locks.get(connection.table.id)
        if lock is None:
            return False  # the table expired
        async with lock:
            # Asked under the lock, as the seat changes hands under it: a window replaced while
            # its action waited for the lock does not play it.
            if not self._holds(connection):
                return False
            try:
                await self.accept(connection.table, connection.seat, action, connection, request_id)
            except sqlite3.Error:
                # Not stored, so not played: the table is unchanged and the client may retry.
                await connection.send(_error("unavailable", "the action could not be stored: try again", id=request_id))
            except NotYourTurnError as error:
                await connection.send(_error("not_your_turn", error.reason, id=request_id, action=str(action)))
            except PersianRummyError as error:
                await connection.send(_error("refused", error.reason, id=request_id, action=str(action)))
        return True


async def _close(connection: Connection, code: int, notice: dict[str, Any]) -> None:
    """Mark a connection closed, tell it why and close it with ``code`` (it may be gone already)."""
    connection.closed = True
    websocket = connection.websocket
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError, asyncio.TimeoutError):
        if websocket.application_state is WebSocketState.CONNECTED:
            await _within(websocket.send_text(json.dumps(notice)), SEND_TIMEOUT)
        await websocket.close(code=code)


def _client(connection: HTTPConnection) -> str:
    """The address a request or WebSocket came from, which the limits per client count by: an
    IPv6 address by its /64 network (one subscriber is commonly given a whole /64)."""
    host = connection.client.host if connection.client is not None else ""
    if ":" in host:
        with contextlib.suppress(ValueError):
            return str(ipaddress.IPv6Network(f"{host}/64", strict=False))
    return host


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


# --- HTTP --------------------------------------------------------------------------------------


class _SecurityHeaders:
    """ASGI middleware: every HTTP response gets the security headers and a cache policy
    (the ones the application itself answers, 404 and 405 included), unless it set them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        cache = _CACHED if path.startswith("/static/") or path == "/favicon.ico" else _NO_STORE

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _HEADERS.items():
                    headers.setdefault(name, value)
                headers.setdefault("cache-control", cache)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _BodyLimit:
    """ASGI middleware: an HTTP request whose body is over ``limit`` bytes is answered 413
    before the application sees it (the body is read once, bounded, then handed on)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "0")
        too_large = not declared.isdigit() or int(declared) > self.limit
        chunks: list[bytes] = []
        size, more = 0, not too_large
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            chunks.append(chunk)
            more = message.get("more_body", False)
            too_large = size > self.limit
            more = more and not too_large
        if too_large:
            reason = f"a request's body is at most {self.limit} bytes"
            response: Response = (
                JSONResponse({"error": reason}, 413)
                if scope["path"].startswith("/api/")
                else _html(problem(f"The form is too large: {reason}."), 413)
            )
            await response(scope, receive, send)
            return
        body, handed = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal handed
            if handed:
                return await receive()
            handed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status)


def _cross_site(request: Request) -> bool:
    """Whether a browser says a request came from a page of another site: a table is created
    from this server's own pages or by a program, never by a page elsewhere through its
    visitors' browsers. A browser's ``Sec-Fetch-Site`` decides where it is sent; else an
    ``Origin`` must be this server's (``null``, as from a sandboxed frame, is not)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = request.headers.get("origin")
    return origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}"


def _table_spec(data: Mapping[str, Any]) -> tuple[list[str], Rules, list[str] | None]:
    """Seats, rules and names from a creation request (JSON, or the lobby form's fields)."""
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != PLAYERS or not all(isinstance(kind, str) for kind in seats):
        raise NotationError('"seats" is a list of 4 seat kinds: "human" or a bot\'s name')
    rules = data.get("rules", "default")
    if not isinstance(rules, str) or len(rules) > 400:
        raise NotationError('"rules" is a preset\'s name or knobs such as "deals=1 going_out_bonus=50"')
    names = data.get("names")
    if names is not None and (not isinstance(names, list) or not all(isinstance(name, str) for name in names)):
        raise NotationError('"names" is a list of 4 player names')
    return [kind.strip() for kind in seats], Rules.parse(rules or "default"), names


def _form(body: bytes, limit: int) -> dict[str, list[str]]:
    """The lobby form's fields; raises :class:`~persian_rummy.NotationError` past ``limit`` fields."""
    try:
        return parse_qs(body.decode("utf-8", "replace"), max_num_fields=limit)
    except ValueError:
        message = f"the form has at most {limit} fields"
        raise NotationError(message, reason=message) from None


def create_app(
    db: str | Store = "persian-rummy.sqlite3", *, bot_delay: float = 0.0, limits: Limits = Limits()
) -> Starlette:
    """The Starlette application of a table server storing its games in the SQLite file
    ``db`` (or a :class:`~persian_rummy.server.store.Store`); on start it replays every
    unfinished game found there. ``app.state.server`` is the :class:`~persian_rummy.server.app.Server`.

    >>> create_app(":memory:").state.server.tables
    {}
    """
    server = Server(db if isinstance(db, Store) else Store(db), bot_delay=bot_delay, limits=limits)

    async def lobby_page(request: Request) -> Response:
        # The lobby holds no secret: its form is sent with its true Origin (under no-referrer a
        # browser sends "null"), which the check on creating a table reads.
        return HTMLResponse(lobby(), headers={"referrer-policy": "same-origin"})

    async def create_form(request: Request) -> Response:
        if _cross_site(request):
            return _html(problem("A table is created from this server's own lobby, not from another site."), 403)
        try:
            fields = _form(await request.body(), limits.form_fields)
            knobs = fields.get("knobs", [""])[0].strip()
            data = {
                "seats": [fields.get(f"seat{seat}", [HUMAN])[0] for seat in range(PLAYERS)],
                "rules": knobs or fields.get("preset", ["default"])[0],
                "names": [fields.get(f"name{seat}", [""])[0].strip() or SEAT_NAMES[seat] for seat in range(PLAYERS)],
            }
            seats, rules, names = _table_spec(data)
            table, tokens = await server.create_table_async(seats, rules=rules, names=names, client=_client(request))
        except CapacityError as error:
            return _html(problem(error.reason), error.status)
        except PersianRummyError as error:
            return _html(problem(error.reason), 400)
        return _html(created(table, tokens, str(request.base_url).rstrip("/")), 201)

    async def create_json(request: Request) -> Response:
        if _cross_site(request):
            return JSONResponse({"error": "a table is not created from another site's page"}, 403)
        try:
            data = json.loads(await request.body())
            if not isinstance(data, dict):
                raise ValueError
        except (ValueError, RecursionError):
            return JSONResponse({"error": "the request is one JSON object"}, 400)
        try:
            seats, rules, names = _table_spec(data)
            table, tokens = await server.create_table_async(seats, rules=rules, names=names, client=_client(request))
        except CapacityError as error:
            return JSONResponse({"error": error.reason}, error.status)
        except PersianRummyError as error:
            return JSONResponse({"error": error.reason}, 400)
        people = dict(tokens["seats"])
        return JSONResponse(
            {
                "id": table.id,
                "seats": [
                    {
                        "seat": seat,
                        "bot": None if seat in people else table.seats[seat],
                        "token": people.get(seat),
                        "url": f"/play/{people[seat]}" if seat in people else None,
                    }
                    for seat in range(PLAYERS)
                ],
                "spectator": {"token": tokens["spectator"], "url": f"/watch/{tokens['spectator']}"},
            },
            201,
        )

    async def seat_page(request: Request) -> Response:
        opened = server.open(request.path_params["token"])
        if opened is None:
            return _html(problem("This link opens no table."), 404)
        table, seat = opened
        return _html(table_page(table, seat))

    async def record(request: Request) -> Response:
        opened = server.open(request.path_params["token"])
        table, seat = opened if opened is not None else (None, None)
        if table is None or seat is None:
            return PlainTextResponse("This link has no record to download.", 404)
        async with server.locks[table.id]:
            text = table.record_text(seat)
        disposition = f'attachment; filename="persian-rummy-{table.id}-{SEAT_NAMES[seat].lower()}.prr"'
        return PlainTextResponse(text, headers={"Content-Disposition": disposition})

    async def rematch(request: Request) -> Response:
        if _cross_site(request):
            return JSONResponse({"error": "a rematch is not asked for from another site's page"}, 403)
        try:
            token = await server.rematch(request.path_params["token"], _client(request))
        except CapacityError as error:
            return JSONResponse({"error": error.reason}, error.status)
        except PersianRummyError as error:
            return JSONResponse({"error": error.reason}, 400)
        return JSONResponse({"url": f"/play/{token}"}, 201)

    async def favicon(request: Request) -> Response:
        return FileResponse(_ICON, media_type="image/svg+xml")

    async def websocket(websocket: WebSocket) -> None:
        await server.connect(websocket, websocket.path_params["token"])

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.resume_all()
        server._spawn(server.sweep())
        yield
        await server.close()

    app = Starlette(
        routes=[
            Route("/", lobby_page),
            Route("/tables", create_form, methods=["POST"]),
            Route("/api/tables", create_json, methods=["POST"]),
            Route("/api/rematch/{token}", rematch, methods=["POST"]),
            Route("/play/{token}", seat_page),
            Route("/watch/{token}", seat_page),
            Route("/record/{token}", record),
            Route("/favicon.ico", favicon),
            Mount("/static", StaticFiles(packages=[("persian_rummy.server", "static")]), name="static"),
            WebSocketRoute("/ws/{token}", websocket),
        ],
        middleware=[Middleware(_SecurityHeaders), Middleware(_BodyLimit, limit=limits.body_bytes)],
        lifespan=lifespan,
    )
    app.state.server = server
    return app
