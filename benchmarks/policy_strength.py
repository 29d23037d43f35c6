"""The strength of learned players against the library's bots, on deals no training saw:
the evaluation every change to the training is measured by (needs numpy only).

Each policy file (or bot name) plays ``--games`` games against each opponent, on paired deals
(each deal twice, the sides trading seats) from ``--seed``, the same deals for every policy
and opponent, so that two policies are compared on equal cards. Prints a Markdown table (the
share of games won with its 95% Wilson interval, the margin per game, the median milliseconds
a decision of the policy takes where it has a choice) and one JSON line per match::

    python benchmarks/policy_strength.py persian_rummy/policies/default.npz run/policy.npz \\
        --games 400 --opponents greedy,mc,mc:samples=8,horizon=8,history=1
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from persian_rummy import Action, PlayerView, legal_actions
from persian_rummy.arena import BotFactory, derived_seed, play_game, run_match
from persian_rummy.bots import make_bot
from persian_rummy.policy import NeuralBot, Policy

#: The opponents of the project's targets: greedy, Monte-Carlo, and Monte-Carlo reading the history.
OPPONENTS = "greedy,mc,mc:samples=8,horizon=8,history=1"


def player(spec: str) -> Any:
    """A policy file as a factory of its NeuralBot (picklable, for worker processes), or a bot name."""
    if spec.endswith(".npz"):
        return BotFactory(functools.partial(NeuralBot, Policy.load(spec)), name=Path(spec).name)
    return spec


def milliseconds_per_choice(spec: Any, games: int) -> float:
    """The median milliseconds of the player's decisions that are choices (more than one legal
    action), over ``games`` games of four copies of it."""
    times: list[float] = []

    def timed(bot: Any) -> Any:
        def decide(view: PlayerView) -> Action:
            start = time.perf_counter()
            action: Action = bot(view)
            if len(legal_actions(view)) > 1:
                times.append(time.perf_counter() - start)
            return action

        return decide

    for game in range(games):
        seeds = [derived_seed("timing", game, seat) for seat in range(4)]
        bots = [spec.make(seed) if isinstance(spec, BotFactory) else make_bot(spec, seed) for seed in seeds]
        play_game([timed(bot) for bot in bots], f"timing/{game}")
    return statistics.median(times) * 1000 if times else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("players", nargs="+", help="policy files (.npz) or bot names")
    parser.add_argument("--opponents", default=OPPONENTS, help=f"bot names, comma-separated ({OPPONENTS})")
    parser.add_argument("--games", type=int, default=400, help="games against each opponent (400)")
    parser.add_argument("--seed", default="held-out", help="the deals' seed ('held-out': no training uses it)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
    parser.add_argument("--timing-games", type=int, default=2, help="games for the decision time (2)")
    args = parser.parse_args(argv)
    opponents = [name for name in args.opponents.split(",") if name]
    # "mc:samples=8,horizon=8,history=1" holds commas: a knob joins the name before it.
    joined: list[str] = []
    for name in opponents:
        if joined and "=" in name and ":" not in name:
            joined[-1] += "," + name
        else:
            joined.append(name)
    print("| player | opponent | games | win rate [95% CI] | margin per game | ms per choice | seconds |")
    print("|---|---|---|---|---|---|---|")
    lines = []
    for spec in args.players:
        mine = player(spec)
        choice_ms = milliseconds_per_choice(mine, args.timing_games)
        for opponent in joined:
            start = time.perf_counter()
            result = run_match(mine, opponent, args.games, seed=args.seed, workers=args.workers, progress=False)
            seconds = time.perf_counter() - start
            rate, low, high = result.win_rate(0)
            margin, half = result.margin
            print(
                f"| {spec} | {opponent} | {len(result.games)} | {rate:.3f} [{low:.3f}, {high:.3f}] "
                f"| {margin:+.1f} ± {half:.1f} | {choice_ms:.2f} | {seconds:.0f} |",
                flush=True,
            )
            line = {
                "benchmark": "policy_strength",
                "player": spec,
                "opponent": opponent,
                "games": len(result.games),
                "seed": args.seed,
                "win_rate": round(rate, 4),
                "ci95": [round(low, 4), round(high, 4)],
                "margin": round(margin, 2),
                "ms_per_choice": round(choice_ms, 3),
                "seconds": round(seconds, 1),
                "python": sys.version.split()[0],
            }
            lines.append(json.dumps(line))
    print()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
