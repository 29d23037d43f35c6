"""Actions: the moves a player can make, as frozen values with a compact text form.

An action never names a seat: it is always for the player to move. The text forms are::

    draw                 DrawStock()          take the top card of the stock (R12)
    take INDEX           DrawDiscard(INDEX)   take discard_pile[INDEX:] (R13)
    meld CARD CARD ...   MeldCards(cards)     lay down a set or run (R15)
    layoff CARD MELD     LayOff(card, meld)   add a card to table meld number MELD (R16)
    discard CARD         Discard(card)        discard and end the turn (R17)
    pass                 Pass()               pass with an empty stock (R20)

The words people say are read too: ``lay off 9s 0`` and ``lay off 9♠ on #0`` (the form the
command line lists its options in) for ``layoff 9s 0``, ``draw from the stock`` for
``draw``, ``take #3`` for ``take 3``.

Formally (EBNF; keywords and cards are case-insensitive, words are separated by any
whitespace, leading and trailing whitespace is ignored; :func:`str` writes the canonical form,
lower-case keywords, canonical cards in canonical order, single spaces)::

    action  = "draw" [ [ "from" ] [ "the" ] "stock" ] | "take" index | "meld" card { card }
            | layoff card [ "on" ] [ "meld" ] index | "discard" card | "pass" ;
    layoff  = "layoff" | "lay" "off" | "lay-off" | "lay_off" ;
    index   = [ "#" ] digit { digit } ;        (* ASCII digits: 0 is the bottom of the pile *)
    card    = rank suit | "Jk" | "joker" | "🃏" ;
    rank    = "2" | ... | "9" | "T" | "10" | "J" | "Q" | "K" | "A" ;
    suit    = "s" | "h" | "d" | "c" | "♠" | "♥" | "♦" | "♣" ;

``Action.parse(str(action)) == action`` for every action, and ``str(Action.parse(text))`` is
a fixed point. Text that does not match raises :class:`~persian_rummy.NotationError`; whether
the action is legal is a separate question (:func:`~persian_rummy.is_legal`).

>>> Action.parse("meld 7h 7d 7s")
MeldCards(cards=(Card.parse('7s'), Card.parse('7h'), Card.parse('7d')))
>>> str(LayOff("8h", 2)), str(DrawDiscard(3)), Action.parse("pass")
('layoff 8h 2', 'take 3', Pass())
>>> Action.parse("lay off 9♠ on #0") == Action.parse("layoff 9s 0") == LayOff("9s", 0)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Final

import attrs

from persian_rummy._bits import cards_bits, cards_of_mask
from persian_rummy.cards import CARDS, JOKER_INDEX, Card, parse_cards
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, NotationError, excerpt
from persian_rummy.limits import MELD_LIMIT, PILE_LIMIT
from persian_rummy.melds import candidate_melds

__all__ = ["Action", "Discard", "DrawDiscard", "DrawStock", "LayOff", "MeldCards", "Pass"]


class Action:
    """The base class of the six actions. :meth:`parse` reads any action's text form.

    >>> isinstance(Action.parse("draw"), Action)
    True
    """

    __slots__ = ()
    #: The action's keyword in the text form.
    keyword: ClassVar[str] = ""

    @staticmethod
    def parse(text: str) -> Action:
        """Parse an action from its text form (see the module documentation for the grammar).

        Raises :class:`~persian_rummy.NotationError` for text that is not an action.

        >>> Action.parse("take 0"), Action.parse("discard K♦")
        (DrawDiscard(index=0), Discard(card=Card.parse('Kd')))
        >>> Action.parse("lay off 9s 0"), Action.parse("draw from the stock")
        (LayOff(card=Card.parse('9s'), meld=0), DrawStock())
        """
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise NotationError(f"expected the text of an action, not {excerpt(text)}", reason=_NOT_AN_ACTION)
        if len(text) > _ACTION_TEXT_LIMIT:
            raise NotationError(
                f"no action is written with more than {_ACTION_TEXT_LIMIT} characters, not {len(text)}",
                reason=_NOT_AN_ACTION,
            )
        words = text.split()
        if not words:
            raise NotationError(f"an empty text is {_NOT_AN_ACTION}", reason=_NOT_AN_ACTION)
        keyword, arguments = words[0].lower(), words[1:]
        kind = _BY_KEYWORD.get(keyword)
        if kind is None and keyword == "lay" and arguments and arguments[0].lower() == "off":  # spoken
            kind, arguments = LayOff, arguments[1:]
        if kind is None:
            raise NotationError(f"{excerpt(words[0])} is {_NOT_AN_ACTION}", reason=_NOT_AN_ACTION)
        try:
            return kind._from_words(arguments, text)
        except InvalidArgumentError as error:  # a number past any game, read from text
            raise NotationError(str(error), reason=error.reason) from None

    @classmethod
    def _from_words(cls, words: list[str], text: str) -> Action:
        # An action with no arguments (draw, pass); the others read theirs.
        _arity(words, 0, text, cls.keyword)
        return DRAW_STOCK if cls is DrawStock else PASS if cls is Pass else cls()

    def __str__(self) -> str:
        return self.keyword


#: The longest text of an action: a meld of 13 cards written the longest way, with room for spaces.
_ACTION_TEXT_LIMIT: Final = 256
_NOT_AN_ACTION: Final = "not an action (expected draw, take, meld, lay off, discard or pass)"
#: The words ``draw`` may be followed by (``draw from the stock``).
_DRAW_WORDS: Final = frozenset({"stock", "the stock", "from stock", "from the stock"})


def _arity(words: list[str], count: int, text: str, usage: str) -> None:
    if len(words) != count:
        raise NotationError(
            f"{excerpt(text.strip())} does not parse: expected {excerpt(usage)}",
            reason=f"the action does not parse: expected {excerpt(usage)}",
        )


def _index(word: str, text: str, usage: str) -> int:
    word = word.removeprefix("#")  # a table meld as the table lists it (#0)
    try:
        if word.isdigit() and word.isascii():
            return int(word)
    except ValueError:  # past Python's limit on the digits of an int
        pass
    raise NotationError(
        f"{excerpt(text.strip())} does not parse: expected {excerpt(usage)} with a whole number",
        reason=f"the action does not parse: expected {excerpt(usage)} with a whole number",
    )


def _index_below(limit: int, why: str) -> Any:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        # Bounded here, before any table is looked up or any text is made of the number.
        if type(value) is not int:
            raise ArgumentTypeError(
                f"{type(instance).__name__}.{attribute.name} must be a whole number, not {excerpt(value)}"
            )
        if not 0 <= value < limit:
            raise InvalidArgumentError(
                f"{type(instance).__name__}.{attribute.name} must be a whole number from 0 to {limit - 1} "
                f"({why}), not {excerpt(value)}"
            )

    return check


_pile_index = _index_below(PILE_LIMIT, "R1, R13: no discard pile holds more than 56 cards")
_meld_index = _index_below(MELD_LIMIT, "R1, R8, R9, R16: no table holds more than 18 melds to lay off on")


def _canonical_cards(cards: str | Iterable[Card | str]) -> tuple[Card, ...]:
    parsed = parse_cards(cards)
    if not parsed:
        # R15: a meld action names its cards; "meld" alone is not an action (and would not parse back).
        raise NotationError("a meld action names at least one card: 'meld CARD CARD CARD ...'")
    return tuple(sorted(parsed, key=_card_index))


def _card(card: Card | str) -> Card:
    return Card.parse(card)


def _card_index(card: Card) -> int:
    return card.index


@attrs.frozen
class DrawStock(Action):
    """Take the top card of the stock (R12).

    >>> DrawStock(), str(DrawStock())
    (DrawStock(), 'draw')
    """

    keyword: ClassVar[str] = "draw"

    @classmethod
    def _from_words(cls, words: list[str], text: str) -> Action:
        if words and " ".join(words).lower() not in _DRAW_WORDS:
            _arity(words, 0, text, "draw")
        return DRAW_STOCK


@attrs.frozen
class DrawDiscard(Action):
    """Take the discard-pile card at ``index`` (0 is the bottom) and every card above it,
    ``discard_pile[index:]`` (R13); the card at ``index`` must then be melded (R14).

    >>> DrawDiscard(2), str(DrawDiscard(2))
    (DrawDiscard(index=2), 'take 2')
    """

    keyword: ClassVar[str] = "take"
    #: The index of the card taken, 0 for the bottom of the pile; every card above it is taken too.
    index: int = attrs.field(validator=_pile_index)

    @classmethod
    def _from_words(cls, words: list[str], text: str) -> Action:
        _arity(words, 1, text, "take INDEX")
        index = _index(words[0], text, "take INDEX")
        return _DRAW_DISCARDS[index] if index < PILE_LIMIT else cls(index)  # the shared value, or the error

    def __str__(self) -> str:
        return f"take {self.index}"


@attrs.frozen
class MeldCards(Action):
    """Lay down a set or run from the hand (R15). The cards are kept in canonical order, so
    the same cards make the same action whatever order they are given in.

    >>> MeldCards("7s 7h 7d") == MeldCards(["7d", "7s", "7h"])
    True
    >>> str(MeldCards("Qs Ks As"))
    'meld Qs Ks As'
    """

    keyword: ClassVar[str] = "meld"
    #: The cards melded, in canonical order.
    cards: tuple[Card, ...] = attrs.field(converter=_canonical_cards)

    @classmethod
    def _from_words(cls, words: list[str], text: str) -> Action:
        if not words:
            raise NotationError(
                f"{excerpt(text.strip())} does not parse: expected 'meld CARD CARD CARD ...'",
                reason="the action does not parse: expected 'meld CARD CARD CARD ...'",
            )
        action = cls(parse_cards(" ".join(words)))
        mask, jokers = cards_bits(action.cards)
        shared = MELD_ACTIONS.get(mask | jokers << JOKER_INDEX)
        return shared if shared is not None and shared == action else action  # the shared value when it is one

    def __str__(self) -> str:
        return "meld " + " ".join(map(str, self.cards))


@attrs.frozen
class LayOff(Action):
    """Add ``card`` from the hand to the table meld ``state.melds[meld]`` (R16).

    >>> LayOff("3c", 0)
    LayOff(card=Card.parse('3c'), meld=0)
    """

    keyword: ClassVar[str] = "layoff"
    #: The card laid off, from the hand.
    card: Card = attrs.field(converter=_card)
    #: The index of the table meld it is laid off on (``state.melds[meld]``).
    meld: int = attrs.field(validator=_meld_index)

    @classmethod
    def _from_words(cls, words: list[str], text: str) -> Action:
        # "on" and then "meld" may stand between the card and the meld's number (lay off 9s on meld #0).
        for word in ("on", "meld"):
            if len(words) > 2 and words[1].lower() == word:
                del words[1]
        # The usage in the spelling the player used: "lay off" (as the command line's help and
        # options write it) or the keyword as typed ("layoff", "lay-off", "lay_off").
        typed = text.split()[0].lower()
        usage = ("lay off" if typed == "lay" else typed) + " CARD MELD"
        _arity(words, 2, text, usage)
        card, meld = Card.parse(words[0]), _index(words[1], text, usage)
        return _LAY_OFFS[card.index][meld] if meld < MELD_LIMIT else cls(card, meld)  # shared, or the error

    def __str__(self) -> str:
        return f"layoff {self.card} {self.meld}"


@attrs.frozen
class Discard(Action):
    """Put ``card`` from the hand on top of the discard pile, ending the turn (R17).

    >>> Discard("K♦")
    Discard(card=Card.parse('Kd'))
    """

    keyword: ClassVar[str] = "discard"
    #: The card discarded, from the hand.
    card: Card = attrs.field(converter=_card)

    @classmethod
    def _from_words(cls, words: list[str], text: str) -> Action:
        _arity(words, 1, text, "discard CARD")
        return DISCARDS[Card.parse(words[0]).index]  # the shared value

    def __str__(self) -> str:
        return f"discard {self.card}"


@attrs.frozen
class Pass(Action):
    """Pass instead of drawing, allowed only when the stock is empty (R20).

    >>> str(Pass())
    'pass'
    """

    keyword: ClassVar[str] = "pass"


_BY_KEYWORD: Final[dict[str, type[Action]]] = {
    **{kind.keyword: kind for kind in (DrawStock, DrawDiscard, MeldCards, LayOff, Discard, Pass)},
    # Other spellings of the keywords ("lay off", two words, is read by Action.parse).
    "lay-off": LayOff,
    "lay_off": LayOff,
}

# Shared instances the engine hands out instead of building equal values again and again. They
# are built here, once, at import: a table that never changes is safe to read from any number
# of threads, and cannot grow with what callers ask for.
DRAW_STOCK: Final = DrawStock()
PASS: Final = Pass()
DISCARDS: Final = tuple(Discard(card) for card in CARDS)
_DRAW_DISCARDS: Final = tuple(DrawDiscard(index) for index in range(PILE_LIMIT))
_LAY_OFFS: Final = tuple(tuple(LayOff(card, meld) for meld in range(MELD_LIMIT)) for card in CARDS)


#: Every valid meld of the deck by ``mask | jokers << JOKER_INDEX`` (its natural mask, or its
#: count of jokers above the naturals' bits): sets, runs (ace high, and ace low for
#: ``ace_in_runs="high_or_low"``) and joker sets (R8-R11), 371 in all (internal).
MELD_ACTIONS: Final = {
    mask | jokers << JOKER_INDEX: MeldCards([*cards_of_mask(mask), *[CARDS[JOKER_INDEX]] * jokers])
    for mask, jokers, _ in candidate_melds((1 << JOKER_INDEX) - 1, 4, True)
}


def draw_discard_action(index: int) -> DrawDiscard:
    """The shared ``DrawDiscard(index)`` value for a pile index (internal)."""
    return _DRAW_DISCARDS[index]


def lay_off_action(card_index: int, meld: int) -> LayOff:
    """The shared ``LayOff`` value for a card index and a table index (internal)."""
    return _LAY_OFFS[card_index][meld]


def meld_action(mask: int, jokers: int) -> MeldCards:
    """The shared ``MeldCards`` value for the natural cards of ``mask`` plus ``jokers`` jokers,
    a valid meld (internal). Anything else is built afresh and not kept."""
    action = MELD_ACTIONS.get(mask | jokers << JOKER_INDEX)
    if action is None:
        return MeldCards([*cards_of_mask(mask), *[CARDS[JOKER_INDEX]] * jokers])
    return action
