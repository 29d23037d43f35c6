"""Load on the table server: N tables of four WebSocket bot clients and S spectators each, all
at once, against ``persian-rummy serve``'s server started as a separate process on the
loopback address only.

    python benchmarks/server_load.py --tables 10 --games 5
    python benchmarks/server_load.py --tables 100 --seconds 120

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
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

from live import create_table, free_port, start_serve

from persian_rummy.server.client import SeatClient

MAX_TABLES = 500
MAX_SPECTATORS = 50
MAX_GAMES = 100


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
    port: int, tables: int, spectators: int, bot: str, seconds: float, games: int, server_pid: int
) -> tuple[list[SeatClient], list[Watcher], float, tuple[float, float] | None]:
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
    started = time.perf_counter()
    tasks = [asyncio.ensure_future(play(number)) for number in range(tables)]
    _, pending = await asyncio.wait(tasks, timeout=seconds)
    elapsed = time.perf_counter() - started
    end = cpu_seconds(server_pid)
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    used = None if cpu is None or end is None else (end[0] - cpu[0], end[1] - cpu[1])
    return clients, watchers, elapsed, used


def cpu_seconds(pid: int) -> tuple[float, float] | None:
    """The processor time a process has used in user and in system mode, where ``/proc`` tells it."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted ``values`` lie (nearest rank)."""
    return values[min(len(values) - 1, int(len(values) * share))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--tables", type=int, default=10, help=f"tables played at once (default 10, at most {MAX_TABLES})"
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
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables must be 1-{MAX_TABLES}")
    if not 0 <= args.spectators <= MAX_SPECTATORS:
        parser.error(f"--spectators must be 0-{MAX_SPECTATORS}")
    if not 1 <= args.games <= MAX_GAMES:
        parser.error(f"--games must be 1-{MAX_GAMES}")
    connections = args.tables * (4 + args.spectators)
    limits = {
        "tables_per_client": args.tables * args.games,
        "connections_per_client": connections,
        "spectators": max(args.spectators, 1),
    }
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_serve(Path(folder) / "load.sqlite3", port, limits)
        try:
            client_cpu = time.process_time()
            clients, watchers, elapsed, cpu = asyncio.run(
                run(port, args.tables, args.spectators, args.bot, args.seconds, args.games, server.pid)
            )
            client_cpu = time.process_time() - client_cpu
        finally:
            server.kill()
            server.wait(10)
    latencies = sorted(latency * 1000 for client in clients for latency in client.latencies)
    actions = sum(len(client.acks) for client in clients)
    finished = sum(client.finished for client in clients) // 4
    dropped = sum(watcher.dropped for watcher in watchers)
    if not latencies:
        raise SystemExit("no action was acknowledged")
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores: {args.tables} tables, {connections} WebSocket "
        f"connections at once (4 {args.bot} bots and {args.spectators} spectators a table; {dropped} spectators "
        f"dropped), {finished} games finished, {actions} actions in {elapsed:.1f}s: {actions / elapsed:,.0f} "
        f"actions/s; latency to acknowledgement p50 {percentile(latencies, 0.5):.1f} ms, "
        f"p90 {percentile(latencies, 0.9):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, max {latencies[-1]:.1f} ms"
        + (
            ""
            if cpu is None
            else f"; processor time per action: server {sum(cpu) * 1000 / actions:.2f} ms "
            f"({cpu[0] * 1000 / actions:.2f} user, {cpu[1] * 1000 / actions:.2f} system)"
        )
        + f", clients {client_cpu * 1000 / actions:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
