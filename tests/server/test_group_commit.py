"""Accepted actions are committed in groups (one transaction and one fsync for the actions of
every table that came in while the last commit ran), and each is acknowledged only once its
own group is committed; an action that cannot be stored fails alone. The group commit is one
(:class:`~persian_rummy.server.storage.GroupCommit`), shared by both databases: here on
SQLite's, whose transactions can be held and counted."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Sequence

import pytest
from waiting import DEFAULT_LIMIT

from persian_rummy.server.storage import ActionRow, StoreUnavailable
from persian_rummy.server.store import SqliteStore
from persian_rummy.server.tables import Table


class CountingStore(SqliteStore):
    """A store that records the rows of each transaction; ``hold`` keeps the first one
    committing until ``release`` is set."""

    def __init__(self, *, hold: bool = False) -> None:
        super().__init__(":memory:")
        self.transactions: list[list[ActionRow]] = []
        self.committing = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()

    def _store_actions(self, rows: Sequence[ActionRow], now: float | None = None) -> None:
        self.transactions.append(list(rows))
        self.committing.set()
        assert self.release.wait(DEFAULT_LIMIT)  # the test always sets it; this only ends a hang
        super()._store_actions(rows, now)


async def stored(store: SqliteStore) -> dict[str, int]:
    return {table.row.id: len(table.actions) for table in await store.unfinished()}


async def open_tables(store: SqliteStore, names: Sequence[str]) -> None:
    for name in names:
        await store.add_table(Table.new(seats=("human",) * 4, seed=1, dealer=0, table_id=name).row(), {})


def test_actions_accepted_during_a_commit_are_committed_together() -> None:
    store = CountingStore(hold=True)

    async def play() -> tuple[list[bool], dict[str, int]]:
        await open_tables(store, ["a", "b", "c", "d"])
        first = asyncio.ensure_future(store.add_action(ActionRow("a", 1, 1, "draw")))
        assert await asyncio.to_thread(store.committing.wait, DEFAULT_LIMIT)
        later = [asyncio.ensure_future(store.add_action(ActionRow(name, 1, 1, "draw"))) for name in ("b", "c")]
        await asyncio.sleep(0)  # they run to their wait for the next commit (the first is held)
        waiting = [task.done() for task in (first, *later)]  # nothing is acknowledged before its commit
        store.release.set()
        await asyncio.gather(first, *later)
        await store.add_action(ActionRow("d", 1, 1, "draw"))  # a quiet server commits each alone
        return waiting, await stored(store)

    waiting, counts = asyncio.run(play())
    assert waiting == [False, False, False]
    # The first action's commit ran alone; the two accepted while it ran shared the next.
    assert [[row.table_id for row in rows] for rows in store.transactions] == [["a"], ["b", "c"], ["d"]]
    assert counts == {"a": 1, "b": 1, "c": 1, "d": 1}


def test_an_action_that_cannot_be_stored_fails_alone() -> None:
    store = CountingStore()

    async def play() -> tuple[list[object], dict[str, int]]:
        await open_tables(store, ["a", "b", "c"])
        rows = [ActionRow("a", 1, 1, "draw"), ActionRow("b", 1, 1, "draw"), ActionRow("nowhere", 1, 1, "draw")]
        rows.append(ActionRow("c", 1, 1, "draw"))
        outcomes = await asyncio.gather(*(store.add_action(row) for row in rows), return_exceptions=True)
        return list(outcomes), await stored(store)

    outcomes, counts = asyncio.run(play())
    assert outcomes[:2] == [None, None] and outcomes[3] is None
    # no such table: the foreign key
    assert isinstance(outcomes[2], StoreUnavailable) and isinstance(outcomes[2].__cause__, sqlite3.IntegrityError)
    assert counts == {"a": 1, "b": 1, "c": 1}


def test_a_failed_group_stores_nothing_of_itself() -> None:
    store = SqliteStore(":memory:")
    asyncio.run(open_tables(store, ["a"]))
    with pytest.raises(sqlite3.IntegrityError):
        store._store_actions([ActionRow("a", 1, 1, "draw"), ActionRow("nowhere", 1, 1, "draw")])
    assert asyncio.run(stored(store)) == {"a": 0}


def test_a_commit_that_fails_unexpectedly_tells_its_senders_and_the_next_one_commits() -> None:
    class Broken(SqliteStore):
        def __init__(self) -> None:
            super().__init__(":memory:")
            self.failures = 1

        def _store_actions(self, rows: Sequence[ActionRow], now: float | None = None) -> None:
            if self.failures:
                self.failures -= 1
                raise RuntimeError("the disk went away")
            super()._store_actions(rows, now)

    store = Broken()

    async def play() -> tuple[object, dict[str, int]]:
        await open_tables(store, ["a"])
        outcome = await asyncio.gather(store.add_action(ActionRow("a", 1, 1, "draw")), return_exceptions=True)
        await store.add_action(ActionRow("a", 1, 1, "draw"))  # the commits go on
        return outcome[0], await stored(store)

    outcome, counts = asyncio.run(play())
    assert isinstance(outcome, RuntimeError)
    assert counts == {"a": 1}


def test_an_action_sent_while_the_server_closes_is_refused_not_left_waiting() -> None:
    store = CountingStore()

    async def late() -> None:
        await open_tables(store, ["a"])
        store._writer.shutdown()  # as the store's close does first
        await asyncio.wait_for(store.add_action(ActionRow("a", 1, 1, "draw")), DEFAULT_LIMIT)

    with pytest.raises(StoreUnavailable, match="closing"):
        asyncio.run(late())
    assert asyncio.run(stored(store)) == {"a": 0} and store.transactions == []


def test_a_sender_that_goes_away_during_its_commit_leaves_the_others_theirs() -> None:
    store = CountingStore(hold=True)

    async def play() -> tuple[bool, dict[str, int]]:
        await open_tables(store, ["a", "b"])
        first = asyncio.ensure_future(store.add_action(ActionRow("a", 1, 1, "draw")))
        assert await asyncio.to_thread(store.committing.wait, DEFAULT_LIMIT)
        second = asyncio.ensure_future(store.add_action(ActionRow("b", 1, 1, "draw")))
        await asyncio.sleep(0)  # it runs to its wait for the next commit (the first is held)
        first.cancel()  # its connection closed while the commit ran
        store.release.set()
        await asyncio.wait_for(second, DEFAULT_LIMIT)
        return first.cancelled(), await stored(store)

    cancelled, counts = asyncio.run(play())
    assert cancelled
    assert counts == {"a": 1, "b": 1}


def test_actions_that_come_in_together_are_committed_in_one_transaction() -> None:
    # Several sockets read in one turn of the event loop: their actions share the first commit
    # instead of the first going alone and the others waiting for it.
    store = CountingStore()

    async def together() -> dict[str, int]:
        await open_tables(store, ["a", "b", "c"])
        await asyncio.gather(*(store.add_action(ActionRow(name, 1, 1, "draw")) for name in ("a", "b", "c")))
        return await stored(store)

    counts = asyncio.run(together())
    assert [[row.table_id for row in rows] for rows in store.transactions] == [["a", "b", "c"]]
    assert counts == {"a": 1, "b": 1, "c": 1}
