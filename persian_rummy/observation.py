"""Observation tensors: a seat's :class:`~persian_rummy.PlayerView` as a numpy array (needs the
``[rl]`` extra).

:func:`observation_tensor` reads the view alone, so it can show nothing the seat has not seen
(R27): two states that one seat cannot tell apart give that seat the same tensor. The array is
``float32`` with shape :data:`OBSERVATION_SHAPE` = ``(80, 53)``: 80 planes of 53 columns, one
column per card (:attr:`~persian_rummy.Card.index`: ♠2…♠A, ♥2…♥A, ♦2…♦A, ♣2…♣A, then the
joker, whose column holds a count 0-4, since the four jokers are one card, R1). Seats are
relative to the viewer: 0 is the viewer, 1 the seat on its left, 2 its partner, 3 its right.

=========  ==================================================================================
Plane      Contents
=========  ==================================================================================
0          the viewer's hand
1 – 18     table meld 0-17 (:data:`~persian_rummy.encoding.MAX_MELDS` slots, in table order,
           the lay-off numbering of :mod:`~persian_rummy.encoding`), its cards
19         table cards credited to the viewer's team (R16, R23)
20         table cards credited to the other team
21         table cards laid off after their meld was made (R16, R24: a set of four with a
           lay-off is not doubled)
22         the card that must be melded next (R14), if any
23 – 78    the discard pile, one plane per position from the bottom: plane ``23 + i`` marks
           the card at ``discard_pile[i]`` (``take i``, R13)
79         scalars, by column (below)
=========  ==================================================================================

The scalar plane (79), by column: 0-3 the hand sizes by relative seat, divided by 56; 4 the
stock size / 56; 5 the pile size / 56; 6-7 the scores of the viewer's team and of the other
team / 1000, clipped to ±10 (R23); 8-10 the phase: draw, meld, round or game over (one-hot);
11-14 the seat to move (relative, one-hot); 15-18 the dealer (relative, one-hot); 19 the deal
number / deals (R7); 20 passes in a row / 4 (R20); 21 idle turns / 8 (R21); 22 whether this
turn has drawn from the stock or added to the table (R21); 23-26 the seat that went out
(relative, one-hot, R18); the other columns are 0.

>>> from persian_rummy import new_game
>>> tensor = observation_tensor(new_game(1).view(1))
>>> tensor.shape == OBSERVATION_SHAPE, tensor.dtype, int(tensor[0].sum()), int(tensor[0, 52])
(True, dtype('float32'), 7, 2)
>>> OBSERVATION_LOW.shape == OBSERVATION_HIGH.shape == OBSERVATION_SHAPE
True

:func:`action_mask` is :func:`~persian_rummy.encoding.legal_mask` as an ``int8`` array.
"""

from __future__ import annotations

import struct
from typing import Final

from persian_rummy._extras import needs_extra

with needs_extra("rl", __name__):
    import numpy as np
    import numpy.typing as npt

from persian_rummy.cards import JOKER_INDEX
from persian_rummy.encoding import MAX_MELDS, MAX_PILE, legal_flags
from persian_rummy.hand import Hand
from persian_rummy.melds import Meld
from persian_rummy.state import GameState, Phase, team_of
from persian_rummy.view import PlayerView

__all__ = [
    "CARD_COLUMNS",
    "OBSERVATION_HIGH",
    "OBSERVATION_LOW",
    "OBSERVATION_SHAPE",
    "PLANES",
    "action_mask",
    "observation_tensor",
    "seat_tensor",
]

#: One column per distinct card: 52 naturals and the joker (R1).
CARD_COLUMNS: Final = JOKER_INDEX + 1
HAND_PLANE: Final = 0
MELD_PLANES: Final = 1
OWN_CREDIT_PLANE: Final = MELD_PLANES + MAX_MELDS
OTHER_CREDIT_PLANE: Final = OWN_CREDIT_PLANE + 1
LAID_OFF_PLANE: Final = OTHER_CREDIT_PLANE + 1
MUST_MELD_PLANE: Final = LAID_OFF_PLANE + 1
PILE_PLANES: Final = MUST_MELD_PLANE + 1
SCALAR_PLANE: Final = PILE_PLANES + MAX_PILE
#: The number of planes.
PLANES: Final = SCALAR_PLANE + 1
#: The shape of :func:`observation_tensor`'s array: (planes, card columns).
OBSERVATION_SHAPE: Final = (PLANES, CARD_COLUMNS)
_SCORE_SCALE: Final = 1000.0
_SCORE_CLIP: Final = 10.0


def _bounds() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    low = np.zeros(OBSERVATION_SHAPE, np.float32)
    high = np.ones(OBSERVATION_SHAPE, np.float32)
    high[:PILE_PLANES, JOKER_INDEX] = 4.0  # up to four jokers (R1)
    low[SCALAR_PLANE, 6:8] = -_SCORE_CLIP
    high[SCALAR_PLANE, 6:8] = _SCORE_CLIP
    high.flags.writeable = low.flags.writeable = False
    return low, high


#: The least and greatest value of each entry of the tensor (read-only arrays), for spaces.
OBSERVATION_LOW, OBSERVATION_HIGH = _bounds()


_ROW: Final = CARD_COLUMNS
_F32: Final = np.dtype(np.float32)
# An environment builds a tensor at every step, so the tensor is joined from pieces of float32
# bytes, nearly all of them looked up rather than computed, into the buffer of the array; the
# only numpy call is the one that wraps the buffer. The pieces:
# - a suit's 13 hand columns by the suit's 13 bits, and a card's one-hot row (the pile planes
#   and the card to meld);
# - the table planes (1-21), cached twice over because melds are immutable and shared from one
#   state to the next: per meld, its card row and its team 0 credit, team 1 credit and lay-off
#   rows as integers of one byte per card column (a column counts at most four cards, so sums
#   never carry); per melds tuple, the finished planes for a viewer of team 0 and of team 1.
#   These two caches are keyed by id and keep the object, so that the id stays its own;
# - the scalar plane's columns: each count over 56 by the count, the one-hot columns by what
#   they show, the scores' pair by the scores (cached, as scores change once a deal).


def _floats(counts: bytes) -> bytes:
    """Whole numbers of one byte each, as float32 bytes."""
    return np.frombuffer(counts, np.uint8).astype(np.float32).tobytes()


def _float32(value: float) -> bytes:
    """One number as float32 bytes (rounded to the nearest float32, as numpy stores it)."""
    return struct.pack("=f", value)


_ONE_HOT: Final = tuple(_floats(bytes(index) + b"\x01" + bytes(_ROW - index - 1)) for index in range(_ROW))
_EMPTY_ROW: Final = _floats(bytes(_ROW))
_NO_PILE: Final = memoryview(_EMPTY_ROW * MAX_PILE)  # sliced without a copy
_JOKER_COUNTS: Final = tuple(_floats(bytes((count,))) for count in range(5))  # at most four jokers (R1)
_SUIT_BITS: Final = (1 << 13) - 1


def _suit_columns() -> tuple[bytes, ...]:
    """Every suit's 13 columns by its 13 bits (about 700 KB): all made by one numpy call."""
    table = (np.arange(_SUIT_BITS + 1)[:, np.newaxis] >> np.arange(13) & 1).astype(np.float32).tobytes()
    return tuple(table[52 * bits : 52 * bits + 52] for bits in range(_SUIT_BITS + 1))


_SUIT_COLUMNS: Final = _suit_columns()
_MELD_ROWS: dict[int, tuple[Meld, bytes, int, int, int]] = {}
_TABLE_ROWS: dict[int, tuple[tuple[Meld, ...], bytes, bytes]] = {}
_CACHE_LIMIT: Final = 4096
_TABLE_CACHE_LIMIT: Final = 512  # two times 4.5 KB each
_EMPTY_ROWS: Final = bytes(_ROW * MAX_MELDS)
# Scalar columns 0-5: a count of cards over 56, by the count.
_OVER_56: Final = tuple(_float32(count / 56.0) for count in range(57))
# Columns 8-18 by 16 * phase (0 draw, 1 meld, 2 over) + 4 * seat to move + dealer (both
# relative); 23-26 by the relative seat that went out (4 for nobody).
_TURN_COLUMNS: Final = tuple(
    _floats(bytes(column in (phase, 3 + mover, 7 + dealer) for column in range(11)))
    for phase in range(3)
    for mover in range(4)
    for dealer in range(4)
)
_WENT_OUT_COLUMNS: Final = tuple(_floats(bytes(column == seat for column in range(4))) for seat in range(5))
_SCALAR_TAIL: Final = bytes(4 * (CARD_COLUMNS - 27))
_PASSES: Final = tuple(_float32(passes / 4.0) for passes in range(5))  # column 20, passes up to 4
_IDLE: Final = tuple(_float32(idle / 8.0) for idle in range(9))  # column 21, idle turns up to 8
_PROGRESS: Final = (_float32(0.0), _float32(1.0))
_SCORES: dict[tuple[int, int], bytes] = {}
_DEALS: dict[tuple[int, int], bytes] = {}  # at most DEALS_LIMIT squared entries (the deals knob's limit)


def _scores(own: int, other: int) -> bytes:
    """Scalar columns 6-7: the scores over 1000, clipped to plus or minus 10."""
    found = _SCORES.get((own, other))
    if found is None:
        found = _float32(min(max(own / _SCORE_SCALE, -_SCORE_CLIP), _SCORE_CLIP)) + _float32(
            min(max(other / _SCORE_SCALE, -_SCORE_CLIP), _SCORE_CLIP)
        )
        if len(_SCORES) >= _CACHE_LIMIT:
            _SCORES.clear()
        _SCORES[own, other] = found
    return found


def _deal(number: int, deals: int) -> bytes:
    """Scalar column 19: the deal number over the deals."""
    found = _DEALS.get((number, deals))
    if found is None:
        found = _DEALS[number, deals] = _float32(number / deals)
    return found


def _meld_rows(meld: Meld) -> tuple[Meld, bytes, int, int, int]:
    found = _MELD_ROWS.get(id(meld))
    if found is not None and found[0] is meld:
        return found
    cards = bytearray(_ROW)
    credit = [bytearray(_ROW), bytearray(_ROW)]
    laid = bytearray(_ROW)
    for card, credited, laid_off in zip(meld.cards, meld.seats, meld.laid_off, strict=True):
        cards[card.index] += 1
        credit[team_of(credited)][card.index] += 1
        if laid_off:
            laid[card.index] += 1
    if len(_MELD_ROWS) >= _CACHE_LIMIT:
        _MELD_ROWS.clear()
    found = _MELD_ROWS[id(meld)] = (
        meld,
        bytes(cards),
        int.from_bytes(credit[0], "little"),
        int.from_bytes(credit[1], "little"),
        int.from_bytes(laid, "little"),
    )
    return found


def _table_rows(melds: tuple[Meld, ...], team: int) -> bytes:
    found = _TABLE_ROWS.get(id(melds))
    if found is None or found[0] is not melds:
        rows = [_meld_rows(meld) for meld in melds[:MAX_MELDS]]
        cards = b"".join(row[1] for row in rows) + _EMPTY_ROWS[: _ROW * (MAX_MELDS - len(rows))]
        team0 = sum(row[2] for row in rows).to_bytes(_ROW, "little")
        team1 = sum(row[3] for row in rows).to_bytes(_ROW, "little")
        laid = sum(row[4] for row in rows).to_bytes(_ROW, "little")
        planes = _floats(cards + team0 + team1 + laid)
        # The other team's view swaps the two credit planes (19 and 20).
        credits = 4 * _ROW * MAX_MELDS
        swapped = planes[:credits] + planes[credits + 4 * _ROW : credits + 8 * _ROW]
        swapped += planes[credits : credits + 4 * _ROW] + planes[credits + 8 * _ROW :]
        if len(_TABLE_ROWS) >= _TABLE_CACHE_LIMIT:
            _TABLE_ROWS.clear()
        found = _TABLE_ROWS[id(melds)] = (melds, planes, swapped)
    return found[2] if team else found[1]


def observation_tensor(view: PlayerView) -> npt.NDArray[np.float32]:
    """The viewer's observation as a ``float32`` array of shape :data:`OBSERVATION_SHAPE`
    (the planes are listed in the module documentation). It reads ``view`` alone.

    >>> from persian_rummy import new_game
    >>> view = new_game(1).view(0)
    >>> tensor = observation_tensor(view)
    >>> [str(card) for card in view.discard_pile], float(tensor[23, 0])
    (['2s'], 1.0)
    >>> (tensor[79, :6] * 56).round().tolist()  # hand sizes, stock, pile
    [7.0, 7.0, 7.0, 7.0, 27.0, 1.0]
    """
    return _tensor(view, view.seat, view.hand, view.hand_sizes, view.stock_size)


def seat_tensor(state: GameState, seat: int) -> npt.NDArray[np.float32]:
    """``observation_tensor(state.view(seat))``, without building the view (for the
    environments, which hold the full state); it reads only what the view holds.

    >>> from persian_rummy import new_game
    >>> state = new_game(1)
    >>> bool((seat_tensor(state, 2) == observation_tensor(state.view(2))).all())
    True
    """
    first, second, third, fourth = hands = state.hands
    sizes = (
        first.mask.bit_count() + first.jokers,
        second.mask.bit_count() + second.jokers,
        third.mask.bit_count() + third.jokers,
        fourth.mask.bit_count() + fourth.jokers,
    )
    return _tensor(state, seat, hands[seat], sizes, len(state.stock))


def _tensor(
    view: GameState | PlayerView, seat: int, hand: Hand, sizes: tuple[int, ...], stock_size: int
) -> npt.NDArray[np.float32]:
    """The tensor of ``seat``, from the public fields of ``view`` (a view, or the state it is a
    view of) and the seat's hand, the hand sizes and the stock size."""
    team = team_of(seat)
    mask = hand.mask
    suits = _SUIT_COLUMNS
    one_hot = _ONE_HOT
    over_56 = _OVER_56
    pile = view.discard_pile
    must = view.must_meld
    scores = view.scores
    phase = view.phase
    went_out = view.went_out
    planes = bytearray().join(
        (
            suits[mask & _SUIT_BITS],
            suits[mask >> 13 & _SUIT_BITS],
            suits[mask >> 26 & _SUIT_BITS],
            suits[mask >> 39],
            _JOKER_COUNTS[hand.jokers],
            _table_rows(view.melds, team),
            _EMPTY_ROW if must is None else one_hot[must.index],
            *[one_hot[card.index] for card in pile],
            _NO_PILE[: 4 * _ROW * (MAX_PILE - len(pile))],
            over_56[sizes[seat]],
            over_56[sizes[(seat + 1) % 4]],
            over_56[sizes[(seat + 2) % 4]],
            over_56[sizes[(seat + 3) % 4]],
            over_56[stock_size],
            over_56[len(pile)],
            _scores(scores[0], scores[1]) if team == 0 else _scores(scores[1], scores[0]),
            _TURN_COLUMNS[
                (0 if phase is Phase.DRAW else 16 if phase is Phase.MELD else 32)
                + 4 * ((view.current_player - seat) % 4)
                + (view.dealer - seat) % 4
            ],
            _deal(view.deal_number, view.rules.deals),
            _PASSES[min(view.consecutive_passes, 4)],
            _IDLE[min(view.idle_turns, 8)],
            _PROGRESS[view.turn_progress],
            _WENT_OUT_COLUMNS[4 if went_out is None else (went_out - seat) % 4],
            _SCALAR_TAIL,
        )
    )
    tensor: npt.NDArray[np.float32] = np.ndarray(OBSERVATION_SHAPE, _F32, planes)
    return tensor


def action_mask(state_or_view: GameState | PlayerView) -> npt.NDArray[np.int8]:
    """:func:`~persian_rummy.encoding.legal_mask` as an ``int8`` array of ``NUM_ACTIONS`` flags.

    >>> from persian_rummy import new_game
    >>> mask = action_mask(new_game(1).view(1))
    >>> mask.shape, mask.dtype, mask.nonzero()[0].tolist()
    ((1436,), dtype('int8'), [0])
    """
    return np.frombuffer(bytearray(legal_flags(state_or_view)), np.int8)
