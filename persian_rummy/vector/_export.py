"""A network trained with one's own JAX code as a policy file (internal module;
:func:`export_policy` is re-exported by :mod:`persian_rummy.vector`)."""

from __future__ import annotations

import platform
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from persian_rummy.errors import PolicyFileError, excerpt
from persian_rummy.policy import Policy
from persian_rummy.rules import Rules

__all__ = ["export_policy"]

# The names frameworks give a dense layer's two arrays: (weight, bias).
_NAMES = (("w", "b"), ("kernel", "bias"), ("weight", "bias"))


def _pair(layer: object, name: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """A layer as (weight, bias) float32 numpy arrays: a pair, or a mapping with one of the
    frameworks' names (haiku's ``w``/``b``, flax's ``kernel``/``bias``, ``weight``/``bias``)."""
    if isinstance(layer, Mapping):
        for weight, bias in _NAMES:
            if weight in layer and bias in layer:
                layer = (layer[weight], layer[bias])
                break
        else:
            raise PolicyFileError(
                f"layer {name} must name its arrays w and b, kernel and bias, or weight and bias, not {sorted(layer)}"
            )
    if not isinstance(layer, tuple | list) or len(layer) != 2:
        raise PolicyFileError(f"layer {name} must be a (weight, bias) pair, not {excerpt(layer)}")
    arrays = []
    for part in layer:
        array = np.asarray(part)
        if not np.issubdtype(array.dtype, np.floating):
            raise PolicyFileError(f"layer {name} must hold floating-point arrays, not {array.dtype}")
        arrays.append(np.asarray(array, np.float32))
    return arrays[0], arrays[1]


def export_policy(
    hidden: Sequence[object],
    policy: object,
    value: object | None = None,
    *,
    rules: Rules = Rules(),
    training: Mapping[str, Any] | None = None,
) -> Policy:
    """A network trained with one's own code (JAX, or anything whose arrays numpy reads) as a
    :class:`~persian_rummy.policy.Policy`, to :meth:`~persian_rummy.policy.Policy.save` as a
    policy file that ``make_bot(path)`` and the arena play.

    The policy format holds one kind of network, and any of its sizes: the flattened
    observation (``state.observation.reshape(-1)``, 1,590 numbers) through ``hidden`` dense
    layers with ReLU (0 to 15 of them, each 1 to 4,096 wide), then the ``policy`` layer's 1,436
    logits (the mask applied by the player); and optionally a ``value`` layer of one output
    on the last hidden layer. Each layer is ``x @ weight + bias`` given as a ``(weight,
    bias)`` pair, or a mapping naming them ``w``/``b`` (haiku), ``kernel``/``bias`` (flax) or
    ``weight``/``bias``; any float dtype (stored as ``float32``). Another activation, a
    normalisation or a network of another shape cannot be held: the weights are refused
    (:class:`~persian_rummy.PolicyFileError`) only where their shapes do not chain.

    ``training`` is the provenance (``command``, ``seed``, ``steps``, ``games``,
    ``wall_seconds``, ``device``); by default it says the network was exported by this
    function, with zeros.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> layer = {"kernel": rng.normal(size=(1590, 8)), "bias": np.zeros(8)}
    >>> head = (rng.normal(size=(8, 1436)), np.zeros(1436))
    >>> policy = export_policy([layer], head)
    >>> policy.widths, policy.has_value
    ((1590, 8, 1436), False)
    >>> from persian_rummy import new_game
    >>> from persian_rummy.policy import NeuralBot
    >>> state = new_game(1)
    >>> bot = NeuralBot(policy)  # or policy.save("mine.npz"), then make_bot("mine.npz")
    >>> bot(state.view(state.current_player))
    DrawStock()
    """
    layers = [_pair(layer, f"hidden{number}") for number, layer in enumerate(hidden)]
    layers.append(_pair(policy, "policy"))
    head = None if value is None else _pair(value, "value")
    record = (
        dict(training)
        if training is not None
        else {
            "command": "persian_rummy.vector.export_policy",
            "seed": 0,
            "steps": 0,
            "games": 0,
            "wall_seconds": 0.0,
            "device": platform.machine() or "unknown",
        }
    )
    return Policy(rules, tuple(layers), record, value=head)
