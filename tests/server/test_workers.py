"""Several workers on one PostgreSQL database: two hubs (:class:`~persian_rummy.server.hub.Server`)
on one event loop, each with its own pool and listening connection, serve the same tables as
two worker processes do. The database decides the order (a second writer of an action number
re-reads and answers from the stored game), frames reach the other worker's connections, the
bots play once a turn however many workers hold their table (and play on when the one driving
them is gone), a seat's latest window wins across workers, the limits count every worker's
connections, expiry reaches every worker, and a forged or oversized notice is refused and
logged."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from clients import Socket
from pgcluster import Cluster

from persian_rummy import legal_actions
from persian_rummy.errors import PersianRummyError
from persian_rummy.rules import Rules
from persian_rummy.server import Limits
from persian_rummy.server.connections import Connection
from persian_rummy.server.hub import BOT_STANDBY, Server
from persian_rummy.server.live import LiveTable
from persian_rummy.server.postgres import CHANNEL, PostgresStore
from persian_rummy.server.protocol import CLOSE_CODES
from persian_rummy.server.storage import ActionRow, StoredAction, action_notices
from persian_rummy.server.tables import Table

# Every wait below is for a condition, bounded by this many seconds.
LIMIT = 60.0


async def until(condition: Callable[[], bool], what: str, limit: float = LIMIT) -> None:
    """Wait (bounded) until ``condition`` holds, letting the servers work meanwhile."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {limit:g} s for {what}")
        await asyncio.sleep(0.01)


async def two_workers(url: str, **options: Any) -> tuple[Server, Server]:
    first, second = Server(PostgresStore(url), **options), Server(PostgresStore(url), **options)
    await first.start()
    await second.start()
    return first, second


async def opened(server: Server, token: str) -> LiveTable:
    found = await server.open(token)
    assert found is not None
    return found[0]


async def join(server: Server, live: LiveTable, seat: int | None) -> tuple[Connection, Socket]:
    """A connection to ``seat`` of ``live`` on ``server``, numbered as the server numbers it."""
    socket = Socket()
    connection = Connection(socket, live.table, seat, server.limits)  # type: ignore[arg-type]
    if seat is not None:
        connection.window = await server.storage.open_window(live.id, seat)
    assert await live.admit(connection)
    return connection, socket


def in_both(pg_cluster: Cluster, work: Callable[[Server, Server], Awaitable[None]], **options: Any) -> None:
    url = pg_cluster.database()

    async def run() -> None:
        first, second = await two_workers(url, **options)
        try:
            await work(first, second)
        finally:
            await first.close()
            await second.close()

    asyncio.run(run())


def test_frames_reach_the_other_workers_connections_and_a_game_ends_alike_on_both(pg_cluster: Cluster) -> None:
    async def work(first: Server, second: Server) -> None:
        _, links = await first.create_table(["human"] * 4, rules=Rules(deals=1), seed=5, dealer=0)
        tokens = dict(links["seats"])
        here, there = await opened(first, tokens[0]), await opened(second, tokens[1])
        seats = {seat: await join(first if seat % 2 == 0 else second, here if seat % 2 == 0 else there, seat)
                 for seat in range(4)}  # fmt: skip
        _, watching = await join(second, there, None)
        while not here.table.finished:
            await until(lambda: here.table.seq == there.table.seq, "the workers to agree")
            seat = here.table.state.current_player
            server, live = (first, here) if seat % 2 == 0 else (second, there)
            async with live.lock:
                await server.accept(live, seat, legal_actions(live.table.state)[0], seats[seat][0], request_id=1)
        await until(lambda: there.table.finished, "the other worker to see the game's end")
        assert there.table.state == here.table.state and there.table.seq == here.table.seq
        # Every connection, on either worker, got every action's frame once, in order.
        for _, socket in [*seats.values(), (None, watching)]:
            assert [frame["seq"] for frame in socket.frames()][1:] == list(range(1, here.table.seq + 1))
        assert watching.frames()[-1]["phase"] == "game_over"

    in_both(pg_cluster, work)


def test_a_second_writer_of_the_same_number_rereads_and_answers_from_the_stored_game(pg_cluster: Cluster) -> None:
    async def work(first: Server, second: Server) -> None:
        _, links = await first.create_table(["human"] * 4, seed=1, dealer=0)
        tokens = dict(links["seats"])
        here, there = await opened(first, tokens[1]), await opened(second, tokens[1])
        east, east_socket = await join(second, there, 1)
        south, _ = await join(second, there, 2)
        draw = legal_actions(there.table.state)[0]
        async with there.lock:  # the second worker does not hear of the first's draw yet
            await first.accept(here, 1, draw)
            assert here.table.seq == 1 and there.table.seq == 0
            # Its own draw takes number 1 too: the database refuses it, the worker reads the
            # stored game and refuses the draw as that game does (R12: one draw a turn) ...
            with pytest.raises(PersianRummyError, match="R12"):
                await second.accept(there, 1, draw, east, request_id=2)
            assert there.table.seq == 1 and east_socket.frames()[-1]["seq"] == 1  # ... after its frame
        async with there.lock:
            await first.accept(here, 1, legal_actions(here.table.state)[-1])  # East discards
            assert here.table.seq == 2 and there.table.seq == 1
            # South's draw is refused by the game the worker holds (East's turn), not by the
            # stored one: it reads that, and stores the draw after it.
            await second.accept(there, 2, draw, south, request_id=3)
            assert there.table.seq == 3 and there.table.deals[-1][-1] == draw
        await settled(here, 3)
        async with there.lock:
            await first.accept(here, 2, legal_actions(here.table.state)[-1])  # South discards
            # A bot's move chosen for a position that is gone is dropped, never stored later.
            stale = legal_actions(there.table.state)[-1]
            await second.accept(there, 2, stale)  # no sender: a bot's move
            assert there.table.seq == 4 and there.table.state == here.table.state

    in_both(pg_cluster, work)


async def settled(live: LiveTable, seq: int) -> bool:
    await until(lambda: live.table.seq == seq, f"action {seq} to reach the worker")
    return True


def test_the_bots_play_once_a_turn_on_two_workers_and_on_when_the_driving_one_is_gone(pg_cluster: Cluster) -> None:
    url = pg_cluster.database()

    async def run() -> None:
        first = Server(PostgresStore(url))
        await first.start()
        table, _ = await first.create_table(["random"] * 4, rules=Rules(deals=1), seed=9, dealer=0)
        # The second worker starts now: it resumes the table and plays its bots too, racing the
        # first for every move until one of them loses a race and stands by.
        second = Server(PostgresStore(url))
        await second.start()
        there = second.live_table(table.id)
        assert there is not None
        _, watching = await join(second, there, None)
        await until(lambda: there.table.seq >= 30, "the bots to play on both")
        await first.close()  # the first worker is gone: the second plays on, after a while
        gone = there.table.seq
        await until(lambda: there.table.finished, "the bots to finish the game", limit=LIMIT + BOT_STANDBY)
        assert there.table.seq > gone
        await second.close()
        # The stored game is one game, each number once, every action legal where it stands.
        stored = Table.resume(
            table_id=table.id, seats=table.seats, rules=table.rules, names=table.names, seed=table.seed,
            dealer=table.dealer, actions=[(action.seat, action.action) for action in await actions_of(url, table.id)],
        )  # fmt: skip
        assert stored.finished and stored.state == there.table.state
        assert [frame["seq"] for frame in watching.frames()] == list(
            range(there.table.seq - len(watching.frames()) + 1, there.table.seq + 1)
        )

    asyncio.run(run())


async def actions_of(url: str, table_id: str) -> tuple[StoredAction, ...]:
    storage = PostgresStore(url)
    await storage.start()
    try:
        return (await storage.actions_after({table_id: 0}))[table_id]
    finally:
        await storage.close()


def test_a_seats_latest_window_wins_across_workers_and_the_limits_count_both(pg_cluster: Cluster) -> None:
    async def work(first: Server, second: Server) -> None:
        table, links = await first.create_table(["human"] * 4, seed=1, dealer=0)
        south, spectator = dict(links["seats"])[2], links["spectator"]
        here, there = await opened(first, south), await opened(second, south)
        _, old_socket = await join(first, here, 2)
        new, _ = await join(second, there, 2)
        await until(lambda: old_socket.code is not None, "the first window to be told")
        assert old_socket.code == CLOSE_CODES["superseded"] and here.seated(2) is None and there.seated(2) is new
        assert json.loads(old_socket.texts[-1])["code"] == "superseded"
        # One spectator allowed: the other worker counts the first's.
        assert await first.storage.enter(f"s:{table.id}", 1)
        assert not await second.storage.enter(f"s:{table.id}", 1)
        await first.storage.leave(f"s:{table.id}")
        assert await second.storage.enter(f"s:{table.id}", 1)
        assert spectator

    in_both(pg_cluster, work, limits=Limits(spectators=1))


def test_a_table_expired_by_one_worker_is_let_go_by_the_other(pg_cluster: Cluster) -> None:
    async def work(first: Server, second: Server) -> None:
        table, links = await first.create_table(["human"] * 4, seed=1, dealer=0)
        there = await opened(second, links["spectator"])
        _, socket = await join(second, there, None)
        assert await first.expire(time.time() + 61) == [table.id]
        await until(lambda: socket.code is not None, "the other worker's spectator to be told")
        assert socket.code == CLOSE_CODES["expired"] and second.live_table(table.id) is None
        assert await second.open(links["spectator"]) is None

    in_both(pg_cluster, work, limits=Limits(unplayed_seconds=60))


@pytest.mark.parametrize(
    "payload",
    ["junk", "{}", '{"k":"a","t":"x","s":-1}', '{"k":"w","t":"t","p":9,"n":1}', '{"k":"a","t":"' + "x" * 2000 + '"}'],
)
def test_a_forged_or_oversized_notice_is_refused_and_logged(
    pg_cluster: Cluster, payload: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def work(first: Server, second: Server) -> None:
        table, links = await first.create_table(["human"] * 4, seed=1, dealer=0)
        live = await opened(first, links["spectator"])
        with caplog.at_level(logging.WARNING, logger="persian_rummy.server"):
            await asyncio.to_thread(pg_cluster.sql, first.storage.url, "SELECT pg_notify(%s, %s)", (CHANNEL, payload))  # type: ignore[attr-defined]
            await until(lambda: any("refused a notice" in record.message for record in caplog.records), "the log")
        assert live.table.seq == 0 and not live.ended and second.tables == {}
        # A well-formed notice is only where to look: nothing stored, nothing played.
        forged = json.dumps({"k": "a", "t": table.id, "s": 7})
        await asyncio.to_thread(pg_cluster.sql, first.storage.url, "SELECT pg_notify(%s, %s)", (CHANNEL, forged))  # type: ignore[attr-defined]
        await asyncio.sleep(0.2)
        assert live.table.seq == 0

    in_both(pg_cluster, work)


def test_the_actions_a_notice_carries_are_played_by_the_other_worker_without_reading_them(
    pg_cluster: Cluster,
) -> None:
    """Issue 53 item 8: a worker learns another's actions from the notice (signed, checked by
    the rules, R6), with no read of the database, and its spectator gets the frames the
    first worker's spectator gets, byte for byte."""

    async def work(first: Server, second: Server) -> None:
        _, links = await first.create_table(["human"] * 4, seed=5, dealer=0)
        here, there = await opened(first, links["spectator"]), await opened(second, links["spectator"])
        _, watching_here = await join(first, here, None)
        _, watching_there = await join(second, there, None)
        reads: list[object] = []
        read = second.storage.actions_after

        async def counted(seqs: Any) -> Any:
            reads.append(seqs)
            return await read(seqs)

        # What the second read once on taking the table into memory is read.
        await until(lambda: not second.notices._behind and not second.notices._catching, "the first read")
        second.storage.actions_after = counted  # type: ignore[method-assign]
        for _ in range(30):
            seat = here.table.state.current_player
            async with here.lock:
                await first.accept(here, seat, legal_actions(here.table.state)[-1])
            await settled(there, here.table.seq)
        assert there.table.state == here.table.state and reads == []
        assert watching_there.texts == watching_here.texts and len(watching_here.texts) == 32

    in_both(pg_cluster, work)


@pytest.mark.parametrize("key", [b"", b"another database's key"])
def test_actions_a_notice_carries_unsigned_or_signed_with_another_key_are_never_played(
    pg_cluster: Cluster, key: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """Anyone who may connect to the database may send a notice (pg_notify): a notice whose
    actions are not signed with the database's key is refused and logged, even when its
    action is legal (R6: East draws), so memory never holds an action the database lacks."""

    async def work(first: Server, second: Server) -> None:
        table, links = await first.create_table(["human"] * 4, seed=1, dealer=0)
        live = await opened(first, links["spectator"])
        (forged,) = action_notices(key, [ActionRow(table.id, 1, 1, "draw")])
        assert forged.actions
        with caplog.at_level(logging.WARNING, logger="persian_rummy.server"):
            await asyncio.to_thread(
                pg_cluster.sql,
                first.storage.url,
                "SELECT pg_notify(%s, %s)",
                (CHANNEL, forged.text()),  # type: ignore[attr-defined]
            )
            await until(lambda: any("not signed" in record.message for record in caplog.records), "the log")
        await asyncio.sleep(0.2)
        assert live.table.seq == 0 and not live.ended

    in_both(pg_cluster, work)


def test_an_action_stored_while_a_worker_reads_the_table_reaches_it(pg_cluster: Cluster) -> None:
    """A worker that takes a table into memory (a link it did not hold) reads it again once:
    an action another worker stored after the first read, whose notice came before the table
    was there to hear it, still reaches it and its connections (R6: East draws). Before, the
    table stayed an action behind until another was stored; a seat waiting for that frame
    never moved, and the game stopped."""

    async def work(first: Server, second: Server) -> None:
        _, links = await first.create_table(["human"] * 4, seed=1, dealer=0)
        here = await opened(first, links["spectator"])
        load = second.storage.load

        async def late(table_id: str) -> Any:
            stored = await load(table_id)
            async with here.lock:
                await first.accept(here, 1, legal_actions(here.table.state)[0])
            await asyncio.sleep(0.5)  # its notice heard, with no table here yet
            return stored

        second.storage.load = late  # type: ignore[method-assign]
        there = await opened(second, links["spectator"])
        await until(lambda: there.table.seq == 1, "the draw to reach the second worker", limit=10)
        assert there.table.state == here.table.state

    in_both(pg_cluster, work)
