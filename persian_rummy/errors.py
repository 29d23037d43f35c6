"""The exception hierarchy of persian-rummy.

Every exception the library raises on purpose derives from :class:`PersianRummyError`.
Text that does not parse raises :class:`NotationError`; a well-formed action that the rules
forbid in the given state raises a subclass of :class:`IllegalActionError` (one per rule
broken); an impossible position raises :class:`InvalidStateError`; an argument the function
does not take raises :class:`InvalidArgumentError` (a bad value, such as cards that are no
meld: :class:`MeldValueError`) or :class:`ArgumentTypeError` (a bad type). All are also
:class:`ValueError`\\ s (:class:`TypeError` for the last), so code that only knows the
standard library can catch them.

>>> from persian_rummy import Card, NotationError
>>> try:
...     Card.parse("Xq")
... except NotationError as error:
...     print(error)
R1: 'Xq' is not a card (expected a rank 2-9, T/10, J, Q, K, A and a suit s, h, d, c, or Jk)
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ArgumentTypeError",
    "CardNotInHandError",
    "EmptyStockError",
    "GameNotOverError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidDrawError",
    "InvalidLayOffError",
    "InvalidMeldError",
    "InvalidRulesError",
    "InvalidStateError",
    "JokerError",
    "LastCardError",
    "MeldValueError",
    "NoSuchMeldError",
    "NotationError",
    "PassNotAllowedError",
    "PersianRummyError",
    "ReplayError",
    "RoundNotOverError",
    "TargetNotUsedError",
    "WrongPhaseError",
]


class PersianRummyError(Exception):
    """The root of every exception raised by persian-rummy.

    >>> issubclass(NotationError, PersianRummyError)
    True
    """


class NotationError(PersianRummyError, ValueError):
    """Text that does not parse as the value asked for (a card, a hand, a meld, rules...).

    >>> from persian_rummy import parse_cards
    >>> parse_cards("4s 4x")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NotationError: R1: '4x' is not a card (expected a rank 2-9, T/10, J, Q, K, A and a suit s, h, d, c, or Jk)
    """


class InvalidArgumentError(PersianRummyError, ValueError):
    """An argument whose value the function does not take: a count out of range, a seat that
    is not 0-3, a bot knob, cards that the deck does not hold together. (Text that does not
    parse raises :class:`NotationError` instead.)

    >>> from persian_rummy import Hand
    >>> Hand("4s 5s") + Hand("4s")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: R1: 4s 5s and 4s share cards the deck has only once
    """


class ArgumentTypeError(PersianRummyError, TypeError):
    """An argument of a type the function does not take.

    >>> from persian_rummy import shuffled_deck
    >>> shuffled_deck(1.5)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ArgumentTypeError: a seed is a whole number or a text, not 1.5
    """


class MeldValueError(InvalidArgumentError):
    """Cards given to :class:`~persian_rummy.Meld` that do not make a valid meld (R8-R11,
    R15), or a lay-off that does not extend it (R16). ``rule`` names the rule and ``reason``
    says why. Playing such a meld raises :class:`InvalidMeldError` (or
    :class:`InvalidLayOffError`) instead, which also carries the state.

    >>> from persian_rummy import Meld
    >>> try:
    ...     Meld("7s 8s Th")
    ... except MeldValueError as error:
    ...     print(error.rule, "-", error.reason)
    R9 - 7s 8s Th is not a valid meld: a run's cards must all be of one suit, and a set's of one rank
    """

    rule: str
    reason: str

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"{rule}: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.rule, self.reason))


class InvalidStateError(PersianRummyError, ValueError):
    """A position that cannot occur: cards missing or duplicated, a bad seat, a bad phase.

    >>> from persian_rummy import GameState
    >>> GameState.from_position(["4s"] * 4, [])
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidStateError: R1: the position must hold exactly the 56 cards of the deck; duplicated: 4s (4 times)
    """


class JokerError(InvalidArgumentError):
    """A question only a natural card answers (its rank or its suit) asked of a joker, which
    has neither (R1, R2).

    >>> from persian_rummy import JOKER
    >>> JOKER.natural_rank
    Traceback (most recent call last):
    ...
    persian_rummy.errors.JokerError: R2: a joker has no rank (check card.is_joker first, or read card.rank, which is None for a joker)
    """


class InvalidRulesError(PersianRummyError, ValueError):
    """A :class:`~persian_rummy.Rules` knob set to a value the rules do not offer.

    >>> from persian_rummy import Rules
    >>> Rules(deals=0)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidRulesError: R7: deals must be a whole number of at least 1, not 0
    """


class RoundNotOverError(PersianRummyError, ValueError):
    """A question about a finished round (or game) asked while it is still being played.

    >>> from persian_rummy import new_game, score_round
    >>> score_round(new_game(1))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.RoundNotOverError: R23: deal 1 is still being played (phase DRAW); only a finished round can be scored
    """


class ReplayError(PersianRummyError, ValueError):
    """A game record that does not replay: an illegal action, an action marked for the wrong
    seat, a deal that does not follow the last, or stored scores that differ from the replay.

    ``deal`` is the deal number (1 for the first deal), ``index`` the index of the action in
    that deal (0 for the first action; ``None`` when the error is not about one action),
    ``line`` the line of the record's text it is about (when the record was read from text,
    as a :class:`NotationError` from the same reader names it) and ``cause`` the underlying
    error, if any.

    >>> error = ReplayError("R17: seat 3 does not hold 4s", deal=1, index=17, line=23)
    >>> print(error)
    line 23, deal 1, action 17: R17: seat 3 does not hold 4s
    >>> error.deal, error.index, error.line
    (1, 17, 23)
    """

    deal: int
    index: int | None
    line: int | None
    cause: BaseException | None

    def __init__(
        self,
        message: str,
        *,
        deal: int,
        index: int | None = None,
        line: int | None = None,
        cause: BaseException | None = None,
    ) -> None:
        self.deal = deal
        self.index = index
        self.line = line
        self.cause = cause
        self.message = message
        where = f"deal {deal}" if index is None else f"deal {deal}, action {index}"
        if line is not None:
            where = f"line {line}, {where}"
        super().__init__(f"{where}: {message}")

    def at_line(self, line: int) -> ReplayError:
        """The same error, naming ``line`` of the record's text.

        >>> print(ReplayError("R20: no pass", deal=2, index=0).at_line(14))
        line 14, deal 2, action 0: R20: no pass
        """
        return ReplayError(self.message, deal=self.deal, index=self.index, line=line, cause=self.cause)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_replay_error, (self.args[0], self.deal, self.index, self.line, self.message))


def _rebuild_replay_error(
    text: str, deal: int, index: int | None, line: int | None = None, message: str | None = None
) -> ReplayError:
    error = ReplayError.__new__(ReplayError)
    Exception.__init__(error, text)
    error.deal = deal
    error.index = index
    error.line = line
    error.message = text if message is None else message
    error.cause = None
    return error


class GameNotOverError(RoundNotOverError):
    """:func:`~persian_rummy.winner` asked before the last deal has ended (R26).

    >>> from persian_rummy import new_game, winner
    >>> winner(new_game(1))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.GameNotOverError: R26: the game is not over (deal 1 of 2, phase DRAW)
    """


class IllegalActionError(PersianRummyError, ValueError):
    """An action that parses but that the rules forbid in this state.

    Each rule broken has its own subclass. ``rule`` names the rule (``"R14"``), ``state`` is
    the state the action was tried on (unchanged) and ``action`` the action, when known.

    >>> from persian_rummy import Pass, new_game, play
    >>> try:
    ...     play(new_game(1), Pass())
    ... except IllegalActionError as error:
    ...     print(error.rule, type(error).__name__)
    R20 PassNotAllowedError
    """

    rule: str
    # Any, not GameState: the errors are the lowest layer of the package and import nothing.
    state: Any
    action: Any

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        state: Any = None,
        action: Any = None,
    ) -> None:
        self.rule = rule
        self.state = state
        self.action = action
        text = f"{rule}: {message}"
        if state is not None:
            text += f" [{state.summary()}]"
        super().__init__(text)

    def __reduce__(self) -> tuple[Any, ...]:
        # Keep the exception picklable (multiprocessing sends exceptions between processes).
        return (_rebuild_illegal_action, (type(self), self.args[0], self.rule, self.action))


def _rebuild_illegal_action(cls: type[IllegalActionError], text: str, rule: str, action: Any) -> IllegalActionError:
    error = cls.__new__(cls)
    Exception.__init__(error, text)
    error.rule = rule
    error.state = None
    error.action = action
    return error


class WrongPhaseError(IllegalActionError):
    """The action does not belong to this part of the turn (R12-R20), or the round is over.

    >>> from persian_rummy import Discard, new_game, play
    >>> play(new_game(1), Discard("4s"))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.WrongPhaseError: R12: seat 1 must draw first (or pass with an empty stock) [deal 1 of 2, seat 1 to act, phase DRAW, hand Js 2d Jd Qd Tc Jk Jk, discard pile 2s, stock 27, 0 melds]
    """


class CardNotInHandError(IllegalActionError):
    """The action names a card that the player to move does not hold (R15-R17).

    >>> from persian_rummy import GameState, Discard, draw_stock, play
    >>> state = draw_stock(GameState.from_position(["4s", "5s", "6s", "7s"], ["8s"]))
    >>> play(state, Discard("Ah"))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.CardNotInHandError: R17: seat 1 does not hold Ah [deal 1 of 2, seat 1 to act, phase MELD, hand 5s Jk, discard pile 8s, stock 50, 0 melds]
    """


class InvalidMeldError(IllegalActionError):
    """The cards melded do not form a valid set, run or joker set (R8-R11, ``ace_in_runs``).
    (:class:`~persian_rummy.Meld` itself raises :class:`MeldValueError`.)

    >>> from persian_rummy import GameState, play
    >>> state = play(GameState.from_position(["", "4s 5s 7s 9d", "", ""], "2c"), "draw")
    >>> play(state, "meld 4s 5s 7s")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidMeldError: R9: 4s 5s 7s is not a valid meld: a run's ranks must be consecutive [deal 1 of 2, seat 1 to act, phase MELD, hand 4s 5s 7s 9d Jk, discard pile 2c, stock 50, 0 melds]
    """


class InvalidLayOffError(IllegalActionError):
    """The card laid off does not extend the chosen meld into a valid meld (R16, R8-R11).
    (:meth:`Meld.lay_off <persian_rummy.Meld.lay_off>` itself raises :class:`MeldValueError`.)

    >>> from persian_rummy import GameState, play
    >>> state = play(GameState.from_position(["", "9s 9d", "", ""], "2c", melds=["4s@0 5s@0 6s@0"]), "draw")
    >>> play(state, "layoff 9s 0")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidLayOffError: R16: 9s does not extend the meld 4s 5s 6s [deal 1 of 2, seat 1 to act, phase MELD, hand 9s 9d Jk, discard pile 2c, stock 49, 1 melds]
    """


class NoSuchMeldError(IllegalActionError):
    """A lay-off names a meld index that is not on the table (R16).

    >>> from persian_rummy import LayOff, GameState, draw_stock, play
    >>> state = draw_stock(GameState.from_position(["4s", "5s", "6s", "7s"], ["8s"]))
    >>> play(state, LayOff("4s", 0))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NoSuchMeldError: R16: there is no meld 0 on the table (0 melds) [deal 1 of 2, seat 1 to act, phase MELD, hand 5s Jk, discard pile 8s, stock 50, 0 melds]
    """


class TargetNotUsedError(IllegalActionError):
    """After a discard-pile draw, the next action did not use the target card (R14).

    >>> from persian_rummy import Discard, GameState, draw_discard, play
    >>> state = GameState.from_position(["", "4s 5s Kd", "", ""], ["6s"])
    >>> state = draw_discard(state, 0)
    >>> play(state, Discard("Kd"))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.TargetNotUsedError: R14: the next action must meld or lay off 6s, taken from the discard pile [deal 1 of 2, seat 1 to act, phase MELD, hand 4s 5s 6s Kd, must meld 6s, discard pile (empty), stock 52, 0 melds]
    """


class InvalidDrawError(IllegalActionError):
    """A discard-pile draw that is not allowed: no such card, or its target cannot be melded (R13-R14).

    >>> from persian_rummy import GameState, draw_discard
    >>> draw_discard(GameState.from_position(["", "4s 9d Kd", "", ""], ["6s"]), 0)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidDrawError: R14: 6s cannot be melded or laid off at once, so it may not be taken [deal 1 of 2, seat 1 to act, phase DRAW, hand 4s 9d Kd, discard pile 6s, stock 52, 0 melds]
    """


class EmptyStockError(IllegalActionError):
    """A draw from the stock when the stock is empty (R12, R20).

    >>> from persian_rummy import DECK, GameState, draw_stock
    >>> state = GameState.from_position([DECK[:14], DECK[14:28], DECK[28:42], DECK[42:]], [], stock=())
    >>> draw_stock(state)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.EmptyStockError: R20: the stock is empty: take from the discard pile or pass [deal 1 of 2, seat 1 to act, phase DRAW, hand 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah 2d 3d, discard pile (empty), stock 0, 0 melds]
    """


class PassNotAllowedError(IllegalActionError):
    """A pass while the stock still has cards (R20).

    >>> from persian_rummy import new_game, pass_turn
    >>> pass_turn(new_game(1))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.PassNotAllowedError: R20: seat 1 may pass only when the stock is empty (27 cards left) [deal 1 of 2, seat 1 to act, phase DRAW, hand Js 2d Jd Qd Tc Jk Jk, discard pile 2s, stock 27, 0 melds]
    """


class LastCardError(IllegalActionError):
    """Under ``last_card_discard="forbidden"``, an action that would discard the last card or
    strand a last card that cannot be laid off (R19).

    >>> from persian_rummy import GameState, Rules, draw_stock, play
    >>> rules = Rules(last_card_discard="forbidden")
    >>> state = GameState.from_position(["2c", "5s 6s 7s", "2d", "2h"], "8s", rules=rules)
    >>> state = draw_stock(state)  # the top of the stock is a joker: 5s 6s 7s Jk
    >>> play(state, "meld 5s 6s 7s")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.LastCardError: R19: this would leave seat 1 holding only Jk, which cannot be laid off, and last_card_discard='forbidden' forbids discarding it [deal 1 of 2, seat 1 to act, phase MELD, hand 5s 6s 7s Jk, discard pile 8s, stock 48, 0 melds]
    """
