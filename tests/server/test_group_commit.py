"""Accepted actions are committed in groups (one transaction and one fsync for the actions of
every table that came in while the last commit ran), and each is acknowledged only once its
own group is committed; an action that cannot be stored fails alone."""

from __future__ import annotations

import asyncio
import concurrent.futures
import sqlite3
import threading
from collections.abc import Sequence

import pytest
from waiting import DEFAULT_LIMIT

from persian_rummy.server.store import ActionRow, GroupCommit, Store
from persian_rummy.server.tables import Table


class CountingStore(Store):
    """A store that records the rows of each transaction; ``hold`` keeps the first one
    committing until ``release`` is set."""

    def __init__(self, *, hold: bool = False) -> None:
        super().__init__(":memory:")
        self.transactions: list[list[ActionRow]] = []
        self.committing = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()

    def add_actions(self, rows: Sequence[ActionRow]) -> None:
        self.transactions.append(list(rows))
        self.committing.set()
        assert self.release.wait(DEFAULT_LIMIT)  # the test always sets it; this only ends a hang
        super().add_actions(rows)


def stored(store: Store) -> dict[str, int]:
    return {table.id: len(table.deals[0]) for table in store.unfinished()}


def open_tables(store: Store, names: Sequence[str]) -> None:
    for name in names:
        store.add_table(Table.new(seats=("human",) * 4, seed=1, dealer=0, table_id=name), {})


def test_actions_accepted_during_a_commit_are_committed_together() -> None:
    store = CountingStore(hold=True)
    open_tables(store, ["a", "b", "c", "d"])
    with concurrent.futures.ThreadPoolExecutor(1) as writer:
        commits = GroupCommit(store, writer)

        async def play() -> list[bool]:
            first = asyncio.ensure_future(commits.add(ActionRow("a", 1, 1, "draw")))
            assert await asyncio.to_thread(store.committing.wait, DEFAULT_LIMIT)
            later = [asyncio.ensure_future(commits.add(ActionRow(name, 1, 1, "draw"))) for name in ("b", "c")]
            await asyncio.sleep(0)  # they run to their wait for the next commit (the first is held)
            waiting = [task.done() for task in (first, *later)]  # nothing is acknowledged before its commit
            store.release.set()
            await asyncio.gather(first, *later)
            await commits.add(ActionRow("d", 1, 1, "draw"))  # a quiet server commits each alone
            return waiting

        assert asyncio.run(play()) == [False, False, False]
    # The first action's commit ran alone; the two accepted while it ran shared the next.
    assert [[row.table_id for row in rows] for rows in store.transactions] == [["a"], ["b", "c"], ["d"]]
    assert stored(store) == {"a": 1, "b": 1, "c": 1, "d": 1}


def test_an_action_that_cannot_be_stored_fails_alone() -> None:
    store = CountingStore()
    open_tables(store, ["a", "b", "c"])
    with concurrent.futures.ThreadPoolExecutor(1) as writer:
        commits = GroupCommit(store, writer)

        async def play() -> list[object]:
            rows = [ActionRow("a", 1, 1, "draw"), ActionRow("b", 1, 1, "draw"), ActionRow("nowhere", 1, 1, "draw")]
            rows.append(ActionRow("c", 1, 1, "draw"))
            return list(await asyncio.gather(*(commits.add(row) for row in rows), return_exceptions=True))

        outcomes = asyncio.run(play())
    assert outcomes[:2] == [None, None] and outcomes[3] is None
    assert isinstance(outcomes[2], sqlite3.IntegrityError)  # no such table: the foreign key
    assert stored(store) == {"a": 1, "b": 1, "c": 1}


def test_a_failed_group_stores_nothing_of_itself() -> None:
    store = Store(":memory:")
    open_tables(store, ["a"])
    with pytest.raises(sqlite3.IntegrityError):
        store.add_actions([ActionRow("a", 1, 1, "draw"), ActionRow("nowhere", 1, 1, "draw")])
    assert stored(store) == {"a": 0}


def test_a_commit_that_fails_unexpectedly_tells_its_senders_and_the_next_one_commits() -> None:
    class Broken(Store):
        def __init__(self) -> None:
            super().__init__(":memory:")
            self.failures = 1

        def add_actions(self, rows: Sequence[ActionRow]) -> None:
            if self.failures:
                self.failures -= 1
                raise RuntimeError("the disk went away")
            super().add_actions(rows)

    store = Broken()
    open_tables(store, ["a"])
    with concurrent.futures.ThreadPoolExecutor(1) as writer:
        commits = GroupCommit(store, writer)

        async def play() -> object:
            outcome = await asyncio.gather(commits.add(ActionRow("a", 1, 1, "draw")), return_exceptions=True)
            await commits.add(ActionRow("a", 1, 1, "draw"))  # the commits go on
            return outcome[0]

        assert isinstance(asyncio.run(play()), RuntimeError)
    assert stored(store) == {"a": 1}


def test_an_action_sent_while_the_server_closes_is_refused_not_left_waiting() -> None:
    store = CountingStore()
    open_tables(store, ["a"])
    writer = concurrent.futures.ThreadPoolExecutor(1)
    commits = GroupCommit(store, writer)
    writer.shutdown()  # as Server.close does

    async def late() -> None:
        await asyncio.wait_for(commits.add(ActionRow("a", 1, 1, "draw")), DEFAULT_LIMIT)

    with pytest.raises(RuntimeError, match="shutdown"):
        asyncio.run(late())
    assert stored(store) == {"a": 0} and store.transactions == []


def test_a_sender_that_goes_away_during_its_commit_leaves_the_others_theirs() -> None:
    store = CountingStore(hold=True)
    open_tables(store, ["a", "b"])
    with concurrent.futures.ThreadPoolExecutor(1) as writer:
        commits = GroupCommit(store, writer)

        async def play() -> bool:
            first = asyncio.ensure_future(commits.add(ActionRow("a", 1, 1, "draw")))
            assert await asyncio.to_thread(store.committing.wait, DEFAULT_LIMIT)
            second = asyncio.ensure_future(commits.add(ActionRow("b", 1, 1, "draw")))
            await asyncio.sleep(0)  # it runs to its wait for the next commit (the first is held)
            first.cancel()  # its connection closed while the commit ran
            store.release.set()
            await asyncio.wait_for(second, DEFAULT_LIMIT)
            return first.cancelled()

        assert asyncio.run(play())
    assert stored(store) == {"a": 1, "b": 1}


def test_actions_that_come_in_together_are_committed_in_one_transaction() -> None:
    # Several sockets read in one turn of the event loop: their actions share the first commit
    # instead of the first going alone and the others waiting for it.
    store = CountingStore()
    open_tables(store, ["a", "b", "c"])
    with concurrent.futures.ThreadPoolExecutor(1) as writer:
        commits = GroupCommit(store, writer)

        async def together() -> None:
            await asyncio.gather(*(commits.add(ActionRow(name, 1, 1, "draw")) for name in ("a", "b", "c")))

        asyncio.run(together())
    assert [[row.table_id for row in rows] for rows in store.transactions] == [["a", "b", "c"]]
    assert stored(store) == {"a": 1, "b": 1, "c": 1}
