"""Hands: immutable multisets of cards.

>>> hand = Hand.parse("Jk 4s 4d Jk Ah")
>>> str(hand), len(hand), hand.points, hand.count(JOKER)
('4s Ah 4d Jk Jk', 5, 63, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

from persian_rummy._bits import NATURALS, cards_bits, cards_of_mask, mask_points, repeated
from persian_rummy._cache import identity_cached
from persian_rummy.cards import JOKER, JOKER_INDEX, POINTS, Card, parse_cards
from persian_rummy.errors import InvalidArgumentError

__all__ = ["Hand"]


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

    #: The natural cards as a bit mask (bit :attr:`Card.index` is set for each card held):
    #: ``Hand("3s").mask == 2``.
    mask: int
    #: The number of jokers held: ``Hand("Jk 2s Jk").jokers == 2``.
    jokers: int

    def __init__(self, cards: str | Iterable[Card | str] = ()) -> None:
        parsed = parse_cards(cards)
        mask, jokers = cards_bits(parsed)
        if jokers > 4:
            raise InvalidArgumentError("R1: a hand cannot hold more than the deck's 4 jokers")
        twice = repeated(parsed) if mask.bit_count() + jokers < len(parsed) else None
        if twice is not None:
            raise InvalidArgumentError(f"R1: {twice} appears twice, but the deck has one {twice}")
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "jokers", jokers)

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
        if not (0 <= mask <= NATURALS and 0 <= jokers <= 4):
            raise InvalidArgumentError(f"R1: no hand has natural-card mask {mask} and {jokers} jokers")
        return make_hand(mask, jokers)

    @property
    def points(self) -> int:
        """The total value of the cards (R22), what they cost when left in hand (R23).

        >>> Hand("Kd 4d").points
        14
        """
        return mask_points(self.mask) + POINTS[JOKER_INDEX] * self.jokers

    def count(self, card: Card | str) -> int:
        """How many copies of ``card`` the hand holds (0 or 1, up to 4 for the joker).

        >>> Hand("Jk Jk 2s").count("Jk")
        2
        """
        card = Card.parse(card)
        if card.index == JOKER_INDEX:
            return self.jokers
        return self.mask >> card.index & 1

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = Card.parse(card)
        if not isinstance(card, Card):
            return False
        if card.index == JOKER_INDEX:
            return self.jokers > 0
        return bool(self.mask >> card.index & 1)

    def __len__(self) -> int:
        return self.mask.bit_count() + self.jokers

    def __bool__(self) -> bool:
        return bool(self.mask or self.jokers)

    def __iter__(self) -> Iterator[Card]:
        yield from cards_of_mask(self.mask)
        for _ in range(self.jokers):
            yield JOKER

    def __add__(self, other: Hand) -> Hand:
        if not isinstance(other, Hand):
            return NotImplemented
        if self.mask & other.mask or self.jokers + other.jokers > 4:
            raise InvalidArgumentError(f"R1: {self} and {other} share cards the deck has only once")
        return make_hand(self.mask | other.mask, self.jokers + other.jokers)

    def __sub__(self, other: Hand) -> Hand:
        if not isinstance(other, Hand):
            return NotImplemented
        if not self.issuperset(other):
            raise InvalidArgumentError(f"R1: {other} is not part of {self}")
        return make_hand(self.mask ^ other.mask, self.jokers - other.jokers)

    def issuperset(self, other: Hand) -> bool:
        """Whether every card of ``other`` (with multiplicity) is in this hand.

        >>> Hand("4s 5s Jk").issuperset(Hand("Jk 4s"))
        True
        """
        return other.mask & ~self.mask == 0 and other.jokers <= self.jokers

    def __str__(self) -> str:
        return _hand_text(self, 0)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})" if self else "Hand()"


@identity_cached(8192)  # per hand, which states share until it changes: every view's JSON writes it
def _hand_text(hand: Hand, _: int) -> str:
    return " ".join(map(str, hand))


def make_hand(mask: int, jokers: int) -> Hand:
    """The engine's fast constructor of a hand from its mask and jokers: no parsing, no
    validation (internal; :meth:`Hand.from_mask` is the checked one)."""
    hand = object.__new__(Hand)
    object.__setattr__(hand, "mask", mask)
    object.__setattr__(hand, "jokers", jokers)
    return hand
