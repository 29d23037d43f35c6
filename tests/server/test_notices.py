"""What a worker does with another worker's notice of stored actions (issue 53 item 8): the
actions the notice carries are played at once, checked by the rules as any stored action
(R6), with no read of the database; actions that do not follow the table's last (a notice
was missed) are read from the database, which decides what the table holds. On SQLite, so
no PostgreSQL is needed: the notices are handed to the hub as its listener would."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from persian_rummy import legal_actions
from persian_rummy.server.hub import Server
from persian_rummy.server.storage import ActionRow, StoredAction, action_notices
from persian_rummy.server.store import SqliteStore
from persian_rummy.server.tables import Table

KEY = b"the database's key"


class CountedStore(SqliteStore):
    """SQLite that counts its reads of stored actions."""

    def __init__(self) -> None:
        super().__init__(":memory:")
        self.reads = 0

    async def actions_after(self, seqs: Mapping[str, int]) -> dict[str, tuple[StoredAction, ...]]:
        self.reads += 1
        return await super().actions_after(seqs)


async def stored_elsewhere(server: Server, table_id: str, count: int) -> list[ActionRow]:
    """``count`` actions stored by "another worker" at the table (its game played apart)."""
    stored = await server.database.load(table_id)
    assert stored is not None
    elsewhere = Table.from_stored(stored)
    rows = []
    for _ in range(count):
        seat = elsewhere.state.current_player
        action = legal_actions(elsewhere.state)[-1]
        elsewhere.apply(seat, action)
        rows.append(ActionRow(table_id, elsewhere.seq, seat, str(action)))
        await server.database.add_action(rows[-1])
    return rows


async def played(table: Table, seq: int) -> None:
    """Wait (at most 10 s) until ``table`` has played action ``seq``."""
    for _ in range(1000):
        if table.seq >= seq:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"waited 10 s for action {seq}, the table has {table.seq}")


def test_actions_carried_by_a_notice_are_played_without_a_read() -> None:
    async def run() -> tuple[int, int]:
        store = CountedStore()
        server = Server(store)
        table, _ = await server.create_table(["human"] * 4, seed=4, dealer=0)
        rows = await stored_elsewhere(server, table.id, 3)
        for notice in action_notices(KEY, rows[:1]) + action_notices(KEY, rows[1:]):
            server.notices(notice)
        await played(table, 3)
        return table.seq, store.reads

    assert asyncio.run(run()) == (3, 0)


def test_carried_actions_after_a_gap_are_read_from_the_database_once() -> None:
    async def run() -> tuple[int, int]:
        store = CountedStore()
        server = Server(store)
        table, _ = await server.create_table(["human"] * 4, seed=4, dealer=0)
        rows = await stored_elsewhere(server, table.id, 3)
        (notice,) = action_notices(KEY, rows[2:])  # the notices of actions 1 and 2 were missed
        server.notices(notice)
        await played(table, 3)
        return table.seq, store.reads

    assert asyncio.run(run()) == (3, 1)
