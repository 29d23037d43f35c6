"""What may stand for a bot where one is asked for (internal: :mod:`persian_rummy.arena`
re-exports the public names, and documents them).

A *bot spec* is one of four things, told apart by what it is, never by its annotations:

- a bot's name for :func:`~persian_rummy.bots.make_bot` (``"greedy"``, ``"mc:samples=8"``),
  built for each seat from the seat's seed;
- a :class:`BotFactory`, whose ``build(seed)`` makes a bot for each seat from the seat's seed;
- a class, made for each seat: as ``cls(seed)`` from the seat's seed when the class says so
  (a true ``made_from_seed`` class attribute, as every bundled bot class has), else without
  arguments (``MyBot()``);
- a bot itself: anything else that can be called with a view (a function, a bound method,
  an object with ``__call__``), played as it is at every seat it is given.

Nothing is called with a seed unless it says it takes one: a function that makes bots, given
where a bot is asked for, is called with the view, and the game stops at its first move with
a message that says to give it as ``BotFactory(make)``. A class whose constructor has a
``seed`` parameter but that does not say how it is made is refused before any game, with
the three ways to write it.

>>> from persian_rummy.bots import GreedyBot
>>> build_bot("greedy", 3), build_bot(BotFactory(GreedyBot), 3)
(GreedyBot(seed=3), GreedyBot(seed=3))
>>> build_bot(GreedyBot(7), 3)     # a bot plays as it is
GreedyBot(seed=7)
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any, Protocol, TypeAlias, cast, runtime_checkable

import attrs

from persian_rummy.bots import Bot, Player, SeededBotClass, make_bot
from persian_rummy.errors import ArgumentTypeError, excerpt
from persian_rummy.rules import Rules

__all__ = ["BotFactory", "BotSpec", "build_bot", "check_bot_spec", "is_bot", "name_of"]

#: A bot's name (see :func:`~persian_rummy.bots.make_bot`), a :class:`BotFactory`, a class
#: (made from the seat's seed when its ``made_from_seed`` is true, else without arguments)
#: or a bot itself.
BotSpec: TypeAlias = "str | BotFactory | type[Any] | Bot"

#: What a bot is, for the messages.
_BOT_SHAPE = "a bot is called with the view of the seat to move and returns an action: bot(view)"


#: What has a name where it is defined: a class, a function, a method, a builtin.
_NAMED = (type, types.FunctionType, types.MethodType, types.BuiltinFunctionType)


@runtime_checkable
class LabelledBot(Protocol):
    """A bot object that says its own name for a match's table: its ``label`` (a learned
    player names the policy file it plays, :attr:`NeuralBot.label
    <persian_rummy.policy.NeuralBot.label>`, so that two learned players are told apart)."""

    @property
    def label(self) -> str:
        """The bot's name in tables."""
        ...  # pragma: no cover


def name_of(thing: object, *, qualified: bool = False) -> str:
    """The name ``thing`` is defined under (its qualified name if asked), or its type's name
    for anything else (a bot object, a ``functools.partial``), or the label a bot object
    gives itself (:class:`LabelledBot`): the label of a bot or a factory, read from what it
    is, never from an attribute it may lack.

    >>> from persian_rummy.bots import GreedyBot, make_bot
    >>> name_of(GreedyBot), name_of(GreedyBot(1)), name_of(BotFactory.make, qualified=True)
    ('GreedyBot', 'GreedyBot', 'BotFactory.make')
    >>> from persian_rummy.policy import shipped_policy_path
    >>> name_of(make_bot("neural")), name_of(make_bot(str(shipped_policy_path()))) == str(shipped_policy_path())
    ('NeuralBot', True)
    """
    if isinstance(thing, _NAMED):
        return thing.__qualname__ if qualified else thing.__name__
    if isinstance(thing, LabelledBot) and isinstance(thing.label, str) and thing.label:
        return thing.label
    return type(thing).__name__


def _describe(thing: object) -> str:
    # A bot spec in words, by where it is defined when it has a name (mybots.tiny.make).
    if isinstance(thing, type | types.FunctionType | types.MethodType):
        name, module = thing.__qualname__, thing.__module__
        where = f"{module}.{name}" if isinstance(module, str) else name
        kind = "class" if isinstance(thing, type) else "method" if isinstance(thing, types.MethodType) else "function"
        return f"the {kind} {where[-120:]}"
    return excerpt(thing)


def _accepts(function: object, arguments: int) -> bool | None:
    """Whether ``function`` can be called with ``arguments`` positional arguments; ``None``
    when its signature cannot be read (some builtins): then only a call tells."""
    try:
        signature = inspect.signature(cast("Callable[..., object]", function))
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*([None] * arguments))
    except TypeError:
        return False
    return True


def _takes_seed(cls: type[Any]) -> bool:
    """Whether ``cls``'s constructor has a parameter named ``seed`` (read only to refuse a
    class that does not say whether the arena should give it one)."""
    try:
        return "seed" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False


def _check_build(instance: BotFactory, attribute: attrs.Attribute[Any], build: object) -> None:
    if isinstance(build, str | BotFactory) or not callable(build):
        raise ArgumentTypeError(
            f"BotFactory takes a callable that makes a bot from a seed (build(seed) -> bot), not {_describe(build)}"
        )
    if _accepts(build, 1) is False:
        raise ArgumentTypeError(
            f"BotFactory calls build(seed) to make each bot, but {_describe(build)} cannot be called with one argument"
        )


def _default_name(factory: BotFactory) -> str:
    return name_of(factory.build)


@attrs.frozen
class BotFactory:
    """A recipe for bots, made explicitly: ``build(seed)`` makes a fresh bot for each seat of
    each game, from the seed the arena derives for that seat (so every game is reproduced
    exactly, whatever process plays it). Give one wherever a bot spec is taken:
    :func:`~persian_rummy.arena.run_match`, :func:`~persian_rummy.arena.round_robin`, or at
    the command line as ``--bot mymodule:name`` where ``name = BotFactory(...)`` in
    ``mymodule``. ``name`` labels it in the results (by default ``build``'s name). To play
    in other processes (``workers=N``, an executor) ``build`` must be picklable: a function
    or a class defined at the top of a module, not a lambda.

    >>> from persian_rummy.bots import GreedyBot
    >>> factory = BotFactory(GreedyBot)
    >>> factory.name, factory.make(5)
    ('GreedyBot', GreedyBot(seed=5))
    >>> BotFactory("greedy")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ArgumentTypeError: BotFactory takes a callable that makes a bot from a seed (build(seed) -> bot), not 'greedy'
    """

    #: Makes a bot from a seed (a whole number): a class such as :class:`~persian_rummy.bots.GreedyBot`, or a function.
    build: Callable[[int], Bot] = attrs.field(validator=_check_build)
    #: The label of the bots it makes, in a match's results.
    name: str = attrs.field(default=attrs.Factory(_default_name, takes_self=True), kw_only=True)

    def make(self, seed: int) -> Bot:
        """A fresh bot from ``seed``; raises :class:`~persian_rummy.ArgumentTypeError` when
        ``build`` makes something that is not a bot.

        >>> def lazy(seed: int) -> str:
        ...     return "not a bot"
        >>> BotFactory(lazy).make(1)
        Traceback (most recent call last):
        ...
        persian_rummy.errors.ArgumentTypeError: BotFactory(build=lazy, name='lazy') made 'not a bot', not a bot: a bot is called with the view of the seat to move and returns an action: bot(view)
        """
        return _made(self, self.build(seed))

    def __repr__(self) -> str:
        build = self.build.__qualname__ if isinstance(self.build, _NAMED) else excerpt(self.build)
        return f"BotFactory(build={build[-80:]}, name={self.name!r})"


def _made(maker: object, made: object) -> Bot:
    # What a factory or a class made must be a bot.
    if isinstance(made, str | type) or not callable(made) or _accepts(made, 1) is False:
        who = repr(maker) if isinstance(maker, BotFactory) else _describe(maker)
        raise ArgumentTypeError(f"{who} made {excerpt(made)}, not a bot: {_BOT_SHAPE}")
    return cast("Bot", made)


def _kind(spec: object) -> str:
    """What ``spec`` is: ``"name"``, ``"factory"``, ``"seeded"`` (a class made from each
    seat's seed), ``"class"`` or ``"bot"``; raises for anything that is none of them."""
    if isinstance(spec, str):
        return "name"
    if isinstance(spec, BotFactory):
        return "factory"
    if not callable(spec):
        raise ArgumentTypeError(
            "a bot spec is a bot's name, a BotFactory, a class of bots or a bot (a callable taking a view), "
            f"not {_describe(spec)}"
        )
    if isinstance(spec, type):
        if isinstance(spec, SeededBotClass) and spec.made_from_seed is True:
            return "seeded"
        if _takes_seed(spec):
            raise ArgumentTypeError(
                f"{_describe(spec)} takes a seed, but does not say how the arena should make it: give "
                f"BotFactory({spec.__name__}) to make one from each seat's seed, an instance "
                f"({spec.__name__}(...)) to play one bot at every seat, or set made_from_seed = True on the class"
            )
        if _accepts(spec, 0) is False:
            raise ArgumentTypeError(
                f"{_describe(spec)} cannot be made without arguments, and a class given as a bot is made as "
                f"{spec.__name__}(): give an instance ({spec.__name__}(...)), or BotFactory({spec.__name__}) "
                "to make one from each seat's seed"
            )
        return "class"
    if _accepts(spec, 1) is False:
        raise ArgumentTypeError(f"{_describe(spec)} cannot be called with a view alone: {_BOT_SHAPE}")
    return "bot"


def is_bot(spec: object) -> bool:
    """Whether ``spec`` is played as it is (a bot), rather than naming or making bots: true for
    anything callable with a view that is not a name, a :class:`BotFactory` or a class (see
    :func:`check_bot_spec`). No annotation is needed, and none is read.

    >>> from persian_rummy import legal_actions
    >>> from persian_rummy.bots import GreedyBot
    >>> def mine(view):
    ...     return legal_actions(view)[0]
    >>> is_bot(mine), is_bot(GreedyBot(1)), is_bot(GreedyBot), is_bot("greedy"), is_bot(BotFactory(GreedyBot))
    (True, True, False, False, False)
    >>> is_bot(lambda: None), is_bot(3)      # no view can be given to them
    (False, False)
    >>> is_bot(lambda seed: GreedyBot(seed))   # a bot by its shape: BotFactory(...) makes it a factory
    True
    """
    try:
        return _kind(spec) == "bot"
    except ArgumentTypeError:
        return False


def check_bot_spec(spec: object, *, rules: Rules | None = None) -> BotSpec:
    """Check ``spec`` before any game and return it as it will be played: a name, a
    :class:`BotFactory`, a class or a bot, each of the right shape (a name that
    :func:`~persian_rummy.bots.make_bot` makes, a class that can be made without arguments,
    a bot that can be called with a view); given ``rules``, a name or a bot that cannot play
    them is refused too. Anything else raises :class:`~persian_rummy.ArgumentTypeError`
    (or the name's :class:`~persian_rummy.NotationError`) naming what was given and what is
    expected. A class made from each seat's seed (``made_from_seed``) comes back as a
    :class:`BotFactory` of it.

    >>> from persian_rummy.bots import GreedyBot
    >>> check_bot_spec(GreedyBot(2)), check_bot_spec("mc:samples=2"), check_bot_spec(GreedyBot)
    (GreedyBot(seed=2), 'mc:samples=2', BotFactory(build=GreedyBot, name='GreedyBot'))
    >>> class NeedsADepth:
    ...     def __init__(self, depth): ...
    >>> check_bot_spec(NeedsADepth)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ArgumentTypeError: the class persian_rummy._bot_specs.NeedsADepth cannot be made without arguments, and a class given as a bot is made as NeedsADepth(): give an instance (NeedsADepth(...)), or BotFactory(NeedsADepth) to make one from each seat's seed
    """
    kind = _kind(spec)
    if kind == "name":
        make_bot(cast("str", spec), 0, rules=rules)
    elif kind == "seeded":
        return BotFactory(cast("type[Any]", spec))
    elif kind == "bot":
        _require_rules(cast("Bot", spec), rules)
    return cast("BotSpec", spec)


def build_bot(spec: object, seed: int = 0, *, rules: Rules | None = None) -> Bot:
    """The bot ``spec`` stands for at a seat whose seed is ``seed``: a name made by
    :func:`~persian_rummy.bots.make_bot` with that seed, a :class:`BotFactory`'s
    ``make(seed)``, a class made from the seed (``made_from_seed``) or without arguments,
    or a bot itself. Given ``rules``, a bot
    that cannot play them is refused. Raises as :func:`check_bot_spec` does for a spec of
    the wrong shape, and :class:`~persian_rummy.ArgumentTypeError` when a factory or a class
    makes something that is not a bot.

    >>> from persian_rummy import legal_actions
    >>> from persian_rummy.bots import RandomBot
    >>> class First:
    ...     def __call__(self, view):
    ...         return legal_actions(view)[0]
    >>> build_bot("random", 4), build_bot(BotFactory(RandomBot), 4), build_bot(RandomBot, 4)
    (RandomBot(seed=4), RandomBot(seed=4), RandomBot(seed=4))
    >>> type(build_bot(First, 4)).__name__
    'First'
    """
    kind = _kind(spec)
    if kind == "name":
        return make_bot(cast("str", spec), seed, rules=rules)
    if kind == "factory":
        bot = cast("BotFactory", spec).make(seed)
    elif kind == "seeded":
        bot = BotFactory(cast("type[Any]", spec)).make(seed)
    elif kind == "class":
        bot = _made(spec, cast("type[Any]", spec)())
    else:
        bot = cast("Bot", spec)
    _require_rules(bot, rules)
    return bot


def _require_rules(bot: Bot, rules: Rules | None) -> None:
    # A bot made for some rules only (the learned player) refuses others, saying how to get one.
    if rules is not None:
        Player.of(bot).require_rules(rules)
