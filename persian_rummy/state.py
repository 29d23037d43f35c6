"""The game state: one position of a deal, as an immutable value.

>>> from persian_rummy import new_game
>>> state = new_game(7)
>>> state.phase, state.current_player, len(state.stock), len(state.discard_pile)
(<Phase.DRAW: 'draw'>, 1, 27, 1)
>>> [len(hand) for hand in state.hands]
[7, 7, 7, 7]
"""

from __future__ import annotations

import enum
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Final

import attrs

# The seats and teams (R3), the phases and the view are defined below the state and are the
# state's names too: re-exported here, where callers have always found them.
from persian_rummy._bits import PLAYERS as PLAYERS
from persian_rummy._bits import SEAT_LETTERS as SEAT_LETTERS
from persian_rummy._bits import SEAT_NAMES as SEAT_NAMES
from persian_rummy._bits import TEAM_NAMES as TEAM_NAMES
from persian_rummy._bits import cards_bits, check_dealer
from persian_rummy._bits import check_seat as check_seat
from persian_rummy._bits import team_of as team_of
from persian_rummy._consistency import check_fields, check_finished_scores, check_mover, check_turn
from persian_rummy._moves import turn_actions_of
from persian_rummy._notation import format_fields, parse_state_fields
from persian_rummy._phase import PHASES, SharedFields, in_reading_order
from persian_rummy._phase import Phase as Phase
from persian_rummy._phase import RoundEnd as RoundEnd
from persian_rummy._table_text import format_table
from persian_rummy.actions import Action
from persian_rummy.cards import CARDS, DECK, DECK_COUNTS, Card, parse_cards
from persian_rummy.errors import (
    ArgumentTypeError,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    counted,
    excerpt,
)
from persian_rummy.hand import Hand, make_hand
from persian_rummy.melds import Meld
from persian_rummy.rules import Rules
from persian_rummy.serialization import from_json, register_format, to_json
from persian_rummy.view import PlayerView as PlayerView
from persian_rummy.view import observe as observe

__all__ = ["GameState", "Phase", "PlayerView", "RoundEnd", "observe", "team_of"]

#: Cards dealt to each player (R5).
HAND_SIZE: Final = 7


def _cards(value: str | Iterable[Card | str]) -> tuple[Card, ...]:
    return parse_cards(value)


def _hand(value: Hand | str | Iterable[Card | str]) -> Hand:
    return value if isinstance(value, Hand) else Hand(value)


class _HashSlot(SharedFields):
    # A slot for a state's hash, worked out on first use. attrs' own cache_hash keeps it in a
    # private slot of attrs that evolve() would have to write; this one is the package's.
    __slots__ = ("_hash",)
    _hash: int


@attrs.frozen(unsafe_hash=False, field_transformer=in_reading_order)  # the hash: __hash__, cached
class GameState(_HashSlot):
    """One position of a game of Persian Rummy. Immutable: every action returns a new state,
    sharing the parts that did not change.

    Make states with :func:`~persian_rummy.new_game`, :meth:`from_position` or
    :meth:`from_deck`, and move with :func:`~persian_rummy.play` and its kin. Its fields
    are the attributes below (:attr:`hands`, :attr:`stock`, :attr:`discard_pile`, ...).

    >>> from persian_rummy import new_game
    >>> new_game(1).hands[1]
    Hand.parse('Js 2d Jd Qd Tc Jk Jk')
    """

    #: The four hands, in seat order.
    hands: tuple[Hand, ...]
    #: The face-down stock, bottom to top (the last card is drawn next, R12).
    stock: tuple[Card, ...]

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Hand | str | Iterable[Card | str]],
        discard_pile: str | Iterable[Card | str],
        *,
        stock: str | Iterable[Card | str] | None = None,
        melds: Iterable[Meld | str] = (),
        dealer: int = 0,
        current_player: int | None = None,
        deal_number: int = 1,
        scores: tuple[int, int] = (0, 0),
        rules: Rules = Rules(),
    ) -> GameState:
        """A round starting from a given position, with ``current_player`` (by default the
        player left of the dealer, R6) to draw.

        ``stock`` is listed bottom to top; when it is ``None`` it is every card not named
        elsewhere, in :data:`~persian_rummy.DECK` order (so the last of them is drawn first).
        Cards may be :class:`~persian_rummy.Card`\\ s or text, melds
        :class:`~persian_rummy.Meld`\\ s or their text. The cards named must make up exactly
        the 56-card deck, else :class:`~persian_rummy.InvalidStateError`.

        >>> state = GameState.from_position(["4s 4d", "Qs Ks As", "", "Jk"], "2c 9h", melds=["7s@0 7h@0 7d@0"])
        >>> state.current_player, len(state.stock), state.discard_pile[-1]
        (1, 45, Card.parse('9h'))
        """
        try:
            hand_values = tuple(_hand(hand) for hand in hands)
            pile = _cards(discard_pile)
            table = tuple(meld if isinstance(meld, Meld) else Meld.parse(meld) for meld in melds)
            stock_cards = None if stock is None else _cards(stock)
        except (NotationError, InvalidArgumentError) as error:  # e.g. a card twice, or cards that are no meld
            raise InvalidStateError(f"the position does not parse: {error}") from None
        if len(hand_values) != PLAYERS:
            raise InvalidStateError(f"R3: a position has 4 hands, not {len(hand_values)}")
        named: Counter[Card] = Counter(pile)
        for hand in hand_values:
            named.update(hand)
        for meld in table:
            named.update(meld.cards)
        if stock_cards is None:
            remaining = DECK_COUNTS - named
            rest = []
            for card in DECK:
                if remaining[card] > 0:
                    remaining[card] -= 1
                    rest.append(card)
            stock_cards = tuple(rest)
        named.update(stock_cards)
        _check_deck(named)
        if current_player is None:
            current_player = (dealer + 1) % PLAYERS if isinstance(dealer, int) else -1
        return cls._to_draw(hand_values, stock_cards, pile, table, current_player, dealer, deal_number, scores, rules)

    @classmethod
    def from_deck(
        cls,
        deck: str | Iterable[Card | str],
        *,
        dealer: int = 0,
        deal_number: int = 1,
        scores: tuple[int, int] = (0, 0),
        rules: Rules = Rules(),
    ) -> GameState:
        """Deal a round from a deck in a given order (R5-R6).

        The deck is dealt from its start: one card at a time to each player in turn, starting
        left of the dealer, until each has 7; the next card (the 29th) is turned face up to
        start the discard pile, and the remaining 27 form the stock, with the 30th card of
        the deck on top (drawn first).

        >>> from persian_rummy import DECK
        >>> state = GameState.from_deck(DECK)
        >>> state.hands[1], state.discard_pile, state.stock[-1]
        (Hand.parse('2s 6s Ts As 5h 9h Kh'), (Card.parse('4d'),), Card.parse('5d'))
        """
        try:
            cards = _cards(deck)
        except NotationError as error:
            raise InvalidStateError(f"the deck does not parse: {error}") from None
        _check_deck_cards(cards)
        check_dealer(dealer)
        dealt = HAND_SIZE * PLAYERS
        # The deck is checked: the hands are built from its cards' bits, without a second check.
        hands = tuple(
            make_hand(*cards_bits(cards[(seat - dealer - 1) % PLAYERS : dealt : PLAYERS])) for seat in range(PLAYERS)
        )
        stock = tuple(reversed(cards[dealt + 1 :]))
        current = (dealer + 1) % PLAYERS
        return cls._to_draw(hands, stock, (cards[dealt],), (), current, dealer, deal_number, scores, rules)

    @classmethod
    def _to_draw(
        cls,
        hands: tuple[Hand, ...],
        stock: tuple[Card, ...],
        discard_pile: tuple[Card, ...],
        melds: tuple[Meld, ...],
        current_player: int,
        dealer: int,
        deal_number: int,
        scores: tuple[int, int],
        rules: Rules,
    ) -> GameState:
        # The first state of a position or a deal: current_player to draw, checked.
        state = cls(
            hands=hands,
            stock=stock,
            discard_pile=discard_pile,
            melds=melds,
            current_player=current_player,
            dealer=dealer,
            phase=Phase.DRAW,
            must_meld=None,
            deal_number=deal_number,
            scores=tuple(scores),  # type: ignore[arg-type]
            rules=rules,
        )
        state.validate()
        return state

    @property
    def hand(self) -> Hand:
        """The hand of the player to move.

        >>> from persian_rummy import new_game
        >>> new_game(1).hand == new_game(1).hands[1]
        True
        """
        return self.hands[self.current_player]

    @property
    def is_over(self) -> bool:
        """An alias of :attr:`is_deal_over`, the name of earlier versions: whether the deal
        is over, not the game (see :attr:`is_game_over`).

        >>> from persian_rummy import new_game
        >>> new_game(1).is_over
        False
        """
        return not self.phase.is_live

    @property
    def revealed_hands(self) -> tuple[Hand, ...] | None:
        """The four hands once the round is over (every hand is public then, R23), else
        ``None``: as :attr:`PlayerView.revealed_hands <persian_rummy.PlayerView.revealed_hands>`
        shows them, so scoring reads a state and a view alike.

        >>> from persian_rummy import new_game
        >>> new_game(1).revealed_hands is None
        True
        """
        return None if self.phase.is_live else self.hands

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the player to move (``()`` once the deal is over): the same
        tuple as :func:`~persian_rummy.legal_actions`\\ ``(state)``, for those who reach for a
        method first (a view has the same, :meth:`PlayerView.legal_actions`).

        >>> from persian_rummy import legal_actions, new_game
        >>> state = new_game(1)
        >>> state.legal_actions(), state.legal_actions() == legal_actions(state)
        ((DrawStock(),), True)
        """
        return turn_actions(self)

    def play(self, action: Action | str, *, seat: int | None = None) -> GameState:
        """The state after ``action`` (an :class:`~persian_rummy.Action` or its text): the
        same state as :func:`~persian_rummy.play`\\ ``(state, action, seat=seat)``, which
        raises what it raises. Pure, as the function is: this state does not change (a whole
        game plays on with :meth:`Game.play <persian_rummy.Game.play>`).

        >>> from persian_rummy import new_game, play
        >>> state = new_game(1)
        >>> after = state.play("draw")
        >>> after == play(state, "draw"), after.phase, state.phase
        (True, <Phase.MELD: 'meld'>, <Phase.DRAW: 'draw'>)
        >>> after.play("discard Jk", seat=2)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        persian_rummy.errors.NotYourTurnError: R6: it is seat 1's turn, not seat 2's [...]
        """
        from persian_rummy.engine import play  # the rules in motion live a layer above the state

        return play(self, action, seat=seat)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see of this state: see :func:`~persian_rummy.observe` (R27).

        >>> from persian_rummy import new_game
        >>> new_game(1).view(2).hand_sizes
        (7, 7, 7, 7)
        """
        if type(seat) is not int or not 0 <= seat < PLAYERS:
            raise InvalidStateError(f"R3: a view is for a seat 0-3, not {excerpt(seat)}")
        hands = self.hands
        return PlayerView(
            seat,
            hands[seat],
            tuple(len(hand) for hand in hands),
            len(self.stock),
            None if self.phase.is_live else hands,
            **dict(zip(SHARED_FIELDS, _SHOWN_VALUES(self), strict=True)),
        )

    def _repr_svg_(self) -> str:
        """The table as an SVG picture, shown by Jupyter (see :func:`persian_rummy.svg.table`)."""
        from persian_rummy.svg import table

        return table(self)

    @classmethod
    def parse(cls, text: str) -> GameState:
        """Parse a position string (see :mod:`persian_rummy.position`): the inverse of
        :meth:`position`. Raises :class:`~persian_rummy.NotationError` for text that is not a
        position string and :class:`~persian_rummy.InvalidStateError` for an impossible one.

        >>> from persian_rummy import new_game
        >>> GameState.parse(new_game(1).position()) == new_game(1)
        True
        """
        state = cls(**parse_state_fields(text, PHASES))  # type: ignore[arg-type]
        state.validate()
        return state

    def position(self) -> str:
        """The one-line position string of the state, like a chess FEN (see
        :mod:`persian_rummy.position`); ``repr`` is ``GameState.parse('<position>')``.

        >>> from persian_rummy import new_game
        >>> new_game(1).position()[-103:]
        '2s - turn=1 phase=draw must=- dealer=0 deal=1 scores=0,0 passes=0 idle=0 progress=0 out=- rules=default'
        """
        return format_fields(self)

    def to_json(self) -> str:
        """The state as JSON, lossless, with a format version (see
        :mod:`persian_rummy.serialization`).

        >>> from persian_rummy import new_game
        >>> GameState.from_json(new_game(1).to_json()) == new_game(1)
        True
        """
        return to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameState:
        """Read a state from its JSON, validating everything (see :meth:`validate`). Raises
        :class:`~persian_rummy.NotationError` or :class:`~persian_rummy.InvalidStateError`,
        saying where, whatever it is given.

        >>> GameState.from_json('{"format": "persian-rummy state", "version": 1, "hands": 7}')
        Traceback (most recent call last):
        ...
        persian_rummy.errors.NotationError: the JSON does not describe a state: expected a list, not int @ $.hands; required field missing @ $.stock; required field missing @ $.discard_pile; required field missing @ $.melds; required field missing @ $.current_player; and 6 more
        """
        return from_json(text, cls)

    def __repr__(self) -> str:
        return f"GameState.parse({self.position()!r})"

    def __hash__(self) -> int:
        # A state is hashed as often as it is played (search, tables): the hash of its fields,
        # as equality compares them, worked out once. A new state (from __init__, evolve or a
        # pickle) has the slot unset; two threads that race store the same value.
        try:
            return self._hash
        except AttributeError:
            value = hash(_FIELD_VALUES(self))
            _SET_HASH(self, value)
            return value

    def __str__(self) -> str:
        """The table as text, every hand face up (``repr`` is the pasteable form).

        >>> from persian_rummy import new_game, play
        >>> print(play(new_game(1), "draw"))
        Deal 1 of 2 · North dealt · North-South 0, East-West 0 · stock 26
          North  7 cards  3s 6s Ts Qs 3h 8h 8c
          East   8 cards  Js 2d Jd Qd Ad Tc Jk Jk   <- to meld, lay off or discard
          South  7 cards  9s Ks Jh 4d 9d 7c Kc
          West   7 cards  As 4h 6h Ah 5d Td 3c
          Discard pile (index: card, bottom to top): 0:2s
          Melds: none
        """
        return self.text()

    def text(self, *, card: Callable[[Card], str] = str, bold: Callable[[str], str] = str) -> str:
        """The table as text, as ``print`` shows it, with each card written by ``card``
        (its notation by default) and the header passed through ``bold``.

        >>> from persian_rummy import GameState
        >>> state = GameState.from_position(["4s", "Kd", "", "2c"], "9h", melds=["7s@0 7h@0 7d@0 7c+1"])
        >>> print(state.text(card=lambda card: card.symbol))
        Deal 1 of 2 · North dealt · North-South 0 (+21 melded), East-West 0 (+7 melded) · stock 48
          North  1 card   4♠
          East   1 card   K♦   <- to draw
          South  0 cards  -
          West   1 card   2♣
          Discard pile (index: card, bottom to top): 0:9♥
          Melds:
            #0 7♠ 7♥ 7♦ (North) + laid off 7♣ by East
        """
        return format_table(
            self,
            hands=self.hands,
            sizes=[len(hand) for hand in self.hands],
            stock=len(self.stock),
            viewer=None,
            seat_names=SEAT_NAMES,
            team_names=TEAM_NAMES,
            card=card,
            bold=bold,
        )

    def summary(self) -> str:
        """A one-line description of the position, used in error messages.

        >>> from persian_rummy import new_game
        >>> new_game(1).summary()
        'deal 1 of 2, seat 1 to act, phase DRAW, hand Js 2d Jd Qd Tc Jk Jk, discard pile 2s, stock 27, 0 melds'
        """
        text = f"deal {self.deal_number} of {self.rules.deals}, seat {self.current_player} "
        text += f"to act, phase {self.phase.name}" if self.phase.is_live else f"acted last, phase {self.phase.name}"
        if 0 <= self.current_player < len(self.hands):
            text += f", hand {self.hands[self.current_player] or '(empty)'}"
        if self.must_meld is not None:
            text += f", must meld {self.must_meld}"
        pile = " ".join(map(str, self.discard_pile[-8:]))
        if len(self.discard_pile) > 8:
            pile = f"... {pile}"
        text += f", discard pile {pile or '(empty)'}, stock {len(self.stock)}, {counted(len(self.melds), 'meld')}"
        return text

    def validate(self) -> None:
        """Check that the state could occur in a game, else raise
        :class:`~persian_rummy.InvalidStateError` saying what is wrong.

        >>> from persian_rummy import new_game
        >>> new_game(1).validate()
        """
        check_fields(self, "state")
        hands = self.hands
        # A tuple, as every container field (the validator reads it before anything else does).
        if not isinstance(hands, tuple) or len(hands) != PLAYERS or not all(isinstance(hand, Hand) for hand in hands):
            raise InvalidStateError(f"R3: a state has exactly four Hand values, as a tuple, not {excerpt(hands)}")
        if not isinstance(self.stock, tuple):
            raise InvalidStateError("stock must be a tuple")
        if not all(type(card) is Card for card in self.stock):
            raise InvalidStateError("the stock holds Card values only")
        _check_deck_cards(self.stock, self.discard_pile, *self.hands, *(meld.cards for meld in self.melds))
        check_turn(self, tuple(len(hand) for hand in self.hands), len(self.stock), "state")
        if self.phase.is_live:
            check_mover(self, self.hands[self.current_player])
        else:
            check_finished_scores(self, self.hands)


register_format(GameState, "persian-rummy state", "a state")

#: The fields of a state that a view shows as they are (a view has its own hand, the hand
#: sizes and the stock size instead of ``hands`` and ``stock``; internal).
SHARED_FIELDS: Final = tuple(field.name for field in attrs.fields(SharedFields))
#: Those fields' values of a state, as one tuple.
_SHOWN_VALUES: Final = operator.attrgetter(*SHARED_FIELDS)


class _Keep(enum.Enum):
    KEEP = enum.auto()


_KEEP: Final = _Keep.KEEP
#: A state's field names, in order: declared once, on :class:`GameState` and its base.
_FIELDS: Final = tuple(field.name for field in attrs.fields(GameState))
#: A state's field values as one tuple, in field order: what __hash__ hashes.
_FIELD_VALUES: Final = operator.attrgetter(*_FIELDS)
# The setter of the slot that caches a state's hash (see GameState.__hash__).
_SET_HASH: Final = vars(_HashSlot)["_hash"].__set__


def _evolve_source() -> str:
    # evolve, written out from the fields as attrs writes an __init__: a keyword argument per
    # field, each field's slot set directly (faster than the generated __init__, and than a
    # loop over the fields: it is the engine's hot path). Only the package's own field names
    # go into it.
    arguments = ", ".join(f"{name}=_KEEP" for name in _FIELDS)
    lines = [f"def evolve(state, *, {arguments}):", "    new = _new(GameState)"]
    lines += [f"    _set_{name}(new, state.{name} if {name} is _KEEP else {name})" for name in _FIELDS]
    return "\n".join([*lines, "    return new"])


#: A copy of ``state`` with the fields given (by keyword) changed: the engine's one way to
#: make the next state (internal). Like :func:`attrs.evolve`, without re-validating (the
#: engine's transitions keep the state valid) and faster; the new state is not hashed yet.
#: For example ``evolve(state, phase=Phase.MELD, turn_progress=True)``.
evolve: Callable[..., GameState]
_namespace: dict[str, object] = {"_KEEP": _KEEP, "_new": object.__new__, "GameState": GameState}
_namespace.update({f"_set_{name}": getattr(GameState, name).__set__ for name in _FIELDS})
exec(compile(_evolve_source(), f"<{__name__}.evolve>", "exec"), _namespace)  # the fields' names only
evolve = _namespace["evolve"]  # type: ignore[assignment]
evolve.__module__ = __name__
del _namespace


#: How many of each card the deck holds, by card index (internal).
_DECK_INDEX_COUNTS: Final = [DECK_COUNTS[card] for card in CARDS]


def _check_deck_cards(*groups: Iterable[Card]) -> None:
    # The cards of every group together make up the deck exactly (R1): counted by index, with
    # the itemised complaint of _check_deck only when they do not.
    counts = [0] * len(_DECK_INDEX_COUNTS)
    for group in groups:
        for card in group:
            counts[card.index] += 1
    if counts != _DECK_INDEX_COUNTS:
        named: Counter[Card] = Counter()
        for group in groups:
            named.update(group)
        _check_deck(named)


def _check_deck(counts: Counter[Card]) -> None:
    if counts == DECK_COUNTS:
        return
    problems = []
    duplicated = [f"{card} ({count} times)" for card, count in sorted(counts.items()) if count > DECK_COUNTS[card]]
    missing = [str(card) for card in sorted(DECK_COUNTS) if counts[card] < DECK_COUNTS[card]]
    if duplicated:
        problems.append("duplicated: " + ", ".join(duplicated))
    if missing:
        problems.append("missing: " + " ".join(missing))
    raise InvalidStateError("R1: the position must hold exactly the 56 cards of the deck; " + "; ".join(problems))


def turn_actions(position: GameState | PlayerView, *, draws_only: bool = False) -> tuple[Action, ...]:
    """The legal actions of the player to move, for a state or for the mover's own view (none
    for another seat's view or a finished round); only the draw phase's with ``draws_only``
    (internal: :func:`~persian_rummy.legal_actions`, :func:`~persian_rummy.legal_draws` and
    :meth:`PlayerView.legal_actions` all answer with it, from the rules' own enumeration).

    >>> from persian_rummy import new_game
    >>> turn_actions(new_game(1)), turn_actions(new_game(1).view(0))
    ((DrawStock(),), ())
    """
    if isinstance(position, GameState):
        hand, stock_size = position.hands[position.current_player], len(position.stock)
    elif isinstance(position, PlayerView):
        if not position.is_to_move:
            return ()
        hand, stock_size = position.hand, position.stock_size
    else:
        # A hand, an InfoState or another holder of cards is named by its type, never shown (R27).
        shown = excerpt(position) if position is None or isinstance(position, int | float | str) else None
        raise ArgumentTypeError(f"expected a GameState or a PlayerView, not {shown or 'a ' + type(position).__name__}")
    return turn_actions_of(position, hand, stock_size, draws_only=draws_only)
