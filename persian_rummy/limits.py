"""The size of the largest valid value of each kind, so that readers of untrusted input can
refuse anything larger at once, before they build anything from it.

Every number here follows from the rules; each reader checks its input against them in time
linear in what it has read, and an error message echoes at most a bounded excerpt:

- a pile index is below :data:`PILE_LIMIT` (no pile holds more than the 56 cards, R1), a table
  index below :data:`MELD_LIMIT` (every meld has three cards or more, R8, R9);
- a game has at most :data:`DEALS_LIMIT` deals and a going-out bonus of at most
  :data:`BONUS_LIMIT` (the limits of the ``deals`` and ``going_out_bonus`` knobs, R7, R25), so
  no score reaches :data:`SCORE_LIMIT` in size;
- a deal has at most :data:`ACTIONS_PER_DEAL` actions (R21);
- a position string has at most :data:`POSITION_LIMIT` characters, the JSON of a state, view or
  rules at most :data:`JSON_LIMIT`, a record at most :func:`record_limit` for its number of
  deals; a name, a comment or a text seed at most :data:`TEXT_LIMIT`.

>>> PILE_LIMIT, MELD_LIMIT, ACTIONS_PER_DEAL, SCORE_LIMIT
(56, 18, 1400, 1952000)
>>> record_limit(2)
800800
"""

from __future__ import annotations

from typing import Final

from persian_rummy.cards import DECK, POINTS
from persian_rummy.errors import InvalidArgumentError, excerpt

__all__ = [
    "ACTIONS_PER_DEAL",
    "BONUS_LIMIT",
    "DEALS_LIMIT",
    "DECK_POINTS",
    "JSON_LIMIT",
    "MELD_LIMIT",
    "PILE_LIMIT",
    "POSITION_LIMIT",
    "SCORE_LIMIT",
    "SEED_BITS",
    "TEXT_LIMIT",
    "check_text",
    "deal_points",
    "record_limit",
]

#: No discard pile holds more than the deck's 56 cards (R1): a pile index is below this.
PILE_LIMIT: Final = len(DECK)
#: Every meld has at least three cards (R8, R9): no table holds more melds than this.
MELD_LIMIT: Final = len(DECK) // 3
#: The most deals a game may have (the ``deals`` knob, R7).
DEALS_LIMIT: Final = 1000
#: The largest going-out bonus (the ``going_out_bonus`` knob, R25).
BONUS_LIMIT: Final = 1000
#: The value of the whole deck (R22): no team loses more in a deal (its hands hold at most
#: the deck, R23).
DECK_POINTS: Final = sum(POINTS[card.index] for card in DECK)


def deal_points(bonus: int) -> int:
    """The most a team can score in one deal with a going-out bonus of ``bonus``: every card of
    the deck credited to it in sets of four melded at once, each doubled (R22-R24), and the
    bonus (R25).

    >>> deal_points(25), DECK_POINTS
    (977, 476)
    """
    return 2 * DECK_POINTS + bonus


#: No total score reaches this in size (:data:`DEALS_LIMIT` deals of the most points each).
SCORE_LIMIT: Final = DEALS_LIMIT * deal_points(BONUS_LIMIT)
#: Stock cards at the start of a deal (R5) and idle turns that end a round (R21).
_STOCK: Final = 27
_IDLE: Final = 8
#: R21: at most 27 + 56 turns draw from the stock or add a card to the table, each group of
#: them separated by fewer than 8 idle turns; each turn is a draw or pass and a discard, and
#: the table takes each card at most once.
ACTIONS_PER_DEAL: Final = 2 * (_IDLE * (_STOCK + len(DECK)) + _IDLE) + len(DECK)
#: The longest player or team name, comment or text seed.
TEXT_LIMIT: Final = 200
#: The most bits of a whole-number seed.
SEED_BITS: Final = 4096
#: The longest position string: 56 cards of two characters each with a seat mark on each, meld
#: owners and separators, the counters and the longest rules text, with room to spare.
POSITION_LIMIT: Final = 1024
#: The longest JSON of a state, view or rules: about 1,500 characters as written, with room for
#: indentation and escapes.
JSON_LIMIT: Final = 64 * 1024
#: The longest action line of a record, its line break included: a meld of 13 cards and a
#: comment of :data:`TEXT_LIMIT` characters.
_ACTION_LINE: Final = 64 + TEXT_LIMIT
#: The longest tag line: a deck, or a name or seed of :data:`TEXT_LIMIT` characters written
#: with JSON escapes of up to 12 characters each (a pair of surrogates).
_TAG_LINE: Final = 12 * TEXT_LIMIT + 64
#: The game's tags of a record, and each deal's tags (and a blank line).
_GAME_TAGS: Final = 11
_DEAL_TAGS: Final = 7


def record_limit(deals: int) -> int:
    """The most characters a valid record of ``deals`` deals can have: every deal of
    :data:`ACTIONS_PER_DEAL` actions, every line as long as it can be.

    >>> record_limit(1) < record_limit(2) < 2 * record_limit(1)
    True
    """
    return _GAME_TAGS * _TAG_LINE + deals * (_DEAL_TAGS * _TAG_LINE + ACTIONS_PER_DEAL * _ACTION_LINE)


def check_text(text: object, what: str) -> str:
    """``text`` if it is a name, comment or seed a record can hold: a string of at most
    :data:`TEXT_LIMIT` characters that UTF-8 can write (no lone surrogates); else
    :class:`~persian_rummy.errors.InvalidArgumentError`.

    >>> check_text("Ann", "a name")
    'Ann'
    >>> check_text("\\ud800", "a name")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: a name is at most 200 characters of Unicode text (no lone surrogates), not '\\ud800'
    """
    if isinstance(text, str) and len(text) <= TEXT_LIMIT:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            pass
        else:
            return text
    raise InvalidArgumentError(
        f"{what} is at most {TEXT_LIMIT} characters of Unicode text (no lone surrogates), not {excerpt(text)}"
    )
