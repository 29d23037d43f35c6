"""The network trained: fully connected ReLU layers from the flattened observation to a policy
head (one logit per action) and a value head, as typed pytrees."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from persian_rummy.policy import OBSERVATION_SIZE, Policy
from persian_rummy.rules import Rules
from persian_rummy.vector import Env

__all__ = ["Dense", "Network", "export_policy", "forward", "init_params"]


class Dense(NamedTuple):
    """One fully connected layer: ``inputs @ weight + bias``."""

    weight: jax.Array
    bias: jax.Array


class Network(NamedTuple):
    """The hidden layers, the policy head (``Env.num_actions`` logits) and the value head (one
    number: the expected return of the mover's team) on the last hidden layer."""

    hidden: tuple[Dense, ...]
    policy: Dense
    value: Dense


def init_params(key: jax.Array, hidden: Sequence[int]) -> Network:
    """Hidden layers (He-scaled), a policy head near zero (a near-uniform first policy) and a
    value head near zero.

    >>> network = init_params(jax.random.PRNGKey(0), (16, 8))
    >>> [layer.weight.shape for layer in network.hidden], network.policy.weight.shape
    ([(1590, 16), (16, 8)], (8, 1436))
    """
    keys = jax.random.split(key, len(hidden) + 2)
    layers = []
    width = OBSERVATION_SIZE
    for number, size in enumerate(hidden):
        scale = math.sqrt(2.0 / width)
        layers.append(
            Dense(jax.random.normal(keys[number], (width, size), jnp.float32) * scale, jnp.zeros(size, jnp.float32))
        )
        width = size
    policy = Dense(
        jax.random.normal(keys[-2], (width, Env.num_actions), jnp.float32) * 0.01,
        jnp.zeros(Env.num_actions, jnp.float32),
    )
    value = Dense(jax.random.normal(keys[-1], (width, 1), jnp.float32) * 0.01, jnp.zeros(1, jnp.float32))
    return Network(tuple(layers), policy, value)


def forward(network: Network, observations: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Logits ``[batch, actions]`` and values ``[batch]`` of flattened observations; the logits
    are exactly :meth:`Policy.logits <persian_rummy.policy.Policy.logits>` of the exported
    policy. A network of another float type (a league's ``float16`` snapshot) computes in
    ``float32``.

    >>> network = init_params(jax.random.PRNGKey(0), (4,))
    >>> logits, values = forward(network, jnp.zeros((3, 1590)))
    >>> logits.shape, values.shape
    ((3, 1436), (3,))
    """
    values = observations
    for layer in network.hidden:
        values = jax.nn.relu(values @ layer.weight.astype(jnp.float32) + layer.bias.astype(jnp.float32))
    logits = values @ network.policy.weight.astype(jnp.float32) + network.policy.bias.astype(jnp.float32)
    value = values @ network.value.weight.astype(jnp.float32) + network.value.bias.astype(jnp.float32)
    return logits, value[:, 0]


def export_policy(network: Network, rules: Rules, training: Mapping[str, Any]) -> Policy:
    """The network as a :class:`~persian_rummy.policy.Policy` (its hidden layers, policy head
    and value head as ``float32`` arrays), with the provenance ``training``."""

    def arrays(layer: Dense) -> tuple[np.ndarray[Any, np.dtype[np.float32]], np.ndarray[Any, np.dtype[np.float32]]]:
        return np.asarray(layer.weight, np.float32), np.asarray(layer.bias, np.float32)

    layers = tuple(arrays(layer) for layer in (*network.hidden, network.policy))
    return Policy(rules, layers, dict(training), value=arrays(network.value))
