"""A whole game played one action at a time, for the environments (internal).

The environments play a :class:`~persian_rummy.Game`, as :func:`~persian_rummy.arena.play_game`
does, so an environment reset with seed ``s`` plays the deals of the arena's game ``s``. The
next deal is dealt as soon as one ends.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final, SupportsFloat, cast

from persian_rummy._bits import whole_number
from persian_rummy.actions import Action
from persian_rummy.dealing import check_seed
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, shown
from persian_rummy.game import Game
from persian_rummy.rules import Rules
from persian_rummy.state import PLAYERS, GameState, Phase


class Episode:
    """The game being played: :attr:`game` (a :class:`~persian_rummy.Game`), its
    :attr:`state` and :meth:`play`.

    >>> from persian_rummy import legal_actions
    >>> episode = Episode(3)
    >>> episode.play(legal_actions(episode.state)[0]), episode.state.phase
    (None, <Phase.MELD: 'meld'>)
    """

    __slots__ = ("deals", "game", "state")

    def __init__(self, seed: int, rules: Rules = Rules(), dealer: int = 0) -> None:
        self.game = Game.new(seed, rules=rules, dealer=dealer)
        #: The current state (``game.state``, kept beside it: the environments read it often).
        self.state: GameState = self.game.state
        #: The finished deals' scores, (team 0, team 1) each (R23-R25).
        self.deals: list[tuple[int, int]] = []

    @property
    def seed(self) -> int | str:
        """The game's seed."""
        return self.game.seed

    def play(self, action: Action) -> tuple[int, int] | None:
        """Play ``action`` (legal, for the player to move); if it ends a deal (the game deals
        the next one, unless it is over), return the finished deal's scores by team."""
        before = self.state
        game = self.game = self.game.play(action)
        state = self.state = game.state
        if state.deal_number == before.deal_number and state.phase is not _GAME_OVER:  # the deal goes on
            return None
        last, previous = game.after.scores, before.scores
        scores = (last[0] - previous[0], last[1] - previous[1])
        self.deals.append(scores)
        return scores

    @property
    def is_over(self) -> bool:
        """Whether the last deal has ended (R7)."""
        return self.state.phase is _GAME_OVER


_GAME_OVER: Final = Phase.GAME_OVER


# The checks of the environments' arguments, shared by both: each returns the value as the
# environment keeps it, or raises the library's error before anything changes.


def check_seat(value: object, what: str) -> int:
    """A seat 0-3 (R3)."""
    seat = whole_number(value, what)
    if not 0 <= seat < PLAYERS:
        raise InvalidArgumentError(f"R3: {what} is a seat 0-3, not {shown(seat)}")
    return seat


def check_rules(value: object) -> Rules:
    """The :class:`~persian_rummy.Rules` in force."""
    if not isinstance(value, Rules):
        raise ArgumentTypeError(f"rules are a persian_rummy.Rules, not {shown(value)}")
    return value


def real_number(value: object, what: str, *, positive: bool = False) -> float:
    """``value`` as a finite float (a real number, numpy's too, not a bool), greater than 0 if
    ``positive``."""
    if isinstance(value, bool) or (not isinstance(value, int | float) and not hasattr(value, "__float__")):
        raise ArgumentTypeError(f"{what} is a real number, not {shown(value)}")
    try:
        number = float(cast(SupportsFloat, value))  # anything with __float__, as checked above
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"{what} is a real number, not {shown(value)}") from None
    except OverflowError:
        number = math.inf
    if not math.isfinite(number) or (positive and number <= 0):
        raise InvalidArgumentError(f"{what} is a finite number{' above 0' if positive else ''}, not {shown(value)}")
    return number


def check_max_actions(value: object) -> int | None:
    """``None`` or a whole number of at least 1."""
    if value is None:
        return None
    count = whole_number(value, "max_actions")
    if count < 1:
        raise InvalidArgumentError(f"max_actions is None or at least 1, not {shown(count)}")
    return count


def check_game_seed(value: object, *, negative: bool = True) -> int | None:
    """``None`` or a game seed given to ``reset``: a whole number (numpy's too) that
    :func:`~persian_rummy.shuffled_deck` takes, not below 0 unless ``negative``."""
    if value is None:
        return None
    seed = whole_number(value, "a seed")
    check_seed(seed)
    if seed < 0 and not negative:
        raise InvalidArgumentError(f"a seed of this environment is 0 or more (as Gymnasium's), not {shown(seed)}")
    return seed


def checked_settings(
    rules: object, dealer: object, reward_scale: object, max_actions: object
) -> tuple[Rules, int, float, int | None]:
    """The settings both environments take, each checked, in the order they are given: the
    rules in force, the first deal's dealer, the scale the rewards are divided by, and the
    number of actions a game is truncated after (``None``: never)."""
    return (
        check_rules(rules),
        check_seat(dealer, "the dealer"),
        real_number(reward_scale, "reward_scale", positive=True),
        check_max_actions(max_actions),
    )


def check_reset(seed: object, options: object, *, negative: bool = True) -> int | None:
    """The seed given to ``reset`` (see :func:`check_game_seed`), with its ``options`` checked."""
    given = check_game_seed(seed, negative=negative)
    check_options(options)
    return given


def check_options(value: object) -> None:
    """``None`` or a mapping (the environments use no option)."""
    if value is not None and not isinstance(value, Mapping):
        raise ArgumentTypeError(f"options are None or a dict, not {shown(value)}")
