"""A PettingZoo environment: the four seats as four agents of an AEC game (needs ``[rl]``).

:func:`env` builds the environment wrapped as PettingZoo's classic games are (its
``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``),
:class:`raw_env` the bare one. The agents are ``"player_0"`` … ``"player_3"``, the seats
0-3 (team 0 is players 0 and 2, R3). The agent to act is the seat to move; it acts once per
action, so it is selected several times in a row during its turn (draw, melds and lay-offs,
discard: R12-R17).

- Observation of each agent: ``{"observation": ..., "action_mask": ...}``, the
  :func:`~persian_rummy.observation.observation_tensor` of its :class:`~persian_rummy.PlayerView`
  (``float32``, shape ``(30, 53)``) and the ``int8`` mask of its legal actions in the
  :mod:`~persian_rummy.encoding` numbering (all zeros when it is not to move).
- Actions: ``Discrete(1436)`` indices (:func:`~persian_rummy.encoding.int_to_action`).
  Through :func:`env`, as in PettingZoo's classic games, an illegal index ends the game with
  ``illegal_reward`` (default -1) for the agent that played it and 0 for the others
  (``TerminateIllegalWrapper``), and a value outside the action space fails PettingZoo's
  assertion (``AssertOutOfBoundsWrapper``). :class:`raw_env` raises instead, leaving the game
  unchanged: :class:`~persian_rummy.IllegalActionError` for an illegal index (use the mask),
  :class:`~persian_rummy.InvalidArgumentError` for a number outside the numbering and
  :class:`~persian_rummy.ArgumentTypeError` for a value that is not a whole number
  (:func:`~persian_rummy.encoding.action_index`).
- Rewards: when a deal ends, each agent receives its team's score for the deal minus the other
  team's (R23-R25), divided by ``reward_scale`` (default 100); every other step gives 0. Over
  the game an agent's rewards add up to its team's final margin / ``reward_scale``, which is
  positive exactly when its team wins (R26). ``win_bonus`` (default 0) is added at the game's
  end to the rewards of the winning team's agents and taken from the others' (R26; nothing
  on a draw), so that the return measures the win as evaluation does.
- The game is ``rules.deals`` deals (R7); the next deal starts at once. When the last one ends
  every agent is terminated. There is no truncation unless ``max_actions`` is given.
- ``reset(seed=s)`` plays the deals of the arena's game ``s``
  (:func:`~persian_rummy.arena.play_game`), ``s`` a whole number (numpy's too) of at most
  :data:`~persian_rummy.limits.SEED_BITS` bits, every deal of which plays
  (:func:`~persian_rummy.deal_seed`); ``reset()`` draws the next game seed from the
  generator seeded by the last seed given.
- ``render_mode="human"``: :meth:`raw_env.render` prints the table as text, every hand shown;
  ``"ansi"`` returns that text; ``"svg"`` returns the table as an SVG picture
  (:func:`persian_rummy.svg.table`).
- The arguments are checked when the environment is built, and ``reset``'s when it is
  called: a bad one raises :class:`~persian_rummy.ArgumentTypeError` or
  :class:`~persian_rummy.InvalidArgumentError` and changes nothing (not the game, not the
  agent to act, not the generator of seeds). So does ``observe`` of a name that is not an
  agent's.

>>> game = env()
>>> game.reset(seed=1)
>>> game.agent_selection, game.observe("player_1")["action_mask"].nonzero()[0].tolist()
('player_1', [0])
>>> game.step(0)  # draw (R12)
>>> game.agent_selection
'player_1'
"""

from __future__ import annotations

import random
from typing import Any, Final

from persian_rummy._extras import needs_extra

with needs_extra("rl", __name__):
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

from persian_rummy._episode import Episode, check_reset, checked_settings, real_number
from persian_rummy.encoding import ACTIONS, NUM_ACTIONS, action_index, legal_flags
from persian_rummy.errors import ArgumentTypeError, IllegalActionError, InvalidArgumentError, shown
from persian_rummy.observation import OBSERVATION_HIGH, OBSERVATION_LOW, seat_tensor
from persian_rummy.rules import Rules
from persian_rummy.state import PLAYERS, team_of

__all__ = ["AGENTS", "env", "raw_env"]

#: The agents' names, by seat.
AGENTS: Final = tuple(f"player_{seat}" for seat in range(PLAYERS))
_SEATS: Final = {agent: seat for seat, agent in enumerate(AGENTS)}
_NO_ACTIONS: Final = bytes(NUM_ACTIONS)


def _seat_of(agent: object) -> int:
    """The seat of an agent's name."""
    if not isinstance(agent, str):
        raise ArgumentTypeError(f"an agent is named by text (player_0 to player_3), not {shown(agent)}")
    seat = _SEATS.get(agent)
    if seat is None:
        raise InvalidArgumentError(f"R3: the agents are player_0 to player_3, not {shown(agent)}")
    return seat


def env(*, illegal_reward: float = -1.0, **kwargs: Any) -> AECEnv[str, dict[str, npt.NDArray[Any]], int]:
    """The environment wrapped as PettingZoo's classic games are: an illegal action ends the
    game with ``illegal_reward`` for the agent that played it (``TerminateIllegalWrapper``), an
    action outside the action space fails an assertion (``AssertOutOfBoundsWrapper``), and the
    order of calls is checked (``OrderEnforcingWrapper``). See :class:`raw_env` for the other
    keyword arguments.

    >>> game = env(render_mode="ansi")
    >>> game.metadata["name"], isinstance(game, wrappers.OrderEnforcingWrapper)
    ('persian_rummy_v0', True)
    >>> game.reset(seed=1)
    >>> game.step(57)  # pass, with a full stock (R20): illegal, and the game ends
    >>> game.rewards["player_1"], game.terminations["player_1"]
    (-1.0, True)
    """
    reward = real_number(illegal_reward, "illegal_reward")
    game: AECEnv[str, dict[str, npt.NDArray[Any]], int] = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=reward)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


class raw_env(AECEnv[str, dict[str, npt.NDArray[Any]], int]):
    """The bare PettingZoo AEC environment of Persian Rummy (see the module documentation).

    ``rules`` are the :class:`~persian_rummy.Rules` in force; ``dealer`` (a seat 0-3) deals
    the first deal; ``reward_scale`` (a finite number above 0) divides the rewards;
    ``max_actions`` (``None`` or a whole number of at least 1) truncates a game after that
    many actions; ``win_bonus`` (a finite number, default 0) is paid at the game's end
    (R26); ``render_mode`` is ``None``, ``"human"``, ``"ansi"`` or ``"svg"``. A bad
    argument raises :class:`~persian_rummy.ArgumentTypeError` or
    :class:`~persian_rummy.InvalidArgumentError`.

    >>> game = raw_env()
    >>> game.reset(seed=2)
    >>> game.observation_space("player_0")["observation"].shape, int(game.action_space("player_0").n)
    ((30, 53), 1436)
    """

    # PettingZoo reads this class attribute, and declares it as an instance one.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["human", "ansi", "svg"],
        "name": "persian_rummy_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        rules: Rules = Rules(),
        dealer: int = 0,
        reward_scale: float = 100.0,
        max_actions: int | None = None,
        render_mode: str | None = None,
        win_bonus: float = 0.0,
    ) -> None:
        super().__init__()
        if render_mode is not None and (
            not isinstance(render_mode, str) or render_mode not in self.metadata["render_modes"]
        ):
            raise InvalidArgumentError(f"render_mode must be None, 'human', 'ansi' or 'svg', not {shown(render_mode)}")
        self.rules, self.dealer, self.reward_scale, self.max_actions = checked_settings(
            rules, dealer, reward_scale, max_actions
        )
        self.win_bonus = real_number(win_bonus, "win_bonus")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        observation = spaces.Box(OBSERVATION_LOW, OBSERVATION_HIGH, dtype=np.float32)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)
        self.observation_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask}) for agent in AGENTS
        }
        self.action_spaces: dict[str, spaces.Space[Any]] = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self._seeds = random.Random()
        self._episode: Episode | None = None
        self._mask = _NO_ACTIONS
        self._actions = 0
        self._paid = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space: a ``Dict`` of the tensor's ``Box`` and the mask's."""
        return self.observation_spaces[AGENTS[_seat_of(agent)]]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(1436)``: the action numbering."""
        return self.action_spaces[AGENTS[_seat_of(agent)]]

    @property
    def episode(self) -> Episode:
        """The game being played (after :meth:`reset`): its ``state`` is the full
        :class:`~persian_rummy.GameState`."""
        if self._episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self._episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: the arena's game ``seed``, or the next seed of the generator seeded
        by the last seed given. ``options`` (``None`` or a dict) are not used. A refused seed
        or options change nothing."""
        given = check_reset(seed, options)
        if given is not None:
            self._seeds = random.Random(given)
            game_seed = given
        else:
            game_seed = self._seeds.getrandbits(63)
        self._episode = Episode(game_seed, self.rules, self.dealer)
        self._actions = 0
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._paid = False
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._turn()

    def _turn(self) -> None:
        state = self.episode.state
        self.agent_selection = AGENTS[state.current_player]
        self._mask = legal_flags(state)  # all 0 once the game is over

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """The agent's observation: its tensor and its legal-action mask (zeros unless it is to
        act). A name that is not an agent's raises :class:`~persian_rummy.InvalidArgumentError`
        (:class:`~persian_rummy.ArgumentTypeError` if it is not a text)."""
        seat = _seat_of(agent)
        state = self.episode.state
        flags = bytearray(self._mask if seat == state.current_player else _NO_ACTIONS)
        return {"observation": seat_tensor(state, seat), "action_mask": np.frombuffer(flags, np.int8)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """What the agent to act needs: its observation (``None`` with ``observe=False``), its
        reward since it last acted, whether it is terminated or truncated, and its info."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        """Play the agent's action (an index of :mod:`~persian_rummy.encoding`); ``None`` for
        an agent that is done. Raises :class:`~persian_rummy.IllegalActionError` for an
        illegal index."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # pyright: ignore[reportArgumentType] - PettingZoo passes None
            return
        if action is None:
            raise IllegalActionError("R12-R20", f"{agent} is to act and must choose an action")
        index = action_index(action)  # the library's errors for a value that is not an index
        if not self._mask[index]:
            raise IllegalActionError("R12-R20", f"{agent} cannot play {ACTIONS[index]} (action {index}) here")
        episode = self.episode
        self._cumulative_rewards[agent] = 0.0
        scores = episode.play(ACTIONS[index])
        self._actions += 1
        over = False
        if scores is not None:  # a deal ended, and perhaps the game (R7)
            margin = (scores[0] - scores[1]) / self.reward_scale
            if self.win_bonus and episode.is_over:  # R26: equal totals are a draw
                totals = episode.state.scores
                margin += self.win_bonus * ((totals[0] > totals[1]) - (totals[0] < totals[1]))
            self.rewards = {name: margin if team_of(seat) == 0 else -margin for seat, name in enumerate(AGENTS)}
            self._paid = True
            self._accumulate_rewards()
            over = episode.is_over
            if over:
                self.terminations = dict.fromkeys(AGENTS, True)
        elif self._paid:  # the rewards of the last deal's end were given: back to zeros
            self.rewards = dict.fromkeys(AGENTS, 0.0)
            self._paid = False
        if not over and self.max_actions is not None and self._actions >= self.max_actions:
            self.truncations = dict.fromkeys(AGENTS, True)
        self._turn()

    def render(self) -> str | None:
        """The table with every hand, as text (``"ansi"``; printed, and ``None`` returned, for
        ``"human"``) or an SVG picture (``"svg"``); ``None`` without a render mode."""
        if self.render_mode is None:
            return None
        state = self.episode.state
        if self.render_mode == "svg":
            from persian_rummy.svg import table

            return table(state)
        from persian_rummy.presentation import Style, styled_table

        text = styled_table(state, Style(symbols=False))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
