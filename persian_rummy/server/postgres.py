"""PostgreSQL as the database of one worker or of several sharing the same tables
(:class:`PostgresStore`), through psycopg 3 and its connection pool (the ``[server]`` extra).

Why psycopg 3: it is the PostgreSQL project's own adapter line for Python, kept by the same
hands as its pool, and fully typed (``mypy --strict`` checks every call into it); it speaks
asyncio natively, LISTEN/NOTIFY included (``AsyncConnection.notifies``); it runs on libpq, so
a URL, a Unix socket, a password file or TLS work as with every PostgreSQL tool; and it ships
binary wheels, so no compiler is needed. asyncpg is faster at the wire, but the server's time
goes to the game and the frames, not to the driver (see the serving page's figures).

The schema is versioned (:data:`MIGRATIONS`): on start each worker applies the versions the
database lacks, under a lock, so workers that start together apply each once. An action is
committed before it is acknowledged, the actions that arrive while a commit runs committed
together in the next (one statement, one transaction); the database's key on (table, action
number) makes a second writer of the same number fail (:class:`~persian_rummy.server.storage.Conflict`),
and the same transaction tells every worker (``NOTIFY``) which tables moved. Connections
counted per address and per table, and each seat's windows, are kept here too, so the limits
and the seat's latest window hold across workers; a worker that dies leaves counts the
others no longer count (each live worker holds an advisory lock they ask for).

>>> PostgresStore("postgresql://rummy@127.0.0.1/games").shared
True
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from persian_rummy._extras import needs_extra
from persian_rummy.errors import InvalidArgumentError, excerpt
from persian_rummy.rules import Rules
from persian_rummy.server.quotas import Limits
from persian_rummy.server.storage import (
    ActionRow,
    BadNotice,
    Conflict,
    Database,
    GroupCommit,
    Notice,
    StoredAction,
    StoredTable,
    StoreUnavailable,
    TableRow,
    TokenRow,
    action_notices,
    capacity_refusal,
    expiry_chunks,
    parse_notice,
    token_digest,
)

if TYPE_CHECKING:
    # psycopg's types take a query only as text known when the module is written (PEP 675).
    from typing_extensions import LiteralString

with needs_extra("server", __name__):
    import psycopg
    import psycopg.errors
    from psycopg_pool import AsyncConnectionPool

__all__ = ["CHANNEL", "MIGRATIONS", "PostgresStore", "migrate", "schema_version"]

#: The channel of the workers' notices.
CHANNEL: Final = "persian_rummy"

#: The schema, one version a step: a database is brought from the version it has to the
#: last, each step in one transaction.
MIGRATIONS: Final = (
    # 1: the games of one process: each table, the digests of its tokens, its actions (one a
    # number: the key decides which writer's action is the table's).
    """
    CREATE TABLE tables (
        id text PRIMARY KEY,
        created timestamptz NOT NULL DEFAULT now(),
        rules text NOT NULL,
        seed text NOT NULL,
        dealer smallint NOT NULL,
        seats text NOT NULL,
        names text NOT NULL,
        owner text NOT NULL DEFAULT '',
        finished boolean NOT NULL DEFAULT false,
        expired boolean NOT NULL DEFAULT false
    );
    CREATE TABLE tokens (
        digest text PRIMARY KEY,
        table_id text NOT NULL REFERENCES tables (id),
        seat smallint
    );
    CREATE TABLE actions (
        table_id text NOT NULL REFERENCES tables (id),
        seq integer NOT NULL,
        seat smallint NOT NULL,
        action text NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    """,
    # 2: what several workers share: expiry read from the database (whether a person played,
    # the last action's time), the rematch made once, the tables in play counted quickly,
    # the numbers of seats' windows and of workers, and the connections each worker counts
    # (unlogged: counts of connections a restart of the database has closed anyway).
    """
    ALTER TABLE tables
        ADD COLUMN played boolean NOT NULL DEFAULT false,
        ADD COLUMN touched timestamptz,
        ADD COLUMN rematch_of text UNIQUE REFERENCES tables (id);
    UPDATE tables SET touched = created,
        played = EXISTS (SELECT 1 FROM actions WHERE actions.table_id = tables.id);
    ALTER TABLE tables ALTER COLUMN touched SET NOT NULL, ALTER COLUMN touched SET DEFAULT now();
    CREATE INDEX tables_in_play ON tables (owner) WHERE NOT finished AND NOT expired;
    CREATE SEQUENCE windows;
    CREATE SEQUENCE workers;
    CREATE UNLOGGED TABLE presence (
        worker bigint NOT NULL,
        key text NOT NULL,
        open integer NOT NULL,
        PRIMARY KEY (worker, key)
    );
    """,
    # 3: the key the workers sign the actions their notices carry with (one row: 256 random
    # bits, made by the first worker that starts; readable by the server's role only, as
    # every table here is): a notice anyone who can connect may send (pg_notify) is never played.
    """
    CREATE TABLE notice_key (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        key text NOT NULL
    );
    """,
)

_LOG: Final = logging.getLogger("persian_rummy.server")
# The first key of the advisory locks the server takes (two-key form): "PR" in ASCII.
_LOCKS: Final = 0x5052
# Second keys under _LOCKS: the schema's migrations, the creation of tables.
_MIGRATING: Final = 0
_CREATING: Final = 1
# The first key of each live worker's lock (the second is its number), and of the locks that
# count connections under one key (the second is the key's hash).
_WORKER: Final = 0x5057
_COUNTING: Final = 0x5043
# The workers alive: those holding their lock on this database (the number is a constant,
# so the text is as literal as its parts).
_LIVE_WORKERS: Final = cast(  # type: ignore[redundant-cast]  # mypy reads LiteralString as str
    "LiteralString",
    f"""
    SELECT objid::bigint FROM pg_locks
    WHERE locktype = 'advisory' AND classid::bigint = {_WORKER} AND objsubid = 2 AND granted
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
""",
)
_COLUMNS: Final = "id, rules, seed, dealer, seats, names, owner, extract(epoch FROM created), rematch_of"
# The actions arriving together, stored in one statement with their tables' marks and the
# notice of each table's actions (sent when the transaction commits, :func:`action_notices`).
_STORE_ACTIONS: Final = f"""
    WITH new AS (
        SELECT * FROM unnest(%s::text[], %s::int[], %s::smallint[], %s::text[], %s::bool[], %s::bool[])
            AS n (table_id, seq, seat, action, finished, person)
    ), stored AS (
        INSERT INTO actions (table_id, seq, seat, action)
        SELECT table_id, seq, seat, action FROM new RETURNING table_id, seq
    ), marked AS (
        UPDATE tables SET finished = tables.finished OR moved.finished, played = tables.played OR moved.person,
            touched = to_timestamp(%s)
        FROM (SELECT table_id, bool_or(finished) AS finished, bool_or(person) AS person FROM new GROUP BY table_id)
            AS moved
        WHERE tables.id = moved.table_id
    )
    SELECT pg_notify('{CHANNEL}', notice) FROM unnest(%s::text[]) AS notices (notice)
"""
# In a statement of a transaction that stores nothing a game needs (the counts of connections,
# a window's number): its commit does not wait for the disk.
_QUICK: Final = "set_config('synchronous_commit', 'off', true)"
# The longest pause between two tries at the database's notices.
_LAST_PAUSE: Final = 5.0


def _stored(row: tuple[Any, ...], actions: tuple[StoredAction, ...]) -> StoredTable:
    """A table's row as :data:`_COLUMNS` selects it, with its actions."""
    table_id, rules, seed, dealer, seats, names, owner, created, rematch_of = row
    return StoredTable(
        TableRow(
            table_id, Rules.parse(rules), int(seed, 16), dealer, tuple(json.loads(seats)), tuple(json.loads(names)),
            owner, float(created), rematch_of,
        ),
        actions,
    )  # fmt: skip


async def schema_version(connection: psycopg.AsyncConnection[Any]) -> int:
    """The version of the schema of the database ``connection`` reaches (0: none)."""
    cursor = await connection.execute("SELECT to_regclass('schema_version') IS NOT NULL")
    present = await cursor.fetchone()
    if present is None or not present[0]:
        return 0
    cursor = await connection.execute("SELECT coalesce(max(version), 0) FROM schema_version")
    row = await cursor.fetchone()
    return 0 if row is None else int(row[0])


async def migrate(connection: psycopg.AsyncConnection[Any], target: int = len(MIGRATIONS)) -> int:
    """Bring the database's schema to version ``target`` (default: the last), each missing
    version in a transaction of its own, under a lock so that workers starting together
    apply each once; returns the version it had. Raises
    :class:`~persian_rummy.server.storage.StoreUnavailable` for a database of a later version
    than this library knows (nothing is changed then)."""
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= len(MIGRATIONS):
        raise InvalidArgumentError(f"the schema's versions are 0-{len(MIGRATIONS)}, not {excerpt(target)}")
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_LOCKS, _MIGRATING))
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, "
            "applied timestamptz NOT NULL DEFAULT now())"
        )
        had = await schema_version(connection)
        if had > len(MIGRATIONS):
            raise StoreUnavailable(
                f"the database's schema is version {had}, and this persian-rummy knows versions up to "
                f"{len(MIGRATIONS)}: upgrade persian-rummy"
            )
        for version in range(had + 1, target + 1):
            async with connection.transaction():
                await connection.execute(MIGRATIONS[version - 1])
                await connection.execute("INSERT INTO schema_version (version) VALUES (%s)", (version,))
    return had


class PostgresStore(Database):
    """The PostgreSQL database at ``url`` (``postgresql://USER@HOST/DB``, or any libpq
    connection string), through a pool of ``pool_size`` connections and one that listens to
    the other workers' notices. :meth:`start` opens it (waiting at most ``start_seconds`` for
    the database) and brings its schema up to date; an operation that cannot reach the
    database within ``timeout`` seconds raises
    :class:`~persian_rummy.server.storage.StoreUnavailable`, and the pool and the listener
    connect again, with growing pauses, while it is away.
    """

    shared = True

    def __init__(self, url: str, *, pool_size: int = 8, timeout: float = 5.0, start_seconds: float = 30.0) -> None:
        self.url = url
        self.timeout = timeout
        self.start_seconds = start_seconds
        #: How this process's connections are named in the database (its process id told).
        self.application = f"persian-rummy {os.getpid()}"
        self._pool = AsyncConnectionPool(
            url, min_size=min(2, pool_size), max_size=pool_size, open=False, timeout=timeout,
            kwargs={"autocommit": True, "application_name": self.application}, name="persian-rummy",
            # Each connection is tried before it is lent: after the database restarted, only
            # the operations then under way fail, not one for every connection in the pool.
            check=AsyncConnectionPool.check_connection,
            # While the database is away the pool connects again with doubling pauses; a chain
            # of tries given up after this long starts afresh at the next request, so a pause
            # after the database is back stays under about 16 seconds.
            reconnect_timeout=30.0,
        )  # fmt: skip
        self._commits = GroupCommit(self._store, retried=(Conflict,))
        self._worker = 0
        # The key the actions carried by the notices are signed with (the database's).
        self._key = b""
        self._listening: asyncio.Task[None] | None = None
        self._heard = asyncio.Event()
        # The server processes of this store's own connections: their notices are its own
        # writes, which it has played already.
        self._own: set[int] = set()

    # --- opening and closing -----------------------------------------------------------------

    async def start(self, listener: Callable[[Notice | None], None] | None = None) -> None:
        try:
            await self._pool.open(wait=True, timeout=self.start_seconds)
            async with self._pool.connection() as connection:
                await migrate(connection)
                cursor = await connection.execute("SELECT nextval('workers')")
                row = await cursor.fetchone()
                self._worker = 0 if row is None else int(row[0])
                await connection.execute(
                    "INSERT INTO notice_key (key) VALUES (%s) ON CONFLICT (one) DO NOTHING", (secrets.token_hex(32),)
                )
                cursor = await connection.execute("SELECT key FROM notice_key")
                row = await cursor.fetchone()
                self._key = b"" if row is None else bytes.fromhex(row[0])
                # The counts of workers that are gone count no more.
                await connection.execute(f"DELETE FROM presence WHERE worker NOT IN ({_LIVE_WORKERS})")
        except psycopg.Error as error:
            await self._pool.close()
            raise StoreUnavailable(f"the database could not be opened: {error}") from error
        self._heard = asyncio.Event()
        self._listening = asyncio.get_running_loop().create_task(self._listen(listener))
        # Listening before the first table is read: no notice falls between the two.
        waiting = asyncio.ensure_future(self._heard.wait())
        await asyncio.wait([waiting, self._listening], timeout=self.start_seconds, return_when="FIRST_COMPLETED")
        waiting.cancel()
        if not self._heard.is_set():
            await self.close()
            raise StoreUnavailable("the database's notices could not be listened to")

    async def close(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
            self._listening = None
        await self._pool.close()

    async def _listen(self, listener: Callable[[Notice | None], None] | None) -> None:
        """Listen to the workers' notices for the store's life, connecting again with growing
        pauses when the connection is lost (and then telling the listener ``None``: notices
        may have been missed). The connection holds this worker's lock (it is alive)."""
        pause, lost = 0.1, False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.url,
                    autocommit=True,
                    connect_timeout=max(1, int(self.timeout)),
                    application_name=self.application,
                ) as connection:
                    await connection.execute("SELECT pg_advisory_lock(%s, %s)", (_WORKER, self._worker))
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self._heard.set()
                    pause = 0.1
                    if lost and listener is not None:
                        listener(None)
                    async for notify in connection.notifies():
                        if notify.pid in self._own:
                            continue
                        try:
                            notice = parse_notice(notify.payload)
                            if notice.actions and not notice.signed_by(self._key):
                                raise BadNotice("its actions are not signed with the database's key")
                        except BadNotice as error:
                            _LOG.warning("refused a notice on %s (from process %d): %s", CHANNEL, notify.pid, error)
                            continue
                        if listener is not None:
                            listener(notice)
            except (psycopg.OperationalError, psycopg.InterfaceError, OSError) as error:
                lost = True
                _LOG.warning("lost the database's notices (%s): listening again in %.1f s", error, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, _LAST_PAUSE)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A connection of the pool. The database away, or refusing to do what it is asked
        (but for a key it holds already, which the caller reads), raises ``StoreUnavailable``:
        nothing was stored."""
        try:
            async with self._pool.connection(timeout=self.timeout) as connection:
                self._own.add(connection.info.backend_pid)
                yield connection
        except psycopg.IntegrityError:
            raise
        except psycopg.Error as error:
            _LOG.warning("the database failed: %s", error)
            raise StoreUnavailable(f"the database is not reachable or failed: {error}") from error

    async def _rows(self, query: LiteralString, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self._connection() as connection:
            cursor = await connection.execute(query, parameters)
            return await cursor.fetchall()

    # --- tables ------------------------------------------------------------------------------

    async def add_table(self, row: TableRow, tokens: Mapping[str, int | None], limits: Limits | None = None) -> None:
        try:
            async with self._connection() as connection, connection.transaction():
                if limits is not None:
                    # One creation at a time: what is counted holds until this one is stored.
                    await connection.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_LOCKS, _CREATING))
                    cursor = await connection.execute(
                        "SELECT count(*), count(*) FILTER (WHERE owner = %s) FROM tables "
                        "WHERE NOT finished AND NOT expired",
                        (row.owner,),
                    )
                    counts = await cursor.fetchone()
                    total, owned = (0, 0) if counts is None else counts
                    refusal = capacity_refusal(limits, total, owned if row.owner else 0)
                    if refusal is not None:
                        raise refusal
                await connection.execute(
                    "INSERT INTO tables (id, rules, seed, dealer, seats, names, owner, created, touched, rematch_of) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, to_timestamp(%s), to_timestamp(%s), %s)",
                    (
                        row.id, str(row.rules), f"{row.seed:#x}", row.dealer, json.dumps(list(row.seats)),
                        json.dumps(list(row.names)), row.owner, row.created, row.created, row.rematch_of,
                    ),
                )  # fmt: skip
                async with connection.cursor() as cursor:
                    await cursor.executemany(
                        "INSERT INTO tokens (digest, table_id, seat) VALUES (%s, %s, %s)",
                        [(token_digest(token), row.id, seat) for token, seat in tokens.items()],
                    )
        except psycopg.errors.UniqueViolation as error:
            if row.rematch_of is not None:
                raise Conflict(f"the game at {row.rematch_of} has its rematch already") from None
            raise StoreUnavailable(f"the table could not be stored: {error}") from error

    async def add_token(self, token: str, table_id: str, seat: int | None) -> None:
        async with self._connection() as connection:
            await connection.execute(
                "INSERT INTO tokens (digest, table_id, seat) VALUES (%s, %s, %s) ON CONFLICT (digest) DO NOTHING",
                (token_digest(token), table_id, seat),
            )

    async def find_token(self, token: str) -> TokenRow | None:
        rows = await self._rows(
            "SELECT tokens.table_id, tokens.seat FROM tokens JOIN tables ON tables.id = tokens.table_id "
            "WHERE digest = %s AND NOT expired",
            (token_digest(token),),
        )
        return None if not rows else TokenRow(rows[0][0], rows[0][1])

    async def load(self, table_id: str) -> StoredTable | None:
        tables = await self._tables(f"SELECT {_COLUMNS} FROM tables WHERE id = %s AND NOT expired", (table_id,))
        return tables[0] if tables else None

    async def unfinished(self) -> list[StoredTable]:
        return await self._tables(
            f"SELECT {_COLUMNS} FROM tables WHERE NOT finished AND NOT expired ORDER BY created, id", ()
        )

    async def _tables(self, query: LiteralString, parameters: Sequence[Any]) -> list[StoredTable]:
        """The tables ``query`` selects (:data:`_COLUMNS`), each with its actions."""
        async with self._connection() as connection:
            cursor = await connection.execute(query, parameters)
            rows = await cursor.fetchall()
            cursor = await connection.execute(
                "SELECT table_id, seq, seat, action FROM actions WHERE table_id = ANY(%s) ORDER BY table_id, seq",
                ([row[0] for row in rows],),
            )
            actions: dict[str, list[StoredAction]] = {}
            for table_id, seq, seat, action in await cursor.fetchall():
                actions.setdefault(table_id, []).append(StoredAction(seq, seat, action))
        return [_stored(row, tuple(actions.get(row[0], ()))) for row in rows]

    async def actions_after(self, seqs: Mapping[str, int]) -> dict[str, tuple[StoredAction, ...]]:
        found: dict[str, list[StoredAction]] = {table_id: [] for table_id in seqs}
        if seqs:
            rows = await self._rows(
                "SELECT actions.table_id, actions.seq, actions.seat, actions.action FROM actions "
                "JOIN unnest(%s::text[], %s::int[]) AS known (table_id, seq) "
                "ON actions.table_id = known.table_id AND actions.seq > known.seq "
                "ORDER BY actions.table_id, actions.seq",
                (list(seqs), list(seqs.values())),
            )
            for table_id, seq, seat, action in rows:
                found[table_id].append(StoredAction(seq, seat, action))
        return {table_id: tuple(actions) for table_id, actions in found.items()}

    async def expire(self, now: float, limits: Limits) -> list[str]:
        async with self._connection() as connection, connection.transaction():
            cursor = await connection.execute(
                "UPDATE tables SET expired = true WHERE NOT finished AND NOT expired AND ("
                "(NOT played AND created < to_timestamp(%s)) OR touched < to_timestamp(%s)) RETURNING id",
                (now - limits.unplayed_seconds, now - limits.idle_seconds),
            )
            stale = [row[0] for row in await cursor.fetchall()]
            for notice in expiry_chunks(stale):
                await connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, notice.text()))
        return stale

    async def rematch_of(self, table_id: str) -> str | None:
        rows = await self._rows("SELECT id FROM tables WHERE rematch_of = %s", (table_id,))
        return None if not rows else str(rows[0][0])

    # --- actions -----------------------------------------------------------------------------

    async def add_action(self, row: ActionRow) -> None:
        await self._commits.add(row)

    async def _store(self, rows: list[ActionRow]) -> None:
        try:
            async with self._connection() as connection:
                await connection.execute(
                    _STORE_ACTIONS,
                    (
                        [row.table_id for row in rows], [row.seq for row in rows], [row.seat for row in rows],
                        [row.action for row in rows], [row.finished for row in rows], [row.person for row in rows],
                        time.time(), [notice.text() for notice in action_notices(self._key, rows)],
                    ),
                )  # fmt: skip
        except psycopg.errors.UniqueViolation:
            first = rows[0]
            raise Conflict(f"action {first.seq} of table {first.table_id} is stored already") from None

    # --- connections and windows, across workers ---------------------------------------------

    async def open_window(self, table_id: str, seat: int) -> int:
        # Committed without waiting for the disk (_QUICK): a window is no game's action.
        rows = await self._rows(
            f"SELECT number, pg_notify('{CHANNEL}', json_build_object('k', 'w', 't', %s::text, 'p', %s::int, "
            f"'n', number)::text), {_QUICK} FROM (SELECT nextval('windows') AS number) AS opened",
            (table_id, seat),
        )
        return int(rows[0][0])

    async def enter(self, key: str, limit: int) -> bool:
        async with self._connection() as connection, connection.transaction():
            await connection.execute(f"SELECT pg_advisory_xact_lock(%s, hashtext(%s)), {_QUICK}", (_COUNTING, key))
            cursor = await connection.execute(
                f"SELECT coalesce(sum(open), 0) FROM presence WHERE key = %s AND worker IN ({_LIVE_WORKERS})", (key,)
            )
            counted = await cursor.fetchone()
            if counted is not None and counted[0] >= limit:
                return False
            await connection.execute(
                "INSERT INTO presence (worker, key, open) VALUES (%s, %s, 1) "
                "ON CONFLICT (worker, key) DO UPDATE SET open = presence.open + 1",
                (self._worker, key),
            )
        return True

    async def leave(self, key: str) -> None:
        async with self._connection() as connection:
            await connection.execute(
                "WITH gone AS (DELETE FROM presence WHERE worker = %s AND key = %s AND open <= 1), "
                "kept AS (UPDATE presence SET open = open - 1 WHERE worker = %s AND key = %s AND open > 1) "
                f"SELECT {_QUICK}",
                (self._worker, key, self._worker, key),
            )
