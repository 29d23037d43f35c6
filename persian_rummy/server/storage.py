"""What the hub asks of its database, whichever it is: :class:`Storage`, with two
implementations, SQLite for one process (:class:`~persian_rummy.server.store.SQLiteStorage`)
and PostgreSQL for several workers sharing the same tables
(:class:`~persian_rummy.server.postgres.PostgresStore`); the errors a database answers with
(:class:`~persian_rummy.server.storage.StoreUnavailable`, :class:`~persian_rummy.server.storage.Conflict`); and the :class:`~persian_rummy.server.storage.Notice` by which workers learn
of each other's writes, parsed and checked like any input (:func:`~persian_rummy.server.storage.parse_notice`).

The database decides the order of a table's actions: it stores action number ``seq`` of a
table at most once (its key is the table and the number), so of two writers of the same
number one stores it and the other gets :class:`~persian_rummy.server.storage.Conflict`, re-reads what was stored
(:meth:`~persian_rummy.server.storage.Storage.actions_after`) and answers its client from there.

>>> parse_notice('{"k":"a","t":"5f0c2a9e1b3d4c6a","s":12}')
Notice(kind='a', table='5f0c2a9e1b3d4c6a', seq=12, seat=None, window=0, tables=())
"""

from __future__ import annotations

import abc
import itertools
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

import attrs

from persian_rummy.errors import PersianRummyError
from persian_rummy.server.quotas import CapacityError, Limits

if TYPE_CHECKING:
    from persian_rummy.server.tables import Table

__all__ = [
    "NOTICE_BYTES",
    "NOTICE_TABLES",
    "ActionRow",
    "BadNotice",
    "Conflict",
    "Notice",
    "Storage",
    "StoreUnavailable",
    "capacity_refusal",
    "expiry_chunks",
    "parse_notice",
]

#: The longest notice a worker reads (PostgreSQL allows 8000 bytes; ours are under 200).
NOTICE_BYTES: Final = 1024
# A table id as the server makes them (16 hexadecimal digits); a little wider, for tables
# made by other means (tests, tools), never wider than a link's token.
_TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The most tables one expiry notice names (a sweep that expires more sends several).
NOTICE_TABLES: Final = 40
# Action numbers and window numbers past this are refused: no game comes near it.
_MOST: Final = 2**31 - 1


class ActionRow(NamedTuple):
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
    window of the seat closes); ``"x"``, the ``tables`` expired. A notice only says where to
    look: what a table holds is always read from the database.

    >>> Notice("w", "t1", seat=2, window=9).text()
    '{"k":"w","t":"t1","p":2,"n":9}'
    """

    kind: str
    table: str = ""
    seq: int = 0
    seat: int | None = None
    window: int = 0
    tables: tuple[str, ...] = ()

    def text(self) -> str:
        """The notice as it is sent (compact JSON, at most :data:`~persian_rummy.server.storage.NOTICE_BYTES`)."""
        if self.kind == "a":
            fields: dict[str, Any] = {"k": "a", "t": self.table, "s": self.seq}
        elif self.kind == "w":
            fields = {"k": "w", "t": self.table, "p": self.seat, "n": self.window}
        else:
            fields = {"k": "x", "t": list(self.tables)}
        return json.dumps(fields, separators=(",", ":"))


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
    >>> parse_notice("x" * 5000)
    Traceback (most recent call last):
    ...
    persian_rummy.server.storage.BadNotice: a notice is at most 1024 bytes, not 5000
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
        if not (_table_id(fields.get("t")) and _whole(fields.get("s"), 1, _MOST)) or len(fields) != 3:
            raise BadNotice(f"an action notice names a table and an action number: {shown!r}")
        return Notice("a", fields["t"], seq=fields["s"])
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


class Storage(abc.ABC):
    """The database of a server, as the hub uses it: every method that reads or writes is a
    coroutine, and any of them may raise :class:`~persian_rummy.server.storage.StoreUnavailable` when the database cannot
    be reached (nothing was stored then). :attr:`shared` tells whether other processes serve
    the same tables (their writes are then told by :class:`~persian_rummy.server.storage.Notice`).

    The counts of open connections (:meth:`enter`, :meth:`leave`) are kept here, in memory
    by default: a database shared by several workers keeps them where every worker counts.
    """

    #: Whether other processes may serve the same tables (and write to the same database).
    shared: ClassVar[bool] = False

    def __init__(self) -> None:
        self._present: Counter[str] = Counter()
        self._windows = itertools.count(1)

    async def start(self, listener: Callable[[Notice | None], None] | None = None) -> None:  # noqa: B027
        """Open the database (and, when it is shared, hand every other worker's notice to
        ``listener``, and every notice after a lost connection: the hub then reads again
        whatever it holds)."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the database."""

    @abc.abstractmethod
    async def add_table(
        self,
        table: Table,
        tokens: Mapping[str, int | None],
        *,
        limits: Limits | None = None,
        rematch_of: str | None = None,
    ) -> None:
        """Store a new table and the digests of its tokens (``token -> seat``, ``None`` for a
        spectator link) at once. With ``limits``, first count the tables in play (in all, and
        the table's owner's) and raise :class:`~persian_rummy.server.quotas.CapacityError`
        at a limit, in the same transaction; with ``rematch_of``, raise :class:`~persian_rummy.server.storage.Conflict`
        if that game has its rematch already."""

    @abc.abstractmethod
    async def add_action(self, row: ActionRow) -> None:
        """Store an accepted action, committed before this returns (the actions that arrive
        together are committed together). Raises :class:`~persian_rummy.server.storage.Conflict` when the table has an
        action of that number already, :class:`~persian_rummy.server.storage.StoreUnavailable` when it was not stored."""

    @abc.abstractmethod
    async def add_token(self, token: str, table_id: str, seat: int | None) -> None:
        """Let ``token`` open ``seat`` of ``table_id`` too (nothing if it does already)."""

    @abc.abstractmethod
    async def find_token(self, token: str) -> tuple[str, int | None] | None:
        """The table and seat (``None`` for a spectator) a token opens, or ``None``."""

    @abc.abstractmethod
    async def load(self, table_id: str) -> Table | None:
        """The table with this id, replayed to its last stored action, or ``None``."""

    @abc.abstractmethod
    async def actions_after(self, seqs: Mapping[str, int]) -> dict[str, list[tuple[int, int, str]]]:
        """For each table id in ``seqs``, its stored actions numbered after the number
        given, as ``(seq, seat, action text)`` in order."""

    @abc.abstractmethod
    async def unfinished(self) -> list[Table]:
        """Every table whose game is not over and that has not expired, replayed."""

    @abc.abstractmethod
    async def expire(self, now: float, limits: Limits) -> list[str]:
        """Mark expired the tables in play that are stale at ``now`` (seconds since the
        epoch): created ``limits.unplayed_seconds`` ago with no action of a person, or with
        no action at all for ``limits.idle_seconds``; returns their ids (and tells the other
        workers)."""

    @abc.abstractmethod
    async def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch of the game at ``table_id``, once one is made."""

    async def open_window(self, table_id: str, seat: int) -> int:
        """A number for a new window of ``seat`` at ``table_id``, larger than every earlier
        window's (told to the other workers, whose earlier windows of the seat close)."""
        return next(self._windows)

    async def enter(self, key: str, limit: int) -> bool:
        """Count one more open connection under ``key`` if fewer than ``limit`` are open;
        whether it was counted."""
        if self._present[key] >= limit:
            return False
        self._present[key] += 1
        return True

    async def leave(self, key: str) -> None:
        """Count one connection under ``key`` fewer."""
        self._present[key] -= 1
        if self._present[key] <= 0:
            del self._present[key]


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
