"""What may stand for a bot where one is asked for (internal: :mod:`persian_rummy.arena`
re-exports the public names, and documents them).

A *bot spec* is one of four things, told apart by what it is, never by its annotations:

- a bot's name for :func:`~persian_rummy.bots.make_bot` (``"greedy"``, ``"mc:samples=8"``),
  built for each seat from the seat's seed;
- a :class:`BotFactory`, whose ``build(seed)`` makes a bot for each seat from the seat's seed;
- a class, instantiated without arguments for each seat (``MyBot()``);
- a bot itself: anything else that can be called with a view (a function, a bound method,
  an object with ``__call__``), played as it is at every seat it is given.

The old spelling of a factory keeps its meaning for now, with a :class:`DeprecationWarning`
that says what to write instead: a callable whose first parameter is annotated as a seed
(``int`` or ``Seed``: ``def make(seed: int) -> Bot``, or a class whose constructor's is, such
as :class:`~persian_rummy.bots.GreedyBot`) or is named ``seed`` without an annotation
(``lambda seed: GreedyBot(seed)``) is taken for a factory, as it was before bots and
factories were told apart explicitly. Any other function of one argument is a bot.

>>> from persian_rummy.bots import GreedyBot
>>> build_bot("greedy", 3), build_bot(BotFactory(GreedyBot), 3)
(GreedyBot(seed=3), GreedyBot(seed=3))
>>> build_bot(GreedyBot(7), 3)     # a bot plays as it is
GreedyBot(seed=7)
"""

from __future__ import annotations

import inspect
import types
import warnings
from collections.abc import Callable
from typing import Any, TypeAlias, cast

import attrs

from persian_rummy.bots import Bot, make_bot
from persian_rummy.errors import ArgumentTypeError, excerpt
from persian_rummy.rules import Rules

__all__ = ["BotFactory", "BotSpec", "build_bot", "check_bot_spec", "is_bot"]

#: A bot's name (see :func:`~persian_rummy.bots.make_bot`), a :class:`BotFactory`, a class
#: (made without arguments) or a bot itself; ``Callable[[int], Bot]`` is the deprecated
#: spelling of a factory, typed while it is still taken.
BotSpec: TypeAlias = "str | BotFactory | type[Any] | Bot | Callable[[int], Bot]"

#: The annotations that marked a factory's seed parameter before factories were explicit.
_SEED_ANNOTATIONS = ("int", "Seed")
#: Annotations of a view: a parameter so annotated is never a seed.
_VIEW_ANNOTATIONS = ("PlayerView", "InfoState", "GameState")
#: What a bot is, for the messages.
_BOT_SHAPE = "a bot is called with the view of the seat to move and returns an action: bot(view)"


def _describe(thing: object) -> str:
    # A bot spec in words, by where it is defined when it has a name (mybots.tiny.make).
    name = getattr(thing, "__qualname__", None)
    module = getattr(thing, "__module__", None)
    if isinstance(thing, type | types.FunctionType | types.MethodType) and isinstance(name, str):
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


def _seed_parameter(spec: object) -> str | None:
    """The name of ``spec``'s first parameter when it marks a factory in the deprecated
    spelling (annotated as a seed, or named ``seed`` and not annotated as a view), else ``None``."""
    try:
        parameters = list(inspect.signature(cast("Callable[..., object]", spec)).parameters.values())
    except (TypeError, ValueError):
        return None
    if not parameters or parameters[0].kind not in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    ):
        return None
    first = parameters[0]
    annotation = first.annotation
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    if any(name in text for name in _VIEW_ANNOTATIONS):
        return None
    if text.replace(" ", "").startswith(_SEED_ANNOTATIONS) or (first.name == "seed" and annotation is first.empty):
        return first.name
    return None


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
    build = factory.build
    name = getattr(build, "__name__", None)
    return name if isinstance(name, str) else type(build).__name__


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
        build = getattr(self.build, "__qualname__", None) or excerpt(self.build)
        return f"BotFactory(build={build[-80:]}, name={self.name!r})"


def _made(maker: object, made: object) -> Bot:
    # What a factory or a class made must be a bot.
    if isinstance(made, str | type) or not callable(made) or _accepts(made, 1) is False:
        who = repr(maker) if isinstance(maker, BotFactory) else _describe(maker)
        raise ArgumentTypeError(f"{who} made {excerpt(made)}, not a bot: {_BOT_SHAPE}")
    return cast("Bot", made)


def _kind(spec: object) -> str:
    """What ``spec`` is: ``"name"``, ``"factory"``, ``"legacy"`` (a factory in the deprecated
    spelling), ``"class"`` or ``"bot"``; raises for anything that is none of them."""
    if isinstance(spec, str):
        return "name"
    if isinstance(spec, BotFactory):
        return "factory"
    if not callable(spec):
        raise ArgumentTypeError(
            "a bot spec is a bot's name, a BotFactory, a class of bots or a bot (a callable taking a view), "
            f"not {_describe(spec)}"
        )
    if _seed_parameter(spec) is not None:
        return "legacy"
    if isinstance(spec, type):
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


def _deprecated(spec: object) -> None:
    # The one spelling kept from before: say what it is taken for and what to write instead.
    name = getattr(spec, "__name__", None)
    name = name if isinstance(name, str) and name.isidentifier() else "..."
    warnings.warn(
        f"{_describe(spec)} is taken for a bot factory because of its first parameter "
        f"({_seed_parameter(spec)}); this is deprecated: give BotFactory({name}) "
        "(persian_rummy.arena.BotFactory) to make a bot from each seat's seed. Without it a function is "
        "a bot, called with the view, and a class is made without arguments.",
        DeprecationWarning,
        stacklevel=3,
    )


def is_bot(spec: object) -> bool:
    """Whether ``spec`` is played as it is (a bot), rather than naming or making bots: true for
    anything callable with a view that is not a name, a :class:`BotFactory`, a class or a
    factory of the deprecated spelling (see :func:`check_bot_spec`). No annotation is needed.

    >>> from persian_rummy import legal_actions
    >>> from persian_rummy.bots import GreedyBot
    >>> def mine(view):
    ...     return legal_actions(view)[0]
    >>> is_bot(mine), is_bot(GreedyBot(1)), is_bot(GreedyBot), is_bot("greedy"), is_bot(BotFactory(GreedyBot))
    (True, True, False, False, False)
    >>> is_bot(lambda: None), is_bot(3)      # no view can be given to them
    (False, False)
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
    expected. A factory in the deprecated spelling (its first parameter annotated ``int``, or named
    ``seed`` without an annotation) comes
    back as a :class:`BotFactory`, with a :class:`DeprecationWarning`.

    >>> from persian_rummy.bots import GreedyBot
    >>> check_bot_spec(GreedyBot(2)), check_bot_spec("mc:samples=2")
    (GreedyBot(seed=2), 'mc:samples=2')
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
    elif kind == "legacy":
        _deprecated(spec)
        return BotFactory(cast("Callable[[int], Bot]", spec))
    elif kind == "bot":
        _require_rules(spec, rules)
    return cast("BotSpec", spec)


def build_bot(spec: object, seed: int = 0, *, rules: Rules | None = None) -> Bot:
    """The bot ``spec`` stands for at a seat whose seed is ``seed``: a name made by
    :func:`~persian_rummy.bots.make_bot` with that seed, a :class:`BotFactory`'s
    ``make(seed)``, a class made without arguments, or a bot itself. Given ``rules``, a bot
    that cannot play them is refused. Raises as :func:`check_bot_spec` does for a spec of
    the wrong shape, and :class:`~persian_rummy.ArgumentTypeError` when a factory or a class
    makes something that is not a bot.

    >>> from persian_rummy import legal_actions
    >>> from persian_rummy.bots import RandomBot
    >>> class First:
    ...     def __call__(self, view):
    ...         return legal_actions(view)[0]
    >>> build_bot("random", 4), build_bot(BotFactory(RandomBot), 4), type(build_bot(First)).__name__
    (RandomBot(seed=4), RandomBot(seed=4), 'First')
    """
    kind = _kind(spec)
    if kind == "name":
        return make_bot(cast("str", spec), seed, rules=rules)
    if kind == "factory":
        bot = cast("BotFactory", spec).make(seed)
    elif kind == "legacy":
        _deprecated(spec)
        bot = _made(spec, cast("Callable[[int], object]", spec)(seed))
    elif kind == "class":
        bot = _made(spec, cast("type[Any]", spec)())
    else:
        bot = cast("Bot", spec)
    _require_rules(bot, rules)
    return bot


def _require_rules(bot: object, rules: Rules | None) -> None:
    # A bot made for some rules only (the learned player) refuses others, saying how to get one.
    require = getattr(bot, "require_rules", None)
    if rules is not None and callable(require):
        require(rules)
