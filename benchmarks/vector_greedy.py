"""Actions a second of the greedy player inside JAX (:func:`persian_rummy.vector.greedy_action`,
``jit(vmap(...))`` over a batch) beside the scalar :class:`~persian_rummy.bots.GreedyBot` on
the same positions, in the same run (needs the ``[jax]`` extra).

The positions are those of greedy self-play in JAX: a batch of fresh games
(:meth:`Env.init <persian_rummy.vector.Env.init>`) played by ``greedy_action`` for every seat,
``--steps`` steps, finished games dealt afresh by :meth:`Env.reset_finished
<persian_rummy.vector.Env.reset_finished>`. The JAX rate counts the calls of the compiled
``greedy_action`` alone (each waited for), over the rows of games being played; the scalar rate
is the bot's call on the mover's view of every such row of every ``--sample``-th batch
(``Env.to_states``, then ``state.view(seat)``, not timed). ``selfplay_steps_per_s`` is the
whole loop (choose, step, deal afresh) in live rows a second. The compile time is measured apart
(``jit(...).lower(...).compile()``). Prints one JSON line::

    python benchmarks/vector_greedy.py [--batch 1024] [--steps 300] [--sample 10] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time

import jax
import numpy as np

from persian_rummy import Rules
from persian_rummy.bots import GreedyBot
from persian_rummy.vector import Env, greedy_action


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--sample", type=int, default=10, help="time the scalar bot on every N-th batch")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = Env(Rules())
    init = jax.jit(jax.vmap(env.init))
    choose = jax.jit(jax.vmap(greedy_action))
    step = jax.jit(jax.vmap(env.step))
    keys = jax.random.split(jax.random.PRNGKey(args.seed), args.batch)
    state = init(keys)
    started = time.perf_counter()
    choose.lower(state).compile()
    compile_s = time.perf_counter() - started
    reset = jax.jit(env.reset_finished)
    reset(state, keys).current_player.block_until_ready()
    step(state, choose(state)).current_player.block_until_ready()

    bot = GreedyBot()
    jax_s = scalar_s = loop_s = 0.0
    jax_rows = scalar_rows = 0
    key = jax.random.PRNGKey(args.seed + 1)
    for number in range(args.steps):
        live = int(np.sum(~np.asarray(state.terminated)))
        started = time.perf_counter()
        action = choose(state).block_until_ready()
        jax_s += time.perf_counter() - started
        jax_rows += live
        if number % args.sample == 0:
            for game in env.to_states(state):
                if game.phase.is_live:
                    view = game.view(game.current_player)
                    started = time.perf_counter()
                    bot(view)
                    scalar_s += time.perf_counter() - started
                    scalar_rows += 1
        started = time.perf_counter()
        key, sub = jax.random.split(key)
        state = reset(step(state, action), jax.random.split(sub, args.batch))
        state.current_player.block_until_ready()
        loop_s += time.perf_counter() - started
    jax_rate = jax_rows / jax_s
    scalar_rate = scalar_rows / scalar_s
    result: dict[str, object] = {
        "benchmark": "vector_greedy",
        "python": platform.python_version(),
        "jax": jax.__version__,
        "device": str(jax.devices()[0]),
        "batch": args.batch,
        "steps": args.steps,
        "compile_s": round(compile_s, 2),
        "jax_greedy_actions_per_s": round(jax_rate),
        "scalar_greedy_actions_per_s": round(scalar_rate),
        "jax_over_scalar": round(jax_rate / scalar_rate, 3),
        "selfplay_steps_per_s": round(jax_rows / (jax_s + loop_s)),
        "scalar_rows_timed": scalar_rows,
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
