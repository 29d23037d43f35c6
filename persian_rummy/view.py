"""What one player may see: their own hand and everything public, nothing else (R27).

>>> from persian_rummy import new_game, legal_actions
>>> state = new_game(1)
>>> view = state.view(1)
>>> view.hand, view.hand_sizes, view.stock_size
(Hand.parse('Js 2d Jd Qd Tc Jk Jk'), (7, 7, 7, 7), 27)
>>> legal_actions(view) == legal_actions(state)
True
"""

from __future__ import annotations

import attrs

from persian_rummy.cards import Card
from persian_rummy.errors import InvalidStateError
from persian_rummy.hand import Hand
from persian_rummy.melds import Meld
from persian_rummy.rules import Rules
from persian_rummy.state import PLAYERS, GameState, Phase

__all__ = ["PlayerView", "observe"]


@attrs.frozen
class PlayerView:
    """One seat's view of a state: everything public plus that seat's own hand (R27).

    Public: the melds with the seat credited for each card, the whole discard pile in order,
    the size of each hand and of the stock, the scores, the phase, whose turn it is, the card
    that must be melded, the dealer, the deal number and the rules. Hidden: the other hands
    (the partner's too) and the order of the stock.

    The fields mirror :class:`~persian_rummy.GameState`, with ``hand`` (the viewer's own
    hand), ``hand_sizes`` and ``stock_size`` in place of ``hands`` and ``stock``.
    :func:`~persian_rummy.legal_actions` accepts a view: for the seat to move it gives
    exactly the actions of the state.

    >>> from persian_rummy import new_game
    >>> view = observe(new_game(1), 3)
    >>> view.seat, view.current_player, len(view.hand)
    (3, 1, 7)
    """

    seat: int
    hand: Hand
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_pile: tuple[Card, ...]
    melds: tuple[Meld, ...]
    current_player: int
    dealer: int
    phase: Phase
    must_meld: Card | None
    deal_number: int
    scores: tuple[int, int]
    rules: Rules
    consecutive_passes: int = 0
    idle_turns: int = 0
    turn_progress: bool = False
    went_out: int | None = None

    @property
    def is_to_move(self) -> bool:
        """Whether the viewer is the player to act.

        >>> from persian_rummy import new_game
        >>> new_game(1).view(1).is_to_move, new_game(1).view(2).is_to_move
        (True, False)
        """
        return self.phase.is_live and self.seat == self.current_player

    @property
    def top_card(self) -> Card | None:
        """The top card of the discard pile, or ``None`` when the pile is empty.

        >>> from persian_rummy import new_game
        >>> new_game(1).view(0).top_card
        Card.parse('2s')
        """
        return self.discard_pile[-1] if self.discard_pile else None

    def _repr_svg_(self) -> str:
        """The table as this seat sees it, as an SVG picture shown by Jupyter (see
        :func:`persian_rummy.svg.table`)."""
        from persian_rummy.svg import table

        return table(self)


def observe(state: GameState, seat: int) -> PlayerView:
    """The :class:`PlayerView` of ``seat`` (0-3) on ``state``; same as ``state.view(seat)``.

    >>> from persian_rummy import new_game
    >>> observe(new_game(1), 0).hand
    Hand.parse('3s 6s Ts Qs 3h 8h 8c')
    """
    if type(seat) is not int or not 0 <= seat < PLAYERS:
        raise InvalidStateError(f"R3: a view is for a seat 0-3, not {seat!r}")
    return PlayerView(
        seat,
        state.hands[seat],
        tuple(len(hand) for hand in state.hands),
        len(state.stock),
        state.discard_pile,
        state.melds,
        state.current_player,
        state.dealer,
        state.phase,
        state.must_meld if seat == state.current_player else None,
        state.deal_number,
        state.scores,
        state.rules,
        state.consecutive_passes,
        state.idle_turns,
        state.turn_progress,
        state.went_out,
    )
