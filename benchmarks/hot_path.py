"""Where the time goes: the top functions of random play or of Monte-Carlo bot decisions.

Runs one of two loops under :mod:`cProfile` and prints the functions that take the most time
of their own (``tottime``), for finding what the hot path does that it need not::

    python benchmarks/hot_path.py random --games 200
    python benchmarks/hot_path.py mc --games 3
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import random
import time

from persian_rummy import Rules, legal_actions, new_game, play
from persian_rummy.bots import make_bot

RULES = Rules(deals=1)


def random_loop(games: int) -> int:
    """Random legal play of ``games`` deals; the number of actions."""
    rng = random.Random(1)
    actions = 0
    for game in range(games):
        state = new_game(game, dealer=game % 4, rules=RULES)
        while state.phase.is_live:
            state = play(state, rng.choice(legal_actions(state)))
            actions += 1
    return actions


def mc_loop(games: int) -> int:
    """Every seat a Monte-Carlo bot for ``games`` deals; the number of decisions."""
    bot = make_bot("mc", 7)
    decisions = 0
    for game in range(games):
        state = new_game(1000 + game, dealer=game % 4, rules=RULES)
        while state.phase.is_live:
            state = play(state, bot(state.view(state.current_player)))
            decisions += 1
    return decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("loop", choices=("random", "mc"))
    parser.add_argument("--games", type=int, default=None, help="deals to play (default 200 random, 3 mc)")
    parser.add_argument("--top", type=int, default=18, help="functions to list (default 18)")
    args = parser.parse_args(argv)
    loop = random_loop if args.loop == "random" else mc_loop
    games = args.games or (200 if args.loop == "random" else 3)
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.enable()
    count = loop(games)
    profile.disable()
    elapsed = time.perf_counter() - start
    print(f"{args.loop}: {count} actions in {elapsed:.2f} s under cProfile, Python {platform.python_version()}")
    pstats.Stats(profile).strip_dirs().sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
