"""The bots against an outside anchor: OpenSpiel's IS-MCTS (needs the ``[rl]`` extra).

Plays OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts``, through
:class:`persian_rummy.openspiel.ISMCTSPlayer`, a few simulation budgets) against
``GreedyBot`` and ``MonteCarloBot`` with the arena, in pairs of games dealt the same cards
with the bots trading seats; then the history-reading Monte-Carlo bot (``mc:history=1``)
against IS-MCTS at one or more budgets (``--equal-time``, the first about equal in time per
move) and against the same Monte-Carlo bot without the history. First it measures each bot's
mean time per decision (forced moves excluded) in the same run. Prints each match's table, a
Markdown summary and one JSON line per match. Run it with::

    python benchmarks/ismcts_strength.py --games 100
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import attrs

from persian_rummy import PlayerView
from persian_rummy.arena import BotFactory, BotSpec, MatchResult, build_bot, play_game, run_match
from persian_rummy.bots import GreedyBot
from persian_rummy.openspiel import ISMCTSPlayer
from persian_rummy.view import InfoState


@attrs.frozen
class ISMCTS:
    """Makes an ISMCTSPlayer from a seed (picklable), named for the tables; the arena takes it
    as ``BotFactory(ISMCTS(...))`` (see :func:`ismcts`)."""

    simulations: int
    rollout: str = "random"

    @property
    def __name__(self) -> str:
        return f"ismcts:{self.simulations},{self.rollout}"

    def __call__(self, seed: int) -> ISMCTSPlayer:
        return ISMCTSPlayer(seed, simulations=self.simulations, rollout=self.rollout)


def ismcts(simulations: int, rollout: str = "random") -> BotFactory:
    """IS-MCTS as a bot spec: an ISMCTSPlayer for each seat of each game, from the seat's seed."""
    return BotFactory(ISMCTS(simulations, rollout))


def seconds_per_move(spec: BotSpec, games: int) -> float:
    """The bot's mean time per decision with more than one legal action, partnered with
    itself against GreedyBot."""
    spent = [0.0]
    moves = [0]

    class Timed:
        def __init__(self, bot: Any) -> None:
            self.bot = bot
            self.takes_info_state = getattr(bot, "takes_info_state", False)

        def __call__(self, seen: PlayerView | InfoState) -> Any:
            view = seen.view if isinstance(seen, InfoState) else seen
            start = time.perf_counter()
            action = self.bot(seen)
            if len(view.legal_actions()) > 1:
                spent[0] += time.perf_counter() - start
                moves[0] += 1
            return action

    for game in range(games):
        bots = [Timed(build_bot(spec, game)), GreedyBot(game), Timed(build_bot(spec, game + 1)), GreedyBot(game + 1)]
        play_game(bots, f"timing/{game}")  # type: ignore[arg-type]
    return spent[0] / max(moves[0], 1)


def _name(spec: BotSpec) -> str:
    return spec.name if isinstance(spec, BotFactory) else str(spec)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per match (default 100)")
    parser.add_argument("--timing-games", type=int, default=2, help="games to time each bot (default 2)")
    parser.add_argument("--budgets", type=int, nargs="*", default=[4, 16], help="IS-MCTS simulation budgets")
    parser.add_argument("--mc", default="mc:samples=8,horizon=8", help="the Monte-Carlo bot (default %(default)s)")
    parser.add_argument(
        "--equal-mc", default="mc:samples=12,horizon=8", help="the Monte-Carlo bot of the equal-time match"
    )
    parser.add_argument(
        "--equal-time",
        type=int,
        nargs="+",
        default=[8],
        help="the IS-MCTS budgets the history-reading bot meets (default 8)",
    )
    parser.add_argument("--equal-only", action="store_true", help="play only the history-reading bot's matches")
    parser.add_argument(
        "--anchors-only", action="store_true", help="play only IS-MCTS against the greedy and Monte-Carlo bots"
    )
    parser.add_argument("--seed", default="ismcts", help="the match seed (default 'ismcts')")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    args = parser.parse_args(argv)
    history_mc = args.equal_mc + ",history=1"
    anchors: list[BotSpec] = [] if args.equal_only else [ismcts(budget) for budget in args.budgets]
    anchors += [] if args.equal_only else [ismcts(args.budgets[0], "greedy")]
    matches: list[tuple[BotSpec, BotSpec]] = [(anchor, "greedy") for anchor in anchors]
    matches += [(anchor, args.mc) for anchor in anchors]
    if args.equal_only and args.anchors_only:
        parser.error("--equal-only and --anchors-only leave no match to play")
    equal = [] if args.anchors_only else [ismcts(budget) for budget in args.equal_time]
    matches += [(history_mc, anchor) for anchor in equal]
    matches += [] if args.anchors_only else [(history_mc, args.equal_mc)]
    timing = {}
    timed: list[BotSpec] = [*anchors, *equal] + ([] if args.equal_only else ["greedy", args.mc])
    timed += [] if args.anchors_only else [args.equal_mc, history_mc]
    for spec in timed:
        if _name(spec) not in timing:
            timing[_name(spec)] = seconds_per_move(spec, args.timing_games)
            print(f"{_name(spec)}: {1000 * timing[_name(spec)]:.1f} ms per decision", flush=True)
    rows = []
    lines = []
    for first, second in matches:
        start = time.perf_counter()
        result: MatchResult = run_match(first, second, args.games, seed=args.seed, workers=args.workers)
        seconds = time.perf_counter() - start
        print(result.table(), end="\n\n", flush=True)
        rate, low, high = result.win_rate(0)
        margin, half = result.margin
        a, b = _name(first), _name(second)
        rows.append(
            f"| {a} | {b} | {len(result.games)} | {rate:.3f} [{low:.3f}, {high:.3f}] | {margin:+.1f} ± {half:.1f} "
            f"| {1000 * timing[a]:.1f} | {1000 * timing[b]:.1f} |"
        )
        lines.append(
            json.dumps(
                {
                    "benchmark": "ismcts_strength",
                    "side0": a,
                    "side1": b,
                    "games": len(result.games),
                    "wins": result.wins,
                    "draws": result.draws,
                    "win_rate": round(rate, 4),
                    "ci95": [round(low, 4), round(high, 4)],
                    "margin": round(margin, 2),
                    "margin_ci95_half": round(half, 2),
                    "ms_per_move": [round(1000 * timing[a], 2), round(1000 * timing[b], 2)],
                    "seconds": round(seconds, 1),
                    "python": sys.version.split()[0],
                }
            )
        )
    print(
        "| side 0 | side 1 | games | side 0 win rate [95% CI] | side 0 margin per game | side 0 ms/move | side 1 ms/move |"
    )
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
