"""Steps per second of the vectorized engine (``jit(vmap(step))``) with the legal-action mask
and the mover's observation, at several batch sizes and with three ways of choosing the action,
beside OpenSpiel's ``gin_rummy`` stepped with its observation tensor, in the same run (needs
the ``[jax]`` and ``[rl]`` extras).

One step of ours is, for every row of the batch, in one compiled call: an action drawn from
``legal_action_mask`` on the device, then :meth:`Env.step <persian_rummy.vector.Env.step>`
without a key, as pgx's loops call it (which also computes the next mask and the mover's
``observation``). The action is drawn by :func:`~persian_rummy.vector.sample_legal`
(``legal``: uniform over the mask, one random number), by
:func:`~persian_rummy.vector.sample_policy` over logits (``policy``: a policy's draw, one
random number) or by ``jax.random.categorical`` over the masked logits (``categorical``: a
policy's draw as pgx's examples write it, 1,436 random numbers); the logits are zeros, as
the cost does not depend on them. Only the rows of games still being played count as steps
(a finished game's row is not counted); every 16 calls the finished games are dealt afresh by
``init``, timed with the steps (a game lasts about 140 steps, so about 5% of the rows wait
for it). ``--observation-dtype int16`` times an environment of integer observations
(``float32,int16``: both, side by side, each runner named by its dtype too);
``--keyed`` gives every step a key of its own, split from the row's, as pgx's loops with keys
call ``step(state, action, key)`` (a keyed step shuffles a deck in every row).
``--resets every16,finished,pgx`` times, beside the loop that deals finished games afresh
every 16 calls (``every16``, the default and the only one otherwise), loops that deal them
afresh after every step, inside the step's compiled call: by
:meth:`Env.reset_finished <persian_rummy.vector.Env.reset_finished>` (``finished``: only the
finished rows are dealt) and as pgx's ``auto_reset`` does (``pgx``: ``init`` of every row,
kept where ``terminated``); ``auto_reset_vs_every16`` gives each one's rate over
``every16``'s at the same batch and sampler, measured side by side.
OpenSpiel's line is ``benchmarks/rl_step.py``'s: ``observation_tensor`` of the player to move,
``legal_actions`` and ``apply_action``, chance nodes applied and not counted.

Each sampler is also timed alone (no step, at ``--compile-batch``, for ``--seconds``): the
most steps a second a loop drawing with it could reach, whatever the step costs, over
OpenSpiel's rate (``sampler_bound_vs_openspiel``). Compile times are measured apart
(``jit(...).lower(...).compile()``, at ``--compile-batch``) for the step (with the uniform
sampler) and for ``observe`` of a given seat. The runners take turns in several rounds; the
rates are over all rounds. Prints one JSON line, with the device JAX ran on and, per sampler,
the rate at the largest batch over the best batch's (``flatness``)::

    python benchmarks/vector_step.py [--seconds 2] [--rounds 2] [--batches 256,1024,4096,16384]
        [--samplers legal,policy,categorical] [--observation-dtype float32] [--keyed]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
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
from persian_rummy.vector import Env, State, sample_legal, sample_policy

# Finished games are dealt afresh every so many calls: init costs about a step for every row,
# and a finished row waits for it uncounted (half the period, in a game of about 140 steps).
_RESET_EVERY = 16


def categorical(key: jax.Array, mask: jax.Array) -> jax.Array:
    """A policy's draw in a pgx-style loop: ``jax.random.categorical`` over masked logits (here 0)."""
    return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf))


def policy(key: jax.Array, mask: jax.Array) -> jax.Array:
    """A policy's draw with :func:`~persian_rummy.vector.sample_policy` over logits (here 0)."""
    return sample_policy(key, jnp.zeros(mask.shape, jnp.float32), mask)


SAMPLERS: dict[str, Callable[[jax.Array, jax.Array], jax.Array]] = {
    "legal": sample_legal,
    "policy": policy,
    "categorical": categorical,
}


def programs(
    env: Env, sampler: Callable[[jax.Array, jax.Array], jax.Array], *, keyed: bool = False, resets: str = "every16"
) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """The compiled batched step (action, step with the mover's observation), reset and init;
    ``keyed``, the step is given a key of its own (a deal that ends shuffles its deck);
    ``resets`` ``finished`` or ``pgx``, the step deals finished games afresh after every step."""

    def one(state: State, key: jax.Array) -> tuple[State, jax.Array]:
        live = ~state.terminated
        if keyed:
            key, deal_key = jax.random.split(key)
            return env.step(state, sampler(key, state.legal_action_mask), deal_key), live
        return env.step(state, sampler(key, state.legal_action_mask)), live

    init, merge = dealing(env)

    def step(state: State, keys: jax.Array, count: jax.Array) -> tuple[State, jax.Array]:
        state, live = jax.vmap(one)(state, keys)
        if resets == "finished":
            state = env.reset_finished(state, jax.vmap(lambda key: jax.random.fold_in(key, 1))(keys))
        elif resets == "pgx":  # pgx's auto_reset: init in every row, kept where terminated
            fresh = jax.vmap(env.init)(jax.vmap(lambda key: jax.random.fold_in(key, 1))(keys))
            done = state.terminated
            state = jax.tree_util.tree_map(
                lambda a, b: jnp.where(jnp.reshape(done, (-1,) + (1,) * (a.ndim - 1)), a, b), fresh, state
            )
        return state, count + jnp.sum(live)

    def reset(state: State, keys: jax.Array) -> State:
        return merge(state, init(keys))

    return jax.jit(step, donate_argnums=(0,)), reset, init


@functools.cache
def dealing(env: Env) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The compiled ``vmap(init)`` and the merge that keeps the games being played and takes
    fresh ones for the finished: one pair an environment, so that the runners of every sampler
    and loop compile the deal once a batch size."""

    def merge(state: State, fresh: State) -> State:
        done = state.terminated
        result: State = jax.tree_util.tree_map(
            lambda a, b: jnp.where(jnp.reshape(done, (-1,) + (1,) * (a.ndim - 1)), a, b), fresh, state
        )
        return result

    return jax.jit(jax.vmap(env.init)), jax.jit(merge, donate_argnums=(0,))


class Vector:
    """A runner of one batch size: ``run(seconds)`` steps for about that long and returns
    (steps counted, seconds)."""

    def __init__(
        self, env: Env, batch: int, seed: int, sampler: str = "legal", *, keyed: bool = False, resets: str = "every16"
    ) -> None:
        self.batch = batch
        self.resets = resets
        self.step, self.reset, init = programs(env, SAMPLERS[sampler], keyed=keyed, resets=resets)
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
            self.state, self.count = self.step(self.state, self._keys(), self.count)
            self.calls += 1
            if self.resets == "every16" and self.calls % _RESET_EVERY == 0:
                self.state = self.reset(self.state, self._keys())
            if time.perf_counter() - start >= seconds:
                break
        self.state.observation.block_until_ready()
        elapsed = time.perf_counter() - start
        return int(self.count) - before, elapsed


def compile_seconds(env: Env, batch: int = 1024) -> dict[str, float]:
    """Seconds to compile the benchmark's step (uniform sampler) and ``jit(vmap(observe))`` at ``batch``."""
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    step, _, init = programs(env, sample_legal)
    state = init(keys)
    start = time.perf_counter()
    step.lower(state, keys, jnp.int32(0)).compile()
    stepped = time.perf_counter() - start
    start = time.perf_counter()
    jax.jit(jax.vmap(env.observe)).lower(state, jnp.zeros(batch, jnp.int32)).compile()
    return {"step": round(stepped, 1), "observe": round(time.perf_counter() - start, 1)}


def sampler_microseconds(sampler: str, keys: jax.Array, masks: jax.Array, seconds: float = 1.0) -> float:
    """Microseconds a row that the sampler alone takes (``jit(vmap(sampler))`` over ``masks``
    with a key a row, no step): the bound it puts on a loop's rate, whatever the step costs."""
    batch = masks.shape[0]
    draw = jax.jit(jax.vmap(SAMPLERS[sampler]))
    draw(keys, masks).block_until_ready()
    calls = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        draw(keys, masks).block_until_ready()
        calls += 1
    return elapsed / calls / batch * 1e6


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
    parser.add_argument("--batches", default="256,1024,4096,16384", help="batch sizes, comma-separated")
    parser.add_argument(
        "--samplers", default="legal,policy,categorical", help="samplers, comma-separated (legal, policy, categorical)"
    )
    parser.add_argument(
        "--observation-dtype",
        default="float32",
        help="the observation's dtype (float32, int16, int32), or several, comma-separated, timed side by side",
    )
    parser.add_argument("--rules", default="default", help="the rules (Rules.parse text; default)")
    parser.add_argument("--compile-batch", type=int, default=1024, help="the batch whose compile is timed (1024)")
    parser.add_argument(
        "--resets",
        default="every16",
        help="how finished games are dealt afresh, comma-separated: every16 (every 16 calls), "
        "finished (Env.reset_finished after every step), pgx (init in every row after every step)",
    )
    parser.add_argument(
        "--keyed", action="store_true", help="give every step a key of its own (pgx's step(state, action, key))"
    )
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    dtypes = args.observation_dtype.split(",")
    envs = {dtype: Env(rules, observation_dtype=dtype) for dtype in dtypes}
    env = envs[dtypes[0]]
    batches = [int(size) for size in args.batches.split(",")]
    compiled = compile_seconds(env, args.compile_batch)
    openspiel = openspiel_gin_rummy(random.Random(0))
    openspiel(200)
    samplers = args.samplers.split(",")

    resets = args.resets.split(",")
    if "every16" not in resets:
        resets.insert(0, "every16")

    def label(sampler: str, dtype: str) -> str:  # the dtype named only when several are timed
        return sampler if len(dtypes) == 1 else f"{sampler}_{dtype}"

    def suffix(reset: str) -> str:  # the reset named only for the loops that reset every step
        return "" if reset == "every16" else f"_reset_{reset}"

    runners = {
        f"vector_{label(sampler, dtype)}_{size}{suffix(reset)}": Vector(
            envs[dtype], size, seed=size, sampler=sampler, keyed=args.keyed, resets=reset
        )
        for dtype in dtypes
        for sampler in samplers
        for size in batches
        for reset in resets
    }
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
    keys = jax.random.split(jax.random.PRNGKey(1), args.compile_batch)
    masks = jax.jit(jax.vmap(env.init))(keys).legal_action_mask  # fresh deals' masks, made once
    alone = {sampler: sampler_microseconds(sampler, keys, masks, args.seconds) for sampler in samplers}
    result: dict[str, Any] = {
        "benchmark": "vector_step",
        "python": sys.version.split()[0],
        "jax": jax.__version__,
        "device": str(jax.devices()[0].device_kind),
        "platform": jax.default_backend(),
        "machine": platform.machine(),
        "rules": str(env.rules),
        "observation_dtype": ",".join(str(each.observation_dtype) for each in envs.values()),
        "keyed": args.keyed,
        "steps_per_second": {name: round(rate) for name, rate in rates.items()},
        "vs_openspiel": {name: round(rate / peer, 2) for name, rate in rates.items() if name != "openspiel_gin_rummy"},
        "flatness": {
            label(sampler, dtype): round(
                rates[f"vector_{label(sampler, dtype)}_{max(batches)}"]
                / max(rates[f"vector_{label(sampler, dtype)}_{size}"] for size in batches),
                2,
            )
            for dtype in dtypes
            for sampler in samplers
        },
        # Each sampler alone, and the most a loop drawing with it could step, over OpenSpiel's rate.
        "sampler_alone_us_per_row": {sampler: round(us, 2) for sampler, us in alone.items()},
        "sampler_bound_vs_openspiel": {sampler: round(1e6 / us / peer, 2) for sampler, us in alone.items()},
        # Each loop that deals finished games afresh after every step, over every16's rate.
        "auto_reset_vs_every16": {
            f"vector_{label(sampler, dtype)}_{size}{suffix(reset)}": round(
                rates[f"vector_{label(sampler, dtype)}_{size}{suffix(reset)}"]
                / rates[f"vector_{label(sampler, dtype)}_{size}"],
                2,
            )
            for dtype in dtypes
            for sampler in samplers
            for size in batches
            for reset in resets
            if reset != "every16"
        },
        "compile_seconds": compiled,
        "compile_batch": args.compile_batch,
        "seconds_per_runner": args.seconds * args.rounds,
        "cpu_count": os.cpu_count(),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
