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
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Final, NamedTuple

from persian_rummy.rules import Rules
from persian_rummy.server.tables import Table

__all__ = ["ActionRow", "GroupCommit", "Store", "token_digest"]

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
_ADDED: Final = {"owner": "TEXT NOT NULL DEFAULT ''", "expired": "INTEGER NOT NULL DEFAULT 0"}
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


class ActionRow(NamedTuple):
    """One accepted action to store: its table, its number ``seq`` (1-based), the seat that
    played it, its text, and whether it ended the game.

    >>> ActionRow("t1", 1, 1, "draw")
    ActionRow(table_id='t1', seq=1, seat=1, action='draw', finished=False)
    """

    table_id: str
    seq: int
    seat: int
    action: str
    finished: bool = False


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

    def add_table(self, table: Table, tokens: Mapping[str, int | None]) -> None:
        """Store a new table and the digests of its tokens (``token -> seat``, ``None`` for a
        spectator link), in one transaction."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO tables (id, rules, seed, dealer, seats, names, owner, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    str(table.rules),
                    _seed_text(table.seed),
                    table.dealer,
                    json.dumps(table.seats),
                    json.dumps(table.names),
                    table.owner,
                    datetime.fromtimestamp(table.created, timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
                ),
            )
            self._db.executemany(
                "INSERT INTO tokens (digest, table_id, seat) VALUES (?, ?, ?)",
                [(token_digest(token), table.id, seat) for token, seat in tokens.items()],
            )

    def add_actions(self, rows: Sequence[ActionRow]) -> None:
        """Store accepted actions, of one table or several, in one transaction committed
        before this returns (one ``fsync`` for them all): either every row is stored or, when
        this raises ``sqlite3.Error``, none is.

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
            self._db.executemany(
                "UPDATE tables SET finished = 1 WHERE id = ?", [(row.table_id,) for row in rows if row.finished]
            )

    def expire(self, table_ids: Iterable[str]) -> None:
        """Mark tables expired, in one transaction: they are never replayed again and their
        tokens open nothing (the server expires the tables nobody plays)."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.executemany("UPDATE tables SET expired = 1 WHERE id = ?", [(table_id,) for table_id in table_ids])

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
