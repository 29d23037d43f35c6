"""The hub of the table server: the :class:`Server` that keeps the tables in play in memory
(one :class:`~persian_rummy.server.live.LiveTable` each: the game, its lock, its people's
connections, its spectators, its rematch), their SQLite
:class:`~persian_rummy.server.store.Store`, and the bots. Every message from a client goes through
:meth:`Server.receive`: it is rate-limited and parsed (:func:`parse_message`, a pure
function), and answered with an error frame when it is bad, never with a crash. An action is
applied by the table for the seat its token opens (``play(..., seat=...)``), written to
SQLite, acknowledged to its sender and then sent to every connection of the table as that
seat's (or the spectators') frame: its view, its legal actions and the new entries of the
table's log (protocol :data:`~persian_rummy.server.protocol.PROTOCOL`).

>>> parse_message('{"type": "action", "action": "draw", "id": 3}', 4096, spectator=False)
ClientMessage(action=DrawStock(), id=3, hint=False)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs
from starlette.websockets import WebSocket, WebSocketDisconnect

from persian_rummy.actions import Action
from persian_rummy.errors import ArgumentTypeError, NotationError, NotYourTurnError, PersianRummyError, excerpt
from persian_rummy.presentation import addressed
from persian_rummy.rules import Rules
from persian_rummy.server.connections import Connection, close_connection, error_frame, send_in_turn
from persian_rummy.server.hints import Hints
from persian_rummy.server.limits import DEFAULT_LIMITS, CapacityError, Limits, client_address
from persian_rummy.server.live import LiveTable
from persian_rummy.server.protocol import CLOSE_CODES, HUMAN, WEB_STYLE, encode_frame
from persian_rummy.server.store import ActionRow, GroupCommit, Store
from persian_rummy.server.tables import Table, new_token
from persian_rummy.state import PLAYERS, SEAT_NAMES

__all__ = ["KEEP_FINISHED", "SWEEP_SECONDS", "BadMessage", "ClientMessage", "Server", "parse_message"]

#: Seconds between two sweeps for tables to expire.
SWEEP_SECONDS: Final = 60.0
#: Seconds a finished game stays in memory with no connection (it is loaded again on demand).
KEEP_FINISHED: Final = 600.0


@attrs.frozen
class ClientMessage:
    """A client's message, parsed: an action to play (``action``), a ping (``action`` is
    ``None``) or a request for a hint (``hint``); ``id`` is the client's request id, echoed in
    the answer."""

    action: Action | None
    id: int | str | None
    hint: bool = False


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

    >>> parse_message('{"type": "hint", "id": 4}', 4096, spectator=False)
    ClientMessage(action=None, id=4, hint=True)

    >>> parse_message('{"type": "ping", "id": "a"}', 4096, spectator=True)
    ClientMessage(action=None, id='a', hint=False)
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
    if not isinstance(frame, dict) or frame.get("type") not in ("action", "ping", "hint"):
        raise BadMessage(
            "bad_frame", 'a message is {"type": "action", "action": "..."}, {"type": "hint"} or {"type": "ping"}'
        )
    request_id = frame.get("id")
    if not (request_id is None or (isinstance(request_id, int | str) and len(str(request_id)) <= 40)):
        raise BadMessage("bad_frame", "an id is a number or a short text")
    if frame["type"] == "ping":
        return ClientMessage(None, request_id)
    if spectator:
        raise BadMessage("spectator", "a spectator link cannot play", request_id)
    if frame["type"] == "hint":
        return ClientMessage(None, request_id, hint=True)
    text_action = frame.get("action")
    if not isinstance(text_action, str):
        raise BadMessage("bad_frame", 'an action is its text, such as "draw"', request_id)
    try:
        return ClientMessage(Action.parse(text_action), request_id)
    except NotationError as error:
        raise BadMessage("bad_action", error.reason, request_id) from None


class Server:
    """The tables of one server, their database and their connections. Each table in play
    is one :class:`~persian_rummy.server.live.LiveTable`, kept by id and let go in one place.

    ``bot_delay`` is the pause (seconds) before each bot move, so people can follow the
    game; tests use 0. ``clock`` is what the connections' message rates are measured by
    (:class:`~persian_rummy.server.limits.TokenBucket`): ``time.monotonic`` unless a test
    gives one it moves itself.

    >>> server = Server(Store(":memory:"))
    >>> table, links = server.create_table(["human", "random", "human", "random"], client="192.0.2.1")
    >>> [seat for seat, _ in links["seats"]], links["spectator"] != links["seats"][0][1], table.owner
    ([0, 2], True, '192.0.2.1')
    >>> server.live_table(table.id).table is table, list(server.tables) == [table.id]
    (True, True)
    """

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.0,
        limits: Limits = DEFAULT_LIMITS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not callable(clock):
            raise ArgumentTypeError(f"a clock is a function that returns seconds, not {excerpt(clock)}")
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits
        self.clock = clock
        # The tables in play here, by id: each holds all that is kept for it.
        self._live: dict[str, LiveTable] = {}
        #: The open connections of each client address.
        self.clients: Counter[str] = Counter()
        self._tasks: set[asyncio.Task[None]] = set()
        self._writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="persian-rummy-store")
        self._commits = GroupCommit(store, self._writer)
        # Tables being stored by create_table_async, by client: they count towards the limits.
        self._creating: Counter[str] = Counter()
        self._swept = 0.0
        #: The hints the seats ask for.
        self.hints = Hints()

    # --- tables ----------------------------------------------------------------------------

    @property
    def tables(self) -> dict[str, Table]:
        """The tables in memory, by id (a new dictionary: the server's own is not handed out).

        >>> Server(Store(":memory:")).tables
        {}
        """
        return {table_id: live.table for table_id, live in self._live.items()}

    def live_table(self, table_id: str) -> LiveTable | None:
        """The table ``table_id`` as it is kept in memory, or ``None`` when it is not."""
        return self._live.get(table_id)

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
        >>> server.open(links["spectator"])[0].table is table
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
        new table with the same seats, names and rules, made once, by the first seat to ask,
        and kept with the finished table while it is in memory).
        Raises :class:`~persian_rummy.NotationError` for a link that opens no seat or a game
        not over, and :class:`~persian_rummy.server.limits.CapacityError` as :meth:`create_table` does."""
        opened = self.open(token)
        if opened is None or opened[1] is None:
            raise NotationError("this link opens no seat", reason="this link opens no seat")
        live, seat = opened[0], opened[1]
        table = live.table
        if not table.finished:
            raise NotationError("the game is not over yet", reason="the game is not over yet")
        # Under the table's lock: seats asking together get the one rematch.
        async with live.lock:
            if live.rematch is None:
                _, links = await self.create_table_async(
                    list(table.seats), rules=table.rules, names=list(table.names), client=client
                )
                live.rematch = dict(links["seats"])
            return live.rematch[seat]

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
            in_play = [live.table for live in self._live.values() if not live.table.finished]
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
        never replayed and their links open nothing, let go from memory, their connections
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
        for live in list(self._live.values()):
            if live.table.finished and now - live.table.touched > KEEP_FINISHED and not live.is_watched:
                self._let_go(live)
        stale = [live for live in self._live.values() if self.is_stale(live.table, now)]
        if not stale:
            return []
        self.store.expire(live.id for live in stale)
        notice = error_frame("expired", "this table expired: nobody played at it in time")
        for live in stale:
            for connection in self._let_go(live):
                if _loop_running():
                    self._spawn(close_connection(connection, CLOSE_CODES["expired"], notice))
        return [live.id for live in stale]

    def _let_go(self, live: LiveTable) -> list[Connection]:
        """The one place a table leaves memory: out of the server's keeping, and ended
        (:meth:`~persian_rummy.server.live.LiveTable.end`: its connections, spectators and
        rematch released). Returns the connections that were open, for the caller to tell."""
        del self._live[live.id]
        return live.end()

    def _adopt(self, table: Table) -> LiveTable:
        live = self._live[table.id] = LiveTable(table)
        self._start_bots(live)
        return live

    def resume_all(self) -> int:
        """Replay every unfinished table from the database (on start), then expire the stale
        ones; returns how many are in play."""
        tables = self.store.unfinished()
        for table in tables:
            self._adopt(table)
        self.expire()
        return len(self._live)

    def open(self, token: str) -> tuple[LiveTable, int | None] | None:
        """The table in play (loaded from the database if need be) and the seat a token
        opens (``None`` for a spectator link), or ``None``."""
        found = self.store.find_token(token) if 8 <= len(token) <= 64 else None
        if found is None:
            return None
        table_id, seat = found
        live = self._live.get(table_id)
        if live is None:
            table = self.store.load(table_id)
            if table is None:
                return None
            live = self._adopt(table)
        return live, seat

    # --- actions ---------------------------------------------------------------------------

    async def accept(self, live: LiveTable, seat: int, action: Action, sender: Connection | None = None,
                     request_id: object = None) -> None:  # fmt: skip
        """Apply ``action`` for ``seat`` (under the table's lock), store it, acknowledge it to
        ``sender`` and send every connection its new frame. Raises what the table raises."""
        table = live.table
        action, after = table.check(seat, action)
        # The commit (an fsync) runs on the store's own thread: the event loop serves the other
        # tables meanwhile, and this table's lock keeps its actions in order. The store refuses a
        # second action of the same number.
        await self._commits.add(ActionRow(table.id, table.seq + 1, seat, str(action), after.is_over))
        await send_in_turn(live.commit(action, after, sender, request_id))
        self._start_bots(live)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _start_bots(self, live: LiveTable) -> None:
        state = live.table.state
        if state.phase.is_live and live.table.bots[state.current_player] is not None and _loop_running():
            self._spawn(self._drive_bots(live))

    async def _drive_bots(self, live: LiveTable) -> None:
        """Play the bots' moves while a bot is to act (one driver per move: each accepted move
        starts the next)."""
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        if live.ended:
            return  # let go meanwhile
        async with live.lock:
            table = live.table
            state = table.state
            seat = state.current_player
            bot = table.bots[seat]
            if bot is None or not state.phase.is_live or live.ended:
                return
            action = await asyncio.to_thread(bot, state.view(seat))
            if table.state is state and not live.ended:
                await self.accept(live, seat, action)

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
            await _refuse(websocket, "too_many_connections", reason)
            return
        self.clients[client] += 1
        try:
            await self._serve(websocket, token)
        finally:
            self.clients[client] -= 1
            if not self.clients[client]:
                del self.clients[client]

    async def _serve(self, websocket: WebSocket, token: str) -> None:
        # A table let go while the connection waited to join is opened again (or found gone).
        for _ in range(3):
            opened = self.open(token)
            if opened is None:
                await _refuse(websocket, "unknown_token", "this link opens no table")
                return
            live, seat = opened
            if seat is None and live.spectator_count >= self.limits.spectators:
                reason = f"this table already has {self.limits.spectators} spectators"
                await _refuse(websocket, "too_many_connections", reason)
                return
            connection = Connection(websocket, live.table, seat, self.limits, clock=self.clock)
            if await live.admit(connection):
                break
        else:
            return
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

    def _live_of(self, connection: Connection) -> LiveTable | None:
        """The table in play that ``connection`` joined, unless it was let go since."""
        live = self._live.get(connection.table.id)
        return live if live is not None and live.table is connection.table else None

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
        if request.action is None and not request.hint:
            await connection.send({"type": "pong", "id": request.id})
            return True
        assert connection.seat is not None  # parse_message refuses a spectator's action
        live = self._live_of(connection)
        if live is None:
            return False  # the table expired
        async with live.lock:
            # Asked under the lock, as the seat changes hands under it: a window replaced while
            # its action waited for the lock does not play it.
            if not live.holds(connection):
                return False
            if request.hint:
                await self.hints.answer(live, connection, request.id)
            else:
                await self._play(live, connection, request)
        return True

    async def _play(self, live: LiveTable, connection: Connection, request: ClientMessage) -> None:
        """Play a seat's action (under the table's lock), or tell the seat why not."""
        assert connection.seat is not None and request.action is not None
        action, request_id = request.action, request.id
        try:
            await self.accept(live, connection.seat, action, connection, request_id)
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


async def _refuse(websocket: WebSocket, code: str, reason: str) -> None:
    """Tell a connection why it is not served, and close it with the code that says so."""
    await websocket.send_text(encode_frame(error_frame(code, reason)))
    await websocket.close(code=CLOSE_CODES[code])


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
