"""Observation tensors: a seat's :class:`~persian_rummy.PlayerView` as a numpy array (needs the
``[rl]`` extra).

:func:`observation_tensor` reads the view alone, so it can show nothing the seat has not seen
(R27): two states that one seat cannot tell apart give that seat the same tensor. It is also
lossless: given the viewer's seat and the rules (which an environment fixes), the view can be
read back from the tensor, every field of it. The array is ``float32`` with shape
:data:`OBSERVATION_SHAPE` = ``(30, 53)``, 1,590 values: 30 planes of 53 columns, one column per
card (:attr:`~persian_rummy.Card.index`: ♠2…♠A, ♥2…♥A, ♦2…♦A, ♣2…♣A, then the joker, whose
column holds a count 0-4, since the four jokers are one card, R1). Seats are relative to the
viewer: 0 is the viewer, 1 the seat on its left, 2 its partner, 3 its right.

=========  ==================================================================================
Plane      Contents
=========  ==================================================================================
0          the viewer's hand
1 – 18     table meld 0-17 (:data:`~persian_rummy.encoding.MAX_MELDS` slots, in table order,
           the lay-off numbering of :mod:`~persian_rummy.encoding`), its cards
19 – 22    table cards credited to relative seat 0-3 (R16, R23; a team's cards are its two
           seats' planes)
23         table cards laid off after their meld was made (R16, R24: a set of four with a
           lay-off is not doubled)
24         the card that must be melded next (R14), if any
25         the discard pile (R13): a natural card's column holds ``(i + 1) / 56`` where ``i``
           is its index from the bottom (the card of ``take i``), 0 if it is not in the pile;
           the joker column holds the number of jokers in the pile, their positions are
           scalar columns 28-31
26 – 28    once the round is over (R23), the hand of relative seat 1, 2, 3; zeros while the
           round is played (R27)
29         scalars, by column (below)
=========  ==================================================================================

The scalar plane (29), by column: 0-3 the hand sizes by relative seat, divided by 56; 4 the
stock size / 56; 5 the pile size / 56; 6-7 the scores of the viewer's team and of the other
team / 1000 (R23); 8-11 the phase: draw, meld, round over, game over (one-hot); 12-15 the seat
to move (relative, one-hot); 16-19 the dealer (relative, one-hot); 20 the deal number / deals
(R7); 21 passes in a row / 4 (R20); 22 idle turns / 8 (R21); 23 whether this turn has drawn
from the stock or added to the table (R21); 24-27 the seat that went out (relative, one-hot,
R18); 28-31 the positions of the jokers in the pile, ``(i + 1) / 56`` each, lowest first, 0
where there are fewer jokers; the other columns are 0.

Every value is the ``float32`` nearest to the exact quotient (a count, a position or a score
over its divisor), so the tensor is the same bit for bit whichever way it is computed.

>>> from persian_rummy import new_game
>>> tensor = observation_tensor(new_game(1).view(1))
>>> tensor.shape == OBSERVATION_SHAPE, tensor.size, tensor.dtype, int(tensor[0].sum()), int(tensor[0, 52])
(True, 1590, dtype('float32'), 7, 2)
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

from persian_rummy._bits import partner_of, whole_number
from persian_rummy._cache import identity_cached
from persian_rummy.cards import JOKER_INDEX, Card
from persian_rummy.encoding import MAX_MELDS, legal_flags
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, InvalidStateError
from persian_rummy.hand import Hand
from persian_rummy.limits import SCORE_LIMIT
from persian_rummy.melds import Meld
from persian_rummy.state import PLAYERS, GameState, Phase, team_of
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
CREDIT_PLANES: Final = MELD_PLANES + MAX_MELDS
LAID_OFF_PLANE: Final = CREDIT_PLANES + PLAYERS
MUST_MELD_PLANE: Final = LAID_OFF_PLANE + 1
PILE_PLANE: Final = MUST_MELD_PLANE + 1
REVEALED_PLANES: Final = PILE_PLANE + 1
SCALAR_PLANE: Final = REVEALED_PLANES + PLAYERS - 1
#: The number of planes.
PLANES: Final = SCALAR_PLANE + 1
#: The named pieces of the tensor, in order, as OpenSpiel's observer gives them by name (as
#: OpenSpiel's own games give theirs in an observer's ``dict``): each name with its first plane
#: and its number of planes. One plane is a piece of 53 values, one per card column; several
#: are an array of shape (planes, 53). Together they are the whole tensor.
PIECES: Final = (
    ("hand", HAND_PLANE, 1),
    ("melds", MELD_PLANES, MAX_MELDS),
    ("credited", CREDIT_PLANES, PLAYERS),
    ("laid_off", LAID_OFF_PLANE, 1),
    ("must_meld", MUST_MELD_PLANE, 1),
    ("discard_pile", PILE_PLANE, 1),
    ("revealed_hands", REVEALED_PLANES, PLAYERS - 1),
    ("scalars", SCALAR_PLANE, 1),
)
#: The shape of :func:`observation_tensor`'s array: (planes, card columns).
OBSERVATION_SHAPE: Final = (PLANES, CARD_COLUMNS)
_SCORE_SCALE: Final = 1000.0
_JOKER_SCALARS: Final = 28  # scalar columns 28-31: the jokers' pile positions


def _bounds() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    low = np.zeros(OBSERVATION_SHAPE, np.float32)
    high = np.ones(OBSERVATION_SHAPE, np.float32)
    # Up to four jokers (R1) in a hand, on the table, in the pile; the card to meld is one card.
    high[:MUST_MELD_PLANE, JOKER_INDEX] = high[PILE_PLANE:SCALAR_PLANE, JOKER_INDEX] = 4.0
    low[SCALAR_PLANE, 6:8] = -SCORE_LIMIT / _SCORE_SCALE
    high[SCALAR_PLANE, 6:8] = SCORE_LIMIT / _SCORE_SCALE
    high.flags.writeable = low.flags.writeable = False
    return low, high


#: The least and greatest value of each entry of the tensor (read-only arrays), for spaces.
OBSERVATION_LOW, OBSERVATION_HIGH = _bounds()


_ROW: Final = CARD_COLUMNS
_F32: Final = np.dtype(np.float32)
# An environment builds a tensor at every step, so the tensor is joined from pieces of float32
# bytes, nearly all of them looked up rather than computed, into the buffer of the array; the
# only numpy call is the one that wraps the buffer. The pieces:
# - a suit's 13 hand columns by the suit's 13 bits, and a card's one-hot row (the card to meld);
# - the table planes (1-23), cached twice over because melds are immutable and shared from one
#   state to the next: per meld, its card row, its credit row for each seat and its lay-off
#   row as integers of one byte per card column (a column counts at most four cards, so sums
#   never carry); per melds tuple, the finished meld planes, the credit plane of each seat and
#   the lay-off plane, which a viewer's tensor joins in its seats' order. These two caches are
#   the package's identity-keyed ones (persian_rummy._cache), bounded and emptied when full;
# - the pile plane, one column a card, by the card's position; kept for the last pile seen,
#   as four seats (and the steps that do not change the pile) ask for the same one, and
#   patched when the pile has grown by a discard;
# - the scalar plane's columns: each count over 56 by the count, the one-hot columns by what
#   they show, the scores' pair by the scores (cached, as scores change once a deal).
# Threads need no lock: every cache holds values computed from immutable arguments alone, so
# two threads that miss at once store equal values, and the last pile is one tuple, read and
# replaced whole.


def _floats(counts: bytes) -> bytes:
    """Whole numbers of one byte each, as float32 bytes."""
    return np.frombuffer(counts, np.uint8).astype(np.float32).tobytes()


def _float32(value: float) -> bytes:
    """One number as float32 bytes (rounded to the nearest float32, as numpy stores it)."""
    return struct.pack("=f", value)


_ONE_HOT: Final = tuple(_floats(bytes(index) + b"\x01" + bytes(_ROW - index - 1)) for index in range(_ROW))
_EMPTY_ROW: Final = _floats(bytes(_ROW))
_ZERO: Final = _float32(0.0)
_NO_REVEALED: Final = _EMPTY_ROW * (PLAYERS - 1)
# By seat: the seats on its left, across (its partner) and on its right, and its team.
_SEATS: Final = tuple(
    ((seat + 1) % PLAYERS, partner_of(seat), (seat + 3) % PLAYERS, team_of(seat)) for seat in range(PLAYERS)
)
_COUNTS: Final = tuple(_floats(bytes((count,))) for count in range(5))  # at most four jokers (R1)
_COUNT_OF: Final = {piece: count for count, piece in enumerate(_COUNTS)}
_SUIT_BITS: Final = (1 << 13) - 1


def _suit_columns() -> tuple[bytes, ...]:
    """Every suit's 13 columns by its 13 bits (about 700 KB): all made by one numpy call."""
    table = (np.arange(_SUIT_BITS + 1)[:, np.newaxis] >> np.arange(13) & 1).astype(np.float32).tobytes()
    return tuple(table[52 * bits : 52 * bits + 52] for bits in range(_SUIT_BITS + 1))


_SUIT_COLUMNS: Final = _suit_columns()
_MeldRows = tuple[bytes, tuple[int, int, int, int], int]
_TableRows = tuple[bytes, tuple[bytes, bytes, bytes, bytes], bytes]
_CACHE_LIMIT: Final = 4096
_TABLE_CACHE_LIMIT: Final = 512  # about 5 KB each
_EMPTY_ROWS: Final = bytes(_ROW * MAX_MELDS)
# A count of cards over 56 (scalar columns 0-5), and a pile position (i + 1) / 56 (the pile
# plane and scalar columns 28-31), by the count.
_OVER_56: Final = {count: _float32(count / 56.0) for count in range(57)}  # a dict: -1 is no count
_POSITIONS: Final = tuple(_OVER_56.values())  # the same, for the pile plane (by a byte: never negative)
_PHASES: Final = {Phase.DRAW: 0, Phase.MELD: 16, Phase.ROUND_OVER: 32, Phase.GAME_OVER: 48}
# Columns 8-19 by 16 * phase (0 draw, 1 meld, 2 round over, 3 game over) + 4 * seat to move +
# dealer (both relative); 24-27 by the relative seat that went out (4 for nobody).
_TURN_COLUMNS: Final = tuple(
    _floats(bytes(column in (phase, 4 + mover, 8 + dealer) for column in range(12)))
    for phase in range(4)
    for mover in range(4)
    for dealer in range(4)
)
_WENT_OUT_COLUMNS: Final = tuple(_floats(bytes(column == seat for column in range(4))) for seat in range(5))
_SCALAR_TAIL: Final = bytes(4 * (CARD_COLUMNS - _JOKER_SCALARS - 4))
_PASSES: Final = {passes: _float32(passes / 4.0) for passes in range(5)}  # column 21, passes up to 4
_IDLE: Final = {idle: _float32(idle / 8.0) for idle in range(9)}  # column 22, idle turns up to 8
_PROGRESS: Final = (_float32(0.0), _float32(1.0))
_SCORES: dict[tuple[int, int], bytes] = {}
_DEALS: dict[tuple[int, int], bytes] = {}
# The last pile's plane and its jokers' scalar columns (one tuple, replaced whole).
_last_pile: tuple[tuple[Card, ...], bytes, bytes] = ((), _EMPTY_ROW, _ZERO * 4)


def _scores(own: int, other: int) -> bytes:
    """Scalar columns 6-7: the scores over 1000."""
    found = _SCORES.get((own, other))
    if found is None:
        found = _float32(own / _SCORE_SCALE) + _float32(other / _SCORE_SCALE)
        if len(_SCORES) >= _CACHE_LIMIT:
            _SCORES.clear()
        _SCORES[own, other] = found
    return found


def _deal(number: int, deals: int) -> bytes:
    """Scalar column 20: the deal number over the deals."""
    found = _DEALS.get((number, deals))
    if found is None:
        found = _float32(number / deals)
        if len(_DEALS) >= _CACHE_LIMIT:
            _DEALS.clear()
        _DEALS[number, deals] = found
    return found


@identity_cached(_CACHE_LIMIT)
def _meld_rows(meld: Meld, _variant: int) -> _MeldRows:
    """A meld's card row, its credit row for each seat and its lay-off row."""
    cards = bytearray(_ROW)
    credit = [bytearray(_ROW) for _ in range(PLAYERS)]
    laid = bytearray(_ROW)
    for card, credited, laid_off in zip(meld.cards, meld.seats, meld.laid_off, strict=True):
        cards[card.index] += 1
        credit[credited][card.index] += 1
        if laid_off:
            laid[card.index] += 1
    first, second, third, fourth = (int.from_bytes(row, "little") for row in credit)
    return bytes(cards), (first, second, third, fourth), int.from_bytes(laid, "little")


@identity_cached(_TABLE_CACHE_LIMIT)
def _table_rows(melds: tuple[Meld, ...], _variant: int) -> _TableRows:
    """The meld planes, the credit plane of each (absolute) seat and the lay-off plane."""
    rows = [_meld_rows(meld, 0) for meld in melds[:MAX_MELDS]]
    counts = b"".join(row[0] for row in rows) + _EMPTY_ROWS[: _ROW * (MAX_MELDS - len(rows))]
    for seat in range(PLAYERS):
        counts += sum(row[1][seat] for row in rows).to_bytes(_ROW, "little")
    planes = _floats(counts + sum(row[2] for row in rows).to_bytes(_ROW, "little"))  # one numpy call
    credits = 4 * _ROW * MAX_MELDS
    first, second, third, fourth = (
        planes[credits + 4 * _ROW * seat : credits + 4 * _ROW * (seat + 1)] for seat in range(PLAYERS)
    )
    return planes[:credits], (first, second, third, fourth), planes[-4 * _ROW :]


def _pile(pile: tuple[Card, ...]) -> tuple[tuple[Card, ...], bytes, bytes]:
    """The pile plane and scalar columns 28-31 (the jokers' positions)."""
    global _last_pile
    last = _last_pile
    previous = last[0]
    if previous is pile:
        return last
    size = len(pile)
    if size == len(previous) + 1 and pile[:-1] == previous:
        # A discard (R17): the last pile and one card more, patched in (cards compare by
        # identity first, so the comparison is one pass in C).
        index = pile[-1].index
        plane, jokers = last[1], last[2]
        if index == JOKER_INDEX:
            count = _COUNT_OF[plane[-4:]] + 1
            plane = plane[:-4] + _COUNTS[count]
            jokers = jokers[: 4 * (count - 1)] + _POSITIONS[size] + jokers[4 * count :]
        else:
            plane = plane[: 4 * index] + _POSITIONS[size] + plane[4 * index + 4 :]
        found = _last_pile = (pile, plane, jokers)
        return found
    columns = [_ZERO] * _ROW
    joker_positions = []
    positions = _POSITIONS
    for position, card in enumerate(pile, 1):
        index = card.index
        if index == JOKER_INDEX:
            joker_positions.append(positions[position])
        else:
            columns[index] = positions[position]
    columns[JOKER_INDEX] = _COUNTS[len(joker_positions)]
    found = _last_pile = (pile, b"".join(columns), b"".join(joker_positions) + _ZERO * (4 - len(joker_positions)))
    return found


def observation_tensor(view: PlayerView) -> npt.NDArray[np.float32]:
    """The viewer's observation as a ``float32`` array of shape :data:`OBSERVATION_SHAPE`
    (the planes are listed in the module documentation). It reads ``view`` alone. A value
    that is not a :class:`~persian_rummy.PlayerView` raises
    :class:`~persian_rummy.ArgumentTypeError`. The view is not validated (a view read from
    outside should be, with :meth:`~persian_rummy.PlayerView.validate`); one built by hand
    with a field that the tensor cannot hold (a count or a seat out of range, a phase that is
    not a :class:`~persian_rummy.Phase`) raises :class:`~persian_rummy.InvalidStateError`.

    >>> from persian_rummy import new_game
    >>> view = new_game(1).view(0)
    >>> tensor = observation_tensor(view)
    >>> [str(card) for card in view.discard_pile], float(tensor[25, 0] * 56)  # take 0
    (['2s'], 1.0)
    >>> (tensor[29, :6] * 56).round().tolist()  # hand sizes, stock, pile
    [7.0, 7.0, 7.0, 7.0, 27.0, 1.0]
    """
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"an observation tensor is made from a PlayerView, not a {type(view).__name__}")
    seat = view.seat
    try:
        if type(seat) is int and 0 <= seat < PLAYERS:
            return _tensor(view, seat, view.hand, view.hand_sizes, view.stock_size, view.revealed_hands)
    except (LookupError, TypeError, AttributeError, ValueError, OverflowError, ZeroDivisionError):
        pass
    view.validate()  # a view built by hand with a field no game has: say which
    raise InvalidStateError("R27: the view's fields do not describe a position of a game")


def seat_tensor(state: GameState, seat: int) -> npt.NDArray[np.float32]:
    """``observation_tensor(state.view(seat))``, without building the view (for the
    environments, which hold the full state); it reads only what the view holds. ``seat`` is
    a whole number 0-3 (a numpy integer too): another type raises
    :class:`~persian_rummy.ArgumentTypeError`, another number
    :class:`~persian_rummy.InvalidArgumentError`; ``state`` must be a
    :class:`~persian_rummy.GameState` (:class:`~persian_rummy.ArgumentTypeError`).

    >>> from persian_rummy import new_game
    >>> state = new_game(1)
    >>> bool((seat_tensor(state, 2) == observation_tensor(state.view(2))).all())
    True
    >>> seat_tensor(state, -1)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: R3: a seat is 0, 1, 2 or 3, not -1
    """
    if not isinstance(state, GameState):
        raise ArgumentTypeError(f"seat_tensor reads a GameState, not a {type(state).__name__}")
    if type(seat) is not int or not 0 <= seat < PLAYERS:
        seat = _seat(seat)
    first, second, third, fourth = hands = state.hands
    sizes = (
        first.mask.bit_count() + first.jokers,
        second.mask.bit_count() + second.jokers,
        third.mask.bit_count() + third.jokers,
        fourth.mask.bit_count() + fourth.jokers,
    )
    return _tensor(state, seat, hands[seat], sizes, len(state.stock), None if state.phase.is_live else hands)


def _seat(value: object) -> int:
    """``value`` as a seat 0-3: a whole number (not a bool), numpy integers too."""
    seat = whole_number(value, "R3: a seat")
    if not 0 <= seat < PLAYERS:
        shown = seat if -(10**6) < seat < 10**6 else "a number that large"
        raise InvalidArgumentError(f"R3: a seat is 0, 1, 2 or 3, not {shown}")
    return seat


def _hand(hand: Hand) -> bytes:
    mask = hand.mask
    suits = _SUIT_COLUMNS
    return b"".join(
        (
            suits[mask & _SUIT_BITS],
            suits[mask >> 13 & _SUIT_BITS],
            suits[mask >> 26 & _SUIT_BITS],
            suits[mask >> 39],
            _COUNTS[hand.jokers],
        )
    )


def _tensor(
    view: GameState | PlayerView,
    seat: int,
    hand: Hand,
    sizes: tuple[int, ...],
    stock_size: int,
    revealed: tuple[Hand, ...] | None,
) -> npt.NDArray[np.float32]:
    """The tensor of ``seat``, from the public fields of ``view`` (a view, or the state it is a
    view of) and the seat's hand, the hand sizes, the stock size and the hands revealed at the
    end of the round (``None`` before)."""
    mask = hand.mask
    suits = _SUIT_COLUMNS
    over_56 = _OVER_56
    pile = view.discard_pile
    must = view.must_meld
    scores = view.scores
    went_out = view.went_out
    meld_planes, credits, laid = _table_rows(view.melds, 0)
    _, pile_plane, joker_columns = _pile(pile)
    left, partner, right, team = _SEATS[seat]
    planes = bytearray().join(
        (
            suits[mask & _SUIT_BITS],
            suits[mask >> 13 & _SUIT_BITS],
            suits[mask >> 26 & _SUIT_BITS],
            suits[mask >> 39],
            _COUNTS[hand.jokers],
            meld_planes,
            credits[seat],
            credits[left],
            credits[partner],
            credits[right],
            laid,
            _EMPTY_ROW if must is None else _ONE_HOT[must.index],
            pile_plane,
            _NO_REVEALED if revealed is None else _hand(revealed[left]),
            b"" if revealed is None else _hand(revealed[partner]),
            b"" if revealed is None else _hand(revealed[right]),
            over_56[sizes[seat]],
            over_56[sizes[left]],
            over_56[sizes[partner]],
            over_56[sizes[right]],
            over_56[stock_size],
            over_56[len(pile)],
            _scores(scores[team], scores[1 - team]),
            _TURN_COLUMNS[_PHASES[view.phase] + 4 * ((view.current_player - seat) % 4) + (view.dealer - seat) % 4],
            _deal(view.deal_number, view.rules.deals),
            _PASSES[view.consecutive_passes],
            _IDLE[view.idle_turns],
            _PROGRESS[view.turn_progress],
            _WENT_OUT_COLUMNS[4 if went_out is None else (went_out - seat) % 4],
            joker_columns,
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
