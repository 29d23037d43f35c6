"""What a bot is, and what the library asks of one (internal: :mod:`persian_rummy.bots`
re-exports the names, and documents them).

A bot is any callable that takes the :class:`~persian_rummy.PlayerView` of the seat to move and
returns an action (:class:`Bot`). A bot may say three more things, each a typed protocol:

- that it reads the public history (:class:`HistoryBot`, a true ``takes_info_state``): it is
  then handed the seat's :class:`~persian_rummy.InfoState` instead of the view;
- which rules it plays (:class:`RulesBot`, a ``require_rules(rules)`` method that refuses
  others, as the learned player does);
- for a class of bots, that it is made for each seat from the seat's seed
  (:class:`SeededBotClass`, a true ``made_from_seed``, as every bundled bot class says).

:meth:`Player.of` reads what a bot says, once, into a :class:`Player`: the arena, the table
server and the command line ask the player, never the bot's attributes.

>>> from persian_rummy import new_game
>>> from persian_rummy.bots import GreedyBot, MonteCarloBot
>>> Player.of(GreedyBot(1)).reads_history, Player.of(MonteCarloBot(1, history=1)).reads_history
(False, True)
>>> Player.of(GreedyBot(1)).choose(new_game(1).view(1))
DrawStock()
"""

from __future__ import annotations

import types
from typing import Protocol, runtime_checkable

import attrs

from persian_rummy._bits import whole_number
from persian_rummy.actions import Action
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, InvalidStateError, excerpt
from persian_rummy.rules import Rules
from persian_rummy.state import GameState
from persian_rummy.view import InfoState, PlayerView

__all__ = ["Bot", "HistoryBot", "Player", "RulesBot", "SeededBotClass", "bot_knob", "bot_seed", "out_of_turn"]


@runtime_checkable
class Bot(Protocol):
    """A computer player: called with the :class:`~persian_rummy.PlayerView` of the seat to
    move, it returns one of that view's legal actions. Any function of that shape is a bot.
    A bot that also reads the public history says so (:class:`HistoryBot`): the arena then
    calls it with the seat's :class:`~persian_rummy.InfoState` instead of the view. A class
    of bots that says it is made from a seed (:class:`SeededBotClass`), as every bundled bot
    class does, is made by the arena for each seat as ``cls(seed)`` when the class itself is
    given (see :mod:`persian_rummy.arena`).

    >>> from persian_rummy import legal_actions
    >>> from persian_rummy.bots import RandomBot
    >>> def first(view: PlayerView) -> Action:
    ...     return legal_actions(view)[0]
    >>> isinstance(first, Bot), isinstance(RandomBot(1), Bot)
    (True, True)
    """

    def __call__(self, view: PlayerView, /) -> Action:
        """Choose an action for the seat to move."""
        ...  # pragma: no cover


@runtime_checkable
class HistoryBot(Protocol):
    """A bot that may read the public history: when its ``takes_info_state`` is true it is
    called with the seat's :class:`~persian_rummy.InfoState` (the view and every action of
    the deal the seat saw, R27) instead of the view. ``MonteCarloBot(seed, history=1)``,
    the search player and OpenSpiel's IS-MCTS player are such bots.

    >>> from persian_rummy.bots import GreedyBot, MonteCarloBot
    >>> isinstance(MonteCarloBot(1, history=1), HistoryBot), isinstance(GreedyBot(1), HistoryBot)
    (True, False)
    """

    @property
    def takes_info_state(self) -> bool:
        """Whether the bot is handed the seat's information state instead of the view."""
        ...  # pragma: no cover

    def __call__(self, seen: PlayerView | InfoState, /) -> Action:
        """Choose an action for the seat to move from its view or its information state."""
        ...  # pragma: no cover


@runtime_checkable
class RulesBot(Protocol):
    """A bot that plays some rules only (the learned player, trained for one rule set): its
    ``require_rules(rules)`` raises :class:`~persian_rummy.PolicyFileError` for others,
    saying how to make a bot for them, so a match or a table refuses at once.

    >>> from persian_rummy.bots import GreedyBot, neural_bot
    >>> isinstance(neural_bot(1), RulesBot), isinstance(GreedyBot(1), RulesBot)
    (True, False)
    """

    def require_rules(self, rules: Rules) -> None:
        """Raise :class:`~persian_rummy.PolicyFileError` unless the bot plays ``rules``."""
        ...  # pragma: no cover


@runtime_checkable
class SeededBotClass(Protocol):
    """A class of bots that the arena makes for each seat from the seat's seed, as
    ``cls(seed)``, when the class itself is given as a bot (``run_match(GreedyBot, ...)``):
    its ``made_from_seed`` class attribute is true. A class that does not say so is made
    from the seed when its constructor takes a ``seed`` (``cls(seed=seed)``), else without
    arguments; :class:`~persian_rummy.arena.BotFactory` says it explicitly for any function
    or class.

    >>> from persian_rummy.bots import GreedyBot
    >>> isinstance(GreedyBot, SeededBotClass), GreedyBot.made_from_seed
    (True, True)
    """

    @property
    def made_from_seed(self) -> bool:
        """Whether the arena makes the class for each seat as ``cls(seed)``."""
        ...  # pragma: no cover

    def __call__(self, seed: int, /) -> Bot:
        """A bot made from ``seed``."""
        ...  # pragma: no cover


@attrs.frozen(repr=False)
class Player:
    """A bot as the library asks it: what the bot says about itself, read once by
    :meth:`of`. ``choose(seen)`` hands the bot its seat's
    :class:`~persian_rummy.InfoState` when it reads the history, else the view (given either);
    ``require_rules(rules)`` refuses rules the bot does not play. The arena, the table server
    and the command line ask a player, never the bot's attributes.

    >>> from persian_rummy import Rules, legal_actions, new_game
    >>> from persian_rummy.bots import neural_bot
    >>> def first(view):
    ...     return legal_actions(view)[0]
    >>> player = Player.of(first)
    >>> player, player.reads_history
    (Player.of(<function first>), False)
    >>> player.choose(new_game(1).view(1))
    DrawStock()
    >>> Player.of(neural_bot(1)).require_rules(Rules(deals=1))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.PolicyFileError: this policy was trained for the rules 'default', not 'deals=1': train one for them with `persian-rummy train --rules 'deals=1' --out DIR` and play it with NeuralBot.load
    """

    #: The bot, as given.
    bot: Bot
    #: The same bot when it reads the public history (a true ``takes_info_state``), else None.
    reader: HistoryBot | None = None
    #: The same bot when it plays some rules only (it has ``require_rules``), else None.
    rules_bound: RulesBot | None = None

    @classmethod
    def of(cls, bot: Bot | HistoryBot | Player) -> Player:
        """The player of ``bot``: what it says about itself (:class:`HistoryBot`,
        :class:`RulesBot`) read once; a player is returned as it is.

        >>> from persian_rummy.bots import MonteCarloBot
        >>> Player.of(MonteCarloBot(2, history=1))
        Player.of(MonteCarloBot(seed=2, samples=4, horizon=4, candidates=3, history=1))
        """
        if isinstance(bot, Player):
            return bot
        reader = bot if isinstance(bot, HistoryBot) and bot.takes_info_state else None
        rules_bound = bot if isinstance(bot, RulesBot) and callable(bot.require_rules) else None
        return cls(bot, reader, rules_bound)

    @property
    def reads_history(self) -> bool:
        """Whether the bot is handed its seat's information state instead of the view."""
        return self.reader is not None

    def choose(self, seen: PlayerView | InfoState) -> Action:
        """The bot's action for the seat to move, from what the seat has ``seen``: the bot is
        handed the information state if it reads the history and it is given, else the view."""
        if self.reader is not None:
            return self.reader(seen)
        return self.bot(seen.view if isinstance(seen, InfoState) else seen)

    def require_rules(self, rules: Rules) -> None:
        """Raise what the bot raises for ``rules`` it does not play
        (:class:`~persian_rummy.PolicyFileError`); a bot that plays every rule set passes."""
        if self.rules_bound is not None:
            self.rules_bound.require_rules(rules)

    def __repr__(self) -> str:
        bot = self.bot
        # a function's own repr holds its address: its name is enough
        shown = f"<function {bot.__qualname__}>" if isinstance(bot, types.FunctionType) else repr(bot)
        return f"Player.of({shown})"


def bot_seed(bot: str, seed: object) -> int:
    """The seed ``bot`` (its class's name) was given, as an int: a whole number, numpy's
    integers too, else :class:`~persian_rummy.ArgumentTypeError`. A view or a state in its
    place means a function that makes bots from a seed was played as a bot: the message says
    how to give it as a factory. Every bundled bot checks its seed here.

    >>> import numpy as np
    >>> bot_seed("GreedyBot", np.int64(3))
    3
    >>> bot_seed("GreedyBot", 1.5)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ArgumentTypeError: GreedyBot's seed is a whole number, not 1.5
    """
    if isinstance(seed, GameState | PlayerView | InfoState):
        raise ArgumentTypeError(
            f"{bot}'s seed is a whole number, not a {type(seed).__name__}: a function that makes bots from a "
            "seed was played as a bot (called with the view); give it as BotFactory(function) "
            "(persian_rummy.arena.BotFactory) to make a bot from each seat's seed"
        )
    return whole_number(seed, f"{bot}'s seed")


def bot_knob(bot: str, name: str, value: object, least: int) -> int:
    """A bot's whole-number knob (``samples``, ``horizon``, ...) of at least ``least``, else
    :class:`~persian_rummy.InvalidArgumentError` naming the bot and the knob.

    >>> bot_knob("MonteCarloBot", "samples", 0, 1)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: MonteCarloBot samples must be a whole number of at least 1, not 0
    """
    if type(value) is not int or value < least:
        raise InvalidArgumentError(f"{bot} {name} must be a whole number of at least {least}, not {excerpt(value)}")
    return value


def out_of_turn(view: PlayerView) -> InvalidStateError:
    """What every bundled bot raises when asked to act for a seat that is not to move (R27):
    a bot acts only for the seat to move, from that seat's view.

    >>> from persian_rummy import new_game
    >>> raise out_of_turn(new_game(1).view(2))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidStateError: R27: seat 2 was asked to act, but seat 1 is to move (phase DRAW); a bot acts only for the seat to move
    """
    return InvalidStateError(
        f"R27: seat {view.seat} was asked to act, but seat {view.current_player} is to move "
        f"(phase {view.phase.name}); a bot acts only for the seat to move"
    )
