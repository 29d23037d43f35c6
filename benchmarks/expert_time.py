"""The time a decision takes, bots side by side on the same positions in one process: the
positions of ``--games`` games the learned player plays against itself (every decision with
more than one legal action, handed as the seat's information state), each asked of every bot
in turn (the order rotating position by position), so that a busy machine slows all alike.
Prints each bot's mean, median and 99th percentile in milliseconds and its mean over the
first bot's, and a JSON line per bot. Run it with::

    OPENBLAS_NUM_THREADS=1 python benchmarks/expert_time.py --games 4 expert mc:samples=8,horizon=8,history=1
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from persian_rummy import InfoState, legal_actions, new_game, play
from persian_rummy.bots import make_bot


def positions(games: int, seed: str) -> list[InfoState]:
    """Every information state with a choice in ``games`` deals the learned player plays."""
    found: list[InfoState] = []
    for game in range(games):
        state = new_game(f"{seed}/{game}")
        bot = make_bot("neural", game)
        infos = [InfoState.start(state, seat) for seat in range(4)]
        while state.phase.is_live:
            seat = state.current_player
            if len(legal_actions(state)) > 1:
                found.append(infos[seat])
            action = bot(state.view(seat))
            state = play(state, action)
            infos = [info.update(action, state) for info in infos]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bots", nargs="+", help="bot specs (make_bot names)")
    parser.add_argument("--games", type=int, default=4, help="deals whose positions are timed (default 4)")
    parser.add_argument("--seed", default="timing", help="the deals' seed (default 'timing')")
    args = parser.parse_args(argv)
    bots = [make_bot(spec, 0) for spec in args.bots]
    asked = positions(args.games, args.seed)
    times: list[list[float]] = [[] for _ in bots]
    for number, info in enumerate(asked):
        for turn in range(len(bots)):
            which = (number + turn) % len(bots)
            reads_history = getattr(bots[which], "takes_info_state", False)
            given = info if reads_history else info.view
            start = time.perf_counter()
            bots[which](given)
            times[which].append((time.perf_counter() - start) * 1000)
    first = statistics.fmean(times[0])
    print(f"{len(asked)} positions with a choice, Python {sys.version.split()[0]}")
    print("| bot | mean ms | median ms | 99th percentile ms | mean over the first bot's |")
    print("|---|---|---|---|---|")
    for spec, taken in zip(args.bots, times, strict=True):
        ordered = sorted(taken)
        mean = statistics.fmean(taken)
        p99 = ordered[round(0.99 * (len(ordered) - 1))]
        print(f"| {spec} | {mean:.2f} | {statistics.median(taken):.2f} | {p99:.2f} | {mean / first:.2f} |")
    for spec, taken in zip(args.bots, times, strict=True):
        print(
            json.dumps(
                {
                    "benchmark": "expert_time",
                    "bot": spec,
                    "positions": len(taken),
                    "mean_ms": round(statistics.fmean(taken), 3),
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
