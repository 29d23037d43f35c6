"""No game is lost: the server (``persian-rummy serve``, a separate process) is killed with
SIGKILL in the middle of games; restarted on the same database, every table resumes at its
last acknowledged action (or the one after, stored but killed before its acknowledgement
left), and the games play on to the end with every acknowledged action in their records."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time
import urllib.request
from typing import Any

import pytest
from live import create_table, free_port, start_serve
from waiting import DEFAULT_LIMIT, WaitTimeout, wait_until

from persian_rummy.record import loads
from persian_rummy.server.client import SeatClient

TABLES = 4


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=60) as response:
        return str(response.read().decode())


def stored(db: str) -> dict[str, list[str]]:
    """The actions in the database (a SQLite file or a PostgreSQL database), by table."""
    query = "SELECT table_id, action FROM actions ORDER BY table_id, seq"
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as connection:
            rows = connection.execute(query).fetchall()
    else:
        with sqlite3.connect(db) as connection:
            rows = connection.execute(query).fetchall()
    actions: dict[str, list[str]] = {}
    for table_id, action in rows:
        actions.setdefault(table_id, []).append(action)
    return actions


# Seconds a phase of the games may take: only a guard against a hang, far beyond a phase's
# time on a busy machine, within the test's own limit for both phases.
PHASE_LIMIT = 480.0


async def play_until(clients: list[SeatClient], done: Any, limit: float = PHASE_LIMIT) -> None:
    tasks = [asyncio.ensure_future(client.run()) for client in clients]
    deadline = time.monotonic() + limit
    while not done():
        await asyncio.sleep(0.02)
        if all(task.done() for task in tasks):
            break
        if time.monotonic() > deadline:
            for task in tasks:
                task.cancel()
            raise WaitTimeout(f"waited {limit:g} s for the {len(clients)} clients' games")
    for task in tasks:
        if not task.done():
            task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@pytest.mark.thorough
def test_no_game_is_lost_when_the_server_is_killed(db: str) -> None:
    port = free_port()
    server = start_serve(db, port)
    try:
        tables = [create_table(f"http://127.0.0.1:{port}", ["human"] * 4) for _ in range(TABLES)]
        bot_table = create_table(f"http://127.0.0.1:{port}", ["greedy"] * 4)  # the server's own bots (0.4 s a move)
        ws = f"ws://127.0.0.1:{port}/ws/"
        clients = {
            table["id"]: [SeatClient(ws + seat["token"], "random", seed=seat["seat"]) for seat in table["seats"]]
            for table in tables
        }

        def acked(table_id: str) -> dict[int, str]:
            return {seq: action for client in clients[table_id] for seq, action in client.acks.items()}

        def mid_game() -> bool:  # every table well under way, none over
            return all(len(acked(table_id)) >= 15 for table_id in clients)

        def kill_when_mid_game() -> bool:
            if mid_game():
                server.send_signal(signal.SIGKILL)
                return True
            return False

        asyncio.run(play_until([client for group in clients.values() for client in group], kill_when_mid_game))
        server.wait(10)
        assert server.returncode == -signal.SIGKILL
        assert not any(client.finished for group in clients.values() for client in group)
    finally:
        if server.poll() is None:
            server.kill()

    before = stored(db)
    in_flight = 0
    for table_id in clients:
        ack = acked(table_id)
        assert ack, table_id
        # every acknowledged action is stored, at its number, and at most one more action was
        # stored and killed before its acknowledgement left
        assert all(before[table_id][seq - 1] == action for seq, action in ack.items())
        assert len(before[table_id]) - max(ack) in (0, 1)
        in_flight += len(before[table_id]) - max(ack)
    bot_actions = len(before.get(bot_table["id"], []))
    acked_before = sum(len(acked(table_id)) for table_id in clients)
    north = {table["id"]: table["seats"][0]["token"] for table in tables}

    server = start_serve(db, port)
    try:
        asyncio.run(play_until([client for group in clients.values() for client in group], lambda: False))
        for table_id, group in clients.items():
            # the table's first connection again began where the database left the table (a
            # seat to move may play before the others connect: they begin after)
            assert min(client.joined[1] for client in group) == len(before[table_id])
            assert all(client.joined[1] >= len(before[table_id]) for client in group)
            assert all(client.finished for client in group)
            record = loads(get(f"http://127.0.0.1:{port}/record/{north[table_id]}"))
            played = [str(item.action) for deal in record.deals for item in deal.actions]
            assert played[: len(before[table_id])] == before[table_id] and record.scores is not None
        # the server's bots resumed their table by themselves (a reader beside the server: WAL)
        wait_until(
            lambda: len(stored(db).get(bot_table["id"], [])) > bot_actions,
            "the server's bots to play on at their table",
            limit=DEFAULT_LIMIT,
            step=0.2,
        )
    finally:
        server.kill()
        server.wait(10)
    print(
        f"\ncrash test: {TABLES} tables killed after {acked_before} acknowledged actions "
        f"({sum(len(before[t]) for t in clients)} stored, {in_flight} stored but unacknowledged); "
        f"the bot table had {bot_actions}; every table resumed at its last stored action and finished"
    )
