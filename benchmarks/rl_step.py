"""Environment steps per second, with the observation and the legal-action mask, side by side:
our PettingZoo environment, RLCard's gin rummy and OpenSpiel's gin rummy (needs the
``[rl]`` extra; RLCard's line needs ``[rl-benchmark]``, ``[rl]`` and rlcard, and is left out
of the JSON line when rlcard is not installed).

One step is one player action and everything a learner needs after it:

- ours: ``env.last()`` (the observation tensor and the mask of the agent to act) and
  ``env.step(action)``, the action drawn uniformly from the mask; through ``env()`` (in
  PettingZoo's three wrappers, as its classic games are) and through ``raw_env()`` (the
  ratios name it ``raw_ours``);
- RLCard's ``gin-rummy``: ``env.step(action)``, which returns the next player's state (its
  ``obs`` array and ``legal_actions``), the action drawn from those;
- OpenSpiel's ``gin_rummy``: ``state.observation_tensor(player)``, ``state.legal_actions()``
  and ``state.apply_action(action)``; chance nodes (the deal, draws) are applied too and not
  counted.

Two more lines time the rules engines alone, as a search algorithm uses them, with no
observation and no mask, in the loops of ``benchmarks/peers.py`` (whole games of random play):
ours, ``legal_actions(state)`` and ``play(state, action)``; and OpenSpiel's ``gin_rummy``,
``state.legal_actions()`` and ``state.apply_action(action)`` (chance nodes as above). RLCard
has no engine line: its ``env.step`` always builds the state.

Finished games are reset and the resets timed with the steps. The runners take turns, in
several rounds, in one process, so the ratios compare them on the same machine at the same
time; the order turns each round, so that every runner runs first as often as the others
(with the default six rounds, once each). Prints one JSON line: the rates over all rounds,
their ratios, and the ratios of each round (their spread shows how much the machine's speed
drifted during the run)::

    python benchmarks/rl_step.py [--seconds 2] [--rounds 6]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from peers import PlayOne, open_spiel_player, persian_rummy_player


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


def has_rlcard() -> bool:
    """Whether RLCard is installed (it is in the ``[rl-benchmark]`` extra only)."""
    return importlib.util.find_spec("rlcard") is not None


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


def whole_games(play_one: PlayOne) -> Callable[[int], int]:
    """A runner from one of ``peers.py``'s players: whole games until at least ``steps``
    actions (the count returned is the actions played)."""
    rng = random.Random(1)

    def run(steps: int) -> int:
        done = 0
        while done < steps:
            done += play_one(rng)
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
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per runner per round (2)")
    parser.add_argument("--rounds", type=int, default=6, help="rounds (6: each runner first once)")
    args = parser.parse_args(argv)
    rng = random.Random(0)
    runners = {
        "persian_rummy_pettingzoo": ours(rng),
        "persian_rummy_pettingzoo_raw": ours(rng, wrapped=False),
        # RLCard is in [rl-benchmark] only: without it, the line leaves its runner out.
        **({"rlcard_gin_rummy": rlcard_gin_rummy(rng)} if has_rlcard() else {}),
        "openspiel_gin_rummy": openspiel_gin_rummy(rng),
        "persian_rummy_engine": whole_games(persian_rummy_player(rng.getrandbits(16))),
        "openspiel_gin_rummy_engine": whole_games(_required(open_spiel_player(0))),
    }
    for runner in runners.values():
        runner(200)  # warm up
    names = list(runners)
    rounds: list[dict[str, tuple[int, float]]] = []
    for round_number in range(args.rounds):
        # The order turns by one each round: whichever runner runs first in a round runs
        # measurably slower than later (on the 2-core machine, by about a tenth), so no
        # runner keeps the first place.
        shift = round_number % len(names)
        rounds.append({name: measure(runners[name], args.seconds) for name in names[shift:] + names[:shift]})
    rates = {name: sum(found[name][0] for found in rounds) / sum(found[name][1] for found in rounds) for name in names}
    per_round = [{name: steps / elapsed for name, (steps, elapsed) in found.items()} for found in rounds]
    result: dict[str, Any] = {
        "benchmark": "rl_step",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "steps_per_second": {name: round(rate) for name, rate in rates.items()},
        **_ratios(rates),
        "rounds": [_ratios(found) for found in per_round],
        "seconds_per_runner": args.seconds * args.rounds,
    }
    print(json.dumps(result))
    return 0


def _required(player: PlayOne | None) -> PlayOne:
    if player is None:
        raise SystemExit("OpenSpiel is not installed: pip install -e '.[rl-benchmark]'")
    return player


def _ratios(rates: dict[str, float]) -> dict[str, float]:
    rlcard = (
        {"ours_vs_rlcard": round(rates["persian_rummy_pettingzoo"] / rates["rlcard_gin_rummy"], 2)}
        if "rlcard_gin_rummy" in rates
        else {}
    )
    return {
        **rlcard,
        "ours_vs_openspiel": round(rates["persian_rummy_pettingzoo"] / rates["openspiel_gin_rummy"], 2),
        "raw_ours_vs_openspiel": round(rates["persian_rummy_pettingzoo_raw"] / rates["openspiel_gin_rummy"], 2),
        "engine_ours_vs_openspiel": round(rates["persian_rummy_engine"] / rates["openspiel_gin_rummy_engine"], 2),
    }


if __name__ == "__main__":
    sys.exit(main())
