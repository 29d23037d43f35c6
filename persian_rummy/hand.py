"""Hands: immutable multisets of cards.

>>> hand = Hand.parse("Jk 4s 4d Jk Ah")
>>> str(hand), len(hand), hand.points, hand.count(JOKER)
('4s Ah 4d Jk Jk', 5, 63, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

import attrs

from persian_rummy.cards import CARDS, JOKER, JOKER_INDEX, POINTS, Card, parse_cards
from persian_rummy.errors import NotationError

__all__ = ["Hand"]

_NATURALS: Final = (1 << JOKER_INDEX) - 1


def cards_of_mask(mask: int) -> Iterator[Card]:
    """The natural cards of a 52-bit mask, in canonical order."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def mask_points(mask: int) -> int:
    """The points of the natural cards of a mask (R22)."""
    total = 0
    while mask:
        low = mask & -mask
        total += POINTS[low.bit_length() - 1]
        mask ^= low
    return total


@attrs.frozen(init=False, repr=False)
class Hand:
    """An immutable multiset of cards, iterated in canonical order (by suit ♠ ♥ ♦ ♣, then rank,
    jokers last).

    Build one from cards or text; the order given does not matter, and the four jokers are
    equal (R1). Hands support ``len``, ``in``, iteration, :meth:`count`, ``+`` and ``-``.

    >>> Hand("Qs 2c") == Hand(["2c", "Qs"])
    True
    >>> Hand.parse("4s 5s") + Hand.parse("Jk")
    Hand.parse('4s 5s Jk')
    >>> Hand("4s 5s 6s") - Hand("5s")
    Hand.parse('4s 6s')
    """

    _mask: int
    _jokers: int

    def __init__(self, cards: str | Iterable[Card | str] = ()) -> None:
        mask = 0
        jokers = 0
        for card in parse_cards(cards):
            index = card.index
            if index == JOKER_INDEX:
                jokers += 1
                if jokers > 4:
                    raise NotationError("R1: a hand cannot hold more than the deck's 4 jokers")
            elif mask >> index & 1:
                raise NotationError(f"R1: {card} appears twice, but the deck has one {card}")
            else:
                mask |= 1 << index
        object.__setattr__(self, "_mask", mask)
        object.__setattr__(self, "_jokers", jokers)

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Parse a hand written as cards separated by spaces, commas or hyphens.

        >>> Hand.parse("4♠ 4♦ 🃏")
        Hand.parse('4s 4d Jk')
        """
        return cls(text)

    @classmethod
    def from_mask(cls, mask: int, jokers: int = 0) -> Hand:
        """Build a hand from the engine's compact form: a bit per natural card
        (bit :attr:`Card.index`) and a count of jokers.

        >>> Hand.from_mask(0b101, 1)
        Hand.parse('2s 4s Jk')
        """
        if not (0 <= mask <= _NATURALS and 0 <= jokers <= 4):
            raise NotationError(f"R1: no hand has natural-card mask {mask} and {jokers} jokers")
        return _make_hand(mask, jokers)

    @property
    def mask(self) -> int:
        """The natural cards as a bit mask (bit :attr:`Card.index` is set for each card held).

        >>> Hand("3s").mask
        2
        """
        return self._mask

    @property
    def jokers(self) -> int:
        """The number of jokers held.

        >>> Hand("Jk 2s Jk").jokers
        2
        """
        return self._jokers

    @property
    def points(self) -> int:
        """The total value of the cards (R22), what they cost when left in hand (R23).

        >>> Hand("Kd 4d").points
        14
        """
        return mask_points(self._mask) + 20 * self._jokers

    def count(self, card: Card | str) -> int:
        """How many copies of ``card`` the hand holds (0 or 1, up to 4 for the joker).

        >>> Hand("Jk Jk 2s").count("Jk")
        2
        """
        card = Card.parse(card)
        if card.index == JOKER_INDEX:
            return self._jokers
        return self._mask >> card.index & 1

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = Card.parse(card)
        if not isinstance(card, Card):
            return False
        if card.index == JOKER_INDEX:
            return self._jokers > 0
        return bool(self._mask >> card.index & 1)

    def __len__(self) -> int:
        return self._mask.bit_count() + self._jokers

    def __bool__(self) -> bool:
        return bool(self._mask or self._jokers)

    def __iter__(self) -> Iterator[Card]:
        yield from cards_of_mask(self._mask)
        for _ in range(self._jokers):
            yield JOKER

    def __add__(self, other: Hand) -> Hand:
        if not isinstance(other, Hand):
            return NotImplemented
        if self._mask & other._mask or self._jokers + other._jokers > 4:
            raise NotationError(f"R1: {self} and {other} share cards the deck has only once")
        return _make_hand(self._mask | other._mask, self._jokers + other._jokers)

    def __sub__(self, other: Hand) -> Hand:
        if not isinstance(other, Hand):
            return NotImplemented
        if not self.issuperset(other):
            raise NotationError(f"R1: {other} is not part of {self}")
        return _make_hand(self._mask ^ other._mask, self._jokers - other._jokers)

    def issuperset(self, other: Hand) -> bool:
        """Whether every card of ``other`` (with multiplicity) is in this hand.

        >>> Hand("4s 5s Jk").issuperset(Hand("Jk 4s"))
        True
        """
        return other._mask & ~self._mask == 0 and other._jokers <= self._jokers

    def __str__(self) -> str:
        return " ".join(map(str, self))

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})" if self else "Hand()"


def _make_hand(mask: int, jokers: int) -> Hand:
    # The engine's fast constructor: no parsing, no validation.
    hand = object.__new__(Hand)
    object.__setattr__(hand, "_mask", mask)
    object.__setattr__(hand, "_jokers", jokers)
    return hand


EMPTY_HAND: Final = _make_hand(0, 0)
