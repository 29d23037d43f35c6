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
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Final

import attrs

from persian_rummy._bits import PLAYERS as PLAYERS  # re-exported: the seats are the state's (R3)
from persian_rummy._bits import is_seat
from persian_rummy._bits import team_of as team_of  # re-exported: the teams are the state's (R3)
from persian_rummy._moves import meld_phase_actions, tally, usable_targets
from persian_rummy._notation import format_fields, parse_state_fields, parse_view_fields
from persian_rummy._table import table_text
from persian_rummy.actions import DRAW_STOCK, PASS, Action, draw_discard_action
from persian_rummy.cards import CARDS, DECK, DECK_COUNTS, JOKER_INDEX, Card, parse_cards
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, InvalidStateError, NotationError, excerpt
from persian_rummy.hand import Hand, make_hand
from persian_rummy.limits import DECK_POINTS, deal_points
from persian_rummy.melds import Meld
from persian_rummy.rules import Rules
from persian_rummy.serialization import from_json, register_format, to_json

__all__ = ["GameState", "Phase", "PlayerView", "RoundEnd", "observe", "team_of"]

#: Cards dealt to each player (R5).
HAND_SIZE: Final = 7
#: The seats' names, by seat number (R3): North and South against East and West.
SEAT_NAMES: Final = ("North", "East", "South", "West")
#: The teams' names, by team number (R3).
TEAM_NAMES: Final = ("North-South", "East-West")
#: The seat letters of observations and of record action lines: North, East, South, West.
SEAT_LETTERS: Final = "NESW"


def check_seat(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    """An attrs validator of a seat field (R3; internal): a bad seat would otherwise surface
    later as an IndexError from the seat letters."""
    if not is_seat(value):
        raise InvalidArgumentError(
            f"R3: {type(instance).__name__}.{attribute.name} must be a seat 0-3, not {excerpt(value)}"
        )


class Phase(enum.Enum):
    """The part of the turn (or of the game) a state is in.

    - :attr:`DRAW`: the player to move must draw (or pass with an empty stock, R12-R14, R20).
    - :attr:`MELD`: after drawing, the player melds, lays off and discards (R15-R17).
    - :attr:`ROUND_OVER`: a deal that is not the last has ended; see ``next_deal``.
    - :attr:`GAME_OVER`: the last deal has ended (R7, R26).

    >>> Phase.MELD.is_live, Phase.GAME_OVER.is_live
    (True, False)
    """

    DRAW = "draw"
    MELD = "meld"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"

    @property
    def is_live(self) -> bool:
        """Whether a player is to act in this phase.

        >>> Phase.DRAW.is_live
        True
        """
        return self is Phase.DRAW or self is Phase.MELD


class RoundEnd(enum.Enum):
    """Why a round ended: see :attr:`GameState.round_end`.

    - :attr:`WENT_OUT`: a player went out (R18).
    - :attr:`PASSED`: the stock was empty and the players passed (four in a row, or the first
      pass under ``stock_out_end="first_pass"``, R20).
    - :attr:`IDLE`: eight turns in a row went by with no stock draw and no card added to the
      table (R21).

    >>> RoundEnd.PASSED.value
    'passed'
    """

    WENT_OUT = "went_out"
    PASSED = "passed"
    IDLE = "idle"


def round_end(value: GameState | PlayerView) -> RoundEnd | None:
    """Why the round of a state or view ended, or ``None`` while it is played (internal; see
    :attr:`GameState.round_end`). A round that ends at once in two ways gives the first of
    going out, passing and idling."""
    if value.phase.is_live:
        return None
    if value.went_out is not None:
        return RoundEnd.WENT_OUT
    if value.consecutive_passes == value.rules.pass_limit:
        return RoundEnd.PASSED
    if value.idle_turns == value.rules.idle_limit:
        return RoundEnd.IDLE
    return None


#: The phases by their value, for the position strings (internal).
PHASES: Final = {phase.value: phase for phase in Phase}


def _cards(value: str | Iterable[Card | str]) -> tuple[Card, ...]:
    return parse_cards(value)


def _hand(value: Hand | str | Iterable[Card | str]) -> Hand:
    return value if isinstance(value, Hand) else Hand(value)


@attrs.frozen(cache_hash=True)  # a state is hashed as often as it is played (search, tables)
class GameState:
    """One position of a game of Persian Rummy. Immutable: every action returns a new state,
    sharing the parts that did not change.

    Make states with :func:`~persian_rummy.new_game`, :meth:`from_position` or
    :meth:`from_deck`, and move with :func:`~persian_rummy.play` and its kin. The fields:

    - ``hands``: the four hands, in seat order.
    - ``stock``: the face-down stock, bottom to top (the last card is drawn next, R12).
    - ``discard_pile``: bottom to top; the last card is the top card (R13).
    - ``melds``: the melds on the table, in the order they were laid (lay-off indices).
    - ``current_player``: the seat to act (0-3; after the round, the seat that acted last).
    - ``dealer``: the seat that dealt this deal.
    - ``phase``: see :class:`Phase`.
    - ``must_meld``: after a discard-pile draw, the card the next action must meld or lay off
      (R14), else ``None``.
    - ``deal_number``: 1 for the first deal, 2 for the second (R7).
    - ``scores``: the teams' cumulative totals, including every finished deal (R23-R25).
    - ``rules``: the :class:`~persian_rummy.Rules` in force.
    - ``consecutive_passes``: passes in a row so far (R20).
    - ``idle_turns``: turns in a row with no stock draw and no card added to the table (R21).
    - ``turn_progress``: whether the current turn has drawn from the stock or added a card
      to the table (R21).
    - ``went_out``: the seat that went out (R18, R25), once the round is over, else ``None``.

    >>> from persian_rummy import new_game
    >>> new_game(1).hands[1]
    Hand.parse('Js 2d Jd Qd Tc Jk Jk')
    """

    hands: tuple[Hand, ...]
    stock: tuple[Card, ...]
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
        if type(dealer) is not int or not 0 <= dealer < PLAYERS:
            raise InvalidStateError(f"R3: the dealer is a seat 0-3, not {excerpt(dealer)}")
        dealt = HAND_SIZE * PLAYERS
        # The deck is checked: the hands are built from its cards' bits, without a second check.
        hands = tuple(_hand_of(cards[(seat - dealer - 1) % PLAYERS : dealt : PLAYERS]) for seat in range(PLAYERS))
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
        """Whether the round is over (``ROUND_OVER`` or ``GAME_OVER``).

        >>> from persian_rummy import new_game
        >>> new_game(1).is_over
        False
        """
        return not self.phase.is_live

    @property
    def round_end(self) -> RoundEnd | None:
        """Why the round ended (a :class:`RoundEnd`), or ``None`` while it is played.

        >>> from persian_rummy import new_game, play
        >>> state = GameState.from_position(["9d", "5s 6s", "Qh", "2d"], "2c 7s")
        >>> state.round_end, play(play(state, "take 1"), "meld 5s 6s 7s").round_end
        (None, <RoundEnd.WENT_OUT: 'went_out'>)
        """
        return round_end(self)

    @property
    def top_card(self) -> Card | None:
        """The top card of the discard pile, or ``None`` when the pile is empty.

        >>> from persian_rummy import new_game
        >>> new_game(1).top_card
        Card.parse('2s')
        """
        return self.discard_pile[-1] if self.discard_pile else None

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see of this state: see :func:`~persian_rummy.observe` (R27).

        >>> from persian_rummy import new_game
        >>> new_game(1).view(2).hand_sizes
        (7, 7, 7, 7)
        """
        return observe(self, seat)

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
        Deal 1 of 2 · North dealt · North-South 0, East-West 0 · stock 48
          North  1 card   4♠
          East   1 card   K♦   <- to draw
          South  0 cards  -
          West   1 card   2♣
          Discard pile (index: card, bottom to top): 0:9♥
          Melds:
            #0 7♠ 7♥ 7♦ (North) + laid off 7♣ by East
        """
        return table_text(
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
        text += f", discard pile {pile or '(empty)'}, stock {len(self.stock)}, {len(self.melds)} melds"
        return text

    def validate(self) -> None:
        """Check that the state could occur in a game, else raise
        :class:`~persian_rummy.InvalidStateError` saying what is wrong.

        >>> from persian_rummy import new_game
        >>> new_game(1).validate()
        """
        check_fields(self, "state")
        if len(self.hands) != PLAYERS or not all(isinstance(hand, Hand) for hand in self.hands):
            raise InvalidStateError("R3: a state has exactly four Hand values")
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
SHOWN_FIELDS: Final = tuple(field.name for field in attrs.fields(GameState) if field.name not in ("hands", "stock"))


class _Keep(enum.Enum):
    KEEP = enum.auto()


_KEEP: Final = _Keep.KEEP
# The slot setters of GameState, in field order: evolve sets the fields of a new state
# directly, which is faster than the generated __init__ (GameState has no validators).
(
    _SET_HANDS,
    _SET_STOCK,
    _SET_DISCARD_PILE,
    _SET_MELDS,
    _SET_CURRENT_PLAYER,
    _SET_DEALER,
    _SET_PHASE,
    _SET_MUST_MELD,
    _SET_DEAL_NUMBER,
    _SET_SCORES,
    _SET_RULES,
    _SET_CONSECUTIVE_PASSES,
    _SET_IDLE_TURNS,
    _SET_TURN_PROGRESS,
    _SET_WENT_OUT,
) = (getattr(GameState, field.name).__set__ for field in attrs.fields(GameState))
# The slot in which attrs keeps a state's hash once computed (cache_hash=True).
_SET_HASH: Final = next(getattr(GameState, name).__set__ for name in vars(GameState) if name.endswith("cached_hash"))


def evolve(
    state: GameState,
    *,
    hands: tuple[Hand, ...] | _Keep = _KEEP,
    stock: tuple[Card, ...] | _Keep = _KEEP,
    discard_pile: tuple[Card, ...] | _Keep = _KEEP,
    melds: tuple[Meld, ...] | _Keep = _KEEP,
    current_player: int | _Keep = _KEEP,
    phase: Phase | _Keep = _KEEP,
    must_meld: Card | _Keep | None = _KEEP,
    scores: tuple[int, int] | _Keep = _KEEP,
    consecutive_passes: int | _Keep = _KEEP,
    idle_turns: int | _Keep = _KEEP,
    turn_progress: bool | _Keep = _KEEP,
    went_out: int | _Keep | None = _KEEP,
) -> GameState:
    """A copy of ``state`` with the fields given changed: the engine's one way to make the
    next state (internal). Like :func:`attrs.evolve`, without re-validating (the engine's
    transitions keep the state valid) and faster. The dealer, the deal number and the rules
    never change within a deal.

    >>> from persian_rummy import new_game
    >>> evolve(new_game(1), phase=Phase.MELD, turn_progress=True).summary()[:40]
    'deal 1 of 2, seat 1 to act, phase MELD, '
    """
    new = object.__new__(GameState)
    _SET_HANDS(new, state.hands if hands is _KEEP else hands)
    _SET_STOCK(new, state.stock if stock is _KEEP else stock)
    _SET_DISCARD_PILE(new, state.discard_pile if discard_pile is _KEEP else discard_pile)
    _SET_MELDS(new, state.melds if melds is _KEEP else melds)
    _SET_CURRENT_PLAYER(new, state.current_player if current_player is _KEEP else current_player)
    _SET_DEALER(new, state.dealer)
    _SET_PHASE(new, state.phase if phase is _KEEP else phase)
    _SET_MUST_MELD(new, state.must_meld if must_meld is _KEEP else must_meld)
    _SET_DEAL_NUMBER(new, state.deal_number)
    _SET_SCORES(new, state.scores if scores is _KEEP else scores)
    _SET_RULES(new, state.rules)
    _SET_CONSECUTIVE_PASSES(new, state.consecutive_passes if consecutive_passes is _KEEP else consecutive_passes)
    _SET_IDLE_TURNS(new, state.idle_turns if idle_turns is _KEEP else idle_turns)
    _SET_TURN_PROGRESS(new, state.turn_progress if turn_progress is _KEEP else turn_progress)
    _SET_WENT_OUT(new, state.went_out if went_out is _KEEP else went_out)
    _SET_HASH(new, None)  # not hashed yet
    return new


def check_fields(value: GameState | PlayerView, what: str) -> None:
    """The field checks that a state and a view share (internal): the rules, the seats to act
    and to deal (R3), the phase, the deal number (R7), the scores (R23), the discard pile and
    the melds. ``what`` names the value in messages."""
    if type(value.rules) is not Rules:
        raise InvalidStateError(f"rules must be a Rules value, not {excerpt(value.rules)}")
    for name in ("current_player", "dealer"):
        if not is_seat(getattr(value, name)):
            raise InvalidStateError(f"R3: {name} must be a seat 0-3, not {excerpt(getattr(value, name))}")
    if not isinstance(value.phase, Phase):
        raise InvalidStateError(f"phase must be a Phase, not {excerpt(value.phase)}")
    deals = value.rules.deals
    if type(value.deal_number) is not int or not 1 <= value.deal_number <= deals:
        raise InvalidStateError(f"R7: deal_number must be 1-{deals}, not {excerpt(value.deal_number)}")
    scores = value.scores
    if not isinstance(scores, tuple) or len(scores) != 2 or not all(type(score) is int for score in scores):
        raise InvalidStateError(f"R23: scores must be two whole numbers, not {excerpt(scores)}")
    for name in ("discard_pile", "melds"):
        if not isinstance(getattr(value, name), tuple):
            raise InvalidStateError(f"{name} must be a tuple")
    if not all(type(card) is Card for card in value.discard_pile):
        raise InvalidStateError(f"the discard pile of a {what} holds Card values only")
    if not all(isinstance(meld, Meld) for meld in value.melds):
        raise InvalidStateError("melds must be Meld values")


def check_turn(value: GameState | PlayerView, hand_sizes: tuple[int, ...], stock_size: int, what: str) -> None:
    """The checks that a state and a view share, on what both show: the melds' aces (R10),
    the pass and idle counters (R20-R21), the phase against the card to meld, who went out
    and the hand sizes (R7, R14, R17-R19). ``what`` names the value in messages (internal)."""
    rules = value.rules
    for meld in value.melds:
        if (meld.ace_low or meld.melded_ace_low) and rules.ace_in_runs == "high":
            raise InvalidStateError(f"R10: the run {meld} plays the ace low, which these rules forbid")
    live = value.phase.is_live
    for name, limit in (("consecutive_passes", rules.pass_limit - live), ("idle_turns", rules.idle_limit - live)):
        count = getattr(value, name)
        if type(count) is not int or not 0 <= count <= limit:
            raise InvalidStateError(f"R20-R21: {name} must be 0-{limit} in this {what}, not {excerpt(count)}")
    if type(value.turn_progress) is not bool:
        raise InvalidStateError(f"R21: turn_progress must be True or False, not {excerpt(value.turn_progress)}")
    if value.consecutive_passes and stock_size:
        raise InvalidStateError("R20: a player can have passed only with an empty stock")
    if live:
        if value.went_out is not None:
            raise InvalidStateError("R18: nobody has gone out while the round is being played")
        if value.phase is Phase.DRAW and (value.must_meld is not None or value.turn_progress):
            raise InvalidStateError("R14: before the draw there is no card to meld and no progress")
        if value.phase is Phase.MELD and not hand_sizes[value.current_player]:
            raise InvalidStateError("R17-R18: after drawing, the player to move holds at least one card")
        if rules.last_card_discard != "stays_in" and not all(hand_sizes):
            raise InvalidStateError(
                f"R19: under last_card_discard={excerpt(rules.last_card_discard)} no player can have "
                "an empty hand while the round is being played"
            )
        if value.phase is Phase.MELD and value.must_meld is not None and value.turn_progress:
            raise InvalidStateError("R14: the card taken must be melded by the first action after the draw")
        if (
            value.phase is Phase.MELD
            and value.must_meld is None
            and not value.turn_progress
            and rules.top_card_must_meld
        ):
            raise InvalidStateError(
                "R12-R14: after the draw, either the stock's card was drawn (progress) or the card taken from the "
                "pile must be melded (top_card_must_meld=True)"
            )
        _check_scores(value, value.deal_number - 1, value.scores)
        return
    if value.must_meld is not None:
        raise InvalidStateError("R14: no card must be melded once the round is over")
    if (value.phase is Phase.GAME_OVER) != (value.deal_number == rules.deals):
        raise InvalidStateError("R7: the game is over exactly when the last deal has ended")
    if round_end(value) is None:
        raise InvalidStateError(
            "R18, R20, R21: a round ends only when a player goes out, when the passes end it "
            f"({rules.pass_limit} in a row) or after {rules.idle_limit} idle turns"
        )
    if value.went_out is not None:
        if type(value.went_out) is not int or not 0 <= value.went_out < PLAYERS:
            raise InvalidStateError(f"R18: went_out must be a seat 0-3 or None, not {excerpt(value.went_out)}")
        if hand_sizes[value.went_out]:
            raise InvalidStateError("R18: the player who went out holds no card")
        if value.current_player != value.went_out:
            raise InvalidStateError("R18: the round ended with the action of the player who went out")


def check_finished_scores(value: GameState | PlayerView, hands: tuple[Hand, ...]) -> None:
    """A finished round's scores are the earlier deals' totals plus this round's tally
    (R23-R25): exactly the tally after deal 1, else a remainder the earlier deals could give
    (internal)."""
    first, second = tally(value.melds, hands, went_out=value.went_out, rules=value.rules)
    before = (value.scores[0] - first.total, value.scores[1] - second.total)
    if value.deal_number == 1 and before != (0, 0):
        raise InvalidStateError(
            f"R23: the scores of the finished deal 1 are its tally, {first.total},{second.total}, "
            f"not {value.scores[0]},{value.scores[1]}"
        )
    _check_scores(value, value.deal_number - 1, before)


def _check_scores(value: GameState | PlayerView, deals: int, scores: tuple[int, int]) -> None:
    # R23-R25: each deal gives a team at most deal_points(bonus), and takes at most the deck.
    low, high = -deals * DECK_POINTS, deals * deal_points(value.rules.going_out_bonus)
    if not all(low <= score <= high for score in scores):
        raise InvalidStateError(
            f"R23-R25: {deals} finished deals give each team {low} to {high} points, "
            f"so the scores before deal {value.deal_number} cannot be {excerpt(scores)}"
        )


def check_mover(value: GameState | PlayerView, hand: Hand) -> None:
    """A live position always has a legal action (R12-R20): a draw or a pass before the draw
    (there always is one), and after it a meld, lay-off or discard of the mover's ``hand``
    (internal; asked with the engine's own enumeration)."""
    if value.phase is not Phase.MELD:
        return
    must = value.must_meld
    if must is not None and must not in hand:
        raise InvalidStateError("R14: the card to meld must be in the hand of the player to move")
    if not meld_phase_actions(
        hand.mask, hand.jokers, value.melds, must, value.rules, value.current_player, first_only=True
    ):
        if must is not None:
            raise InvalidStateError(
                f"R14: the {must} taken from the discard pile cannot be melded or laid off now, so it could not "
                "have been taken, and the player to move would have no legal action"
            )
        raise InvalidStateError(
            "R19: the player to move holds one card that cannot be laid off, and last_card_discard='forbidden' "
            "forbids discarding it: no legal action"
        )


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


def _hand_of(cards: Iterable[Card]) -> Hand:
    # A hand of cards already known to be distinct naturals and at most four jokers.
    mask = jokers = 0
    for card in cards:
        if card.index == JOKER_INDEX:
            jokers += 1
        else:
            mask |= 1 << card.index
    return make_hand(mask, jokers)


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


@attrs.frozen(repr=False, cache_hash=True)
class PlayerView:
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
    revealed_hands: tuple[Hand, ...] | None = None

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
        return turn_actions(self)

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
        return table_text(
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

    @property
    def round_end(self) -> RoundEnd | None:
        """Why the round ended (a :class:`~persian_rummy.RoundEnd`), or ``None`` while it is
        played; see :attr:`GameState.round_end <persian_rummy.GameState.round_end>`.

        >>> from persian_rummy import new_game
        >>> new_game(1).view(0).round_end is None
        True
        """
        return round_end(self)

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


register_format(PlayerView, "persian-rummy view", "a view")


def observe(state: GameState, seat: int) -> PlayerView:
    """The :class:`PlayerView` of ``seat`` (0-3) on ``state``; same as ``state.view(seat)``.

    >>> from persian_rummy import new_game
    >>> observe(new_game(1), 0).hand
    Hand.parse('3s 6s Ts Qs 3h 8h 8c')
    """
    if type(seat) is not int or not 0 <= seat < PLAYERS:
        raise InvalidStateError(f"R3: a view is for a seat 0-3, not {excerpt(seat)}")
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
        state.must_meld,
        state.deal_number,
        state.scores,
        state.rules,
        state.consecutive_passes,
        state.idle_turns,
        state.turn_progress,
        state.went_out,
        None if state.phase.is_live else state.hands,
    )


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
            f"R27: hand_sizes says seat {view.seat} holds {sizes[view.seat]} cards, but its hand has {len(view.hand)}"
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


def turn_actions(position: GameState | PlayerView, *, draws_only: bool = False) -> tuple[Action, ...]:
    """The legal actions of the player to move, for a state or for the mover's own view (none
    for another seat's view or a finished round); only the draw phase's with ``draws_only``
    (internal: :func:`~persian_rummy.legal_actions`, :func:`~persian_rummy.legal_draws` and
    :meth:`PlayerView.legal_actions` all answer with it, from the rules' checks below).

    In the draw phase: the stock if it has cards (R12), each discard-pile index whose target
    can be used at once, from the bottom up (R13-R14), and a pass when the stock is empty
    (R20). After the draw: the melds, lay-offs and discards (R14-R17, R19).

    >>> from persian_rummy import new_game
    >>> turn_actions(new_game(1)), turn_actions(new_game(1).view(0))
    ((DrawStock(),), ())
    """
    if type(position) is not GameState and not isinstance(position, (GameState, PlayerView)):
        # A hand, an InfoState or another holder of cards is named by its type, never shown (R27).
        shown = excerpt(position) if position is None or isinstance(position, int | float | str) else None
        raise ArgumentTypeError(f"expected a GameState or a PlayerView, not {shown or 'a ' + type(position).__name__}")
    phase = position.phase
    if phase is not Phase.DRAW and (phase is not Phase.MELD or draws_only):
        return ()
    seat = position.current_player
    if type(position) is GameState:
        hand = position.hands[seat]
        has_stock = bool(position.stock)
    else:
        view = position
        if not isinstance(view, PlayerView) or view.seat != seat:
            return ()
        hand = view.hand
        has_stock = view.stock_size > 0
    if phase is Phase.MELD:
        return tuple(
            meld_phase_actions(hand.mask, hand.jokers, position.melds, position.must_meld, position.rules, seat)
        )
    out: list[Action] = [DRAW_STOCK] if has_stock else []
    pile = position.discard_pile
    if pile:
        usable = usable_targets(hand.mask, hand.jokers, pile, position.melds, position.rules, seat)
        out.extend([draw_discard_action(index) for index in reversed(usable)])
    if not has_stock:
        out.append(PASS)
    return tuple(out)
