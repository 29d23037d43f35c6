"""The hub of the table server: the :class:`Server` that keeps the tables in play in memory
(one :class:`~persian_rummy.server.live.LiveTable` each: the game, its lock, its people's
connections, its spectators), their database (a
:class:`~persian_rummy.server.storage.Storage`: SQLite for one process, PostgreSQL for
several workers), and the bots. Every message from a client goes through
:meth:`Server.receive`: it is rate-limited and parsed (:func:`parse_message`, a pure
function), and answered with an error frame when it is bad, never with a crash. An action is
applied by the table for the seat its token opens (``play(..., seat=...)``), written to
SQLite, acknowledged to its sender and then sent to every connection of the table as that
seat's (or the spectators') frame: its view, its legal actions and the new entries of the
table's log (protocol :data:`~persian_rummy.server.protocol.PROTOCOL`).

Where several workers share a PostgreSQL database, each keeps in memory the tables its own
connections play: the database decides the order of a table's actions (one action a number),
and a worker that learns of another's write (a
:class:`~persian_rummy.server.storage.Notice`) reads the new actions from the database and
sends its connections their frames. The worker that stored a table's last action plays its
bots' next move; the others stand by, and play it themselves if that worker has not after
``BOT_STANDBY`` seconds (it may have died): the database keeps one move a turn.

>>> parse_message('{"type": "action", "action": "draw", "id": 3}', 4096, spectator=False)
ClientMessage(action=DrawStock(), id=3, hint=False)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

import attrs
from starlette.websockets import WebSocket, WebSocketDisconnect

from persian_rummy.actions import Action
from persian_rummy.bots import Bot, Player
from persian_rummy.errors import ArgumentTypeError, NotationError, NotYourTurnError, PersianRummyError, excerpt
from persian_rummy.game import Game
from persian_rummy.presentation import addressed
from persian_rummy.rules import Rules
from persian_rummy.server.connections import Connection, close_connection, error_frame, send_in_turn
from persian_rummy.server.hints import Hints
from persian_rummy.server.live import LiveTable
from persian_rummy.server.protocol import CLOSE_CODES, HUMAN, WEB_STYLE, encode_frame
from persian_rummy.server.quotas import DEFAULT_LIMITS, CapacityError, Limits, client_address
from persian_rummy.server.storage import ActionRow, Conflict, Notice, Storage, StoreUnavailable
from persian_rummy.server.store import SQLiteStorage, Store
from persian_rummy.server.tables import Table, new_token, rematch_token
from persian_rummy.state import PLAYERS, SEAT_NAMES

__all__ = [
    "BOT_STANDBY",
    "KEEP_FINISHED",
    "SWEEP_SECONDS",
    "BadMessage",
    "ClientMessage",
    "Server",
    "parse_message",
]

#: Seconds between two sweeps for tables to expire.
SWEEP_SECONDS: Final = 60.0
#: Seconds a finished game stays in memory with no connection (it is loaded again on demand).
KEEP_FINISHED: Final = 600.0
#: Seconds (beyond the bots' delay) a worker that did not store a table's last action waits
#: for the bot's move from the worker that did, before playing it itself.
BOT_STANDBY: Final = 3.0
# Tries at an action whose number another worker took meanwhile.
_ATTEMPTS: Final = 3
# Pauses (seconds) before reading again from a database that is away: the first, the longest.
_FIRST_PAUSE: Final = 0.1
_LAST_PAUSE: Final = 2.0
_LOG: Final = logging.getLogger("persian_rummy.server")


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
    """The tables of one server (one worker, when several share a PostgreSQL database), their
    :class:`~persian_rummy.server.storage.Storage` and their connections. Each table in play
    here is one :class:`~persian_rummy.server.live.LiveTable`, kept by id and let go in one
    place. ``store`` is a :class:`~persian_rummy.server.store.Store` (SQLite) or any
    :class:`~persian_rummy.server.storage.Storage`.

    ``bot_delay`` is the pause (seconds) before each bot move, so people can follow the
    game; tests use 0. ``clock`` is what the connections' message rates are measured by
    (:class:`~persian_rummy.server.quotas.TokenBucket`): ``time.monotonic`` unless a test
    gives one it moves itself.

    >>> import asyncio
    >>> server = Server(Store(":memory:"))
    >>> table, links = asyncio.run(server.create_table(["human", "random", "human", "random"], client="192.0.2.1"))
    >>> [seat for seat, _ in links["seats"]], links["spectator"] != links["seats"][0][1], table.owner
    ([0, 2], True, '192.0.2.1')
    >>> server.live_table(table.id).table is table, list(server.tables) == [table.id]
    (True, True)
    """

    def __init__(
        self,
        store: Store | Storage,
        *,
        bot_delay: float = 0.0,
        limits: Limits = DEFAULT_LIMITS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not callable(clock):
            raise ArgumentTypeError(f"a clock is a function that returns seconds, not {excerpt(clock)}")
        #: The database, as the hub uses it.
        self.storage: Storage = store if isinstance(store, Storage) else SQLiteStorage(store)
        self.bot_delay = bot_delay
        self.limits = limits
        self.clock = clock
        # The tables in play here, by id: each holds all that is kept for it.
        self._live: dict[str, LiveTable] = {}
        #: This process's open connections of each client address (the limit counts every
        #: worker's, :meth:`~persian_rummy.server.storage.Storage.enter`).
        self.clients: Counter[str] = Counter()
        self._tasks: set[asyncio.Task[None]] = set()
        #: The hints the seats ask for.
        self.hints = Hints()
        # Tables another worker wrote to, to read again (:meth:`_catch_up`).
        self._behind: set[str] = set()
        self._catching = False

    @property
    def store(self) -> Store | None:
        """The SQLite :class:`~persian_rummy.server.store.Store`, when the server stores in one."""
        return self.storage.store if isinstance(self.storage, SQLiteStorage) else None

    async def start(self) -> None:
        """Open the database (listening to the other workers when it is shared), replay the
        unfinished tables and start sweeping for stale ones."""
        await self.storage.start(self._notice if self.storage.shared else None)
        await self.resume_all()
        self.start_sweeping()

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

    async def create_table(
        self,
        seats: list[str],
        *,
        rules: Rules = Rules(),
        names: list[str] | None = None,
        seed: int | None = None,
        dealer: int | None = None,
        client: str = "",
        rematch_of: str | None = None,
    ) -> tuple[Table, dict[str, Any]]:
        """Create, store and start a table for ``client`` (its address); returns it and its
        secret tokens (``{"seats": [(seat, token), ...], "spectator": token}``, people's seats
        only). The seed and first dealer are random unless given (tests give them). Raises
        :class:`~persian_rummy.NotationError` for a bad seat kind or name, and
        :class:`~persian_rummy.server.quotas.CapacityError` when the server or the client has as
        many tables in play as :class:`~persian_rummy.server.quotas.Limits` allows (after
        expiring the tables nobody plays): the database counts them and stores the table in
        one transaction, so creations together, on any worker, cannot pass a limit between
        them. The event loop serves the other tables meanwhile.

        >>> import asyncio
        >>> server = Server(Store(":memory:"))
        >>> async def made():
        ...     table, links = await server.create_table(["human"] * 4)
        ...     return (await server.open(links["spectator"]))[0].table is table
        >>> asyncio.run(made())
        True
        """
        # Its bots are made on a thread: making one may load a policy (slow work, off the loop).
        table, tokens, links = await asyncio.to_thread(self._new_table, seats, rules, names, seed, dealer, client)
        try:
            await self.storage.add_table(table, tokens, limits=self.limits, rematch_of=rematch_of)
        except CapacityError:
            await self.expire()
            await self.storage.add_table(table, tokens, limits=self.limits, rematch_of=rematch_of)
        self._adopt(table, drive=True)
        return table, links

    #: The former name of :meth:`create_table`.
    create_table_async = create_table

    async def rematch(self, token: str, client: str) -> str:
        """The token of the same seat at the rematch of the finished game ``token`` opens: a
        new table with the same seats, names and rules, made once whoever asks first, on any
        worker (the database keeps which game it is the rematch of). A seat's rematch token is
        derived from its token (a keyed hash), so every seat and every worker finds the same
        one and the database keeps only its digest.
        Raises :class:`~persian_rummy.NotationError` for a link that opens no seat or a game
        not over, and :class:`~persian_rummy.server.quotas.CapacityError` as :meth:`create_table` does."""
        opened = await self.open(token)
        if opened is None or opened[1] is None:
            raise NotationError("this link opens no seat", reason="this link opens no seat")
        live, seat = opened[0], opened[1]
        table = live.table
        if not table.finished:
            raise NotationError("the game is not over yet", reason="the game is not over yet")
        rematch_id = await self.storage.rematch_of(table.id)
        if rematch_id is None:
            try:
                made, _ = await self.create_table(
                    list(table.seats), rules=table.rules, names=list(table.names), client=client, rematch_of=table.id
                )
                rematch_id = made.id
            except Conflict:  # another seat made it meanwhile
                rematch_id = await self.storage.rematch_of(table.id)
                if rematch_id is None:
                    raise StoreUnavailable("the rematch could not be read: try again") from None
        mine = rematch_token(token)
        await self.storage.add_token(mine, rematch_id, seat)
        return mine

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

    def is_stale(self, table: Table, now: float) -> bool:
        """Whether a table in play has expired: no person has played on it for
        ``unplayed_seconds`` since it was created, or nothing at all for ``idle_seconds``
        (the rule the database applies to its tables, :meth:`expire`)."""
        if table.finished:
            return False
        return (not table.played and now - table.created > self.limits.unplayed_seconds) or (
            now - table.touched > self.limits.idle_seconds
        )

    async def expire(self, now: float | None = None) -> list[str]:
        """Expire the stale tables as the database has them at ``now`` (default: the time;
        see :meth:`is_stale`), on every worker: marked so in the database, so they are never
        replayed and their links open nothing, let go from memory, their connections closed
        (code 4410). Returns their ids. A finished game with no connection left for
        ``KEEP_FINISHED`` seconds is let go from memory too (not expired: its links load it
        again). The server sweeps every ``SWEEP_SECONDS`` and before refusing a table for a
        limit.

        >>> import asyncio, time
        >>> server = Server(Store(":memory:"), limits=Limits(unplayed_seconds=60))
        >>> table, links = asyncio.run(server.create_table(["human"] * 4))
        >>> async def an_hour_later():  # and nobody has played
        ...     return await server.expire(time.time() + 3600), server.tables, await server.open(links["spectator"])
        >>> asyncio.run(an_hour_later()) == ([table.id], {}, None)
        True
        """
        now = time.time() if now is None else now
        for live in list(self._live.values()):
            if live.table.finished and now - live.table.touched > KEEP_FINISHED and not live.is_watched:
                self._let_go(live)
        stale = await self.storage.expire(now, self.limits)
        self._close_expired(stale)
        return stale

    def _close_expired(self, table_ids: Iterable[str]) -> None:
        """Let the expired tables go from memory and tell their connections why."""
        notice = error_frame("expired", "this table expired: nobody played at it in time")
        for table_id in table_ids:
            live = self._live.get(table_id)
            if live is None:
                continue
            for connection in self._let_go(live):
                if _loop_running():
                    self._spawn(close_connection(connection, CLOSE_CODES["expired"], notice))

    def _let_go(self, live: LiveTable) -> list[Connection]:
        """The one place a table leaves memory: out of the server's keeping, and ended
        (:meth:`~persian_rummy.server.live.LiveTable.end`: its connections and spectators
        released). Returns the connections that were open, for the caller to tell."""
        if self._live.get(live.id) is live:
            del self._live[live.id]
        return live.end()

    def _adopt(self, table: Table, *, drive: bool) -> LiveTable:
        live = self._live[table.id] = LiveTable(table)
        self._start_bots(live, drive=drive)
        return live

    async def resume_all(self) -> int:
        """Replay every unfinished table from the database (on start), then expire the stale
        ones; returns how many are in play here. Their bots play on at once (where several
        workers resumed a table, the database keeps one move a turn)."""
        for table in await self.storage.unfinished():
            if table.id not in self._live:
                self._adopt(table, drive=True)
        await self.expire()
        return len(self._live)

    async def open(self, token: str) -> tuple[LiveTable, int | None] | None:
        """The table in play (loaded from the database if need be) and the seat a token
        opens (``None`` for a spectator link), or ``None``."""
        found = await self.storage.find_token(token) if 8 <= len(token) <= 64 else None
        if found is None:
            return None
        table_id, seat = found
        live = self._live.get(table_id)
        if live is None:
            table = await self.storage.load(table_id)
            if table is None:
                return None
            live = self._live.get(table_id)  # loaded meanwhile by another connection
            if live is None:
                # Another worker may be playing its bots: this one stands by (:meth:`_start_bots`).
                live = self._adopt(table, drive=not self.storage.shared)
        return live, seat

    # --- actions ---------------------------------------------------------------------------

    async def accept(self, live: LiveTable, seat: int, action: Action, sender: Connection | None = None,
                     request_id: object = None) -> None:  # fmt: skip
        """Apply ``action`` for ``seat`` (under the table's lock), store it, acknowledge it to
        ``sender`` and send every connection its new frame. The database decides the order:
        when another worker stored the action of that number first, the table reads what was
        stored and judges the action again on it, as one process would have judged it a
        moment later; a refusal, too, is given only on the stored game. A bot's move (no
        ``sender``) was chosen for one position: it is dropped instead. Raises what the table
        raises, and :class:`~persian_rummy.server.storage.StoreUnavailable`."""
        for attempt in range(_ATTEMPTS):
            table = live.table
            try:
                action, after = table.check(seat, action)
            except PersianRummyError:
                if attempt or sender is None or not self.storage.shared:
                    raise
                await self._read_again(live)
                continue
            person = table.bots[seat] is None
            try:
                await self.storage.add_action(
                    ActionRow(table.id, table.seq + 1, seat, str(action), after.is_over, person)
                )
            except Conflict:
                await self._read_again(live)
                if sender is None:
                    return
                continue
            await send_in_turn(live.commit(action, after, sender, request_id))
            self._start_bots(live, drive=True)
            return
        raise StoreUnavailable("the table changed under the action again and again: try again")

    async def _read_again(self, live: LiveTable) -> None:
        """Under the table's lock: play the actions other workers stored since its last."""
        found = await self.storage.actions_after({live.id: live.table.seq})
        await self._play_stored(live, found.get(live.id, []))

    async def _play_stored(self, live: LiveTable, rows: list[tuple[int, int, str]]) -> None:
        """Under the table's lock: play stored actions that follow its last, sending each
        connection its frames; a stored action this table refuses (the database holds another
        game than memory) lets the table go, to be loaded again."""
        played = False
        for seq, seat, text in rows:
            if live.ended or seq != live.table.seq + 1:
                continue
            try:
                action, after = live.table.check(seat, text)
            except PersianRummyError as error:
                _LOG.error("table %s: stored action %d (%s) does not follow in memory: %s", live.id, seq, text, error)
                for connection in self._let_go(live):
                    self._spawn(connection.websocket.close(code=1012))
                return
            await send_in_turn(live.commit(action, after))
            played = True
        if played:
            self._start_bots(live, drive=False)

    def _notice(self, notice: Notice | None) -> None:
        """What another worker told through the database (``None``: notices may have been
        lost, as when the connection that listens was lost: every table is read again)."""
        if notice is None:
            self._behind.update(self._live)
        elif notice.kind == "a":
            live = self._live.get(notice.table)
            if live is not None and live.table.seq < notice.seq:
                self._behind.add(notice.table)
        elif notice.kind == "w":
            live = self._live.get(notice.table)
            if live is not None and notice.seat is not None:
                self._spawn(live.supersede(notice.seat, notice.window))
            return
        else:
            self._close_expired(notice.tables)
            return
        self._read_soon()

    def _read_soon(self) -> None:
        """Start reading the tables behind (:meth:`_catch_up`), unless that runs already."""
        if self._behind and not self._catching:
            self._catching = True
            self._spawn(self._catch_up())

    async def _catch_up(self) -> None:
        """Read what other workers stored at the tables behind, all in one query, and play it
        at each (while the database is away, try again with a growing pause)."""
        pause = _FIRST_PAUSE
        try:
            while self._behind:
                behind, self._behind = self._behind, set()
                seqs = {table_id: self._live[table_id].table.seq for table_id in behind if table_id in self._live}
                try:
                    found = await self.storage.actions_after(seqs)
                except StoreUnavailable as error:
                    _LOG.warning("the database is away (%s): reading again in %.1f s", error, pause)
                    self._behind |= behind
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, _LAST_PAUSE)
                    continue
                pause = _FIRST_PAUSE
                for table_id, rows in found.items():
                    live = self._live.get(table_id)
                    if live is not None and rows:
                        self._spawn(self._play_locked(live, rows))
        finally:
            self._catching = False

    async def _play_locked(self, live: LiveTable, rows: list[tuple[int, int, str]]) -> None:
        async with live.lock:
            await self._play_stored(live, rows)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _start_bots(self, live: LiveTable, *, drive: bool) -> None:
        """Start a bot's move if one is to move: at once when this process stored the last
        action (``drive``), else, as a stand-by for the worker that did, only if that worker
        has not moved after a while (it may have died)."""
        state = live.table.state
        if state.phase.is_live and live.table.bots[state.current_player] is not None and _loop_running():
            self._spawn(self._drive_bots(live, self.bot_delay + (0.0 if drive else BOT_STANDBY)))

    async def _drive_bots(self, live: LiveTable, wait: float) -> None:
        """Play the bot's move at ``live`` after ``wait`` seconds, unless the table moved on
        meanwhile (one driver per move: each move stored starts the next)."""
        seq = live.table.seq
        if wait:
            await asyncio.sleep(wait)
        if live.ended or live.table.seq != seq:
            return  # let go, or played, meanwhile
        async with live.lock:
            table = live.table
            state = table.state
            seat = state.current_player
            bot = table.bots[seat]
            if bot is None or not state.phase.is_live or live.ended or table.seq != seq:
                return
            action = await asyncio.to_thread(_choose, bot, table.game, seat)
            if table.state is not state or live.ended:
                return
            try:
                await self.accept(live, seat, action)
            except StoreUnavailable as error:
                _LOG.warning("table %s: a bot's move was not stored (%s): trying again", live.id, error)
                self._spawn(self._drive_bots(live, _LAST_PAUSE))

    def start_sweeping(self) -> None:
        """Start :meth:`sweep` for the server's life (on the running event loop)."""
        self._spawn(self.sweep())

    async def sweep(self) -> None:
        """Expire the stale tables every ``SWEEP_SECONDS`` (run for the server's life)."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.expire()
            except StoreUnavailable as error:
                _LOG.warning("the sweep for stale tables could not reach the database: %s", error)

    async def close(self) -> None:
        """Stop the bots and close the database."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.storage.close()

    # --- connections ------------------------------------------------------------------------

    async def connect(self, websocket: WebSocket, token: str) -> None:
        """Serve one WebSocket until it closes."""
        await websocket.accept()
        client = client_address(websocket)
        try:
            entered = await self.storage.enter(f"c:{client}", self.limits.connections_per_client)
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

    async def _serve(self, websocket: WebSocket, token: str) -> None:
        # A table let go while the connection waited to join is opened again (or found gone).
        for _ in range(3):
            opened = await self.open(token)
            if opened is None:
                await _refuse(websocket, "unknown_token", "this link opens no table")
                return
            live, seat = opened
            if seat is None:
                if not await self.storage.enter(f"s:{live.id}", self.limits.spectators):
                    reason = f"this table already has {self.limits.spectators} spectators"
                    await _refuse(websocket, "too_many_connections", reason)
                    return
                window = 0
            else:
                window = await self.storage.open_window(live.id, seat)
            connection = Connection(websocket, live.table, seat, self.limits, clock=self.clock)
            connection.window = window
            admitted = False
            try:
                admitted = await live.admit(connection)
            finally:
                if seat is None and not admitted:
                    await self._leave(f"s:{live.id}")
            if admitted:
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
            if seat is None:
                await self._leave(f"s:{live.id}")

    async def _leave(self, key: str) -> None:
        """Count a connection under ``key`` fewer, even if the connection's task is cancelled
        meanwhile (a count that stayed would refuse others for ever)."""

        async def leave() -> None:
            with contextlib.suppress(StoreUnavailable):
                await self.storage.leave(key)

        task = asyncio.get_running_loop().create_task(leave())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        await asyncio.shield(task)

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
        except StoreUnavailable:
            # Not stored, so not played: the table is unchanged and the client may retry. (Where
            # the commit's answer was lost, it may be stored after all: the table reads again.)
            if self.storage.shared:
                self._behind.add(live.id)
                self._read_soon()
            await connection.send(
                error_frame("unavailable", "the action could not be stored: try again", id=request_id)
            )
        except PersianRummyError as error:
            # The reason in words for the player who tried (only they are sent it).
            code = "not_your_turn" if isinstance(error, NotYourTurnError) else "refused"
            reason = addressed(error, connection.seat, WEB_STYLE)
            await connection.send(error_frame(code, reason, id=request_id, action=str(action)))


def _choose(bot: Bot, game: Game, seat: int) -> Action:
    """``bot``'s move for ``seat``, asked through its :class:`~persian_rummy.bots.Player`: a
    bot that reads the public history (the expert level) is handed its information state, as
    the arena hands it; the others their view (R27)."""
    player = Player.of(bot)
    return player.choose(game.info_state(seat) if player.reads_history else game.view(seat))


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
