"""A seat's observation of one game: exactly :func:`~persian_rummy.observation.observation_tensor`
of that seat's :class:`~persian_rummy.PlayerView`, bit for bit, its planes placed by
:mod:`persian_rummy.observation`'s plane table (internal).

Every entry of the tensor is a whole number over a denominator that depends only on its place
(a count over 56, a score over 1000, the deal number over the deals, ...): the engine builds the
whole numbers block by block (the observation of an integer dtype) and turns them into the
``float32`` ones by tables of the quotients (:func:`to_float`), not by a division, which XLA's
CPU backend does not round correctly (30 of the 57 counts over 56 came out a bit off)."""

from __future__ import annotations

from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from persian_rummy.cards import JOKER_INDEX
from persian_rummy.encoding import MAX_PILE
from persian_rummy.observation import (
    CREDIT_PLANES,
    HAND_PLANE,
    LAID_OFF_PLANE,
    MELD_PLANES,
    MUST_MELD_PLANE,
    OBSERVATION_SHAPE,
    PILE_PLANE,
    REVEALED_PLANES,
    SCALAR_PLANE,
)
from persian_rummy.rules import Rules
from persian_rummy.vector._knobs import Knobs
from persian_rummy.vector._state import ROUND_OVER, GameArrays
from persian_rummy.vector._tables import CARD_COLUMNS, MELD_JOKERS, NUM_MELDS, OVER_56
from persian_rummy.vector._words import I32

__all__ = ["observe", "over_1000", "scale", "to_float"]

Array = jax.Array
_F32 = jnp.float32
_JOKER_SCALARS: Final = 28  # scalar columns 28-31: the jokers' pile positions
# How scalar column c becomes a float32: by its count over 56, its score over 1000, the deal
# over the deals, or cast and multiplied by _TIMES[c] (1, or 1/4 and 1/8: exact).
_BY_56, _BY_1000, _BY_DEALS, _CAST = 0, 1, 2, 3
_NONE: Final = MAX_PILE + 1  # above every pile position


def _scalar_kinds() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    kinds = np.full(CARD_COLUMNS, _CAST, np.int8)
    kinds[0:6] = kinds[_JOKER_SCALARS : _JOKER_SCALARS + 4] = _BY_56  # sizes, stock, pile; jokers
    kinds[6:8] = _BY_1000  # the scores (R23)
    kinds[20] = _BY_DEALS  # the deal number (R7)
    times = np.ones(CARD_COLUMNS, np.float32)
    times[21], times[22] = 0.25, 0.125  # passes in a row over 4 (R20), idle turns over 8 (R21)
    return kinds, times


_KINDS, _TIMES = _scalar_kinds()


def scale(rules: Rules) -> npt.NDArray[np.float32]:
    """The denominator of each entry of the observation (``float32[30, 53]``, read-only): 56
    for the pile positions and the card counts of the scalar plane, 1000 for the scores, the
    deals for the deal number, 4 for the passes, 8 for the idle turns, 1 elsewhere."""
    out = np.ones(OBSERVATION_SHAPE, np.float32)
    out[PILE_PLANE, :JOKER_INDEX] = 56  # (i + 1) / 56; the joker column counts jokers
    scalars = out[SCALAR_PLANE]
    scalars[_KINDS == _BY_56] = 56
    scalars[_KINDS == _BY_1000] = 1000
    scalars[_KINDS == _BY_DEALS] = rules.deals
    scalars[_KINDS == _CAST] = 1 / _TIMES[_KINDS == _CAST]
    out.flags.writeable = False
    return out


def _thousandths() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    # r / 1000 for r = 0-999 as float32 pairs, high + low (each rounded from float64).
    exact = np.arange(1000, dtype=np.float64) / 1000.0
    high = exact.astype(np.float32)
    return high, (exact - high.astype(np.float64)).astype(np.float32)


_THOUSANDTHS: Final = _thousandths()


def over_1000(scores: Array) -> Array:
    """Whole numbers over 1000 as the float32 nearest to the exact quotient (as the scalar
    tensor gives them, through float64), for any score (R23): the quotient's whole part plus
    the remainder's thousandths, held as a pair of float32 numbers and added without error
    before the one rounding."""
    whole = jnp.floor_divide(scores, 1000)
    rest = scores - 1000 * whole
    high, low = jnp.asarray(_THOUSANDTHS[0])[rest], jnp.asarray(_THOUSANDTHS[1])[rest]
    first = whole.astype(_F32)
    total = first + high
    back = total - first
    error = (first - (total - back)) + (high - back)
    result: Array = total + (error + low)
    return result


def _pile_float(block: Array) -> Array:
    # The pile plane's numerators ([..., 1, 53]) as float32: positions over 56, the jokers' count.
    natural = jnp.arange(CARD_COLUMNS) < JOKER_INDEX
    over_56 = jnp.asarray(OVER_56)[jnp.clip(block, 0, 56).astype(I32)]
    result: Array = jnp.where(natural, over_56, block.astype(_F32))
    return result


def _scalar_float(k: Knobs, block: Array) -> Array:
    # The scalar plane's numerators ([..., 1, 53]) as float32, column by column (_KINDS).
    row = block.astype(I32)
    kinds = jnp.asarray(_KINDS)
    by_deals = jnp.asarray(k.deal_fraction)[jnp.clip(row, 0, k.rules.deals)]
    cast = row.astype(_F32) * jnp.asarray(_TIMES)
    result: Array = jnp.where(
        kinds == _BY_56,
        jnp.asarray(OVER_56)[jnp.clip(row, 0, 56)],
        jnp.where(kinds == _BY_1000, over_1000(row), jnp.where(kinds == _BY_DEALS, by_deals, cast)),
    )
    return result


# The planes by how they become float32: cast, but the pile's and the scalars'.
assert PILE_PLANE < REVEALED_PLANES < SCALAR_PLANE == OBSERVATION_SHAPE[0] - 1


def to_float(k: Knobs, whole: Array) -> Array:
    """The ``float32`` observation of its whole numbers (``int[..., 30, 53]``), bit for bit."""
    pieces = [
        whole[..., :PILE_PLANE, :].astype(_F32),
        _pile_float(whole[..., PILE_PLANE : PILE_PLANE + 1, :]),
        whole[..., REVEALED_PLANES:SCALAR_PLANE, :].astype(_F32),
        _scalar_float(k, whole[..., SCALAR_PLANE:, :]),
    ]
    return jnp.concatenate(pieces, axis=-2)


def observe(k: Knobs, x: GameArrays, seat: Array, dtype: np.dtype[Any]) -> Array:
    """The observation of ``seat`` (0-3): ``float32[30, 53]``, or with an integer ``dtype`` its
    whole numbers (the ``float32`` one divides them by :func:`scale`). Each block of planes is
    made in a small dtype and converted as the blocks are joined, so that no temporary of the
    whole tensor is made."""
    blocks = _blocks(x, seat)
    if np.issubdtype(dtype, np.integer):
        return jnp.concatenate([block.astype(dtype) for _, block in blocks])
    pieces = [
        _pile_float(block)
        if first == PILE_PLANE
        else _scalar_float(k, block)
        if first == SCALAR_PLANE
        else block.astype(_F32)
        for first, block in blocks
    ]
    return jnp.concatenate(pieces)


def _blocks(x: GameArrays, seat: Array) -> list[tuple[int, Array]]:
    # The observation's blocks of planes as whole numbers, by their first plane, in order.
    relative = (seat + jnp.arange(4)) % 4  # the viewer, its left, its partner, its right
    hands = x.hands
    pile_plane, joker_columns = _pile(x)
    blocks = {
        HAND_PLANE: hands[seat][None],
        **_table(x, relative),
        PILE_PLANE: pile_plane[None],
        REVEALED_PLANES: jnp.where(x.phase >= ROUND_OVER, hands[relative[1:]], jnp.int8(0)),  # R23, R27
        SCALAR_PLANE: _scalars(x, seat, relative, joker_columns)[None],
    }
    assert sum(block.shape[0] for block in blocks.values()) == OBSERVATION_SHAPE[0]
    return sorted(blocks.items(), key=lambda item: item[0])


def _table(x: GameArrays, relative: Array) -> dict[int, Array]:
    # The table's planes: each meld's cards, the credits by relative seat (R16, R23), the cards
    # laid off (R16, R24) and the card to meld (R14). A natural card is in one meld at most, so
    # its credited seat is the largest over the melds (-1 off the table) and whether it was
    # laid off is any over them: one reduction each, not one a seat. Counts are at most 4 and
    # the pile positions at most 56: int8 (the scalars: int32).
    ids = jnp.where(x.meld_id < 0, NUM_MELDS, x.meld_id).astype(I32)
    seats = x.meld_seat  # a card's seat where the meld holds it, else -1 (validated so)
    meld_jokers = jnp.asarray(MELD_JOKERS)[ids]
    laid_joker = (x.joker_seat >= 0).astype(I32)
    # The jokers credited to each relative seat: those a seat melded, less one laid off by
    # another on a set of three jokers (R11), and that one to the seat that laid it off.
    joker_owner = seats[:, JOKER_INDEX].astype(I32)[None, :] == relative[:, None]  # [4, 18]
    joker_layer = x.joker_seat.astype(I32)[None, :] == relative[:, None]
    jokers = jnp.sum(
        jnp.where(joker_owner, meld_jokers.astype(I32) - laid_joker, 0) + jnp.where(joker_layer, laid_joker, 0), axis=1
    )
    owner = jnp.max(seats[:, :JOKER_INDEX], axis=0)
    columns = jnp.arange(CARD_COLUMNS)
    must = ((columns == x.must_meld) & (x.must_meld >= 0)).astype(jnp.int8)
    return {
        MELD_PLANES: _with_jokers((seats[:, :JOKER_INDEX] >= 0).astype(jnp.int8), meld_jokers),
        CREDIT_PLANES: _with_jokers((owner[None, :] == relative[:, None]).astype(jnp.int8), jokers),
        LAID_OFF_PLANE: _with_jokers(jnp.any(x.meld_laid[:, :JOKER_INDEX], axis=0)[None], jnp.sum(laid_joker)[None]),
        MUST_MELD_PLANE: must[None],
    }


def _with_jokers(naturals: Array, jokers: Array) -> Array:
    # Planes of 52 natural columns and their joker counts joined ([n, 53], int8).
    return jnp.concatenate([naturals.astype(jnp.int8), jokers.astype(jnp.int8)[:, None]], axis=1)


def _pile(x: GameArrays) -> tuple[Array, Array]:
    # The pile plane: each natural card's position i + 1 (over 56), the jokers' count; the
    # jokers' positions, lowest first, as scalar columns 28-31 (R13), found by four minima
    # (0 for a joker not in the pile).
    index = jnp.arange(MAX_PILE)
    pile = x.pile.astype(I32)
    in_pile = index < x.pile_size
    positions = index + 1
    is_natural = in_pile & (pile >= 0) & (pile < JOKER_INDEX)
    where = jnp.where(is_natural, pile, CARD_COLUMNS)
    plane = jnp.zeros(CARD_COLUMNS, jnp.int8).at[where].set(positions.astype(jnp.int8), mode="drop")
    is_joker = in_pile & (pile == JOKER_INDEX)
    plane = plane.at[JOKER_INDEX].set(jnp.sum(is_joker, dtype=jnp.int8))
    found, last = [], jnp.int32(0)
    for _ in range(4):  # each the lowest joker above the one found before
        last = jnp.min(jnp.where(is_joker & (positions > last), positions, _NONE))
        found.append(last)
    joker_columns = jnp.stack(found)
    return plane, jnp.where(joker_columns == _NONE, 0, joker_columns)


def _scalars(x: GameArrays, seat: Array, relative: Array, joker_columns: Array) -> Array:
    # The scalar plane's numerators, column by column as persian_rummy.observation lists it.
    sizes = x.hands.astype(I32).sum(axis=1)
    scores = jnp.where(seat % 2 == 0, x.scores, x.scores[::-1])
    four = jnp.arange(4)
    return jnp.concatenate(
        [
            sizes[relative],
            x.stock_size[None],
            x.pile_size[None],
            scores,
            (four == x.phase).astype(I32),
            (four == (x.current_player - seat) % 4).astype(I32),
            (four == (x.dealer - seat) % 4).astype(I32),
            x.deal_number[None],
            x.passes[None],
            x.idle_turns[None],
            x.turn_progress.astype(I32)[None],
            ((four == (x.went_out - seat) % 4) & (x.went_out >= 0)).astype(I32),
            joker_columns,
            jnp.zeros(CARD_COLUMNS - 32, I32),
        ]
    ).astype(I32)
