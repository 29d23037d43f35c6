"""The parts of a turn and why a round ends (R12-R21): :class:`Phase` and :class:`RoundEnd`,
below every module that asks them, with the fields every position shows, declared once
(:class:`SharedFields`, the base of a state and a view)
(internal; the enums are public as ``persian_rummy.Phase`` and ``persian_rummy.RoundEnd``,
and ``persian_rummy.state`` re-exports them).
"""

from __future__ import annotations

import enum
from typing import Any, Final

import attrs

from persian_rummy.cards import Card
from persian_rummy.hand import Hand
from persian_rummy.melds import Meld
from persian_rummy.rules import Rules

__all__ = ["PHASES", "Phase", "RoundEnd", "SharedFields", "in_reading_order", "round_end"]


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


#: The phases by their value, for the position strings (internal).
PHASES: Final = {phase.value: phase for phase in Phase}


class RoundEnd(enum.Enum):
    """Why a round ended: see :attr:`GameState.round_end <persian_rummy.GameState.round_end>`.

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


def in_reading_order(cls: type, fields: list[attrs.Attribute[Any]]) -> list[attrs.Attribute[Any]]:
    """A position's fields as they read (and are written out, compared and hashed): the
    class's own fields without a default, then the shared fields of :class:`SharedFields`, then the
    class's own fields with a default. (attrs lists a base's fields first.) A state and a view
    are made with ``attrs.frozen(field_transformer=in_reading_order)`` (internal)."""
    names = {field.name for field in attrs.fields(SharedFields)}
    shared = [field for field in fields if field.name in names]
    own = [field for field in fields if field.name not in names]
    first = [field for field in own if field.default is attrs.NOTHING]
    last = [field for field in own if field.default is not attrs.NOTHING]
    return first + shared + last


@attrs.frozen
class SharedFields:
    """The fields of a position that a :class:`~persian_rummy.GameState` and a
    :class:`~persian_rummy.PlayerView` share, declared once, and what they answer alike; the
    modules below them (the rules' checks, scoring, the text table, the view) read either
    through this base. The fields are keyword-only (a position's own fields come first).
    """

    #: The discard pile, bottom to top; the last card is the top card (R13). Public.
    discard_pile: tuple[Card, ...] = attrs.field(kw_only=True)
    #: The melds on the table, in the order they were laid (lay-off indices), each card
    #: credited to the seat that put it there. Public.
    melds: tuple[Meld, ...] = attrs.field(kw_only=True)
    #: The seat to act (0-3; after the round, the seat that acted last).
    current_player: int = attrs.field(kw_only=True)
    #: The seat that dealt this deal.
    dealer: int = attrs.field(kw_only=True)
    #: The phase: drawing, melding, or the round or game over (see :class:`Phase`).
    phase: Phase = attrs.field(kw_only=True)
    #: After a discard-pile draw, the card the next action must meld or lay off (R14), else
    #: ``None``. Public: every seat saw the card taken (R13-R14, R27).
    must_meld: Card | None = attrs.field(kw_only=True)
    #: 1 for the first deal, 2 for the second (R7).
    deal_number: int = attrs.field(kw_only=True)
    #: The teams' cumulative totals, including every finished deal (R23-R25).
    scores: tuple[int, int] = attrs.field(kw_only=True)
    #: The :class:`~persian_rummy.Rules` in force.
    rules: Rules = attrs.field(kw_only=True)
    #: Passes in a row so far (R20).
    consecutive_passes: int = attrs.field(default=0, kw_only=True)
    #: Turns in a row with no stock draw and no card added to the table (R21).
    idle_turns: int = attrs.field(default=0, kw_only=True)
    #: Whether the current turn has drawn from the stock or added a card to the table (R21).
    turn_progress: bool = attrs.field(default=False, kw_only=True)
    #: The seat that went out (R18, R25), once the round is over, else ``None``.
    went_out: int | None = attrs.field(default=None, kw_only=True)

    @property
    def is_deal_over(self) -> bool:
        """Whether the deal (the round) is over: ``ROUND_OVER``, or ``GAME_OVER`` after the
        last deal. :func:`~persian_rummy.next_deal` deals the next one.

        >>> from persian_rummy import new_game
        >>> new_game(1).is_deal_over, new_game(1).view(0).is_deal_over
        (False, False)
        """
        return not self.phase.is_live

    @property
    def is_game_over(self) -> bool:
        """Whether the whole game is over: the last deal has ended (``GAME_OVER``, R7, R26).
        A whole game is one loop:

        >>> from persian_rummy import legal_actions, new_game, next_deal, play
        >>> state = new_game(42)
        >>> while not state.is_game_over:
        ...     if state.is_deal_over:
        ...         state = next_deal(state, game_seed=42)  # deal 2 is shuffled by deal_seed(42, 2)
        ...     else:
        ...         state = play(state, legal_actions(state)[0])
        >>> state.deal_number, state.scores, state.view(0).is_game_over
        (2, (-1, 69), True)
        """
        return self.phase is Phase.GAME_OVER

    @property
    def round_end(self) -> RoundEnd | None:
        """Why the round ended (a :class:`RoundEnd`), or ``None`` while it is played.

        >>> from persian_rummy import GameState, play
        >>> state = GameState.from_position(["9d", "5s 6s", "Qh", "2d"], "2c 7s")
        >>> state.round_end, play(play(state, "take 1"), "meld 5s 6s 7s").round_end
        (None, <RoundEnd.WENT_OUT: 'went_out'>)
        """
        return round_end(self)

    @property
    def top_card(self) -> Card | None:
        """The top card of the discard pile, or ``None`` when the pile is empty.

        >>> from persian_rummy import new_game
        >>> new_game(1).top_card, new_game(1).view(3).top_card
        (Card.parse('2s'), Card.parse('2s'))
        """
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def revealed_hands(self) -> tuple[Hand, ...] | None:
        """The four hands once the round is over (every hand is public then, R23), else
        ``None``: what scoring reads of a state and a view alike. Each position says (a view
        holds them as a field).

        >>> from persian_rummy import new_game
        >>> new_game(1).revealed_hands is None, new_game(1).view(0).revealed_hands is None
        (True, True)
        """
        raise NotImplementedError


def round_end(value: SharedFields) -> RoundEnd | None:
    """Why the round of a state or view ended, or ``None`` while it is played (internal; see
    :attr:`GameState.round_end <persian_rummy.GameState.round_end>`). A round that ends at once
    in two ways gives the first of going out (R18), passing (R20) and idling (R21)."""
    if value.phase.is_live:
        return None
    if value.went_out is not None:
        return RoundEnd.WENT_OUT
    if value.consecutive_passes == value.rules.pass_limit:
        return RoundEnd.PASSED
    if value.idle_turns == value.rules.idle_limit:
        return RoundEnd.IDLE
    return None
