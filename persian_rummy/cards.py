"""Cards: suits, ranks, the 56-card deck and the text notation of cards (R1, R2, R22).

A card is written as a rank and a suit: ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (``10`` is
accepted for the ten), suits ``s h d c`` or ``♠ ♥ ♦ ♣``, case-insensitive. A joker is ``Jk``
(``joker`` and ``🃏`` are accepted too). The canonical text is ASCII:

>>> Card.parse("10♠"), str(Card.parse("q♥")), str(JOKER)
(Card.parse('Ts'), 'Qh', 'Jk')
>>> parse_cards("4♠-4♦-4♥")
(Card.parse('4s'), Card.parse('4d'), Card.parse('4h'))
>>> len(DECK), DECK.count(JOKER)
(56, 4)
"""

from __future__ import annotations

import enum
import itertools
import re
from collections import Counter
from collections.abc import Iterable
from typing import Final

import attrs

from persian_rummy.errors import JokerError, NotationError, counted, excerpt

__all__ = ["DECK", "JOKER", "Card", "Rank", "Suit", "parse_cards"]


class Suit(enum.IntEnum):
    """The four suits, in the library's canonical order ♠ ♥ ♦ ♣ (suits never rank, R4).

    >>> Suit.parse("♦"), str(Suit.HEARTS), Suit.CLUBS.symbol
    (<Suit.DIAMONDS: 2>, 'h', '♣')
    """

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The ASCII letter of the suit: ``s``, ``h``, ``d`` or ``c``.

        >>> Suit.SPADES.letter
        's'
        """
        return "shdc"[self.value]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♠``, ``♥``, ``♦`` or ``♣``.

        >>> Suit.HEARTS.symbol
        '♥'
        """
        return "♠♥♦♣"[self.value]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter or symbol (case-insensitive).

        >>> Suit.parse("S")
        <Suit.SPADES: 0>
        """
        try:
            return _SUIT_BY_TEXT[text.strip().lower()]
        except (KeyError, AttributeError):
            raise NotationError(f"R1: {excerpt(text)} is not a suit (expected s, h, d, c or ♠ ♥ ♦ ♣)") from None

    def __str__(self) -> str:
        return self.letter


class Rank(enum.IntEnum):
    """The thirteen ranks, valued 2 (low) to 14 (the ace, high in play, R2).

    >>> Rank.parse("10"), str(Rank.TEN), Rank.ACE > Rank.KING
    (<Rank.TEN: 10>, 'T', True)
    """

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """The one-character text of the rank: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``.

        >>> Rank.TEN.letter
        'T'
        """
        return "23456789TJQKA"[self.value - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank (``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``).

        >>> Rank.parse("q")
        <Rank.QUEEN: 12>
        """
        try:
            return _RANK_BY_TEXT[text.strip().upper()]
        except (KeyError, AttributeError):
            raise NotationError(f"R1: {excerpt(text)} is not a rank (expected 2-9, T or 10, J, Q, K, A)") from None

    def __str__(self) -> str:
        return self.letter


_SUIT_BY_TEXT: Final = {
    **{suit.letter: suit for suit in Suit},
    **{suit.symbol: suit for suit in Suit},
    **{suit.symbol + "\ufe0f": suit for suit in Suit},
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_RANK_BY_TEXT: Final = {**{rank.letter: rank for rank in Rank}, "10": Rank.TEN}
_CARD_RE: Final = re.compile(r"(10|[2-9TJQKA])(\S+)", re.IGNORECASE)
_JOKER_TEXTS: Final = frozenset({"jk", "joker", "🃏"})
_POINTS: Final = {
    **{rank: int(rank) for rank in Rank if rank <= 10},
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
    Rank.ACE: 15,
}

#: The index of the joker in the card numbering used inside the engine (0-51 are naturals).
JOKER_INDEX: Final = 52


@attrs.frozen(eq=False, order=False, repr=False)
class Card:
    """One card: a natural card with a rank and a suit, or a joker (both ``None``).

    The four jokers are identical (R1): every joker equals :data:`JOKER`. Jokers are not wild
    (R2). Cards compare equal by value and sort in the canonical order (by suit ♠ ♥ ♦ ♣, then
    rank 2…A, jokers last); ``repr`` pastes back as code.

    ``rank`` and ``suit`` are ``None`` for a joker, so a type checker asks for a ``None``
    check on every read. Code that handles natural cards reads :attr:`natural_rank` and
    :attr:`natural_suit` instead: typed :class:`Rank` and :class:`Suit`, raising
    :class:`~persian_rummy.JokerError` for a joker.

    >>> Card(Rank.QUEEN, Suit.SPADES)
    Card.parse('Qs')
    >>> Card.parse("joker") == JOKER, JOKER.is_joker, Card.parse("Ah").points
    (True, True, 15)
    >>> sorted(parse_cards("Jk 2c As"))
    [Card.parse('As'), Card.parse('2c'), Card.parse('Jk')]
    """

    #: The rank of a natural card; ``None`` for the joker.
    rank: Rank | None = attrs.field(default=None)
    #: The suit of a natural card; ``None`` for the joker.
    suit: Suit | None = attrs.field(default=None)
    #: The card's number inside the engine: ``suit * 13 + rank - 2`` for naturals, 52 for jokers.
    index: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        if self.rank is None and self.suit is None:
            index = JOKER_INDEX
        elif isinstance(self.rank, Rank) and isinstance(self.suit, Suit):
            index = self.suit * 13 + self.rank - 2
        else:
            raise NotationError(
                f"R1: a card has both a Rank and a Suit (or neither, for a joker), "
                f"not rank={excerpt(self.rank)}, suit={excerpt(self.suit)}"
            )
        object.__setattr__(self, "index", index)

    @classmethod
    def parse(cls, text: Card | str) -> Card:
        """Parse one card: ``"Qs"``, ``"10♥"``, ``"q♠"``, ``"Jk"``, ``"joker"``, ``"🃏"``.

        Raises :class:`~persian_rummy.NotationError` for anything else.

        >>> Card.parse(" 7D ")
        Card.parse('7d')
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise NotationError(f"R1: expected the text of a card, not {excerpt(text)}")
        key = text.strip() if len(text) < 64 else text  # no card is written longer
        card = CARD_BY_TEXT.get(key)
        if card is not None:
            return card
        lowered = key.lower()
        if lowered in _JOKER_TEXTS:
            return CARDS[JOKER_INDEX]
        match = _CARD_RE.fullmatch(key)
        if match is not None:
            suit = _SUIT_BY_TEXT.get(match.group(2).lower())
            if suit is not None:
                return CARDS[suit * 13 + _RANK_BY_TEXT[match.group(1).upper()] - 2]
        expected = "expected a rank 2-9, T/10, J, Q, K, A and a suit s, h, d, c, or Jk"
        raise NotationError(f"R1: {excerpt(text)} is not a card ({expected})", reason=f"R1: not a card ({expected})")

    @property
    def is_joker(self) -> bool:
        """Whether the card is a joker.

        >>> JOKER.is_joker, Card.parse("2c").is_joker
        (True, False)
        """
        return self.index == JOKER_INDEX

    @property
    def natural_rank(self) -> Rank:
        """The rank of a natural card, typed without ``None``; raises
        :class:`~persian_rummy.JokerError` for a joker (R2).

        >>> Card.parse("Qs").natural_rank, Card.parse("Qs").natural_rank.letter
        (<Rank.QUEEN: 12>, 'Q')
        """
        if self.rank is None:
            raise JokerError(
                "R2: a joker has no rank (check card.is_joker first, or read card.rank, which is None for a joker)"
            )
        return self.rank

    @property
    def natural_suit(self) -> Suit:
        """The suit of a natural card, typed without ``None``; raises
        :class:`~persian_rummy.JokerError` for a joker (R2).

        >>> [card.natural_suit.symbol for card in parse_cards("7h 7c")]
        ['♥', '♣']
        """
        if self.suit is None:
            raise JokerError(
                "R2: a joker has no suit (check card.is_joker first, or read card.suit, which is None for a joker)"
            )
        return self.suit

    @property
    def points(self) -> int:
        """The card's value in scoring (R22): joker 20, ace 15, K/Q/J/10 10, 2-9 face value.

        >>> [card.points for card in parse_cards("Jk As Kd Tc 9h 2s")]
        [20, 15, 10, 10, 9, 2]
        """
        return POINTS[self.index]

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, for display: ``"T♠"``, ``"🃏"``.

        >>> Card.parse("Ts").symbol
        'T♠'
        """
        if self.is_joker:
            return "🃏"
        return self.natural_rank.letter + self.natural_suit.symbol

    def __str__(self) -> str:
        return TEXTS[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({TEXTS[self.index]!r})"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is Card:
            return self.index == other.index
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index >= other.index

    def __reduce__(self) -> tuple[object, ...]:
        # Unpickle to the interned card (compact pickles, identity preserved).
        return (_card_from_index, (self.index,))


def _card_from_index(index: int) -> Card:
    return CARDS[index]


#: The 53 distinct cards, indexed by :attr:`Card.index` (52 naturals, then the joker).
CARDS: Final[tuple[Card, ...]] = tuple([Card(rank, suit) for suit in Suit for rank in Rank] + [Card()])
#: The canonical text of each card, by index.
TEXTS: Final[tuple[str, ...]] = tuple([rank.letter + suit.letter for suit in Suit for rank in Rank] + ["Jk"])
#: Each card's points (R22), by index.
POINTS: Final[tuple[int, ...]] = tuple([_POINTS[rank] for _suit in Suit for rank in Rank] + [20])
#: Each card by its canonical text (internal, for fast parsing).
CARD_BY_TEXT: Final = {text: card for text, card in zip(TEXTS, CARDS, strict=True)}

#: The joker. All four jokers of the deck are this same value (R1).
JOKER: Final[Card] = CARDS[JOKER_INDEX]

#: The 56-card deck in canonical order: ♠2…♠A, ♥2…♥A, ♦2…♦A, ♣2…♣A, then four jokers (R1).
DECK: Final[tuple[Card, ...]] = CARDS[:JOKER_INDEX] + (JOKER,) * 4
#: How many of each card the deck holds (internal: one of each natural, four jokers).
DECK_COUNTS: Final = Counter(DECK)

_SEPARATORS: Final = re.compile(r"[\s,\-]+")


def parse_cards(text: str | Iterable[Card | str]) -> tuple[Card, ...]:
    """Parse several cards separated by spaces, commas or hyphens (or take an iterable of
    cards and card texts) and return them as a tuple, in the order given.

    >>> parse_cards("4s, 4d, 4h") == parse_cards("4♠-4♦-4♥") == parse_cards(["4s", "4d", "4h"])
    True
    >>> parse_cards("")
    ()
    """
    if isinstance(text, str):
        if len(text) > _CARDS_TEXT_LIMIT:
            raise NotationError(
                f"R1: no list of cards (56 at most) is written with more than {_CARDS_TEXT_LIMIT} characters, "
                f"not {len(text)}"
            )
        cards = tuple(Card.parse(token) for token in _SEPARATORS.split(text.strip()) if token)
    else:
        try:
            cards = tuple(Card.parse(item) for item in itertools.islice(text, len(DECK) + 1))
        except TypeError:
            raise NotationError(f"R1: expected cards or the text of cards, not {excerpt(text)}") from None
    if len(cards) > len(DECK):
        raise NotationError(f"R1: the deck has {counted(len(DECK), 'card')}, so no list of cards is longer")
    return cards


#: The longest text of a list of cards: the 56 cards of the deck, written the longest way.
_CARDS_TEXT_LIMIT: Final = 1024
