"""One training iteration as a pure, compiled function: play, estimate advantages, update."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple, cast

import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from persian_rummy.errors import InvalidArgumentError
from persian_rummy.learning._config import TrainConfig
from persian_rummy.learning._network import Network, forward, init_params
from persian_rummy.vector import Env, State, sample_policy, team_gae

__all__ = ["Metrics", "TrainState", "Trainer", "Transition"]

_MASKED: Final = -1e9  # the logit of an illegal action: its probability is exactly 0 in float32
_TEAMS: Final = 2


class TrainState(NamedTuple):
    """Everything a run needs to go on, as one tree of arrays (a checkpoint saves it whole).

    ``league`` holds ``league_size`` snapshots of the network stacked on a first axis, in
    ``float16`` (an opponent's play needs no more); ``snapshots`` counts those taken. Per game:
    ``learner``, the team (0 or 1) that the current policy plays in a league game, and
    ``margin``, team 0's score margin so far (in the reward's units).
    """

    network: Network
    optimizer: Any
    league: Network
    snapshots: jax.Array
    games: State
    learner: jax.Array
    margin: jax.Array
    key: jax.Array
    iteration: jax.Array
    finished: jax.Array


class Transition(NamedTuple):
    """One action of every game (``[envs]`` each, ``[horizon, envs]`` once scanned): what the
    mover saw and did, and what came of it. ``trained`` marks the decisions learnt from: every
    live decision of a self-play game, the current policy's in a league game. ``reward`` is each
    team's reward for the action (``[envs, 2]``; the win bonus at a game's end included)."""

    observation: jax.Array
    mask: jax.Array
    action: jax.Array
    log_prob: jax.Array
    value: jax.Array
    team: jax.Array
    live: jax.Array
    trained: jax.Array
    reward: jax.Array
    done: jax.Array
    league_done: jax.Array
    league_won: jax.Array


class Metrics(NamedTuple):
    """What an iteration reports: the PPO losses and the mean entropy of the trained decisions,
    the illegal actions chosen (0: they are masked out), the games finished, and the league
    games finished and won by the current policy."""

    policy_loss: jax.Array
    value_loss: jax.Array
    entropy: jax.Array
    illegal: jax.Array
    games: jax.Array
    league_games: jax.Array
    league_wins: jax.Array


def _groups(rows: int, config: TrainConfig) -> np.ndarray[Any, np.dtype[np.int32]]:
    """Each row's opponent within a device's rows: -1 self-play, ``g`` the league's snapshot ``g``."""
    self_play = round(rows * config.self_play)
    league = rows - self_play
    sizes = [league // config.league_size + (g < league % config.league_size) for g in range(config.league_size)]
    return np.concatenate([np.full(self_play, -1)] + [np.full(size, g) for g, size in enumerate(sizes)]).astype(
        np.int32
    )


class Trainer:
    """The compiled pieces of a run for one :class:`TrainConfig`: ``start()`` makes the first
    :class:`TrainState`, ``iterate(state)`` plays ``horizon`` actions in every game and updates
    the network, a pure function of the state (the same state gives the same next state).

    The games are split over every device JAX sees (data parallel, :mod:`jax.sharding`): each
    holds ``envs / devices`` of them and the network's gradients are averaged across devices;
    ``envs`` must be a multiple of the devices' count.
    """

    def __init__(self, config: TrainConfig, devices: Sequence[Any] | None = None) -> None:
        # Any, not jax.Device: JAX defines Device as a runtime alias, which type checkers
        # other than mypy refuse in an annotation; each device is checked below instead.
        if not isinstance(config, TrainConfig):
            raise InvalidArgumentError(f"a Trainer runs a TrainConfig, not {type(config).__name__}")
        self.config = config
        self.devices = list(jax.devices() if devices is None else devices)
        if not self.devices or not all(isinstance(device, jax.Device) for device in self.devices):
            raise InvalidArgumentError(f"devices must be JAX devices (jax.devices()), not {devices!r}")
        count = len(self.devices)
        if config.envs % count:
            raise InvalidArgumentError(
                f"envs must be a multiple of the {count} devices the games are split over, not {config.envs}"
            )
        self.env = Env(config.rules)
        self.optimizer = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(config.learning_rate))
        self.mesh = Mesh(np.array(self.devices), ("games",))
        self._rows = config.envs // count
        self._group = _groups(self._rows, config)
        #: Where each array of a TrainState lives: the per-game ones split over the devices.
        self.shardings = self._shardings(jax.eval_shape(self._start))
        self.start: Callable[[], TrainState] = jax.jit(self._start, out_shardings=self.shardings)
        self.iterate: Callable[[TrainState], tuple[TrainState, Metrics]] = jax.jit(
            self._iterate, in_shardings=(self.shardings,), out_shardings=(self.shardings, None), donate_argnums=0
        )
        #: ``redeal(state)``: the state with every game dealt afresh from its key (a compact
        #: checkpoint, which keeps no games, is resumed so).
        self.redeal: Callable[[TrainState], TrainState] = jax.jit(
            self._redeal, in_shardings=(self.shardings,), out_shardings=self.shardings
        )

    def _shardings(self, shapes: TrainState) -> TrainState:
        # The games and the per-game arrays split over the devices; the rest on every device.
        split = NamedSharding(self.mesh, PartitionSpec("games"))  # type: ignore[no-untyped-call]
        whole = NamedSharding(self.mesh, PartitionSpec())  # type: ignore[no-untyped-call]
        envs = self.config.envs

        def of(path: tuple[Any, ...], leaf: Any) -> NamedSharding:
            per_game = path[0].name in ("games", "learner", "margin") and leaf.shape[:1] == (envs,)
            return split if per_game else whole

        return cast("TrainState", jax.tree_util.tree_map_with_path(of, shapes))

    def _start(self) -> TrainState:
        config = self.config
        key, init_key = jax.random.split(jax.random.PRNGKey(config.seed))
        network = init_params(init_key, config.hidden)
        league = jax.tree_util.tree_map(lambda leaf: jnp.zeros((config.league_size, *leaf.shape), jnp.float16), network)
        empty = jnp.zeros(config.envs, jnp.int32)
        return self._redeal(
            TrainState(
                network=network,
                optimizer=self.optimizer.init(network),
                league=league,
                snapshots=jnp.int32(0),
                games=jax.eval_shape(jax.vmap(self.env.init), jax.random.split(key, config.envs)),
                learner=empty,
                margin=empty.astype(jnp.float32),
                key=key,
                iteration=jnp.int32(0),
                finished=jnp.int32(0),
            )
        )

    def _redeal(self, state: TrainState) -> TrainState:
        config = self.config
        key, env_key, side_key = jax.random.split(state.key, 3)
        return state._replace(
            games=jax.vmap(self.env.init)(jax.random.split(env_key, config.envs)),
            learner=jax.random.randint(side_key, (config.envs,), 0, _TEAMS),
            margin=jnp.zeros(config.envs, jnp.float32),
            key=key,
        )

    # --- Playing ------------------------------------------------------------------------

    def _by_device(self, values: jax.Array) -> jax.Array:
        # [envs, ...] as [devices, rows, ...]: slicing rows then moves nothing between devices.
        return values.reshape((len(self.devices), self._rows, *values.shape[1:]))

    def _opponent_logits(self, state: TrainState, observations: jax.Array, logits: jax.Array) -> jax.Array:
        """Each row's opponent's logits: the current policy's in self-play rows and in the rows
        of a snapshot not taken yet, else its snapshot's (each computed on its own rows only)."""
        parts = [self._by_device(logits)[:, : int(np.sum(self._group < 0))]]
        seen = self._by_device(observations)
        for g in range(self.config.league_size):
            rows = np.flatnonzero(self._group == g)
            if rows.size == 0:
                continue
            start, stop = int(rows[0]), int(rows[-1]) + 1
            snapshot = jax.tree_util.tree_map(lambda stacked, g=g: stacked[g], state.league)
            part = seen[:, start:stop]
            theirs = forward(snapshot, part.reshape(-1, part.shape[-1]))[0].reshape(part.shape[0], stop - start, -1)
            mine = self._by_device(logits)[:, start:stop]
            parts.append(jnp.where(g < state.snapshots, theirs, mine))
        return jnp.concatenate(parts, axis=1).reshape(logits.shape)

    def _play(self, state: TrainState, step: jax.Array) -> tuple[TrainState, Transition]:
        """One action in every game; every ``reset_every`` actions the finished games are
        replaced by fresh ones."""
        config = self.config
        key, choose_key = jax.random.split(state.key)
        games = state.games
        live = ~games.terminated
        observations = games.observation.reshape(config.envs, -1)
        mask = games.legal_action_mask
        logits, value = forward(state.network, observations)
        team = games.current_player % _TEAMS
        group = jnp.tile(jnp.asarray(self._group), len(self.devices))
        in_league = (group >= 0) & (group < state.snapshots)
        learner_turn = team == state.learner
        played = jnp.where(
            (in_league & ~learner_turn)[:, None], self._opponent_logits(state, observations, logits), logits
        )
        action = jax.vmap(sample_policy)(jax.random.split(choose_key, config.envs), played, mask)
        log_probs = jax.nn.log_softmax(jnp.where(mask, logits, _MASKED))
        log_prob = jnp.take_along_axis(log_probs, action[:, None], axis=1)[:, 0]
        after = jax.vmap(self.env.step)(games, action)
        margin = state.margin + after.rewards[:, 0]
        done = after.terminated & live
        # R25: the team ahead after the last deal wins the game.
        reward = after.rewards[:, 0] + jnp.where(done, jnp.sign(margin) * config.win_bonus, 0.0)
        learner_sign = 1 - 2 * state.learner
        record = Transition(
            observation=observations,
            mask=mask,
            action=action,
            log_prob=log_prob,
            value=value,
            team=team,
            live=live,
            trained=live & (~in_league | learner_turn),
            reward=jnp.stack([reward, -reward], axis=1),
            done=done,
            league_done=done & in_league,
            league_won=done & in_league & (margin * learner_sign > 0),
        )
        state = state._replace(
            games=after, margin=margin, key=key, finished=state.finished + jnp.sum(done, dtype=jnp.int32)
        )
        fresh = ((step + 1) % config.reset_every == 0) | (step == config.horizon - 1)
        return jax.lax.cond(fresh, self._deal_afresh, lambda same: same, state), record

    def _deal_afresh(self, state: TrainState) -> TrainState:
        """The finished games replaced by new ones, each with a new learner team."""
        config = self.config
        key, deal_key, side_key = jax.random.split(state.key, 3)
        over = state.games.terminated
        fresh = jax.vmap(self.env.init)(jax.random.split(deal_key, config.envs))
        games = jax.tree_util.tree_map(
            lambda new, old: jnp.where(over.reshape((-1,) + (1,) * (old.ndim - 1)), new, old), fresh, state.games
        )
        learner = jnp.where(over, jax.random.randint(side_key, (config.envs,), 0, _TEAMS), state.learner)
        return state._replace(games=games, learner=learner, margin=jnp.where(over, 0.0, state.margin), key=key)

    # --- Learning -----------------------------------------------------------------------

    def _advantages(self, state: TrainState, record: Transition) -> jax.Array:
        """GAE over each team's own decisions in each game (:func:`~persian_rummy.vector.team_gae`):
        the other team's actions pass their rewards on to the team's previous decision.
        ``[horizon, envs]``, 0 where no decision."""
        config = self.config
        games = state.games
        mover = games.current_player
        # The value of each team's next decision, to bootstrap the unfinished games.
        other = jax.vmap(self.env.observe)(games, (mover + 1) % 4).reshape(config.envs, -1).astype(jnp.float32)
        mover_value = forward(state.network, games.observation.reshape(config.envs, -1))[1]
        other_value = forward(state.network, other)[1]
        teams = jnp.arange(_TEAMS)
        last = jnp.where((mover % _TEAMS)[:, None] == teams, mover_value[:, None], other_value[:, None])
        last = jnp.where(games.terminated[:, None], 0.0, last)

        return team_gae(
            record.reward,
            record.value,
            record.team,
            record.live,
            record.done,
            last,
            gamma=config.gamma,
            gae_lambda=config.gae_lambda,
        )

    def _loss(self, network: Network, batch: Transition, advantage: jax.Array, returns: jax.Array) -> Any:
        config = self.config
        logits, value = forward(network, batch.observation)
        log_probs = jax.nn.log_softmax(jnp.where(batch.mask, logits, _MASKED))
        log_prob = jnp.take_along_axis(log_probs, batch.action[:, None], axis=1)[:, 0]
        ratio = jnp.exp(log_prob - batch.log_prob)
        policy_loss = -jnp.minimum(ratio * advantage, jnp.clip(ratio, 1 - config.clip, 1 + config.clip) * advantage)
        value_loss = (value - returns) ** 2
        entropy = -jnp.sum(jnp.where(batch.mask, jnp.exp(log_probs) * log_probs, 0.0), axis=1)
        weight = batch.trained.astype(jnp.float32)
        total = jnp.maximum(jnp.sum(weight), 1.0)

        def mean(values: jax.Array) -> jax.Array:
            return jnp.sum(values * weight) / total

        loss = mean(policy_loss) + config.value_coef * mean(value_loss) - config.entropy * mean(entropy)
        return loss, (mean(policy_loss), mean(value_loss), mean(entropy))

    def _update(
        self, state: TrainState, record: Transition, advantages: jax.Array, key: jax.Array
    ) -> tuple[TrainState, tuple[jax.Array, jax.Array, jax.Array]]:
        """``epochs`` passes over the iteration's decisions in ``minibatches`` shuffled parts.
        Each device shuffles its own games' rows, so a minibatch moves nothing between devices."""
        config = self.config
        devices = len(self.devices)
        per_device = self._rows * config.horizon
        chunk = max(1, per_device // config.minibatches)

        def by_device(values: jax.Array) -> jax.Array:  # [horizon, envs, ...] -> [devices, rows * horizon, ...]
            values = jnp.swapaxes(values, 0, 1)
            return values.reshape((devices, per_device, *values.shape[2:]))

        trained = record.trained
        count = jnp.maximum(jnp.sum(trained), 1)
        centre = jnp.sum(jnp.where(trained, advantages, 0.0)) / count
        spread = jnp.sqrt(jnp.sum(jnp.where(trained, (advantages - centre) ** 2, 0.0)) / count) + 1e-8
        rows = jax.tree_util.tree_map(by_device, record)
        normalised = by_device((advantages - centre) / spread)
        returns = by_device(advantages + record.value)

        def minibatch(carry: tuple[Network, Any], indices: jax.Array) -> tuple[tuple[Network, Any], Any]:
            network, optimizer = carry

            def take(values: jax.Array) -> jax.Array:
                part = values[:, indices]
                return part.reshape((-1, *part.shape[2:]))

            batch = jax.tree_util.tree_map(take, rows)
            grad = jax.value_and_grad(self._loss, has_aux=True)
            (_, info), grads = grad(network, batch, take(normalised), take(returns))
            updates, optimizer = self.optimizer.update(grads, optimizer, network)
            return (cast("Network", optax.apply_updates(network, updates)), optimizer), info

        def epoch(carry: tuple[Network, Any], epoch_key: jax.Array) -> tuple[tuple[Network, Any], Any]:
            order = jax.random.permutation(epoch_key, per_device)[: chunk * (per_device // chunk)]
            return jax.lax.scan(minibatch, carry, order.reshape(-1, chunk))

        (network, optimizer), info = jax.lax.scan(
            epoch, (state.network, state.optimizer), jax.random.split(key, config.epochs)
        )
        means = cast("tuple[jax.Array, jax.Array, jax.Array]", jax.tree_util.tree_map(jnp.mean, info))
        return state._replace(network=network, optimizer=optimizer), means

    def _iterate(self, state: TrainState) -> tuple[TrainState, Metrics]:
        config = self.config
        state, record = jax.lax.scan(self._play, state, jnp.arange(config.horizon))
        advantages = self._advantages(state, record)
        key, update_key = jax.random.split(state.key)
        state, (policy_loss, value_loss, entropy) = self._update(
            state._replace(key=key), record, advantages, update_key
        )
        iteration = state.iteration + 1
        # Every snapshot_every iterations the policy joins the league, replacing the oldest.
        take = iteration % config.snapshot_every == 0
        slot = state.snapshots % config.league_size
        league = jax.tree_util.tree_map(
            lambda stacked, leaf: jnp.where(take, stacked.at[slot].set(leaf.astype(stacked.dtype)), stacked),
            state.league,
            state.network,
        )
        metrics = Metrics(
            policy_loss=policy_loss,
            value_loss=value_loss,
            entropy=entropy,
            # Masked out, an illegal action has probability 0: this counts 0 (the tests check).
            illegal=jnp.sum(
                ~jnp.take_along_axis(record.mask, record.action[..., None], axis=2) & record.live[..., None]
            ),
            games=jnp.sum(record.done, dtype=jnp.int32),
            league_games=jnp.sum(record.league_done, dtype=jnp.int32),
            league_wins=jnp.sum(record.league_won, dtype=jnp.int32),
        )
        state = state._replace(
            league=league,
            snapshots=jnp.where(take, state.snapshots + 1, state.snapshots),
            iteration=iteration,
        )
        return state, metrics
