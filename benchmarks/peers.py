"""Random play in persian-rummy next to the nearest peers: OpenSpiel's and RLCard's gin rummy.

The three play different games, so the figures say how fast each library lets a program play,
not which game is bigger. Each loop is the same: the player to move picks uniformly among the
legal actions (a seeded ``random.Random``) until the game or round is over, everything timed
together (dealing, legal-action enumeration, the choice, applying the action), and one line of
JSON reports actions per second (the median of ``--repeat`` runs) for each library that is
installed:

- persian-rummy: one deal per game, through ``legal_actions`` and ``play``;
- OpenSpiel (C++ behind a Python API): ``pyspiel.load_game("gin_rummy")``, counting the
  players' actions; chance steps (the deal) are sampled uniformly and counted apart;
- RLCard (pure Python): ``rlcard.make("gin-rummy")``, through ``env.step``, which also builds
  each observation.

The peers are not dependencies of the project; install them to compare::

    pip install open_spiel rlcard
    python benchmarks/peers.py --seconds 5 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Callable

from persian_rummy import Rules, legal_actions, new_game, play


def persian_rummy_games(rng: random.Random, game: int) -> int:
    """Play one random deal; return the number of actions."""
    state = new_game(game, dealer=game % 4, rules=Rules(deals=1))
    actions = 0
    while state.phase.is_live:
        state = play(state, rng.choice(legal_actions(state)))
        actions += 1
    return actions


def open_spiel_games() -> Callable[[random.Random, int], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game_type = pyspiel.load_game("gin_rummy")

    def one(rng: random.Random, game: int) -> int:
        state = game_type.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        return actions

    return one


def rlcard_games() -> Callable[[random.Random, int], int] | None:
    try:
        import rlcard
    except ImportError:
        return None

    def one(rng: random.Random, game: int) -> int:
        env = rlcard.make("gin-rummy", config={"seed": game})
        state, _ = env.reset()
        actions = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            actions += 1
        return actions

    return one


def rate(play_one: Callable[[random.Random, int], int], seconds: float, seed: int) -> float:
    """Random actions per second over whole games, for about ``seconds``."""
    rng = random.Random(seed)
    actions = 0
    game = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += play_one(rng, seed * 100_003 + game)
        game += 1
    return actions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per run and library")
    parser.add_argument("--repeat", type=int, default=3, help="runs per library (the median is reported)")
    args = parser.parse_args()
    contenders = {
        "persian_rummy": persian_rummy_games,
        "open_spiel_gin_rummy": open_spiel_games(),
        "rlcard_gin_rummy": rlcard_games(),
    }
    report: dict[str, object] = {"benchmark": "peers", "python": platform.python_version()}
    for name, play_one in contenders.items():
        if play_one is None:
            report[name] = "not installed"
            continue
        runs = [rate(play_one, args.seconds, seed) for seed in range(1, args.repeat + 1)]
        report[name] = round(statistics.median(runs))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
