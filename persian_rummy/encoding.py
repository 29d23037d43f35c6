"""A fixed numbering of every action, for learning agents: action ↔ integer, and legal masks.

Reinforcement-learning and search frameworks want a fixed action space of whole numbers and a
mask of the legal ones. This module numbers every action that can ever be legal, under any
:class:`~persian_rummy.Rules`, from 0 to ``NUM_ACTIONS - 1``, in six consecutive blocks:

=========================  =========================  ===========================================
Indices                    Action                     Numbering inside the block
=========================  =========================  ===========================================
0                          ``draw``                   (R12)
1 – 56                     ``take INDEX``             ``1 + INDEX``; the pile holds at most 56
                                                      cards (R1, R13)
57                         ``pass``                   (R20)
58 – 428                   ``meld CARDS``             the 371 card sets that are a set, a run or
                                                      a joker set (R8-R11), listed in
                                                      :data:`MELDS`
429 – 1382                 ``layoff CARD MELD``       ``429 + 18 * CARD + MELD``: card number
                                                      0-52 (:attr:`~persian_rummy.Card.index`)
                                                      by table meld 0-17 (a table holds at most
                                                      56 / 3 = 18 melds, R16)
1383 – 1435                ``discard CARD``           ``1383 + CARD`` (R17)
=========================  =========================  ===========================================

The 371 melds are, in this order: for each rank 2…A, its four sets of three (without the ♠,
♥, ♦, ♣ card in turn) and its set of four (65 sets); the joker sets of three and four (2); for
each suit ♠ ♥ ♦ ♣, the runs with the ace high by lowest rank and then length (66 a suit), then
the runs with the ace low A-2-3 … A-2-…-Q (10 a suit; A-2-…-K is the whole suit, already the
run 2…A), 304 runs in all. The ace-low runs are legal only under
``ace_in_runs="high_or_low"`` (R10); their indices exist under every rule set, so the numbering
never depends on the rules or the position.

>>> from persian_rummy import new_game, legal_actions
>>> state = new_game(1)
>>> NUM_ACTIONS, action_to_int("draw"), action_to_int("meld 7s 7h 7d")
(1436, 0, 86)
>>> int_to_action(86), int_to_action(1383 + 52)
(MeldCards(cards=(Card.parse('7s'), Card.parse('7h'), Card.parse('7d'))), Discard(card=Card.parse('Jk')))
>>> [index for index, legal in enumerate(legal_mask(state)) if legal] == legal_indices(state)
True
>>> [int_to_action(index) for index in legal_indices(state)]
[DrawStock()]
>>> ACTIONS[86] is int_to_action(86), len(ACTIONS) == NUM_ACTIONS
(True, True)

The module needs nothing outside the standard library (no numpy): a mask is a tuple of
``bool``; the :mod:`persian_rummy.observation` module turns views into arrays.
"""

from __future__ import annotations

from typing import Final, cast

from persian_rummy._bits import whole_number
from persian_rummy.actions import (
    DISCARDS,
    DRAW_STOCK,
    MELD_ACTIONS,
    PASS,
    Action,
    DrawDiscard,
    LayOff,
    MeldCards,
    draw_discard_action,
    lay_off_action,
)
from persian_rummy.cards import CARDS, JOKER, JOKER_INDEX
from persian_rummy.errors import ArgumentTypeError, IllegalActionError, InvalidArgumentError, excerpt, shown
from persian_rummy.limits import MELD_LIMIT, PILE_LIMIT
from persian_rummy.state import GameState, turn_actions
from persian_rummy.view import PlayerView

__all__ = [
    "ACTIONS",
    "DISCARD_BASE",
    "LAY_OFF_BASE",
    "MAX_MELDS",
    "MAX_PILE",
    "MELDS",
    "MELD_BASE",
    "NUM_ACTIONS",
    "PASS_INDEX",
    "TAKE_BASE",
    "action_index",
    "action_to_int",
    "int_to_action",
    "legal_flags",
    "legal_indices",
    "legal_mask",
]

#: The most cards the discard pile can hold: the whole deck (R1, R13; :data:`~persian_rummy.limits.PILE_LIMIT`).
MAX_PILE: Final = PILE_LIMIT
#: The most melds the table can hold: 56 cards in melds of at least three (R1, R8-R11;
#: :data:`~persian_rummy.limits.MELD_LIMIT`).
MAX_MELDS: Final = MELD_LIMIT
#: The index of ``take 0``; ``take INDEX`` is ``TAKE_BASE + INDEX``.
TAKE_BASE: Final = 1
#: The index of ``pass``.
PASS_INDEX: Final = TAKE_BASE + MAX_PILE
#: The index of the first meld of :data:`MELDS`.
MELD_BASE: Final = PASS_INDEX + 1


def _all_melds() -> tuple[MeldCards, ...]:
    melds: list[MeldCards] = []
    for rank in range(13):
        suits = [CARDS[suit * 13 + rank] for suit in range(4)]
        melds += [MeldCards([card for card in suits if card is not left_out]) for left_out in suits]
        melds.append(MeldCards(suits))
    melds += [MeldCards([JOKER] * 3), MeldCards([JOKER] * 4)]
    for suit in range(4):
        base = suit * 13
        for low in range(11):
            melds += [MeldCards(CARDS[base + low : base + high + 1]) for high in range(low + 2, 13)]
        # The ace low: A-2-3 up to A-2-...-Q (A-2-...-K is the whole suit, the run 2-A above).
        melds += [MeldCards((CARDS[base + 12], *CARDS[base : base + last + 1])) for last in range(1, 11)]
    # The engine's shared values, so that the actions it lists are found by identity (below).
    shared = {action: action for action in MELD_ACTIONS.values()}
    return tuple(shared.get(meld, meld) for meld in melds)


#: Every meld action that can be legal (R8-R11), in index order from :data:`MELD_BASE`.
MELDS: Final[tuple[MeldCards, ...]] = _all_melds()
#: The index of ``layoff`` of card 0 on meld 0; ``LAY_OFF_BASE + MAX_MELDS * card + meld``.
LAY_OFF_BASE: Final = MELD_BASE + len(MELDS)
#: The index of ``discard`` of card 0; ``DISCARD_BASE + card``.
DISCARD_BASE: Final = LAY_OFF_BASE + MAX_MELDS * (JOKER_INDEX + 1)
#: The number of actions: every index from 0 to ``NUM_ACTIONS - 1`` is an action.
NUM_ACTIONS: Final = DISCARD_BASE + JOKER_INDEX + 1

#: Every action by index: ``ACTIONS[i]`` is ``int_to_action(i)``, without the checks of the
#: index. The values are the engine's shared ones.
ACTIONS: Final[tuple[Action, ...]] = (
    (DRAW_STOCK,)
    + tuple(draw_discard_action(index) for index in range(MAX_PILE))
    + (PASS,)
    + MELDS
    + tuple(lay_off_action(card, meld) for card in range(JOKER_INDEX + 1) for meld in range(MAX_MELDS))
    + DISCARDS
)
_INDEX: Final[dict[Action, int]] = {action: index for index, action in enumerate(ACTIONS)}
# The same by the identity of the shared values, which is what the engine lists: a lookup by id
# skips hashing the action (attrs' hash, in Python). ACTIONS keeps every value alive, so no
# other object can have its id; an action that is not a shared value falls back on _INDEX.
_INDEX_BY_ID: Final[dict[int, int]] = {id(action): index for index, action in enumerate(ACTIONS)}


def action_to_int(action: Action | str, state_or_view: GameState | PlayerView | None = None) -> int:
    """The index of ``action`` (or of its text) in the numbering (see the module documentation).

    The numbering does not depend on the position. Given ``state_or_view``, the action must
    also be legal there for the player to move, else :class:`~persian_rummy.IllegalActionError`.
    An action that is never legal under any rules (a meld that is not a set or run, a
    lay-off on meld 18 or more, a pile index of 56 or more) raises
    :class:`~persian_rummy.InvalidArgumentError`; text that is not an action,
    :class:`~persian_rummy.NotationError`; a value that is neither,
    :class:`~persian_rummy.ArgumentTypeError`.

    >>> action_to_int("take 3"), action_to_int("layoff 2s 1"), action_to_int("discard As")
    (4, 430, 1395)
    >>> action_to_int("meld 2s 3s 5s")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: R8-R11: 2s 3s 5s is not a set, a run or a joker set, so it has no action index
    """
    if isinstance(action, str):
        action = Action.parse(action)
    elif not isinstance(action, Action):
        raise ArgumentTypeError(f"expected an Action or its text, not {shown(action)}")
    try:
        index = _INDEX.get(action)
    except TypeError:  # an Action of a class that does not hash, or built around such a value
        raise ArgumentTypeError(f"expected an Action or its text, not {shown(action)}, which does not hash") from None
    if index is None:
        raise _unnumbered(action)
    if state_or_view is not None and index not in legal_indices(state_or_view):
        raise IllegalActionError("R12-R20", f"{action} (index {index}) is not a legal action here")
    return index


def _unnumbered(action: object) -> Exception:
    if isinstance(action, LayOff):
        return InvalidArgumentError(f"R16: a table holds at most {MAX_MELDS} melds, so {action} has no action index")
    if isinstance(action, DrawDiscard):
        return InvalidArgumentError(f"R13: the pile holds at most {MAX_PILE} cards, so {action} has no action index")
    if isinstance(action, MeldCards):
        cards = " ".join(map(str, action.cards))
        return InvalidArgumentError(f"R8-R11: {cards} is not a set, a run or a joker set, so it has no action index")
    return ArgumentTypeError(f"expected an Action or its text, not {shown(action)}")


def action_index(value: object) -> int:
    """``value`` as an index of the numbering, for input from a learner or a framework: a whole
    number (a numpy integer too) from 0 to ``NUM_ACTIONS - 1``. Anything else that is not a
    whole number (a float, a string, a bool) raises :class:`~persian_rummy.ArgumentTypeError`;
    a whole number outside the numbering, however large, :class:`~persian_rummy.InvalidArgumentError`.

    >>> action_index(57)
    57
    >>> action_index(3.0)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ArgumentTypeError: an action index is a whole number, not 3.0
    """
    index = whole_number(value, "an action index")  # numpy integers are welcome
    if not 0 <= index < NUM_ACTIONS:
        raise InvalidArgumentError(f"{excerpt(index)} is not an action index (expected 0 to {NUM_ACTIONS - 1})")
    return index


def int_to_action(index: int, state_or_view: GameState | PlayerView | None = None) -> Action:
    """The action numbered ``index`` (0 to ``NUM_ACTIONS - 1``), the inverse of :func:`action_to_int`.

    Given ``state_or_view``, the action must be legal there for the player to move, else
    :class:`~persian_rummy.IllegalActionError`. An index outside the numbering raises
    :class:`~persian_rummy.InvalidArgumentError`, a value that is not a whole number
    :class:`~persian_rummy.ArgumentTypeError`.

    >>> int_to_action(0), int_to_action(57), int_to_action(430)
    (DrawStock(), Pass(), LayOff(card=Card.parse('2s'), meld=1))
    >>> int_to_action(1436)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: 1436 is not an action index (expected 0 to 1435)
    """
    index = action_index(index)
    if state_or_view is not None and index not in legal_indices(state_or_view):
        raise IllegalActionError("R12-R20", f"action {index} ({ACTIONS[index]}) is not a legal action here")
    return ACTIONS[index]


def legal_indices(state_or_view: GameState | PlayerView) -> list[int]:
    """The indices of the legal actions of the player to move, ascending; empty for a view of
    a seat that is not to move, and once the round is over.

    >>> from persian_rummy import new_game
    >>> legal_indices(new_game(1)), legal_indices(new_game(1).view(0))
    ([0], [])
    """
    indices = _indices(turn_actions(state_or_view))
    indices.sort()
    return indices


def _indices(actions: tuple[Action, ...]) -> list[int]:
    """The actions' indices, in their order: by identity for the engine's shared values (one
    pass in C), by value if some action is not one of them."""
    found = list(map(_INDEX_BY_ID.get, map(id, actions)))
    return [_INDEX[action] for action in actions] if None in found else cast("list[int]", found)


def legal_flags(state_or_view: GameState | PlayerView) -> bytes:
    """One byte per action index: 1 where the action is legal for the player to move, else 0
    (all 0 for a view of another seat, and once the round is over). The same as
    :func:`legal_mask`, in the form an array library reads without a copy
    (``numpy.frombuffer(flags, numpy.int8)``).

    >>> from persian_rummy import new_game
    >>> flags = legal_flags(new_game(1))
    >>> len(flags), flags.count(1), flags[0]
    (1436, 1, 1)
    """
    flags = bytearray(NUM_ACTIONS)
    for index in _indices(turn_actions(state_or_view)):
        flags[index] = 1
    return bytes(flags)


def legal_mask(state_or_view: GameState | PlayerView) -> tuple[bool, ...]:
    """One flag per action index: ``True`` where the action is legal for the player to move
    (all ``False`` for a view of another seat, and once the round is over).

    >>> from persian_rummy import new_game
    >>> mask = legal_mask(new_game(1))
    >>> len(mask), sum(mask), mask[0]
    (1436, 1, True)
    """
    return tuple(map(bool, legal_flags(state_or_view)))
