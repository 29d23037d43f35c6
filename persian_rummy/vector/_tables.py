"""The fixed tables of the vectorized engine, built at import from the scalar modules (internal).

Every table is a read-only numpy constant derived from one source: the meld numbering of
:mod:`persian_rummy.encoding` (the 371 melds), the lay-off cards of
:data:`persian_rummy.melds.LAY_OFFS`, the three-card partners of a discard-pile target from
:func:`persian_rummy._moves.meld_partners` and the card points of :mod:`persian_rummy.cards`.
A set of cards is written as two ``uint32`` words: bits 0-31 are cards 0-31, bits 0-19 of the
second word cards 32-51 and bit 20 of the second word the joker (:data:`JOKER_INDEX`), where a
set of cards holds a joker at most as a flag (lay-off targets); counts of jokers are kept apart.

>>> NUM_MELDS, MELD_COUNTS.shape, EXTENSION_BITS.shape
(371, (372, 53), (2, 372, 2))
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from persian_rummy._moves import meld_partners
from persian_rummy.cards import CARDS, DECK, JOKER_INDEX, POINTS
from persian_rummy.encoding import MELDS
from persian_rummy.melds import LAY_OFFS, shape_of
from persian_rummy.observation import CARD_COLUMNS  # one column per distinct card (R1)

__all__ = [
    "CARD_COLUMNS",
    "DECK_CARDS",
    "EXTENSION_BITS",
    "EXTENSION_NEXT",
    "MELDS_WITH",
    "MELD_ACE_LOW",
    "MELD_BITS",
    "MELD_COUNTS",
    "MELD_JOKERS",
    "MELD_KEYS",
    "MELD_NUMBER_BY_KEY",
    "MELD_SET",
    "MELD_SIZE",
    "NUM_MELDS",
    "PAIRS",
    "POINTS_ARRAY",
    "read_only",
]

#: The 371 melds of the numbering (R8-R11); row ``NUM_MELDS`` of each meld table is an empty slot.
NUM_MELDS: Final = len(MELDS)
#: Each meld's key, by its number: its natural cards' mask, its jokers above them (``meld_key``).
MELD_KEYS: Final = [
    sum(1 << card.index for card in meld.cards if not card.is_joker)
    | sum(card.is_joker for card in meld.cards) << JOKER_INDEX
    for meld in MELDS
]
MELD_NUMBER_BY_KEY: Final = {key: number for number, key in enumerate(MELD_KEYS)}


def read_only(array: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
    """``array``, made read-only: the tables are shared by every trace."""
    array.flags.writeable = False
    return array


def _words(key: int) -> tuple[int, int]:
    # A card set's key (mask | jokers << 52, or the joker as bit 52) as the two words.
    natural = key & ((1 << JOKER_INDEX) - 1)
    joker = 1 if key >> JOKER_INDEX else 0
    return natural & 0xFFFFFFFF, (natural >> 32) | joker << 20


def _meld_tables() -> tuple[npt.NDArray[np.generic], ...]:
    counts = np.zeros((NUM_MELDS + 1, CARD_COLUMNS), np.int8)
    bits = np.zeros((NUM_MELDS + 1, 2), np.uint32)
    jokers = np.zeros(NUM_MELDS + 1, np.int8)
    size = np.zeros(NUM_MELDS + 1, np.int8)
    ace_low = np.zeros(NUM_MELDS + 1, bool)
    is_set = np.zeros(NUM_MELDS + 1, bool)
    for number, meld in enumerate(MELDS):
        for card in meld.cards:
            counts[number, card.index] += 1
        key = MELD_KEYS[number]
        natural = key & ((1 << JOKER_INDEX) - 1)
        bits[number] = (natural & 0xFFFFFFFF, natural >> 32)
        jokers[number] = key >> JOKER_INDEX
        size[number] = len(meld.cards)
        shape = shape_of(natural, key >> JOKER_INDEX)
        assert not isinstance(shape, Exception)  # every numbered meld is a meld
        ace_low[number] = shape.ace_low
        is_set[number] = shape.kind.value == "set"
    return counts, bits, jokers, size, ace_low, is_set


#: Per meld: the count of each card (``[372, 53]``), its natural cards as two words
#: (``[372, 2]``), its jokers, its size, whether it is a run with the ace low (R10) and whether
#: it is a set (R8, R11).
MELD_COUNTS, MELD_BITS, MELD_JOKERS, MELD_SIZE, MELD_ACE_LOW, MELD_SET = (read_only(a) for a in _meld_tables())


def _extension_tables() -> tuple[npt.NDArray[np.generic], npt.NDArray[np.generic]]:
    # For each meld and each ace_in_runs (0: high, 1: high_or_low), the cards that extend it as
    # two words (the joker as bit 20 of the second), and for each meld and card the meld that
    # laying that card off makes (-1 where it does not extend the meld).
    extensions = np.zeros((2, NUM_MELDS + 1, 2), np.uint32)
    following = np.full((NUM_MELDS + 1, CARD_COLUMNS), -1, np.int16)
    for number, key in enumerate(MELD_KEYS):
        cards, masks = LAY_OFFS[key]
        for allowed in (0, 1):
            extensions[allowed, number] = _words(masks[allowed])
        for card in cards[1]:  # the ace-low list holds the ace-high one
            grown = key + (1 << JOKER_INDEX) if card.is_joker else key | 1 << card.index
            following[number, card.index] = MELD_NUMBER_BY_KEY[grown]
    return extensions, following


#: ``EXTENSION_BITS[ace_low_allowed, meld]``: the cards that extend the meld (R16), as two words;
#: ``EXTENSION_NEXT[meld, card]``: the meld a lay-off of that card makes, else -1.
EXTENSION_BITS, EXTENSION_NEXT = (read_only(a) for a in _extension_tables())


def _pairs() -> npt.NDArray[np.int8]:
    # For each card, the pairs of cards that make a three-card meld with it (R8-R11), ace-low
    # runs last; -1 pads. Column 2 says whether the pair plays the ace low (R10).
    out = np.full((CARD_COLUMNS, 7, 3), -1, np.int8)
    for card in CARDS:
        for number, pair in enumerate(meld_partners(card)):
            low = (
                not card.is_joker
                and any(c.index % 13 == 12 for c in (card, *pair))
                and any(c.index % 13 == 0 for c in (card, *pair))
            )
            out[card.index, number] = (pair[0].index, pair[1].index, int(low))
    return out


#: ``PAIRS[card, k] = (first, second, ace_low)``: the k-th pair of cards making a three-card
#: meld with ``card`` (R8-R11; R10 for ``ace_low``), -1 padding.
PAIRS: Final = read_only(_pairs())


def _melds_with() -> npt.NDArray[np.int16]:
    # For each card, the melds that hold it, padded with the empty slot NUM_MELDS.
    lists = [[number for number in range(NUM_MELDS) if MELD_COUNTS[number, card]] for card in range(CARD_COLUMNS)]
    width = max(len(found) for found in lists)
    out = np.full((CARD_COLUMNS, width), NUM_MELDS, np.int16)
    for card, found in enumerate(lists):
        out[card, : len(found)] = found
    return out


#: ``MELDS_WITH[card]``: the numbers of the melds holding ``card``, padded with ``NUM_MELDS``.
MELDS_WITH: Final = read_only(_melds_with())
#: Each card's points (R22), by column.
POINTS_ARRAY: Final = read_only(np.array(POINTS, np.int32))
#: The deck in canonical order as card columns (four jokers last, R1).
DECK_CARDS: Final = read_only(np.array([card.index for card in DECK], np.int8))
#: Counts over 56 (hand sizes, stock, pile) as float32, as the scalar tensor rounds them.
OVER_56: Final = read_only(np.array([count / 56.0 for count in range(57)], np.float32))
