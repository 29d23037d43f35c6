"""The hub of the table server: the :class:`Server` that owns the tables in memory, their
SQLite :class:`~persian_rummy.server.store.Store`, the open connections of each table's
seats and spectators, and the bots. Every message from a client goes through
:meth:`Server.receive`: it is rate-limited and parsed (:func:`parse_message`, a pure
function), and answered with an error frame when it is bad, never with a crash. An action is
applied by the table for the seat its token opens (``play(..., seat=...)``), written to
SQLite, acknowledged to its sender and then sent to every connection of the table as that
seat's (or the spectators') frame: its view, its legal actions and the new entries of the
table's log (protocol :data:`~persian_rummy.server.tables.PROTOCOL`).

>>> parse_message('{"type": "action", "action": "draw", "id": 3}', 4096, spectator=False)
ClientMessage(action=DrawStock(), id=3)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import sqlite3
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

import attrs
from starlette.websockets import WebSocket, WebSocketDisconnect

from persian_rummy.actions import Action
from persian_rummy.errors import NotationError, NotYourTurnError, PersianRummyError
from persian_rummy.presentation import addressed
from persian_rummy.rules import Rules
from persian_rummy.server.connections import (
    Connection,
    ack_frame,
    close_connection,
    error_frame,
    send_in_turn,
)
from persian_rummy.server.limits import DEFAULT_LIMITS, CapacityError, Limits, client_address
from persian_rummy.server.store import ActionRow, GroupCommit, Store
from persian_rummy.server.tables import HUMAN, PROTOCOL, WEB_STYLE, Table, new_token
from persian_rummy.state import PLAYERS, SEAT_NAMES, GameState

__all__ = ["KEEP_FINISHED", "SWEEP_SECONDS", "BadMessage", "ClientMessage", "Server", "parse_message"]

#: Seconds between two sweeps for tables to expire.
SWEEP_SECONDS: Final = 60.0
#: Seconds a finished game stays in memory with no connection (it is loaded again on demand).
KEEP_FINISHED: Final = 600.0


@attrs.frozen
class ClientMessage:
    """A client's message, parsed: an action to play (``action``), or a ping (``action`` is
    ``None``); ``id`` is the client's request id, echoed in the answer."""

    action: Action | None
    id: int | str | None


class BadMessage(ValueError):
    """A message refused before any table sees it: ``code`` and ``reason`` go into the error
    frame (:meth:`frame`), with the message's ``id`` when it had a good one.

    >>> BadMessage("bad_frame", "a message is one JSON object").frame()["code"]
    'bad_frame'
    """

    def __init__(self, code: str, reason: str, *request_id: int | str | None) -> None:
        super().__init__(reason)
        # The id, once the message's was read and found good (it may be None).
        self.code, self.reason, self.request_id = code, reason, request_id

    def frame(self) -> dict[str, Any]:
        """The error frame that answers the message."""
        if not self.request_id:
            return error_frame(self.code, self.reason)
        return error_frame(self.code, self.reason, id=self.request_id[0])


def parse_message(text: str | None, limit: int, *, spectator: bool) -> ClientMessage:
    """A client's WebSocket message (its text, ``None`` for a binary one) of at most ``limit``
    bytes, parsed; raises :class:`BadMessage` saying what is wrong with it. A spectator's
    connection may only ping.

    >>> parse_message('{"type": "ping", "id": "a"}', 4096, spectator=True)
    ClientMessage(action=None, id='a')
    >>> parse_message('{"type": "action", "action": "draw"}', 4096, spectator=True)
    Traceback (most recent call last):
    ...
    persian_rummy.server.hub.BadMessage: a spectator link cannot play
    """
    if text is None:
        raise BadMessage("bad_frame", "messages are JSON text, not binary")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise BadMessage("too_large", f"a message is at most {limit} bytes")
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("bad_frame", "a message is one JSON object") from None
    if not isinstance(frame, dict) or frame.get("type") not in ("action", "ping"):
        raise BadMessage("bad_frame", 'a message is {"type": "action", "action": "..."} or {"type": "ping"}')
    request_id = frame.get("id")
    if not (request_id is None or (isinstance(request_id, int | str) and len(str(request_id)) <= 40)):
        raise BadMessage("bad_frame", "an id is a number or a short text")
    if frame["type"] == "ping":
        return ClientMessage(None, request_id)
    if spectator:
        raise BadMessage("spectator", "a spectator link cannot play", request_id)
    text_action = frame.get("action")
    if not isinstance(text_action, str):
        raise BadMessage("bad_frame", 'an action is its text, such as "draw"', request_id)
    try:
        return ClientMessage(Action.parse(text_action), request_id)
    except NotationError as error:
        raise BadMessage("bad_action", error.reason, request_id) from None


class Server:
    """The tables of one server, their database and their connections.

    ``bot_delay`` is the pause (seconds) before each bot move, so people can follow the
    game; tests use 0.

    >>> server = Server(Store(":memory:"))
    >>> table, links = server.create_table(["human", "random", "human", "random"], client="192.0.2.1")
    >>> [seat for seat, _ in links["seats"]], links["spectator"] != links["seats"][0][1], table.owner
    ([0, 2], True, '192.0.2.1')
    """

    def __init__(self, store: Store, *, bot_delay: float = 0.0, limits: Limits = DEFAULT_LIMITS) -> None:
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
        self._commits = GroupCommit(store, self._writer)
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
        :class:`~persian_rummy.server.limits.CapacityError` when the server or the client has as many tables in play as
        :class:`~persian_rummy.server.limits.Limits` allows (after expiring the tables nobody plays)."""
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
        not over, and :class:`~persian_rummy.server.limits.CapacityError` as :meth:`create_table` does."""
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
        """Raise :class:`~persian_rummy.server.limits.CapacityError` if one more table for ``client`` is over a limit."""
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
                        close_connection(
                            connection, 4410, error_frame("expired", "this table expired: nobody played at it in time")
                        )
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
        await self._commits.add(ActionRow(table.id, table.seq + 1, seat, str(action), after.is_over))
        table.commit(action, after)
        sends = [] if sender is None else [(sender, ack_frame(table.seq, action, request_id))]
        if table.state.deal_number != before.deal_number and table.ended is not None:
            # The finished deal (its action and score), then the next deal's heading.
            heading = len(table.log) - 1
            sends += self._frames(table, (logged, heading), table.ended)
            logged = heading
        await send_in_turn(sends + self._frames(table, (logged, len(table.log))))
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

    def start_sweeping(self) -> None:
        """Start :meth:`sweep` for the server's life (on the running event loop)."""
        self._spawn(self.sweep())

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
        client = client_address(websocket)
        if self.clients[client] >= self.limits.connections_per_client:
            reason = f"at most {self.limits.connections_per_client} connections from one address"
            await websocket.send_text(json.dumps(error_frame("too_many_connections", reason)))
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
            await websocket.send_text(json.dumps(error_frame("unknown_token", "this link opens no table")))
            await websocket.close(code=4404)
            return
        table, seat = opened
        if seat is None and len(self.spectators[table.id]) >= self.limits.spectators:
            reason = f"this table already has {self.limits.spectators} spectators"
            await websocket.send_text(json.dumps(error_frame("too_many_connections", reason)))
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
                        await close_connection(
                            previous, 4409, error_frame("superseded", "this seat was opened in another window")
                        )
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
        if not connection.bucket.take():
            connection.strikes += 1
            if connection.strikes > self.limits.strikes:
                await connection.send(error_frame("rate_limited", "too many messages: closing"))
                await connection.websocket.close(code=1008)
                return False
            await connection.send(error_frame("rate_limited", f"at most {self.limits.rate:g} messages a second"))
            return True
        try:
            request = parse_message(message.get("text"), self.limits.message_bytes, spectator=connection.seat is None)
        except BadMessage as error:
            await connection.send(error.frame())
            return True
        if request.action is None:
            await connection.send({"type": "pong", "id": request.id})
            return True
        assert connection.seat is not None  # parse_message refuses a spectator's action
        lock = self.locks.get(connection.table.id)
        if lock is None:
            return False  # the table expired
        action, request_id = request.action, request.id
        async with lock:
            # Asked under the lock, as the seat changes hands under it: a window replaced while
            # its action waited for the lock does not play it.
            if not self._holds(connection):
                return False
            try:
                await self.accept(connection.table, connection.seat, action, connection, request_id)
            except sqlite3.Error:
                # Not stored, so not played: the table is unchanged and the client may retry.
                await connection.send(
                    error_frame("unavailable", "the action could not be stored: try again", id=request_id)
                )
            except PersianRummyError as error:
                # The reason in words for the player who tried (only they are sent it).
                code = "not_your_turn" if isinstance(error, NotYourTurnError) else "refused"
                reason = addressed(error, connection.seat, WEB_STYLE)
                await connection.send(error_frame(code, reason, id=request_id, action=str(action)))
        return True


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
