"""What the hub asks of its database, whichever it is: :class:`Database`, with two
implementations, SQLite for one process (:class:`~persian_rummy.server.store.SqliteStore`)
and PostgreSQL for several workers sharing the same tables
(:class:`~persian_rummy.server.postgres.PostgresStore`); the rows it takes and gives, frozen
values that know nothing of the live table (:class:`TableRow`, :class:`StoredTable`,
:class:`ActionRow`, :class:`StoredAction`, :class:`TokenRow`); the group commit both
databases share (:class:`GroupCommit`); the errors a database answers with
(:class:`~persian_rummy.server.storage.StoreUnavailable`, :class:`~persian_rummy.server.storage.Conflict`); and the :class:`~persian_rummy.server.storage.Notice` by which workers learn
of each other's writes, parsed and checked like any input (:func:`~persian_rummy.server.storage.parse_notice`).

The database decides the order of a table's actions: it stores action number ``seq`` of a
table at most once (its key is the table and the number), so of two writers of the same
number one stores it and the other gets :class:`~persian_rummy.server.storage.Conflict`, re-reads what was stored
(:meth:`~persian_rummy.server.storage.Database.actions_after`) and answers its client from there.

>>> parse_notice('{"k":"a","t":"5f0c2a9e1b3d4c6a","s":12}')
Notice(kind='a', table='5f0c2a9e1b3d4c6a', seq=12, seat=None, window=0, tables=(), actions=())
"""

from __future__ import annotations

import abc
import asyncio
import hashlib
import hmac
import json
import re
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, ClassVar, Final

import attrs

from persian_rummy._moved import moved_names
from persian_rummy.errors import PersianRummyError
from persian_rummy.rules import Rules
from persian_rummy.server.quotas import CapacityError, Limits

__all__ = [
    "NOTICE_BYTES",
    "NOTICE_TABLES",
    "ActionRow",
    "BadNotice",
    "Conflict",
    "Database",
    "GroupCommit",
    "Notice",
    "StoreUnavailable",
    "StoredAction",
    "StoredTable",
    "TableRow",
    "TokenRow",
    "action_notices",
    "capacity_refusal",
    "expiry_chunks",
    "parse_notice",
    "token_digest",
]

#: The longest notice a worker sends or reads (PostgreSQL's payload is shorter than 8000 bytes):
#: a notice of stored actions carries them when they fit, else only where to read them.
NOTICE_BYTES: Final = 7999
# The longest action text a notice carries (the longest action of a game is under 100).
_ACTION_CHARS: Final = 400
# A notice's signature: the first 128 bits of an HMAC-SHA256, in hexadecimal.
_MAC: Final = re.compile(r"[0-9a-f]{32}")
# A table id as the server makes them (16 hexadecimal digits); a little wider, for tables
# made by other means (tests, tools), never wider than a link's token.
_TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The most tables one expiry notice names (a sweep that expires more sends several).
NOTICE_TABLES: Final = 40
# Action numbers and window numbers past this are refused: no game comes near it.
_MOST: Final = 2**31 - 1


@attrs.frozen
class TableRow:
    """A table as the database keeps it: its id, rules, secret seed, first dealer, seat kinds
    and names, the address of the client that created it (``owner``), when it was created
    (seconds since the epoch) and the game it is the rematch of, if any. The live table
    makes one (:meth:`~persian_rummy.server.tables.Table.row`) and is made from one
    (:meth:`~persian_rummy.server.tables.Table.from_stored`).

    >>> TableRow("t1", Rules(), 5, 0, ("human",) * 4, ("N", "E", "S", "W")).rematch_of is None
    True
    """

    id: str
    rules: Rules
    seed: int
    dealer: int
    seats: tuple[str, ...]
    names: tuple[str, ...]
    owner: str = ""
    created: float = 0.0
    rematch_of: str | None = None


@attrs.frozen
class ActionRow:
    """One accepted action to store: its table, its number ``seq`` (1-based), the seat that
    played it, its text, whether it ended the game and whether a person (not a bot) played it.

    >>> ActionRow("t1", 1, 1, "draw")
    ActionRow(table_id='t1', seq=1, seat=1, action='draw', finished=False, person=False)
    """

    table_id: str
    seq: int
    seat: int
    action: str
    finished: bool = False
    person: bool = False


@attrs.frozen
class StoredAction:
    """A stored action as it is read back: its number ``seq``, its seat and its text.

    >>> StoredAction(1, 1, "draw").seq
    1
    """

    seq: int
    seat: int
    action: str


@attrs.frozen
class StoredTable:
    """A table as it is read back: its :class:`TableRow` and its actions in order.

    >>> stored = StoredTable(TableRow("t1", Rules(), 5, 0, ("human",) * 4, ("N", "E", "S", "W")),
    ...                      (StoredAction(1, 1, "draw"),))
    >>> stored.row.id, [action.action for action in stored.actions]
    ('t1', ['draw'])
    """

    row: TableRow
    actions: tuple[StoredAction, ...] = ()


@attrs.frozen
class TokenRow:
    """What a token opens: the table ``table_id`` and its ``seat`` (``None`` for a spectator).

    >>> TokenRow("t1", None)
    TokenRow(table_id='t1', seat=None)
    """

    table_id: str
    seat: int | None


def token_digest(token: str) -> str:
    """The SHA-256 digest (hex) under which a token is stored (the token itself never is).

    >>> token_digest("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class StoreUnavailable(PersianRummyError):
    """The database could not be reached, or failed to store: nothing was stored, and the
    request may be tried again. ``status`` is the HTTP status that answers it (503).

    >>> StoreUnavailable("the database is not reachable").status
    503
    """

    message_is_public = True
    status = 503


class Conflict(PersianRummyError):
    """Another writer stored this first: an action of the same number at the same table (the
    loser re-reads the table), or a rematch of the same game.

    >>> str(Conflict("action 4 of table t1 is stored already"))
    'action 4 of table t1 is stored already'
    """


@attrs.frozen
class Notice:
    """What one worker tells the others through the database, once parsed
    (:func:`~persian_rummy.server.storage.parse_notice`): ``kind`` ``"a"``, table ``table`` has stored actions up to
    ``seq``; ``"w"``, window number ``window`` opened seat ``seat`` of ``table`` (an earlier
    window of the seat closes); ``"x"``, the ``tables`` expired.

    A notice of stored actions carries them (``actions``, the last numbered ``seq``) when
    they fit in :data:`~persian_rummy.server.storage.NOTICE_BYTES`, signed (``mac``) with the
    key only the workers of the database read from it (:func:`action_notices`), so a worker
    plays them, checked by the rules like any stored action, without reading them again.
    Any other notice only says where to look: what a table holds is read from the database.

    >>> Notice("w", "t1", seat=2, window=9).text()
    '{"k":"w","t":"t1","p":2,"n":9}'
    >>> Notice("a", "t1", seq=4).text()
    '{"k":"a","t":"t1","s":4}'
    """

    kind: str
    table: str = ""
    seq: int = 0
    seat: int | None = None
    window: int = 0
    tables: tuple[str, ...] = ()
    actions: tuple[StoredAction, ...] = ()
    mac: str = attrs.field(default="", repr=False)

    def text(self) -> str:
        """The notice as it is sent (compact JSON, at most :data:`~persian_rummy.server.storage.NOTICE_BYTES`)."""
        if self.kind == "a":
            fields: dict[str, Any] = {"k": "a", "t": self.table, "s": self.seq}
            if self.actions:
                fields["a"] = [[action.seq, action.seat, action.action] for action in self.actions]
                fields["m"] = self.mac
        elif self.kind == "w":
            fields = {"k": "w", "t": self.table, "p": self.seat, "n": self.window}
        else:
            fields = {"k": "x", "t": list(self.tables)}
        return json.dumps(fields, separators=(",", ":"))

    def signed_by(self, key: bytes) -> bool:
        """Whether the actions this notice carries are signed with ``key`` (the database's:
        a worker of it sent them, as they were stored).

        >>> notice, = action_notices(b"key", [ActionRow("t1", 1, 1, "draw")])
        >>> notice.signed_by(b"key"), notice.signed_by(b"another key")
        (True, False)
        """
        return bool(self.actions) and hmac.compare_digest(self.mac, _signature(key, self.table, self.actions))


def _signature(key: bytes, table: str, actions: Sequence[StoredAction]) -> str:
    """The signature of ``actions`` stored at ``table`` (:meth:`Notice.signed_by`)."""
    text = json.dumps([table, [[action.seq, action.seat, action.action] for action in actions]], separators=(",", ":"))
    return hmac.new(key, text.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()[:32]


def action_notices(key: bytes, rows: Sequence[ActionRow]) -> list[Notice]:
    """The notices of ``rows``, stored together: one a table, naming its last number and
    carrying its actions signed with ``key`` (:meth:`Notice.signed_by`), or only naming the
    number when they do not fit in :data:`~persian_rummy.server.storage.NOTICE_BYTES`.

    >>> rows = [ActionRow("t1", 3, 1, "draw"), ActionRow("t2", 9, 0, "discard 5H"), ActionRow("t1", 4, 1, "discard 2C")]
    >>> [(notice.table, notice.seq, len(notice.actions)) for notice in action_notices(b"key", rows)]
    [('t1', 4, 2), ('t2', 9, 1)]
    >>> notice, = action_notices(b"key", [ActionRow("t1", 1, 1, "meld " + "7C " * 2000)])
    >>> notice.text()  # too long to carry: where to read it
    '{"k":"a","t":"t1","s":1}'
    """
    tables: dict[str, list[StoredAction]] = {}
    for row in rows:
        tables.setdefault(row.table_id, []).append(StoredAction(row.seq, row.seat, row.action))
    notices = []
    for table, actions in tables.items():
        actions.sort(key=lambda action: action.seq)
        carried = Notice("a", table, seq=actions[-1].seq, actions=tuple(actions), mac=_signature(key, table, actions))
        fits = (
            all(len(action.action) <= _ACTION_CHARS for action in actions)
            and len(carried.text().encode("utf-8", "surrogatepass")) <= NOTICE_BYTES
        )
        notices.append(carried if fits else Notice("a", table, seq=actions[-1].seq))
    return notices


class BadNotice(PersianRummyError, ValueError):
    """A notice that is not one a worker sends: refused, and logged by the hub.

    >>> parse_notice("{}")
    Traceback (most recent call last):
    ...
    persian_rummy.server.storage.BadNotice: a notice is one of kinds a, w, x, not {}
    """


def _whole(value: object, least: int, most: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def _table_id(value: object) -> bool:
    return isinstance(value, str) and _TABLE_ID.fullmatch(value) is not None


def _carried(value: object, last: int) -> tuple[StoredAction, ...] | None:
    """The actions a notice carries, numbered one after another up to ``last``, or ``None``."""
    if not isinstance(value, list) or not 1 <= len(value) <= NOTICE_BYTES // 10:
        return None
    actions = []
    for number, item in enumerate(value, start=last - len(value) + 1):
        if not (
            isinstance(item, list)
            and len(item) == 3
            and _whole(item[0], number, number)
            and _whole(item[1], 0, 3)
            and isinstance(item[2], str)
            and 0 < len(item[2]) <= _ACTION_CHARS
        ):
            return None
        actions.append(StoredAction(item[0], item[1], item[2]))
    return tuple(actions) if actions[0].seq >= 1 else None


def parse_notice(text: str) -> Notice:
    """A notice's text, parsed and checked: at most :data:`~persian_rummy.server.storage.NOTICE_BYTES` bytes, one JSON object
    of a known kind whose every field has its type and range; raises :class:`~persian_rummy.server.storage.BadNotice`
    saying what is wrong (the text is cut short in the message).

    >>> parse_notice('{"k":"x","t":["a1","b2"]}').tables
    ('a1', 'b2')
    >>> parse_notice('{"k":"w","t":"t1","p":7,"n":1}')
    Traceback (most recent call last):
    ...
    persian_rummy.server.storage.BadNotice: a window notice names a seat 0-3, a window number and a table: '{"k":"w","t":"t1","p":7,"n":1}'
    >>> parse_notice('{"k":"a","t":"t1","s":2,"a":[[2,1,"draw"]],"m":"%s"}' % ("0" * 32)).actions
    (StoredAction(seq=2, seat=1, action='draw'),)
    >>> parse_notice("x" * 9000)
    Traceback (most recent call last):
    ...
    persian_rummy.server.storage.BadNotice: a notice is at most 7999 bytes, not 9000
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > NOTICE_BYTES:
        raise BadNotice(f"a notice is at most {NOTICE_BYTES} bytes, not {size}")
    shown = text[:120]
    try:
        fields = json.loads(text)
    except (ValueError, RecursionError):
        raise BadNotice(f"a notice is one JSON object: {shown!r}") from None
    kind = fields.get("k") if isinstance(fields, dict) else None
    if kind == "a":
        if not (_table_id(fields.get("t")) and _whole(fields.get("s"), 1, _MOST)) or len(fields) not in (3, 5):
            raise BadNotice(f"an action notice names a table and an action number: {shown!r}")
        if len(fields) == 3:
            return Notice("a", fields["t"], seq=fields["s"])
        actions, mac = _carried(fields.get("a"), fields["s"]), fields.get("m")
        if actions is None or not isinstance(mac, str) or _MAC.fullmatch(mac) is None:
            raise BadNotice(
                f"an action notice's actions are [number, seat, text] in order up to its number, signed: {shown!r}"
            )
        return Notice("a", fields["t"], seq=fields["s"], actions=actions, mac=mac)
    if kind == "w":
        if (
            not (_table_id(fields.get("t")) and _whole(fields.get("p"), 0, 3) and _whole(fields.get("n"), 1, 2**62))
            or len(fields) != 4
        ):
            raise BadNotice(f"a window notice names a seat 0-3, a window number and a table: {shown!r}")
        return Notice("w", fields["t"], seat=fields["p"], window=fields["n"])
    if kind == "x":
        tables = fields.get("t")
        if (
            not isinstance(tables, list)
            or not 1 <= len(tables) <= NOTICE_TABLES
            or not all(map(_table_id, tables))
            or len(fields) != 2
        ):
            raise BadNotice(f"an expiry notice names 1-{NOTICE_TABLES} tables: {shown!r}")
        return Notice("x", tables=tuple(tables))
    raise BadNotice(f"a notice is one of kinds a, w, x, not {shown}")


class Database(abc.ABC):
    """The database of a server, as the hub uses it: it takes and gives rows
    (:class:`TableRow`, :class:`StoredTable`, :class:`ActionRow`, :class:`StoredAction`,
    :class:`TokenRow`), never the live table. Every method that reads or writes is a
    coroutine, and any of them may raise :class:`~persian_rummy.server.storage.StoreUnavailable`
    when the database cannot be reached (nothing was stored then). :attr:`shared` tells
    whether other processes serve the same tables (their writes are then told by
    :class:`~persian_rummy.server.storage.Notice`). Two implementations:
    :class:`~persian_rummy.server.store.SqliteStore` (one process) and
    :class:`~persian_rummy.server.postgres.PostgresStore` (several workers).

    >>> import asyncio
    >>> from persian_rummy.server.store import SqliteStore
    >>> database = SqliteStore(":memory:")
    >>> isinstance(database, Database), database.shared, asyncio.run(database.load("t1"))
    (True, False, None)
    """

    #: Whether other processes may serve the same tables (and write to the same database).
    shared: ClassVar[bool] = False

    async def start(self, listener: Callable[[Notice | None], None] | None = None) -> None:  # noqa: B027
        """Open the database (and, when it is shared, hand every other worker's notice to
        ``listener``, and ``None`` after a lost connection: the hub then reads again
        whatever it holds)."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the database."""

    @abc.abstractmethod
    async def add_table(self, row: TableRow, tokens: Mapping[str, int | None], limits: Limits | None = None) -> None:
        """Store a new table and the digests of its tokens (``token -> seat``, ``None`` for a
        spectator link) at once. With ``limits``, first count the tables in play (in all, and
        the table's owner's) and raise :class:`~persian_rummy.server.quotas.CapacityError`
        at a limit, in the same transaction; a row that is the rematch of a game
        (:attr:`TableRow.rematch_of`) that has its rematch already raises
        :class:`~persian_rummy.server.storage.Conflict`."""

    @abc.abstractmethod
    async def add_action(self, row: ActionRow) -> None:
        """Store an accepted action, committed before this returns (the actions that arrive
        together are committed together, :class:`GroupCommit`). Raises
        :class:`~persian_rummy.server.storage.Conflict` when the table has an action of that
        number already, :class:`~persian_rummy.server.storage.StoreUnavailable` when it was
        not stored."""

    @abc.abstractmethod
    async def add_token(self, token: str, table_id: str, seat: int | None) -> None:
        """Let ``token`` open ``seat`` of ``table_id`` too (nothing if it does already)."""

    @abc.abstractmethod
    async def find_token(self, token: str) -> TokenRow | None:
        """The table and seat a token opens, or ``None``."""

    @abc.abstractmethod
    async def load(self, table_id: str) -> StoredTable | None:
        """The table with this id and its actions, or ``None`` (also when it expired)."""

    @abc.abstractmethod
    async def actions_after(self, seqs: Mapping[str, int]) -> dict[str, tuple[StoredAction, ...]]:
        """For each table id in ``seqs``, its stored actions numbered after the number
        given, in order."""

    @abc.abstractmethod
    async def unfinished(self) -> list[StoredTable]:
        """Every table whose game is not over and that has not expired, with its actions."""

    @abc.abstractmethod
    async def expire(self, now: float, limits: Limits) -> list[str]:
        """Mark expired, in one transaction, the tables in play that are stale at ``now``
        (seconds since the epoch): created ``limits.unplayed_seconds`` ago with no action of
        a person, or with no action at all for ``limits.idle_seconds``; returns their ids
        (and tells the other workers). They are never replayed again and their tokens open
        nothing."""

    @abc.abstractmethod
    async def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch of the game at ``table_id``, once one is made."""

    @abc.abstractmethod
    async def open_window(self, table_id: str, seat: int) -> int:
        """A number for a new window of ``seat`` at ``table_id``, larger than every earlier
        window's (told to the other workers, whose earlier windows of the seat close)."""

    @abc.abstractmethod
    async def enter(self, key: str, limit: int) -> bool:
        """Count one more open connection under ``key`` if fewer than ``limit`` are open (on
        every worker of the database); whether it was counted."""

    @abc.abstractmethod
    async def leave(self, key: str) -> None:
        """Count one connection under ``key`` fewer."""


class GroupCommit:
    """The commits of accepted actions, grouped, for either database: the rows that arrive
    while a commit runs (other tables') are committed together in the next, one commit at a
    time, so a busy server makes one ``fsync`` for many actions. ``commit`` stores a list of
    rows in one transaction, all or none; when it raises one of ``retried`` for a group of
    several, the rows are committed again one at a time, so only the row that cannot be
    stored fails. Each :meth:`add` returns once its row is committed, or raises what kept it
    out (:class:`StoreUnavailable` when the server closes meanwhile).

    >>> import asyncio
    >>> groups = []
    >>> async def commit(rows):
    ...     groups.append([row.table_id for row in rows])
    >>> commits = GroupCommit(commit, retried=(Conflict,))
    >>> async def together():
    ...     await asyncio.gather(*(commits.add(ActionRow(name, 1, 1, "draw")) for name in "abc"))
    >>> asyncio.run(together()); groups
    [['a', 'b', 'c']]
    """

    def __init__(
        self,
        commit: Callable[[list[ActionRow]], asyncio.Future[None] | Coroutine[Any, Any, None]],
        *,
        retried: tuple[type[BaseException], ...] = (Conflict, StoreUnavailable),
    ) -> None:
        self._commit = commit
        self._retried = retried
        self._pending: list[tuple[ActionRow, asyncio.Future[None]]] = []
        self._committing = False
        self._work: asyncio.Future[None] | None = None

    async def add(self, row: ActionRow) -> None:
        """Store ``row``, committed before this returns."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((row, done))
        if not self._committing:
            # At the end of this turn of the event loop: the actions that came in together
            # (their sockets were read at once) are committed together.
            self._committing = True
            loop.call_soon(self._start)
        await done

    def _start(self) -> None:
        """Start committing the pending rows. A commit that hands back a future (SQLite's
        thread) is followed by its callback, with no task of its own: a commit costs one
        hand-over each way."""
        batch, self._pending = self._pending, []
        try:
            started = self._commit([row for row, _ in batch])
            work = started if isinstance(started, asyncio.Future) else asyncio.get_running_loop().create_task(started)
        except Exception as error:  # not started (the server is closing)
            self._finish(batch, [error] * len(batch))
            return
        self._work = work  # held while it runs: a task nobody holds may be collected
        work.add_done_callback(lambda work: self._committed(batch, work))

    def _committed(self, batch: list[tuple[ActionRow, asyncio.Future[None]]], work: asyncio.Future[None]) -> None:
        error = StoreUnavailable("the server is closing") if work.cancelled() else work.exception()
        if error is None:
            self._finish(batch, [None] * len(batch))
        elif isinstance(error, self._retried) and len(batch) > 1:
            self._work = asyncio.get_running_loop().create_task(self._one_by_one(batch))
        else:
            self._finish(batch, [error] * len(batch))

    async def _one_by_one(self, batch: list[tuple[ActionRow, asyncio.Future[None]]]) -> None:
        """Commit the rows of a group that failed one at a time: only the row that cannot be
        stored fails."""
        outcomes: list[BaseException | None] = []
        for row, _ in batch:
            try:
                await self._commit([row])
                outcomes.append(None)
            except Exception as error:
                outcomes.append(error)
        self._finish(batch, outcomes)

    def _finish(
        self, batch: list[tuple[ActionRow, asyncio.Future[None]]], outcomes: list[BaseException | None]
    ) -> None:
        """Give each row's sender its outcome, and commit what came meanwhile."""
        for (_, done), outcome in zip(batch, outcomes, strict=True):
            if done.done():
                continue  # its sender went away meanwhile
            if outcome is None:
                done.set_result(None)
            else:
                done.set_exception(outcome)
        self._committing = bool(self._pending)
        if self._pending:
            self._start()


def expiry_chunks(table_ids: Sequence[str]) -> list[Notice]:
    """The expiry notices that name ``table_ids``, :data:`~persian_rummy.server.storage.NOTICE_TABLES` at most each.

    >>> [len(notice.tables) for notice in expiry_chunks([str(n) for n in range(90)])]
    [40, 40, 10]
    """
    ids = list(table_ids)
    return [
        Notice("x", tables=tuple(ids[start : start + NOTICE_TABLES])) for start in range(0, len(ids), NOTICE_TABLES)
    ]


def capacity_refusal(limits: Limits, total: int, owned: int) -> CapacityError | None:
    """The refusal of one more table when ``total`` tables are in play, ``owned`` of them by
    the same client, or ``None`` when ``limits`` allow it.

    >>> capacity_refusal(Limits(tables_per_client=2), 5, 2).status
    429
    >>> capacity_refusal(Limits(tables=5), 5, 0).reason
    'the server is full (5 tables in play): try again later'
    >>> capacity_refusal(Limits(), 5, 1) is None
    True
    """
    if total >= limits.tables:
        return CapacityError(f"the server is full ({limits.tables} tables in play): try again later", status=503)
    if owned >= limits.tables_per_client:
        return CapacityError(
            f"this address already has {limits.tables_per_client} tables in play: finish one "
            f"(a table nobody plays expires after {limits.unplayed_seconds / 60:g} minutes)",
            status=429,
        )
    return None


_MOVED = moved_names(
    __name__,
    {"Storage": (Database, "persian_rummy.server.storage.Database")},
)


def __getattr__(name: str) -> object:
    # Deprecated names, each still given with a warning that names its new one.
    return _MOVED(name)
