"""Sets of cards as two ``uint32`` words, the mask's and the table's currency (internal): bits
0-31 of the first word are cards 0-31, bits 0-19 of the second cards 32-51 and bit 20 of the
second the joker (JAX on a GPU has no 64-bit integers by default)."""

from __future__ import annotations

from typing import Final

import jax
import jax.numpy as jnp
import numpy as np

from persian_rummy.cards import JOKER_INDEX

__all__ = ["I32", "POW", "U32", "card_bits", "card_flags", "card_words", "has", "or_reduce"]

Array = jax.Array
I32: Final = jnp.int32
U32: Final = jnp.uint32
#: 1 << i for i = 0-31, as uint32.
POW: Final = (np.uint32(1) << np.arange(32, dtype=np.uint32)).astype(np.uint32)


def card_bits(counts: Array) -> tuple[Array, Array]:
    """The natural cards of a count vector (``[..., 53]``) as two words."""
    held = counts[..., :JOKER_INDEX] > 0
    low = jnp.sum(jnp.where(held[..., :32], POW, 0), axis=-1, dtype=U32)
    high = jnp.sum(jnp.where(held[..., 32:], POW[:20], 0), axis=-1, dtype=U32)
    return low, high


def card_words(card: Array) -> tuple[Array, Array]:
    """One card (natural, or 52 for the joker flag) as two words."""
    card = jnp.clip(card, 0, JOKER_INDEX)
    bit = jnp.left_shift(np.uint32(1), jnp.where(card < 32, card, card - 32).astype(U32))
    return jnp.where(card < 32, bit, np.uint32(0)), jnp.where(card < 32, np.uint32(0), bit)


def card_flags(low: Array, high: Array) -> Array:
    """Each card of two words as a flag, cards 0-52 along a new first axis (``bool[53, ...]``).
    The halves are shifted apart and joined: a shift chosen per card by a select is several
    times slower on XLA's CPU backend once fused with what follows."""
    ones = [
        (low[None] >> np.arange(32, dtype=np.uint32).reshape((32,) + (1,) * low.ndim)) & 1,
        (high[None] >> np.arange(JOKER_INDEX - 31, dtype=np.uint32).reshape((-1,) + (1,) * high.ndim)) & 1,
    ]
    return jnp.concatenate(ones) == 1


def has(card: Array, low: Array, high: Array) -> Array:
    """Whether natural ``card`` (or the joker flag, for 52) is among two words."""
    card = jnp.clip(card, 0, JOKER_INDEX)
    word = jnp.where(card < 32, low, high)
    shift = jnp.where(card < 32, card, card - 32).astype(U32)
    return (word >> shift) & 1 == 1


def or_reduce(words: Array, axis: int) -> Array:
    """The union of card sets along ``axis``."""
    reduced: Array = jax.lax.reduce(words, np.uint32(0), jax.lax.bitwise_or, (axis,))
    return reduced
