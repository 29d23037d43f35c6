"""How a table's actions are committed, and how a worker learns of the others'. The database
decides the order of a table's actions (one action a number, :mod:`~persian_rummy.server.storage`):
:class:`Commits` checks an action on the table in memory, stores it, and only then plays it
and sends its frames; when another worker stored that number first, it reads what was stored
and judges the action again on it. :class:`Notices` takes what other workers tell through
the database (:class:`~persian_rummy.server.storage.Notice`) and plays the actions they
stored: carried by the notice when they fit, else read, all such tables in one query.

>>> import asyncio
>>> from persian_rummy.server.keeper import NewTable, TableKeeper, Tasks
>>> from persian_rummy.server.quotas import DEFAULT_LIMITS
>>> from persian_rummy.server.store import SqliteStore
>>> async def played():
...     store, tasks = SqliteStore(":memory:"), Tasks()
...     keeper = TableKeeper(store, DEFAULT_LIMITS, tasks)
...     commits = Commits(store, keeper, tasks)
...     table, _ = await keeper.create_table(NewTable(("human",) * 4, dealer=0))
...     live = keeper.get(table.id)
...     async with live.lock:
...         await commits.accept(live, 1, Action.parse("draw"))
...     return table.seq, [action.action for action in (await store.load(table.id)).actions]
>>> asyncio.run(played())
(1, ['draw'])
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Final

from persian_rummy.actions import Action
from persian_rummy.errors import PersianRummyError
from persian_rummy.server.connections import Connection, send_in_turn
from persian_rummy.server.keeper import TableKeeper, Tasks
from persian_rummy.server.live import LiveTable
from persian_rummy.server.protocol import RequestId
from persian_rummy.server.storage import ActionRow, Conflict, Database, Notice, StoredAction, StoreUnavailable

__all__ = ["Commits", "Notices"]

# Tries at an action whose number another worker took meanwhile.
_ATTEMPTS: Final = 3
# Pauses (seconds) before reading again from a database that is away: the first, the longest.
_FIRST_PAUSE: Final = 0.1
_LAST_PAUSE: Final = 2.0
_LOG: Final = logging.getLogger("persian_rummy.server")


class Commits:
    """The commit protocol of the tables in play here: an action is checked, stored, then
    played and sent (:meth:`accept`); what other workers stored is played as it is read
    (:meth:`play_stored`). ``moved`` is told of each table that moved and whether this worker
    stored its last action (the hub starts the bots' next move).

    >>> from persian_rummy.server.quotas import DEFAULT_LIMITS
    >>> from persian_rummy.server.store import SqliteStore
    >>> store, tasks = SqliteStore(":memory:"), Tasks()
    >>> Commits(store, TableKeeper(store, DEFAULT_LIMITS, tasks), tasks).database is store
    True
    """

    def __init__(
        self,
        database: Database,
        keeper: TableKeeper,
        tasks: Tasks,
        moved: Callable[[LiveTable, bool], None] = lambda live, drive: None,
    ) -> None:
        self.database = database
        self.keeper = keeper
        self.tasks = tasks
        self.moved = moved

    async def accept(
        self,
        live: LiveTable,
        seat: int,
        action: Action,
        sender: Connection | None = None,
        request_id: RequestId = None,
    ) -> None:
        """Apply ``action`` for ``seat`` (under the table's lock), store it, acknowledge it to
        ``sender`` and send every connection its new frame (see
        :meth:`~persian_rummy.server.hub.Server.accept`)."""
        for attempt in range(_ATTEMPTS):
            table = live.table
            try:
                action, after = table.check(seat, action)
            except PersianRummyError:
                if attempt or sender is None or not self.database.shared:
                    raise
                await self.read_again(live)
                continue
            person = table.bots[seat] is None
            try:
                await self.database.add_action(
                    ActionRow(table.id, table.seq + 1, seat, str(action), after.is_over, person)
                )
            except Conflict:
                await self.read_again(live)
                if sender is None:
                    return
                continue
            await send_in_turn(live.commit(action, after, sender, request_id))
            self.moved(live, True)
            return
        raise StoreUnavailable("the table changed under the action again and again: try again")

    async def read_again(self, live: LiveTable) -> None:
        """Under the table's lock: play the actions other workers stored since its last."""
        found = await self.database.actions_after({live.id: live.table.seq})
        await self.play_stored(live, found.get(live.id, ()))

    async def play_stored(self, live: LiveTable, rows: Iterable[StoredAction]) -> None:
        """Under the table's lock: play stored actions that follow its last, sending each
        connection its frames; a stored action this table refuses (the database holds another
        game than memory) lets the table go, to be loaded again."""
        played = False
        for row in rows:
            if live.ended or row.seq != live.table.seq + 1:
                continue
            try:
                action, after = live.table.check(row.seat, row.action)
            except PersianRummyError as error:
                _LOG.error(
                    "table %s: stored action %d (%s) does not follow in memory: %s", live.id, row.seq, row.action, error
                )
                for connection in self.keeper.let_go(live):
                    self.tasks.spawn(connection.websocket.close(code=1012))
                return
            await send_in_turn(live.commit(action, after))
            played = True
        if played:
            self.moved(live, False)


class Notices:
    """What other workers tell through the database, acted on: the actions a notice carries
    are played (checked by the rules as any stored action is); a table that moved whose
    actions did not come with the notice, or came after a gap, is read again (all such tables
    in one query, :meth:`behind`); a seat's newer window closes this worker's; expired tables
    are let go.

    >>> from persian_rummy.server.quotas import DEFAULT_LIMITS
    >>> from persian_rummy.server.store import SqliteStore
    >>> store, tasks = SqliteStore(":memory:"), Tasks()
    >>> notices = Notices(Commits(store, TableKeeper(store, DEFAULT_LIMITS, tasks), tasks))
    >>> notices(Notice("a", "a table not here", seq=3))  # nothing to read: not in play here
    """

    def __init__(self, commits: Commits) -> None:
        self.commits = commits
        self.keeper = commits.keeper
        self.tasks = commits.tasks
        # Tables another worker wrote to, to read again (:meth:`_catch_up`).
        self._behind: set[str] = set()
        self._catching = False
        # The last action number of each table whose actions came with a notice and are
        # still to be played (in turn, under the table's lock).
        self._coming: dict[LiveTable, int] = {}

    def __call__(self, notice: Notice | None) -> None:
        """What another worker told through the database (``None``: notices may have been
        lost, as when the connection that listens was lost: every table is read again)."""
        if notice is None:
            self.behind(*self.keeper.ids)
        elif notice.kind == "a":
            live = self.keeper.get(notice.table)
            if live is None or live.table.seq >= notice.seq:
                return
            known = max(live.table.seq, self._coming.get(live, 0))
            if notice.actions and notice.actions[0].seq <= known + 1 and notice.table not in self._behind:
                # The actions came with the notice (signed by a worker, checked by the rules
                # as they are played, in the order heard): nothing to read again.
                self._coming[live] = max(known, notice.seq)
                self.tasks.spawn(self._play_carried(live, notice.actions))
            else:
                self.behind(notice.table)
        elif notice.kind == "w":
            live = self.keeper.get(notice.table)
            if live is not None and notice.seat is not None:
                self.tasks.spawn(live.supersede(notice.seat, notice.window))
        else:
            self.keeper.close_expired(notice.tables)

    def behind(self, *table_ids: str) -> None:
        """Read these tables again soon (:meth:`_catch_up`), with any others behind."""
        self._behind.update(table_ids)
        if self._behind and not self._catching:
            self._catching = True
            self.tasks.spawn(self._catch_up())

    async def _catch_up(self) -> None:
        """Read what other workers stored at the tables behind, all in one query, and play it
        at each (while the database is away, try again with a growing pause)."""
        pause = _FIRST_PAUSE
        try:
            while self._behind:
                behind, self._behind = self._behind, set()
                seqs = {}
                for table_id in behind:
                    live = self.keeper.get(table_id)
                    if live is not None:
                        seqs[table_id] = live.table.seq
                try:
                    found = await self.commits.database.actions_after(seqs)
                except StoreUnavailable as error:
                    _LOG.warning("the database is away (%s): reading again in %.1f s", error, pause)
                    self._behind |= behind
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, _LAST_PAUSE)
                    continue
                pause = _FIRST_PAUSE
                for table_id, rows in found.items():
                    live = self.keeper.get(table_id)
                    if live is not None and rows:
                        self.tasks.spawn(self._play_locked(live, rows))
        finally:
            self._catching = False

    async def _play_carried(self, live: LiveTable, rows: tuple[StoredAction, ...]) -> None:
        try:
            await self._play_locked(live, rows)
        finally:
            if self._coming.get(live) == rows[-1].seq:
                del self._coming[live]

    async def _play_locked(self, live: LiveTable, rows: tuple[StoredAction, ...]) -> None:
        async with live.lock:
            await self.commits.play_stored(live, rows)
