"""The bots of the command line's ``--bot`` (internal): each spec as the library takes it,
:func:`~persian_rummy.arena.build_bot`: a bot's name (``greedy``, ``mc:samples=4``, a level, a
policy file) or a user's own ``module:name`` (``mybots:my_bot``, or the file's name,
``mybots.py:my_bot``), imported as ``python -m`` finds modules: the current folder first, then
the import path. The object is a bot spec as the arena takes one: a bot (a function or an
object called with the view), a class (made from each seat's seed when it says so or when its
constructor takes a ``seed``, else without arguments), a function of a seed that makes a bot,
or a :class:`~persian_rummy.arena.BotFactory`. Only the command line and the library's callers
read these: the table server builds bots by name alone (:func:`~persian_rummy.bots.make_bot`).

>>> build("greedy", 3, rules=None)
GreedyBot(seed=3)
>>> build("persian_rummy.bots:BUDGET_LIMIT", 3)
Traceback (most recent call last):
...
persian_rummy.errors.ArgumentTypeError: the bot 'persian_rummy.bots:BUDGET_LIMIT' is not one: a bot spec is a bot's name, a BotFactory, a class of bots or a bot (a callable taking a view), not 1000000
"""

from __future__ import annotations

from persian_rummy.arena import build_bot
from persian_rummy.bots import Bot
from persian_rummy.rules import Rules


def build(spec: str, seed: int, *, rules: Rules | None = None) -> Bot:
    """The bot ``spec`` names for a seat whose seed is ``seed`` (see the module's
    documentation). A wrong shape raises the library's error, naming the spec."""
    return build_bot(spec, seed, rules=rules)
