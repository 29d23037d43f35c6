"""Random play in persian-rummy next to the nearest peers: OpenSpiel's and RLCard's gin rummy.

The libraries play different games, so the figures say how fast each lets a program play, not
which game is bigger. Each loop is the same: the player to move picks uniformly among the
legal actions (a seeded ``random.Random``) until the game or round is over, everything timed
together: dealing, legal-action enumeration, the choice and applying the action. Only the
players' actions are counted:

- persian-rummy: one deal per game (``new_game``), through ``legal_actions`` and ``play``;
- OpenSpiel (C++ behind a Python API): ``pyspiel.load_game("gin_rummy")``; the deal is its
  chance steps, sampled uniformly and timed, but not counted as actions;
- RLCard (pure Python): ``rlcard.make("gin-rummy")``, one ``env.reset()`` (the deal) per game,
  then ``env.step``, which also builds each observation.

A shared machine's load changes from one second to the next, so absolute figures taken
minutes apart do not compare. The libraries therefore run in short alternating slices
(persian-rummy, OpenSpiel, RLCard, persian-rummy, ...) within one run, and each repeat gives
the ratio of persian-rummy's actions per second to each peer's; the report is the median
ratio over the repeats, with the median rates beside it. The peers are not dependencies of
the project; install them to compare::

    pip install open_spiel rlcard
    python benchmarks/peers.py --seconds 6 --repeat 3
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

#: Plays one random game with the generator given and returns the players' actions.
PlayOne = Callable[[random.Random], int]


def persian_rummy_player(seed: int) -> PlayOne:
    rules = Rules(deals=1)
    games = iter(range(seed * 1_000_003, (seed + 1) * 1_000_003))

    def one(rng: random.Random) -> int:
        game = next(games)
        state = new_game(game, dealer=game % 4, rules=rules)
        actions = 0
        while state.phase.is_live:
            state = play(state, rng.choice(legal_actions(state)))
            actions += 1
        return actions

    return one


def open_spiel_player(seed: int) -> PlayOne | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game_type = pyspiel.load_game("gin_rummy")

    def one(rng: random.Random) -> int:
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


def rlcard_player(seed: int) -> PlayOne | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": seed})

    def one(rng: random.Random) -> int:
        state, _ = env.reset()
        actions = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            actions += 1
        return actions

    return one


def interleaved_rates(players: dict[str, PlayOne], seconds: float, slice_seconds: float, seed: int) -> dict[str, float]:
    """Actions per second of each library, over about ``seconds`` each, played in alternating
    slices of about ``slice_seconds`` so that the machine's load falls on all alike."""
    rngs = {name: random.Random(f"{seed}/{name}") for name in players}
    actions = dict.fromkeys(players, 0)
    elapsed = dict.fromkeys(players, 0.0)
    clock = time.perf_counter
    while min(elapsed.values()) < seconds:
        for name, play_one in players.items():
            rng = rngs[name]
            count = 0
            start = clock()
            while True:
                count += play_one(rng)
                spent = clock() - start
                if spent >= slice_seconds:
                    break
            actions[name] += count
            elapsed[name] += spent
    return {name: actions[name] / elapsed[name] for name in players}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time per library and repeat (default 6)")
    parser.add_argument("--slice", type=float, default=0.25, help="length of one alternating slice (default 0.25 s)")
    parser.add_argument("--repeat", type=int, default=3, help="repeats; medians are reported (default 3)")
    args = parser.parse_args(argv)
    found = {
        "persian_rummy": persian_rummy_player,
        "open_spiel_gin_rummy": open_spiel_player,
        "rlcard_gin_rummy": rlcard_player,
    }
    report: dict[str, object] = {
        "benchmark": "peers",
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
    }
    runs = []
    for seed in range(1, args.repeat + 1):
        players = {}
        for name, make in found.items():
            player = make(seed)
            if player is None:
                report[name] = "not installed"
            else:
                players[name] = player
        runs.append(interleaved_rates(players, args.seconds, args.slice, seed))
    names = list(runs[0])
    report["actions_per_s"] = {name: round(statistics.median(run[name] for run in runs)) for name in names}
    ratios = {name: [run["persian_rummy"] / run[name] for run in runs] for name in names if name != "persian_rummy"}
    report["ratio_runs"] = {name: [round(value, 3) for value in values] for name, values in ratios.items()}
    # The headline: persian-rummy's actions per second over each peer's, median of the repeats.
    report["ratio"] = {name: round(statistics.median(values), 3) for name, values in ratios.items()}
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
