"""The parts of a turn and why a round ends (R12-R21): :class:`Phase` and :class:`RoundEnd`,
below every module that asks them, with the fields every position shows (:class:`Shown`)
(internal; the enums are public as ``persian_rummy.Phase`` and ``persian_rummy.RoundEnd``,
and ``persian_rummy.state`` re-exports them).
"""

from __future__ import annotations

import enum
from typing import Final, Protocol

from persian_rummy.cards import Card
from persian_rummy.melds import Meld
from persian_rummy.rules import Rules

__all__ = ["PHASES", "Phase", "RoundEnd", "Shown", "round_end"]


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


class Shown(Protocol):
    """The fields of a position that a :class:`~persian_rummy.GameState` and a
    :class:`~persian_rummy.PlayerView` share: what the modules below them (the rules' checks,
    scoring, the text table, the view) read of either."""

    @property
    def phase(self) -> Phase: ...
    @property
    def current_player(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def discard_pile(self) -> tuple[Card, ...]: ...
    @property
    def melds(self) -> tuple[Meld, ...]: ...
    @property
    def must_meld(self) -> Card | None: ...
    @property
    def deal_number(self) -> int: ...
    @property
    def scores(self) -> tuple[int, int]: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def consecutive_passes(self) -> int: ...
    @property
    def idle_turns(self) -> int: ...
    @property
    def turn_progress(self) -> bool: ...
    @property
    def went_out(self) -> int | None: ...


def round_end(value: Shown) -> RoundEnd | None:
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
