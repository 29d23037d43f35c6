"""The strength of the bundled bots against each other: the ladder of the docs' "Playing
strength" page.

Every pair of bots plays ``--games`` games (in pairs dealt the same cards, the bots trading
seats, so neither seat nor deal favours one), on a process pool by default or on a Dask
cluster with ``--scheduler ADDRESS``; with ``--versus BOT`` only BOT against each of the
others. Prints the levels a person can choose (``persian_rummy.bots.LEVELS``) and the bot each
plays, each match's table, then a Markdown summary, the standings (every bot's results and its
rating), each bot's time per decision (measured in this run, serially, over ``--timing-games``
games of the bot against itself: the median of every decision, and the median, mean, 99th
percentile and maximum of the decisions with a choice), and one JSON line per match and per
bot. Run it with::

    python benchmarks/bot_strength.py --games 2000 random greedy mc neural mc:samples=8,horizon=8,history=1 expert
    python benchmarks/bot_strength.py --games 400 --seed held-out-54 --versus expert neural mc:samples=8,horizon=8,history=1

Every run has a row for the fixed baseline, ``benchmarks/baseline_60eaaeb.npz``: the learned
player shipped at commit 60eaaeb, so that every later player is measured against the same
opponent (``--no-baseline`` leaves it out).

Seeds: ``strength`` (the ladder), ``tune``, ``held-out`` and ``tune-54`` have been played
while knobs were chosen, so they are not held out any more; figures are claimed on a seed
nobody tuned on (``held-out-54`` was first played for the expert of issue 54's common random
numbers, after its knobs were fixed). Choose knobs on a ``tune-*`` seed, then report on a
fresh one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from itertools import combinations
from typing import Any

from persian_rummy import Action, InfoState, PlayerView, legal_actions
from persian_rummy.arena import MatchResult, derived_seed, play_game, run_match
from persian_rummy.bots import LEVELS, make_bot
from persian_rummy.standings import Standings

#: The learned player shipped at commit 60eaaeb: every run's fixed baseline row.
BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "baseline_60eaaeb.npz")


def decision_times(spec: str, games: int) -> tuple[list[float], list[float]]:
    """Seconds per decision of ``spec`` (observation, choice, all of it) in ``games`` games of
    four copies of it, one after another in this process: every decision, and those with more
    than one legal action (a bot answers a forced move at once). A bot that reads the public
    history is handed its information state, as the arena hands it."""
    times: list[float] = []
    choices: list[float] = []
    for game in range(games):
        bots = [make_bot(spec, derived_seed("timing", game, seat)) for seat in range(4)]

        def timed(bot: Any) -> Any:
            def decide(view: PlayerView | InfoState) -> Action:
                forced = len(legal_actions(view.view if isinstance(view, InfoState) else view)) == 1
                start = time.perf_counter()
                action: Action = bot(view)
                times.append(time.perf_counter() - start)
                if not forced:
                    choices.append(times[-1])
                return action

            decide.takes_info_state = getattr(bot, "takes_info_state", False)  # type: ignore[attr-defined]
            return decide

        play_game([timed(bot) for bot in bots], f"timing/{game}")
    return times, choices


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
    parser.add_argument(
        "bots", nargs="*", default=["random", "greedy", "mc", "neural"], help="bot specs (make_bot names)"
    )
    parser.add_argument("--games", type=int, default=2000, help="games per pair of bots (default 2000)")
    parser.add_argument("--seed", default="strength", help="the match seed (default 'strength')")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
    parser.add_argument("--scheduler", default=None, help="a Dask scheduler address, to run on that cluster")
    parser.add_argument("--progress", action="store_true", help="show a progress bar (needs tqdm)")
    parser.add_argument("--timing-games", type=int, default=4, help="games per bot for its decision time (default 4)")
    parser.add_argument("--versus", metavar="BOT", help="play only BOT against each of the bots listed")
    parser.add_argument("--no-baseline", action="store_true", help="leave out the 60eaaeb baseline's row")
    args = parser.parse_args(argv)
    baseline = os.path.relpath(BASELINE)  # a bot spec (a policy file), named as the run sees it
    if not args.no_baseline and baseline not in args.bots:
        args.bots = [*args.bots, baseline]
    options: dict[str, Any] = {"seed": args.seed, "workers": args.workers, "progress": args.progress or None}
    client = None
    if args.scheduler:
        from distributed import Client

        client = Client(args.scheduler)  # type: ignore[no-untyped-call]
        options["executor"] = client.get_executor()  # type: ignore[no-untyped-call]
    rows = []
    lines = []
    matches = []
    print("| level | bot | description |")
    print("|---|---|---|")
    for level in LEVELS.values():
        print(f"| {level.name} | {level.spec} | {level.description} |")
    print()
    pairs = [(args.versus, other) for other in args.bots] if args.versus else list(combinations(args.bots, 2))
    specs = [args.versus, *args.bots] if args.versus else args.bots
    try:
        for first, second in pairs:
            start = time.perf_counter()
            result = run_match(first, second, args.games, **options)
            seconds = time.perf_counter() - start
            matches.append(result)
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
    print(Standings(tuple(matches)).table())
    print()
    print(
        "| bot | median ms per decision | decisions timed | with a choice: median ms | mean ms | 99th percentile ms "
        "| maximum ms | such decisions |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for spec in specs:
        times, choices = decision_times(spec, args.timing_games) if args.timing_games > 0 else ([0.0], [0.0])
        chosen = sorted(choices or [0.0])
        median = statistics.median(times) * 1000
        figures = {
            "median_ms_with_choice": statistics.median(chosen) * 1000,
            "mean_ms_with_choice": statistics.fmean(chosen) * 1000,
            "p99_ms_with_choice": chosen[round(0.99 * (len(chosen) - 1))] * 1000,
            "max_ms_with_choice": chosen[-1] * 1000,
        }
        shown = " | ".join(f"{value:.3f}" for value in figures.values())
        print(f"| {spec} | {median:.3f} | {len(times)} | {shown} | {len(choices)} |")
        lines.append(
            json.dumps(
                {
                    "benchmark": "decision_time",
                    "bot": spec,
                    "median_ms": round(median, 4),
                    "decisions": len(times),
                    **{name: round(value, 4) for name, value in figures.items()},
                    "decisions_with_choice": len(choices),
                }
            )
        )
    print(f"(Python {sys.version.split()[0]})")
    print()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
