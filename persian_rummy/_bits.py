"""Cards as bits and the seats, shared by the hands, melds, actions, state, engine and bots
(internal).

A set of natural cards is an integer with bit :attr:`Card.index <persian_rummy.Card.index>`
set for each card (bit ``suit * 13 + rank offset``, rank offset 0 being the two); jokers are
counted apart. Nothing here is public API.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from typing import Final, SupportsIndex, cast

import attrs

from persian_rummy.cards import CARDS, JOKER_INDEX, POINTS, Card
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, InvalidStateError, excerpt, shown

#: The number of players (R3).
PLAYERS: Final = 4
#: The seats' names, by seat number (R3): North and South against East and West.
SEAT_NAMES: Final = ("North", "East", "South", "West")
#: The teams' names, by team number (R3).
TEAM_NAMES: Final = ("North-South", "East-West")
#: The seat letters of observations and of record action lines: North, East, South, West.
SEAT_LETTERS: Final = "NESW"
#: Every natural card's bit.
NATURALS: Final = (1 << JOKER_INDEX) - 1
#: The 13 rank bits of one suit, and the ace among them.
SUIT_BITS: Final = 0x1FFF
ACE_BIT: Final = 1 << 12
#: For each rank offset (0 = the two), the mask of its four cards.
RANK_MASKS: Final = tuple(sum(1 << (suit * 13 + offset) for suit in range(4)) for offset in range(13))


def whole_number(value: object, what: str) -> int:
    """``value`` as an int: a whole number, numpy's integers too (anything with
    ``__index__``), never a bool or a float; else :class:`~persian_rummy.ArgumentTypeError`
    saying that ``what`` is a whole number. The one coercion of the numbers a program may
    hand in (an action index, a seat, an environment's knob).

    >>> import numpy as np
    >>> whole_number(3, "a seat"), whole_number(np.int64(3), "a seat")
    (3, 3)
    >>> whole_number(True, "an action index")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ArgumentTypeError: an action index is a whole number, not True
    """
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(cast("SupportsIndex", value))
        except TypeError:
            pass
    raise ArgumentTypeError(f"{what} is a whole number, not {shown(value)}")


def is_seat(value: object) -> bool:
    """Whether ``value`` is a seat number, 0-3 (R3).

    >>> is_seat(3), is_seat(4), is_seat(True)
    (True, False, False)
    """
    return type(value) is int and 0 <= value < PLAYERS


def check_seat(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    """An attrs validator of a seat field (R3): a bad seat would otherwise surface later as an
    IndexError from the seat letters."""
    if not is_seat(value):
        raise InvalidArgumentError(
            f"R3: {type(instance).__name__}.{attribute.name} must be a seat 0-3, not {excerpt(value)}"
        )


def check_dealer(dealer: object) -> None:
    """Raise :class:`~persian_rummy.InvalidStateError` unless ``dealer`` is a seat 0-3 (R3):
    the check of every deal's dealer, before a card is dealt.

    >>> check_dealer(3)
    >>> check_dealer(4)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidStateError: R3: the dealer is a seat 0-3, not 4
    """
    if not is_seat(dealer):
        raise InvalidStateError(f"R3: the dealer is a seat 0-3, not {excerpt(dealer)}")


def team_of(seat: int) -> int:
    """The team of a seat: team 0 is seats 0 and 2, team 1 seats 1 and 3 (R3).

    >>> [team_of(seat) for seat in range(4)]
    [0, 1, 0, 1]
    """
    return seat % 2


def partner_of(seat: int) -> int:
    """The partner of a seat, the seat across the table: North and South, East and West (R3).

    >>> [partner_of(seat) for seat in range(4)]
    [2, 3, 0, 1]
    >>> all(team_of(partner_of(seat)) == team_of(seat) for seat in range(4))
    True
    """
    return (seat + 2) % PLAYERS


def cards_of_mask(mask: int) -> Iterator[Card]:
    """The natural cards of a 52-bit mask, in canonical order.

    >>> [str(card) for card in cards_of_mask(0b101)]
    ['2s', '4s']
    """
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def cards_bits(cards: Iterable[Card]) -> tuple[int, int]:
    """The natural cards of ``cards`` as a mask, and how many jokers there are: the one loop
    from cards to bits. A natural card named twice sets its bit once, so
    ``mask.bit_count() + jokers < len(cards)`` says that some card repeats.

    >>> cards_bits([CARDS[0], CARDS[2], CARDS[JOKER_INDEX], CARDS[JOKER_INDEX]])  # 2s 4s Jk Jk
    (5, 2)
    """
    mask = jokers = 0
    for card in cards:
        index = card.index
        if index == JOKER_INDEX:
            jokers += 1
        else:
            mask |= 1 << index
    return mask, jokers


def repeated(cards: Iterable[Card]) -> Card | None:
    """The first natural card of ``cards`` named a second time, or ``None`` (R1: the deck has
    one of each; jokers may repeat). Asked once :func:`cards_bits` has counted fewer cards.

    >>> repeated([CARDS[0], CARDS[JOKER_INDEX], CARDS[JOKER_INDEX]]), repeated([CARDS[3], CARDS[3]])
    (None, Card.parse('5s'))
    """
    seen = 0
    for card in cards:
        index = card.index
        if index != JOKER_INDEX:
            if seen >> index & 1:
                return card
            seen |= 1 << index
    return None


def _suit_points() -> tuple[int, ...]:
    # The points of each set of one suit's ranks (bit 0 = the two); every suit scores alike.
    points = [0] * (SUIT_BITS + 1)
    for bits in range(1, SUIT_BITS + 1):
        low = bits & -bits
        points[bits] = points[bits ^ low] + POINTS[low.bit_length() - 1]
    return tuple(points)


#: The points of each of the 8192 sets of one suit's ranks, built once at import (R22).
SUIT_POINTS: Final = _suit_points()


def mask_points(mask: int) -> int:
    """The points of the natural cards of a mask (R22).

    >>> mask_points(1 << 12 | 1)  # As 2s
    17
    """
    return (
        SUIT_POINTS[mask & SUIT_BITS]
        + SUIT_POINTS[mask >> 13 & SUIT_BITS]
        + SUIT_POINTS[mask >> 26 & SUIT_BITS]
        + SUIT_POINTS[mask >> 39 & SUIT_BITS]
    )


def run_bits(suit_bits: int) -> tuple[int, int, bool] | None:
    """For one suit's rank bits (bit 0 = the two), the run they form as
    ``(low, high, ace_low)`` in rank values (1 = an ace played low), or ``None`` (R9-R10).

    >>> run_bits(0b111), run_bits(1 << 12 | 0b11), run_bits(0b101)
    ((2, 4, False), (1, 3, True), None)
    """
    if suit_bits & (suit_bits + (suit_bits & -suit_bits)) == 0:
        low = (suit_bits & -suit_bits).bit_length() + 1
        return low, low + suit_bits.bit_count() - 1, False
    if suit_bits & ACE_BIT and suit_bits & 1:
        # Try the ace low: shift every rank up one place and put the ace at the bottom.
        rotated = ((suit_bits << 1) | 1) & SUIT_BITS
        if rotated & (rotated + 1) == 0:
            return 1, rotated.bit_count(), True
    return None
