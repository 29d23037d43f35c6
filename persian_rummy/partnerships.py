"""The partnership draw that seats the players and picks the first dealer (R4).

Each player draws one card from a shuffled deck; for this draw only, aces are low (A=1 < 2
< … < K) and jokers high (above K), and suits never break ties. The two lowest cards form
one team, the two highest the other, and the player with the single lowest card deals first.
Ties that matter (between the second and third lowest, or for the lowest) are redrawn among
the tied players only, from the rest of the same deck.

>>> draw = draw_partnerships(["Ann", "Bob", "Cy", "Di"], seed=3)
>>> draw.seats
('Ann', 'Bob', 'Di', 'Cy')
>>> [[f"{player} {card}" for player, card in round] for round in draw.draws]
[['Ann 3c', 'Bob 7s', 'Cy 9h', 'Di 6c']]
>>> draw = draw_partnerships(["Ann", "Bob", "Cy", "Di"], seed=1)  # Cy and Di tie for second
>>> [[f"{player} {card}" for player, card in round] for round in draw.draws]
[['Ann 4d', 'Bob Jk', 'Cy 5d', 'Di 5s'], ['Cy Jk', 'Di Qd']]
>>> draw.teams
(('Ann', 'Di'), ('Bob', 'Cy'))
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Generic, TypeVar

import attrs

from persian_rummy.cards import DECK, Card, Rank
from persian_rummy.dealing import Seed, SeededStream
from persian_rummy.errors import InvalidArgumentError, excerpt

__all__ = ["PartnershipDraw", "draw_partnerships", "draw_value"]

P = TypeVar("P", bound=Hashable)


def draw_value(card: Card) -> int:
    """A card's value in the partnership draw (R4): ace 1, 2-10 face value, J 11, Q 12, K 13,
    joker 14.

    >>> [draw_value(Card.parse(text)) for text in ("As", "Kd", "Jk")]
    [1, 13, 14]
    """
    if card.is_joker:
        return 14
    return 1 if card.natural_rank is Rank.ACE else int(card.natural_rank)


@attrs.frozen
class PartnershipDraw(Generic[P]):
    """The result of the partnership draw (R4).

    >>> draw = draw_partnerships("NESW", seed=1)
    >>> draw.teams
    (('N', 'W'), ('E', 'S'))
    """

    #: The players in seat order 0-3. Seat 0 is the first dealer and seat 2 their partner (the other
    #: low card); the two high cards sit at seats 1 and 3, in the order the players were given.
    seats: tuple[P, P, P, P]
    #: The seat of the first dealer (always 0, so ``new_game(seed)`` fits).
    dealer: int
    #: Every round of drawing, each a tuple of ``(player, card)`` in drawing order: first everyone,
    #: then each redraw among tied players.
    draws: tuple[tuple[tuple[P, Card], ...], ...]

    @property
    def teams(self) -> tuple[tuple[P, P], tuple[P, P]]:
        """The two partnerships: team 0 (seats 0 and 2) and team 1 (seats 1 and 3), R3.

        >>> draw_partnerships("NESW", seed=1).teams[0]
        ('N', 'W')
        """
        return (self.seats[0], self.seats[2]), (self.seats[1], self.seats[3])


def draw_partnerships(players: Sequence[P], seed: Seed) -> PartnershipDraw[P]:
    """Hold the partnership draw of R4 for four distinct players with a seeded deck.

    Returns who sits in which seat, the first dealer and every card drawn (see
    :class:`PartnershipDraw`). Should the deck run out during redraws (it practically never
    does), the cards drawn so far are shuffled back in.

    >>> draw = draw_partnerships(["Ann", "Bob", "Cy", "Di"], seed=3)
    >>> draw.seats[draw.dealer]
    'Ann'
    """
    group = tuple(players)
    if len(group) != 4 or len(set(group)) != 4:
        raise InvalidArgumentError(f"R3: the partnership draw needs four distinct players, not {excerpt(players)}")
    stream = SeededStream(seed, "partnerships")
    deck = list(stream.shuffle(DECK))
    rounds: list[tuple[tuple[P, Card], ...]] = []

    def draw_round(drawers: Sequence[P]) -> dict[P, int]:
        nonlocal deck
        if len(deck) < len(drawers):
            deck = list(stream.shuffle(DECK))
        drawn = tuple((player, deck.pop(0)) for player in drawers)
        rounds.append(drawn)
        return {player: draw_value(card) for player, card in drawn}

    def order(drawers: Sequence[P], cuts: set[int]) -> list[P]:
        # Order the players low to high, redrawing only ties that straddle a cut that matters:
        # a cut k means "which k players are lowest" must be decided.
        values = draw_round(drawers)
        ranked = sorted(drawers, key=lambda player: values[player])
        result: list[P] = []
        start = 0
        while start < len(ranked):
            value = values[ranked[start]]
            end = start
            while end < len(ranked) and values[ranked[end]] == value:
                end += 1
            tied = ranked[start:end]
            inner = {cut - start for cut in cuts if start < cut < end}
            result.extend(order(tied, inner) if inner else tied)
            start = end
        return result

    low_to_high = order(group, {1, 2})
    dealer, partner = low_to_high[0], low_to_high[1]
    high = [player for player in group if player not in (dealer, partner)]
    return PartnershipDraw(seats=(dealer, high[0], partner, high[1]), dealer=0, draws=tuple(rounds))
