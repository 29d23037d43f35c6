"""An OpenSpiel game: importing this module registers ``python_persian_rummy`` (needs ``[rl]``).

>>> import pyspiel
>>> game = pyspiel.load_game("python_persian_rummy")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 1436, 53)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 53)

The model:

- Four players, the seats 0-3 (team 0 is players 0 and 2, R3). Player actions are the
  :mod:`~persian_rummy.encoding` indices; ``legal_actions()`` is
  :func:`~persian_rummy.encoding.legal_indices`.
- Chance is explicit. Each deal starts with 29 chance nodes that deal one card each, in the
  order of :meth:`~persian_rummy.GameState.from_deck` (one card at a time to each player from
  the dealer's left, then the face-up card, R5); an outcome is a card number 0-52
  (:attr:`~persian_rummy.Card.index`), with probability its count among the cards not dealt
  yet. The stock stays an unordered set of cards: a stock draw (``draw``, R12) is followed by
  a chance node that picks the card among the stock's. So two histories that one player
  cannot tell apart lead to the same information state, exactly (R27).
- ``information_state_string(player)`` is everything the player has seen in the game: for
  each deal, its view at the start of the deal, then every public event (each
  :class:`~persian_rummy.Observation`, with the card of a stock draw only for the player who
  drew it), then its view now (the position string, hidden hands as counts).
  ``observation_string(player)`` is the view now; ``observation_tensor(player)`` the
  :func:`~persian_rummy.observation.observation_tensor` of the view now (shape ``(30, 53)``,
  1,590 values). There is no information-state tensor (the history has no fixed length; the
  string is exact): ``information_state_tensor`` raises :class:`InformationStateTensorError`,
  a ``pyspiel.SpielError``, as OpenSpiel's own games without one do.
- The observers (``make_observation`` with a ``pyspiel.IIGObservationType``) honour
  ``public_info`` and ``private_info``: the default (public and the player's own) is the
  above; public only (``private_info=NONE``) shows the player's own hand as a count and no
  card of any stock draw, in the string and the tensor (the hand plane is zeros), until the
  round is over and every hand is shown (R23); neither gives an empty string and tensor.
  Other players' private information (``ALL_PLAYERS``), or the private part alone, is not
  offered (:class:`~persian_rummy.InvalidArgumentError`).
- Returns, at the end of the game only: +1 for the players of the winning team, -1 for the
  others, 0 each for a draw (R26), with the parameter ``utility="win"`` (the default); with
  ``utility="margin"``, each team's final score margin / 1000 (R23).
- The parameters are the knobs of :class:`~persian_rummy.Rules` (``deals``, ``ace_in_runs``
  …, with their defaults) and ``utility``; a name the game does not have, or a value of
  another type than the default's, is refused.
- Every node checks what it is given: a player node takes its ``legal_actions()`` only, a
  chance node the outcomes ``chance_outcomes()`` lists only; anything else raises
  :class:`~persian_rummy.InvalidArgumentError` and changes nothing, so no state is ever
  stuck. ``action_to_string`` refuses an action no node has.
- A state's text (:meth:`PersianRummyState.serialize`) is its history: the game's name and
  parameters, then every chance outcome and action. :meth:`PersianRummyGame.deserialize_state`
  replays it through the rules with every step checked; a malformed, truncated or foreign
  text raises :class:`~persian_rummy.NotationError`. Nothing is unpickled. OpenSpiel's own
  text of a state (``pyspiel.serialize_game_and_state``) holds a pickle of the state's
  attributes, which OpenSpiel's reader (``pyspiel.deserialize_game_and_state``) unpickles
  before the game can see it; for this game that pickle holds only a mark that says "replay
  the history", and while OpenSpiel's reader fills a state of this game a pickle that names
  anything else (a function, a class) raises :class:`~persian_rummy.NotationError` before the
  name is looked up, so no text runs code. The history it then replays is checked as ours is.
  (A damaged pickle still raises what Python's ``pickle`` raises, and a broken envelope
  OpenSpiel's ``pyspiel.SpielError``.) :func:`deserialize_game_and_state` reads OpenSpiel's
  text without unpickling anything, and raises only the library's errors: the reader for
  text from outside.
- :meth:`PersianRummyState.resample_from_infostate` deals the cards the player has not seen
  at random, keeping in each other hand the cards it is known to hold because it took them
  from the discard pile (:func:`persian_rummy.worlds.determinize` on the player's
  :class:`~persian_rummy.InfoState`); OpenSpiel's IS-MCTS samples its worlds with it. The
  sampled state is made from the player's information alone: nothing in it depends on a card
  the player has not seen (R27).
"""

from __future__ import annotations

import base64
import pickle
import random
import re
import sys
import threading
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any, Final

import attrs

from persian_rummy._extras import needs_extra

with needs_extra("rl", __name__):
    import numpy as np
    import pyspiel

from persian_rummy.actions import DRAW_STOCK, Action, DrawDiscard, DrawStock
from persian_rummy.bots import GreedyBot
from persian_rummy.cards import CARDS, DECK, DECK_COUNTS, JOKER_INDEX, Card
from persian_rummy.encoding import NUM_ACTIONS, int_to_action, legal_indices
from persian_rummy.engine import legal_actions, play
from persian_rummy.errors import (
    ArgumentTypeError,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    PersianRummyError,
    excerpt,
)
from persian_rummy.hand import Hand
from persian_rummy.limits import ACTIONS_PER_DEAL, DEALS_LIMIT, deal_points
from persian_rummy.observation import OBSERVATION_SHAPE, observation_tensor
from persian_rummy.rules import Rules
from persian_rummy.scoring import winner
from persian_rummy.state import HAND_SIZE, PLAYERS, GameState, Phase, team_of
from persian_rummy.view import InfoState, Observation, PlayerView
from persian_rummy.worlds import determinize, fill_hidden, unseen_cards

__all__ = [
    "GAME_TYPE",
    "ISMCTSPlayer",
    "InformationStateTensorError",
    "PersianRummyGame",
    "PersianRummyState",
    "RolloutEvaluator",
    "deserialize_game_and_state",
    "state_from_info",
]

#: Cards dealt by chance at the start of a deal: the hands and the face-up card (R5).
DEALT: Final = PLAYERS * HAND_SIZE + 1
#: Nodes of one deal at most: the player actions (:data:`~persian_rummy.limits.ACTIONS_PER_DEAL`,
#: R21) and the chance nodes, one per card of the deck at most: 29 to deal, then one per
#: stock card drawn (27).
_DEAL_NODES: Final = ACTIONS_PER_DEAL + len(DECK)
_MARGIN_SCALE: Final = 1000.0
#: The game's parameters: every knob of :class:`~persian_rummy.Rules`, with its default, and
#: the utility.
_PARAMETERS: Final[dict[str, Any]] = {**attrs.asdict(Rules()), "utility": "win"}

#: The game's type: sequential, explicit chance, imperfect information, zero-sum.
GAME_TYPE: Final = pyspiel.GameType(
    short_name="python_persian_rummy",
    long_name="Python Persian Rummy",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=PLAYERS,
    min_num_players=PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


class PersianRummyGame(pyspiel.Game):
    """The game (see the module documentation); ``params`` may set any knob of
    :class:`~persian_rummy.Rules` and ``utility``.

    >>> game = PersianRummyGame({"deals": 1, "ace_in_runs": "high_or_low"})
    >>> game.rules.deals, game.rules.ace_in_runs, game.max_utility()
    (1, 'high_or_low', 1.0)

    A parameter the game does not have, or a value of another type than its default's, raises
    :class:`~persian_rummy.InvalidArgumentError` (:class:`~persian_rummy.ArgumentTypeError` for
    ``params`` that are not a dictionary); a knob's value out of its range
    :class:`~persian_rummy.InvalidRulesError`. (``pyspiel.load_game`` checks the names and
    types itself first, and raises OpenSpiel's ``pyspiel.SpielError``.)

    >>> PersianRummyGame({"deal": 1})
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: the game has no parameter 'deal' (its parameters: ace_in_runs, deals, double_four_jokers, going_out_bonus, last_card_discard, pickup_use, stock_out_end, top_card_must_meld, utility)
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = _parameters(params)
        self.rules = Rules(**{name: params[name] for name in attrs.asdict(Rules())})
        self.utility = params["utility"]
        if self.utility not in ("win", "margin"):
            raise InvalidArgumentError(f"utility must be 'win' or 'margin', not {_what(self.utility)}")
        # A team's margin in a deal is at most what a team can score in one (R22-R25).
        bound = (
            1.0 if self.utility == "win" else self.rules.deals * deal_points(self.rules.going_out_bonus) / _MARGIN_SCALE
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=JOKER_INDEX + 1,
            num_players=PLAYERS,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=self.rules.deals * _DEAL_NODES,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> PersianRummyState:
        """The state before the first card is dealt."""
        _arm_guard()
        return PersianRummyState(self)

    def deserialize_state(self, text: str) -> PersianRummyState:
        """The state that :meth:`PersianRummyState.serialize` wrote as ``text``: its history
        replayed through the rules, every action checked (no pickle is read).

        Raises :class:`~persian_rummy.NotationError` for a text that is not a state of this
        game: malformed, truncated, of another game or other parameters, or with an action
        that cannot be played where it stands; :class:`~persian_rummy.ArgumentTypeError` for a
        value that is not a text.

        >>> game = PersianRummyGame({"deals": 1})
        >>> state = game.new_initial_state()
        >>> for card in (0, 1, 2):
        ...     state.apply_action(card)
        >>> game.deserialize_state(state.serialize()).history()
        [0, 1, 2]
        >>> PersianRummyGame().deserialize_state(state.serialize())
        Traceback (most recent call last):
        ...
        persian_rummy.errors.NotationError: the text is a state of the game with other parameters: deals=1 (here 2)
        """
        return _read_state(self, text)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer OpenSpiel uses for information-state and observation strings and
        tensors, for the kind of observation ``iig_obs_type`` asks for (see the module
        documentation); ``params`` must be empty."""
        if isinstance(iig_obs_type, dict) and params is None:  # OpenSpiel passes only the parameters
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise InvalidArgumentError(f"the observer takes no parameters, not {_what(params)}")
        return _Observer(iig_obs_type)


def _parameters(params: object) -> dict[str, Any]:
    """The game's parameters, the defaults filled in; each name and type checked."""
    if params is None:
        return dict(_PARAMETERS)
    if not isinstance(params, dict):
        raise ArgumentTypeError(f"the game's parameters are a dictionary, not {_what(params)}")
    for name, value in params.items():
        if name not in _PARAMETERS:
            raise InvalidArgumentError(
                f"the game has no parameter {_what(name)} (its parameters: {', '.join(sorted(_PARAMETERS))})"
            )
        kind = type(_PARAMETERS[name])
        if type(value) is not kind:
            raise InvalidArgumentError(
                f"the parameter {name} takes a {_KINDS[kind]}, not {_what(value)} (a {type(value).__name__})"
            )
    return {**_PARAMETERS, **params}


_KINDS: Final = {int: "whole number", str: "text", bool: "bool"}


@attrs.frozen
class _Deal:
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
class _Node:
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
    past: tuple[_Deal, ...] = ()
    #: Whether the node was sampled from a player's information (it has no history).
    sampled: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel's own text of a state (``pyspiel.serialize_game_and_state``) pickles the
        # state's attributes: the node is written as a call of the one name the reader lets
        # through, and the reader replays the text's history (see PersianRummyState.__setattr__).
        if self.sampled:
            raise InvalidStateError(_SAMPLED)
        return (_replay, ())

    def seen_by(self, player: int) -> _Node:
        """The node with only what ``player`` has seen of the earlier deals and the start of
        this one: the other seats' start views dropped, their stock draws without the card
        (R12, R27). The deal being played is left as it is."""
        past = tuple(
            _Deal(_own(deal.starts, player), tuple(_seen(deal.events, player)), deal.ends) for deal in self.past
        )
        return attrs.evolve(self, starts=_own(self.starts, player), past=past)


#: The node before the first card is dealt.
_START: Final = _Node()


class PersianRummyState(pyspiel.State):
    """One node of the game: a deal being dealt, a stock draw to resolve, or a player to act.

    Every node checks what it is given: a player node takes only its ``legal_actions()``, a
    chance node only the outcomes ``chance_outcomes()`` lists; anything else raises
    :class:`~persian_rummy.InvalidArgumentError` and changes nothing.

    >>> import pyspiel
    >>> state = pyspiel.load_game("python_persian_rummy").new_initial_state()
    >>> state.apply_action(0)
    >>> state.apply_action(0)  # the 2s again: the deck has one
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: R5: chance cannot deal card 0 here: it is not among the cards not dealt yet (see chance_outcomes())
    >>> state.history()
    [0]
    """

    # Only the node is an attribute that OpenSpiel copies (clone) and writes (its serialize);
    # the rules and the utility are the game's. (A base that has a __dict__ already, as the
    # documentation's stand-in for pyspiel does, gets none again.)
    __slots__ = ("__dict__", "_rules", "_utility") if pyspiel.State.__dictoffset__ == 0 else ("_rules", "_utility")
    _node: _Node

    def __init__(self, game: PersianRummyGame) -> None:
        super().__init__(game)
        object.__setattr__(self, "_rules", game.rules)
        object.__setattr__(self, "_utility", game.utility)
        object.__setattr__(self, "_node", _START)

    def __setattr__(self, name: str, value: Any) -> None:
        # OpenSpiel's clone and its reader of its own texts set a state's attributes one by
        # one from a dictionary (the reader from the text): only a node is taken, and from a
        # text only the mark that says "replay the history" (R27: no other value is loaded).
        if name == "_node" and type(value) is _Node:
            object.__setattr__(self, name, value)
        elif name == "_node" and value is _REPLAY:
            object.__setattr__(self, name, _replayed(self)._node)
        else:
            raise NotationError(f"a state of python_persian_rummy has no attribute {_what(name)} to set")

    # --- the game -----------------------------------------------------------------------

    def current_player(self) -> int:
        """The player to act, or ``pyspiel.PlayerId.CHANCE`` / ``TERMINAL``."""
        node = self._node
        if node is _START:
            self._check_start()
        state = node.state
        if state is None or node.stock_draw:
            return int(pyspiel.PlayerId.CHANCE)
        if state.phase is Phase.GAME_OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        state = node.state
        if state is None or node.stock_draw or player != state.current_player:
            return []
        return legal_indices(state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that can come next, with their probabilities (none at a player node)."""
        node = self._node
        if node.state is not None and node.stock_draw:
            pool: list[Card] = list(node.state.stock)
        elif node.state is None:
            pool = _undealt(node.dealt)
        else:
            return []
        counts = [0] * (JOKER_INDEX + 1)
        for card in pool:
            counts[card.index] += 1
        total = len(pool)
        return [(index, count / total) for index, count in enumerate(counts) if count]

    def _apply_action(self, action: int) -> None:
        node = self._node
        state = node.state
        if state is None:
            self._node = self._deal(node, _dealt_card(node, action))
        elif node.stock_draw:
            card = _drawn_card(state, action)
            stock = list(state.stock)
            stock.remove(card)
            stock.append(card)  # on top, drawn next (R12)
            event = Observation(state.current_player, DRAW_STOCK, (card,))
            self._node = self._after(node, event, play(attrs.evolve(state, stock=tuple(stock)), DRAW_STOCK))
        elif action == 0:
            # Drawing from the stock is legal exactly in the draw phase with cards in the stock
            # (R12, as legal_draws lists it), asked here without listing the pile's draws.
            if state.phase is not Phase.DRAW or not state.stock:
                raise _not_legal(state, action, "R12: drawing from the stock is not legal here")
            self._node = attrs.evolve(node, stock_draw=True)  # chance picks the card (R12)
        else:
            if not 0 < action < NUM_ACTIONS:
                raise _not_legal(state, action, f"it is not an action index (0 to {NUM_ACTIONS - 1})")
            move = int_to_action(action)
            try:
                after = play(state, move)
            except PersianRummyError as error:
                raise _not_legal(state, action, error.reason) from None
            cards = state.discard_pile[move.index :] if isinstance(move, DrawDiscard) else ()
            self._node = self._after(node, Observation(state.current_player, move, cards), after)

    def _deal(self, node: _Node, card: Card) -> _Node:
        dealt = node.dealt + (card,)
        if len(dealt) < DEALT:
            return attrs.evolve(node, dealt=dealt)
        deck = [*dealt, *_undealt(dealt)]
        state = GameState.from_deck(
            deck, dealer=node.dealer, deal_number=node.deal_number, scores=node.scores, rules=self._rules
        )
        starts = tuple(state.view(seat) for seat in range(PLAYERS))
        return attrs.evolve(node, dealt=(), state=state, starts=starts, history=())

    def _after(self, node: _Node, event: Observation, state: GameState) -> _Node:
        history = node.history + (event,)
        if state.phase is not Phase.ROUND_OVER:
            return attrs.evolve(node, state=state, stock_draw=False, history=history)
        return _Node(
            dealer=(state.dealer + 1) % PLAYERS,
            deal_number=state.deal_number + 1,
            scores=state.scores,
            past=node.past + (_Deal(node.starts, history, tuple(state.view(seat) for seat in range(PLAYERS))),),
            sampled=node.sampled,
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action <= JOKER_INDEX:
                raise InvalidArgumentError(f"{action} is not a chance outcome (a card number 0-{JOKER_INDEX}, R1)")
            return f"chance {CARDS[action]}"
        if player not in range(PLAYERS):
            raise InvalidArgumentError(
                f"{player} is neither a player (0-3) nor chance ({int(pyspiel.PlayerId.CHANCE)})"
            )
        if not 0 <= action < NUM_ACTIONS:
            raise InvalidArgumentError(f"{action} is not an action index (0 to {NUM_ACTIONS - 1})")
        return str(int_to_action(action))

    def is_terminal(self) -> bool:
        state = self._node.state
        return state is not None and state.phase is Phase.GAME_OVER

    def returns(self) -> list[float]:
        """Per player: 0 until the game is over; then by the team result (see the module)."""
        state = self._node.state
        if state is None or state.phase is not Phase.GAME_OVER:
            return [0.0] * PLAYERS
        if self._utility == "margin":
            margin = (state.scores[0] - state.scores[1]) / _MARGIN_SCALE
        else:
            team = winner(state)
            margin = 0.0 if team is None else (1.0 if team == 0 else -1.0)
        return [margin if team_of(seat) == 0 else -margin for seat in range(PLAYERS)]

    def _check_start(self) -> None:
        # OpenSpiel's reader sets the history of a state, then its node from the text; a text
        # without the node leaves a history that the state does not have.
        if self.move_number() or self.history():
            raise NotationError("the state was read from a text with a history but no state part: it has no node")

    def __str__(self) -> str:
        node = self._node
        if node is _START:
            self._check_start()
        if node.state is None:
            return f"deal {node.deal_number}: dealt {' '.join(map(str, node.dealt))}"
        return node.state.position() + (" (stock draw)" if node.stock_draw else "")

    def serialize(self) -> str:
        """The state as text: a header, the game (its name and parameters) and the history
        (its length, then every chance outcome and action since the first card was dealt, as
        ``history()`` numbers them), read back by
        :meth:`PersianRummyGame.deserialize_state`. No pickle: the text is the history, and
        reading it replays the history through the rules.

        A state made by :meth:`resample_from_infostate` or :func:`state_from_info` has no
        history; it raises :class:`~persian_rummy.InvalidStateError`.

        >>> import pyspiel
        >>> state = pyspiel.load_game("python_persian_rummy", {"deals": 1}).new_initial_state()
        >>> state.apply_action(5)
        >>> state.apply_action(17)
        >>> print(state.serialize())
        persian-rummy openspiel state 1
        python_persian_rummy(ace_in_runs=high,deals=1,double_four_jokers=True,going_out_bonus=25,last_card_discard=stays_in,pickup_use=meld_or_lay_off,stock_out_end=all_pass,top_card_must_meld=True,utility=win)
        history 2: 5 17
        """
        if self._node.sampled:
            raise InvalidStateError(_SAMPLED)
        history = self.history()
        return "\n".join((_HEADER, str(self.get_game()), " ".join([f"history {len(history)}:", *map(str, history)])))

    # --- what a player knows --------------------------------------------------------------

    def info_state(self, player: int) -> InfoState | None:
        """The player's :class:`~persian_rummy.InfoState` for the deal being played (``None``
        while it is dealt): its view and the deal's public events, with the cards of its own
        stock draws."""
        player = _player(player)
        node = self._node
        if node.state is None:
            return None
        return InfoState(node.state.view(player), tuple(_seen(node.history, player)))

    def information_state_text(self, player: int, *, public_only: bool = False) -> str:
        """Everything ``player`` has seen in the game, as text (see the module); with
        ``public_only``, only what every player has seen (no hand but those shown, R23, and
        no card of a stock draw, R12)."""
        player = _player(player)
        node = self._node
        viewer = None if public_only else player
        lines: list[str] = []
        for number, deal in enumerate(node.past, 1):
            lines.append(f"deal {number}")
            lines += _deal_lines(deal.starts[player], deal.events, viewer)
            lines.append(deal.ends[player].position())
        if node.state is None:
            lines.append(f"deal {node.deal_number} dealing")
            lines.append(("hand " if viewer is not None else "") + _dealing_text(node, viewer))
        else:
            lines.append(f"deal {node.deal_number}")
            lines += _deal_lines(node.starts[player], node.history, viewer)
            view = node.state.view(player)
            lines.append(_public_position(view) if public_only else view.position())
        if node.stock_draw:
            lines.append("stock draw")
        return "\n".join(lines)

    def observation_text(self, player: int, *, public_only: bool = False) -> str:
        """What ``player`` sees now: its view's position string (its cards so far while
        dealing); with ``public_only``, what every player sees (its hand as a count)."""
        player = _player(player)
        node = self._node
        viewer = None if public_only else player
        if node.state is None:
            return f"deal {node.deal_number} dealing: " + _dealing_text(node, viewer)
        view = node.state.view(player)
        text = _public_position(view) if public_only else view.position()
        return text + (" stock draw" if node.stock_draw else "")

    def observation_array(self, player: int, *, public_only: bool = False) -> np.ndarray[Any, np.dtype[np.float32]]:
        """What ``player`` sees now as an observation tensor (zeros but the cards dealt to it
        so far, while dealing); with ``public_only``, the tensor of its view without its hand
        (zeros while dealing)."""
        player = _player(player)
        node = self._node
        if node.state is not None:
            view = node.state.view(player)
            return observation_tensor(_public_view(view) if public_only else view)
        tensor = np.zeros(OBSERVATION_SHAPE, np.float32)
        if not public_only:
            for card in _dealt_to(node, player):
                tensor[0, card.index] += 1.0
        return tensor

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> PersianRummyState:
        """A state ``player_id`` cannot tell from this one, made from what it has seen alone
        (R27): the cards it has not seen dealt at random (:func:`persian_rummy.worlds.determinize`
        on its :class:`~persian_rummy.InfoState`; while a deal is dealt, the cards dealt to
        the others so far), its own views of the earlier deals and of the start of this one,
        and the public events with the cards of its own stock draws only.

        Nothing in the copy depends on the cards ``player_id`` has not seen. So the copy
        forgets the other seats' views of the starts of the deals and their stock draws (for
        the other seats it is a coarser information state than a real one: the search only
        merges their nodes), and it has no action history (``history()`` is empty: the
        actions that led to this state spell out the deal), so it has no text either
        (:meth:`serialize` raises).

        ``player_id`` must be a seat 0-3 and ``probability_sampler`` a function of no
        arguments that gives a number in [0, 1) (as OpenSpiel's samplers do); else
        :class:`~persian_rummy.InvalidArgumentError` (:class:`~persian_rummy.ArgumentTypeError`
        for a value of another type).
        """
        player_id = _player(player_id)
        if not callable(probability_sampler):
            raise ArgumentTypeError(
                f"the probability sampler is a function of no arguments, not {_what(probability_sampler)}"
            )
        # OpenSpiel's sampler gives a uniform number in [0, 1): it seeds the deal of the cards.
        draw = probability_sampler()
        if not isinstance(draw, float | int) or isinstance(draw, bool) or not 0.0 <= draw < 1.0:
            raise InvalidArgumentError(f"the probability sampler must give a number in [0, 1), not {_what(draw)}")
        rng = random.Random(int(float(draw) * 2**53))
        node = attrs.evolve(self._node.seen_by(player_id), sampled=True)
        state = node.state
        if state is None:
            node = attrs.evolve(node, dealt=_redealt(node, player_id, rng))
        elif state.phase.is_live:
            info = InfoState(state.view(player_id), tuple(_seen(node.history, player_id)))
            node = attrs.evolve(node, state=determinize(info, rng), history=info.history)
        else:
            # The game is over: every hand is shown (R23), and the stock holds the rest of the
            # cards, in an order nobody saw: card order.
            stock = tuple(sorted(state.stock, key=lambda card: card.index))
            node = attrs.evolve(
                node, state=attrs.evolve(state, stock=stock), history=tuple(_seen(node.history, player_id))
            )
        clone: PersianRummyState = self.get_game().new_initial_state()
        clone._node = node
        return clone


def _own(starts: tuple[PlayerView | None, ...], player: int) -> tuple[PlayerView | None, ...]:
    """``player``'s own start view, the others' dropped."""
    return tuple(view if seat == player else None for seat, view in enumerate(starts))


def _deal_lines(start: PlayerView | None, events: tuple[Observation, ...], viewer: int | None) -> list[str]:
    """A deal as ``viewer`` saw it (everyone, for ``None``), for an information state: its view
    at the start (when known; public only for ``None``), then the events."""
    first = [] if start is None else [start.position() if viewer is not None else _public_position(start)]
    return first + list(map(str, _seen(events, viewer)))


def _dealing_text(node: _Node, viewer: int | None) -> str:
    """While a deal is dealt: the cards dealt to ``viewer`` so far, or how many are dealt."""
    if viewer is None:
        return f"{len(node.dealt)} cards dealt"
    return " ".join(map(str, _dealt_to(node, viewer)))


def _redealt(node: _Node, player: int, rng: random.Random) -> tuple[Card, ...]:
    """The cards dealt so far with those dealt to ``player`` kept and the others' drawn at
    random from the cards ``player`` has not seen (R5, R27)."""
    unseen = unseen_cards(_dealt_to(node, player))
    rng.shuffle(unseen)
    mine = (player - node.dealer - 1) % PLAYERS
    return fill_hidden([card if index % PLAYERS == mine else None for index, card in enumerate(node.dealt)], unseen)


def _dealt_to(node: _Node, player: int) -> tuple[Card, ...]:
    """The cards dealt to ``player`` so far while a deal is dealt (R5)."""
    return node.dealt[(player - node.dealer - 1) % PLAYERS : PLAYERS * HAND_SIZE : PLAYERS]


def _undealt(dealt: tuple[Card, ...]) -> list[Card]:
    """The cards not dealt yet, in deck order (R1)."""
    return list((DECK_COUNTS - Counter(dealt)).elements())


def _seen(events: tuple[Observation, ...], player: int | None) -> list[Observation]:
    """The events as ``player`` saw them: another player's stock draws without the card (R12);
    every stock draw without its card for ``None``."""
    return [
        Observation(event.seat, event.action)
        if type(event.action) is DrawStock and event.seat != player and event.cards
        else event
        for event in events
    ]


#: The first line of a state's text (:meth:`PersianRummyState.serialize`).
_HEADER: Final = "persian-rummy openspiel state 1"
_SAMPLED: Final = (
    "a state sampled from a player's information (resample_from_infostate, state_from_info) has no history,"
    " so it has no text"
)
_ACTION_NUMBER: Final = re.compile(r"0|[1-9][0-9]{0,3}")
_COUNT: Final = re.compile(r"0|[1-9][0-9]{0,8}")
_GAME_TEXT: Final = re.compile(r"python_persian_rummy\(([^()]*)\)")


def _player(player: object) -> int:
    """``player`` if it is a seat 0-3 (R3)."""
    if isinstance(player, bool) or not isinstance(player, int | np.integer):
        raise ArgumentTypeError(f"a player is a whole number 0-3, not {_what(player)}")
    if not 0 <= player < PLAYERS:
        raise InvalidArgumentError(f"a player is 0-3, not {_what(player)}")
    return int(player)


def _refusal(message: str) -> InvalidArgumentError:
    # The message names no hidden card: it is its own reason (R27).
    return InvalidArgumentError(message, reason=message)


def _dealt_card(node: _Node, action: int) -> Card:
    """The card chance deals as ``action``, if the deck still holds one (R1, R5)."""
    if 0 <= action <= JOKER_INDEX:
        card = CARDS[action]
        if node.dealt.count(card) < DECK_COUNTS[card]:
            return card
    return _no_outcome(f"R5: chance cannot deal card {action} here: it is not among the cards not dealt yet")


def _drawn_card(state: GameState, action: int) -> Card:
    """The card chance gives a stock draw as ``action``, if the stock holds it (R12)."""
    if 0 <= action <= JOKER_INDEX and CARDS[action] in state.stock:
        return CARDS[action]
    return _no_outcome(f"R12: chance cannot give card {action} to this stock draw: the stock does not hold it")


def _no_outcome(message: str) -> Card:
    raise _refusal(message + " (see chance_outcomes())")


def _not_legal(state: GameState, action: int, why: str) -> InvalidArgumentError:
    if state.phase is Phase.GAME_OVER:
        return _refusal(f"R26: the game is over: action {action} cannot be applied")
    return _refusal(f"action {action} is not legal for player {state.current_player} here: {why} (see legal_actions())")


# --- the text of a state ----------------------------------------------------------------


def _read_state(game: PersianRummyGame, text: object) -> PersianRummyState:
    """The state ``text`` (see :meth:`PersianRummyState.serialize`) describes in ``game``."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"a state's text is a str, not {_what(text)}")
    name = str(game)
    limit = len(_HEADER) + len(name) + len("\nhistory:\n") + 5 * game.max_game_length()
    if len(text) > limit:
        raise NotationError(f"the text ({len(text)} characters) is longer than a state of this game can be ({limit})")
    lines = text.split("\n")
    if len(lines) != 3 or lines[0] != _HEADER:
        raise NotationError(
            f"the text is not a state of python_persian_rummy: it must be three lines, the first {_HEADER!r}"
        )
    if lines[1] != name:
        raise NotationError(_other_game(lines[1], name))
    count, colon, listed = lines[2].partition(": ")
    words = listed.split(" ") if listed else []
    if not colon and count.endswith(":"):  # an empty history
        count, colon = count[:-1], ":"
    if not (colon and count.startswith("history ") and _COUNT.fullmatch(count[8:])):
        raise NotationError(f"the text's third line must start 'history N: ', not {excerpt(lines[2][:20])}")
    if int(count[8:]) != len(words):
        raise NotationError(f"the history says it has {count[8:]} actions, but it lists {len(words)}")
    actions: list[int] = []
    for number, word in enumerate(words):
        if not _ACTION_NUMBER.fullmatch(word) or int(word) >= NUM_ACTIONS:
            raise NotationError(
                f"item {number} of the history is not an action number (0 to {NUM_ACTIONS - 1}): {excerpt(word)}"
            )
        actions.append(int(word))
    return _replay_history(game, actions)


def _other_game(line: str, name: str) -> str:
    """Why the game ``line`` of a text names is not ``name``: which parameters differ."""
    theirs = _GAME_TEXT.fullmatch(line)
    ours = _GAME_TEXT.fullmatch(name)
    if theirs is None or ours is None:
        return f"the text is a state of another game, {excerpt(line)}, not of python_persian_rummy"
    mine = _pairs(ours.group(1))
    other = _pairs(theirs.group(1))
    differ = [
        f"{_word(key)}={_word(other.get(key, '(none)'))} (here {mine.get(key, '(none)')})"
        for key in sorted(set(mine) | set(other))[:20]
        if mine.get(key) != other.get(key)
    ]
    return f"the text is a state of the game with other parameters: {', '.join(differ) or excerpt(line)}"


def _pairs(text: str) -> dict[str, str]:
    """The ``name=value`` pairs of a game string's parameters."""
    pairs: dict[str, str] = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        pairs[name] = value
    return pairs


def _what(value: object) -> str:
    """A bounded ``repr`` of a plain value; only the type of any other (a view's ``repr``, for
    one, names its hand, R27)."""
    if value is None or type(value) in (int, float, str, bool, bytes):
        return excerpt(value)
    return f"a {type(value).__name__}"


def _word(text: str) -> str:
    """``text`` as it is if it is a short printable word, else a bounded ``repr``."""
    return text if len(text) <= 30 and text.isascii() and text.isprintable() else excerpt(text, 30)


def _replay_history(game: PersianRummyGame, actions: list[int]) -> PersianRummyState:
    """The state after ``actions`` from the start of ``game``, each one checked."""
    if len(actions) > game.max_game_length():
        raise NotationError(f"the history has {len(actions)} actions; a game has at most {game.max_game_length()}")
    state = game.new_initial_state()
    for number, action in enumerate(actions):
        try:
            state.apply_action(action)
        except PersianRummyError as error:
            raise NotationError(
                f"the history does not replay: its action {number} ({action}) cannot be applied: {error.reason}"
            ) from None
    return state


def _replayed(state: PersianRummyState) -> PersianRummyState:
    """``state``'s history (set by OpenSpiel's reader from its text) replayed, each action
    checked: the history's players and move number must be those of the replay."""
    game: PersianRummyGame = state.get_game()
    actions = state.history()
    if len(actions) > game.max_game_length():  # refused before the history's players are listed
        raise NotationError(f"the history has {len(actions)} actions; a game has at most {game.max_game_length()}")
    written = [(item.player, item.action) for item in state.full_history()]
    again = _replay_history(game, actions)
    if [(item.player, item.action) for item in again.full_history()] != written:
        raise NotationError("the text's history names players other than those who act at its nodes")
    if again.move_number() != state.move_number():
        raise NotationError(f"the text's move number {state.move_number()} is not its history's {again.move_number()}")
    return again


class _Mark:
    """What OpenSpiel's text of a state (``pyspiel.serialize_game_and_state``) holds in place
    of its node: "replay the history". Nothing else can be done with it."""

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


_REPLAY: Final = _Mark()


def _replay(*args: object) -> _Mark:
    """The mark, the one name OpenSpiel's reader may unpickle for a state of this game."""
    if args:
        raise NotationError("the text's state part does not describe a state of python_persian_rummy")
    return _REPLAY


# OpenSpiel reads its own text of a state of a game written in Python (``pyspiel.
# deserialize_game_and_state``) by unpickling the state's part of it, before any code of the
# game runs: a crafted text could run any code. So while OpenSpiel's reader fills a new state
# of this game (from the call that made the state to its end: the same Python frame at the
# same instruction), a pickle may name the mark's function alone; any other name (a class, a
# function, ``os.system``) raises NotationError before it is looked up.
_GUARD: Final = threading.local()


def _site(frame: FrameType | None) -> tuple[int, object, int] | None:
    return None if frame is None else (id(frame), frame.f_code, frame.f_lasti)


def _arm_guard() -> None:
    """Arm the guard for the call that is making a new state (the caller's caller's frame)."""
    try:
        frame: FrameType | None = sys._getframe(2)
    except ValueError:  # called from outside Python
        frame = None
    _GUARD.armed = True
    _GUARD.site = _site(frame)


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event != "pickle.find_class" or not getattr(_GUARD, "armed", False):
        return
    try:
        frame: FrameType | None = sys._getframe(1)
    except ValueError:  # no Python frame: called from outside Python
        frame = None
    if _site(frame) != _GUARD.site or tuple(args) == (__name__, "_replay"):
        return
    raise NotationError(
        f"the text's state part names {excerpt(args[0], 40)}.{excerpt(args[1], 40)}; a state of"
        " python_persian_rummy names no code, and none is looked up"
    )


sys.addaudithook(_audit)


# --- observers ----------------------------------------------------------------------------


class InformationStateTensorError(PersianRummyError, pyspiel.SpielError):
    """The game has no information-state tensor (the history has no fixed length; the
    information-state string is exact): asked for one, it raises this error, a
    ``pyspiel.SpielError`` as OpenSpiel's own games without one raise.

    >>> import pyspiel
    >>> game = pyspiel.load_game("python_persian_rummy")
    >>> game.new_initial_state().information_state_tensor(0)
    Traceback (most recent call last):
    ...
    persian_rummy.openspiel.InformationStateTensorError: python_persian_rummy has no information-state tensor (use information_state_string)
    """

    message_is_public = True


class _Observer:
    """OpenSpiel's observer protocol: ``tensor`` and ``dict`` set by :meth:`set_from`, and
    :meth:`string_from`, for one kind of observation (see the module documentation)."""

    def __init__(self, iig_obs_type: Any) -> None:
        if iig_obs_type is None:
            perfect_recall, public, private = False, True, pyspiel.PrivateInfoType.SINGLE_PLAYER
        else:
            try:
                perfect_recall = iig_obs_type.perfect_recall
                public = iig_obs_type.public_info
                private = iig_obs_type.private_info
            except AttributeError:
                raise ArgumentTypeError(
                    f"the observation type is a pyspiel.IIGObservationType, not {_what(iig_obs_type)}"
                ) from None
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or (
            private == pyspiel.PrivateInfoType.SINGLE_PLAYER and not public
        ):
            raise InvalidArgumentError(
                "the game offers observations of public information, with or without the player's own"
                f" (R27), not private_info={private.name} with public_info={public}"
            )
        self.perfect_recall = bool(perfect_recall)
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.nothing = not public
        size = 0 if self.perfect_recall or self.nothing else OBSERVATION_SHAPE[0] * OBSERVATION_SHAPE[1]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor.reshape(OBSERVATION_SHAPE)} if size else {}

    def set_from(self, state: PersianRummyState, player: int) -> None:
        if self.perfect_recall:
            raise InformationStateTensorError(
                "python_persian_rummy has no information-state tensor (use information_state_string)"
            )
        if not self.nothing:
            self.tensor[:] = state.observation_array(player, public_only=self.public_only).ravel()

    def string_from(self, state: PersianRummyState, player: int) -> str:
        if self.nothing:
            return ""
        if self.perfect_recall:
            return state.information_state_text(player, public_only=self.public_only)
        return state.observation_text(player, public_only=self.public_only)


def _public_position(view: PlayerView) -> str:
    """``view``'s position string with its own hand as a count, unless every hand is shown (R23)."""
    text = view.position()
    if view.revealed_hands is not None:
        return text
    rest = text.split(" ", 1)[1]
    return "/".join(f"?{size}" for size in view.hand_sizes) + " " + rest


def _public_view(view: PlayerView) -> PlayerView:
    """``view`` without its own hand, unless every hand is shown (R23)."""
    return view if view.revealed_hands is not None else attrs.evolve(view, hand=Hand())


def deserialize_game_and_state(text: str) -> tuple[PersianRummyGame, PersianRummyState]:
    """The game and the state of OpenSpiel's text of them (``pyspiel.serialize_game_and_state``),
    read without unpickling anything: the game from its string, the state by replaying the
    text's history through the rules, every step checked (the players and the move number must
    be the replay's, and the state part's pickle exactly what this game's states write, which
    is never decoded). For text from outside, this is the reader to use:
    ``pyspiel.deserialize_game_and_state`` unpickles the state part (see the module
    documentation).

    Raises :class:`~persian_rummy.NotationError` for a text that is not such a text of a state
    of ``python_persian_rummy`` (malformed, truncated, of another game, with parameters the game
    does not have, or with a history that does not replay), and
    :class:`~persian_rummy.ArgumentTypeError` for a value that is not a text.

    >>> import pyspiel
    >>> game = pyspiel.load_game("python_persian_rummy", {"deals": 1})
    >>> state = game.new_initial_state()
    >>> state.apply_action(7)
    >>> again_game, again = deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    >>> str(again_game) == str(game), again.history()
    (True, [7])
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"OpenSpiel's text of a game and a state is a str, not {_what(text)}")
    if len(text) > _ENVELOPE_LIMIT:
        raise NotationError(f"the text ({len(text)} characters) is longer than any text of a state of this game")
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        if line in ("[Meta]", "[Game]", "[State]"):
            expected = ["[Meta]", "[Game]", "[State]"][len(sections)] if len(sections) < 3 else None
            if line != expected:
                raise NotationError(f"OpenSpiel's text has its sections [Meta], [Game], [State] in order, not {line}")
            current = sections[line] = []
        elif current is None:
            raise NotationError("OpenSpiel's text starts with its [Meta] section")
        else:
            current.append(line)
    if list(sections) != ["[Meta]", "[Game]", "[State]"]:
        raise NotationError("OpenSpiel's text has the sections [Meta], [Game] and [State]")
    if sections["[Meta]"] != ["Version: 1"]:
        raise NotationError("OpenSpiel's text's [Meta] section is 'Version: 1'")
    name = sections["[Game]"]
    if (
        len(name) != 1
        or len(name[0]) > _GAME_TEXT_LIMIT
        or not (name[0].isascii() and name[0].isprintable())
        or not _GAME_TEXT.fullmatch(name[0])
    ):
        raise NotationError(
            "the text's [Game] section is one line, python_persian_rummy(...), of printable ASCII characters"
            f" ({_GAME_TEXT_LIMIT} at most)"
        )
    try:
        game = pyspiel.load_game(name[0])
    except pyspiel.SpielError as error:
        raise NotationError(f"the text's game does not load: {excerpt(str(error), 200)}") from None
    if not isinstance(game, PersianRummyGame):  # pragma: no cover (the name was checked)
        raise NotationError("the text is not of python_persian_rummy")
    part = sections["[State]"]
    if len(part) != 3 or not (
        part[0].startswith("history=") and part[1].startswith("move_number=") and part[2].startswith("__dict__=")
    ):
        raise NotationError("the text's [State] section is three lines: history=, move_number= and __dict__=")
    if part[2] != "__dict__=" + _state_part():
        raise NotationError("the text's state part is not what a state of python_persian_rummy writes")
    items = part[0][len("history=") :].split(",") if part[0] != "history=" else []
    if len(items) > game.max_game_length():
        raise NotationError(f"the text's history has {len(items)} actions; a game has at most {game.max_game_length()}")
    written: list[tuple[int, int]] = []
    for item in items:
        player, colon, action = item.partition(":")
        if not (colon and _HISTORY_PLAYER.fullmatch(player) and _ACTION_NUMBER.fullmatch(action)):
            raise NotationError(f"the text's history has an item that is not player:action: {excerpt(item, 30)}")
        written.append((int(player), int(action)))
    move = part[1][len("move_number=") :]
    if not _COUNT.fullmatch(move):
        raise NotationError(f"the text's move number is not a whole number: {excerpt(move, 30)}")
    state = _replay_history(game, [action for _, action in written])
    if [(item.player, item.action) for item in state.full_history()] != written:
        raise NotationError("the text's history names players other than those who act at its nodes")
    if state.move_number() != int(move):
        raise NotationError(f"the text's move number {move} is not its history's {state.move_number()}")
    return game, state


#: The longest text :func:`deserialize_game_and_state` reads: the header, a game's string,
#: and the history of the longest game (:data:`~persian_rummy.limits.DEALS_LIMIT` deals, R7)
#: at 7 characters an action.
_ENVELOPE_LIMIT: Final = 1000 + 7 * DEALS_LIMIT * _DEAL_NODES
_HISTORY_PLAYER: Final = re.compile(r"-1|[0-3]")
#: The longest game string read (every parameter written out is about 200 characters).
_GAME_TEXT_LIMIT: Final = 1000


def _state_part() -> str:
    """The state part of OpenSpiel's text of every state of this game that has a history: its
    attributes (the node alone, written as the mark), pickled and in base64, as OpenSpiel
    writes them (only written here, to be compared, never read)."""
    if not _STATE_PART:
        _STATE_PART.append(base64.b64encode(pickle.dumps({"_node": _START})).decode("ascii"))
    return _STATE_PART[0]


_STATE_PART: Final[list[str]] = []


def state_from_info(game: PersianRummyGame, info: InfoState, rng: random.Random) -> PersianRummyState:
    """An OpenSpiel state of ``game`` behind a seat's :class:`~persian_rummy.InfoState`: the
    hidden cards dealt at random (:func:`~persian_rummy.worlds.determinize`), the deal's history
    the seat's. What a search bot needs to choose the seat's next action (the earlier deals and
    the start of this one are not in it).

    >>> import pyspiel
    >>> from persian_rummy import new_game
    >>> game = pyspiel.load_game("python_persian_rummy")
    >>> state = state_from_info(game, InfoState.start(new_game(1), 1), random.Random(0))
    >>> state.current_player(), [state.action_to_string(action) for action in state.legal_actions()]
    (1, ['draw'])
    """
    if not isinstance(game, PersianRummyGame):
        raise ArgumentTypeError(f"the game is a PersianRummyGame, not a {type(game).__name__}")
    if not isinstance(info, InfoState):
        raise ArgumentTypeError(f"the information is an InfoState, not a {type(info).__name__}")
    if not isinstance(rng, random.Random):
        raise ArgumentTypeError(f"the random generator is a random.Random, not a {type(rng).__name__}")
    view = info.view
    if view.rules != game.rules:
        raise InvalidArgumentError(f"the information is of a game with other rules ({view.rules}, not {game.rules})")
    if not view.phase.is_live:
        raise InvalidArgumentError(
            f"the information is of a deal that is over (phase {view.phase.name}): no seat is to act"
        )
    state: PersianRummyState = game.new_initial_state()
    world = determinize(info, rng)
    state._node = _Node(view.dealer, view.deal_number, view.scores, state=world, history=info.history, sampled=True)
    return state


#: The most simulations an :class:`ISMCTSPlayer` runs for one choice (so one choice is bounded work).
_SIMULATIONS_LIMIT: Final = 100_000
#: The largest exploration constant an :class:`ISMCTSPlayer` takes.
_UCT_C_LIMIT: Final = 1000.0


def _require_seed(seed: object) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ArgumentTypeError(f"a seed is a whole number or a text, not {_what(seed)}")


class RolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS and IS-MCTS bots: play the deal to its end with our
    engine from the sampled world (random legal actions, or :class:`~persian_rummy.bots.GreedyBot`
    for every seat with ``rollout="greedy"``), over a freshly shuffled stock, and score it.

    The value is the game's utility if the rollout ends the game; else, with ``utility="win"``,
    +1/-1/0 by the sign of the running score margin (R23, R26), and with ``"margin"`` the margin
    / 1000. Much cheaper than OpenSpiel's ``RandomRolloutEvaluator``, which plays to the end of
    the game through the OpenSpiel state.

    >>> import pyspiel
    >>> from persian_rummy import new_game
    >>> game = pyspiel.load_game("python_persian_rummy")
    >>> state = state_from_info(game, InfoState.start(new_game(1), 1), random.Random(0))
    >>> values = RolloutEvaluator(seed=1).evaluate(state)
    >>> len(values), bool(values[0] == values[2] == -values[1] == -values[3])
    (4, True)
    """

    def __init__(self, *, rollout: str = "random", seed: int = 0) -> None:
        if rollout not in ("random", "greedy"):
            raise InvalidArgumentError(f"rollout must be 'random' or 'greedy', not {_what(rollout)}")
        _require_seed(seed)
        self.rollout = rollout
        self._rng = random.Random(seed)
        self._greedy = GreedyBot(seed)

    def evaluate(self, state: PersianRummyState) -> np.ndarray[Any, np.dtype[np.float64]]:
        if not isinstance(state, PersianRummyState):
            raise ArgumentTypeError(f"the evaluator evaluates a PersianRummyState, not a {type(state).__name__}")
        node = state._node
        world = node.state
        if world is None or not world.phase.is_live:
            return np.asarray(state.returns(), np.float64)
        stock = list(world.stock)
        self._rng.shuffle(stock)
        world = attrs.evolve(world, stock=tuple(stock))
        if node.stock_draw:
            world = play(world, DRAW_STOCK)
        rng = self._rng
        greedy = self._greedy if self.rollout == "greedy" else None
        while world.phase.is_live:
            if greedy is not None:
                world = play(world, greedy(world.view(world.current_player)))
            else:
                actions = legal_actions(world)
                world = play(world, actions[rng.randrange(len(actions))])
        margin = world.scores[0] - world.scores[1]
        value = margin / _MARGIN_SCALE if state._utility == "margin" else float((margin > 0) - (margin < 0))
        return np.asarray([value, -value, value, -value], np.float64)

    def prior(self, state: PersianRummyState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


class ISMCTSPlayer:
    """OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) as a bot of this
    library, for :func:`~persian_rummy.arena.run_match` and :func:`~persian_rummy.arena.play_game`.

    Each choice searches ``simulations`` worlds sampled behind the seat's information state,
    with a :class:`RolloutEvaluator` (``rollout``) at the leaves and the exploration constant
    ``uct_c``; a forced action is played without a search. It takes the seat's
    :class:`~persian_rummy.InfoState` (the arena passes it, ``takes_info_state``) or a bare
    view (then it samples from the view alone). The same seed plays the same game.

    The knobs are bounded, so that one choice is bounded work: ``simulations`` 2 to 100,000
    (OpenSpiel's search needs two: its first only expands the root),
    ``uct_c`` 0 to 1000 (else :class:`~persian_rummy.InvalidArgumentError`); a seed is a whole
    number or a text (else :class:`~persian_rummy.ArgumentTypeError`).

    >>> from persian_rummy import new_game
    >>> player = ISMCTSPlayer(0, simulations=4)
    >>> player
    ISMCTSPlayer(seed=0, simulations=4, rollout='random', uct_c=2.0)
    >>> player(new_game(1).view(1))
    DrawStock()
    """

    takes_info_state: Final = True

    def __init__(self, seed: int = 0, *, simulations: int = 32, rollout: str = "random", uct_c: float = 2.0) -> None:
        from open_spiel.python.algorithms import ismcts

        if type(simulations) is not int or not 2 <= simulations <= _SIMULATIONS_LIMIT:
            raise InvalidArgumentError(
                f"simulations must be a whole number from 2 to {_SIMULATIONS_LIMIT}, not {_what(simulations)}"
            )
        if type(uct_c) not in (float, int) or not 0.0 <= uct_c <= _UCT_C_LIMIT:
            raise InvalidArgumentError(f"uct_c must be a number from 0 to {_UCT_C_LIMIT}, not {_what(uct_c)}")
        self._evaluator = RolloutEvaluator(rollout=rollout, seed=seed)
        self.seed = seed
        self.simulations = simulations
        self.rollout = rollout
        self.uct_c = uct_c
        self._rng = random.Random(seed)
        self._ismcts = ismcts
        self._games: dict[Rules, tuple[PersianRummyGame, Any]] = {}

    def _bot(self, rules: Rules) -> tuple[PersianRummyGame, Any]:
        found = self._games.get(rules)
        if found is None:
            game = PersianRummyGame(attrs.asdict(rules))
            bot = self._ismcts.ISMCTSBot(
                game,
                self._evaluator,
                self.uct_c,
                self.simulations,
                random_state=np.random.RandomState(self._rng.getrandbits(32)),
                allow_inconsistent_action_sets=True,
            )
            # The bot's own resampling draws from a sampler seeded by the clock; this one is seeded.
            draw = self._rng.random
            bot.set_resampler(lambda state, player: state.resample_from_infostate(player, draw))
            found = self._games[rules] = (game, bot)
        return found

    def __call__(self, view: PlayerView | InfoState) -> Action:
        if not isinstance(view, PlayerView | InfoState):
            raise ArgumentTypeError(f"a bot is given a PlayerView or an InfoState, not a {type(view).__name__}")
        info = view if isinstance(view, InfoState) else InfoState.start(view)
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        game, bot = self._bot(info.view.rules)
        state = state_from_info(game, info, self._rng)
        return int_to_action(int(bot.step(state)))

    def __repr__(self) -> str:
        return f"ISMCTSPlayer(seed={self.seed}, simulations={self.simulations}, rollout={self.rollout!r}, uct_c={self.uct_c})"


pyspiel.register_game(GAME_TYPE, PersianRummyGame)
