"""The search player: determinized search guided by the learned policy (needs numpy).

:class:`ExpertBot` plays a seat as the learned player (:class:`~persian_rummy.policy.NeuralBot`)
does, except where the policy is unsure (its best legal action has less than :data:`SURE` of
the probability): there it searches. It deals ``samples`` worlds consistent with what the seat
has seen (:func:`~persian_rummy.worlds.determinize`: the view, and the public history when it
is given an :class:`~persian_rummy.InfoState`, R13, R27), plays each of the policy's
``candidates`` best actions in each world, lets the policy play every seat from there for
``horizon`` turns (each seat reading only its own view of the sampled world), and values where
each rollout stopped. It keeps the policy's own choice unless another candidate did better in
the same worlds by more than :data:`CLEAR` standard errors, so that the noise of a few samples
does not undo what the policy learned.

The candidates of a decision are compared with common random numbers: they meet the same
worlds, the same rollout policy (which plays its best action, drawing nothing) and, where a
rollout runs past the end of the round, the same next deal (each world's own seed); and every
candidate's leaf is the same number of turns after the decision (a candidate that ends the
seat's turn counts that turn), so a difference of values measures the candidates, not the
luck of their samples.

``think_ms`` bounds a searched decision's time: the worlds are searched a few at a time and
the search stops when the time is spent, answering from the worlds it finished (the policy's
choice if none). Such a search is anytime, and not reproducible from machine to machine; the
sample knobs alone (``think_ms=None``, the default) play the same game again anywhere.

A leaf is valued by the policy's value head when the policy has one (:attr:`Policy.has_value
<persian_rummy.policy.Policy.has_value>`): the rollout then stops at the first turn of the
searching team once ``horizon`` turns have passed since the decision and the head values that seat's observation, added to
the score margin so far (in the head's units: points over 100). Without a value head the
leaf is the searching team's score margin if the round ended there (R23-R25), as
:class:`~persian_rummy.bots.MonteCarloBot` values its rollouts.
With ``critic=1`` the full-state critic (:mod:`persian_rummy.critic`) values the leaf from
the head's estimate and the whole world: the world is the search's own, so it may read every
hand of it.

The rollouts of every world and candidate (of the worlds between two looks at the clock,
with ``think_ms``) advance together, so that each step's observations go through the network
as one batch, and only the legal actions' logits are computed.

>>> from persian_rummy import new_game
>>> bot = ExpertBot(3, samples=4)
>>> bot
ExpertBot(seed=3, samples=4, horizon=16, candidates=2)
>>> bot(new_game(1).view(1))  # the only legal action: seat 1 draws first (R6)
DrawStock()
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from persian_rummy._bot_protocol import bot_knob, bot_seed, out_of_turn
from persian_rummy._greedy import score_margin
from persian_rummy.actions import Action
from persian_rummy.beliefs import shipped_beliefs
from persian_rummy.critic import Critic, shipped_critic
from persian_rummy.dealing import next_deal
from persian_rummy.encoding import ACTIONS, legal_indices
from persian_rummy.engine import play
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, PolicyFileError, excerpt
from persian_rummy.observation import observation_tensor, seat_tensor
from persian_rummy.policy import Policy, shipped_policy
from persian_rummy.rules import Rules
from persian_rummy.state import GameState, Phase, team_of
from persian_rummy.view import InfoState, PlayerView
from persian_rummy.worlds import determinize, seat_seed

__all__ = ["CLEAR", "ROLLOUT_LIMIT", "SURE", "THINK_LIMIT_MS", "WIN_VALUE", "ExpertBot"]

#: The most rollout turns one decision of :class:`ExpertBot` may cost: the largest
#: ``samples * candidates * horizon`` (a million turns, minutes), so that one move is bounded
#: work whatever a spec asks.
ROLLOUT_LIMIT: Final = 1_000_000
#: The longest ``think_ms`` of :class:`ExpertBot` (a minute a decision), so that one move is
#: bounded time whatever a spec asks.
THINK_LIMIT_MS: Final = 60_000
#: How many worlds a time-bounded search (``think_ms``) plays out between looks at the clock.
_WORLDS_A_LOOK: Final = 2
#: The probability the policy's best action must have for the bot to play it without a search.
SURE: Final = 0.9
#: How many standard errors (of the differences between two candidates' values in the same
#: worlds) another candidate must beat the policy's choice by to be played instead.
CLEAR: Final = 1.0
#: What winning the game is worth in the value head's units, over the final margin (the
#: ``win_bonus`` of :class:`~persian_rummy.learning.TrainConfig`, 1 by default): the value of
#: a rollout that reaches the end of the game.
WIN_VALUE: Final = 1.0

Array = npt.NDArray[np.float32]


class _Network:
    """The policy's arrays as the rollouts read them: the policy head by action, so that only
    the legal actions' logits of many positions are computed (a gather and a row-wise dot
    product cost less than the whole head)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        weight, self.bias = policy.layers[-1]
        self.head = np.ascontiguousarray(weight.T)

    def choose(self, observations: Array, legal: Sequence[list[int]]) -> list[int]:
        """For each observation, its legal action of the highest logit (the first on a tie)."""
        features = self.policy.features(observations)
        lengths = [len(indices) for indices in legal]
        rows = np.repeat(np.arange(len(legal)), lengths)
        columns = np.fromiter((index for indices in legal for index in indices), np.intp, sum(lengths))
        scores = np.einsum("ij,ij->i", features[rows], self.head[columns]) + self.bias[columns]
        chosen = []
        start = 0
        for indices, length in zip(legal, lengths, strict=True):
            chosen.append(indices[int(np.argmax(scores[start : start + length]))])
            start += length
        return chosen

    def values(self, observations: Array) -> Array:
        """The value head's estimate for each observation."""
        return self.policy.evaluate(observations)[1]

    def step(self, states: Sequence[GameState], live: Sequence[int]) -> list[tuple[int, int]]:
        """The action each live state (by its number in ``states``) plays next, as
        ``(number, action index)``: a forced one at once, the others the policy's best, every
        observation of the step in one batch."""
        chosen: list[tuple[int, int]] = []
        asking: list[int] = []
        options: list[list[int]] = []
        for number in live:
            legal = legal_indices(states[number])
            if len(legal) == 1:
                chosen.append((number, legal[0]))
            else:
                asking.append(number)
                options.append(legal)
        if asking:
            observations = np.stack(
                [seat_tensor(states[number], states[number].current_player).reshape(-1) for number in asking]
            )
            chosen.extend(zip(asking, self.choose(observations, options), strict=True))
        return chosen


class ExpertBot:
    """Determinized search guided by a :class:`~persian_rummy.policy.Policy` (the shipped
    one by default; see the module's docstring for the search).

    Knobs (whole numbers): ``samples`` worlds dealt for each searched decision (at least 1;
    with ``think_ms``, the most it deals),
    ``candidates`` actions tried (the policy's best, at least 1: one plays as
    :class:`~persian_rummy.policy.NeuralBot`), ``horizon`` turns each rollout plays before its
    leaf is valued (at least 0; about 20 reach the end of the round from most positions). A
    searched decision costs about ``samples * candidates * horizon`` rollout turns, at most
    :data:`ROLLOUT_LIMIT`; the defaults were chosen on measured strength and time (the docs'
    "Playing strength" page). ``think_ms`` (1 to :data:`THINK_LIMIT_MS`, or ``None``, the
    default) stops a searched decision once that many milliseconds are spent, answering from
    the worlds searched so far: anytime, and so not the same game on every machine. Decisions where the policy is sure and forced moves are
    answered at once. ``beliefs`` (0, the default, or 1) deals the worlds of a decision given
    an information state from the learned card-location model
    (:func:`~persian_rummy.beliefs.shipped_beliefs`, through ``odds`` of
    :func:`~persian_rummy.worlds.determinize`) instead of uniformly; the worlds stay exactly
    consistent with the history. ``critic`` (0, the default, or 1) values the rollouts' leaves
    with the full-state critic (:func:`~persian_rummy.critic.shipped_critic`), which reads
    every hand of the world the search dealt and the value head's estimate of the seat to
    move's view, in place of that estimate alone. The bot reads only the view
    it is given, or the information state (it sets ``takes_info_state``, so the arena hands
    it one); each decision's sampling comes from its seed and what its seat has seen
    (:func:`~persian_rummy.worlds.seat_seed`), so the same seed plays the same game again and
    one bot asked for several seats answers each as a fresh bot would. It refuses a view of other rules than the policy's
    (:class:`~persian_rummy.PolicyFileError`).

    >>> from persian_rummy import new_game
    >>> ExpertBot(1, candidates=1)(new_game(2).view(1))
    DrawStock()
    """

    __slots__ = (
        "_beliefs",
        "_critic",
        "_network",
        "beliefs",
        "candidates",
        "critic",
        "horizon",
        "policy",
        "samples",
        "seed",
        "think_ms",
    )

    #: The arena hands this bot its seat's information state (the view and the public history).
    takes_info_state: Final = True
    #: The arena makes this class for each seat from the seat's seed when the class itself is
    #: given as a bot spec (``run_match(GreedyBot, ...)``), as :class:`~persian_rummy.arena.BotFactory` would.
    made_from_seed: Final = True

    def __init__(
        self,
        seed: int = 0,
        *,
        samples: int = 5,
        horizon: int = 16,
        candidates: int = 2,
        think_ms: int | None = None,
        beliefs: int = 0,
        critic: int = 0,
        policy: Policy | None = None,
    ) -> None:
        seed = bot_seed("ExpertBot", seed)
        self.samples = bot_knob("ExpertBot", "samples", samples, 1)
        self.horizon = bot_knob("ExpertBot", "horizon", horizon, 0)
        self.candidates = bot_knob("ExpertBot", "candidates", candidates, 1)
        if think_ms is not None and bot_knob("ExpertBot", "think_ms", think_ms, 1) > THINK_LIMIT_MS:
            raise InvalidArgumentError(
                f"ExpertBot think_ms is at most {THINK_LIMIT_MS:,} (a minute a decision), not {excerpt(think_ms)}"
            )
        self.think_ms = think_ms
        if bot_knob("ExpertBot", "beliefs", beliefs, 0) > 1:
            raise InvalidArgumentError(
                f"ExpertBot beliefs is 0 (uniform worlds) or 1 (learned), not {excerpt(beliefs)}"
            )
        self.beliefs = beliefs
        self._beliefs = shipped_beliefs() if beliefs else None
        if bot_knob("ExpertBot", "critic", critic, 0) > 1:
            raise InvalidArgumentError(
                f"ExpertBot critic is 0 (the value head) or 1 (the full-state critic), not {excerpt(critic)}"
            )
        self.critic = critic
        self._critic: Critic | None = shipped_critic() if critic else None
        if samples * candidates * max(horizon, 1) > ROLLOUT_LIMIT:
            raise InvalidArgumentError(
                f"ExpertBot samples * candidates * horizon (the rollout turns of one decision) is at most "
                f"{ROLLOUT_LIMIT:,}, so that one move is bounded work, not {excerpt(samples * candidates * horizon)}"
            )
        if policy is not None and not isinstance(policy, Policy):
            raise ArgumentTypeError(f"an ExpertBot plays a Policy, not {excerpt(policy)}")
        self.seed = seed
        self.policy = shipped_policy() if policy is None else policy
        self._network = _Network(self.policy)

    def require_rules(self, rules: Rules) -> None:
        """Refuse (:class:`~persian_rummy.PolicyFileError`) to play under other rules than the
        policy's, saying how to train a policy for them."""
        if rules != self.policy.rules:
            raise PolicyFileError(
                f"this policy was trained for the rules {str(self.policy.rules)!r}, not {str(rules)!r}: "
                f"train one for them with `persian-rummy train --rules {str(rules)!r} --out DIR`"
            )

    def __call__(self, view: PlayerView | InfoState) -> Action:
        info = view if isinstance(view, InfoState) else None
        seen = view.view if isinstance(view, InfoState) else view
        if not isinstance(seen, PlayerView):
            raise ArgumentTypeError(f"a bot chooses from a PlayerView or an InfoState, not {excerpt(view)}")
        self.require_rules(seen.rules)
        legal = legal_indices(seen)
        if not legal:
            raise out_of_turn(seen)
        if len(legal) == 1:
            return ACTIONS[legal[0]]
        candidates = self._candidates(seen, legal)
        if len(candidates) == 1:
            return ACTIONS[candidates[0]]
        return ACTIONS[candidates[self._decide(seen if info is None else info, seen.seat, candidates)]]

    def _candidates(self, view: PlayerView, legal: list[int]) -> list[int]:
        """The legal actions worth searching, the policy's choice first (then by logit); that
        choice alone when the policy is sure of it."""
        logits = self.policy.logits(observation_tensor(view).reshape(-1))[legal].astype(np.float64)
        # A stable sort: the first of equal logits first, as NeuralBot's argmax takes it.
        order = sorted(range(len(legal)), key=lambda position: -logits[position])
        # The best action's probability is 1 / weights.sum().
        weights = np.exp(logits - logits.max())
        if 1 / weights.sum() >= SURE:
            return [legal[order[0]]]
        return [legal[position] for position in order[: self.candidates]]

    def _decide(self, view: PlayerView | InfoState, seat: int, candidates: list[int]) -> int:
        """The position in ``candidates`` of the action to play: the policy's choice (the
        first) unless another did better in the same worlds by more than :data:`CLEAR`
        standard errors of the paired differences."""
        rng = random.Random(seat_seed(self.seed, view))
        deadline = None if self.think_ms is None else time.perf_counter() + self.think_ms / 1000
        step = self.samples if deadline is None else _WORLDS_A_LOOK
        rows: list[npt.NDArray[np.float64]] = []
        searched = 0
        odds = None if self._beliefs is None or not isinstance(view, InfoState) else self._beliefs.odds(view)
        while searched < self.samples and (deadline is None or time.perf_counter() < deadline):
            count = min(step, self.samples - searched)
            starts: list[GameState] = []
            seeds: list[int] = []
            for _ in range(count):
                world = determinize(view, rng, odds=odds)
                seed = rng.getrandbits(63)  # the world's next deals: the same for every candidate
                starts.extend(play(world, ACTIONS[index]) for index in candidates)
                seeds.extend([seed] * len(candidates))
            rows.append(self._rollouts(starts, seat, seeds).reshape(count, len(candidates)))
            searched += count
        if not rows:
            return 0
        values = np.concatenate(rows)
        differences = values[:, 1:] - values[:, :1]
        gains = differences.mean(axis=0)
        if len(values) > 1:
            gains -= CLEAR * differences.std(axis=0, ddof=1) / math.sqrt(len(values))
        best = int(np.argmax(gains))  # the first of equal gains
        return best + 1 if gains[best] > 0 else 0

    def _rollouts(self, states: list[GameState], seat: int, seeds: list[int]) -> npt.NDArray[np.float64]:
        """Play the policy from each state (a candidate just played by ``seat``), all of them
        a step at a time, and value the leaves for ``seat``'s team; a rollout past the end of
        the round deals on from its seed (``game_seed`` of :func:`~persian_rummy.next_deal`)."""
        team = team_of(seat)
        valued = self._valued
        # The turns from the decision: a candidate that passed the turn on has played one.
        turns = [self.horizon - (state.current_player != seat) for state in states]
        results = np.zeros(len(states))
        leaves: list[int] = []
        live = []
        for number, state in enumerate(states):
            if valued and state.phase is Phase.ROUND_OVER:
                states[number] = state = next_deal(state, game_seed=seeds[number])
            if state.phase.is_live:
                live.append(number)
            else:
                results[number] = self._final(state, team)
        while live:
            chosen = self._network.step(states, live)
            live = []
            for number, index in chosen:
                state = states[number]
                mover = state.current_player
                state = play(state, ACTIONS[index])
                if state.current_player != mover:
                    turns[number] -= 1
                if valued and state.phase is Phase.ROUND_OVER:
                    state = next_deal(state, game_seed=seeds[number])  # a value reaches past the deal
                states[number] = state
                if not state.phase.is_live:
                    results[number] = self._final(state, team)
                elif turns[number] > 0 or (valued and team_of(state.current_player) != team):
                    live.append(number)
                elif valued:
                    leaves.append(number)
                else:
                    results[number] = score_margin(state, team)
        if leaves:
            observations = np.stack([seat_tensor(states[n], states[n].current_player).reshape(-1) for n in leaves])
            estimates = self._network.values(observations) if self.policy.has_value else np.zeros(len(leaves))
            if self._critic is not None:
                # The search dealt these worlds: the critic may read every hand of them.
                estimates = self._critic.values([states[n] for n in leaves], estimates.tolist())
            for number, estimate in zip(leaves, estimates, strict=True):
                results[number] = self._banked(states[number], team) + float(estimate)
        return results

    def _final(self, state: GameState, team: int) -> float:
        """The value of a state past the round's play: its margin, in the value head's units
        (and the game won or lost) when the policy has one."""
        margin = score_margin(state, team)
        if not self._valued:
            return margin
        return margin / 100 + (math.copysign(WIN_VALUE, margin) if margin else 0.0)

    @property
    def _valued(self) -> bool:
        """Whether the leaves are valued (by the critic or the value head) in the head's units."""
        return self._critic is not None or self.policy.has_value

    @staticmethod
    def _banked(state: GameState, team: int) -> float:
        """The margin of the deals already scored, in the value head's units (points over 100)."""
        first, second = state.scores
        return (first - second if team == 0 else second - first) / 100

    def __repr__(self) -> str:
        return (
            f"ExpertBot(seed={self.seed}, samples={self.samples}, horizon={self.horizon}, candidates={self.candidates}"
            + ("" if self.think_ms is None else f", think_ms={self.think_ms}")
            + (", beliefs=1" if self.beliefs else "")
            + (", critic=1" if self.critic else "")
            + ")"
        )
