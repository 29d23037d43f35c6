"""Advantages in a game of two teams where a seat moves several times in a row (internal module;
:func:`team_gae` is re-exported by :mod:`persian_rummy.vector`)."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from persian_rummy.errors import InvalidArgumentError

__all__ = ["team_gae"]

Array = jax.Array
_TEAMS = 2


def team_gae(
    rewards: Array,
    values: Array,
    teams: Array,
    valid: Array,
    dones: Array,
    last_values: Array,
    *,
    gamma: float = 1.0,
    gae_lambda: float = 0.95,
) -> Array:
    """Generalized advantage estimates (GAE) of a rollout of ``T`` steps of ``B`` games, from
    the side of the team that moved at each step.

    In this game a seat moves several times in a row (a draw, melds, a discard), the turns
    pass round the four seats, and the two seats of a team share every reward (R3). So the
    "next state" of a decision is not the next step, and negating the value at every ply (as
    two-player zero-sum recipes do) is wrong: here each decision's advantage looks ahead to
    the **next decision of the same team**, whoever moves between; the rewards of every step
    in between (the other team's included: a deal's end pays both) count for it. Within a
    step ``t`` of team ``m`` (its next decision of that team at ``t'``, in the same game)::

        delta_t = sum(rewards[t:t', m]) + gamma * values[t'] - values[t]
        A_t     = delta_t + gamma * gae_lambda * A_t'

    A game that ends at step ``d`` (``dones[d]``) ends every sum there, with no next value;
    a decision with no next one of its team within the rollout (and no end) looks to
    ``last_values[:, m]``: the value of that team's next decision (0 for a game over).
    The returns to fit a value head to are ``advantages + values``.

    - ``rewards``: ``float32[T, B, 2]``, each team's reward of the step (``state.rewards[:,
      :2]`` after it: seats 0 and 1 are one of each team; the win bonus included);
    - ``values``: ``[T, B]``, the value estimate of the mover's team at the step;
    - ``teams``: ``[T, B]``, the mover's team (``current_player % 2``);
    - ``valid``: ``bool[T, B]``, the step was a decision: the game was live before it
      (``~state.terminated``); an invalid step's advantage is 0 and it is not looked ahead to;
    - ``dones``: ``bool[T, B]``, the step ended the game (``terminated`` after it, on a
      valid step);
    - ``last_values``: ``[B, 2]``, each team's bootstrap value after the last step.

    Returns the advantages, ``float32[T, B]`` (0 where not ``valid``). A pure function of
    arrays, for ``jit``; the library's trainer (:mod:`persian_rummy.learning`) uses it.

    >>> import jax.numpy as jnp
    >>> rewards = jnp.zeros((3, 1, 2)).at[2, 0].set(jnp.array([1.0, -1.0]))  # the last step pays
    >>> teams = jnp.array([[0], [1], [0]])
    >>> valid = jnp.ones((3, 1), bool)
    >>> dones = jnp.array([[False], [False], [True]])
    >>> team_gae(rewards, jnp.zeros((3, 1)), teams, valid, dones, jnp.zeros((1, 2)), gae_lambda=1.0)[:, 0].tolist()
    [1.0, -1.0, 1.0]
    """
    rewards, values, teams, valid, dones, last_values = _checked(rewards, values, teams, valid, dones, last_values)
    every = jnp.arange(_TEAMS)

    def back(carry: tuple[Array, Array, Array], step: tuple[Array, ...]) -> tuple[Any, Array]:
        next_value, next_advantage, pending = carry  # [B, 2] each: per team
        reward, value, team, live, done = step
        ended = done[:, None]
        next_value = jnp.where(ended, 0.0, next_value)
        next_advantage = jnp.where(ended, 0.0, next_advantage)
        pending = jnp.where(ended, 0.0, pending) + reward
        delta = pending + gamma * next_value - value[:, None]
        advantage = delta + gamma * gae_lambda * next_advantage
        mine = (team[:, None] == every) & live[:, None]
        carry = (
            jnp.where(mine, value[:, None], next_value),
            jnp.where(mine, advantage, next_advantage),
            jnp.where(mine, 0.0, pending),
        )
        chosen = jnp.take_along_axis(advantage, team[:, None].astype(jnp.int32), axis=1)[:, 0]
        return carry, jnp.where(live, chosen, 0.0)

    zeros = jnp.zeros((rewards.shape[1], _TEAMS), jnp.float32)
    advantages: Array = jax.lax.scan(
        back, (last_values, zeros, zeros), (rewards, values, teams, valid, dones), reverse=True
    )[1]
    return advantages


def _checked(*arrays: Array) -> tuple[Array, ...]:
    """:func:`team_gae`'s arrays as JAX arrays of their types, each shape checked against the
    rewards' ``[T, B, 2]``."""
    rewards, values, last_values = (jnp.asarray(a, jnp.float32) for a in (arrays[0], arrays[1], arrays[5]))
    teams, valid, dones = jnp.asarray(arrays[2]), jnp.asarray(arrays[3], bool), jnp.asarray(arrays[4], bool)
    if rewards.ndim != 3 or rewards.shape[2] != _TEAMS:
        raise InvalidArgumentError(f"team_gae: rewards must be [T, B, 2], not shape {rewards.shape}")
    lead = rewards.shape[:2]
    for name, array in (("values", values), ("teams", teams), ("valid", valid), ("dones", dones)):
        if array.shape != lead:
            raise InvalidArgumentError(f"team_gae: {name} must be [T, B] = {list(lead)}, not shape {array.shape}")
    if last_values.shape != (lead[1], _TEAMS):
        raise InvalidArgumentError(f"team_gae: last_values must be [B, 2], not shape {last_values.shape}")
    return rewards, values, teams, valid, dones, last_values
