"""Drawing an action from a legal-action mask, or from a policy's logits over it, with one
random number per game (internal module; the functions are re-exported by
:mod:`persian_rummy.vector`).

``jax.random.categorical`` over the 1,436 actions draws 1,436 Gumbel numbers per game, which
costs more than a step; these draw one uniform number and find the action it selects by the
inverse of the cumulative distribution, by blocks of 32 actions (XLA's CPU backend computes a
cumsum in time quadratic in its length, so no cumsum here is longer than 45).
"""

from __future__ import annotations

from typing import Final

import jax
import jax.numpy as jnp
import numpy as np

from persian_rummy.vector._checks import check_key, check_logits, check_mask

__all__ = ["sample_legal", "sample_policy"]

Array = jax.Array
_BLOCK: Final = 32


def _blocks(weights: Array) -> Array:
    return jnp.pad(weights, (0, -weights.shape[0] % _BLOCK)).reshape(-1, _BLOCK)


def sample_legal(key: Array, legal_action_mask: Array) -> Array:
    """A legal action of one game, uniformly: the r-th flag set in the mask for one random
    whole number r below their count (``jax.random.randint``, so as uniform as it is: each
    legal action's probability is 1/n to within n/2^32 relative). An all-False mask gives 0
    (pgx's masks, and ours, are all True once a game is over, so that never happens in play).

    ``key`` is one PRNG key (``uint32[2]``, or a typed key of any implementation) and
    ``legal_action_mask`` one game's ``bool[n]`` (any ``n`` from 1: this engine's, 1,436
    long, or another pgx game's), checked when the function is traced: a batch of them is
    refused (batch with ``jax.vmap``), and so is a mask of another dtype (a float mask is not
    read as weights; ``mask > 0`` says which are set).

    The flags are packed into 32-bit words and counted by ``population_count``; the word that
    holds the r-th flag is found by the words' running counts, and the flag within it by five
    halvings of the word.

    >>> import jax.numpy as jnp
    >>> mask = jnp.zeros(1436, bool).at[jnp.array([3, 700, 1400])].set(True)
    >>> int(sample_legal(jax.random.PRNGKey(0), mask)) in (3, 700, 1400)
    True
    """
    check_key(key, "sample_legal")
    legal_action_mask = check_mask(legal_action_mask, "sample_legal")
    flags = _blocks(legal_action_mask).astype(jnp.uint32)
    words = jnp.sum(flags << jnp.arange(_BLOCK, dtype=jnp.uint32), axis=1, dtype=jnp.uint32)
    counts = jax.lax.population_count(words).astype(jnp.int32)
    ends = jax.lax.associative_scan(jnp.add, counts)
    chosen = jax.random.randint(key, (), 0, jnp.maximum(ends[-1], 1))
    word_index = jnp.minimum(jnp.sum(ends <= chosen), counts.shape[0] - 1)
    within = chosen - (ends[word_index] - counts[word_index])
    word = words[word_index]
    place = jnp.uint32(0)
    for width in (16, 8, 4, 2, 1):  # is the flag sought in the lower `width` bits left?
        below = jax.lax.population_count((word >> place) & np.uint32((1 << width) - 1)).astype(jnp.int32)
        higher = within >= below
        within = jnp.where(higher, within - below, within)
        place = jnp.where(higher, place + width, place)
    return jnp.where(ends[-1] > 0, word_index * _BLOCK + place.astype(jnp.int32), 0).astype(jnp.int32)


def sample_policy(key: Array, logits: Array, legal_action_mask: Array) -> Array:
    """An action of one game drawn from the softmax of ``logits`` over the legal actions (the
    distribution of ``jax.random.categorical(key, jnp.where(mask, logits, -inf))``, not the
    same draws): one uniform number against the cumulative probabilities. Its bias is the
    rounding of ``float32`` sums (a relative error of about 1e-7 on each action's
    probability); an action the mask forbids is never drawn, whatever the logits (``nan`` or
    infinite ones too; an all-False mask gives 0, as :func:`sample_legal`). ``key`` and
    ``legal_action_mask`` as for :func:`sample_legal`; ``logits`` a floating array of the
    mask's shape.

    >>> import jax.numpy as jnp
    >>> mask = jnp.zeros(1436, bool).at[jnp.array([5, 9])].set(True)
    >>> logits = jnp.zeros(1436).at[9].set(50.0)
    >>> int(sample_policy(jax.random.PRNGKey(1), logits, mask))
    9
    """
    check_key(key, "sample_policy")
    legal_action_mask = check_mask(legal_action_mask, "sample_policy")
    logits = check_logits(logits, legal_action_mask.shape, "sample_policy")
    masked = jnp.where(legal_action_mask, logits, -jnp.inf)
    top = jnp.max(masked)
    weights = jnp.where(legal_action_mask, jnp.exp(masked - jnp.where(jnp.isfinite(top), top, 0)), 0.0)
    blocks = _blocks(weights)
    sums = blocks.sum(axis=1)
    ends = jnp.cumsum(sums)
    target = jax.random.uniform(key, (), dtype=weights.dtype) * ends[-1]
    block = jnp.minimum(jnp.sum(ends <= target), sums.shape[0] - 1)
    within = target - (ends[block] - sums[block])
    inner = jnp.cumsum(blocks[block])
    action = block * _BLOCK + jnp.argmax(inner > within)
    # Rounding can leave the target past a block's last weight: then its last legal action.
    fallback = block * _BLOCK + (_BLOCK - 1 - jnp.argmax(blocks[block][::-1] > 0))
    action = jnp.where(jnp.any(inner > within), action, fallback)
    # Non-finite logits can leave the search in the padding past the last action (which the
    # mask's indexing would clamp): any such draw, and any forbidden one, is the first legal.
    size = legal_action_mask.shape[0]
    allowed = (action < size) & legal_action_mask[jnp.minimum(action, size - 1)]
    return jnp.where(allowed, action, jnp.argmax(legal_action_mask)).astype(jnp.int32)
