"""The hub of the table server: the :class:`Server` of one process (one worker, when several
share a PostgreSQL database), made of parts that each do one job:

- :class:`~persian_rummy.server.keeper.TableKeeper`: the tables in play in memory (one
  :class:`~persian_rummy.server.live.LiveTable` each), made, opened, resumed, expired and let
  go in one place;
- :class:`~persian_rummy.server.commits.Commits`: the commit protocol (an action is checked,
  stored, then played and sent; the database decides the order) and
  :class:`~persian_rummy.server.commits.Notices`, what other workers tell through the database;
- :class:`~persian_rummy.server.turns.BotTurns`: the bots' moves;
- :class:`~persian_rummy.server.sockets.Sockets`: the WebSockets and their messages, decoded by
  the protocol's one decoder and answered with its typed frames
  (:mod:`~persian_rummy.server.protocol`);
- the database (a :class:`~persian_rummy.server.storage.Database`: SQLite for one process,
  PostgreSQL for several workers), which speaks rows, never the live table.

The server wires them together and is what the endpoints (:mod:`~persian_rummy.server.app`)
and programs use.

>>> import asyncio
>>> from persian_rummy.server.store import SqliteStore
>>> server = Server(SqliteStore(":memory:"))
>>> table, links = asyncio.run(server.create_table(["human", "random", "human", "random"], client="192.0.2.1"))
>>> [seat for seat, _ in links["seats"]], links["spectator"] != links["seats"][0][1], table.owner
([0, 2], True, '192.0.2.1')
>>> server.live_table(table.id).table is table, list(server.tables) == [table.id]
(True, True)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from starlette.websockets import WebSocket

from persian_rummy._moved import moved_names
from persian_rummy.actions import Action
from persian_rummy.errors import ArgumentTypeError, excerpt
from persian_rummy.rules import Rules
from persian_rummy.server.commits import Commits, Notices
from persian_rummy.server.connections import Connection
from persian_rummy.server.hints import Hints
from persian_rummy.server.keeper import KEEP_FINISHED, SWEEP_SECONDS, NewTable, TableKeeper, Tasks
from persian_rummy.server.live import LiveTable
from persian_rummy.server.protocol import BadMessage as _BadMessage
from persian_rummy.server.protocol import ClientMessage as _ClientMessage
from persian_rummy.server.protocol import RequestId
from persian_rummy.server.protocol import parse_message as _parse_message
from persian_rummy.server.quotas import DEFAULT_LIMITS, Limits
from persian_rummy.server.sockets import Sockets
from persian_rummy.server.storage import Database
from persian_rummy.server.store import SqliteStore
from persian_rummy.server.tables import Table
from persian_rummy.server.turns import BOT_STANDBY, BotTurns
from persian_rummy.state import SEAT_NAMES

__all__ = ["BOT_STANDBY", "KEEP_FINISHED", "SWEEP_SECONDS", "Server"]


class Server:
    """The tables of one server (one worker, when several share a PostgreSQL database), their
    :class:`~persian_rummy.server.storage.Database` and their connections.

    ``bot_delay`` is the pause (seconds) before each bot move, so people can follow the
    game; tests use 0. ``clock`` is what the connections' message rates are measured by
    (:class:`~persian_rummy.server.quotas.TokenBucket`): ``time.monotonic`` unless a test
    gives one it moves itself.

    >>> Server(SqliteStore(":memory:")).tables
    {}
    """

    def __init__(
        self,
        database: Database,
        *,
        bot_delay: float = 0.0,
        limits: Limits = DEFAULT_LIMITS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not callable(clock):
            raise ArgumentTypeError(f"a clock is a function that returns seconds, not {excerpt(clock)}")
        if not isinstance(database, Database):
            raise ArgumentTypeError(
                f"a server stores in a Database (SqliteStore, PostgresStore), not {excerpt(database)}"
            )
        #: The database, as the hub uses it.
        self.database = database
        self.limits = limits
        self.tasks = Tasks()
        #: The tables in play here.
        self.keeper = TableKeeper(database, limits, self.tasks)
        #: The commit protocol, and what other workers tell.
        self.commits = Commits(database, self.keeper, self.tasks)
        self.notices = Notices(self.commits)
        #: The bots' moves.
        self.bots = BotTurns(self.tasks, bot_delay, self.commits.accept)
        self.commits.moved = self.bots.start
        self.keeper.adopted = self._adopted
        #: The hints the seats ask for.
        self.hints = Hints()
        #: The WebSockets.
        self.sockets = Sockets(self.commits, self.notices, self.hints, limits, clock)

    def _adopted(self, live: LiveTable, drive: bool) -> None:
        """A table taken into memory: its bots move, and where other workers share the
        database, the table is read again once, for what they stored while it was being read
        (their notices of it came before it was here to hear them)."""
        self.bots.start(live, drive)
        if self.database.shared:
            self.notices.behind(live.id)

    @property
    def storage(self) -> Database:
        """The database (the former name of :attr:`database`)."""
        return self.database

    @property
    def store(self) -> SqliteStore | None:
        """The SQLite database, when the server stores in one."""
        return self.database if isinstance(self.database, SqliteStore) else None

    @property
    def bot_delay(self) -> float:
        """The pause (seconds) before each bot move."""
        return self.bots.delay

    @property
    def clock(self) -> Callable[[], float]:
        """What the connections' message rates are measured by."""
        return self.sockets.clock

    @property
    def clients(self) -> Counter[str]:
        """This process's open connections of each client address."""
        return self.sockets.clients

    async def start(self) -> None:
        """Open the database (listening to the other workers when it is shared), replay the
        unfinished tables and start sweeping for stale ones."""
        await self.database.start(self.notices if self.database.shared else None)
        await self.resume_all()
        self.start_sweeping()

    def start_sweeping(self) -> None:
        """Start :meth:`sweep` for the server's life (on the running event loop)."""
        self.tasks.spawn(self.sweep())

    async def sweep(self) -> None:
        """Expire the stale tables every ``SWEEP_SECONDS`` (run for the server's life)."""
        await self.keeper.sweep()

    async def close(self) -> None:
        """Stop the bots and close the database."""
        await self.tasks.cancel()
        await self.database.close()

    # --- tables ----------------------------------------------------------------------------

    @property
    def tables(self) -> dict[str, Table]:
        """The tables in memory, by id (a new dictionary: the server's own is not handed out)."""
        return self.keeper.tables

    def live_table(self, table_id: str) -> LiveTable | None:
        """The table ``table_id`` as it is kept in memory, or ``None`` when it is not."""
        return self.keeper.get(table_id)

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
        >>> server = Server(SqliteStore(":memory:"))
        >>> async def made():
        ...     table, links = await server.create_table(["human"] * 4)
        ...     return (await server.open(links["spectator"]))[0].table is table
        >>> asyncio.run(made())
        True
        """
        new = NewTable(seats, rules, SEAT_NAMES if names is None else names, seed, dealer, client, rematch_of)
        return await self.keeper.create_table(new)

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
        return await self.keeper.rematch(token, client)

    def is_stale(self, table: Table, now: float) -> bool:
        """Whether a table in play has expired: no person has played on it for
        ``unplayed_seconds`` since it was created, or nothing at all for ``idle_seconds``
        (the rule the database applies to its tables, :meth:`expire`)."""
        return self.keeper.is_stale(table, now)

    async def expire(self, now: float | None = None) -> list[str]:
        """Expire the stale tables as the database has them at ``now`` (default: the time;
        see :meth:`is_stale`), on every worker: marked so in the database, so they are never
        replayed and their links open nothing, let go from memory, their connections closed
        (code 4410). Returns their ids. A finished game with no connection left for
        ``KEEP_FINISHED`` seconds is let go from memory too (not expired: its links load it
        again). The server sweeps every ``SWEEP_SECONDS`` and before refusing a table for a
        limit.

        >>> import asyncio, time
        >>> server = Server(SqliteStore(":memory:"), limits=Limits(unplayed_seconds=60))
        >>> table, links = asyncio.run(server.create_table(["human"] * 4))
        >>> async def an_hour_later():  # and nobody has played
        ...     return await server.expire(time.time() + 3600), server.tables, await server.open(links["spectator"])
        >>> asyncio.run(an_hour_later()) == ([table.id], {}, None)
        True
        """
        return await self.keeper.expire(now)

    async def resume_all(self) -> int:
        """Replay every unfinished table from the database (on start), then expire the stale
        ones; returns how many are in play here. Their bots play on at once (where several
        workers resumed a table, the database keeps one move a turn)."""
        return await self.keeper.resume_all()

    async def open(self, token: str) -> tuple[LiveTable, int | None] | None:
        """The table in play (loaded from the database if need be) and the seat a token
        opens (``None`` for a spectator link), or ``None``."""
        return await self.keeper.open(token)

    async def accept(
        self, live: LiveTable, seat: int, action: Action, sender: Connection | None = None, request_id: RequestId = None
    ) -> None:
        """Apply ``action`` for ``seat`` (under the table's lock), store it, acknowledge it to
        ``sender`` and send every connection its new frame. The database decides the order:
        when another worker stored the action of that number first, the table reads what was
        stored and judges the action again on it, as one process would have judged it a
        moment later; a refusal, too, is given only on the stored game. A bot's move (no
        ``sender``) was chosen for one position: it is dropped instead. Raises what the table
        raises, and :class:`~persian_rummy.server.storage.StoreUnavailable`."""
        await self.commits.accept(live, seat, action, sender, request_id)

    # --- connections ------------------------------------------------------------------------

    async def connect(self, websocket: WebSocket, token: str) -> None:
        """Serve one WebSocket until it closes."""
        await self.sockets.connect(websocket, token)

    async def receive(self, connection: Connection, message: Mapping[str, Any]) -> bool:
        """Handle one message from a client; returns ``False`` when the connection must close."""
        return await self.sockets.receive(connection, message)


_MOVED = moved_names(
    __name__,
    {
        name: (value, f"persian_rummy.server.protocol.{name} (the protocol's one decoder and its values)")
        for name, value in (
            ("BadMessage", _BadMessage),
            ("ClientMessage", _ClientMessage),
            ("parse_message", _parse_message),
        )
    },
)


def __getattr__(name: str) -> object:
    # Deprecated names, each still given with a warning that names its new one.
    return _MOVED(name)
