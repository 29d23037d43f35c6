"""Environment steps per second, with the observation and the legal-action mask, side by side:
our PettingZoo environment, RLCard's gin rummy and OpenSpiel's gin rummy (needs the
``[rl-benchmark]`` extra: ``[rl]`` and rlcard).

One step is one player action and everything a learner needs after it:

- ours: ``env.last()`` (the observation tensor and the mask of the agent to act) and
  ``env.step(action)``, the action drawn uniformly from the mask; through ``env()`` (with
  PettingZoo's order-enforcing wrapper) and through ``raw_env()``;
- RLCard's ``gin-rummy``: ``env.step(action)``, which returns the next player's state (its
  ``obs`` array and ``legal_actions``), the action drawn from those;
- OpenSpiel's ``gin_rummy``: ``state.observation_tensor(player)``, ``state.legal_actions()``
  and ``state.apply_action(action)``; chance nodes (the deal, draws) are applied too and not
  counted.

Finished games are reset and the resets timed with the steps. The three run in turn, in
several rounds, in one process, so the ratios compare them on the same machine at the same
time; the order turns each round, so that every environment runs first as often as the
others. Prints one JSON line::

    python benchmarks/rl_step.py [--seconds 2] [--rounds 4]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def ours(rng: random.Random, *, wrapped: bool = True) -> Callable[[int], int]:
    from persian_rummy.pettingzoo import env, raw_env

    game = env() if wrapped else raw_env()
    game.reset(seed=rng.getrandbits(32))

    def run(steps: int) -> int:
        done = 0
        while done < steps:
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.reset(seed=rng.getrandbits(32))
                continue
            legal = np.flatnonzero(observation["action_mask"])
            game.step(int(legal[rng.randrange(len(legal))]))
            done += 1
        return done

    return run


def rlcard_gin_rummy(rng: random.Random) -> Callable[[int], int]:
    import rlcard

    game = rlcard.make("gin-rummy", config={"seed": rng.getrandbits(31)})
    state, _ = game.reset()

    def run(steps: int) -> int:
        nonlocal state
        done = 0
        while done < steps:
            if game.is_over():
                state, _ = game.reset()
                continue
            legal = list(state["legal_actions"])
            state, _ = game.step(legal[rng.randrange(len(legal))])
            done += 1
        return done

    return run


def openspiel_gin_rummy(rng: random.Random) -> Callable[[int], int]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    state = game.new_initial_state()

    def run(steps: int) -> int:
        nonlocal state
        done = 0
        while done < steps:
            if state.is_terminal():
                state = game.new_initial_state()
            elif state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                done += 1
        return done

    return run


def measure(runner: Callable[[int], int], seconds: float) -> tuple[int, float]:
    """Steps and time: batches of 100 steps until ``seconds`` have passed."""
    steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += runner(100)
    return steps, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per environment per round (2)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds (4: each environment first once)")
    args = parser.parse_args(argv)
    rng = random.Random(0)
    runners = {
        "persian_rummy_pettingzoo": ours(rng),
        "persian_rummy_pettingzoo_raw": ours(rng, wrapped=False),
        "rlcard_gin_rummy": rlcard_gin_rummy(rng),
        "openspiel_gin_rummy": openspiel_gin_rummy(rng),
    }
    for runner in runners.values():
        runner(200)  # warm up
    totals: dict[str, list[float]] = {name: [0, 0.0] for name in runners}
    names = list(runners)
    for round_number in range(args.rounds):
        # The order turns by one each round: whichever environment runs first in a round runs
        # measurably slower than later (on the 2-core machine, by about a tenth), so no
        # environment keeps the first place.
        shift = round_number % len(names)
        for name in names[shift:] + names[:shift]:
            steps, elapsed = measure(runners[name], args.seconds)
            totals[name][0] += steps
            totals[name][1] += elapsed
    rates = {name: steps / elapsed for name, (steps, elapsed) in totals.items()}
    result: dict[str, Any] = {
        "benchmark": "rl_step",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "steps_per_second": {name: round(rate) for name, rate in rates.items()},
        "ours_vs_rlcard": round(rates["persian_rummy_pettingzoo"] / rates["rlcard_gin_rummy"], 2),
        "ours_vs_openspiel": round(rates["persian_rummy_pettingzoo"] / rates["openspiel_gin_rummy"], 2),
        "seconds_per_environment": args.seconds * args.rounds,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
