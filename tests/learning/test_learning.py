"""Training (persian_rummy.learning): the network reads the scalar engine's observation of the
mover (R27), exports to the policy NeuralBot plays, never chooses an illegal action, and a
resumed run goes on exactly as one that did not stop."""

from __future__ import annotations

import random
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from persian_rummy import InvalidArgumentError, PolicyFileError, Rules, legal_actions, new_game, play
from persian_rummy.cli import main
from persian_rummy.learning import (
    TrainConfig,
    Trainer,
    export_policy,
    forward,
    init_params,
    load_checkpoint,
    train,
)
from persian_rummy.observation import observation_tensor
from persian_rummy.policy import NeuralBot, Policy
from persian_rummy.vector import Env

TINY = TrainConfig(rules=Rules(deals=1), hidden=(8,), envs=2, horizon=4, league_size=2, snapshot_every=1)


def positions(count: int, seed: int) -> list:
    """States along random games, every phase the mover can be in."""
    generator = random.Random(seed)
    states = []
    state = new_game(seed)
    while len(states) < count:
        if not state.phase.is_live:
            state = new_game(generator.randrange(1 << 30))
            continue
        states.append(state)
        state = play(state, generator.choice(legal_actions(state)))
    return states


def test_the_vector_observation_of_the_mover_is_the_scalar_one() -> None:
    """What the trainer feeds the network (Env.observe of the mover) is observation_tensor of
    the mover's PlayerView bit for bit, so a net trained on one plays through the other (R27)."""
    env = Env()
    states = positions(48, 3)
    batch = env.from_states(states)
    observed = np.asarray(jax.jit(jax.vmap(env.observe))(batch, batch.current_player))
    for row, state in enumerate(states):
        assert np.array_equal(observed[row], observation_tensor(state.view(state.current_player)))


def test_the_exported_policy_computes_the_networks_logits() -> None:
    params = init_params(jax.random.PRNGKey(1), (16, 8))
    observations = np.stack([observation_tensor(s.view(s.current_player)).reshape(-1) for s in positions(8, 5)])
    logits, values = forward(params, jnp.asarray(observations))
    policy = export_policy(
        params, Rules(), {"command": "", "seed": 0, "steps": 0, "games": 0, "wall_seconds": 0.0, "device": "cpu"}
    )
    assert values.shape == (8,) and policy.widths == (1590, 16, 8, 1436)
    np.testing.assert_allclose(policy.logits(observations), np.asarray(logits), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "knobs",
    [{"envs": 0}, {"horizon": -1}, {"hidden": ()}, {"hidden": (0,)}, {"gamma": 1.5}, {"learning_rate": float("nan")}],
)
def test_bad_knobs_are_refused(knobs: dict) -> None:
    with pytest.raises(InvalidArgumentError):
        TrainConfig(**knobs)


def test_a_config_round_trips_through_json() -> None:
    assert TrainConfig.from_json(TINY.to_json()) == TINY


def test_train_refuses_bad_lengths(tmp_path: Path) -> None:
    for options in ({}, {"steps": -1}, {"minutes": -2.0}, {"steps": 1.5}):
        with pytest.raises(InvalidArgumentError):
            train(TINY, tmp_path, **options)  # type: ignore[arg-type]


def leaves(path: Path) -> list[np.ndarray]:
    with np.load(path, allow_pickle=False) as archive:
        return [archive[name] for name in sorted(archive.files) if name.startswith("leaf")]


@pytest.mark.thorough
def test_a_resumed_run_is_the_run_that_did_not_stop(tmp_path: Path) -> None:
    """4 iterations straight, or 2, a checkpoint, and 2 more: the same weights, optimiser,
    league, games and key, bit for bit; no action chosen was ever illegal."""
    lines: list[str] = []
    straight = train(TINY, tmp_path / "a", steps=4, evaluation_games=0, report=lines.append)
    train(TINY, tmp_path / "b", steps=2, evaluation_games=0, report=lines.append)
    resumed = train(TINY, tmp_path / "b", steps=4, resume=True, evaluation_games=0, report=lines.append)
    assert any(line.startswith("resumed at iteration 2") for line in lines)
    assert resumed.training["steps"] == straight.training["steps"] == 4
    first, second = leaves(tmp_path / "a" / "checkpoint.npz"), leaves(tmp_path / "b" / "checkpoint.npz")
    assert len(first) == len(second) > 10
    for one, other in zip(first, second, strict=True):
        assert np.array_equal(one, other)
    for (w1, b1), (w2, b2) in zip(straight.layers, resumed.layers, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    # Training changed the weights (a run that did nothing would pass the above).
    start = export_policy(Trainer.of(TINY).start()["params"], TINY.rules, straight.training)
    assert not np.array_equal(start.layers[0][0], straight.layers[0][0])
    trainer = Trainer.of(TINY)
    state = trainer.start()
    for _ in range(3):
        state, info = trainer.iterate(state)
        assert int(info["illegal"]) == 0


@pytest.mark.thorough
def test_a_checkpoint_of_other_settings_is_refused(tmp_path: Path) -> None:
    train(TINY, tmp_path, steps=1, evaluation_games=0, report=lambda line: None)
    with pytest.raises(InvalidArgumentError, match="other settings"):
        load_checkpoint(
            tmp_path / "checkpoint.npz", Trainer(TrainConfig(rules=Rules(deals=1), hidden=(4,), envs=2, horizon=4))
        )
    (tmp_path / "checkpoint.npz").write_bytes(b"not a checkpoint")
    with pytest.raises(PolicyFileError, match="cannot be read"):
        load_checkpoint(tmp_path / "checkpoint.npz", Trainer.of(TINY))


@pytest.mark.thorough
def test_the_train_command_writes_a_policy_and_its_evaluation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`persian-rummy train`: progress lines, an evaluation through the arena, a playable policy
    file that records its command and refuses other rules."""
    out = tmp_path / "run"
    argv = ["train", "--rules", "deals=1", "--hidden", "8", "--envs", "2", "--steps", "2", "--out", str(out)]
    argv += ["--evaluate-minutes", "0", "--evaluation-games", "2"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "iteration 2:" in printed and "evaluation at iteration 1 (2 games each): greedy" in printed
    assert "iteration 1: " in printed and "latest evaluation: none yet" in printed
    assert "latest evaluation: greedy " in printed.split("evaluation at iteration 1")[1]
    policy = Policy.load(out / "policy.npz", rules=Rules(deals=1))
    assert policy.training["command"].startswith("persian-rummy train --rules deals=1")
    assert (out / "log.jsonl").read_text().count("\n") == 2 and (out / "best.npz").exists()
    bot = NeuralBot(policy)
    state = new_game(1, rules=Rules(deals=1))
    assert bot(state.view(1)) in legal_actions(state)
    assert main(["train", "--out", str(out)]) == 2
    assert "say how long" in capsys.readouterr().err
