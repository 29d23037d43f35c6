"""A user's own bot on the command line (internal): ``--bot package.module:factory``.

A spec whose part before the colon is a dotted module path (or whose part after it is a name,
not ``knob=value`` pairs) names a Python object to import: a factory ``seed -> Bot`` or a bot
itself (see :func:`~persian_rummy.arena.is_bot`). Only the command line reads these: the
table server builds bots by name alone.

>>> build("persian_rummy.bots:GreedyBot", 3)
GreedyBot(seed=3)
>>> build("greedy", 3, rules=None)
GreedyBot(seed=3)
"""

from __future__ import annotations

import importlib
import re
from typing import Final, cast

from persian_rummy.arena import is_bot
from persian_rummy.bots import Bot, make_bot
from persian_rummy.errors import NotationError, excerpt
from persian_rummy.rules import Rules

_OBJECT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def is_user_bot(spec: str) -> bool:
    """Whether ``spec`` names an object to import (``package.module:factory``), not a bot of
    :data:`~persian_rummy.bots.BOTS` with knobs.

    >>> is_user_bot("mybots.clever:make"), is_user_bot("mc:samples=4"), is_user_bot("greedy")
    (True, False, False)
    """
    module, colon, name = spec.partition(":")
    return bool(colon) and ("." in module or (bool(name) and "=" not in name))


def build(spec: str, seed: int, *, rules: Rules | None = None) -> Bot:
    """The bot ``spec`` names: :func:`~persian_rummy.bots.make_bot`'s names, or a user's
    ``package.module:factory`` (called with ``seed``) or ``package.module:bot`` (played as it is)."""
    if not is_user_bot(spec):
        return make_bot(spec, seed, rules=rules)
    module_name, _, name = spec.partition(":")
    if not _OBJECT.fullmatch(module_name) or not _OBJECT.fullmatch(name):
        raise NotationError(f"{excerpt(spec)} is not a bot: expected package.module:factory")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise NotationError(f"the bot {excerpt(spec)} cannot be imported: {error}") from None
    found: object = module
    for part in name.split("."):
        if not hasattr(found, part):
            raise NotationError(f"the module {module_name} has no {excerpt(name)} (the bot {excerpt(spec)})")
        found = getattr(found, part)
    if not callable(found):
        raise NotationError(f"{excerpt(spec)} is not a bot or a bot factory: it cannot be called")
    bot = found if is_bot(found) else found(seed)
    if not callable(bot):
        raise NotationError(f"the factory {excerpt(spec)} made {excerpt(bot)}, not a bot")
    require = getattr(bot, "require_rules", None)
    if rules is not None and callable(require):
        require(rules)
    return cast("Bot", bot)
