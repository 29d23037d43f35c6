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
  1,590 values). (There is no information-state tensor: the history has no fixed length; the
  string is exact.)
- Returns, at the end of the game only: +1 for the players of the winning team, -1 for the
  others, 0 each for a draw (R26), with the parameter ``utility="win"`` (the default); with
  ``utility="margin"``, each team's final score margin / 1000 (R23).
- The parameters are the knobs of :class:`~persian_rummy.Rules` (``deals``, ``ace_in_runs``
  …, with their defaults) and ``utility``.
- :meth:`PersianRummyState.resample_from_infostate` deals the cards the player has not seen
  at random, keeping in each other hand the cards it is known to hold because it took them
  from the discard pile (:func:`persian_rummy.bots.determinize` on the player's
  :class:`~persian_rummy.InfoState`); OpenSpiel's IS-MCTS samples its worlds with it. The
  sampled state is made from the player's information alone: nothing in it depends on a card
  the player has not seen (R27).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final

import attrs
import numpy as np
import pyspiel

from persian_rummy.actions import DRAW_STOCK, Action, DrawDiscard, DrawStock
from persian_rummy.bots import GreedyBot, determinize
from persian_rummy.cards import CARDS, DECK, DECK_COUNTS, JOKER_INDEX, Card
from persian_rummy.encoding import NUM_ACTIONS, int_to_action, legal_indices
from persian_rummy.engine import legal_actions, play
from persian_rummy.errors import InvalidArgumentError
from persian_rummy.observation import OBSERVATION_SHAPE, observation_tensor
from persian_rummy.rules import Rules
from persian_rummy.scoring import winner
from persian_rummy.state import HAND_SIZE, PLAYERS, GameState, Phase, team_of
from persian_rummy.view import InfoState, Observation, PlayerView

__all__ = ["GAME_TYPE", "ISMCTSPlayer", "PersianRummyGame", "PersianRummyState", "RolloutEvaluator", "state_from_info"]

#: Cards dealt by chance at the start of a deal: the hands and the face-up card (R5).
DEALT: Final = PLAYERS * HAND_SIZE + 1
#: Player actions of one deal at most: a turn that draws from the stock (27 at most) or adds
#: cards to the table (56 at most) comes at least every eighth turn (R21); a turn is a draw
#: and a discard besides its table actions.
_DEAL_ACTIONS: Final = 2 * 8 * (27 + len(DECK) + 1) + len(DECK)
#: Chance nodes of one deal at most: 29 to deal, then one per stock card drawn (27).
_DEAL_CHANCE: Final = len(DECK)
_MARGIN_SCALE: Final = 1000.0
#: The most a team can score above the other in one deal, not counting the going-out bonus:
#: every card on its side of the table, every set of four doubled (R22-R24).
_MAX_DEAL_MARGIN: Final = 2 * sum(card.points for card in DECK)
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
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        self.rules = Rules(**{name: params[name] for name in attrs.asdict(Rules())})
        self.utility = str(params["utility"])
        if self.utility not in ("win", "margin"):
            raise InvalidArgumentError(f"utility must be 'win' or 'margin', not {self.utility!r}")
        bound = (
            1.0
            if self.utility == "win"
            else self.rules.deals * (_MAX_DEAL_MARGIN + self.rules.going_out_bonus) / _MARGIN_SCALE
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=JOKER_INDEX + 1,
            num_players=PLAYERS,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=self.rules.deals * (_DEAL_ACTIONS + _DEAL_CHANCE),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> PersianRummyState:
        """The state before the first card is dealt."""
        return PersianRummyState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer OpenSpiel uses for information-state and observation strings and tensors."""
        if params:
            raise InvalidArgumentError(f"the observer takes no parameters, not {params!r}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(perfect_recall)


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

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self

    def seen_by(self, player: int) -> _Node:
        """The node with only what ``player`` has seen of the earlier deals and the start of
        this one: the other seats' start views dropped, their stock draws without the card
        (R12, R27). The deal being played is left as it is."""
        past = tuple(
            _Deal(_own(deal.starts, player), tuple(_seen(deal.events, player)), deal.ends) for deal in self.past
        )
        return attrs.evolve(self, starts=_own(self.starts, player), past=past)


class PersianRummyState(pyspiel.State):
    """One node of the game: a deal being dealt, a stock draw to resolve, or a player to act."""

    def __init__(self, game: PersianRummyGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._utility = game.utility
        self._node = _Node()

    # --- the game -----------------------------------------------------------------------

    def current_player(self) -> int:
        """The player to act, or ``pyspiel.PlayerId.CHANCE`` / ``TERMINAL``."""
        node = self._node
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
        """The cards that can come next, with their probabilities."""
        node = self._node
        if node.state is not None and node.stock_draw:
            pool: list[Card] = list(node.state.stock)
        else:
            pool = _undealt(node.dealt)
        counts = [0] * (JOKER_INDEX + 1)
        for card in pool:
            counts[card.index] += 1
        total = len(pool)
        return [(index, count / total) for index, count in enumerate(counts) if count]

    def _apply_action(self, action: int) -> None:
        node = self._node
        state = node.state
        if state is None:
            self._node = self._deal(node, CARDS[action])
        elif node.stock_draw:
            card = CARDS[action]
            stock = list(state.stock)
            stock.remove(card)
            stock.append(card)  # on top, drawn next (R12)
            event = Observation(state.current_player, DRAW_STOCK, (card,))
            self._node = self._after(node, event, play(attrs.evolve(state, stock=tuple(stock)), DRAW_STOCK))
        elif action == 0:
            self._node = attrs.evolve(node, stock_draw=True)  # chance picks the card (R12)
        else:
            move = int_to_action(action)
            cards = state.discard_pile[move.index :] if isinstance(move, DrawDiscard) else ()
            self._node = self._after(node, Observation(state.current_player, move, cards), play(state, move))

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
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {CARDS[action]}"
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

    def __str__(self) -> str:
        node = self._node
        if node.state is None:
            return f"deal {node.deal_number}: dealt {' '.join(map(str, node.dealt))}"
        return node.state.position() + (" (stock draw)" if node.stock_draw else "")

    # --- what a player knows --------------------------------------------------------------

    def info_state(self, player: int) -> InfoState | None:
        """The player's :class:`~persian_rummy.InfoState` for the deal being played (``None``
        while it is dealt): its view and the deal's public events, with the cards of its own
        stock draws."""
        node = self._node
        if node.state is None:
            return None
        return InfoState(node.state.view(player), tuple(_seen(node.history, player)))

    def information_state_text(self, player: int) -> str:
        """Everything ``player`` has seen in the game, as text (see the module)."""
        node = self._node
        lines: list[str] = []
        for number, deal in enumerate(node.past, 1):
            lines.append(f"deal {number}")
            lines += _deal_lines(deal.starts[player], deal.events, player)
            lines.append(deal.ends[player].position())
        if node.state is None:
            lines += [f"deal {node.deal_number} dealing", "hand " + " ".join(map(str, _dealt_to(node, player)))]
        else:
            lines.append(f"deal {node.deal_number}")
            lines += _deal_lines(node.starts[player], node.history, player)
            lines.append(node.state.view(player).position())
        if node.stock_draw:
            lines.append("stock draw")
        return "\n".join(lines)

    def observation_text(self, player: int) -> str:
        """What ``player`` sees now: its view's position string (its cards so far while dealing)."""
        node = self._node
        if node.state is None:
            return f"deal {node.deal_number} dealing: " + " ".join(map(str, _dealt_to(node, player)))
        return node.state.view(player).position() + (" stock draw" if node.stock_draw else "")

    def observation_array(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """What ``player`` sees now as an observation tensor (zeros but the cards dealt to it
        so far, while dealing)."""
        node = self._node
        if node.state is not None:
            return observation_tensor(node.state.view(player))
        tensor = np.zeros(OBSERVATION_SHAPE, np.float32)
        for card in _dealt_to(node, player):
            tensor[0, card.index] += 1.0
        return tensor

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PersianRummyState:
        """A state ``player_id`` cannot tell from this one, made from what it has seen alone
        (R27): the cards it has not seen dealt at random (:func:`persian_rummy.bots.determinize`
        on its :class:`~persian_rummy.InfoState`; while a deal is dealt, the cards dealt to
        the others so far), its own views of the earlier deals and of the start of this one,
        and the public events with the cards of its own stock draws only.

        Nothing in the copy depends on the cards ``player_id`` has not seen. So the copy
        forgets the other seats' views of the starts of the deals and their stock draws (for
        the other seats it is a coarser information state than a real one: the search only
        merges their nodes), and it has no action history (``history()`` is empty: the
        actions that led to this state spell out the deal).
        """
        node = self._node.seen_by(player_id)
        state = node.state
        # OpenSpiel's sampler gives a uniform number in [0, 1): it seeds the deal of the cards.
        draw: Any = probability_sampler
        rng = random.Random(int(float(draw()) * 2**53))
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


def _deal_lines(start: PlayerView | None, events: tuple[Observation, ...], player: int) -> list[str]:
    """A deal as ``player`` saw it, for its information state: its view at the start (when
    known), then the events."""
    return ([] if start is None else [start.position()]) + list(map(str, _seen(events, player)))


def _redealt(node: _Node, player: int, rng: random.Random) -> tuple[Card, ...]:
    """The cards dealt so far with those dealt to ``player`` kept and the others' drawn at
    random from the cards ``player`` has not seen (R5, R27)."""
    own = _dealt_to(node, player)
    unseen = _undealt(own)
    rng.shuffle(unseen)
    mine = (player - node.dealer - 1) % PLAYERS
    others = iter(unseen)
    return tuple(card if index % PLAYERS == mine else next(others) for index, card in enumerate(node.dealt))


def _dealt_to(node: _Node, player: int) -> tuple[Card, ...]:
    """The cards dealt to ``player`` so far while a deal is dealt (R5)."""
    return node.dealt[(player - node.dealer - 1) % PLAYERS : PLAYERS * HAND_SIZE : PLAYERS]


def _undealt(dealt: tuple[Card, ...]) -> list[Card]:
    """The cards not dealt yet, in deck order (R1)."""
    return list((DECK_COUNTS - Counter(dealt)).elements())


def _seen(events: tuple[Observation, ...], player: int) -> list[Observation]:
    """The events as ``player`` saw them: another player's stock draws without the card (R12)."""
    return [
        Observation(event.seat, event.action)
        if type(event.action) is DrawStock and event.seat != player and event.cards
        else event
        for event in events
    ]


class _Observer:
    """OpenSpiel's observer protocol: ``tensor`` and ``dict`` set by :meth:`set_from`, and
    :meth:`string_from`."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else OBSERVATION_SHAPE[0] * OBSERVATION_SHAPE[1]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor.reshape(OBSERVATION_SHAPE)}

    def set_from(self, state: PersianRummyState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = state.observation_array(player).ravel()

    def string_from(self, state: PersianRummyState, player: int) -> str:
        return state.information_state_text(player) if self.perfect_recall else state.observation_text(player)


def state_from_info(game: PersianRummyGame, info: InfoState, rng: random.Random) -> PersianRummyState:
    """An OpenSpiel state of ``game`` behind a seat's :class:`~persian_rummy.InfoState`: the
    hidden cards dealt at random (:func:`~persian_rummy.bots.determinize`), the deal's history
    the seat's. What a search bot needs to choose the seat's next action (the earlier deals and
    the start of this one are not in it).

    >>> import pyspiel
    >>> from persian_rummy import new_game
    >>> game = pyspiel.load_game("python_persian_rummy")
    >>> state = state_from_info(game, InfoState.start(new_game(1), 1), random.Random(0))
    >>> state.current_player(), [state.action_to_string(action) for action in state.legal_actions()]
    (1, ['draw'])
    """
    view = info.view
    state: PersianRummyState = game.new_initial_state()
    world = determinize(info, rng)
    state._node = _Node(view.dealer, view.deal_number, view.scores, state=world, history=info.history)
    return state


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
            raise InvalidArgumentError(f"rollout must be 'random' or 'greedy', not {rollout!r}")
        self.rollout = rollout
        self._rng = random.Random(seed)
        self._greedy = GreedyBot(seed)

    def evaluate(self, state: PersianRummyState) -> np.ndarray[Any, np.dtype[np.float64]]:
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

        if type(simulations) is not int or simulations < 1:
            raise InvalidArgumentError(f"simulations must be a whole number of at least 1, not {simulations!r}")
        self.seed = seed
        self.simulations = simulations
        self.rollout = rollout
        self.uct_c = uct_c
        self._rng = random.Random(seed)
        self._evaluator = RolloutEvaluator(rollout=rollout, seed=seed)
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
