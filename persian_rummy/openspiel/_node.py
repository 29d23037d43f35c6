"""A node of the OpenSpiel game as one immutable value (:class:`Node`), and what the game
asks of it: the cards dealt so far, what a player has seen of the events, and the checks of
a chance outcome or an action with the refusal each gives; and the mark a node is pickled as.

OpenSpiel writes a state of a game written in Python (``pyspiel.serialize_game_and_state``)
with a pickle of the state's attributes. Here that pickle holds the node as a call of one
function, :func:`_replay`, which returns :data:`REPLAY`, a mark that says "replay the
history"; a state given the mark replays the history OpenSpiel's reader set on it, every
step checked. So OpenSpiel's text of a state of this game is its history, and the pickle in
it is the same few bytes for every state.

No reader of this package unpickles anything: :meth:`PersianRummyGame.deserialize_state
<persian_rummy.openspiel.PersianRummyGame.deserialize_state>` reads a text that holds no
pickle, and :func:`~persian_rummy.openspiel.deserialize_game_and_state` compares the state
part of OpenSpiel's text with the bytes this game writes, never decoding it. OpenSpiel's own
reader, ``pyspiel.deserialize_game_and_state``, unpickles the state part of every text it is
given, in C++, before any code of the game sees the text; for this game's texts the pickle
guard (``_guard``) refuses a pickle that names any code but the mark. Text from outside goes to
the package's reader.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final

import attrs

from persian_rummy._extras import needs_extra

with needs_extra("rl", "persian_rummy.openspiel"):
    import numpy as np

from persian_rummy.actions import DrawStock
from persian_rummy.cards import CARDS, DECK, DECK_COUNTS, JOKER_INDEX, Card
from persian_rummy.errors import (
    ArgumentTypeError,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    counted,
    excerpt,
)
from persian_rummy.hand import Hand
from persian_rummy.limits import ACTIONS_PER_DEAL
from persian_rummy.state import HAND_SIZE, PLAYERS, GameState, Phase
from persian_rummy.view import Observation, PlayerView
from persian_rummy.worlds import fill_hidden, unseen_cards

#: The module whose name a node's pickle writes, and in which OpenSpiel's reader looks up
#: :func:`_replay`: the package, so that texts do not depend on where the function lives.
PICKLED_MODULE: Final = "persian_rummy.openspiel"


class _Mark:
    """What OpenSpiel's text of a state holds in place of its node: "replay the history".
    Nothing else can be done with it."""

    __slots__ = ()

    def _refuse(self, *args: object) -> Any:
        raise NotationError("the text's state part does not describe a state of python_persian_rummy")

    __call__ = __setstate__ = __setitem__ = _refuse

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._refuse()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replay, ())


#: The mark: a state given it as its node replays its history instead.
REPLAY: Final = _Mark()


def _replay(*args: object) -> _Mark:
    """The mark, which a node's pickle calls for (its name is in every OpenSpiel text of a
    state of this game, so it keeps it)."""
    if args:
        raise NotationError("the text's state part does not describe a state of python_persian_rummy")
    return REPLAY


_replay.__module__ = PICKLED_MODULE

#: Cards dealt by chance at the start of a deal: the hands and the face-up card (R5).
DEALT: Final = PLAYERS * HAND_SIZE + 1
#: Nodes of one deal at most: the player actions (:data:`~persian_rummy.limits.ACTIONS_PER_DEAL`,
#: R21) and the chance nodes, one per card of the deck at most: 29 to deal, then one per
#: stock card drawn (27).
DEAL_NODES: Final = ACTIONS_PER_DEAL + len(DECK)
#: Why a sampled state has no text.
SAMPLED_HAS_NO_TEXT: Final = (
    "a state sampled from a player's information (resample_from_infostate, state_from_info) has no history,"
    " so it has no text"
)


@attrs.frozen
class Deal:
    """A finished deal as the players saw it: each seat's view at its start (``None`` for a
    seat whose view is not known, see :meth:`PersianRummyState.resample_from_infostate`), the
    events (each stock draw with its card, unless it is not known), each seat's view at its
    end (every hand shown, R23)."""

    starts: tuple[PlayerView | None, ...]
    events: tuple[Observation, ...]
    ends: tuple[PlayerView, ...]


#: No seat's view of the start of a deal is known.
_NO_STARTS: Final[tuple[PlayerView | None, ...]] = (None,) * PLAYERS


@attrs.frozen
class Node:
    """Everything a :class:`PersianRummyState` holds, as one immutable value, so that OpenSpiel's
    clone (a deep copy) shares it instead of copying every card."""

    dealer: int = 0
    deal_number: int = 1
    scores: tuple[int, int] = (0, 0)
    #: The cards dealt so far while a deal is dealt (R5).
    dealt: tuple[Card, ...] = ()
    #: The deal being played, once dealt.
    state: GameState | None = None
    #: Each seat's view at the start of the deal being played (``None`` where not known). Only
    #: the views: the state at the start would hold every hand, which a resampled copy must not.
    starts: tuple[PlayerView | None, ...] = _NO_STARTS
    #: Whether a stock draw waits for chance to pick the card (R12).
    stock_draw: bool = False
    #: The deal's events, each stock draw with its card (shown to the drawer only).
    history: tuple[Observation, ...] = ()
    #: The finished deals.
    past: tuple[Deal, ...] = ()
    #: Whether the node was sampled from a player's information (it has no history).
    sampled: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> Node:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel's own text of a state (``pyspiel.serialize_game_and_state``) pickles the
        # state's attributes: the node is written as the mark, and a state given the mark
        # replays the text's history (see PersianRummyState.__setattr__).
        if self.sampled:
            raise InvalidStateError(SAMPLED_HAS_NO_TEXT)
        return (_replay, ())

    def seen_by(self, player: int) -> Node:
        """The node with only what ``player`` has seen of the earlier deals and the start of
        this one: the other seats' start views dropped, their stock draws without the card
        (R12, R27). The deal being played is left as it is."""
        past = tuple(
            Deal(_own(deal.starts, player), tuple(as_seen_by(deal.events, player)), deal.ends) for deal in self.past
        )
        return attrs.evolve(self, starts=_own(self.starts, player), past=past)


#: The node before the first card is dealt.
START: Final = Node()


def _own(starts: tuple[PlayerView | None, ...], player: int) -> tuple[PlayerView | None, ...]:
    """``player``'s own start view, the others' dropped."""
    return tuple(view if seat == player else None for seat, view in enumerate(starts))


def deal_lines(start: PlayerView | None, events: tuple[Observation, ...], viewer: int | None) -> list[str]:
    """A deal as ``viewer`` saw it (everyone, for ``None``), for an information state: its view
    at the start (when known; public only for ``None``), then the events."""
    first = [] if start is None else [start.position() if viewer is not None else public_position(start)]
    return first + list(map(str, as_seen_by(events, viewer)))


def dealing_text(node: Node, viewer: int | None) -> str:
    """While a deal is dealt: the cards dealt to ``viewer`` so far, or how many are dealt."""
    if viewer is None:
        return f"{counted(len(node.dealt), 'card')} dealt"
    return " ".join(map(str, dealt_to(node, viewer)))


def redealt(node: Node, player: int, rng: random.Random) -> tuple[Card, ...]:
    """The cards dealt so far with those dealt to ``player`` kept and the others' drawn at
    random from the cards ``player`` has not seen (R5, R27)."""
    unseen = unseen_cards(dealt_to(node, player))
    rng.shuffle(unseen)
    mine = (player - node.dealer - 1) % PLAYERS
    return fill_hidden([card if index % PLAYERS == mine else None for index, card in enumerate(node.dealt)], unseen)


def dealt_to(node: Node, player: int) -> tuple[Card, ...]:
    """The cards dealt to ``player`` so far while a deal is dealt (R5)."""
    return node.dealt[(player - node.dealer - 1) % PLAYERS : PLAYERS * HAND_SIZE : PLAYERS]


def undealt(dealt: tuple[Card, ...]) -> list[Card]:
    """The cards not dealt yet, in deck order (R1)."""
    return list((DECK_COUNTS - Counter(dealt)).elements())


def as_seen_by(events: tuple[Observation, ...], player: int | None) -> list[Observation]:
    """The events as ``player`` saw them: another player's stock draws without the card (R12);
    every stock draw without its card for ``None``."""
    return [
        Observation(event.seat, event.action)
        if type(event.action) is DrawStock and event.seat != player and event.cards
        else event
        for event in events
    ]


def checked_player(player: object) -> int:
    """``player`` if it is a seat 0-3 (R3)."""
    if isinstance(player, bool) or not isinstance(player, int | np.integer):
        raise ArgumentTypeError(f"a player is a whole number 0-3, not {what(player)}")
    if not 0 <= player < PLAYERS:
        raise InvalidArgumentError(f"a player is 0-3, not {what(player)}")
    return int(player)


def _refusal(message: str) -> InvalidArgumentError:
    # The message names no hidden card: it is its own reason (R27).
    return InvalidArgumentError(message, reason=message)


def dealt_card(node: Node, action: int) -> Card:
    """The card chance deals as ``action``, if the deck still holds one (R1, R5)."""
    if 0 <= action <= JOKER_INDEX:
        card = CARDS[action]
        if node.dealt.count(card) < DECK_COUNTS[card]:
            return card
    return _no_outcome(f"R5: chance cannot deal card {action} here: it is not among the cards not dealt yet")


def drawn_card(state: GameState, action: int) -> Card:
    """The card chance gives a stock draw as ``action``, if the stock holds it (R12)."""
    if 0 <= action <= JOKER_INDEX and CARDS[action] in state.stock:
        return CARDS[action]
    return _no_outcome(f"R12: chance cannot give card {action} to this stock draw: the stock does not hold it")


def _no_outcome(message: str) -> Card:
    raise _refusal(message + " (see chance_outcomes())")


def not_legal(state: GameState, action: int, why: str) -> InvalidArgumentError:
    if state.phase is Phase.GAME_OVER:
        return _refusal(f"R26: the game is over: action {action} cannot be applied")
    return _refusal(f"action {action} is not legal for player {state.current_player} here: {why} (see legal_actions())")


def what(value: object) -> str:
    """A bounded ``repr`` of a plain value; only the type of any other (a view's ``repr``, for
    one, names its hand, R27)."""
    if value is None or type(value) in (int, float, str, bool, bytes):
        return excerpt(value)
    return f"a {type(value).__name__}"


def public_position(view: PlayerView) -> str:
    """``view``'s position string with its own hand as a count, unless every hand is shown (R23)."""
    text = view.position()
    if view.revealed_hands is not None:
        return text
    rest = text.split(" ", 1)[1]
    return "/".join(f"?{size}" for size in view.hand_sizes) + " " + rest


def public_view(view: PlayerView) -> PlayerView:
    """``view`` without its own hand, unless every hand is shown (R23)."""
    return view if view.revealed_hands is not None else attrs.evolve(view, hand=Hand())
