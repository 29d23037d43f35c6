"""A single-agent Gymnasium environment: the learner holds one seat, bots the other three;
or (``partner="self"``) the learner holds both seats of a team, bots the other two (needs
``[rl]``).

Importing this module registers the environment as ``persian_rummy/PersianRummy-v0``, so
``gymnasium.make("persian_rummy.gymnasium:persian_rummy/PersianRummy-v0")`` works without
an import of its own. The opponents are bots of :mod:`persian_rummy.bots`, by name
(``"random"``, ``"greedy"``, ``"montecarlo:samples=8"`` …), one name for all three seats or
one per seat in seat order; each plays from its own view (R27), seeded from the game seed.

- Observation: the learner's :func:`~persian_rummy.observation.observation_tensor`
  (``float32``, shape ``(30, 53)``), from its view alone. With ``partner="self"`` the learner
  plays its partner's seat too (R3), each seat from that seat's own view: the observation is
  the view of the seat to act (``info["seat"]``), so one policy learns the partnership, as
  in self-play.
- Action: a ``Discrete(1436)`` index (:mod:`~persian_rummy.encoding`); the mask of legal
  ones is ``info["action_mask"]`` (``int8``), also returned by :meth:`PersianRummyEnv.action_masks`.
- An illegal index leaves the game unchanged and gives ``illegal_reward`` (default -1) with
  ``info["illegal_action"] = True``; ``illegal_action="raise"`` raises
  :class:`~persian_rummy.IllegalActionError` instead (and
  :class:`~persian_rummy.InvalidArgumentError` for a number outside the numbering). A value
  that is not a whole number raises :class:`~persian_rummy.ArgumentTypeError` in either mode.
  A penalized step counts as a step: ``max_actions`` (by default ``rules.deals`` times
  :data:`~persian_rummy.limits.ACTIONS_PER_DEAL`, more steps than a learner can play in a
  game) truncates the episode, so every episode ends.
- Reward: at the end of each deal, the learner's team's deal score minus the other team's
  (R23-R25), over ``reward_scale`` (100); the episode's rewards add up to the final margin
  over ``reward_scale``. The episode ends (``terminated``) with the game (R7); ``win_bonus``
  (default 0) is added to the last step's reward when the learner's team wins and taken
  from it when it loses (R26), so that the return measures the win as evaluation does.
- ``reset(seed=s)`` plays the deals of the arena's game ``s``, a whole number (numpy's too)
  from 0 to ``2**4096 - 1`` (:data:`~persian_rummy.limits.SEED_BITS`), every deal of which
  plays (:func:`~persian_rummy.deal_seed`).
- The arguments are checked when the environment is built, and ``reset``'s when it is
  called: a bad one raises :class:`~persian_rummy.ArgumentTypeError` or
  :class:`~persian_rummy.InvalidArgumentError` (a bot's spec, what
  :func:`~persian_rummy.bots.make_bot` raises: its knobs are bounded, so one move is bounded
  work) and changes nothing, not the game, not the environment's generator.
- Under ``gymnasium.make_vec`` (Gymnasium's default autoreset, ``AutoresetMode.NEXT_STEP``),
  the step that ends a sub-environment's game returns that game's last observation with an
  all-zero ``info["action_mask"]`` row; the next step resets that sub-environment and ignores
  its action (send any index, 0 say), returning the new game's first observation and mask.
  With ``vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}`` the step
  that ends a game returns the new game's observation and mask at once, the last observation
  in ``info["final_obs"]``, so every mask row has a legal action.

>>> import gymnasium
>>> game = gymnasium.make("persian_rummy/PersianRummy-v0", opponents="greedy")
>>> observation, info = game.reset(seed=1)
>>> observation.shape, info["action_mask"].nonzero()[0].tolist()
((30, 53), [0])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

from persian_rummy._extras import needs_extra

with needs_extra("rl", __name__):
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces

from persian_rummy._episode import Episode, check_reset, check_seat, checked_settings, real_number
from persian_rummy.arena import derived_seed
from persian_rummy.bots import Bot, make_bot
from persian_rummy.encoding import NUM_ACTIONS, action_index, int_to_action, legal_indices
from persian_rummy.errors import ArgumentTypeError, IllegalActionError, InvalidArgumentError, shown
from persian_rummy.limits import ACTIONS_PER_DEAL
from persian_rummy.observation import OBSERVATION_HIGH, OBSERVATION_LOW, seat_tensor
from persian_rummy.rules import Rules
from persian_rummy.state import PLAYERS, team_of

__all__ = ["ENV_ID", "PersianRummyEnv"]

#: The id the environment is registered under.
ENV_ID: Final = "persian_rummy/PersianRummy-v0"

Observation = npt.NDArray[np.float32]


class PersianRummyEnv(gymnasium.Env[Observation, np.int64]):
    """The learner at ``seat`` against three bots (see the module documentation).

    ``opponents`` is one bot spec (:func:`~persian_rummy.bots.make_bot`) for the three other
    seats or three in seat order (a list or a tuple); ``rules``, ``dealer`` (a seat 0-3),
    ``reward_scale`` (a finite number above 0), ``illegal_action`` (``"penalize"`` or
    ``"raise"``), ``illegal_reward`` (a finite number), ``max_actions`` (truncate after that
    many learner steps, penalized ones included: ``None`` for ``rules.deals`` times
    :data:`~persian_rummy.limits.ACTIONS_PER_DEAL`) and ``render_mode`` (``"ansi"``: the table
    as the learner sees it); ``partner`` (``"bot"``, or ``"self"``: the learner plays both
    seats of its team, and ``opponents`` are the two other seats' bots) and ``win_bonus`` (a
    finite number, default 0).

    >>> game = PersianRummyEnv(opponents=["random", "greedy", "random"], seat=2)
    >>> observation, info = game.reset(seed=4)
    >>> game.episode.state.current_player, info["action_mask"].sum() > 0
    (2, np.True_)
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's class attribute

    def __init__(
        self,
        opponents: str | Sequence[str] = "random",
        *,
        seat: int = 0,
        rules: Rules = Rules(),
        dealer: int = 0,
        reward_scale: float = 100.0,
        illegal_action: str = "penalize",
        illegal_reward: float = -1.0,
        max_actions: int | None = None,
        render_mode: str | None = None,
        partner: str = "bot",
        win_bonus: float = 0.0,
    ) -> None:
        self.seat = check_seat(seat, "the learner's seat")
        if not isinstance(partner, str) or partner not in ("bot", "self"):
            raise InvalidArgumentError(f"partner must be 'bot' or 'self', not {shown(partner)}")
        #: The seats the learner plays: its own, and with ``partner="self"`` its partner's (R3).
        self.seats = (self.seat,) if partner == "bot" else tuple(sorted((self.seat, (self.seat + 2) % PLAYERS)))
        bots = PLAYERS - len(self.seats)
        count = "three" if bots == 3 else "two"
        if isinstance(opponents, str):
            names = [opponents] * bots
        elif isinstance(opponents, list | tuple):
            names = list(opponents)
        else:
            raise ArgumentTypeError(f"opponents are a bot's spec or {count} in a list, not {shown(opponents)}")
        if len(names) != bots:
            raise InvalidArgumentError(f"R3: {count} opponents, one per other seat, not {len(names)}")
        for name in names:
            make_bot(name)  # a bad spec fails here, not at the first reset
        if not isinstance(illegal_action, str) or illegal_action not in ("penalize", "raise"):
            raise InvalidArgumentError(f"illegal_action must be 'penalize' or 'raise', not {shown(illegal_action)}")
        if render_mode is not None and (
            not isinstance(render_mode, str) or render_mode not in self.metadata["render_modes"]
        ):
            raise InvalidArgumentError(f"render_mode must be None or 'ansi', not {shown(render_mode)}")
        self.rules, self.dealer, self.reward_scale, self.max_actions = checked_settings(
            rules, dealer, reward_scale, max_actions
        )
        self.illegal_reward = real_number(illegal_reward, "illegal_reward")
        self.win_bonus = real_number(win_bonus, "win_bonus")
        self.partner = partner
        self.opponents = tuple(names)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self._limit = self.rules.deals * ACTIONS_PER_DEAL if self.max_actions is None else self.max_actions
        self.observation_space = spaces.Box(OBSERVATION_LOW, OBSERVATION_HIGH, dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._episode: Episode | None = None
        self._bots: list[Bot | None] = []
        self._legal: list[int] = []
        self._actions = 0
        self._pending = 0.0

    @property
    def episode(self) -> Episode:
        """The game being played (after :meth:`reset`); ``episode.state`` is the full state."""
        if self._episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self._episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game (the arena's game ``seed``, else one drawn from the environment's
        generator) and let the bots play until the learner is to move; ``options`` (``None``
        or a dict) are not used. Returns the learner's observation and the info (with
        ``action_mask``). A refused seed or options change nothing (the generator is not
        reseeded)."""
        given = check_reset(seed, options, negative=False)
        super().reset(seed=given)
        game_seed = given if given is not None else int(self.np_random.integers(2**63 - 1))
        self._episode = Episode(game_seed, self.rules, self.dealer)
        others = iter(self.opponents)
        self._bots = [
            None if seat in self.seats else make_bot(next(others), derived_seed(game_seed, "bot", seat))
            for seat in range(PLAYERS)
        ]
        self._actions = 0
        # A deal the bots end before the learner's first move is paid with its first step.
        self._pending = self._advance()
        return self._observation(), self._info()

    def _advance(self) -> float:
        """Let the bots play until the learner is to move or the game is over; the learner's
        reward from the deals that ended meanwhile."""
        episode = self.episode
        reward = 0.0
        while not episode.is_over and episode.state.current_player not in self.seats:
            state = episode.state
            bot = self._bots[state.current_player]
            assert bot is not None  # every seat but the learner's has one
            reward += self._reward(episode.play(bot(state.view(state.current_player))))
        self._legal = [] if episode.is_over else legal_indices(episode.state)
        return reward

    def _reward(self, scores: tuple[int, int] | None) -> float:
        if scores is None:
            return 0.0
        margin = (scores[0] - scores[1]) / self.reward_scale
        if self.win_bonus and self.episode.is_over:  # R26: equal totals are a draw
            totals = self.episode.state.scores
            margin += self.win_bonus * ((totals[0] > totals[1]) - (totals[0] < totals[1]))
        return margin if team_of(self.seat) == 0 else -margin

    @property
    def acting_seat(self) -> int:
        """The learner's seat to act now: ``seat``, or with ``partner="self"`` whichever of
        the team's seats is to move (``seat`` once the game is over).

        >>> game = PersianRummyEnv(partner="self", seat=2)
        >>> _ = game.reset(seed=4)
        >>> game.acting_seat in (0, 2)
        True
        """
        state = self.episode.state
        return state.current_player if not self.episode.is_over and state.current_player in self.seats else self.seat

    def _observation(self) -> Observation:
        return seat_tensor(self.episode.state, self.acting_seat)

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal-action mask of the learner now (all zeros once the game is over).

        >>> game = PersianRummyEnv()
        >>> _ = game.reset(seed=2)
        >>> [str(int_to_action(index)) for index in game.action_masks().nonzero()[0]]
        ['draw', 'take 1']
        """
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[self._legal] = 1
        return mask

    def _info(self, *, illegal: bool = False) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "illegal_action": illegal, "seat": self.acting_seat}

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' until the learner is to move again or the
        game is over: the observation, the reward, terminated, truncated and the info."""
        episode = self.episode
        if episode.is_over:
            raise IllegalActionError("R7", "the game is over: call reset()")
        try:
            index = action_index(action)  # the library's error for a value that is not a whole number
        except InvalidArgumentError:
            if self.illegal_action == "raise":
                raise
            index = -1  # a whole number outside the numbering: illegal like any other
        if index not in self._legal:
            if self.illegal_action == "raise":
                move = int_to_action(index)
                raise IllegalActionError("R12-R20", f"the learner cannot play {move} (action {index}) here")
            self._actions += 1  # a penalized step counts, so an episode of them ends too
            truncated = self._actions >= self._limit
            return self._observation(), self.illegal_reward, False, truncated, self._info(illegal=True)
        reward = self._pending + self._reward(episode.play(int_to_action(index)))
        reward += self._advance()
        self._pending = 0.0
        self._actions += 1
        truncated = self._actions >= self._limit and not episode.is_over
        return self._observation(), reward, episode.is_over, truncated, self._info()

    def render(self) -> str | None:
        """The table as the learner sees it, as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        from persian_rummy.presentation import Style, styled_table

        return styled_table(self.episode.state.view(self.acting_seat), Style(symbols=False))


gymnasium.register(id=ENV_ID, entry_point="persian_rummy.gymnasium:PersianRummyEnv")
