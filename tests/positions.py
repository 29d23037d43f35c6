"""Positions for example-based tests: name the cards that matter, the rest of the deck fills
the stock (or lies under the discard pile)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from persian_rummy import DECK, Card, GameState, Meld, Rules, draw_stock, parse_cards

DEFAULT_RULES = Rules()


def rest_of_deck(named: Iterable[Card]) -> list[Card]:
    """The cards of the deck not in ``named``, in deck order."""
    counts = Counter(named)
    rest = []
    for card in DECK:
        if counts[card]:
            counts[card] -= 1
        else:
            rest.append(card)
    return rest


def position(
    hands: Sequence[str],
    pile: str = "",
    *,
    top: str = "",
    melds: Sequence[str] = (),
    rest_to: str = "stock",
    dealer: int = 0,
    rules: Rules = DEFAULT_RULES,
) -> GameState:
    """Seat ``dealer + 1`` to draw. The cards named nowhere go to the stock (with ``top`` on
    top) or, with ``rest_to="pile"``, under the discard pile, leaving the stock empty."""
    named = list(parse_cards(pile + " " + top))
    for hand in hands:
        named.extend(parse_cards(hand))
    for text in melds:
        named.extend(Meld.parse(text).cards)
    rest = rest_of_deck(named)
    if rest_to == "pile":
        return GameState.from_position(
            hands, rest + list(parse_cards(pile)), stock=(), melds=melds, dealer=dealer, rules=rules
        )
    stock = rest + list(parse_cards(top))
    return GameState.from_position(hands, pile, stock=stock, melds=melds, dealer=dealer, rules=rules)


def after_draw(
    hands: Sequence[str],
    drawn: str,
    *,
    pile: str = "",
    melds: Sequence[str] = (),
    dealer: int = 0,
    rules: Rules = DEFAULT_RULES,
) -> GameState:
    """The seat left of ``dealer`` has just drawn ``drawn`` from the stock."""
    return draw_stock(position(hands, pile, top=drawn, melds=melds, dealer=dealer, rules=rules))
