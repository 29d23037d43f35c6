"""A user's own bot on the command line (internal): ``--bot module:name``.

A spec whose part before the colon is a dotted module path (or whose part after it is a name,
not ``knob=value`` pairs) names a Python object to import, as ``python -m`` finds modules:
the current folder first, then the import path. The object is a bot spec as the arena takes
one (:func:`~persian_rummy.arena.build_bot`): a bot (a function or an object called with the
view), a class (made from each seat's seed when it says so, else without arguments) or a
:class:`~persian_rummy.arena.BotFactory` (made from each seat's seed). Only the command line
reads these: the table server builds bots by name alone.

>>> build("greedy", 3, rules=None)
GreedyBot(seed=3)
>>> build("persian_rummy.bots:BUDGET_LIMIT", 3)
Traceback (most recent call last):
...
persian_rummy.errors.ArgumentTypeError: the bot 'persian_rummy.bots:BUDGET_LIMIT' is not one: a bot spec is a bot's name, a BotFactory, a class of bots or a bot (a callable taking a view), not 1000000
"""

from __future__ import annotations

import importlib
import os
import re
import sys
import sysconfig
import types
from typing import Final

from persian_rummy.arena import build_bot
from persian_rummy.bots import Bot, make_bot
from persian_rummy.errors import ArgumentTypeError, NotationError, excerpt
from persian_rummy.rules import Rules

_OBJECT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
#: What a user's bot is written as, for the messages.
_SHAPE: Final = "module:name, the name of a bot, a class of bots or a BotFactory in a module"


def is_user_bot(spec: str) -> bool:
    """Whether ``spec`` names an object to import (``package.module:name``), not a bot of
    :data:`~persian_rummy.bots.BOTS` with knobs.

    >>> is_user_bot("mybots.clever:make"), is_user_bot("mybots:Clever"), is_user_bot("mc:samples=4")
    (True, True, False)
    """
    module, colon, name = spec.partition(":")
    return bool(colon) and ("." in module or (bool(name) and "=" not in name))


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


def build(spec: str, seed: int, *, rules: Rules | None = None) -> Bot:
    """The bot ``spec`` names for a seat whose seed is ``seed``: one of
    :func:`~persian_rummy.bots.make_bot`'s names, or a user's ``module:name`` (see the
    module's documentation). A wrong shape raises the library's error, naming it."""
    if not is_user_bot(spec):
        return make_bot(spec, seed, rules=rules)
    module_name, _, name = spec.partition(":")
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
    try:
        return build_bot(found, seed, rules=rules)
    except ArgumentTypeError as error:  # the shape is wrong: say which --bot it is
        raise ArgumentTypeError(f"the bot {excerpt(spec)} is not one: {error}") from None
