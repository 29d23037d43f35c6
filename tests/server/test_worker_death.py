"""A worker's death is a non-event: ``persian-rummy serve --workers 2`` on a PostgreSQL
database, a worker killed with SIGKILL in the middle of games; its clients connect again (to
the other worker) and play on; every acknowledged action is stored at its number, none twice;
the server's own bots finish their game, one move a turn; and uvicorn starts a new worker,
which joins the others."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from typing import Any

import pytest
from live import children_of, create_table, free_port, is_running, start_serve, stop_serve
from pgcluster import Cluster
from waiting import WaitTimeout

from persian_rummy.server.client import SeatClient
from persian_rummy.server.tables import Table

WORKERS = 2
TABLES = 3
# Every wait is for a condition, bounded by this many seconds.
LIMIT = 240.0


def listening_workers(cluster: Cluster, url: str) -> set[int]:
    """The process ids of the workers listening to the database's notices."""
    rows = cluster.sql(
        url,
        "SELECT application_name FROM pg_stat_activity WHERE datname = current_database() "
        "AND application_name LIKE 'persian-rummy %%' AND query LIKE 'LISTEN %%'",
    )
    return {int(name.split()[-1]) for (name,) in rows}


def busiest_worker(workers: set[int], port: int) -> int:
    """The worker holding the most of the clients' open connections to ``port`` (Linux's
    /proc): the kernel hands a new connection to whichever worker accepts first, so on a busy
    machine one worker may hold every client, and killing the other would test nothing."""
    established: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                    established.add(fields[9])  # the socket's inode
    held = {}
    for pid in workers:
        sockets = set()
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    sockets.add(os.readlink(f"/proc/{pid}/fd/{fd}").removeprefix("socket:[").removesuffix("]"))
        held[pid] = len(sockets & established)
    return max(sorted(workers), key=lambda pid: held[pid])


def wait_for(condition: Any, what: str) -> None:
    deadline = time.monotonic() + LIMIT
    while not condition():
        if time.monotonic() > deadline:
            raise WaitTimeout(f"waited {LIMIT:g} s for {what}")
        time.sleep(0.1)


async def play_on(client: SeatClient, deadline: float) -> None:
    """Play the seat to the end of its game, connecting again whenever the connection drops."""
    while not client.finished:
        if time.monotonic() > deadline:
            raise WaitTimeout(f"waited {LIMIT:g} s for a client's game")
        await client.run()
        if not client.finished:
            await asyncio.sleep(0.05)


@pytest.mark.thorough
def test_a_worker_killed_mid_game_loses_nothing_and_a_new_one_joins(pg_cluster: Cluster) -> None:
    url, port = pg_cluster.database(), free_port()
    server = start_serve(url, port, workers=WORKERS, bot_delay=0.02)
    try:
        wait_for(lambda: len(listening_workers(pg_cluster, url)) == WORKERS, "every worker to listen")
        workers = listening_workers(pg_cluster, url)
        base = f"http://127.0.0.1:{port}"
        tables = [create_table(base, ["human"] * 4, "deals=1") for _ in range(TABLES)]
        bots = create_table(base, ["greedy"] * 4, "deals=1")  # the server's own bots
        clients = {
            table["id"]: [
                SeatClient(f"ws://127.0.0.1:{port}/ws/{seat['token']}", "random", seed=seat["seat"])
                for seat in table["seats"]
            ]
            for table in tables
        }
        everyone = [client for group in clients.values() for client in group]
        victim = min(workers)

        async def play() -> None:
            deadline = time.monotonic() + LIMIT
            games = [asyncio.ensure_future(play_on(client, deadline)) for client in everyone]
            # Mid-game on every table: one worker dies.
            while not all(sum(len(client.acks) for client in group) >= 20 for group in clients.values()):
                if time.monotonic() > deadline or all(game.done() for game in games):
                    break
                await asyncio.sleep(0.01)
            nonlocal victim
            victim = busiest_worker(workers, port)  # a worker that holds some of the games
            os.kill(victim, signal.SIGKILL)
            await asyncio.gather(*games)

        asyncio.run(play())
        assert all(client.finished for client in everyone)
        # Some clients were on the worker that died, and connected again to play on.
        assert any(len(client.joined) > 1 for client in everyone)
        # uvicorn started a new worker in its place, which listens beside the other.
        wait_for(
            lambda: (
                len(listening_workers(pg_cluster, url)) == WORKERS and victim not in listening_workers(pg_cluster, url)
            ),
            "a new worker to join",
        )
        wait_for(lambda: finished(pg_cluster, url, bots["id"]), "the server's bots to finish their game")
    finally:
        stop_serve(server, limit=30)
    for table_id, group in clients.items():
        stored = actions(pg_cluster, url, table_id)
        acks = [(seq, action) for client in group for seq, action in client.acks.items()]
        # Each action acknowledged once, to its sender alone, and stored at its number.
        assert len({seq for seq, _ in acks}) == len(acks)
        assert all(stored[seq - 1][1] == action for seq, action in acks)
        assert replayed(tables_row(pg_cluster, url, table_id), stored).finished
    # The bots' game: one move a number, each legal where it stands, to the end.
    assert replayed(tables_row(pg_cluster, url, bots["id"]), actions(pg_cluster, url, bots["id"])).finished
    moved = sum(len(client.joined) > 1 for client in everyone)
    print(
        f"\nworker death: {WORKERS} workers, one killed mid-game; {moved} of {len(everyone)} clients connected "
        f"again and played on; {sum(len(client.acks) for client in everyone)} actions acknowledged, every one "
        "stored once; the bots' game finished"
    )


def actions(cluster: Cluster, url: str, table_id: str) -> list[tuple[int, str]]:
    rows = cluster.sql(url, "SELECT seq, seat, action FROM actions WHERE table_id = %s ORDER BY seq", (table_id,))
    assert [seq for seq, _, _ in rows] == list(range(1, len(rows) + 1))
    return [(seat, action) for _, seat, action in rows]


def finished(cluster: Cluster, url: str, table_id: str) -> bool:
    return bool(cluster.sql(url, "SELECT finished FROM tables WHERE id = %s", (table_id,))[0][0])


def tables_row(cluster: Cluster, url: str, table_id: str) -> tuple[Any, ...]:
    return cluster.sql(url, "SELECT seats, rules, names, seed, dealer FROM tables WHERE id = %s", (table_id,))[0]


def replayed(row: tuple[Any, ...], stored: list[tuple[int, str]]) -> Table:
    import json

    from persian_rummy.rules import Rules

    seats, rules, names, seed, dealer = row
    return Table.resume(
        table_id="replay", seats=json.loads(seats), rules=Rules.parse(rules), names=json.loads(names),
        seed=int(seed, 16), dealer=dealer, actions=stored,
    )  # fmt: skip


@pytest.mark.thorough
@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="the processes are read from Linux's /proc")
def test_workers_whose_supervisor_is_killed_stop_and_leave_the_port(pg_cluster: Cluster) -> None:
    # kill -9 of the supervisor (the out-of-memory killer does the same) left its workers
    # running, orphaned, on the port and the tables; now each stops, and the port is free.
    url, port = pg_cluster.database(), free_port()
    server = start_serve(url, port, workers=WORKERS)
    workers: list[int] = []
    try:
        wait_for(lambda: len(listening_workers(pg_cluster, url)) == WORKERS, "every worker to listen")
        workers = children_of(server.pid)
        assert set(listening_workers(pg_cluster, url)) <= set(workers)
        server.kill()
        server.wait(LIMIT)
        wait_for(lambda: not any(is_running(worker) for worker in workers), "the orphaned workers to stop")
        again = start_serve(url, port)  # the port is free again
        stop_serve(again)
    finally:
        stop_serve(server)
        for worker in workers:  # never leave one behind, even when the test fails
            with contextlib.suppress(OSError):
                os.kill(worker, signal.SIGKILL)


@pytest.mark.thorough
@pytest.mark.parametrize("victim", [0, 1])
def test_two_servers_started_apart_share_a_table_and_lose_nothing_when_one_is_killed(
    pg_cluster: Cluster, victim: int
) -> None:
    # Two `persian-rummy serve` started on their own (as on two machines), on two ports, one
    # PostgreSQL database: a table made on the first has a seat and a spectator on each; one
    # server is killed with SIGKILL mid-game and started again, its clients connect to it
    # again, and the game plays to its end with every acknowledged action stored once.
    url = pg_cluster.database()
    ports = [free_port()]
    while len(ports) < 2:
        ports += [port for port in [free_port()] if port != ports[0]]
    servers = [start_serve(url, port) for port in ports]
    try:
        table = create_table(f"http://127.0.0.1:{ports[0]}", ["human", "greedy", "human", "greedy"], "deals=1")
        tokens = {seat["seat"]: seat["token"] for seat in table["seats"] if seat["token"]}
        seats = [
            SeatClient(f"ws://127.0.0.1:{ports[0]}/ws/{tokens[0]}", "random", seed=0),
            SeatClient(f"ws://127.0.0.1:{ports[1]}/ws/{tokens[2]}", "random", seed=2),
        ]
        watchers = [SeatClient(f"ws://127.0.0.1:{port}/ws/{table['spectator']['token']}", "random") for port in ports]

        async def play() -> None:
            deadline = time.monotonic() + LIMIT
            games = [asyncio.ensure_future(play_on(client, deadline)) for client in [*seats, *watchers]]
            while sum(len(client.acks) for client in seats) < 6:
                if time.monotonic() > deadline or all(game.done() for game in games):
                    break
                await asyncio.sleep(0.01)
            servers[victim].kill()
            servers[victim].wait(LIMIT)
            servers[victim] = await asyncio.to_thread(start_serve, url, ports[victim])
            await asyncio.gather(*games)

        asyncio.run(play())
    finally:
        for server in servers:
            stop_serve(server, limit=30)
    assert all(client.finished for client in [*seats, *watchers])
    assert len(seats[victim].joined) > 1 and len(watchers[victim].joined) > 1  # they connected again
    stored = actions(pg_cluster, url, table["id"])
    acks = [(seq, action) for client in seats for seq, action in client.acks.items()]
    assert len({seq for seq, _ in acks}) == len(acks)
    assert all(stored[seq - 1][1] == action for seq, action in acks)
    assert replayed(tables_row(pg_cluster, url, table["id"]), stored).finished
    # Both spectators saw the same game, to its end, whichever server they watched it on.
    assert watchers[0].log == watchers[1].log and "Game over" in watchers[0].log[-1], watchers[0].log[-3:]
