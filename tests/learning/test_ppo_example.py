"""examples/ppo_jax.py, the "train with your own code" page's PPO: an iteration in small sizes
trains on valid samples only, keeps every row live (finished games dealt anew after each
step) and its network exports to a policy file that the arena plays."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from persian_rummy.arena import run_match

EXAMPLE = Path(__file__).resolve().parent.parent.parent / "examples" / "ppo_jax.py"


@pytest.mark.thorough  # compiles a whole PPO iteration
def test_an_iteration_of_the_pages_ppo_runs_and_exports_a_player(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("ppo_jax", EXAMPLE)
    assert spec is not None and spec.loader is not None
    ppo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ppo)
    ppo.ENVS, ppo.HORIZON, ppo.MINIBATCHES, ppo.HIDDEN = 8, 40, 2, (16,)
    net = ppo.init_network(jax.random.PRNGKey(0))
    state = jax.jit(jax.vmap(ppo.env.init))(jax.random.split(jax.random.PRNGKey(1), 8))
    _, samples, last = jax.jit(ppo.rollout)(net, state, jax.random.PRNGKey(2))
    assert bool(samples["valid"].all())  # reset after every step: every row is a decision
    assert samples["reward"].shape == (40, 8, 2) and last.shape == (8, 2)
    assert bool((samples["reward"][..., 0] == -samples["reward"][..., 1]).all())  # zero-sum between the teams
    before = jax.tree_util.tree_leaves(net)
    net, _, state, _, done = ppo.iterate(net, ppo.optimizer.init(net), state, jax.random.PRNGKey(3))
    assert any(not np.array_equal(a, b) for a, b in zip(before, jax.tree_util.tree_leaves(net), strict=True))
    assert not bool(jnp.any(state.terminated)) and int(done) >= 0
    path = tmp_path / "ppo.npz"
    ppo.export_policy(net["hidden"], net["policy"], net["value"]).save(path)
    result = run_match(str(path), "greedy", games=2, seed="ppo-test")
    assert len(result.games) == 2
