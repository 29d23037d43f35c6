"""What the batched engine and the trainer do on the device JAX runs on (a GPU when one is
there): one JSON object, written again after each measurement so that a run cut short still
leaves what it measured (needs the ``[train]`` extra).

- ``loops``: steps per second of ``jit(vmap(step))`` drawing with
  :func:`~persian_rummy.vector.sample_legal`, without a key (``keyless``: the game's own decks)
  and with one (``keyed``: each step given a key, as pgx's loops pass one), at each batch of
  ``--batches`` in turn (by default 2^10 to 2^18), stopping at the first that runs out of
  memory or past ``--budget`` seconds; each with its first call's seconds (compiling and
  warming up) and the best batch's rate (``best``).
- ``training``: a burst of :func:`~persian_rummy.learning.train` (``--train-minutes``, the
  knobs of ``--train-config``): its compile seconds, iterations, games and actions a second.
  With ``--train-out`` the run's folder (checkpoint, policy) is kept there, and the run goes on
  from a checkpoint already in it.

Run it as::

    python benchmarks/device_check.py --json device_check.json
    python benchmarks/device_check.py --batches 64,128 --seconds 0.2 --train-minutes 0.1 \\
        --train-config '{"envs": 4, "hidden": [8]}'      # a small check of the script itself
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import jax
from vector_step import Vector

from persian_rummy import Rules
from persian_rummy.learning import TrainConfig, train
from persian_rummy.vector import Env

DEFAULT_BATCHES = ",".join(str(2**power) for power in range(10, 19))
# A training shaped for a GPU: many games side by side, more and smaller PPO steps an iteration.
GPU_TRAINING = {"envs": 4096, "horizon": 32, "epochs": 4, "minibatches": 8, "league_size": 2}


def _out_of_memory(error: Exception) -> bool:
    text = str(error)
    return "RESOURCE_EXHAUSTED" in text or "out of memory" in text.lower()


def measure_loops(
    env: Env, batches: list[int], seconds: float, budget: float, write: Any, result: dict[str, Any]
) -> None:
    """Each loop at each batch, smallest first, until memory or the budget runs out."""
    started = time.perf_counter()
    loops: dict[str, dict[str, Any]] = {"keyless": {}, "keyed": {}}
    result["loops"] = loops
    for batch in batches:
        if time.perf_counter() - started > budget:
            result["loops_stopped"] = f"the budget of {budget:g} s ran out before batch {batch}"
            break
        try:
            for name in loops:
                before = time.perf_counter()
                runner = Vector(env, batch, seed=batch, keyed=name == "keyed")
                first = time.perf_counter() - before
                steps, elapsed = runner.run(seconds)
                loops[name][str(batch)] = {
                    "steps_per_second": round(steps / elapsed),
                    "first_call_seconds": round(first, 1),
                }
                del runner
        except Exception as error:  # the device's own error: only running out of memory ends the sweep
            if not _out_of_memory(error):
                raise
            result["loops_stopped"] = f"out of memory at batch {batch}"
            break
        for name, rates in loops.items():
            best = max(rates, key=lambda size: rates[size]["steps_per_second"])
            result.setdefault("best", {})[name] = {"batch": int(best), **rates[best]}
        write(result)


def measure_training(args: argparse.Namespace, write: Any, result: dict[str, Any]) -> None:
    """A burst of training: compile seconds, then iterations, games and actions a second."""
    knobs = json.loads(args.train_config)
    knobs["rules"] = args.rules
    config = TrainConfig.from_json(json.dumps(knobs))
    folder = Path(args.train_out) if args.train_out else Path(tempfile.mkdtemp(prefix="device-check-"))
    lines: list[tuple[float, str]] = []

    def report(line: str) -> None:
        lines.append((time.perf_counter(), line))
        print(line, file=sys.stderr, flush=True)

    resume = (folder / "checkpoint.npz").exists()
    started = time.perf_counter()
    policy = train(
        config,
        folder,
        minutes=args.train_minutes,
        resume=resume,
        checkpoint_seconds=60.0,
        evaluation_games=0,
        command="python benchmarks/device_check.py " + " ".join(sys.argv[1:]),
        report=report,
    )
    iterations = [(at, line) for at, line in lines if line.startswith("iteration ")]
    first = iterations[0][0] if iterations else time.perf_counter()
    timed = len(iterations) - 1
    seconds = (iterations[-1][0] - first) if timed > 0 else 0.0
    steps, games = policy.training["steps"], policy.training["games"]
    result["training"] = {
        "config": json.loads(config.to_json()),
        "resumed": resume,
        "compile_seconds": round(first - started, 1),
        "iterations": steps,
        "games": games,
        "wall_seconds": round(time.perf_counter() - started, 1),
        # Rates over the iterations after the first (which includes compiling).
        "iterations_per_second": round(timed / seconds, 3) if seconds else None,
        "actions_per_second": round(timed * config.samples_per_iteration / seconds) if seconds else None,
        "folder": str(folder) if args.train_out else None,
    }
    write(result)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", default=DEFAULT_BATCHES, help="batch sizes, comma-separated (2^10 to 2^18)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds each loop runs at each batch (2)")
    parser.add_argument("--budget", type=float, default=240.0, help="seconds after which no larger batch starts (240)")
    parser.add_argument("--rules", default="default", help="the rules (Rules.parse text; default)")
    parser.add_argument("--train-minutes", type=float, default=1.0, help="minutes of the training burst (1; 0: none)")
    parser.add_argument(
        "--train-config",
        default=json.dumps(GPU_TRAINING),
        help=f"the burst's TrainConfig knobs as a JSON object (default {json.dumps(GPU_TRAINING)})",
    )
    parser.add_argument(
        "--train-out", default=None, help="keep the training's folder here (resumed if it has a checkpoint)"
    )
    parser.add_argument("--json", default=None, help="also write the JSON object to this file after each measurement")
    args = parser.parse_args(argv)
    device = jax.devices()[0]
    result: dict[str, Any] = {
        "benchmark": "device_check",
        "python": sys.version.split()[0],
        "jax": jax.__version__,
        "platform": jax.default_backend(),
        "device": str(device.device_kind),
        "devices": len(jax.devices()),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "rules": args.rules,
        "seconds_per_loop": args.seconds,
    }

    def write(result: dict[str, Any]) -> None:
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")

    started = time.perf_counter()
    env = Env(Rules.parse(args.rules))
    measure_loops(env, [int(size) for size in args.batches.split(",")], args.seconds, args.budget, write, result)
    if args.train_minutes > 0:
        measure_training(args, write, result)
    result["total_seconds"] = round(time.perf_counter() - started, 1)
    write(result)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
