"""Load on the table server: N tables of four WebSocket bot clients each, all at once, against
``persian-rummy serve`` started as a separate process on the loopback address only.

    python benchmarks/server_load.py --tables 10
    python benchmarks/server_load.py --tables 100 --seconds 120

Each table's four seats are played by remote :class:`~persian_rummy.server.client.SeatClient`
bots (``--bot``, random by default: the cheapest to think, so the figures measure the
server) in one client process. Every action goes through the whole path: parse, the rules,
an SQLite commit (``synchronous=FULL``), the acknowledgement and a frame (view JSON and SVG
picture) to each of the four seats. The run is bounded: at most ``--seconds`` and 500
tables. Prints the accepted actions per second, the p50/p99 latency from sending an action to
receiving its acknowledgement and (on Linux) the server's processor time per action, which
tells how much of the wall time was the server's own work on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

from live import create_table, free_port, start_serve

from persian_rummy.server.client import SeatClient

MAX_TABLES = 500


async def run(port: int, tables: int, bot: str, seconds: float) -> tuple[list[SeatClient], float]:
    tokens = [
        [seat["token"] for seat in create_table(f"http://127.0.0.1:{port}", ["human"] * 4)["seats"]]
        for _ in range(tables)
    ]
    clients = [
        SeatClient(f"ws://127.0.0.1:{port}/ws/{token}", bot, seed=number * 4 + seat)
        for number, seats in enumerate(tokens)
        for seat, token in enumerate(seats)
    ]
    started = time.perf_counter()
    tasks = [asyncio.ensure_future(client.run()) for client in clients]
    _, pending = await asyncio.wait(tasks, timeout=seconds)
    elapsed = time.perf_counter() - started
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return clients, elapsed


def cpu_seconds(pid: int) -> float | None:
    """The processor time (user and system) a process has used, where ``/proc`` tells it."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--tables", type=int, default=10, help=f"tables played at once (default 10, at most {MAX_TABLES})"
    )
    parser.add_argument("--bot", default="random", help="the clients' bot (default random)")
    parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long (default 120)")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables must be 1-{MAX_TABLES}")
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_serve(Path(folder) / "load.sqlite3", port)
        try:
            client_cpu = time.process_time()
            clients, elapsed = asyncio.run(run(port, args.tables, args.bot, args.seconds))
            client_cpu = time.process_time() - client_cpu
            cpu = cpu_seconds(server.pid)
        finally:
            server.kill()
            server.wait(10)
    latencies = sorted(latency for client in clients for latency in client.latencies)
    actions = sum(len(client.acks) for client in clients)
    finished = sum(client.finished for client in clients) // 4
    if not latencies:
        raise SystemExit("no action was acknowledged")
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores: {args.tables} tables ({4 * args.tables} WebSocket "
        f"clients, {args.bot} bots), {finished} games finished, {actions} actions in {elapsed:.1f}s: "
        f"{actions / elapsed:,.0f} actions/s; latency to acknowledgement p50 {p50:.1f} ms, p99 {p99:.1f} ms"
        + ("" if cpu is None else f"; processor time per action: server {cpu * 1000 / actions:.1f} ms")
        + f", clients {client_cpu * 1000 / actions:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
