"""Persistence in SQLite for one process (:class:`SqliteStore`, the standard library's
``sqlite3``, write-ahead log): every table and every accepted action, written before the
action is acknowledged.

A table is stored once when it is created (rules, seed, first dealer, seat kinds, names, the
address of the client that created it and the SHA-256 digests of its tokens: the tokens
themselves are never stored) and then one row per accepted action, committed with
``synchronous=FULL`` before it is acknowledged (the actions that arrive while a commit runs
are committed together, :class:`~persian_rummy.server.storage.GroupCommit`), so an action
acknowledged to a client survives the server being killed at any moment. On start the server
replays every unfinished table from these rows (:meth:`SqliteStore.unfinished`); a table the
server expired (:meth:`SqliteStore.expire`) is never replayed and its tokens open nothing.

Writes run on the store's own thread; reads (a token looked up, a table loaded) go through a
connection of their own on the event loop: with the write-ahead log they never wait for the
commit of an action, which holds the writing connection through its ``fsync``. One process
serves the tables, so the connections it counts and its seats' windows are counted in its
memory.

>>> import asyncio
>>> from persian_rummy.rules import Rules
>>> async def demo():
...     store = SqliteStore(":memory:")
...     row = TableRow("t1", Rules(), 4, 0, ("human", "greedy", "greedy", "greedy"), ("N", "E", "S", "W"))
...     await store.add_table(row, {"tok-north": 0, "tok-watch": None})
...     await store.add_action(ActionRow("t1", 1, 1, "draw"))
...     found = [await store.find_token(token) for token in ("tok-north", "tok-watch", "guess")]
...     stored = await store.unfinished()
...     await store.close()
...     return found, [(table.row.id, table.actions) for table in stored]
>>> asyncio.run(demo())
([TokenRow(table_id='t1', seat=0), TokenRow(table_id='t1', seat=None), None], [('t1', (StoredAction(seq=1, seat=1, action='draw'),))])
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import json
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any, Final, TypeVar

from persian_rummy._moved import moved_names
from persian_rummy.rules import Rules
from persian_rummy.server.quotas import Limits
from persian_rummy.server.storage import (
    ActionRow,
    Conflict,
    Database,
    GroupCommit,
    StoredAction,
    StoredTable,
    StoreUnavailable,
    TableRow,
    TokenRow,
    capacity_refusal,
    token_digest,
)

__all__ = ["SqliteStore", "token_digest"]

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
_COLUMNS: Final = "id, rules, seed, dealer, seats, names, owner, created, rematch_of"


def _seed_text(seed: int) -> str:
    # Hexadecimal text: SQLite keeps it as text in any column, where a decimal number past 64
    # bits would become a float (seeds are 128 bits; older databases stored them as integers).
    return f"{seed:#x}"


def _seed(value: int | str) -> int:
    return value if isinstance(value, int) else int(value, 16)


def _created_text(created: float) -> str:
    return datetime.fromtimestamp(created, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _created(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc).timestamp()


class SqliteStore(Database):
    """The SQLite database of a server in one process, at ``path`` (``":memory:"`` for
    tests): writes on the store's own thread (the actions' commits grouped,
    :class:`~persian_rummy.server.storage.GroupCommit`), reads on the event loop. A
    ``sqlite3.Error`` becomes :class:`~persian_rummy.server.storage.StoreUnavailable` (or,
    for an action whose number is stored already,
    :class:`~persian_rummy.server.storage.Conflict`).

    >>> import asyncio
    >>> asyncio.run(SqliteStore(":memory:").find_token("nobody's token"))
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
        # The server commits on a thread of its own and reads on its event loop: one
        # operation at a time on each connection, so no transaction ever interleaves another.
        self._lock = threading.Lock()
        if path == ":memory:" or path.startswith("file:"):
            self._reader, self._read_lock = self._db, self._lock  # one database in memory: one connection
        else:
            self._reader = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._read_lock = threading.Lock()
        self._writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="persian-rummy-store")
        self._commits = GroupCommit(self._commit)
        # The connections open under each key and the seats' windows: one process counts them.
        self._present: Counter[str] = Counter()
        self._windows = itertools.count(1)

    async def close(self) -> None:
        self._writer.shutdown()
        with self._lock:
            self._db.close()
        if self._reader is not self._db:
            with self._read_lock:
                self._reader.close()

    async def _write(self, work: Callable[[], _T]) -> _T:
        """Run ``work`` on the store's thread; a ``sqlite3.Error`` becomes ``StoreUnavailable``."""
        try:
            running = asyncio.get_running_loop().run_in_executor(self._writer, work)
        except RuntimeError:  # the writer is shut down
            raise StoreUnavailable("the server is closing") from None
        try:
            return await running
        except sqlite3.Error as error:
            raise StoreUnavailable(f"the database could not store it: {error}") from error

    def _read(self, query: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """The rows of a query on the reading connection (on the event loop)."""
        try:
            with self._read_lock:
                return self._reader.execute(query, parameters).fetchall()
        except sqlite3.Error as error:
            raise StoreUnavailable(f"the database could not be read: {error}") from error

    # --- tables ------------------------------------------------------------------------------

    async def add_table(self, row: TableRow, tokens: Mapping[str, int | None], limits: Limits | None = None) -> None:
        try:
            await self._write(lambda: self._insert_table(row, tokens, limits))
        except StoreUnavailable as error:
            if row.rematch_of is not None and "rematch_of" in str(error.__cause__):
                raise Conflict(f"the game at {row.rematch_of} has its rematch already") from None
            raise

    def _insert_table(self, row: TableRow, tokens: Mapping[str, int | None], limits: Limits | None) -> None:
        """On the store's thread: the table and its tokens, in one transaction, the tables in
        play counted first in the same transaction (one over a limit stores nothing)."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if limits is not None:
                total, owned = self._db.execute(
                    "SELECT count(*), coalesce(sum(owner = ?), 0) FROM tables WHERE finished = 0 AND expired = 0",
                    (row.owner,),
                ).fetchone()
                refusal = capacity_refusal(limits, total, owned if row.owner else 0)
                if refusal is not None:
                    raise refusal
            self._db.execute(
                "INSERT INTO tables (id, rules, seed, dealer, seats, names, owner, created, rematch_of) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id, str(row.rules), _seed_text(row.seed), row.dealer, json.dumps(list(row.seats)),
                    json.dumps(list(row.names)), row.owner, _created_text(row.created), row.rematch_of,
                ),
            )  # fmt: skip
            self._db.executemany(
                "INSERT INTO tokens (digest, table_id, seat) VALUES (?, ?, ?)",
                [(token_digest(token), row.id, seat) for token, seat in tokens.items()],
            )

    async def add_token(self, token: str, table_id: str, seat: int | None) -> None:
        def insert() -> None:
            with self._lock:
                self._db.execute(
                    "INSERT OR IGNORE INTO tokens (digest, table_id, seat) VALUES (?, ?, ?)",
                    (token_digest(token), table_id, seat),
                )

        await self._write(insert)

    async def rematch_of(self, table_id: str) -> str | None:
        rows = self._read("SELECT id FROM tables WHERE rematch_of = ?", (table_id,))
        return None if not rows else str(rows[0][0])

    async def find_token(self, token: str) -> TokenRow | None:
        rows = self._read(
            "SELECT table_id, seat FROM tokens JOIN tables ON tables.id = tokens.table_id "
            "WHERE digest = ? AND expired = 0",
            (token_digest(token),),
        )
        return None if not rows else TokenRow(rows[0][0], rows[0][1])

    async def load(self, table_id: str) -> StoredTable | None:
        tables = self._tables(f"SELECT {_COLUMNS} FROM tables WHERE id = ? AND expired = 0", (table_id,))
        return tables[0] if tables else None

    async def unfinished(self) -> list[StoredTable]:
        return self._tables(f"SELECT {_COLUMNS} FROM tables WHERE finished = 0 AND expired = 0 ORDER BY created, id")

    def _tables(self, query: str, parameters: Sequence[Any] = ()) -> list[StoredTable]:
        """The tables ``query`` selects (:data:`_COLUMNS`), each with its actions."""
        stored = []
        for table_id, rules, seed, dealer, seats, names, owner, created, rematch_of in self._read(query, parameters):
            actions = self._read("SELECT seq, seat, action FROM actions WHERE table_id = ? ORDER BY seq", (table_id,))
            row = TableRow(
                table_id, Rules.parse(rules), _seed(seed), dealer, tuple(json.loads(seats)),
                tuple(json.loads(names)), owner, _created(created), rematch_of,
            )  # fmt: skip
            stored.append(StoredTable(row, tuple(StoredAction(*action) for action in actions)))
        return stored

    async def actions_after(self, seqs: Mapping[str, int]) -> dict[str, tuple[StoredAction, ...]]:
        query = "SELECT seq, seat, action FROM actions WHERE table_id = ? AND seq > ? ORDER BY seq"
        return {
            table_id: tuple(StoredAction(*row) for row in self._read(query, (table_id, seq)))
            for table_id, seq in seqs.items()
        }

    async def expire(self, now: float, limits: Limits) -> list[str]:
        return await self._write(lambda: self._expire(now, limits))

    def _expire(self, now: float, limits: Limits) -> list[str]:
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

    # --- actions -----------------------------------------------------------------------------

    async def add_action(self, row: ActionRow) -> None:
        await self._commits.add(row)

    def _commit(self, rows: list[ActionRow]) -> asyncio.Future[None]:
        """Commit ``rows`` together on the store's thread: the future of it (no task)."""
        try:
            return asyncio.get_running_loop().run_in_executor(self._writer, self._store_checked, rows)
        except RuntimeError:  # the writer is shut down
            raise StoreUnavailable("the server is closing") from None

    def _store_checked(self, rows: list[ActionRow]) -> None:
        """On the store's thread: :meth:`_store_actions`, a ``sqlite3.Error`` told as the
        hub's error (an action whose number is stored already: ``Conflict``)."""
        try:
            self._store_actions(rows)
        except sqlite3.IntegrityError as error:
            if "UNIQUE" in str(error):
                raise Conflict(f"action {rows[0].seq} of table {rows[0].table_id} is stored already") from None
            raise StoreUnavailable(f"the action could not be stored: {error}") from error
        except sqlite3.Error as error:
            raise StoreUnavailable(f"the action could not be stored: {error}") from error

    def _store_actions(self, rows: Sequence[ActionRow], now: float | None = None) -> None:
        """On the store's thread: accepted actions, of one table or several, in one
        transaction committed before this returns (one ``fsync`` for them all): either every
        row is stored or, when this raises ``sqlite3.Error``, none is. Each table's row notes
        the time (``now``, seconds since the epoch), whether a person played and whether the
        game is over."""
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

    # --- connections and windows, in this process ---------------------------------------------

    async def open_window(self, table_id: str, seat: int) -> int:
        return next(self._windows)

    async def enter(self, key: str, limit: int) -> bool:
        if self._present[key] >= limit:
            return False
        self._present[key] += 1
        return True

    async def leave(self, key: str) -> None:
        self._present[key] -= 1
        if self._present[key] <= 0:
            del self._present[key]


_MOVED = moved_names(
    __name__,
    {
        name: (
            SqliteStore,
            "persian_rummy.server.store.SqliteStore (the SQLite database as the hub uses it, every read and write "
            "a coroutine)",
        )
        for name in ("Store", "SQLiteStorage")
    },
)


def __getattr__(name: str) -> object:
    # Deprecated names, each still given with a warning that names its new one.
    return _MOVED(name)
