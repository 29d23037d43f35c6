"""Speed of the rules engine under uniformly random play.

Plays complete rounds in which the player to move picks uniformly among
``legal_actions(state)`` with a seeded ``random.Random``, and prints one JSON line:

- ``rounds_per_s``, ``actions_per_s``: whole random rounds, everything included (dealing,
  ``legal_actions``, the random choice, ``play`` and the timers around them);
- ``us_per_legal_actions``, ``us_per_play``: mean microseconds per call;
- ``peak_memory_bytes``: peak traced memory while playing a round and keeping its states;
- ``large_hand_*``: the slowest ``legal_actions`` call on positions with a 25+ card hand after a
  deep discard-pile draw (the draw itself, the forced meld, and the free turn after it);
- ``bytes_per_stored_state``: the memory each kept state of a round costs (states share what
  did not change), next to ``pickled_bytes_per_state``, the size of one state on its own.

Every figure is the median of ``--repeat`` runs. Run it with::

    python benchmarks/random_play.py --rounds 300 --repeat 5
"""

from __future__ import annotations

import argparse
import gc
import json
import pickle
import platform
import random
import statistics
import sys
import time
import tracemalloc
from typing import Any

from persian_rummy import DrawDiscard, GameState, Phase, Rules, legal_actions, new_game, play

RULES = Rules(deals=1)


def speed(rounds: int, seed: int) -> dict[str, float]:
    """Play ``rounds`` random rounds, timing every ``legal_actions`` and ``play`` call."""
    rng = random.Random(seed)
    clock = time.perf_counter
    legal_time = play_time = 0.0
    actions = 0
    start = clock()
    for game in range(rounds):
        state = new_game(seed * 1_000_003 + game, dealer=game % 4, rules=RULES)
        while state.phase.is_live:
            t0 = clock()
            options = legal_actions(state)
            t1 = clock()
            action = rng.choice(options)
            t2 = clock()
            state = play(state, action)
            t3 = clock()
            legal_time += t1 - t0
            play_time += t3 - t2
            actions += 1
    total = clock() - start
    return {
        "rounds_per_s": rounds / total,
        "actions_per_s": actions / total,
        "actions_per_round": actions / rounds,
        "us_per_legal_actions": legal_time / actions * 1e6,
        "us_per_play": play_time / actions * 1e6,
    }


def large_hand_positions() -> list[GameState]:
    """Positions with a big hand: seat 1 holds ten spades and the discard pile holds 22 cards,
    so taking it all from the bottom makes a 32-card hand full of runs and a joker set."""
    hand = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs"
    pile = "2s Ks As 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah 2d 3d 4d Jk Jk Jk"
    draw = GameState.from_position(["", hand, "", ""], pile)
    forced = play(draw, DrawDiscard(0))  # R14: the 2s must be melded next
    assert forced.phase is Phase.MELD and len(forced.hand) >= 25
    free = play(forced, "meld 2s 3s 4s")  # then every meld, lay-off and discard is open
    return [draw, forced, free]


def worst_legal_actions(repeats: int = 200) -> dict[str, float]:
    """The slowest position's mean ``legal_actions`` time."""
    worst = 0.0
    cards = count = 0
    for state in large_hand_positions():
        legal_actions(state)  # warm the caches a real game would have warmed
        start = time.perf_counter()
        for _ in range(repeats):
            options = legal_actions(state)
        elapsed = (time.perf_counter() - start) / repeats * 1e6
        if elapsed > worst:
            worst, cards, count = elapsed, len(state.hand), len(options)
    return {"large_hand_legal_actions_us": worst, "large_hand_cards": cards, "large_hand_actions": count}


def memory(seed: int) -> dict[str, float]:
    """Keep every state of a few random rounds; measure what each kept state costs."""
    rng = random.Random(seed)
    per_state = []
    pickled = []
    peak = 0
    for game in range(5):
        state = new_game(f"memory/{seed}/{game}", rules=RULES)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        states = [state]
        while state.phase.is_live:
            state = play(state, rng.choice(legal_actions(state)))
            states.append(state)
        current, game_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        # The transient lists of legal actions are gone; what remains is the states.
        per_state.append((current - before) / len(states))
        peak = max(peak, game_peak)
        pickled.append(statistics.mean(len(pickle.dumps(kept)) for kept in states[:: max(1, len(states) // 20)]))
    return {
        "bytes_per_stored_state": statistics.median(per_state),
        "pickled_bytes_per_state": statistics.median(pickled),
        "peak_memory_bytes": peak,
    }


def run_once(rounds: int, seed: int) -> dict[str, float]:
    figures = speed(rounds, seed)
    figures.update(worst_legal_actions())
    figures.update(memory(seed))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300, help="random rounds per run (default 300)")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the medians are reported (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the first run (default 1)")
    args = parser.parse_args(argv)
    runs = [run_once(args.rounds, args.seed + run) for run in range(args.repeat)]
    result: dict[str, Any] = {
        "benchmark": "random_play",
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "rounds": args.rounds,
        "repeat": args.repeat,
    }
    for key in runs[0]:
        value = statistics.median(run[key] for run in runs)
        result[key] = round(value, 3) if isinstance(value, float) else value
    result["targets_met"] = result["actions_per_s"] >= 30_000 and result["large_hand_legal_actions_us"] < 100
    json.dump(result, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
