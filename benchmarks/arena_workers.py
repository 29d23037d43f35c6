"""The arena's speed-up from one worker process to two.

Plays the same match (the same seed, so the same games) with ``workers=1`` (in this process)
and ``workers=2`` (a pool of two processes), alternating, ``--repeat`` times, and prints one
JSON line: the seconds of each run, the speed-up of each pair and its median. The two results
are checked equal. Pairs run back to back, so a busy machine weighs on both alike; the
speed-up cannot pass the number of free cores. Run it with::

    python benchmarks/arena_workers.py --games 40 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time

from persian_rummy.arena import run_match


def timed(side0: str, side1: str, games: int, workers: int) -> tuple[float, object]:
    start = time.perf_counter()
    result = run_match(side0, side1, games, seed="workers", workers=workers)
    return time.perf_counter() - start, result.games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per match (default 40)")
    parser.add_argument("--repeat", type=int, default=3, help="pairs of runs; the median is reported (default 3)")
    parser.add_argument("--bots", nargs=2, default=["mc:samples=2,horizon=3", "greedy"], help="the two sides")
    args = parser.parse_args(argv)
    one, two = [], []
    for _ in range(args.repeat):
        serial, serial_games = timed(*args.bots, args.games, 1)
        pooled, pooled_games = timed(*args.bots, args.games, 2)
        if serial_games != pooled_games:
            raise SystemExit("the match played on two processes differs from the one played in this process")
        one.append(serial)
        two.append(pooled)
    speedups = [a / b for a, b in zip(one, two, strict=True)]
    report = {
        "benchmark": "arena_workers",
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average": [round(load, 1) for load in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "bots": args.bots,
        "games": args.games,
        "seconds_1_worker": [round(value, 2) for value in one],
        "seconds_2_workers": [round(value, 2) for value in two],
        "speedups": [round(value, 3) for value in speedups],
        "speedup": round(statistics.median(speedups), 3),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
