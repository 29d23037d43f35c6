"""export_policy: a network trained with one's own JAX code, in any framework's layout the
policy format can hold, becomes a policy file that plays exactly the network's logits."""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from persian_rummy import PolicyFileError, Rules, new_game
from persian_rummy.bots import make_bot
from persian_rummy.observation import observation_tensor
from persian_rummy.policy import Policy
from persian_rummy.vector import export_policy


def network(key: jax.Array, widths: tuple[int, ...]) -> tuple[list[tuple[jax.Array, jax.Array]], tuple, tuple]:
    sizes = (1590, *widths)
    keys = jax.random.split(key, len(widths) + 2)
    hidden = [
        (jax.random.normal(k, (a, b)) * 0.05, jax.random.normal(k, (b,)) * 0.1)
        for k, a, b in zip(keys[:-2], sizes[:-1], sizes[1:], strict=True)
    ]
    policy = (jax.random.normal(keys[-2], (sizes[-1], 1436)), jnp.zeros(1436))
    value = (jax.random.normal(keys[-1], (sizes[-1], 1)), jnp.ones(1))
    return hidden, policy, value


def forward(hidden: list, policy: tuple, value: tuple, x: jax.Array) -> tuple[jax.Array, jax.Array]:
    for weight, bias in hidden:
        x = jax.nn.relu(x @ weight + bias)
    return x @ policy[0] + policy[1], (x @ value[0] + value[1])[:, 0]


@pytest.mark.parametrize("widths", [(), (16,), (32, 8, 4)], ids=["linear", "one", "three"])
def test_the_exported_policy_computes_the_networks_logits_and_value(widths: tuple[int, ...], tmp_path: Path) -> None:
    hidden, policy, value = network(jax.random.PRNGKey(len(widths)), widths)
    state = new_game(4)
    observation = observation_tensor(state.view(state.current_player)).reshape(1, -1)
    logits, worth = forward(hidden, policy, value, jnp.asarray(observation))
    # haiku's names for the hidden layers, flax's for the heads: each is read.
    layers = [{"w": w, "b": b} for w, b in hidden]
    exported = export_policy(layers, {"kernel": policy[0], "bias": policy[1]}, value, rules=Rules())
    exported.save(tmp_path / "mine.npz")
    loaded = Policy.load(tmp_path / "mine.npz")
    assert loaded.widths == (1590, *widths, 1436) and loaded.has_value
    got_logits, got_value = loaded.evaluate(observation[0])
    np.testing.assert_allclose(got_logits, np.asarray(logits[0]), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got_value, float(worth[0]), rtol=1e-4, atol=1e-4)
    bot = make_bot(str(tmp_path / "mine.npz"))
    assert str(bot(state.view(state.current_player))) == "draw"  # seat 1's only legal action (R6)


def test_what_the_format_cannot_hold_is_refused() -> None:
    hidden, policy, _ = network(jax.random.PRNGKey(0), (8,))
    with pytest.raises(PolicyFileError, match="must name its arrays"):
        export_policy([{"scale": hidden[0][0], "offset": hidden[0][1]}], policy)
    with pytest.raises(PolicyFileError, match="map"):
        export_policy([], policy)  # a head of 8 inputs on the 1,590 observations
    with pytest.raises(PolicyFileError, match="floating-point"):
        export_policy([(np.ones((1590, 8), np.int32), np.zeros(8))], policy)
