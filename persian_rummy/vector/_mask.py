"""The legal-action mask of one game (R12-R20): exactly :func:`~persian_rummy.encoding.legal_flags`
of the position, in the :mod:`~persian_rummy.encoding` numbering (internal)."""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from persian_rummy.cards import JOKER_INDEX
from persian_rummy.encoding import DISCARD_BASE, LAY_OFF_BASE, MAX_MELDS, MAX_PILE, MELD_BASE, NUM_ACTIONS, PASS_INDEX
from persian_rummy.vector._knobs import JOKER_BIT, Knobs
from persian_rummy.vector._state import DRAW, MELD, GameArrays
from persian_rummy.vector._tables import (
    CARD_COLUMNS,
    EXTENSION_NEXT,
    MELD_BITS,
    MELD_JOKERS,
    MELD_SIZE,
    MELDS_WITH,
    NUM_MELDS,
)
from persian_rummy.vector._words import I32, card_bits, card_flags, card_words, has, or_reduce

__all__ = ["mask"]

Array = jax.Array


def table(k: Knobs, x: GameArrays) -> tuple[Array, Array, Array]:
    # The table's meld numbers (empty slots as NUM_MELDS), each meld's extension words
    # ([18, 2]) and their union ([2]).
    ids = jnp.where(x.meld_id < 0, NUM_MELDS, x.meld_id).astype(I32)
    extensions = jnp.asarray(k.extensions)[ids]
    return ids, extensions, or_reduce(extensions, 0)


def leftover_ok(low: Array, high: Array, jokers: Array, union: Array) -> Array:
    # Whether a one-card leftover (two words, a joker count) is among ``union`` (R19).
    ok: Array = (
        ((low & union[..., 0]) != 0)
        | ((high & union[..., 1]) != 0)
        | ((jokers > 0) & ((union[..., 1] & JOKER_BIT) != 0))
    )
    return ok


def others_union(extensions: Array) -> Array:
    # For each table meld, the union of the other melds' extensions ([18, 2]).
    others = ~jnp.eye(MAX_MELDS, dtype=bool)
    return or_reduce(jnp.where(others[:, :, None], extensions[None, :, :], np.uint32(0)), 1)


class _Mover(NamedTuple):
    # The mover's hand and the table, as the two halves of the mask read them.
    hand: Array  # int32[53]
    size: Array
    low: Array
    high: Array
    jokers: Array
    ids: Array
    extensions: Array
    union: Array
    except_union: Array | None


def mask(k: Knobs, x: GameArrays) -> Array:
    """The legal actions of the mover of a live position (``bool[1436]``); all False in a
    finished deal or game (the caller sets those all True)."""
    hand = x.hands[x.current_player].astype(I32)
    low, high = card_bits(hand)
    ids, extensions, union = table(k, x)
    mover = _Mover(
        hand,
        hand.sum(),
        low,
        high,
        hand[JOKER_INDEX],
        ids,
        extensions,
        union,
        others_union(extensions) if k.forbidden else None,
    )
    draw_phase = _draw_phase(k, x, mover)
    meld_phase = _meld_phase(k, x, mover)
    flags = jnp.concatenate([draw_phase & (x.phase == DRAW), meld_phase & (x.phase == MELD)])
    assert flags.shape == (NUM_ACTIONS,)
    assert PASS_INDEX == MAX_PILE + 1 and MELD_BASE == PASS_INDEX + 1
    assert LAY_OFF_BASE == MELD_BASE + NUM_MELDS and DISCARD_BASE == LAY_OFF_BASE + MAX_MELDS * CARD_COLUMNS
    return flags


def _meld_phase(k: Knobs, x: GameArrays, mover: _Mover) -> Array:
    # After the draw: melds (R8-R11, R15), lay-offs (R16), discards (R17), with the card
    # taken from the pile (R14) and the last card (R19).
    hand, size, low, high, jokers, ids, extensions, union, except_union = mover
    must = x.must_meld
    meld_bits = jnp.asarray(MELD_BITS)
    meld_jokers = jnp.asarray(MELD_JOKERS).astype(I32)
    meld_size = jnp.asarray(MELD_SIZE).astype(I32)
    held = (meld_bits[:, 0] & ~low) == 0
    held &= (meld_bits[:, 1] & ~high) == 0
    held &= meld_jokers <= jokers
    melds = jnp.asarray(k.allowed) & held
    holds_must = jnp.where(must == JOKER_INDEX, meld_jokers > 0, has(must, meld_bits[:, 0], meld_bits[:, 1]))
    melds &= (must < 0) | holds_must
    if k.forbidden:
        union_after = union[None, :] | jnp.asarray(k.extensions)
        left_low = low & ~meld_bits[:, 0]
        left_high = high & ~meld_bits[:, 1]
        ok = leftover_ok(left_low, left_high, jokers - meld_jokers, union_after)
        melds &= (size - meld_size != 1) | ok
    # The lay-offs in their numbering's order, card by card ([53, 18]): each table meld's
    # extensions that the hand holds (the card to meld alone after a take), found on words,
    # then spread to flags once (XLA's CPU backend spends about a nanosecond on each entry of
    # a small per-row array, and twice that to transpose one).
    held_words = jnp.stack([low, high | jnp.where(jokers > 0, JOKER_BIT, np.uint32(0))])
    if k.lay_off_pickup:
        must_words = jnp.where(must < 0, np.uint32(0xFFFFFFFF), jnp.stack(card_words(must)))
    else:
        must_words = jnp.where(must < 0, np.uint32(0xFFFFFFFF), np.uint32(0))
    slots = jnp.arange(MAX_MELDS) < x.num_melds
    laid = jnp.where(slots[:, None], extensions & held_words & must_words, np.uint32(0))  # [18, 2]
    lay_offs = card_flags(laid[:, 0], laid[:, 1])
    if except_union is not None:
        cards = jnp.arange(CARD_COLUMNS)
        ok = lay_off_ok(k, ids, except_union, low, high, jokers, cards[None, :])
        lay_offs &= ((size != 2) | ok).T
    discards = (hand > 0) & (must < 0)
    if k.forbidden:
        discards &= size >= 2
    return jnp.concatenate([melds[:NUM_MELDS], lay_offs.reshape(-1), discards])


def _draw_phase(k: Knobs, x: GameArrays, mover: _Mover) -> Array:
    # Before the draw: the stock (R12), the pile (R13-R14, R19), a pass (R20).
    _, size, low, high, jokers, ids, extensions, union, except_union = mover
    index = jnp.arange(MAX_PILE)
    in_pile = index < x.pile_size
    pile = jnp.where(in_pile, x.pile.astype(I32), 0)
    natural = in_pile & (pile < JOKER_INDEX)
    pile_low, pile_high = (jnp.where(natural, word, np.uint32(0)) for word in card_words(pile))
    pile_jokers = (in_pile & (pile == JOKER_INDEX)).astype(I32)
    # The cards taken with each index: every card from it to the top (suffix sums by a
    # scan, which XLA's CPU backend runs faster than its cumsum).
    taken_low = low | jax.lax.associative_scan(jnp.bitwise_or, pile_low, reverse=True)
    taken_high = high | jax.lax.associative_scan(jnp.bitwise_or, pile_high, reverse=True)
    taken_jokers = jokers + jax.lax.associative_scan(jnp.add, pile_jokers, reverse=True)
    if except_union is not None:
        usable = usable_forbidden(
            k, x, ids, extensions, union, except_union, pile, taken_low, taken_high, taken_jokers, size
        )
    else:
        pairs = jnp.asarray(k.pair_bits)[pile]  # [56, 7, 2]: each pair's two cards as words
        held = ((pairs[..., 0] & ~taken_low[:, None]) == 0) & ((pairs[..., 1] & ~taken_high[:, None]) == 0)
        natural_meld = jnp.any(held, axis=1) & (pile < JOKER_INDEX)
        joker_meld = (pile == JOKER_INDEX) & (taken_jokers >= 3)
        usable = natural_meld | joker_meld
        if k.lay_off_pickup:
            usable |= has(pile, union[0], union[1])
    top = index == x.pile_size - 1
    takes = in_pile & (usable | (top & (not k.rules.top_card_must_meld)))
    return jnp.concatenate([(x.stock_size > 0)[None], takes, (x.stock_size == 0)[None]])


def lay_off_ok(k: Knobs, ids: Array, except_union: Array, low: Array, high: Array, jokers: Array, card: Array) -> Array:
    # Under "forbidden": laying ``card`` off on each table meld leaves a hand of these two
    # words and jokers less the card; whether that one card can be laid off at once on the
    # grown table (R19). Shapes broadcast to [18, ...].
    grown = jnp.asarray(EXTENSION_NEXT)[ids[:, None], jnp.clip(card, 0, JOKER_INDEX)]
    grown = jnp.where(grown < 0, NUM_MELDS, grown)
    union = except_union[:, None, :] | jnp.asarray(k.extensions)[grown]
    natural = card < JOKER_INDEX
    card_low, card_high = card_words(card)
    left_low = low & ~jnp.where(natural, card_low, np.uint32(0))
    left_high = high & ~jnp.where(natural, card_high, np.uint32(0))
    left_jokers = jokers - (card == JOKER_INDEX)
    return leftover_ok(left_low, left_high, left_jokers, union)


def usable_forbidden(
    k: Knobs,
    x: GameArrays,
    ids: Array,
    extensions: Array,
    union: Array,
    except_union: Array,
    pile: Array,
    taken_low: Array,
    taken_high: Array,
    taken_jokers: Array,
    size: Array,
) -> Array:
    # Under last_card_discard="forbidden": each pile card is usable if the hand with every
    # card taken has a legal meld holding it or a legal lay-off of it (R14, R19).
    index = jnp.arange(MAX_PILE)
    count = size + x.pile_size - index  # [56]
    candidates = jnp.asarray(MELDS_WITH)[pile].astype(I32)  # [56, K]
    bits = jnp.asarray(MELD_BITS)[candidates]
    meld_jokers = jnp.asarray(MELD_JOKERS).astype(I32)[candidates]
    meld_size = jnp.asarray(MELD_SIZE).astype(I32)[candidates]
    low, high = taken_low[:, None], taken_high[:, None]
    jokers = taken_jokers[:, None]
    held = ((bits[..., 0] & ~low) == 0) & ((bits[..., 1] & ~high) == 0) & (meld_jokers <= jokers)
    held &= jnp.asarray(k.allowed)[candidates]
    union_after = union | jnp.asarray(k.extensions)[candidates]
    ok = leftover_ok(low & ~bits[..., 0], high & ~bits[..., 1], jokers - meld_jokers, union_after)
    melds = jnp.any(held & ((count[:, None] - meld_size != 1) | ok), axis=1)
    if not k.lay_off_pickup:
        return melds
    slots = jnp.arange(MAX_MELDS) < x.num_melds
    extends = has(pile[None, :], extensions[:, 0:1], extensions[:, 1:2]) & slots[:, None]  # [18, 56]
    ok = lay_off_ok(k, ids, except_union, taken_low[None, :], taken_high[None, :], taken_jokers[None, :], pile[None, :])
    lay_offs = jnp.any(extends & ((count[None, :] != 2) | ok), axis=0)
    return melds | lay_offs
