"""The OpenSpiel game and its state (see :mod:`persian_rummy.openspiel` for the model)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import attrs

from persian_rummy._extras import needs_extra

with needs_extra("rl", "persian_rummy.openspiel"):
    import numpy as np
    import pyspiel

from persian_rummy.actions import DRAW_STOCK, DrawDiscard
from persian_rummy.cards import CARDS, JOKER_INDEX, Card
from persian_rummy.dealing import following_deal
from persian_rummy.encoding import NUM_ACTIONS, int_to_action, legal_indices
from persian_rummy.engine import play
from persian_rummy.errors import (
    ArgumentTypeError,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    PersianRummyError,
)
from persian_rummy.limits import deal_points
from persian_rummy.observation import OBSERVATION_SHAPE, observation_tensor
from persian_rummy.openspiel._guard import arm_guard
from persian_rummy.openspiel._node import (
    DEAL_NODES,
    DEALT,
    REPLAY,
    SAMPLED_HAS_NO_TEXT,
    START,
    Deal,
    Node,
    as_seen_by,
    checked_player,
    deal_lines,
    dealing_text,
    dealt_card,
    dealt_to,
    drawn_card,
    not_legal,
    public_position,
    public_view,
    redealt,
    undealt,
    what,
)
from persian_rummy.openspiel._observer import Observer
from persian_rummy.openspiel._text import read_envelope, read_state_text, replay, replayed, state_text
from persian_rummy.rules import Rules
from persian_rummy.scoring import winner
from persian_rummy.state import PLAYERS, GameState, Phase, team_of
from persian_rummy.view import InfoState, Observation
from persian_rummy.worlds import determinize

MARGIN_SCALE: Final = 1000.0
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
            raise InvalidArgumentError(f"utility must be 'win' or 'margin', not {what(self.utility)}")
        # A team's margin in a deal is at most what a team can score in one (R22-R25).
        bound = (
            1.0 if self.utility == "win" else self.rules.deals * deal_points(self.rules.going_out_bonus) / MARGIN_SCALE
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=JOKER_INDEX + 1,
            num_players=PLAYERS,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=self.rules.deals * DEAL_NODES,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> PersianRummyState:
        """The state before the first card is dealt. OpenSpiel's own reader of a state's text
        calls this before it unpickles the text's state part, so the pickle guard is armed
        here (see ``_guard``: installed at the process's first state of this game)."""
        arm_guard()
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
        return replay(self, read_state_text(self, text))  # type: ignore[no-any-return]

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer OpenSpiel uses for information-state and observation strings and
        tensors, for the kind of observation ``iig_obs_type`` asks for (see the module
        documentation); ``params`` must be empty."""
        if isinstance(iig_obs_type, dict) and params is None:  # OpenSpiel passes only the parameters
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise InvalidArgumentError(f"the observer takes no parameters, not {what(params)}")
        return Observer(iig_obs_type)


def _parameters(params: object) -> dict[str, Any]:
    """The game's parameters, the defaults filled in; each name and type checked."""
    if params is None:
        return dict(_PARAMETERS)
    if not isinstance(params, dict):
        raise ArgumentTypeError(f"the game's parameters are a dictionary, not {what(params)}")
    for name, value in params.items():
        if name not in _PARAMETERS:
            raise InvalidArgumentError(
                f"the game has no parameter {what(name)} (its parameters: {', '.join(sorted(_PARAMETERS))})"
            )
        kind = type(_PARAMETERS[name])
        if type(value) is not kind:
            raise InvalidArgumentError(
                f"the parameter {name} takes a {_KINDS[kind]}, not {what(value)} (a {type(value).__name__})"
            )
    return {**_PARAMETERS, **params}


_KINDS: Final = {int: "whole number", str: "text", bool: "bool"}


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
    _node: Node

    def __init__(self, game: PersianRummyGame) -> None:
        super().__init__(game)
        object.__setattr__(self, "_rules", game.rules)
        object.__setattr__(self, "_utility", game.utility)
        object.__setattr__(self, "_node", START)

    def __setattr__(self, name: str, value: Any) -> None:
        # OpenSpiel's clone and its reader of its own texts set a state's attributes one by
        # one from a dictionary (the reader from the text): only a node is taken, and from a
        # text only the mark that says "replay the history" (R27: no other value is loaded).
        if name == "_node" and type(value) is Node:
            object.__setattr__(self, name, value)
        elif name == "_node" and value is REPLAY:
            object.__setattr__(self, name, replayed(self)._node)
        else:
            raise NotationError(f"a state of python_persian_rummy has no attribute {what(name)} to set")

    # --- the game -----------------------------------------------------------------------

    def current_player(self) -> int:
        """The player to act, or ``pyspiel.PlayerId.CHANCE`` / ``TERMINAL``."""
        node = self._node
        if node is START:
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
            pool = undealt(node.dealt)
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
            self._node = self._deal(node, dealt_card(node, action))
        elif node.stock_draw:
            card = drawn_card(state, action)
            stock = list(state.stock)
            stock.remove(card)
            stock.append(card)  # on top, drawn next (R12)
            event = Observation(state.current_player, DRAW_STOCK, (card,))
            self._node = self._after(node, event, play(attrs.evolve(state, stock=tuple(stock)), DRAW_STOCK))
        elif action == 0:
            # Drawing from the stock is legal exactly in the draw phase with cards in the stock
            # (R12, as legal_draws lists it), asked here without listing the pile's draws.
            if state.phase is not Phase.DRAW or not state.stock:
                raise not_legal(state, action, "R12: drawing from the stock is not legal here")
            self._node = attrs.evolve(node, stock_draw=True)  # chance picks the card (R12)
        else:
            if not 0 < action < NUM_ACTIONS:
                raise not_legal(state, action, f"it is not an action index (0 to {NUM_ACTIONS - 1})")
            move = int_to_action(action)
            try:
                after = play(state, move)
            except PersianRummyError as error:
                raise not_legal(state, action, error.reason) from None
            cards = state.discard_pile[move.index :] if isinstance(move, DrawDiscard) else ()
            self._node = self._after(node, Observation(state.current_player, move, cards), after)

    def _deal(self, node: Node, card: Card) -> Node:
        dealt = node.dealt + (card,)
        if len(dealt) < DEALT:
            return attrs.evolve(node, dealt=dealt)
        deck = [*dealt, *undealt(dealt)]
        state = GameState.from_deck(
            deck, dealer=node.dealer, deal_number=node.deal_number, scores=node.scores, rules=self._rules
        )
        starts = tuple(state.view(seat) for seat in range(PLAYERS))
        return attrs.evolve(node, dealt=(), state=state, starts=starts, history=())

    def _after(self, node: Node, event: Observation, state: GameState) -> Node:
        history = node.history + (event,)
        if state.phase is not Phase.ROUND_OVER:
            return attrs.evolve(node, state=state, stock_draw=False, history=history)
        start = following_deal(state)
        return Node(
            dealer=start.dealer,
            deal_number=start.number,
            scores=start.scores,
            past=node.past + (Deal(node.starts, history, tuple(state.view(seat) for seat in range(PLAYERS))),),
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
            margin = (state.scores[0] - state.scores[1]) / MARGIN_SCALE
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
        if node is START:
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
            raise InvalidStateError(SAMPLED_HAS_NO_TEXT)
        return state_text(self.get_game(), self.history())

    # --- what a player knows --------------------------------------------------------------

    def info_state(self, player: int) -> InfoState | None:
        """The player's :class:`~persian_rummy.InfoState` for the deal being played (``None``
        while it is dealt): its view and the deal's public events, with the cards of its own
        stock draws."""
        player = checked_player(player)
        node = self._node
        if node.state is None:
            return None
        return InfoState(node.state.view(player), tuple(as_seen_by(node.history, player)))

    def information_state_text(self, player: int, *, public_only: bool = False) -> str:
        """Everything ``player`` has seen in the game, as text (see the module); with
        ``public_only``, only what every player has seen (no hand but those shown, R23, and
        no card of a stock draw, R12)."""
        player = checked_player(player)
        node = self._node
        viewer = None if public_only else player
        lines: list[str] = []
        for number, deal in enumerate(node.past, 1):
            lines.append(f"deal {number}")
            lines += deal_lines(deal.starts[player], deal.events, viewer)
            lines.append(deal.ends[player].position())
        if node.state is None:
            lines.append(f"deal {node.deal_number} dealing")
            lines.append(("hand " if viewer is not None else "") + dealing_text(node, viewer))
        else:
            lines.append(f"deal {node.deal_number}")
            lines += deal_lines(node.starts[player], node.history, viewer)
            view = node.state.view(player)
            lines.append(public_position(view) if public_only else view.position())
        if node.stock_draw:
            lines.append("stock draw")
        return "\n".join(lines)

    def observation_text(self, player: int, *, public_only: bool = False) -> str:
        """What ``player`` sees now: its view's position string (its cards so far while
        dealing); with ``public_only``, what every player sees (its hand as a count)."""
        player = checked_player(player)
        node = self._node
        viewer = None if public_only else player
        if node.state is None:
            return f"deal {node.deal_number} dealing: " + dealing_text(node, viewer)
        view = node.state.view(player)
        text = public_position(view) if public_only else view.position()
        return text + (" stock draw" if node.stock_draw else "")

    def observation_array(self, player: int, *, public_only: bool = False) -> np.ndarray[Any, np.dtype[np.float32]]:
        """What ``player`` sees now as an observation tensor (zeros but the cards dealt to it
        so far, while dealing); with ``public_only``, the tensor of its view without its hand
        (zeros while dealing)."""
        player = checked_player(player)
        node = self._node
        if node.state is not None:
            view = node.state.view(player)
            return observation_tensor(public_view(view) if public_only else view)
        tensor = np.zeros(OBSERVATION_SHAPE, np.float32)
        if not public_only:
            for card in dealt_to(node, player):
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
        player_id = checked_player(player_id)
        if not callable(probability_sampler):
            raise ArgumentTypeError(
                f"the probability sampler is a function of no arguments, not {what(probability_sampler)}"
            )
        # OpenSpiel's sampler gives a uniform number in [0, 1): it seeds the deal of the cards.
        draw = probability_sampler()
        if not isinstance(draw, float | int) or isinstance(draw, bool) or not 0.0 <= draw < 1.0:
            raise InvalidArgumentError(f"the probability sampler must give a number in [0, 1), not {what(draw)}")
        rng = random.Random(int(float(draw) * 2**53))
        node = attrs.evolve(self._node.seen_by(player_id), sampled=True)
        state = node.state
        if state is None:
            node = attrs.evolve(node, dealt=redealt(node, player_id, rng))
        elif state.phase.is_live:
            info = InfoState(state.view(player_id), tuple(as_seen_by(node.history, player_id)))
            node = attrs.evolve(node, state=determinize(info, rng), history=info.history)
        else:
            # The game is over: every hand is shown (R23), and the stock holds the rest of the
            # cards, in an order nobody saw: card order.
            stock = tuple(sorted(state.stock, key=lambda card: card.index))
            node = attrs.evolve(
                node, state=attrs.evolve(state, stock=stock), history=tuple(as_seen_by(node.history, player_id))
            )
        clone: PersianRummyState = self.get_game().new_initial_state()
        clone._node = node
        return clone


def deserialize_game_and_state(text: str) -> tuple[PersianRummyGame, PersianRummyState]:
    """The game and the state of OpenSpiel's text of them (``pyspiel.serialize_game_and_state``),
    read without unpickling anything and without handing any of it to OpenSpiel: the game made
    from the parameters its string names (parsed here), the state by replaying the text's
    history through the rules, every step checked (the players and the move number must be the
    replay's, and the state part's pickle exactly what this game's states write, which is never
    decoded). For text from outside, this is the reader to use: OpenSpiel's own,
    ``pyspiel.deserialize_game_and_state``, unpickles the state part before the game sees it,
    so a crafted text runs its code there (see the module documentation).

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
    game: PersianRummyGame
    game, written, move_number = read_envelope(text, PersianRummyGame)
    state: PersianRummyState = replay(game, [action for _, action in written], lambda: written, move_number)
    return game, state


def state_from_info(game: PersianRummyGame, info: InfoState, rng: random.Random) -> PersianRummyState:
    """An OpenSpiel state of ``game`` behind a seat's :class:`~persian_rummy.InfoState`: the
    hidden cards dealt at random (:func:`~persian_rummy.worlds.determinize`), the deal's history
    the seat's. What a search bot needs to choose the seat's next action (the earlier deals and
    the start of this one are not in it).

    >>> import pyspiel
    >>> import random
    >>> from persian_rummy import InfoState, new_game
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
    state._node = Node(view.dealer, view.deal_number, view.scores, state=world, history=info.history, sampled=True)
    return state
