"""What one player may see: their own hand and everything public, nothing else (R27).

>>> from persian_rummy import new_game, legal_actions
>>> state = new_game(1)
>>> view = state.view(1)
>>> view.hand, view.hand_sizes, view.stock_size
(Hand.parse('Js 2d Jd Qd Tc Jk Jk'), (7, 7, 7, 7), 27)
>>> legal_actions(view) == legal_actions(state)
True

A :class:`PlayerView` is what a seat sees now; an :class:`InfoState` adds everything it has
seen during the deal (the public history: every draw, with the card only when the viewer drew
it from the stock, every card taken from the pile, every meld, lay-off, discard and pass),
which is what search algorithms need:

>>> info = InfoState.from_history(state, ["draw", "discard Jk", "draw"], seat=1)
>>> [str(observation) for observation in info.history]
['E draw = Ad', 'E discard Jk', 'S draw']

**Decision** (the rules are silent): once the round is over (``ROUND_OVER`` or ``GAME_OVER``)
every hand is public, because the cards left in hand are counted in the scoring (R23); a view
of a finished round has them all in ``revealed_hands``, which is ``None`` while the round is
played.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from persian_rummy.actions import Action, DrawDiscard, DrawStock
from persian_rummy.cards import Card, parse_cards
from persian_rummy.engine import play
from persian_rummy.errors import InvalidStateError, NotationError, excerpt
from persian_rummy.hand import Hand
from persian_rummy.state import SEAT_LETTERS, GameState, PlayerView, check_seat, observe

__all__ = ["InfoState", "Observation", "PlayerView", "observe"]  # the view itself is defined with the state


def _described(value: object) -> str:
    # Never the repr of a view: it names the cards of that seat's hand, and error messages
    # may be forwarded to another seat (R27).
    return f"a view of seat {value.seat}" if isinstance(value, PlayerView) else f"a {type(value).__name__}"


@attrs.frozen
class Observation:
    """One public event of a deal, as one seat saw it: who acted, the action and the cards it
    moved that the seat saw (R27).

    ``cards`` is, for a stock draw, the card drawn if the viewer drew it (else empty: nobody
    else sees it, R12); for a discard-pile draw, every card taken (public, R13); else empty
    (the action names its cards). Its text is the seat letter (``N E S W``), the action and,
    if there are cards, ``=`` and the cards.

    >>> Observation.parse("S take 2 = 7h 8h Jk")
    Observation(seat=2, action=DrawDiscard(index=2), cards=(Card.parse('7h'), Card.parse('8h'), Card.parse('Jk')))
    >>> str(Observation(1, DrawStock()))
    'E draw'
    """

    #: The seat that acted.
    seat: int = attrs.field(validator=check_seat)
    #: The action it played.
    action: Action
    #: The cards the seat saw move: a stock draw's card for the player who drew it, the cards
    #: a discard-pile draw took; else none.
    cards: tuple[Card, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Observation:
        """Parse an observation's text; raises :class:`~persian_rummy.NotationError`.

        >>> Observation.parse("N draw = Ah").cards
        (Card.parse('Ah'),)
        """
        if not isinstance(text, str):
            raise NotationError(f"expected the text of an observation, not {excerpt(text)}")
        body, equals, cards = text.partition("=")
        words = body.split(maxsplit=1)
        if len(words) != 2 or words[0] not in SEAT_LETTERS or len(words[0]) != 1:
            raise NotationError(
                f"{excerpt(text.strip())} is not an observation (expected a seat N, E, S or W and an action)"
            )
        action = Action.parse(words[1])
        parsed = parse_cards(cards) if equals else ()
        if equals and not parsed:
            raise NotationError(f"{excerpt(text.strip())}: '=' is followed by the cards seen")
        kind = type(action)
        if (kind is DrawStock and len(parsed) > 1) or (kind is not DrawStock and kind is not DrawDiscard and parsed):
            raise NotationError(f"{excerpt(text.strip())}: only a draw shows cards after '='")
        return cls(SEAT_LETTERS.index(words[0]), action, parsed)

    def __str__(self) -> str:
        text = f"{SEAT_LETTERS[self.seat]} {self.action}"
        return f"{text} = {' '.join(map(str, self.cards))}" if self.cards else text


@attrs.frozen
class InfoState:
    """An information state: a seat's current :class:`PlayerView` plus the public history of
    the deal so far, every :class:`Observation` in order (R27). Two positions with equal
    information states cannot be told apart by that seat.

    Build one with :meth:`start` (at the start of a deal) and :meth:`update` after each action,
    or all at once with :meth:`from_history`. ``str`` is the view's position string followed by
    one line per observation.

    >>> from persian_rummy import new_game
    >>> info = InfoState.from_history(new_game(1), ["draw", "discard Jk"], seat=3)
    >>> print(info)
    ?7/?7/?7/As4h6hAh5dTd3c ?26 2sJk - seat=3 turn=2 phase=draw must=- dealer=0 deal=1 scores=0,0 passes=0 idle=0 progress=0 out=- rules=default
    E draw
    E discard Jk
    """

    #: The seat's view now.
    view: PlayerView
    #: Every public event of the deal so far, as the seat saw it, in order.
    history: tuple[Observation, ...] = ()

    @property
    def seat(self) -> int:
        """The seat whose information this is.

        >>> from persian_rummy import new_game
        >>> InfoState.start(new_game(1), 2).seat
        2
        """
        return self.view.seat

    @classmethod
    def start(cls, state: GameState | PlayerView, seat: int | None = None) -> InfoState:
        """The information state at the start of a deal (or at any point, with no history):
        from a state and a seat, or from a view.

        >>> from persian_rummy import new_game
        >>> InfoState.start(new_game(1).view(0)) == InfoState.start(new_game(1), 0)
        True
        """
        if isinstance(state, GameState):
            if seat is None:
                raise InvalidStateError("R27: an information state from a GameState needs a seat")
            return cls(observe(state, seat))
        if not isinstance(state, PlayerView) or (seat is not None and seat != state.seat):
            raise InvalidStateError(f"R27: expected a GameState or a view of seat {seat}, not {_described(state)}")
        return cls(state)

    @classmethod
    def from_history(cls, state: GameState, actions: Iterable[Action | str], *, seat: int) -> InfoState:
        """Play ``actions`` from ``state`` and return ``seat``'s information state at the end.
        Raises what :func:`~persian_rummy.play` raises for an illegal action.

        >>> from persian_rummy import new_game
        >>> InfoState.from_history(new_game(1), ["draw"], seat=1).history[0].cards
        (Card.parse('Ad'),)
        """
        info = cls.start(state, seat)
        for action in actions:
            if isinstance(action, str):
                action = Action.parse(action)
            state = play(state, action)
            info = info.update(action, state)
        return info

    def update(self, action: Action | str, after: GameState | PlayerView) -> InfoState:
        """The information state after ``action`` was played, given the state (or this seat's
        view) after it. Raises :class:`~persian_rummy.InvalidStateError` if ``after`` is not
        the same deal or the round was already over.

        >>> from persian_rummy import new_game, play
        >>> state = new_game(1)
        >>> after = play(state, "draw")
        >>> InfoState.start(state, 0).update("draw", after.view(0)).history
        (Observation(seat=1, action=DrawStock(), cards=()),)
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(action, Action):
            raise TypeError(f"expected an Action or its text, not {excerpt(action)}")  # as play() does
        before = self.view
        view = observe(after, before.seat) if isinstance(after, GameState) else after
        if not isinstance(view, PlayerView) or view.seat != before.seat:
            raise InvalidStateError(
                f"R27: expected a GameState or a view of seat {before.seat}, not {_described(after)}"
            )
        if not before.phase.is_live:
            raise InvalidStateError(f"the round is over; start a new information state for deal {view.deal_number}")
        if view.deal_number != before.deal_number:
            raise InvalidStateError(f"deal {view.deal_number} follows deal {before.deal_number}: start a new one")
        actor = before.current_player
        cards: tuple[Card, ...] = ()
        if type(action) is DrawStock and actor == before.seat:
            drawn = view.hand - before.hand if view.hand.issuperset(before.hand) else Hand()
            if len(drawn) != 1:
                raise InvalidStateError("R12: after a stock draw the viewer's hand holds exactly one card more")
            cards = tuple(drawn)
        elif type(action) is DrawDiscard:
            if not 0 <= action.index < len(before.discard_pile):
                raise InvalidStateError(f"R13: there is no card at index {action.index} of the discard pile")
            cards = before.discard_pile[action.index :]
        return InfoState(view, self.history + (Observation(actor, action, cards),))

    def legal_actions(self) -> tuple[Action, ...]:
        """The viewer's legal actions now (see :meth:`PlayerView.legal_actions`).

        >>> from persian_rummy import new_game
        >>> len(InfoState.start(new_game(1), 1).legal_actions()) > 0
        True
        """
        return self.view.legal_actions()

    def __str__(self) -> str:
        return "\n".join([self.view.position(), *map(str, self.history)])
