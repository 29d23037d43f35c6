"""The exception hierarchy of persian-rummy.

Every exception the library raises on purpose derives from :class:`PersianRummyError`.
Text that does not parse raises :class:`NotationError`; a well-formed action that the rules
forbid in the given state raises a subclass of :class:`IllegalActionError` (one per rule
broken); an impossible position raises :class:`InvalidStateError`; an argument the function
does not take raises :class:`InvalidArgumentError` (a bad value, such as cards that are no
meld: :class:`MeldValueError`) or :class:`ArgumentTypeError` (a bad type). All are also
:class:`ValueError`\\ s (:class:`TypeError` for the last), so code that only knows the
standard library can catch them.

Every error has two texts. ``str(error)`` is the full message for the developer and the
player who made the request: it may name the cards of the mover's hand and show the
position. ``error.reason`` is short and names no hidden card (R27): the rule number and
what was wrong, with only public cards (a card taken from the discard pile, a card on the
table). A server relays ``reason`` to a table or a log and keeps ``str(error)`` for the
mover or a private log.

>>> from persian_rummy import Card, NotationError
>>> try:
...     Card.parse("Xq")
... except NotationError as error:
...     print(error)
R1: 'Xq' is not a card (expected a rank 2-9, T/10, J, Q, K, A and a suit s, h, d, c, or Jk)
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Final

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
    "MissingExtraError",
    "NoSuchMeldError",
    "NotYourTurnError",
    "NotationError",
    "PassNotAllowedError",
    "PersianRummyError",
    "PolicyFileError",
    "ReplayError",
    "RoundNotOverError",
    "StateRequiredError",
    "TargetNotUsedError",
    "WrongPhaseError",
    "excerpt",
    "shown",
]

#: The longest message an error keeps; longer ones (which can only come from echoing a huge
#: input) are cut, so an error is never much larger than this whatever it was given.
MESSAGE_LIMIT: Final = 2000
#: The longest ``reason``.
REASON_LIMIT: Final = 200
_RULE_TAG: Final = re.compile(r"(R\d{1,2}(?:-R\d{1,2})?): ")


def counted(count: int, noun: str) -> str:
    """``count`` ``noun``\\ s, in the plural but for one (the messages' and the screens' counts:
    "1 card", "2 cards", "0 melds").

    >>> counted(1, "card"), counted(2, "card"), counted(0, "meld")
    ('1 card', '2 cards', '0 melds')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def excerpt(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to at most about ``limit`` characters, for error messages that echo
    input: a message must stay short whatever it was given. Long strings are cut before
    ``repr`` (so a huge input costs no copy); the cut says how long the whole was.

    >>> excerpt("4s 5s")
    "'4s 5s'"
    >>> excerpt("x" * 1000, limit=10)
    "'xxxxxxxxxx'... (1000 characters)"
    """
    if isinstance(value, str | bytes) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value)} {'characters' if isinstance(value, str) else 'bytes'})"
    if isinstance(value, list | tuple | dict | set | frozenset) and len(value) > limit:
        return f"a {type(value).__name__} of {len(value)} items"
    if type(value) is int and value.bit_length() > 4 * limit:
        return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__, or an int past the digit limit
        return f"a {type(value).__name__}"
    return text if len(text) <= limit + 20 else text[: limit + 20] + "..."


def shown(value: object) -> str:
    """``value`` as an error message may echo it: a number, a text or ``None`` as a short
    :func:`excerpt`; anything else by its type alone, so that no message prints the cards of a
    view, a state or a hand that was passed where it does not belong (R27).

    >>> from persian_rummy import new_game
    >>> shown(2.5), shown("x" * 100)[:6], shown(new_game(1).view(0))
    ('2.5', "'xxxxx", 'a PlayerView')
    """
    if value is None or isinstance(value, int | float | complex | str | bytes):
        return excerpt(value)
    return f"a {type(value).__name__}"


def _bounded(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


class PersianRummyError(Exception):
    """The root of every exception raised by persian-rummy.

    ``reason`` is a short text that names no hidden card (R27), safe to relay to a table or a
    log; ``str(error)`` is the full message. When the code raising the error gives no reason,
    ``reason`` is the message's rule number and the class's ``default_reason`` (or the
    message itself, for the classes whose messages are public by construction).

    >>> issubclass(NotationError, PersianRummyError)
    True
    >>> from persian_rummy import Rules
    >>> try:
    ...     Rules.parse("deals=two")
    ... except PersianRummyError as error:
    ...     print(error)
    ...     print(error.reason)
    deals takes a whole number, not 'two'
    the text does not parse
    """

    #: The reason when none is given: says what kind of thing failed and nothing more.
    default_reason: ClassVar[str] = "the request was refused"
    #: Whether the messages of this class never name a hidden card (then they are the reason).
    message_is_public: ClassVar[bool] = False
    reason: str

    def __init__(self, *args: object, reason: str | None = None) -> None:
        if args and isinstance(args[0], str) and len(args[0]) > MESSAGE_LIMIT:
            args = (_bounded(args[0], MESSAGE_LIMIT), *args[1:])
        super().__init__(*args)
        message = args[0] if args and isinstance(args[0], str) else ""
        self.reason = _bounded(reason if reason is not None else self._default_reason(message), REASON_LIMIT)

    @classmethod
    def _default_reason(cls, message: str) -> str:
        if cls.message_is_public:
            return message
        match = _RULE_TAG.match(message)
        return f"{match.group(1)}: {cls.default_reason}" if match else cls.default_reason


class MissingExtraError(PersianRummyError, ModuleNotFoundError):
    """A module of an optional extra imported without it: the message says which
    ``pip install`` brings it (``pip install ".[rl]"`` in a clone of the repository). ``name`` is the missing
    package, as :class:`ModuleNotFoundError` has it, so code that catches a missing module
    (and ``pytest.importorskip``) catches it.

    >>> issubclass(MissingExtraError, ModuleNotFoundError), issubclass(MissingExtraError, ImportError)
    (True, True)
    """

    default_reason = "an optional extra is not installed"
    message_is_public = True

    def __init__(self, message: str, *, name: str | None = None) -> None:
        super().__init__(message)
        self.name = name


class NotationError(PersianRummyError, ValueError):
    """Text that does not parse as the value asked for (a card, a hand, a meld, rules...).

    Its message quotes (a bounded excerpt of) the text; its ``reason`` does not, since the
    text may name the cards of a hand.

    >>> from persian_rummy import parse_cards
    >>> parse_cards("4s 4x")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NotationError: R1: '4x' is not a card (expected a rank 2-9, T/10, J, Q, K, A and a suit s, h, d, c, or Jk)
    """

    default_reason = "the text does not parse"


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

    default_reason = "an argument is not one the function takes"


class PolicyFileError(PersianRummyError, ValueError):
    """A policy file (:mod:`persian_rummy.policy`) that cannot be used: not a policy file,
    truncated or corrupt, weights of the wrong shape or not finite, or made for other rules
    or another observation layout than asked for. The message says which.

    >>> issubclass(PolicyFileError, ValueError)
    True
    """

    default_reason = "the policy file cannot be used"
    message_is_public = True


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
        super().__init__(f"{rule}: {reason}", reason=reason)

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

    default_reason = "the position cannot occur in a game"


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
    persian_rummy.errors.InvalidRulesError: R7: deals must be a whole number from 1 to 1000, not 0
    """

    message_is_public = True


class RoundNotOverError(PersianRummyError, ValueError):
    """A question about a finished round (or game) asked while it is still being played.

    >>> from persian_rummy import new_game, score_round
    >>> score_round(new_game(1))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.RoundNotOverError: R23: deal 1 is still being played (phase DRAW); only a finished round can be scored
    """

    message_is_public = True


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

    Its ``reason`` is the place and the cause's reason (so it names no hidden card either):

    >>> from persian_rummy import CardNotInHandError
    >>> cause = CardNotInHandError("R17", "seat 3 does not hold 4s", reason="R17: seat 3 does not hold that card")
    >>> ReplayError(str(cause), deal=2, index=5, cause=cause).reason
    'deal 2, action 5: R17: seat 3 does not hold that card'
    """

    default_reason = "the record does not replay"
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
        inner = cause.reason if isinstance(cause, PersianRummyError) else self._default_reason(message)
        super().__init__(f"{where}: {message}", reason=f"{where}: {inner}")

    def at_line(self, line: int) -> ReplayError:
        """The same error, naming ``line`` of the record's text.

        >>> print(ReplayError("R20: no pass", deal=2, index=0).at_line(14))
        line 14, deal 2, action 0: R20: no pass
        """
        return ReplayError(self.message, deal=self.deal, index=self.index, line=line, cause=self.cause)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_replay_error, (self.args[0], self.deal, self.index, self.reason, self.line, self.message))


def _rebuild_replay_error(
    text: str, deal: int, index: int | None, reason: str, line: int | None = None, message: str | None = None
) -> ReplayError:
    error = ReplayError.__new__(ReplayError)
    Exception.__init__(error, text)
    error.deal = deal
    error.index = index
    error.line = line
    error.message = text if message is None else message
    error.cause = None
    error.reason = reason
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
    the state the action was tried on (unchanged) and ``action`` the action, when known. The
    message ends with the position (the mover's hand included); ``reason`` never shows it.

    >>> from persian_rummy import Pass, new_game, play
    >>> try:
    ...     play(new_game(1), Pass())
    ... except IllegalActionError as error:
    ...     print(error.rule, type(error).__name__)
    ...     print(error.reason)
    R20 PassNotAllowedError
    R20: seat 1 may pass only when the stock is empty (27 cards left)
    """

    default_reason = "the action is not legal here"
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
        reason: str | None = None,
    ) -> None:
        self.rule = rule
        self.state = state
        self.action = action
        text = f"{rule}: {message}"
        if reason is None:
            reason = text if self.message_is_public else f"{rule}: {self.default_reason}"
        if state is not None:
            text += f" [{state.summary()}]"
        super().__init__(text, reason=reason)

    def __reduce__(self) -> tuple[Any, ...]:
        # Keep the exception picklable (multiprocessing sends exceptions between processes).
        return (_rebuild_illegal_action, (type(self), self.args[0], self.rule, self.action, self.reason))


def _rebuild_illegal_action(
    cls: type[IllegalActionError], text: str, rule: str, action: Any, reason: str
) -> IllegalActionError:
    error = cls.__new__(cls)
    Exception.__init__(error, text)
    error.rule = rule
    error.state = None
    error.action = action
    error.reason = reason
    return error


class WrongPhaseError(IllegalActionError):
    """The action does not belong to this part of the turn (R12-R20), or the round is over.

    >>> from persian_rummy import Discard, new_game, play
    >>> play(new_game(1), Discard("4s"))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.WrongPhaseError: R12: seat 1 must draw first (or pass with an empty stock) [deal 1 of 2, seat 1 to act, phase DRAW, hand Js 2d Jd Qd Tc Jk Jk, discard pile 2s, stock 27, 0 melds]
    """

    message_is_public = True


class CardNotInHandError(IllegalActionError):
    """The action names a card that the player to move does not hold (R15-R17).

    >>> from persian_rummy import GameState, Discard, draw_stock, play
    >>> state = draw_stock(GameState.from_position(["4s", "5s", "6s", "7s"], ["8s"]))
    >>> play(state, Discard("Ah"))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.CardNotInHandError: R17: seat 1 does not hold Ah [deal 1 of 2, seat 1 to act, phase MELD, hand 5s Jk, discard pile 8s, stock 50, 0 melds]
    """

    default_reason = "the player does not hold a card the action names"


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

    default_reason = "the cards do not form a valid meld"


class InvalidLayOffError(IllegalActionError):
    """The card laid off does not extend the chosen meld into a valid meld (R16, R8-R11).
    (:meth:`Meld.lay_off <persian_rummy.Meld.lay_off>` itself raises :class:`MeldValueError`.)

    >>> from persian_rummy import GameState, play
    >>> state = play(GameState.from_position(["", "9s 9d", "", ""], "2c", melds=["4s@0 5s@0 6s@0"]), "draw")
    >>> play(state, "layoff 9s 0")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidLayOffError: R16: 9s does not extend the meld 4s 5s 6s [deal 1 of 2, seat 1 to act, phase MELD, hand 9s 9d Jk, discard pile 2c, stock 49, 1 meld]
    """

    default_reason = "the card does not extend that meld"


class NoSuchMeldError(IllegalActionError):
    """A lay-off names a meld index that is not on the table (R16).

    >>> from persian_rummy import LayOff, GameState, draw_stock, play
    >>> state = draw_stock(GameState.from_position(["4s", "5s", "6s", "7s"], ["8s"]))
    >>> play(state, LayOff("4s", 0))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NoSuchMeldError: R16: there is no meld 0 on the table (0 melds) [deal 1 of 2, seat 1 to act, phase MELD, hand 5s Jk, discard pile 8s, stock 50, 0 melds]
    """

    message_is_public = True


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

    message_is_public = True


class InvalidDrawError(IllegalActionError):
    """A discard-pile draw that is not allowed: no such card, or its target cannot be melded (R13-R14).

    >>> from persian_rummy import GameState, draw_discard
    >>> draw_discard(GameState.from_position(["", "4s 9d Kd", "", ""], ["6s"]), 0)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidDrawError: R14: 6s cannot be melded or laid off at once, so it may not be taken [deal 1 of 2, seat 1 to act, phase DRAW, hand 4s 9d Kd, discard pile 6s, stock 52, 0 melds]
    """

    message_is_public = True


class EmptyStockError(IllegalActionError):
    """A draw from the stock when the stock is empty (R12, R20).

    >>> from persian_rummy import DECK, GameState, draw_stock
    >>> state = GameState.from_position([DECK[:14], DECK[14:28], DECK[28:42], DECK[42:]], [], stock=())
    >>> draw_stock(state)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.EmptyStockError: R20: the stock is empty: take from the discard pile or pass [deal 1 of 2, seat 1 to act, phase DRAW, hand 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah 2d 3d, discard pile (empty), stock 0, 0 melds]
    """

    message_is_public = True


class PassNotAllowedError(IllegalActionError):
    """A pass while the stock still has cards (R20).

    >>> from persian_rummy import new_game, pass_turn
    >>> pass_turn(new_game(1))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.PassNotAllowedError: R20: seat 1 may pass only when the stock is empty (27 cards left) [deal 1 of 2, seat 1 to act, phase DRAW, hand Js 2d Jd Qd Tc Jk Jk, discard pile 2s, stock 27, 0 melds]
    """

    message_is_public = True


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

    default_reason = "the player would be left with a last card they may not discard"


class NotYourTurnError(IllegalActionError):
    """An action sent for a seat that is not to move: ``play(state, action, seat=...)`` with
    a seat other than ``state.current_player`` while the round is live (R6, R17: the turn
    passes clockwise, and whose turn it is is public, R27). A server passes the seat a message
    came from, so the engine, not the server, decides whose turn it is.

    >>> from persian_rummy import new_game, play
    >>> try:
    ...     play(new_game(1), "draw", seat=3)
    ... except NotYourTurnError as error:
    ...     print(error.reason)
    R6: it is seat 1's turn, not seat 3's
    """

    message_is_public = True


class StateRequiredError(ArgumentTypeError):
    """:func:`~persian_rummy.play` or a transition given something other than a
    :class:`~persian_rummy.GameState`, most often a :class:`~persian_rummy.PlayerView`: a view
    cannot be played forward, because the next state depends on cards it does not see (the
    stock, R27). :func:`~persian_rummy.is_legal` and :func:`~persian_rummy.legal_actions` do
    accept a view; play on the full state.

    >>> from persian_rummy import new_game, observe, play
    >>> play(observe(new_game(1), 1), "draw")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.StateRequiredError: R27: play() needs the full GameState, not a PlayerView: the next state depends on hidden cards; is_legal() and legal_actions() accept a view
    """

    message_is_public = True
