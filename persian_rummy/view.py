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

>>> from persian_rummy import info_after
>>> info = info_after(state, ["draw", "discard Jk", "draw"], seat=1)
>>> [str(observation) for observation in info.history]
['E draw = Ad', 'E discard Jk', 'S draw']

**Decision** (the rules are silent): once the round is over (``ROUND_OVER`` or ``GAME_OVER``)
every hand is public, because the cards left in hand are counted in the scoring (R23); a view
of a finished round has them all in ``revealed_hands``, which is ``None`` while the round is
played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Protocol, TypeAlias, TypeGuard

import attrs

from persian_rummy._bits import PLAYERS, SEAT_LETTERS, SEAT_NAMES, TEAM_NAMES, check_seat, is_seat
from persian_rummy._consistency import check_fields, check_finished_scores, check_mover, check_turn
from persian_rummy._moves import turn_actions_of
from persian_rummy._notation import format_fields, parse_view_fields
from persian_rummy._phase import PHASES, SharedFields, in_reading_order
from persian_rummy._table_text import format_table
from persian_rummy.actions import Action, DrawDiscard, DrawStock
from persian_rummy.cards import DECK, DECK_COUNTS, Card, parse_cards
from persian_rummy.errors import ArgumentTypeError, InvalidStateError, NotationError, counted, excerpt
from persian_rummy.hand import Hand
from persian_rummy.serialization import from_json, register_format, to_json

__all__ = ["InfoState", "Observation", "PlayerView", "observe"]


class Dealt(Protocol):
    """What a view is made from: a position that shows each seat its view, as a
    :class:`~persian_rummy.GameState` does (named here, below the state)."""

    def view(self, seat: int) -> PlayerView: ...


def _is_dealt(value: object) -> TypeGuard[Dealt]:
    # A full position (a GameState): a position that is not a view.
    return isinstance(value, SharedFields) and not isinstance(value, PlayerView)


@attrs.frozen(repr=False, cache_hash=True, field_transformer=in_reading_order)
class PlayerView(SharedFields):
    """One seat's view of a state: everything public plus that seat's own hand (R27).

    Public: the melds with the seat credited for each card, the whole discard pile in order,
    the size of each hand and of the stock, the scores, the phase, whose turn it is, the card
    that must be melded, the dealer, the deal number and the rules. Hidden: the other hands
    (the partner's too) and the order of the stock. Once the round is over every hand is
    public (R23): ``revealed_hands`` holds them, and is ``None`` while the round is played.

    The fields mirror :class:`~persian_rummy.GameState`, with ``hand`` (the viewer's own
    hand), ``hand_sizes`` and ``stock_size`` in place of ``hands`` and ``stock``.
    :func:`~persian_rummy.legal_actions` accepts a view: for the seat to move it gives
    exactly the actions of the state. ``must_meld`` is public: every seat saw the card taken
    from the discard pile and knows it must be melded next (R13-R14, R27).

    A view formats to a one-line position string (:meth:`position`, see
    :mod:`persian_rummy.position`) in which the hidden hands and the stock are only counts,
    and ``repr`` pastes back as ``PlayerView.parse('...')``.

    >>> from persian_rummy import new_game
    >>> view = observe(new_game(1), 3)
    >>> view.seat, view.current_player, len(view.hand), view.revealed_hands
    (3, 1, 7, None)
    >>> view
    PlayerView.parse('?7/?7/?7/As4h6hAh5dTd3c ?27 2s - seat=3 turn=1 phase=draw must=- dealer=0 deal=1 scores=0,0 passes=0 idle=0 progress=0 out=- rules=default')
    """

    #: The viewer's seat (0-3).
    seat: int
    #: The viewer's own hand.
    hand: Hand
    #: The size of each hand, in seat order (the viewer's too).
    hand_sizes: tuple[int, ...]
    #: The number of cards in the stock (its order is hidden, R27).
    stock_size: int
    #: Every hand once the round is over (R23), in seat order; ``None`` while it is played.
    #: (A frozen field in place of the base's read-only property: a sound override.)
    revealed_hands: tuple[Hand, ...] | None = None  # pyright: ignore[reportIncompatibleMethodOverride]

    @classmethod
    def parse(cls, text: str) -> PlayerView:
        """Parse a view's position string (see :mod:`persian_rummy.position`).

        Raises :class:`~persian_rummy.NotationError` or :class:`~persian_rummy.InvalidStateError`.

        >>> from persian_rummy import new_game
        >>> PlayerView.parse(new_game(1).view(0).position()) == new_game(1).view(0)
        True
        """
        view = cls(**parse_view_fields(text, PHASES))  # type: ignore[arg-type]
        view.validate()
        return view

    def position(self) -> str:
        """The view's one-line position string: hidden hands and the stock appear as counts.

        >>> from persian_rummy import new_game
        >>> new_game(1).view(1).position()[:40]
        '?7/Js2dJdQdTcJkJk/?7/?7 ?27 2s - seat=1 '
        """
        return format_fields(self)

    def to_json(self) -> str:
        """The view as JSON (see :mod:`persian_rummy.serialization`): hidden cards are not in it.

        >>> from persian_rummy import new_game
        >>> PlayerView.from_json(new_game(1).view(2).to_json()) == new_game(1).view(2)
        True
        """
        return to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> PlayerView:
        """Read a view from its JSON, validating it (see :meth:`validate`). Raises
        :class:`~persian_rummy.NotationError` or :class:`~persian_rummy.InvalidStateError`
        (saying where), whatever it is given.

        >>> PlayerView.from_json('{"format": "persian-rummy view", "version": 1}')
        Traceback (most recent call last):
        ...
        persian_rummy.errors.NotationError: the JSON does not describe a view: required field missing @ $.seat; required field missing @ $.hand; required field missing @ $.hand_sizes; required field missing @ $.stock_size; required field missing @ $.discard_pile; and 8 more
        """
        return from_json(text, cls)

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the viewer, if it is to move (else ``()``); see
        :func:`~persian_rummy.legal_actions`.

        >>> from persian_rummy import new_game
        >>> new_game(1).view(1).legal_actions()[0]
        DrawStock()
        """
        return turn_actions_of(self, self.hand, self.stock_size) if self.is_to_move else ()

    def validate(self) -> None:
        """Check that the view could occur in a game, else raise
        :class:`~persian_rummy.InvalidStateError` saying what is wrong.

        >>> from persian_rummy import new_game
        >>> new_game(1).view(0).validate()
        """
        _validate_view(self)

    def __repr__(self) -> str:
        return f"PlayerView.parse({self.position()!r})"

    def __str__(self) -> str:
        """The table as this seat sees it, as text: the other hands as counts until the
        round is over (R23, R27); ``repr`` is the pasteable form, :meth:`position` the
        one-line string.

        >>> from persian_rummy import new_game
        >>> print(new_game(1).view(2))
        Deal 1 of 2 · North dealt · North-South 0, East-West 0 · stock 27
          North  7 cards
          East   7 cards   <- to draw
          South  7 cards   (you)
          West   7 cards
          Discard pile (index: card, bottom to top): 0:2s
          Melds: none
          Your hand: 9s Ks Jh 4d 9d 7c Kc
        """
        return self.text()

    def text(self, *, card: Callable[[Card], str] = str, bold: Callable[[str], str] = str) -> str:
        """The table as text, as ``print`` shows it, with each card written by ``card``
        (its notation by default) and the header passed through ``bold``.

        >>> from persian_rummy import new_game
        >>> print(new_game(1).view(1).text(card=lambda card: card.symbol).splitlines()[-1])
          Your hand: J♠ 2♦ J♦ Q♦ T♣ 🃏 🃏
        """
        revealed = self.revealed_hands
        return format_table(
            self,
            hands=[
                self.hand if seat == self.seat else (revealed[seat] if revealed else None) for seat in range(PLAYERS)
            ],
            sizes=self.hand_sizes,
            stock=self.stock_size,
            viewer=self.seat,
            seat_names=SEAT_NAMES,
            team_names=TEAM_NAMES,
            card=card,
            bold=bold,
        )

    @property
    def is_to_move(self) -> bool:
        """Whether the viewer is the player to act.

        >>> from persian_rummy import new_game
        >>> new_game(1).view(1).is_to_move, new_game(1).view(2).is_to_move
        (True, False)
        """
        return self.phase.is_live and self.seat == self.current_player

    def _repr_svg_(self) -> str:
        """The table as this seat sees it, as an SVG picture shown by Jupyter (see
        :func:`persian_rummy.svg.table`)."""
        from persian_rummy.svg import table

        return table(self)


register_format(PlayerView, "persian-rummy view", "a view")

#: A state or a view: what an information state starts from and is updated with.
StateOrView: TypeAlias = "Dealt | PlayerView"


def observe(state: Dealt, seat: int) -> PlayerView:
    """The :class:`PlayerView` of ``seat`` (0-3) on ``state``; same as ``state.view(seat)``.

    >>> from persian_rummy import new_game
    >>> observe(new_game(1), 0).hand
    Hand.parse('3s 6s Ts Qs 3h 8h 8c')
    """
    return state.view(seat)


def _validate_view(view: PlayerView) -> None:
    """The checks of :meth:`PlayerView.validate`, mirroring :meth:`GameState.validate` on what
    a view shows."""
    if not is_seat(view.seat):
        raise InvalidStateError(f"R3: seat must be a seat 0-3, not {excerpt(view.seat)}")
    check_fields(view, "view")
    if not isinstance(view.hand, Hand):
        raise InvalidStateError("hand must be a Hand")
    sizes = view.hand_sizes
    if (
        not isinstance(sizes, tuple)
        or len(sizes) != PLAYERS
        or not all(type(size) is int and 0 <= size <= len(DECK) for size in sizes)
    ):
        raise InvalidStateError(f"R3: hand_sizes must be four whole numbers of at least 0, not {excerpt(sizes)}")
    if sizes[view.seat] != len(view.hand):
        raise InvalidStateError(
            f"R27: hand_sizes says seat {view.seat} holds {counted(sizes[view.seat], 'card')}, but its hand has {len(view.hand)}"
        )
    # No upper bound of 27 here: GameState.from_position makes larger stocks, and every valid
    # state's view must validate; the 56-card count below bounds the stock (R1).
    if type(view.stock_size) is not int or not 0 <= view.stock_size <= len(DECK):
        raise InvalidStateError(f"R5: stock_size must be a whole number of at least 0, not {excerpt(view.stock_size)}")
    on_table = sum(len(meld.cards) for meld in view.melds)
    total = sum(sizes) + view.stock_size + len(view.discard_pile) + on_table
    if total != len(DECK):
        raise InvalidStateError(f"R1: the hands, stock, pile and melds of a view count 56 cards, not {total}")
    live = view.phase.is_live
    revealed = view.revealed_hands
    known: Counter[Card] = Counter(view.discard_pile)
    for meld in view.melds:
        known.update(meld.cards)
    if live:
        if revealed is not None:
            raise InvalidStateError("R27: the other hands are hidden while the round is played")
        known.update(view.hand)
        if view.must_meld is not None and view.seat != view.current_player:
            known[view.must_meld] += 1  # it is in the mover's hidden hand (R14)
    else:
        if (
            not isinstance(revealed, tuple)
            or len(revealed) != PLAYERS
            or not all(isinstance(hand, Hand) for hand in revealed)
        ):
            raise InvalidStateError("R23: once the round is over, revealed_hands holds the four hands")
        if revealed[view.seat] != view.hand:
            raise InvalidStateError("R27: the viewer's revealed hand differs from its hand")
        if tuple(len(hand) for hand in revealed) != sizes:
            raise InvalidStateError("R27: the revealed hands do not have the sizes in hand_sizes")
        for hand in revealed:
            known.update(hand)
    if known - DECK_COUNTS:
        extra = " ".join(str(card) for card in sorted((known - DECK_COUNTS).elements()))
        raise InvalidStateError(f"R1: the view shows more of these cards than the deck holds: {extra}")
    check_turn(view, sizes, view.stock_size, "view")
    if not live:
        check_finished_scores(view, revealed)  # type: ignore[arg-type]  # checked above
    elif view.seat == view.current_player:
        # Only the mover's own view knows the hand that must have a legal action (R27).
        check_mover(view, view.hand)


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
    or all at once with :func:`~persian_rummy.info_after`, which plays the actions. ``str`` is the view's position string followed by
    one line per observation.

    >>> from persian_rummy import new_game
    >>> from persian_rummy import info_after
    >>> info = info_after(new_game(1), ["draw", "discard Jk"], seat=3)
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
    def start(cls, state: StateOrView, seat: int | None = None) -> InfoState:
        """The information state at the start of a deal (or at any point, with no history):
        from a state and a seat, or from a view.

        >>> from persian_rummy import new_game
        >>> InfoState.start(new_game(1).view(0)) == InfoState.start(new_game(1), 0)
        True
        """
        if not isinstance(state, PlayerView) and _is_dealt(state):
            if seat is None:
                raise InvalidStateError("R27: an information state from a GameState needs a seat")
            return cls(observe(state, seat))
        if not isinstance(state, PlayerView) or (seat is not None and seat != state.seat):
            raise InvalidStateError(f"R27: expected a GameState or a view of seat {seat}, not {_described(state)}")
        return cls(state)

    def update(self, action: Action | str, after: StateOrView) -> InfoState:
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
            raise ArgumentTypeError(f"expected an Action or its text, not {excerpt(action)}")  # as play() does
        before = self.view
        view = after if isinstance(after, PlayerView) or not _is_dealt(after) else observe(after, before.seat)
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
