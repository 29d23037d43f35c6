"""The strength of the bundled bots against each other.

Every pair of bots plays ``--games`` games (in pairs dealt the same cards, the bots trading
seats, so neither seat nor deal favours one), on a process pool by default or on a Dask
cluster with ``--scheduler ADDRESS``. Prints each match's table, then a Markdown summary and one
JSON line per match. Run it with::

    python benchmarks/bot_strength.py --games 2000 random greedy mc
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from itertools import combinations
from typing import Any

from persian_rummy.arena import MatchResult, run_match


def summary_row(result: MatchResult, seconds: float) -> str:
    rate, low, high = result.win_rate(0)
    margin, half = result.margin
    first, second = result.sides
    return (
        f"| {first} | {second} | {len(result.games)} | {result.wins[0]} | {result.wins[1]} | {result.draws} "
        f"| {rate:.3f} [{low:.3f}, {high:.3f}] | {margin:+.1f} ± {half:.1f} | {result.mean_actions:.0f} "
        f"| {seconds:.0f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bots", nargs="*", default=["random", "greedy", "mc"], help="bot specs (make_bot names)")
    parser.add_argument("--games", type=int, default=2000, help="games per pair of bots (default 2000)")
    parser.add_argument("--seed", default="strength", help="the match seed (default 'strength')")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
    parser.add_argument("--scheduler", default=None, help="a Dask scheduler address, to run on that cluster")
    parser.add_argument("--progress", action="store_true", help="show a progress bar (needs tqdm)")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {"seed": args.seed, "workers": args.workers, "progress": args.progress or None}
    client = None
    if args.scheduler:
        from distributed import Client

        client = Client(args.scheduler)  # type: ignore[no-untyped-call]
        options["executor"] = client.get_executor()  # type: ignore[no-untyped-call]
    rows = []
    lines = []
    try:
        for first, second in combinations(args.bots, 2):
            start = time.perf_counter()
            result = run_match(first, second, args.games, **options)
            seconds = time.perf_counter() - start
            print(result.table(), end="\n\n", flush=True)
            rows.append(summary_row(result, seconds))
            rate, low, high = result.win_rate(0)
            lines.append(
                json.dumps(
                    {
                        "benchmark": "bot_strength",
                        "side0": first,
                        "side1": second,
                        "games": len(result.games),
                        "wins": result.wins,
                        "draws": result.draws,
                        "win_rate": round(rate, 4),
                        "ci95": [round(low, 4), round(high, 4)],
                        "margin": round(result.margin[0], 2),
                        "margin_ci95_half": round(result.margin[1], 2),
                        "mean_actions": round(result.mean_actions, 1),
                        "seconds": round(seconds, 1),
                    }
                )
            )
    finally:
        if client is not None:
            client.close()  # type: ignore[no-untyped-call]
    print(
        "| side 0 | side 1 | games | side 0 wins | side 1 wins | draws | side 0 win rate [95% CI] "
        "| side 0 margin per game | actions per game | seconds |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
