"""Steps per second of the vectorized engine (``jit(vmap(step))``) with the legal-action mask
and the mover's observation, at several batch sizes, beside OpenSpiel's ``gin_rummy`` stepped
with its observation tensor, in the same run (needs the ``[jax]`` and ``[rl]`` extras).

One step of ours is, for every row of the batch, in one compiled call: a random legal action
drawn from ``legal_action_mask`` (on the device), :meth:`Env.step
<persian_rummy.vector.Env.step>` (which also computes the next mask) and
:meth:`Env.observe <persian_rummy.vector.Env.observe>` of the seat to move. Only the rows of
games still being played count as steps (a finished game's row is not counted); every 64 calls
the finished games are dealt afresh by ``init``, timed with the steps. OpenSpiel's line is
``benchmarks/rl_step.py``'s: ``observation_tensor`` of the player to move, ``legal_actions``
and ``apply_action``, chance nodes applied and not counted.

Compile times are measured apart (``jit(...).lower(...).compile()``, at batch 1024) for the
step and for the observation. The runners take turns in several rounds; the rates are over
all rounds. Prints one JSON line, with the device JAX ran on::

    python benchmarks/vector_step.py [--seconds 2] [--rounds 2] [--batches 1,256,1024,4096,16384]
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

import jax
import jax.numpy as jnp
from rl_step import openspiel_gin_rummy

from persian_rummy import Rules
from persian_rummy.vector import Env, State

_RESET_EVERY = 64


def random_legal(key: jax.Array, mask: jax.Array) -> jax.Array:
    """A legal action, uniformly: the r-th flag set in the mask for one random r (one random
    number per row, where noise over all 1436 actions costs more than the step), found by
    blocks of 32 flags (XLA's CPU backend computes a cumsum in time quadratic in its length)."""
    blocks = jnp.pad(mask, (0, -mask.shape[0] % 32)).reshape(-1, 32).astype(jnp.int32)
    counts = blocks.sum(axis=1)
    ends = jnp.cumsum(counts)
    chosen = jax.random.randint(key, (), 0, jnp.maximum(ends[-1], 1))
    block = jnp.sum(ends <= chosen)
    within = chosen - (ends[block] - counts[block])
    return block * 32 + jnp.argmax(jnp.cumsum(blocks[block]) > within)


def programs(env: Env) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """The compiled batched step (action, step, mover's observation), reset and init."""

    def one(state: State, key: jax.Array) -> tuple[State, jax.Array, jax.Array]:
        choose, deal = jax.random.split(key)
        action = random_legal(choose, state.legal_action_mask)
        live = ~state.terminated
        state = env.step(state, action, deal)
        observation = env.observe(state, state.current_player)
        return state, observation, live

    def step(state: State, keys: jax.Array, count: jax.Array) -> tuple[State, jax.Array, jax.Array]:
        state, observation, live = jax.vmap(one)(state, keys)
        return state, observation, count + jnp.sum(live)

    def reset(state: State, keys: jax.Array) -> State:
        fresh = jax.vmap(env.init)(keys)
        done = state.terminated
        result: State = jax.tree_util.tree_map(
            lambda a, b: jnp.where(jnp.reshape(done, (-1,) + (1,) * (a.ndim - 1)), a, b), fresh, state
        )
        return result

    return jax.jit(step, donate_argnums=(0,)), jax.jit(reset, donate_argnums=(0,)), jax.jit(jax.vmap(env.init))


class Vector:
    """A runner of one batch size: ``run(seconds)`` steps for about that long and returns
    (steps counted, seconds)."""

    def __init__(self, env: Env, batch: int, seed: int) -> None:
        self.batch = batch
        self.step, self.reset, init = programs(env)
        self.key = jax.random.PRNGKey(seed)
        self.state = init(self._keys())
        self.count = jnp.int32(0)
        self.calls = 0
        for _ in range(3):  # compiles, and warms up
            self.run(0.0)
        self.state = self.reset(self.state, self._keys())

    def _keys(self) -> jax.Array:
        self.key, sub = jax.random.split(self.key)
        return jax.random.split(sub, self.batch)

    def run(self, seconds: float) -> tuple[int, float]:
        before = int(self.count)
        start = time.perf_counter()
        while True:
            self.state, observation, self.count = self.step(self.state, self._keys(), self.count)
            self.calls += 1
            if self.calls % _RESET_EVERY == 0:
                self.state = self.reset(self.state, self._keys())
            if time.perf_counter() - start >= seconds:
                break
        observation.block_until_ready()
        elapsed = time.perf_counter() - start
        return int(self.count) - before, elapsed


def compile_seconds(env: Env, batch: int = 1024) -> dict[str, float]:
    """Seconds to compile ``jit(vmap(step))`` and ``jit(vmap(observe))`` at ``batch``."""
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    state = jax.jit(jax.vmap(env.init))(keys)
    actions = jnp.zeros(batch, jnp.int32)
    start = time.perf_counter()
    jax.jit(jax.vmap(env.step)).lower(state, actions, keys).compile()
    step = time.perf_counter() - start
    start = time.perf_counter()
    jax.jit(jax.vmap(env.observe)).lower(state, actions).compile()
    return {"step": round(step, 1), "observe": round(time.perf_counter() - start, 1)}


def measure_openspiel(run: Callable[[int], int], seconds: float) -> tuple[int, float]:
    steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += run(100)
    return steps, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per runner per round (2)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds (2)")
    parser.add_argument("--batches", default="1,256,1024,4096,16384", help="batch sizes, comma-separated")
    parser.add_argument("--rules", default="default", help="the rules (Rules.parse text; default)")
    parser.add_argument("--compile-batch", type=int, default=1024, help="the batch whose compile is timed (1024)")
    args = parser.parse_args(argv)
    env = Env(Rules.parse(args.rules))
    batches = [int(size) for size in args.batches.split(",")]
    compiled = compile_seconds(env, args.compile_batch)
    openspiel = openspiel_gin_rummy(random.Random(0))
    openspiel(200)
    runners = {f"vector_{size}": Vector(env, size, seed=size) for size in batches}
    totals: dict[str, list[float]] = {name: [0, 0.0] for name in ["openspiel_gin_rummy", *runners]}
    for _ in range(args.rounds):
        steps, elapsed = measure_openspiel(openspiel, args.seconds)
        totals["openspiel_gin_rummy"][0] += steps
        totals["openspiel_gin_rummy"][1] += elapsed
        for name, runner in runners.items():
            steps, elapsed = runner.run(args.seconds)
            totals[name][0] += steps
            totals[name][1] += elapsed
    rates = {name: steps / elapsed for name, (steps, elapsed) in totals.items()}
    peer = rates["openspiel_gin_rummy"]
    result: dict[str, Any] = {
        "benchmark": "vector_step",
        "python": sys.version.split()[0],
        "jax": jax.__version__,
        "device": str(jax.devices()[0].device_kind),
        "platform": jax.default_backend(),
        "machine": platform.machine(),
        "rules": str(env.rules),
        "steps_per_second": {name: round(rate) for name, rate in rates.items()},
        "vs_openspiel": {name: round(rate / peer, 2) for name, rate in rates.items() if name != "openspiel_gin_rummy"},
        "compile_seconds": compiled,
        "compile_batch": args.compile_batch,
        "seconds_per_runner": args.seconds * args.rounds,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
