"""Persistence: every table and every accepted action in SQLite (the standard library's
``sqlite3``, write-ahead log), written before the action is acknowledged.

A table is stored once when it is created (rules, seed, first dealer, seat kinds, names and
the SHA-256 digests of its tokens: the tokens themselves are never stored) and then one row
per accepted action, committed in its own transaction with ``synchronous=FULL``, so an
action acknowledged to a client survives the server being killed at any moment. On start the
server replays every unfinished table from these rows (:meth:`Store.unfinished`).

>>> from persian_rummy.server.tables import Table
>>> store = Store(":memory:")
>>> table = Table.new(seats=("human", "greedy", "greedy", "greedy"), seed=4, dealer=0, table_id="t1")
>>> store.add_table(table, {"tok-north": 0, "tok-watch": None})
>>> _ = table.apply(1, "draw")
>>> store.add_action(table.id, 1, 1, "draw")
>>> store.find_token("tok-north"), store.find_token("tok-watch"), store.find_token("guess")
(('t1', 0), ('t1', None), None)
>>> [resumed.state == table.state for resumed in store.unfinished()]
[True]
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Mapping
from typing import Final

from persian_rummy.rules import Rules
from persian_rummy.server.tables import Table

__all__ = ["Store", "token_digest"]

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created TEXT NOT NULL DEFAULT (datetime('now')),
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    seats TEXT NOT NULL,
    names TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
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
        # The server commits actions on a thread of its own and reads on its event loop: one
        # operation at a time on the connection, so no transaction ever interleaves another.
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def add_table(self, table: Table, tokens: Mapping[str, int | None]) -> None:
        """Store a new table and the digests of its tokens (``token -> seat``, ``None`` for a
        spectator link), in one transaction."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO tables (id, rules, seed, dealer, seats, names) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    str(table.rules),
                    table.seed,
                    table.dealer,
                    json.dumps(table.seats),
                    json.dumps(table.names),
                ),
            )
            self._db.executemany(
                "INSERT INTO tokens (digest, table_id, seat) VALUES (?, ?, ?)",
                [(token_digest(token), table.id, seat) for token, seat in tokens.items()],
            )

    def add_action(self, table_id: str, seq: int, seat: int, action: str, *, finished: bool = False) -> None:
        """Store accepted action number ``seq`` (1-based) of a table, committed before this
        returns; ``finished`` marks the game over in the same transaction."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO actions (table_id, seq, seat, action) VALUES (?, ?, ?, ?)", (table_id, seq, seat, action)
            )
            if finished:
                self._db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    def find_token(self, token: str) -> tuple[str, int | None] | None:
        """The table and seat (``None`` for a spectator) a token opens, or ``None``."""
        with self._lock:
            row = self._db.execute(
                "SELECT table_id, seat FROM tokens WHERE digest = ?", (token_digest(token),)
            ).fetchone()
        return None if row is None else (row[0], row[1])

    def load(self, table_id: str) -> Table | None:
        """The table with this id, replayed to its last stored action, or ``None``."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, rules, seed, dealer, seats, names FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
        return None if row is None else self._resume(row)

    def unfinished(self) -> list[Table]:
        """Every table whose game is not over, replayed to its last stored action."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, rules, seed, dealer, seats, names FROM tables WHERE finished = 0 ORDER BY created, id"
            ).fetchall()
        return [self._resume(row) for row in rows]

    def _resume(self, row: tuple[str, str, int, int, str, str]) -> Table:
        table_id, rules, seed, dealer, seats, names = row
        with self._lock:
            actions = self._db.execute(
                "SELECT seat, action FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
            ).fetchall()
        return Table.resume(
            table_id=table_id,
            seats=json.loads(seats),
            rules=Rules.parse(rules),
            names=json.loads(names),
            seed=seed,
            dealer=dealer,
            actions=[(seat, action) for seat, action in actions],
        )
