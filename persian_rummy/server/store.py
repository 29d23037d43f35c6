"""Persistence: every table and every accepted action in SQLite (the standard library's
``sqlite3``, write-ahead log), written before the action is acknowledged.

A table is stored once when it is created (rules, seed, first dealer, seat kinds, names, the
address of the client that created it and the SHA-256 digests of its tokens: the tokens
themselves are never stored) and then one row per accepted action, committed with
``synchronous=FULL`` before it is acknowledged (the server commits the actions that arrive
while a commit runs together, :meth:`Store.add_actions`), so an action acknowledged to a
client survives the server being killed at any moment. On start the server replays every unfinished table from
these rows (:meth:`Store.unfinished`); a table the server expired (:meth:`Store.expire`) is
never replayed and its tokens open nothing.

Reads (a token looked up, a table loaded) go through a connection of their own: with the
write-ahead log they never wait for the commit of an action, which holds the writing
connection through its ``fsync``.

>>> from persian_rummy.server.tables import Table
>>> store = Store(":memory:")
>>> table = Table.new(seats=("human", "greedy", "greedy", "greedy"), seed=4, dealer=0, table_id="t1")
>>> store.add_table(table, {"tok-north": 0, "tok-watch": None})
>>> _ = table.apply(1, "draw")
>>> store.add_actions([ActionRow(table.id, 1, 1, "draw", False)])
>>> store.find_token("tok-north"), store.find_token("tok-watch"), store.find_token("guess")
(('t1', 0), ('t1', None), None)
>>> [resumed.state == table.state for resumed in store.unfinished()]
[True]
>>> store.expire(["t1"])
>>> store.find_token("tok-north"), store.unfinished()
(None, [])
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Final, TypeVar

from persian_rummy.rules import Rules
from persian_rummy.server.quotas import Limits
from persian_rummy.server.storage import ActionRow, Conflict, Storage, StoreUnavailable, capacity_refusal
from persian_rummy.server.tables import Table

__all__ = ["ActionRow", "GroupCommit", "SQLiteStorage", "Store", "token_digest"]

_T = TypeVar("_T")

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created TEXT NOT NULL DEFAULT (datetime('now')),
    rules TEXT NOT NULL,
    seed TEXT NOT NULL,
    dealer INTEGER NOT NULL,
    seats TEXT NOT NULL,
    names TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    owner TEXT NOT NULL DEFAULT '',
    expired INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tokens (
    digest TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""
# Columns added since the first schema, added to an older database when it is opened.
_ADDED: Final = {
    "owner": "TEXT NOT NULL DEFAULT ''",
    "expired": "INTEGER NOT NULL DEFAULT 0",
    # Whether a person has played, and when the last action was (seconds since the epoch;
    # NULL: none since the table was created), which expiry reads; the game this one is the
    # rematch of.
    "played": "INTEGER NOT NULL DEFAULT 0",
    "touched": "REAL",
    "rematch_of": "TEXT",
}
_COLUMNS: Final = "id, rules, seed, dealer, seats, names, owner, created"
_Row = tuple[str, str, "int | str", int, str, str, str, str]


def _seed_text(seed: int) -> str:
    # Hexadecimal text: SQLite keeps it as text in any column, where a decimal number past 64
    # bits would become a float (seeds are 128 bits; older databases stored them as integers).
    return f"{seed:#x}"


def _seed(value: int | str) -> int:
    return value if isinstance(value, int) else int(value, 16)


def token_digest(token: str) -> str:
    """The SHA-256 digest (hex) under which a token is stored.

    >>> token_digest("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Store:
    """The SQLite database of a server (``path``; ``":memory:"`` for tests).

    >>> Store(":memory:").unfinished()
    []
    """

    def __init__(self, path: str) -> None:
        # autocommit mode (isolation_level=None): each statement below is its own transaction.
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        present = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        for column, kind in _ADDED.items():
            if column not in present:
                self._db.execute(f"ALTER TABLE tables ADD COLUMN {column} {kind}")
        self._db.execute("CREATE UNIQUE INDEX IF NOT EXISTS tables_rematch ON tables (rematch_of)")
        # The server commits actions on a thread of its own and reads on its event loop: one
        # operation at a time on each connection, so no transaction ever interleaves another.
        self._lock = threading.Lock()
        if path == ":memory:" or path.startswith("file:"):
            self._reader, self._read_lock = self._db, self._lock  # one database in memory: one connection
        else:
            self._reader = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._read_lock = threading.Lock()

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
        if self._reader is not self._db:
            with self._read_lock:
                self._reader.close()

    def add_table(
        self,
        table: Table,
        tokens: Mapping[str, int | None],
        *,
        limits: Limits | None = None,
        rematch_of: str | None = None,
    ) -> None:
        """Store a new table and the digests of its tokens (``token -> seat``, ``None`` for a
        spectator link), in one transaction. With ``limits``, the tables in play are counted
        first in the same transaction, and one over a limit raises
        :class:`~persian_rummy.server.quotas.CapacityError` (nothing stored); with
        ``rematch_of``, a game that has its rematch already raises
        :class:`~persian_rummy.server.storage.Conflict`."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if limits is not None:
                total, owned = self._db.execute(
                    "SELECT count(*), coalesce(sum(owner = ?), 0) FROM tables WHERE finished = 0 AND expired = 0",
                    (table.owner,),
                ).fetchone()
                refusal = capacity_refusal(limits, total, owned if table.owner else 0)
                if refusal is not None:
                    raise refusal
            try:
                self._db.execute(
                    "INSERT INTO tables (id, rules, seed, dealer, seats, names, owner, created, rematch_of) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        table.id,
                        str(table.rules),
                        _seed_text(table.seed),
                        table.dealer,
                        json.dumps(table.seats),
                        json.dumps(table.names),
                        table.owner,
                        datetime.fromtimestamp(table.created, timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
                        rematch_of,
                    ),
                )
            except sqlite3.IntegrityError as error:
                if rematch_of is not None and "rematch_of" in str(error):
                    raise Conflict(f"the game at {rematch_of} has its rematch already") from None
                raise
            self._db.executemany(
                "INSERT INTO tokens (digest, table_id, seat) VALUES (?, ?, ?)",
                [(token_digest(token), table.id, seat) for token, seat in tokens.items()],
            )

    def add_token(self, token: str, table_id: str, seat: int | None) -> None:
        """Let ``token`` open ``seat`` of ``table_id`` too (nothing if it does already)."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO tokens (digest, table_id, seat) VALUES (?, ?, ?)",
                (token_digest(token), table_id, seat),
            )

    def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch of the game at ``table_id``, once one is made."""
        with self._read_lock:
            row = self._reader.execute("SELECT id FROM tables WHERE rematch_of = ?", (table_id,)).fetchone()
        return None if row is None else str(row[0])

    def add_actions(self, rows: Sequence[ActionRow], now: float | None = None) -> None:
        """Store accepted actions, of one table or several, in one transaction committed
        before this returns (one ``fsync`` for them all): either every row is stored or, when
        this raises ``sqlite3.Error``, none is. Each table's row notes the time (``now``,
        seconds since the epoch), whether a person played and whether the game is over.
        >>> from persian_rummy.server.tables import Table
        >>> store = Store(":memory:")
        >>> for name in ("a", "b"):
        ...     store.add_table(Table.new(seats=("human",) * 4, seed=1, dealer=0, table_id=name), {})
        >>> store.add_actions([ActionRow("a", 1, 1, "draw"), ActionRow("b", 1, 1, "draw")])
        >>> [len(table.deals[0]) for table in store.unfinished()]
        [1, 1]
        """
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.executemany(
                "INSERT INTO actions (table_id, seq, seat, action) VALUES (?, ?, ?, ?)",
                [(row.table_id, row.seq, row.seat, row.action) for row in rows],
            )
            now = time.time() if now is None else now
            self._db.executemany(
                "UPDATE tables SET finished = max(finished, ?), played = max(played, ?), touched = ? WHERE id = ?",
                [(row.finished, row.person, now, row.table_id) for row in rows],
            )

    def expire(self, table_ids: Iterable[str]) -> None:
        """Mark tables expired, in one transaction: they are never replayed again and their
        tokens open nothing (the server expires the tables nobody plays)."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.executemany("UPDATE tables SET expired = 1 WHERE id = ?", [(table_id,) for table_id in table_ids])

    def expire_stale(self, now: float, limits: Limits) -> list[str]:
        """Mark expired, in one transaction, the tables in play that are stale at ``now``
        (seconds since the epoch): created ``limits.unplayed_seconds`` ago and no person
        has played, or no action for ``limits.idle_seconds``; returns their ids."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            stale = [
                row[0]
                for row in self._db.execute(
                    "SELECT id FROM tables WHERE finished = 0 AND expired = 0 AND ("
                    "(played = 0 AND created < datetime(?, 'unixepoch')) "
                    "OR coalesce(touched, CAST(strftime('%s', created) AS REAL)) < ?)",
                    (int(now - limits.unplayed_seconds), now - limits.idle_seconds),
                )
            ]
            self._db.executemany("UPDATE tables SET expired = 1 WHERE id = ?", [(table_id,) for table_id in stale])
        return stale

    def actions_after(self, table_id: str, seq: int) -> list[tuple[int, int, str]]:
        """The stored actions of ``table_id`` numbered after ``seq``: ``(seq, seat, text)`` in order."""
        with self._read_lock:
            rows = self._reader.execute(
                "SELECT seq, seat, action FROM actions WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, seq)
            ).fetchall()
        return [(number, seat, text) for number, seat, text in rows]

    def find_token(self, token: str) -> tuple[str, int | None] | None:
        """The table and seat (``None`` for a spectator) a token opens, or ``None``."""
        with self._read_lock:
            row = self._reader.execute(
                "SELECT table_id, seat FROM tokens JOIN tables ON tables.id = tokens.table_id "
                "WHERE digest = ? AND expired = 0",
                (token_digest(token),),
            ).fetchone()
        return None if row is None else (row[0], row[1])

    def load(self, table_id: str) -> Table | None:
        """The table with this id, replayed to its last stored action, or ``None``."""
        with self._read_lock:
            row = self._reader.execute(
                f"SELECT {_COLUMNS} FROM tables WHERE id = ? AND expired = 0", (table_id,)
            ).fetchone()
        return None if row is None else self._resume(row)

    def unfinished(self) -> list[Table]:
        """Every table whose game is not over (and that has not expired), replayed to its last
        stored action."""
        with self._read_lock:
            rows = self._reader.execute(
                f"SELECT {_COLUMNS} FROM tables WHERE finished = 0 AND expired = 0 ORDER BY created, id"
            ).fetchall()
        return [self._resume(row) for row in rows]

    def _resume(self, row: _Row) -> Table:
        table_id, rules, seed, dealer, seats, names, owner, created = row
        with self._read_lock:
            actions = self._reader.execute(
                "SELECT seat, action FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
            ).fetchall()
        table = Table.resume(
            table_id=table_id,
            seats=json.loads(seats),
            rules=Rules.parse(rules),
            names=json.loads(names),
            seed=_seed(seed),
            dealer=dealer,
            actions=[(seat, action) for seat, action in actions],
        )
        table.owner = owner
        table.created = datetime.strptime(created, "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc).timestamp()
        return table


class GroupCommit:
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


class SQLiteStorage(Storage):
    """A :class:`Store` as the hub uses it (:class:`~persian_rummy.server.storage.Storage`):
    one process, so no notices; writes on the store's own thread (the actions' commits
    grouped, :class:`GroupCommit`), reads on the event loop (the write-ahead log never makes
    them wait for a commit). A ``sqlite3.Error`` becomes
    :class:`~persian_rummy.server.storage.StoreUnavailable` (or, for an action whose number is
    stored already, :class:`~persian_rummy.server.storage.Conflict`).

    >>> import asyncio
    >>> asyncio.run(SQLiteStorage(Store(":memory:")).find_token("nobody's token"))
    """

    def __init__(self, store: Store) -> None:
        super().__init__()
        #: The SQLite database.
        self.store = store
        self._writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="persian-rummy-store")
        self._commits = GroupCommit(store, self._writer)

    async def _write(self, work: Callable[[], _T]) -> _T:
        try:
            return await asyncio.get_running_loop().run_in_executor(self._writer, work)
        except sqlite3.Error as error:
            raise StoreUnavailable(f"the database could not store it: {error}") from error

    async def close(self) -> None:
        self._writer.shutdown()
        self.store.close()

    async def add_table(
        self,
        table: Table,
        tokens: Mapping[str, int | None],
        *,
        limits: Limits | None = None,
        rematch_of: str | None = None,
    ) -> None:
        await self._write(lambda: self.store.add_table(table, tokens, limits=limits, rematch_of=rematch_of))

    async def add_action(self, row: ActionRow) -> None:
        try:
            await self._commits.add(row)
        except sqlite3.IntegrityError as error:
            if "UNIQUE" in str(error):
                raise Conflict(f"action {row.seq} of table {row.table_id} is stored already") from None
            raise StoreUnavailable(f"the action could not be stored: {error}") from error
        except sqlite3.Error as error:
            raise StoreUnavailable(f"the action could not be stored: {error}") from error

    async def add_token(self, token: str, table_id: str, seat: int | None) -> None:
        await self._write(lambda: self.store.add_token(token, table_id, seat))

    async def find_token(self, token: str) -> tuple[str, int | None] | None:
        return self._read(lambda: self.store.find_token(token))

    async def load(self, table_id: str) -> Table | None:
        return self._read(lambda: self.store.load(table_id))

    async def actions_after(self, seqs: Mapping[str, int]) -> dict[str, list[tuple[int, int, str]]]:
        return self._read(lambda: {table_id: self.store.actions_after(table_id, seq) for table_id, seq in seqs.items()})

    async def unfinished(self) -> list[Table]:
        return self._read(self.store.unfinished)

    async def expire(self, now: float, limits: Limits) -> list[str]:
        return await self._write(lambda: self.store.expire_stale(now, limits))

    async def rematch_of(self, table_id: str) -> str | None:
        return self._read(lambda: self.store.rematch_of(table_id))

    @staticmethod
    def _read(work: Callable[[], _T]) -> _T:
        try:
            return work()
        except sqlite3.Error as error:
            raise StoreUnavailable(f"the database could not be read: {error}") from error
