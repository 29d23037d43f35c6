"""Training a player: masked PPO self-play on the batched engine (needs the ``[train]`` extra).

:func:`train` plays many whole games (every deal, R7) side by side on
:mod:`persian_rummy.vector` and improves one policy network by proximal policy optimisation.
In each game one team is the learner: both partners play the current policy, each from its own
seat's observation (R27); the other team plays the current policy too or, in a share of the
games, one of the earlier snapshots kept in a league, so that the policy does not forget how to
beat older play. The illegal actions are masked out of every choice, so none is ever played.
A team's reward is each deal's margin over 100 and, at the game's end, ``win_bonus`` for a win
(its opposite for a loss).

Everything the run needs to go on (the network, the optimiser, the league, the games in play and
the random key) is one tree of arrays: :func:`train` writes it atomically to ``checkpoint.npz``
every ``checkpoint_seconds`` (arrays and a JSON header, never a pickle) and, with
``resume=True``, reads it back and goes on exactly as if it had not stopped. Every
``evaluate_seconds`` the current policy plays the scalar bots through
:func:`~persian_rummy.arena.run_match` (paired deals, Wilson intervals), and each evaluation is
a line of ``log.jsonl``; ``policy.npz`` is the final policy and ``best.npz`` the one that did
best against ``greedy``, both :class:`~persian_rummy.policy.Policy` files.

>>> config = TrainConfig(hidden=(8,), envs=2, horizon=4)
>>> config.samples_per_iteration
8
"""

from __future__ import annotations

import io
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, cast

import attrs

from persian_rummy._extras import needs_extra

with needs_extra("train", __name__):
    import jax
    import jax.numpy as jnp
    import numpy as np
    import optax

from persian_rummy.arena import run_match
from persian_rummy.errors import InvalidArgumentError, PolicyFileError, excerpt
from persian_rummy.policy import OBSERVATION_SIZE, NeuralBot, Policy, _write_atomically
from persian_rummy.rules import Rules
from persian_rummy.vector import Env

__all__ = ["TrainConfig", "Trainer", "train"]

# 2: the games in a checkpoint hold the decks of their later deals (the engine's Position.decks).
_CHECKPOINT_VERSION: Final = 2
_MASKED: Final = -1e9  # the logit of an illegal action: its probability is exactly 0 in float32
Params = dict[str, dict[str, jax.Array]]
TrainState = dict[str, Any]
_TRAINERS: dict[TrainConfig, Trainer] = {}
_Carry = tuple[jax.Array, jax.Array, jax.Array]  # the advantage estimate's backward pass


def _positive(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0 or not math.isfinite(value):
        raise InvalidArgumentError(f"{attribute.name} must be a number above 0, not {excerpt(value)}")


def _share(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise InvalidArgumentError(f"{attribute.name} must be a number from 0 to 1, not {excerpt(value)}")


def _widths(_instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, tuple) or not value or not all(type(v) is int and 1 <= v <= 4096 for v in value):
        raise InvalidArgumentError(f"hidden must be a tuple of widths 1-4096, not {excerpt(value)}")


@attrs.frozen
class TrainConfig:
    """The knobs of a training run; a checkpoint records them and a resumed run must match.

    ``hidden`` are the network's hidden widths; ``envs`` games are played side by side,
    ``horizon`` actions each per iteration, then ``epochs`` passes of ``minibatches`` PPO
    updates; ``league_size`` earlier snapshots (one taken every ``snapshot_every``
    iterations) play the opponents of ``1 - current_share`` of the games.
    """

    rules: Rules = Rules()
    seed: int = attrs.field(default=0, validator=attrs.validators.instance_of(int))
    hidden: tuple[int, ...] = attrs.field(default=(128, 128), validator=_widths)
    envs: int = attrs.field(default=64, validator=_positive)
    horizon: int = attrs.field(default=64, validator=_positive)
    epochs: int = attrs.field(default=2, validator=_positive)
    minibatches: int = attrs.field(default=4, validator=_positive)
    learning_rate: float = attrs.field(default=3e-4, validator=_positive)
    gamma: float = attrs.field(default=1.0, validator=_share)
    gae_lambda: float = attrs.field(default=0.95, validator=_share)
    clip: float = attrs.field(default=0.2, validator=_positive)
    entropy: float = attrs.field(default=0.01, validator=_share)
    value_coef: float = attrs.field(default=0.5, validator=_positive)
    league_size: int = attrs.field(default=4, validator=_positive)
    snapshot_every: int = attrs.field(default=25, validator=_positive)
    current_share: float = attrs.field(default=0.5, validator=_share)
    win_bonus: float = attrs.field(default=1.0, validator=_share)

    @property
    def samples_per_iteration(self) -> int:
        """Actions played per iteration (about half of them the learner's)."""
        return self.envs * self.horizon

    def to_json(self) -> str:
        """The knobs as JSON (the rules as their text)."""
        fields = attrs.asdict(self, recurse=False)
        fields["rules"] = str(self.rules)
        fields["hidden"] = list(self.hidden)
        return json.dumps(fields, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> TrainConfig:
        """Read :meth:`to_json` back."""
        fields = json.loads(text)
        fields["rules"] = Rules.parse(fields["rules"])
        fields["hidden"] = tuple(fields["hidden"])
        return cls(**fields)


# --- The network --------------------------------------------------------------------------


def init_params(key: jax.Array, hidden: Sequence[int]) -> Params:
    """Hidden layers (He-scaled), a policy head near zero (a near-uniform first policy) and a value head."""
    params: Params = {}
    width = OBSERVATION_SIZE
    keys = jax.random.split(key, len(hidden) + 2)
    for number, size in enumerate(hidden):
        scale = math.sqrt(2.0 / width)
        params[f"hidden{number}"] = {
            "w": jax.random.normal(keys[number], (width, size), jnp.float32) * scale,
            "b": jnp.zeros(size, jnp.float32),
        }
        width = size
    params["policy"] = {
        "w": jax.random.normal(keys[-2], (width, Env.num_actions), jnp.float32) * 0.01,
        "b": jnp.zeros(Env.num_actions, jnp.float32),
    }
    params["value"] = {"w": jax.random.normal(keys[-1], (width, 1), jnp.float32) * 0.01, "b": jnp.zeros(1, jnp.float32)}
    return params


def forward(params: Params, observations: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Logits ``[batch, actions]`` and values ``[batch]``; the logits are exactly
    :meth:`Policy.logits <persian_rummy.policy.Policy.logits>` of the exported policy."""
    values = observations
    number = 0
    while f"hidden{number}" in params:
        layer = params[f"hidden{number}"]
        values = jax.nn.relu(values @ layer["w"] + layer["b"])
        number += 1
    logits = values @ params["policy"]["w"] + params["policy"]["b"]
    value = (values @ params["value"]["w"] + params["value"]["b"])[:, 0]
    return logits, value


def export_policy(params: Params, rules: Rules, training: dict[str, Any]) -> Policy:
    """The playing half of ``params`` as a :class:`~persian_rummy.policy.Policy`."""
    names = sorted((name for name in params if name.startswith("hidden")), key=lambda name: int(name[6:]))
    layers = tuple(
        (np.asarray(params[name]["w"], np.float32), np.asarray(params[name]["b"], np.float32))
        for name in names + ["policy"]
    )
    return Policy(rules, layers, training)


# --- One iteration: play, estimate advantages, update -------------------------------------


class Trainer:
    """The compiled pieces of a run for one :class:`TrainConfig`: ``start()`` makes the
    first train state, ``iterate(state)`` plays ``horizon`` actions in every game and updates
    the network (a pure function of the state: the same state gives the same next state)."""

    def __init__(self, config: TrainConfig) -> None:
        self.config = config
        self.env = Env(config.rules)
        self.optimizer = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(config.learning_rate))
        self.iterate: Callable[[TrainState], tuple[TrainState, dict[str, jax.Array]]] = jax.jit(self._iterate)
        self.start: Callable[[], TrainState] = jax.jit(self._start)

    @classmethod
    def of(cls, config: TrainConfig) -> Trainer:
        """The trainer of ``config``, compiled once per process."""
        if config not in _TRAINERS:
            _TRAINERS[config] = cls(config)
        return _TRAINERS[config]

    def _start(self) -> TrainState:
        """The state before the first iteration, from ``config.seed`` alone."""
        config = self.config
        key = jax.random.PRNGKey(config.seed)
        key, init_key, env_key, side_key = jax.random.split(key, 4)
        params = init_params(init_key, config.hidden)
        league = jax.tree_util.tree_map(lambda leaf: jnp.stack([leaf] * config.league_size), params)
        games = jax.vmap(self.env.init)(jax.random.split(env_key, config.envs))
        learner, opponent = self._sides(side_key, config.envs)
        return {
            "params": params,
            "opt": self.optimizer.init(params),
            "league": league,
            "games": games,
            "learner": learner,
            "opponent": opponent,
            "margin": jnp.zeros(config.envs, jnp.float32),
            "key": key,
            "iteration": jnp.int32(0),
            "finished": jnp.int32(0),
        }

    def _sides(self, key: jax.Array, count: int) -> tuple[jax.Array, jax.Array]:
        """For fresh games: the learner's team (0 or 1) and the opponent (0 the current policy,
        ``k`` the league's snapshot ``k - 1``)."""
        team_key, share_key, pick_key = jax.random.split(key, 3)
        learner = jax.random.randint(team_key, (count,), 0, 2)
        current = jax.random.uniform(share_key, (count,)) < self.config.current_share
        snapshot = jax.random.randint(pick_key, (count,), 1, self.config.league_size + 1)
        return learner, jnp.where(current, 0, snapshot)

    def _choose(self, state: TrainState, games: Any, key: jax.Array) -> tuple[jax.Array, ...]:
        """Every game's mover chooses: the learner's policy or its opponent's, masked."""
        seats = games.current_player
        observations = jax.vmap(self.env.observe)(games, seats).reshape(self.config.envs, -1)
        mask = games.legal_action_mask
        logits, value = forward(state["params"], observations)
        others = jax.vmap(lambda params: forward(params, observations)[0])(state["league"])  # [K, B, A]
        snapshot = jnp.take_along_axis(others, jnp.clip(state["opponent"] - 1, 0)[None, :, None], axis=0)[0]
        is_learner = seats % 2 == state["learner"]
        played = jnp.where((is_learner | (state["opponent"] == 0))[:, None], logits, snapshot)
        action = jax.random.categorical(key, jnp.where(mask, played, _MASKED))
        log_probs = jax.nn.log_softmax(jnp.where(mask, logits, _MASKED))
        log_prob = jnp.take_along_axis(log_probs, action[:, None], axis=1)[:, 0]
        return observations, mask, action, log_prob, value, is_learner

    def _play(self, state: TrainState, _: None) -> tuple[TrainState, dict[str, jax.Array]]:
        """One action in every game; a finished game is replaced by a fresh one."""
        config = self.config
        key, choose_key, step_key, deal_key, side_key = jax.random.split(state["key"], 5)
        games = state["games"]
        observations, mask, action, log_prob, value, is_learner = self._choose(state, games, choose_key)
        after = jax.vmap(self.env.step)(games, action, jax.random.split(step_key, config.envs))
        reward = jnp.take_along_axis(after.rewards, state["learner"][:, None], axis=1)[:, 0]
        margin = state["margin"] + reward
        done = after.terminated
        # R25: the team ahead after the last deal wins the game.
        reward = reward + jnp.where(done, jnp.sign(margin) * config.win_bonus, 0.0)
        fresh = jax.vmap(self.env.init)(jax.random.split(deal_key, config.envs))
        games = jax.tree_util.tree_map(
            lambda new, old: jnp.where(done.reshape((-1,) + (1,) * (old.ndim - 1)), new, old), fresh, after
        )
        learner, opponent = self._sides(side_key, config.envs)
        record = {
            "observations": observations,
            "mask": mask,
            "action": action,
            "log_prob": log_prob,
            "value": value,
            "is_learner": is_learner,
            "reward": reward,
            "done": done,
            "won": done & (margin > 0),
        }
        state = {
            **state,
            "games": games,
            "learner": jnp.where(done, learner, state["learner"]),
            "opponent": jnp.where(done, opponent, state["opponent"]),
            "margin": jnp.where(done, 0.0, margin),
            "key": key,
            "finished": state["finished"] + jnp.sum(done, dtype=jnp.int32),
        }
        return state, record

    def _advantages(self, state: TrainState, record: dict[str, jax.Array]) -> tuple[jax.Array, jax.Array]:
        """GAE over each game's learner decisions only; the opponents' actions pass their
        rewards on to the learner's previous decision."""
        config = self.config
        games = state["games"]
        # The value of the learner seat to move next, to bootstrap the unfinished games.
        movers = games.current_player
        seat = jnp.where(movers % 2 == state["learner"], movers, (movers + 1) % 4)
        last = forward(state["params"], jax.vmap(self.env.observe)(games, seat).reshape(config.envs, -1))[1]

        def back(carry: _Carry, step: dict[str, jax.Array]) -> tuple[_Carry, jax.Array]:
            next_value, next_advantage, pending = carry
            ended = step["done"]
            next_value = jnp.where(ended, 0.0, next_value)
            next_advantage = jnp.where(ended, 0.0, next_advantage)
            pending = jnp.where(ended, 0.0, pending) + step["reward"]
            delta = pending + config.gamma * next_value - step["value"]
            advantage = delta + config.gamma * config.gae_lambda * next_advantage
            mine = step["is_learner"]
            carry = (
                jnp.where(mine, step["value"], next_value),
                jnp.where(mine, advantage, next_advantage),
                jnp.where(mine, 0.0, pending),
            )
            return carry, jnp.where(mine, advantage, 0.0)

        zeros = jnp.zeros(config.envs, jnp.float32)
        _, advantages = jax.lax.scan(back, (last, zeros, zeros), record, reverse=True)
        return advantages, advantages + record["value"]

    def _loss(self, params: Params, batch: dict[str, jax.Array]) -> tuple[jax.Array, dict[str, jax.Array]]:
        config = self.config
        logits, value = forward(params, batch["observations"])
        log_probs = jax.nn.log_softmax(jnp.where(batch["mask"], logits, _MASKED))
        log_prob = jnp.take_along_axis(log_probs, batch["action"][:, None], axis=1)[:, 0]
        ratio = jnp.exp(log_prob - batch["log_prob"])
        advantage = batch["advantage"]
        policy_loss = -jnp.minimum(ratio * advantage, jnp.clip(ratio, 1 - config.clip, 1 + config.clip) * advantage)
        value_loss = (value - batch["returns"]) ** 2
        entropy = -jnp.sum(jnp.where(batch["mask"], jnp.exp(log_probs) * log_probs, 0.0), axis=1)
        weight = batch["is_learner"].astype(jnp.float32)
        total = jnp.maximum(jnp.sum(weight), 1.0)

        def mean(values: jax.Array) -> jax.Array:
            return jnp.sum(values * weight) / total

        loss = mean(policy_loss) + config.value_coef * mean(value_loss) - config.entropy * mean(entropy)
        return loss, {"policy_loss": mean(policy_loss), "value_loss": mean(value_loss), "entropy": mean(entropy)}

    def _update(self, state: TrainState, batch: dict[str, jax.Array], key: jax.Array) -> tuple[TrainState, Any]:
        config = self.config
        size = config.envs * config.horizon
        chunk = max(1, size // config.minibatches)

        def minibatch(carry: tuple[Params, Any], indices: jax.Array) -> tuple[tuple[Params, Any], Any]:
            params, opt = carry
            part = jax.tree_util.tree_map(lambda values: values[indices], batch)
            (_, info), grads = jax.value_and_grad(self._loss, has_aux=True)(params, part)
            updates, opt = self.optimizer.update(grads, opt, params)
            params = cast("Params", optax.apply_updates(params, updates))
            return (params, opt), info

        def epoch(carry: tuple[Params, Any], epoch_key: jax.Array) -> tuple[tuple[Params, Any], Any]:
            order = jax.random.permutation(epoch_key, size)[: chunk * (size // chunk)]
            return jax.lax.scan(minibatch, carry, order.reshape(-1, chunk))

        (params, opt), info = jax.lax.scan(epoch, (state["params"], state["opt"]), jax.random.split(key, config.epochs))
        return {**state, "params": params, "opt": opt}, jax.tree_util.tree_map(jnp.mean, info)

    def _iterate(self, state: TrainState) -> tuple[TrainState, dict[str, jax.Array]]:
        config = self.config
        state, record = jax.lax.scan(self._play, state, None, length=config.horizon)
        advantages, returns = self._advantages(state, record)
        mine = record["is_learner"]
        count = jnp.maximum(jnp.sum(mine), 1)
        centre = jnp.sum(jnp.where(mine, advantages, 0.0)) / count
        spread = jnp.sqrt(jnp.sum(jnp.where(mine, (advantages - centre) ** 2, 0.0)) / count) + 1e-8
        batch = {
            name: record[name].reshape((config.envs * config.horizon,) + record[name].shape[2:])
            for name in ("observations", "mask", "action", "log_prob", "is_learner")
        }
        batch["advantage"] = ((advantages - centre) / spread).reshape(-1)
        batch["returns"] = returns.reshape(-1)
        key, update_key = jax.random.split(state["key"])
        state, info = self._update({**state, "key": key}, batch, update_key)
        iteration = state["iteration"] + 1
        # Every snapshot_every iterations the policy joins the league, replacing the oldest.
        slot = (iteration // config.snapshot_every - 1) % config.league_size
        take = iteration % config.snapshot_every == 0
        league = jax.tree_util.tree_map(
            lambda stacked, leaf: jnp.where(take, stacked.at[slot].set(leaf), stacked), state["league"], state["params"]
        )
        info = {
            **info,
            # Masked out, an illegal action has probability 0: this counts 0 (the tests check).
            "illegal": jnp.sum(~jnp.take_along_axis(record["mask"], record["action"][..., None], axis=2)),
            "games": jnp.sum(record["done"], dtype=jnp.int32),
            "wins": jnp.sum(record["won"], dtype=jnp.int32),
        }
        return {**state, "league": league, "iteration": iteration}, info


# --- Checkpoints --------------------------------------------------------------------------


def save_checkpoint(path: Path, config: TrainConfig, state: TrainState, meta: dict[str, Any]) -> None:
    """Write the train state's arrays and a JSON header (config and ``meta``) atomically."""
    leaves = jax.tree_util.tree_leaves(state)
    header = {"version": _CHECKPOINT_VERSION, "config": config.to_json(), "meta": meta, "leaves": len(leaves)}
    arrays = {f"leaf{number}": np.asarray(leaf) for number, leaf in enumerate(leaves)}
    arrays["header"] = np.frombuffer(json.dumps(header, sort_keys=True).encode(), np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    _write_atomically(path, buffer.getvalue())


def load_checkpoint(path: Path, trainer: Trainer) -> tuple[TrainState, dict[str, Any]]:
    """Read a checkpoint of ``trainer``'s run (same config) back into a train state."""
    try:
        with np.load(path, allow_pickle=False) as archive:
            header = json.loads(archive["header"].tobytes().decode())
            if header.get("version") != _CHECKPOINT_VERSION:
                raise PolicyFileError(f"{path} is not a checkpoint of this version of the training")
            saved = TrainConfig.from_json(header["config"])
            arrays = [archive[f"leaf{number}"] for number in range(int(header["leaves"]))]
    except (OSError, ValueError, KeyError, EOFError, TypeError) as error:
        raise PolicyFileError(f"the checkpoint {path} cannot be read: {error}") from None
    if saved != trainer.config:
        raise InvalidArgumentError(
            f"the checkpoint in {path.parent} was made with other settings: {saved}, not {trainer.config}"
        )
    leaves, tree = jax.tree_util.tree_flatten(jax.eval_shape(trainer.start))
    if len(arrays) != len(leaves):
        raise PolicyFileError(f"the checkpoint {path} holds {len(arrays)} arrays, not {len(leaves)}")
    for array, leaf in zip(arrays, leaves, strict=True):
        if array.shape != leaf.shape or array.dtype != leaf.dtype:
            raise PolicyFileError(f"the checkpoint {path} holds an array {array.shape} where {leaf.shape} belongs")
    state: TrainState = jax.tree_util.tree_unflatten(tree, [jnp.asarray(array) for array in arrays])
    return state, dict(header["meta"])


# --- The run ------------------------------------------------------------------------------


def evaluate(
    policy: Policy, opponents: Sequence[str], games: int, rules: Rules, seed: int | str = "evaluation"
) -> dict[str, dict[str, float]]:
    """The policy's share of games won against each opponent (paired deals, 95% Wilson interval)."""
    results = {}
    for name in opponents:
        match = run_match(
            lambda seed: NeuralBot(policy, seed), name, games, seed=seed, rules=rules, workers=1, progress=False
        )
        rate, low, high = match.win_rate(0)
        results[name] = {"games": games, "win_rate": rate, "low": low, "high": high, "margin": match.margin[0]}
    return results


def _evaluate_and_log(
    policy: Policy,
    folder: Path,
    meta: dict[str, Any],
    opponents: Sequence[str],
    games: int,
    report: Callable[[str], None],
) -> None:
    """Evaluate ``policy``, append the result to ``log.jsonl``, keep the best as ``best.npz``."""
    results = evaluate(policy, opponents, games, policy.rules)
    line = {"iteration": meta["iteration"], "games": meta["games"], "wall_seconds": meta["wall_seconds"], **results}
    with open(folder / "log.jsonl", "a", encoding="utf-8") as log:
        log.write(json.dumps(line, sort_keys=True) + "\n")
    meta["latest"] = ", ".join(
        f"{name} {result['win_rate']:.3f} [{result['low']:.3f}, {result['high']:.3f}]"
        for name, result in results.items()
    )
    report(f"evaluation at iteration {meta['iteration']} ({games} games each): {meta['latest']}")
    score = results[opponents[0]]["win_rate"]
    if score > meta["best"]:
        meta["best"] = score
        policy.save(folder / "best.npz")


def _device() -> str:
    device = jax.devices()[0]
    return f"{device.platform} ({os.cpu_count()} cores)" if device.platform == "cpu" else str(device.device_kind)


def _check_length(steps: object, minutes: object) -> None:
    # How long train runs, checked before anything is compiled.
    if steps is None and minutes is None:
        raise InvalidArgumentError("say how long to train: steps, minutes or both")
    if steps is not None and (type(steps) is not int or steps < 0):
        raise InvalidArgumentError(f"steps must be a whole number of at least 0, not {excerpt(steps)}")
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int | float) or not minutes >= 0):
        raise InvalidArgumentError(f"minutes must be a number of at least 0, not {excerpt(minutes)}")


def train(
    config: TrainConfig,
    out: str | os.PathLike[str],
    *,
    steps: int | None = None,
    minutes: float | None = None,
    resume: bool = False,
    checkpoint_seconds: float = 300.0,
    evaluate_seconds: float = 600.0,
    evaluation_games: int = 100,
    opponents: Sequence[str] = ("greedy",),
    command: str = "",
    report: Callable[[str], None] = print,
) -> Policy:
    """Train until ``steps`` iterations in all or ``minutes`` more minutes (whichever comes
    first), writing checkpoints, the evaluation log and the final policy into ``out``.

    ``train(TrainConfig(), "my-player", minutes=10)`` is ``persian-rummy train --minutes 10
    --out my-player``; the length is checked before anything is compiled:

    >>> train(TrainConfig(), "my-player")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: say how long to train: steps, minutes or both
    """
    _check_length(steps, minutes)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    checkpoint = folder / "checkpoint.npz"
    trainer = Trainer.of(config)
    if resume and checkpoint.exists():
        state, meta = load_checkpoint(checkpoint, trainer)
        report(f"resumed at iteration {meta['iteration']} ({meta['games']} games, {meta['wall_seconds']:.0f} s)")
    else:
        state = trainer.start()
        meta = {"iteration": 0, "games": 0, "wall_seconds": 0.0, "best": -1.0, "command": command}
    started = time.monotonic()
    base_seconds = float(meta["wall_seconds"])
    last_checkpoint = last_evaluation = started
    deadline = math.inf if minutes is None else started + 60.0 * minutes
    limit = math.inf if steps is None else steps

    def provenance() -> dict[str, Any]:
        return {
            "command": str(meta["command"] or command),
            "seed": config.seed,
            "steps": int(meta["iteration"]),
            "games": int(meta["games"]),
            "wall_seconds": round(float(meta["wall_seconds"]), 1),
            "device": _device(),
        }

    def evaluation() -> None:
        policy = export_policy(state["params"], config.rules, provenance())
        if evaluation_games > 0:
            _evaluate_and_log(policy, folder, meta, opponents, evaluation_games, report)

    while meta["iteration"] < limit and time.monotonic() < deadline:
        state, info = trainer.iterate(state)
        meta["iteration"] = int(state["iteration"])
        meta["games"] = int(state["finished"])
        meta["wall_seconds"] = base_seconds + time.monotonic() - started
        games, wins = int(info["games"]), int(info["wins"])
        report(
            f"iteration {meta['iteration']}: {meta['games']} games played, "
            f"learner won {wins} of {games} finished, entropy {float(info['entropy']):.3f}; "
            f"latest evaluation: {meta.get('latest', 'none yet')}"
        )
        now = time.monotonic()
        if now - last_checkpoint >= checkpoint_seconds:
            save_checkpoint(checkpoint, config, state, meta)
            last_checkpoint = now
        if now - last_evaluation >= evaluate_seconds:
            evaluation()
            last_evaluation = time.monotonic()
    save_checkpoint(checkpoint, config, state, meta)
    policy = export_policy(state["params"], config.rules, provenance())
    policy.save(folder / "policy.npz")
    return policy
