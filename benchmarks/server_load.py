"""Load on the table server: N tables of four WebSocket bot clients and S spectators each, all
at once, against ``persian-rummy serve``'s server started as a separate process on the
loopback address only.

    python benchmarks/server_load.py --tables 10 --games 5
    python benchmarks/server_load.py --tables 100 --seconds 120
    python benchmarks/server_load.py --db postgresql --workers 2 --tables 100 --games 100 --seconds 60
    python benchmarks/server_load.py --compare --tables 100 400 --spectators 0 --games 100 --seconds 60

Each table's four seats are played by remote :class:`~persian_rummy.server.client.SeatClient`
bots (``--bot``, random by default: the cheapest to think, so the figures measure the
server) in one client process, and ``--spectators`` more connections per table (1 by
default) watch; with ``--games``, each table's clients play that many games one after
another, each at a new table (created, joined and watched as any table is: that work is in
the figures too), so a run is long enough for steady figures. Every action goes through the whole path: parse, the rules, an SQLite commit
(``synchronous=FULL``), the acknowledgement and a frame (view JSON and SVG picture) to each
seat and spectator. The server runs with limits wide enough for one client address to hold
every table and connection of the run. The run is bounded: at most ``--seconds``, 500
tables and 100 games a table. Prints one line: the Python version and cores; the connections (open at once,
dropped); the accepted actions and their rate; the latency from sending an action to
receiving its acknowledgement (p50, p90, p99, max); and (on Linux) the processor time per
accepted action of the server (in user and in system mode: the system's share is mostly the
loopback network carrying the frames), measured over the play only, and of the clients, which tells
how much of the wall time was the server's own work on a shared machine.

``--db postgresql`` stores the games in PostgreSQL instead (a throwaway cluster started for the
run in a temporary folder, on a Unix socket, ``fsync`` and ``synchronous_commit`` on, as durable
as SQLite's ``synchronous=FULL``), ``--workers N`` runs ``serve --workers N`` on it, and the
processor time of the database (its server process and every backend) is reported beside the
server's (the workers' and their supervisor's). ``--compare`` runs, one after another in the
same run, 1 worker on SQLite, 1 on PostgreSQL and 2 on PostgreSQL at each number of tables
given, and prints them side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # waiting, which live uses
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

from live import create_table, free_port, start_serve, stop_serve
from pgcluster import Cluster

from persian_rummy.server.client import SeatClient

MAX_TABLES = 500
MAX_SPECTATORS = 50
MAX_GAMES = 100
MAX_WORKERS = 8
# What --compare runs at each number of tables: (store, workers).
COMPARED = (("sqlite", 1), ("postgresql", 1), ("postgresql", 2))


class Watcher:
    """A spectator: reads every frame until the game is over or the connection closes."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.frames = 0
        self.finished = False
        self.dropped = False

    async def run(self) -> None:
        import websockets

        try:
            async with websockets.connect(self.url, max_size=2**22, open_timeout=20) as socket:
                async for message in socket:
                    self.frames += 1
                    if json.loads(message).get("phase") == "game_over":
                        self.finished = True
                        return
        except (OSError, websockets.exceptions.ConnectionClosed, TimeoutError):
            self.dropped = True


async def run(
    port: int, tables: int, spectators: int, bot: str, seconds: float, games: int, server_pid: int, database_pid: int
) -> tuple[list[SeatClient], list[Watcher], float, tuple[float, float] | None, float | None]:
    clients: list[SeatClient] = []
    watchers: list[Watcher] = []
    url = f"http://127.0.0.1:{port}"

    async def play(number: int) -> None:
        """Table ``number``'s games, one after another: each on a new table, as a new game
        is, with its own four clients and spectators."""
        for game in range(games):
            link = await asyncio.to_thread(create_table, url, ["human"] * 4)
            seats = [
                SeatClient(
                    f"ws://127.0.0.1:{port}/ws/{seat['token']}", bot, seed=(game * tables + number) * 4 + seat["seat"]
                )
                for seat in link["seats"]
            ]
            watching = [Watcher(f"ws://127.0.0.1:{port}/ws/{link['spectator']['token']}") for _ in range(spectators)]
            clients.extend(seats)
            watchers.extend(watching)
            await asyncio.gather(*(client.run() for client in seats), *(watcher.run() for watcher in watching))

    cpu = cpu_seconds(server_pid)
    database = cpu_seconds(database_pid) if database_pid else None
    started = time.perf_counter()
    tasks = [asyncio.ensure_future(play(number)) for number in range(tables)]
    _, pending = await asyncio.wait(tasks, timeout=seconds)
    elapsed = time.perf_counter() - started
    end = cpu_seconds(server_pid)
    database_end = cpu_seconds(database_pid) if database_pid else None
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    used = None if cpu is None or end is None else (end[0] - cpu[0], end[1] - cpu[1])
    database_used = None if database is None or database_end is None else sum(database_end) - sum(database)
    return clients, watchers, elapsed, used, database_used


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds(pid: int) -> tuple[float, float] | None:
    """The processor time a process and every process under it have used in user and in system
    mode (those that ended: as their parents were told), where ``/proc`` tells it."""
    fields = _stat(pid)
    if fields is None:
        return None
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            children.setdefault(int(stat[1]), []).append(int(entry.name))
    tick = os.sysconf("SC_CLK_TCK")
    user, system = int(fields[13]) / tick, int(fields[14]) / tick  # the ended children's
    waiting = [pid]
    while waiting:
        current = waiting.pop()
        if (stat := _stat(current)) is not None:
            user, system = user + int(stat[11]) / tick, system + int(stat[12]) / tick
        waiting += children.get(current, [])
    return user, system


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted ``values`` lie (nearest rank)."""
    return values[min(len(values) - 1, int(len(values) * share))]


class Figures(NamedTuple):
    """What one configuration measured."""

    store: str
    workers: int
    tables: int
    connections: int
    dropped: int
    finished: int
    actions: int
    elapsed: float
    latencies: list[float]
    server: tuple[float, float] | None
    database: float | None
    client: float

    @property
    def rate(self) -> float:
        return self.actions / self.elapsed

    def line(self, bot: str, spectators: int) -> str:
        latencies = self.latencies
        where = f"{self.store}, {self.workers} worker{'s' if self.workers > 1 else ''}"
        text = (
            f"Python {platform.python_version()}, {os.cpu_count()} cores, {where}: {self.tables} tables, "
            f"{self.connections} WebSocket connections at once (4 {bot} bots and {spectators} spectators a table; "
            f"{self.dropped} spectators dropped), {self.finished} games finished, {self.actions} actions in "
            f"{self.elapsed:.1f}s: {self.rate:,.0f} actions/s; latency to acknowledgement p50 "
            f"{percentile(latencies, 0.5):.1f} ms, p90 {percentile(latencies, 0.9):.1f} ms, p99 "
            f"{percentile(latencies, 0.99):.1f} ms, max {latencies[-1]:.1f} ms"
        )
        if self.server is not None:
            text += (
                f"; processor time per action: server {sum(self.server) * 1000 / self.actions:.2f} ms "
                f"({self.server[0] * 1000 / self.actions:.2f} user, {self.server[1] * 1000 / self.actions:.2f} system)"
            )
        if self.database is not None:
            text += f", database {self.database * 1000 / self.actions:.2f} ms"
        return text + f", clients {self.client * 1000 / self.actions:.2f} ms"


def measure(store: str, workers: int, tables: int, spectators: int, bot: str, seconds: float, games: int) -> Figures:
    """One configuration: a server on ``store`` (``sqlite`` or ``postgresql``) with ``workers``
    processes, under the load of ``tables`` tables."""
    connections = tables * (4 + spectators)
    limits = {
        "tables_per_client": tables * games,
        "connections_per_client": connections,
        "spectators": max(spectators, 1),
        "tables": max(10_000, tables * games),
    }
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        port = free_port()
        database_pid = 0
        if store == "postgresql":
            cluster = stack.enter_context(Cluster(durable=True, options={"shared_buffers": "128MB"}))
            db = cluster.database()
            database_pid = cluster.postmaster()
        else:
            db = str(Path(folder) / "load.sqlite3")
        server = start_serve(db, port, limits, workers=workers) if workers > 1 else start_serve(db, port, limits)
        try:
            client_cpu = time.process_time()
            clients, watchers, elapsed, cpu, database = asyncio.run(
                run(port, tables, spectators, bot, seconds, games, server.pid, database_pid)
            )
            client_cpu = time.process_time() - client_cpu
        finally:
            # The workers are found while they are still the supervisor's children, and each
            # is killed if the supervisor's orderly stop leaves it (it once left two, orphaned).
            stop_serve(server, limit=30)
    latencies = sorted(latency * 1000 for client in clients for latency in client.latencies)
    if not latencies:
        raise SystemExit(f"{store}, {workers} workers: no action was acknowledged")
    return Figures(
        store, workers, tables, connections, sum(watcher.dropped for watcher in watchers),
        sum(client.finished for client in clients) // 4, sum(len(client.acks) for client in clients), elapsed,
        latencies, cpu, database, client_cpu,
    )  # fmt: skip


def table_of(figures: list[Figures]) -> str:
    """The configurations side by side, as the serving page shows them."""
    rows = [
        ("store", "workers", "tables", "actions/s", "p50 ms", "p99 ms", "server ms/action", "database ms/action"),
        *(
            (
                figure.store, str(figure.workers), str(figure.tables), f"{figure.rate:,.0f}",
                f"{percentile(figure.latencies, 0.5):.1f}", f"{percentile(figure.latencies, 0.99):.1f}",
                "-" if figure.server is None else f"{sum(figure.server) * 1000 / figure.actions:.2f}",
                "-" if figure.database is None else f"{figure.database * 1000 / figure.actions:.2f}",
            )
            for figure in figures
        ),
    ]  # fmt: skip
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return "\n".join("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)) for row in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--tables",
        type=int,
        nargs="+",
        default=[10],
        help=f"tables played at once (default 10, at most {MAX_TABLES}); several with --compare",
    )
    parser.add_argument(
        "--spectators", type=int, default=1, help=f"spectators per table (default 1, at most {MAX_SPECTATORS})"
    )
    parser.add_argument("--bot", default="random", help="the clients' bot (default random)")
    parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long (default 120)")
    parser.add_argument(
        "--games",
        type=int,
        default=1,
        help=f"games played one after another at each table (default 1, at most {MAX_GAMES})",
    )
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite", help="the store (default sqlite)")
    parser.add_argument("--workers", type=int, default=1, help=f"worker processes (default 1, at most {MAX_WORKERS})")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="1 worker on SQLite, 1 and 2 on PostgreSQL, at each --tables, side by side",
    )
    args = parser.parse_args(argv)
    if not all(1 <= tables <= MAX_TABLES for tables in args.tables):
        parser.error(f"--tables must be 1-{MAX_TABLES}")
    if len(args.tables) > 1 and not args.compare:
        parser.error("several --tables need --compare")
    if not 0 <= args.spectators <= MAX_SPECTATORS:
        parser.error(f"--spectators must be 0-{MAX_SPECTATORS}")
    if not 1 <= args.games <= MAX_GAMES:
        parser.error(f"--games must be 1-{MAX_GAMES}")
    if not 1 <= args.workers <= MAX_WORKERS or (args.workers > 1 and args.db != "postgresql"):
        parser.error(f"--workers must be 1-{MAX_WORKERS}, and more than 1 needs --db postgresql")
    configurations = (
        [(store, workers, tables) for tables in args.tables for store, workers in COMPARED]
        if args.compare
        else [(args.db, args.workers, args.tables[0])]
    )
    figures = []
    for store, workers, tables in configurations:
        figure = measure(store, workers, tables, args.spectators, args.bot, args.seconds, args.games)
        print(figure.line(args.bot, args.spectators), flush=True)
        figures.append(figure)
    if args.compare:
        print()
        print(table_of(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
