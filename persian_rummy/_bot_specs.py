"""What may stand for a bot where one is asked for (internal: :mod:`persian_rummy.arena`
re-exports the public names, and documents them).

A *bot spec* is one of four things, told apart by what it is, never by its annotations:

- a bot's name for :func:`~persian_rummy.bots.make_bot` (``"greedy"``, ``"mc:samples=8"``),
  built for each seat from the seat's seed; or, as the command line's ``--bot`` spells it, a
  user's own bot spec in a module, ``"module:name"`` (``"mybots:Clever"``; the file's name,
  ``"mybots.py:Clever"``, too), imported as ``python -m`` finds modules: the current folder
  first, then the import path;
- a :class:`BotFactory`, whose ``build(seed)`` makes a bot for each seat from the seat's seed;
- a class, made for each seat: as ``cls(seed)`` from the seat's seed when the class says so
  (a true ``made_from_seed`` class attribute, as every bundled bot class has) or when its
  constructor takes a ``seed`` (``def __init__(self, seed=0)``: made as ``cls(seed=seed)``),
  else without arguments (``MyBot()``); a false ``made_from_seed`` says to make it without;
- a function whose first parameter is named ``seed`` (``def make(seed): return
  GreedyBot(seed)``): it makes a bot for each seat from the seat's seed, as a
  :class:`BotFactory` of it does;
- a bot itself: anything else that can be called with a view (a function, a bound method,
  an object with ``__call__``), played as it is at every seat it is given.

A function that makes bots from a seed under another name (``def make(s)``), given where a
bot is asked for, is called with the view, and the game stops at its first move with a
message that says to give it as ``BotFactory(make)``.

>>> from persian_rummy.bots import GreedyBot
>>> build_bot("greedy", 3), build_bot(BotFactory(GreedyBot), 3)
(GreedyBot(seed=3), GreedyBot(seed=3))
>>> build_bot(GreedyBot(7), 3)     # a bot plays as it is
GreedyBot(seed=7)
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
import sysconfig
import types
from collections.abc import Callable
from typing import Any, Final, Protocol, TypeAlias, TypeVar, cast, runtime_checkable

import attrs

from persian_rummy.bots import Bot, Player, SeededBotClass, make_bot
from persian_rummy.errors import ArgumentTypeError, NotationError, excerpt
from persian_rummy.rules import Rules

__all__ = ["BotFactory", "BotSpec", "build_bot", "check_bot_spec", "is_bot", "name_of"]

_T = TypeVar("_T")

#: A bot's name (see :func:`~persian_rummy.bots.make_bot`) or a ``"module:name"``, a
#: :class:`BotFactory`, a class (made from the seat's seed when its ``made_from_seed`` is true
#: or its constructor takes a ``seed``, else without arguments), a function of a seed that
#: makes a bot, or a bot itself.
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


def _accepts_seed_keyword(cls: type[Any]) -> bool:
    """Whether ``cls(seed=0)`` binds to the constructor's parameters."""
    try:
        inspect.signature(cls).bind(seed=0)
    except TypeError:
        return False
    return True


def _first_parameter(function: object) -> str | None:
    """The name of the first parameter a positional argument goes to, if the signature reads."""
    try:
        parameters = list(inspect.signature(cast("Callable[..., object]", function)).parameters.values())
    except (TypeError, ValueError):
        return None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return parameters[0].name if parameters and parameters[0].kind in positional else None


@attrs.frozen
class _BySeedKeyword:
    # Makes a class whose constructor takes a seed as cls(seed=seed) (picklable, as the class is).
    cls: type[Any]

    def __call__(self, seed: int) -> Bot:
        return cast("Bot", self.cls(seed=seed))


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
    """What ``spec`` is: ``"name"``, ``"factory"``, ``"seeded"`` (a class that says it is
    made from each seat's seed), ``"seed keyword"`` (a class whose constructor takes a
    ``seed``), ``"maker"`` (a function of a seed), ``"class"`` or ``"bot"``; raises for
    anything that is none of them."""
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
        # a class may say either way (the SeededBotClass protocol), or nothing
        says = spec.made_from_seed if isinstance(spec, SeededBotClass) else None
        if says is True:
            return "seeded"
        if says is None and _takes_seed(spec):
            if not _accepts_seed_keyword(spec):
                raise ArgumentTypeError(
                    f"{_describe(spec)} takes a seed, so it is made for each seat as {spec.__name__}(seed=seed), "
                    f"but it cannot be made so: give an instance ({spec.__name__}(...)) to play one bot at "
                    f"every seat, or BotFactory(make), where make(seed) makes one"
                )
            return "seed keyword"
        if _accepts(spec, 0) is False:
            raise ArgumentTypeError(
                f"{_describe(spec)} cannot be made without arguments, and a class given as a bot is made as "
                f"{spec.__name__}(): give an instance ({spec.__name__}(...)), or BotFactory({spec.__name__}) "
                "to make one from each seat's seed"
            )
        return "class"
    if _accepts(spec, 1) is False:
        raise ArgumentTypeError(f"{_describe(spec)} cannot be called with a view alone: {_BOT_SHAPE}")
    if isinstance(spec, types.FunctionType | types.MethodType) and _first_parameter(spec) == "seed":
        return "maker"
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
    >>> is_bot(lambda seed: GreedyBot(seed)), is_bot(lambda s: GreedyBot(s))   # made from a seed, or a bot by its shape
    (False, True)
    """
    try:
        return _kind(spec) == "bot"
    except ArgumentTypeError:
        return False


def check_bot_spec(spec: object, *, rules: Rules | None = None) -> BotSpec:
    """Check ``spec`` before any game and return it as it will be played: a name, a
    :class:`BotFactory`, a class or a bot, each of the right shape (a name that
    :func:`~persian_rummy.bots.make_bot` makes or a ``"module:name"`` that names a bot spec,
    a class that can be made, a bot that can be called with a view); given ``rules``, a name
    or a bot that cannot play them is refused too. Anything else raises
    :class:`~persian_rummy.ArgumentTypeError` (or the name's
    :class:`~persian_rummy.NotationError`) naming what was given and what is expected. A
    class or a function made from each seat's seed comes back as a :class:`BotFactory` of it.

    >>> from persian_rummy.bots import GreedyBot
    >>> check_bot_spec(GreedyBot(2)), check_bot_spec("mc:samples=2"), check_bot_spec(GreedyBot)
    (GreedyBot(seed=2), 'mc:samples=2', BotFactory(build=GreedyBot, name='GreedyBot'))
    >>> class Clever:
    ...     def __init__(self, seed=0):
    ...         self.seed = seed
    ...     def __call__(self, view): ...
    >>> check_bot_spec(Clever).make(7).seed     # one per seat, from its seed
    7
    >>> class NeedsADepth:
    ...     def __init__(self, depth): ...
    >>> check_bot_spec(NeedsADepth)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ArgumentTypeError: the class persian_rummy._bot_specs.NeedsADepth cannot be made without arguments, and a class given as a bot is made as NeedsADepth(): give an instance (NeedsADepth(...)), or BotFactory(NeedsADepth) to make one from each seat's seed
    """
    kind = _kind(spec)
    if kind == "name":
        text = cast("str", spec)
        if is_user_bot(text):
            _user_spec(text, lambda found: check_bot_spec(found, rules=rules))
        else:
            _make_named(text, 0, rules)
        return text
    factory = _factory(spec, kind)
    if factory is not None:
        return factory
    if kind == "bot":
        _require_rules(cast("Bot", spec), rules)
    return cast("BotSpec", spec)


def _factory(spec: object, kind: str) -> BotFactory | None:
    # What makes a bot from each seat's seed, as a BotFactory: a class that says so or takes a
    # seed, or a function whose first parameter is the seed.
    if kind in ("seeded", "maker"):
        return BotFactory(cast("Callable[[int], Bot]", spec))
    if kind == "seed keyword":
        cls = cast("type[Any]", spec)
        return BotFactory(_BySeedKeyword(cls), name=cls.__name__)
    return None


def build_bot(spec: object, seed: int = 0, *, rules: Rules | None = None) -> Bot:
    """The bot ``spec`` stands for at a seat whose seed is ``seed``: a name made by
    :func:`~persian_rummy.bots.make_bot` with that seed (or a ``"module:name"``'s bot spec,
    built so), a :class:`BotFactory`'s ``make(seed)``, a class made from the seed
    (``made_from_seed``, or a constructor that takes a ``seed``) or without arguments, a
    function of the seed's bot, or a bot itself. Given ``rules``, a bot
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
    >>> def make(seed):
    ...     return RandomBot(seed + 1)
    >>> type(build_bot(First, 4)).__name__, build_bot(make, 4)
    ('First', RandomBot(seed=5))
    """
    kind = _kind(spec)
    if kind == "name":
        text = cast("str", spec)
        if is_user_bot(text):
            return _user_spec(text, lambda found: build_bot(found, seed, rules=rules))
        return _make_named(text, seed, rules)
    factory = _factory(spec, kind)
    if kind == "factory":
        bot = cast("BotFactory", spec).make(seed)
    elif factory is not None:
        bot = factory.make(seed)
    elif kind == "class":
        bot = _made(spec, cast("type[Any]", spec)())
    else:
        bot = cast("Bot", spec)
    _require_rules(bot, rules)
    return bot


# --- A user's own bot spec, named as module:name -----------------------------------------

_OBJECT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
#: The file name of a module beside the command (``mybots.py``, ``bots/mine.py``).
_FILE: Final = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*/)*[A-Za-z_][A-Za-z0-9_]*\.py")
#: What a user's bot is written as, for the messages.
_SHAPE: Final = (
    "module:name, where name is a bot, a class of bots, a function of a seed that makes one, or a BotFactory"
)


def is_user_bot(spec: str) -> bool:
    """Whether ``spec`` names an object to import (``package.module:name``, or the module's
    file, ``mybots.py:name``), not a bot of :data:`~persian_rummy.bots.BOTS` with knobs.

    >>> is_user_bot("mybots.clever:make"), is_user_bot("mybots:Clever"), is_user_bot("mc:samples=4")
    (True, True, False)
    """
    module, colon, name = spec.partition(":")
    return bool(colon) and ("." in module or (bool(name) and "=" not in name))


def _user_spec(spec: str, use: Callable[[object], _T]) -> _T:
    # The object spec names, given to use; a wrong shape is said with the spec it came from.
    found = _import_object(spec)
    try:
        return use(found)
    except ArgumentTypeError as error:
        raise ArgumentTypeError(f"the bot {excerpt(spec)} is not one: {error}") from None


def _import_object(spec: str) -> object:
    module_name, _, name = spec.partition(":")
    if _FILE.fullmatch(module_name):  # the file's name, as `python mybots.py` spells it
        if not os.path.isfile(module_name):
            raise NotationError(
                f"the bot {excerpt(spec)} names the file {module_name}, which is not in the current folder "
                f"({os.getcwd()}): expected {_SHAPE}"
            )
        module_name = module_name.removesuffix(".py").replace("/", ".")
    if not _OBJECT.fullmatch(module_name) or not _OBJECT.fullmatch(name):
        raise NotationError(f"{excerpt(spec)} is not a bot: expected {_SHAPE}")
    found: object = _import(module_name, spec)
    for part in name.split("."):
        if not hasattr(found, part):
            raise NotationError(f"the module {module_name} has no {excerpt(name)} (the bot {excerpt(spec)})")
        found = getattr(found, part)
    if _standard(found):
        raise ArgumentTypeError(
            f"the bot {excerpt(spec)} names {_named(found)}, of Python's standard library, which is not a bot: "
            f"expected {_SHAPE}"
        )
    return found


def _standard(found: object) -> bool:
    """Whether ``found`` is a builtin or comes from Python's standard library (``os:system``,
    ``shutil:rmtree``): callable, but never a bot, and refused before any game calls it."""
    if isinstance(found, types.ModuleType) or not callable(found):
        return False  # build_bot says what it is
    name = getattr(found, "__module__", None)
    module = sys.modules.get(name if isinstance(name, str) else type(found).__module__)
    where = getattr(module, "__file__", None)
    if module is None or not isinstance(where, str):  # built into the interpreter (posix, builtins)
        return module is not None and module.__name__.partition(".")[0] in sys.stdlib_module_names
    # By where it was found: a module of the user's named like one of the library's (test.py) is theirs.
    path = os.path.realpath(where)
    paths = sysconfig.get_paths()
    inside = [os.path.realpath(paths[key]) + os.sep for key in ("stdlib", "platstdlib")]
    packages = [os.path.realpath(paths[key]) + os.sep for key in ("purelib", "platlib")]
    return any(path.startswith(folder) for folder in inside) and not any(path.startswith(folder) for folder in packages)


def _named(found: object) -> str:
    # What a --bot names, by where it is defined (posix.system).
    module, name = getattr(found, "__module__", None), getattr(found, "__qualname__", None)
    if isinstance(module, str) and isinstance(name, str):
        return f"{module}.{name}"[-120:]
    return excerpt(found)


def _import(module_name: str, spec: str) -> types.ModuleType:
    # As ``python -m`` does: the current folder first on the import path while importing.
    here = os.getcwd()
    sys.path.insert(0, here)
    try:
        importlib.invalidate_caches()
        return importlib.import_module(module_name)
    except ImportError as error:
        missing = error.name or ""
        if isinstance(error, ModuleNotFoundError) and (module_name + ".").startswith(missing + "."):
            raise NotationError(
                f"the bot {excerpt(spec)} names the module {missing}, which is neither in the current folder "
                f"({here}) nor on the import path: expected {_SHAPE}"
            ) from None
        raise NotationError(
            f"the module {module_name} of the bot {excerpt(spec)} cannot be imported: {error}"
        ) from None
    finally:
        if sys.path and sys.path[0] == here:
            del sys.path[0]
        elif here in sys.path:  # the module moved it; take out the one we added
            sys.path.remove(here)


def _make_named(spec: str, seed: int, rules: Rules | None) -> Bot:
    # make_bot's bot; a name that is no bot but a module beside the command says to name a bot in it.
    try:
        return make_bot(spec, seed, rules=rules)
    except NotationError as error:
        name = spec.strip().removesuffix(".py")
        if _OBJECT.fullmatch(name) and "." not in name and (os.path.isfile(f"{name}.py") or os.path.isdir(name)):
            raise NotationError(
                f"{error}; {name} is a module in the current folder: name the bot in it, as {name}:NAME"
            ) from None
        raise


def _require_rules(bot: Bot, rules: Rules | None) -> None:
    # A bot made for some rules only (the learned player) refuses others, saying how to get one.
    if rules is not None:
        Player.of(bot).require_rules(rules)
