"""The bots' levels as the lobby offers them: the library's levels
(:data:`~persian_rummy.bots.LEVELS`: a name a new player understands, the bot that plays it
and what it is like) in one list (:func:`levels`), read by the lobby's form and by the
table's page to name each bot seat.

>>> [level.name for level in levels()]
['easy', 'medium', 'hard', 'expert']
>>> level_of("montecarlo").name, level_of("montecarlo:samples=8") is None
('medium', True)
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from persian_rummy.bots import BOTS, LEVELS

__all__ = ["Level", "level_of", "levels"]


@attrs.frozen
class Level:
    """One level of play: its ``name``, the ``bot`` that plays it (a spec
    :func:`~persian_rummy.bots.make_bot` takes) and a one-line ``description`` for a new player.

    >>> Level("easy", "random", "any legal move").value()
    {'name': 'easy', 'bot': 'random', 'description': 'any legal move'}
    """

    #: The level's name, as the lobby shows it.
    name: str
    #: The bot that plays it, as :func:`~persian_rummy.bots.make_bot` reads it.
    bot: str
    #: What playing it is like, in one line.
    description: str

    def value(self) -> dict[str, Any]:
        """The level as the page reads it (a JSON-ready value)."""
        return {"name": self.name, "bot": self.bot, "description": self.description}


# From the weakest to the strongest, as the bots' ladder measures them (docs: strength): the
# library's levels, so the lobby and the command line offer the same.
_LEVELS: Final = tuple(Level(level.name, level.spec, level.description) for level in LEVELS.values())


def levels() -> tuple[Level, ...]:
    """The levels the lobby offers, from the weakest to the strongest: the one list the
    lobby's form and the table's page read.

    >>> [(level.name, level.bot) for level in levels()][-1]
    ('expert', 'expert')
    """
    return _LEVELS


def level_of(bot: str) -> Level | None:
    """The level ``bot`` (a seat's bot spec) plays: the level of the same bot (by any of its
    names) with no knobs of its own, else ``None``.

    >>> level_of("greedy").name, level_of("mc").name, level_of("human")
    ('easy', 'medium', None)
    """
    factory = BOTS.get(bot.strip())
    return next((level for level in levels() if factory is not None and BOTS.get(level.bot) is factory), None)
