"""A seat's observation of one game: exactly :func:`~persian_rummy.observation.observation_tensor`
of that seat's :class:`~persian_rummy.PlayerView`, bit for bit, its planes placed by
:mod:`persian_rummy.observation`'s plane table (internal)."""

from __future__ import annotations

from typing import Final

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
from persian_rummy.vector._knobs import Knobs
from persian_rummy.vector._state import ROUND_OVER, Position
from persian_rummy.vector._tables import CARD_COLUMNS, MELD_COUNTS, MELD_JOKERS, NUM_MELDS, OVER_56
from persian_rummy.vector._words import I32

__all__ = ["observe", "over_1000"]

Array = jax.Array
_F32 = jnp.float32


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


def observe(k: Knobs, x: Position, seat: Array) -> Array:
    """The observation of ``seat`` (0-3), ``float32[30, 53]``."""
    relative = (seat + jnp.arange(4)) % 4  # the viewer, its left, its partner, its right
    hands = x.hands.astype(_F32)
    pile_plane, joker_columns = _pile(x)
    blocks = {
        HAND_PLANE: hands[seat][None],
        **_table(x, relative),
        PILE_PLANE: pile_plane[None],
        REVEALED_PLANES: jnp.where(x.phase >= ROUND_OVER, hands[relative[1:]], np.float32(0)),  # R23, R27
        SCALAR_PLANE: _scalars(k, x, seat, relative, joker_columns)[None],
    }
    planes = jnp.concatenate([blocks[first] for first in sorted(blocks)])
    assert planes.shape == OBSERVATION_SHAPE
    return planes


def _table(x: Position, relative: Array) -> dict[int, Array]:
    # The table's planes: each meld's cards, the credits by relative seat (R16, R23), the cards
    # laid off (R16, R24) and the card to meld (R14).
    ids = jnp.where(x.meld_id < 0, NUM_MELDS, x.meld_id).astype(I32)
    credited = x.meld_seat.astype(I32)
    columns = jnp.arange(CARD_COLUMNS)
    natural = columns < JOKER_INDEX
    laid_joker = (x.joker_seat >= 0).astype(I32)
    owner_jokers = jnp.asarray(MELD_JOKERS).astype(I32)[ids] - laid_joker
    joker_owner = credited[:, JOKER_INDEX]
    joker_seat = x.joker_seat.astype(I32)

    def credit(who: Array) -> Array:
        naturals = jnp.sum((credited == who) & natural[None, :], axis=0).astype(_F32)
        jokers = jnp.sum(jnp.where(joker_owner == who, owner_jokers, 0) + jnp.where(joker_seat == who, laid_joker, 0))
        return naturals.at[JOKER_INDEX].set(jokers.astype(_F32))

    laid = jnp.sum(x.meld_laid & natural[None, :], axis=0).astype(_F32)
    laid = laid.at[JOKER_INDEX].set(jnp.sum(laid_joker).astype(_F32))
    must = ((columns == x.must_meld) & (x.must_meld >= 0)).astype(_F32)
    return {
        MELD_PLANES: jnp.asarray(MELD_COUNTS).astype(_F32)[ids],
        CREDIT_PLANES: jnp.stack([credit(who) for who in relative]),
        LAID_OFF_PLANE: laid[None],
        MUST_MELD_PLANE: must[None],
    }


def _pile(x: Position) -> tuple[Array, Array]:
    # The pile plane: each natural card's position (i + 1) / 56, the jokers' count; the
    # jokers' positions, lowest first, as scalar columns 28-31 (R13).
    over_56 = jnp.asarray(OVER_56)
    index = jnp.arange(MAX_PILE)
    pile = x.pile.astype(I32)
    in_pile = index < x.pile_size
    positions = over_56[index + 1]
    is_natural = in_pile & (pile >= 0) & (pile < JOKER_INDEX)
    plane = jnp.zeros(CARD_COLUMNS, _F32).at[jnp.where(is_natural, pile, CARD_COLUMNS)].set(positions, mode="drop")
    is_joker = in_pile & (pile == JOKER_INDEX)
    plane = plane.at[JOKER_INDEX].set(jnp.sum(is_joker).astype(_F32))
    joker_rank = jnp.cumsum(is_joker) - 1  # the how-many-th joker of the pile each is
    joker_columns = jnp.zeros(4, _F32).at[jnp.where(is_joker, joker_rank, 4)].set(positions, mode="drop")
    return plane, joker_columns


def _scalars(k: Knobs, x: Position, seat: Array, relative: Array, joker_columns: Array) -> Array:
    # The scalar plane, column by column as persian_rummy.observation lists it.
    over_56 = jnp.asarray(OVER_56)
    sizes = x.hands.astype(I32).sum(axis=1)
    scores = jnp.where(seat % 2 == 0, x.scores, x.scores[::-1])
    four = jnp.arange(4)
    return jnp.concatenate(
        [
            over_56[sizes[relative]],
            over_56[x.stock_size][None],
            over_56[x.pile_size][None],
            over_1000(scores),
            (four == x.phase).astype(_F32),
            (four == (x.current_player - seat) % 4).astype(_F32),
            (four == (x.dealer - seat) % 4).astype(_F32),
            jnp.asarray(k.deal_fraction)[x.deal_number][None],
            (x.passes.astype(_F32) / np.float32(4))[None],
            (x.idle_turns.astype(_F32) / np.float32(8))[None],
            x.turn_progress.astype(_F32)[None],
            ((four == (x.went_out - seat) % 4) & (x.went_out >= 0)).astype(_F32),
            joker_columns,
            jnp.zeros(CARD_COLUMNS - 32, _F32),
        ]
    )
