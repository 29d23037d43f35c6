"""The big random-game soak: many complete games of uniformly random legal actions, every
invariant of ``tests/conformance.py`` checked after every action (the CI soak plays 2,000).

    python benchmarks/soak.py --games 100000            # both cores, seeds 0-99999
    python benchmarks/soak.py --games 5000 --start 1000000 --workers 1

Game ``seed`` is played under the knob set ``KNOB_GRID[seed % 48]``; a failure names the seed
and the rules, and ``conformance.play_game(seed, conformance.soak_rules(seed))`` replays it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from conformance import MAX_ACTIONS_PER_ROUND, soak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="how many games (default 100000)")
    parser.add_argument("--start", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report = soak(args.games, start=args.start, workers=args.workers)
    elapsed = time.perf_counter() - started
    print(
        f"{report.games} games, {report.deals} deals, {report.actions} actions in {elapsed:.1f}s "
        f"({report.games / elapsed:,.0f} games/s, {report.actions / elapsed:,.0f} checked actions/s, "
        f"{args.workers} workers)"
    )
    print(
        f"deals ended by going out: {report.went_out}, by passes or idle turns: {report.exhausted}; "
        f"longest deal {report.longest_round} actions (bound {MAX_ACTIONS_PER_ROUND}); "
        f"{len(report.knob_sets)} knob sets"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
