"""OpenSpiel's IS-MCTS as a bot of this library (:class:`ISMCTSPlayer`), and the evaluator
that plays a sampled world's deal out with the engine (:class:`RolloutEvaluator`)."""

from __future__ import annotations

import random
from typing import Any, Final

import attrs

from persian_rummy._extras import needs_extra

with needs_extra("rl", "persian_rummy.openspiel"):
    import numpy as np

from persian_rummy.actions import DRAW_STOCK, Action
from persian_rummy.bots import GreedyBot
from persian_rummy.encoding import int_to_action
from persian_rummy.engine import legal_actions, play
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError
from persian_rummy.openspiel._game import MARGIN_SCALE, PersianRummyGame, PersianRummyState, state_from_info
from persian_rummy.openspiel._node import what
from persian_rummy.rules import Rules
from persian_rummy.view import InfoState, PlayerView
from persian_rummy.worlds import seat_seed

#: The most simulations an :class:`ISMCTSPlayer` runs for one choice (so one choice is bounded work).
_SIMULATIONS_LIMIT: Final = 100_000
#: The largest exploration constant an :class:`ISMCTSPlayer` takes.
_UCT_C_LIMIT: Final = 1000.0


def _require_seed(seed: object) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ArgumentTypeError(f"a seed is a whole number or a text, not {what(seed)}")


class RolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS and IS-MCTS bots: play the deal to its end with our
    engine from the sampled world (random legal actions, or :class:`~persian_rummy.bots.GreedyBot`
    for every seat with ``rollout="greedy"``), over a freshly shuffled stock, and score it.

    The value is the game's utility if the rollout ends the game; else, with ``utility="win"``,
    +1/-1/0 by the sign of the running score margin (R23, R26), and with ``"margin"`` the margin
    / 1000. Much cheaper than OpenSpiel's ``RandomRolloutEvaluator``, which plays to the end of
    the game through the OpenSpiel state.

    >>> import pyspiel
    >>> import random
    >>> from persian_rummy import InfoState, new_game
    >>> game = pyspiel.load_game("python_persian_rummy")
    >>> state = state_from_info(game, InfoState.start(new_game(1), 1), random.Random(0))
    >>> values = RolloutEvaluator(seed=1).evaluate(state)
    >>> len(values), bool(values[0] == values[2] == -values[1] == -values[3])
    (4, True)
    """

    def __init__(self, *, rollout: str = "random", seed: int = 0) -> None:
        if rollout not in ("random", "greedy"):
            raise InvalidArgumentError(f"rollout must be 'random' or 'greedy', not {what(rollout)}")
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
        value = margin / MARGIN_SCALE if state._utility == "margin" else float((margin > 0) - (margin < 0))
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
    view (then it samples from the view alone). Each choice's randomness comes from the seed
    and what the seat has seen (:func:`~persian_rummy.worlds.seat_seed`): the same seed plays
    the same game, and one player asked for several seats answers each as a fresh one would.

    The knobs are bounded, so that one choice is bounded work: ``simulations`` 2 to 100,000
    (OpenSpiel's search needs two: its first only expands the root),
    ``uct_c`` 0 to 1000 (else :class:`~persian_rummy.InvalidArgumentError`); a seed is a whole
    number or a text (else :class:`~persian_rummy.ArgumentTypeError`).

    >>> import random
    >>> from persian_rummy import InfoState, new_game
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
                f"simulations must be a whole number from 2 to {_SIMULATIONS_LIMIT}, not {what(simulations)}"
            )
        if type(uct_c) not in (float, int) or not 0.0 <= uct_c <= _UCT_C_LIMIT:
            raise InvalidArgumentError(f"uct_c must be a number from 0 to {_UCT_C_LIMIT}, not {what(uct_c)}")
        RolloutEvaluator(rollout=rollout, seed=seed)  # its checks of the knobs, where they enter
        self.seed = seed
        self.simulations = simulations
        self.rollout = rollout
        self.uct_c = uct_c
        self._ismcts = ismcts
        self._games: dict[Rules, PersianRummyGame] = {}

    def _bot(self, rules: Rules, rng: random.Random) -> tuple[PersianRummyGame, Any]:
        # A search of its own for each decision, all its randomness drawn from ``rng``: the
        # decision depends on the seed and what the seat has seen, never on earlier decisions.
        game = self._games.get(rules)
        if game is None:
            game = self._games[rules] = PersianRummyGame(attrs.asdict(rules))
        bot = self._ismcts.ISMCTSBot(
            game,
            RolloutEvaluator(rollout=self.rollout, seed=rng.getrandbits(63)),
            self.uct_c,
            self.simulations,
            random_state=np.random.RandomState(rng.getrandbits(32)),
            allow_inconsistent_action_sets=True,
        )
        # The bot's own resampling draws from a sampler seeded by the clock; this one is seeded.
        draw = rng.random
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, draw))
        return game, bot

    def __call__(self, view: PlayerView | InfoState) -> Action:
        if not isinstance(view, PlayerView | InfoState):
            raise ArgumentTypeError(f"a bot is given a PlayerView or an InfoState, not a {type(view).__name__}")
        info = view if isinstance(view, InfoState) else InfoState.start(view)
        actions = info.legal_actions()
        if len(actions) == 1:
            return actions[0]
        rng = random.Random(seat_seed(self.seed, info))
        game, bot = self._bot(info.view.rules, rng)
        state = state_from_info(game, info, rng)
        return int_to_action(int(bot.step(state)))

    def __repr__(self) -> str:
        return f"ISMCTSPlayer(seed={self.seed}, simulations={self.simulations}, rollout={self.rollout!r}, uct_c={self.uct_c})"
