"""The tables in play on one server, kept in memory: the :class:`TableKeeper` makes a table
(stored first), opens one a token names (loaded from the database if need be), replays the
unfinished ones on start, expires the stale ones and lets a table go, in one place. Each
table in play is one :class:`~persian_rummy.server.live.LiveTable`. The database speaks rows
(:mod:`~persian_rummy.server.storage`); the live table is made from them, and turned back into
them, by :class:`~persian_rummy.server.tables.Table` alone. The server's background work
(bots' moves, reads, sweeps, notices to close) runs as :class:`Tasks`, cancelled together.

>>> import asyncio
>>> from persian_rummy.server.quotas import DEFAULT_LIMITS
>>> from persian_rummy.server.store import SqliteStore
>>> async def made():
...     keeper = TableKeeper(SqliteStore(":memory:"), DEFAULT_LIMITS, Tasks())
...     table, links = await keeper.create_table(NewTable(("human",) * 4))
...     opened = await keeper.open(links["spectator"])
...     return opened[0].table is table, opened[1], list(keeper.tables) == [table.id]
>>> asyncio.run(made())
(True, None, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, Final

import attrs

from persian_rummy.errors import NotationError
from persian_rummy.rules import Rules
from persian_rummy.server.connections import Connection, close_connection
from persian_rummy.server.live import LiveTable
from persian_rummy.server.protocol import CLOSE_CODES, HUMAN, ErrorFrame
from persian_rummy.server.quotas import CapacityError, Limits
from persian_rummy.server.storage import Conflict, Database, StoreUnavailable
from persian_rummy.server.tables import Table, new_token, rematch_token
from persian_rummy.state import PLAYERS, SEAT_NAMES

__all__ = ["KEEP_FINISHED", "SWEEP_SECONDS", "NewTable", "TableKeeper", "Tasks"]

#: Seconds between two sweeps for tables to expire.
SWEEP_SECONDS: Final = 60.0
#: Seconds a finished game stays in memory with no connection (it is loaded again on demand).
KEEP_FINISHED: Final = 600.0
_LOG: Final = logging.getLogger("persian_rummy.server")


class Tasks:
    """The server's work in the background, each a task of the running loop, kept until it
    ends and cancelled together when the server closes (:meth:`cancel`).

    >>> import asyncio
    >>> async def demo():
    ...     tasks = Tasks()
    ...     tasks.spawn(asyncio.sleep(60))
    ...     await tasks.cancel()
    ...     return len(tasks)
    >>> asyncio.run(demo()), Tasks.loop_running()
    (0, False)
    """

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def __len__(self) -> int:
        return len(self._tasks)

    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``work`` as a task of the running loop, kept until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def cancel(self) -> None:
        """Cancel every task and wait for each to end."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @staticmethod
    def loop_running() -> bool:
        """Whether an event loop runs here (where none does, no task is started)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True


def _texts(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen
class NewTable:
    """A table to make for ``client`` (its address): the seat kinds, the rules, the players'
    names, the seed and first dealer (random unless given; tests give them) and the game it
    is the rematch of, if any.

    >>> table, tokens, links = NewTable(("human", "random", "human", "random"), seed=3, dealer=0).make()
    >>> sorted(tokens.values(), key=str), [seat for seat, _ in links["seats"]]
    ([0, 2, None], [0, 2])
    """

    seats: tuple[str, ...] = attrs.field(converter=_texts)
    rules: Rules = Rules()
    names: tuple[str, ...] = attrs.field(default=SEAT_NAMES, converter=_texts)
    seed: int | None = None
    dealer: int | None = None
    client: str = ""
    rematch_of: str | None = None

    def make(self) -> tuple[Table, dict[str, int | None], dict[str, Any]]:
        """The table (its bots made), its tokens (token -> seat, ``None`` for the spectators'
        link) and its links (``{"seats": [(seat, token), ...], "spectator": token}``)."""
        table = Table.new(seats=self.seats, rules=self.rules, names=self.names, seed=self.seed, dealer=self.dealer)
        table.owner = self.client
        tokens: dict[str, int | None] = {new_token(): seat for seat in range(PLAYERS) if self.seats[seat] == HUMAN}
        spectator = new_token()
        tokens[spectator] = None
        links = {"seats": [(seat, token) for token, seat in tokens.items() if seat is not None], "spectator": spectator}
        return table, tokens, links


class TableKeeper:
    """The tables in play here, by id, in memory, and their lifecycle: made, opened, resumed,
    expired, let go. ``adopted`` is told of each table taken into memory and whether this
    server is to play its bots at once (the hub starts their moves).

    >>> import asyncio
    >>> from persian_rummy.server.quotas import DEFAULT_LIMITS
    >>> from persian_rummy.server.store import SqliteStore
    >>> keeper = TableKeeper(SqliteStore(":memory:"), DEFAULT_LIMITS, Tasks())
    >>> asyncio.run(keeper.open("no such token")), keeper.tables
    (None, {})
    """

    def __init__(
        self,
        database: Database,
        limits: Limits,
        tasks: Tasks,
        adopted: Callable[[LiveTable, bool], None] = lambda live, drive: None,
    ) -> None:
        self.database = database
        self.limits = limits
        self.tasks = tasks
        self.adopted = adopted
        self._live: dict[str, LiveTable] = {}

    @property
    def tables(self) -> dict[str, Table]:
        """The tables in memory, by id (a new dictionary: the keeper's own is not handed out)."""
        return {table_id: live.table for table_id, live in self._live.items()}

    @property
    def ids(self) -> list[str]:
        """The ids of the tables in memory."""
        return list(self._live)

    def get(self, table_id: str) -> LiveTable | None:
        """The table ``table_id`` as it is kept in memory, or ``None`` when it is not."""
        return self._live.get(table_id)

    def of(self, connection: Connection) -> LiveTable | None:
        """The table in play that ``connection`` joined, unless it was let go since."""
        live = self._live.get(connection.table.id)
        return live if live is not None and live.table is connection.table else None

    # --- making and opening ------------------------------------------------------------------

    async def create_table(self, new: NewTable) -> tuple[Table, dict[str, Any]]:
        """Create, store and start the table ``new`` describes (see
        :meth:`~persian_rummy.server.hub.Server.create_table`); returns it and its links."""
        # Its bots are made on a thread: making one may load a policy (slow work, off the loop).
        table, tokens, links = await asyncio.to_thread(new.make)
        row = table.row(new.rematch_of)
        try:
            await self.database.add_table(row, tokens, self.limits)
        except CapacityError:
            await self.expire()
            await self.database.add_table(row, tokens, self.limits)
        self._adopt(table, drive=True)
        return table, links

    async def rematch(self, token: str, client: str) -> str:
        """The token of the same seat at the rematch of the finished game ``token`` opens (see
        :meth:`~persian_rummy.server.hub.Server.rematch`)."""
        opened = await self.open(token)
        if opened is None or opened[1] is None:
            raise NotationError("this link opens no seat", reason="this link opens no seat")
        live, seat = opened[0], opened[1]
        table = live.table
        if not table.finished:
            raise NotationError("the game is not over yet", reason="the game is not over yet")
        rematch_id = await self.database.rematch_of(table.id)
        if rematch_id is None:
            try:
                made, _ = await self.create_table(
                    NewTable(table.seats, table.rules, table.names, client=client, rematch_of=table.id)
                )
                rematch_id = made.id
            except Conflict:  # another seat made it meanwhile
                rematch_id = await self.database.rematch_of(table.id)
                if rematch_id is None:
                    raise StoreUnavailable("the rematch could not be read: try again") from None
        mine = rematch_token(token)
        await self.database.add_token(mine, rematch_id, seat)
        return mine

    async def open(self, token: str) -> tuple[LiveTable, int | None] | None:
        """The table in play (loaded from the database if need be) and the seat a token
        opens (``None`` for a spectator link), or ``None``."""
        found = await self.database.find_token(token) if 8 <= len(token) <= 64 else None
        if found is None:
            return None
        live = self._live.get(found.table_id)
        if live is None:
            stored = await self.database.load(found.table_id)
            if stored is None:
                return None
            # Replayed and its bots made on a thread: a long game, a policy to load, are slow work.
            table = await asyncio.to_thread(Table.from_stored, stored)
            live = self._live.get(found.table_id)  # loaded meanwhile by another connection
            if live is None:
                # Another worker may be playing its bots: this one stands by.
                live = self._adopt(table, drive=not self.database.shared)
        return live, found.seat

    async def resume_all(self) -> int:
        """Replay every unfinished table from the database (on start), then expire the stale
        ones; returns how many are in play here."""
        for stored in await self.database.unfinished():
            if stored.row.id not in self._live:
                self._adopt(Table.from_stored(stored), drive=True)
        await self.expire()
        return len(self._live)

    def _adopt(self, table: Table, *, drive: bool) -> LiveTable:
        live = self._live[table.id] = LiveTable(table)
        self.adopted(live, drive)
        return live

    # --- expiring and letting go -------------------------------------------------------------

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
        """Expire the stale tables as the database has them at ``now`` (see
        :meth:`~persian_rummy.server.hub.Server.expire`); returns their ids."""
        now = time.time() if now is None else now
        for live in list(self._live.values()):
            if live.table.finished and now - live.table.touched > KEEP_FINISHED and not live.is_watched:
                self.let_go(live)
        stale = await self.database.expire(now, self.limits)
        self.close_expired(stale)
        return stale

    def close_expired(self, table_ids: Iterable[str]) -> None:
        """Let the expired tables go from memory and tell their connections why."""
        notice = ErrorFrame("expired", "this table expired: nobody played at it in time")
        for table_id in table_ids:
            live = self._live.get(table_id)
            if live is None:
                continue
            for connection in self.let_go(live):
                if Tasks.loop_running():
                    self.tasks.spawn(close_connection(connection, CLOSE_CODES["expired"], notice))

    def let_go(self, live: LiveTable) -> list[Connection]:
        """The one place a table leaves memory: out of the keeper's keeping, and ended
        (:meth:`~persian_rummy.server.live.LiveTable.end`: its connections and spectators
        released). Returns the connections that were open, for the caller to tell."""
        if self._live.get(live.id) is live:
            del self._live[live.id]
        return live.end()

    async def sweep(self) -> None:
        """Expire the stale tables every ``SWEEP_SECONDS`` (run for the server's life)."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.expire()
            except StoreUnavailable as error:
                _LOG.warning("the sweep for stale tables could not reach the database: %s", error)
