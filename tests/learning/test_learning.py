"""Training (persian_rummy.learning): the network reads the scalar engine's observation of the
mover (R27), exports to the policy NeuralBot plays, never chooses an illegal action, learns
from both teams' decisions in self-play, and a resumed run goes on exactly as one that did
not stop."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from persian_rummy import InvalidArgumentError, PolicyFileError, Rules, legal_actions, new_game, play
from persian_rummy.cli import main
from persian_rummy.learning import (
    CHECKPOINT,
    COMPACT,
    TrainConfig,
    Trainer,
    Transition,
    checkpoint_config,
    export_policy,
    forward,
    init_params,
    load_checkpoint,
    save_checkpoint,
    train,
)
from persian_rummy.observation import observation_tensor
from persian_rummy.policy import NeuralBot, Policy, shipped_policy_path
from persian_rummy.vector import Env

TINY = TrainConfig(rules=Rules(deals=1), hidden=(8,), envs=4, horizon=4, league_size=2, snapshot_every=1, reset_every=2)
PROVENANCE = {"command": "", "seed": 0, "steps": 0, "games": 0, "wall_seconds": 0.0, "device": "cpu"}


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
    """What the trainer feeds the network (the State's observation of the mover, and
    Env.observe of another seat) is observation_tensor of that seat's PlayerView bit for bit,
    so a net trained on one plays through the other (R27)."""
    env = Env()
    states = positions(48, 3)
    batch = env.from_states(states)
    others = (batch.current_player + 1) % 4
    observed = np.asarray(jax.jit(jax.vmap(env.observe))(batch, others))
    for row, state in enumerate(states):
        assert np.array_equal(np.asarray(batch.observation[row]), observation_tensor(state.view(state.current_player)))
        assert np.array_equal(observed[row], observation_tensor(state.view(int(others[row]))))


def test_the_exported_policy_computes_the_networks_logits_and_values() -> None:
    network = init_params(jax.random.PRNGKey(1), (16, 8))
    observations = np.stack([observation_tensor(s.view(s.current_player)).reshape(-1) for s in positions(8, 5)])
    logits, values = forward(network, jnp.asarray(observations))
    policy = export_policy(network, Rules(), PROVENANCE)
    assert values.shape == (8,) and policy.widths == (1590, 16, 8, 1436) and policy.has_value
    exported_logits, exported_values = policy.evaluate(observations)
    np.testing.assert_allclose(exported_logits, np.asarray(logits), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(exported_values, np.asarray(values), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "knobs",
    [
        {"envs": 0},
        {"horizon": -1},
        {"hidden": ()},
        {"hidden": (0,)},
        {"gamma": 1.5},
        {"learning_rate": float("nan")},
        {"envs": 2.5},
        {"reset_every": 0},
        {"self_play": -0.1},
    ],
)
def test_bad_knobs_are_refused(knobs: dict) -> None:
    with pytest.raises(InvalidArgumentError, match=next(iter(knobs))):
        TrainConfig(**knobs)


def test_a_config_round_trips_through_json_and_names_what_it_does_not_know() -> None:
    assert TrainConfig.from_json(TINY.to_json()) == TINY
    with pytest.raises(InvalidArgumentError, match="no knob colour"):
        TrainConfig.from_json('{"colour": 1}')


def test_train_refuses_bad_lengths(tmp_path: Path) -> None:
    for options in ({}, {"steps": -1}, {"minutes": -2.0}, {"steps": 1.5}):
        with pytest.raises(InvalidArgumentError):
            train(TINY, tmp_path, **options)  # type: ignore[arg-type]


def test_a_run_to_resume_must_have_a_checkpoint_and_a_new_run_must_not_find_one(tmp_path: Path) -> None:
    """--resume on an empty folder is an error, not a fresh start; a new run does not
    overwrite another's checkpoint. Both are refused before anything is compiled."""
    with pytest.raises(InvalidArgumentError, match="no checkpoint to resume"):
        train(TINY, tmp_path, steps=1, resume=True)
    (tmp_path / COMPACT).write_bytes(b"")
    with pytest.raises(InvalidArgumentError, match="already holds"):
        train(TINY, tmp_path, steps=1)


def test_the_games_are_split_over_the_devices_only_in_whole_shares() -> None:
    with pytest.raises(InvalidArgumentError, match="multiple of the 2 devices"):
        Trainer(TrainConfig(envs=3), devices=[jax.devices()[0]] * 2)


def play_and_record(trainer: Trainer, state: object) -> tuple[object, Transition]:
    return jax.jit(lambda s: jax.lax.scan(trainer._play, s, jnp.arange(trainer.config.horizon)))(state)


@pytest.mark.thorough
def test_self_play_trains_every_decision_and_a_league_game_the_learners_only() -> None:
    """In the self-play share every live decision of both teams is learnt from; in a league
    game (a snapshot taken), only the current policy's team's; no illegal action is played, and
    a finished game waits for the next fresh deal without being learnt from."""
    config = TrainConfig(
        rules=Rules(deals=1), hidden=(8,), envs=8, horizon=40, league_size=2, snapshot_every=1, self_play=0.5
    )
    trainer = Trainer(config)
    state = trainer.start()
    state, metrics = trainer.iterate(state)  # takes the first snapshot
    assert int(state.snapshots) == 1 and int(metrics.illegal) == 0
    _, record = play_and_record(trainer, state)
    trained, live, team = np.asarray(record.trained), np.asarray(record.live), np.asarray(record.team)
    self_play, league_rows = slice(0, 4), slice(4, 6)  # rows 6-7: the snapshot not taken yet
    assert np.array_equal(trained[:, self_play], live[:, self_play])
    assert np.array_equal(trained[:, 6:], live[:, 6:])
    learner = np.asarray(state.learner)[league_rows]
    assert np.array_equal(trained[:, league_rows], live[:, league_rows] & (team[:, league_rows] == learner))
    assert (team[:, self_play][trained[:, self_play]] == 0).any() and (
        team[:, self_play][trained[:, self_play]] == 1
    ).any()
    chosen = np.take_along_axis(np.asarray(record.mask), np.asarray(record.action)[..., None], axis=2)[..., 0]
    assert chosen[live].all()
    # The rewards are zero-sum between the teams.
    assert np.array_equal(np.asarray(record.reward)[..., 0], -np.asarray(record.reward)[..., 1])


@pytest.mark.thorough
def test_the_advantages_follow_each_team_s_own_decisions() -> None:
    """A hand-made record: team 0 decides, team 1 decides and gets a reward, team 0 decides
    and the game ends with a reward. GAE with gamma = lambda = 1 gives each decision its team's
    return from there on, less its value."""
    config = TrainConfig(rules=Rules(deals=1), hidden=(4,), envs=1, horizon=3, gamma=1.0, gae_lambda=1.0)
    trainer = Trainer(config)
    state = trainer.start()
    state = state._replace(games=state.games.replace(terminated=jnp.array([True])))
    zeros = jnp.zeros((3, 1))
    reward = jnp.array([[[0.0, 0.0]], [[-0.5, 0.5]], [[2.0, -2.0]]])
    record = Transition(
        observation=jnp.zeros((3, 1, 1590)),
        mask=jnp.ones((3, 1, 1436), bool),
        action=jnp.zeros((3, 1), jnp.int32),
        log_prob=zeros,
        value=jnp.array([[0.25], [0.5], [1.0]]),
        team=jnp.array([[0], [1], [0]]),
        live=jnp.ones((3, 1), bool),
        trained=jnp.ones((3, 1), bool),
        reward=reward,
        done=jnp.array([[False], [False], [True]]),
        league_done=jnp.zeros((3, 1), bool),
        league_won=jnp.zeros((3, 1), bool),
    )
    advantages = np.asarray(trainer._advantages(state, record))[:, 0]
    # Team 0 at step 0: -0.5 (step 1) + 2.0 (step 2) = 1.5 of return; value 0.25.
    # Team 1 at step 1: 0.5 + (-2.0) = -1.5; value 0.5. Team 0 at step 2: 2.0; value 1.0.
    np.testing.assert_allclose(advantages, [1.25, -2.0, 1.0])


def leaves(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files if name != "header"}


@pytest.mark.thorough
def test_a_resumed_run_is_the_run_that_did_not_stop(tmp_path: Path) -> None:
    """4 iterations straight, or 2, a checkpoint, and 2 more: the same weights, optimiser,
    league, games and key, bit for bit; the policy's provenance records both commands; the
    compact checkpoint leaves the games out and resumes with fresh ones."""
    lines: list[str] = []
    straight = train(TINY, tmp_path / "a", steps=4, evaluation_games=0, report=lines.append, command="first")
    train(TINY, tmp_path / "b", steps=2, evaluation_games=0, report=lines.append, command="first")
    resumed = train(TINY, tmp_path / "b", steps=4, resume=True, evaluation_games=0, report=lines.append, command="more")
    assert any(line.startswith("resumed at iteration 2") for line in lines)
    assert resumed.training["steps"] == straight.training["steps"] == 4
    assert resumed.training["command"] == "first && more" and straight.training["command"] == "first"
    first, second = leaves(tmp_path / "a" / CHECKPOINT), leaves(tmp_path / "b" / CHECKPOINT)
    assert first.keys() == second.keys() and len(first) > 10
    for name, array in first.items():
        assert np.array_equal(array, second[name]), name
    for (w1, b1), (w2, b2) in zip(straight.layers, resumed.layers, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    compact = leaves(tmp_path / "a" / COMPACT)
    assert not any(name.startswith("games.") for name in compact) and set(compact) < set(first)
    # Training changed the weights (a run that did nothing would pass the above).
    start = export_policy(Trainer(TINY).start().network, TINY.rules, straight.training)
    assert not np.array_equal(start.layers[0][0], straight.layers[0][0])
    # The compact checkpoint resumes: the network as saved, the games dealt afresh.
    (tmp_path / "a" / CHECKPOINT).unlink()
    state, meta = load_checkpoint(tmp_path / "a" / COMPACT, Trainer(TINY))
    assert meta["iteration"] == 4 and np.array_equal(
        np.asarray(state.network.hidden[0].weight), first["network.hidden[0].weight"]
    )
    assert int(state.games.current_player[0]) == 1  # a fresh deal: seat 1 draws first (R6)


@pytest.mark.thorough
def test_a_checkpoint_of_other_settings_is_refused_naming_them(tmp_path: Path) -> None:
    trainer = Trainer(TINY)
    save_checkpoint(tmp_path / CHECKPOINT, TINY, trainer.start(), {})
    other = TrainConfig(
        rules=Rules(deals=1), hidden=(4,), envs=4, horizon=4, league_size=2, snapshot_every=1, reset_every=2
    )
    with pytest.raises(InvalidArgumentError, match=r"hidden: \(4,\) given, the checkpoint's \(8,\)"):
        load_checkpoint(tmp_path / CHECKPOINT, Trainer(other))
    (tmp_path / CHECKPOINT).write_bytes(b"not a checkpoint")
    with pytest.raises(PolicyFileError, match="cannot be read"):
        load_checkpoint(tmp_path / CHECKPOINT, trainer)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX's")
def test_a_pipe_folder_or_bad_path_named_as_a_checkpoint_is_refused_without_blocking(tmp_path: Path) -> None:
    # As a policy file's path is: a pipe would block np.load's open() for ever.
    pipe = tmp_path / "pipe.npz"
    os.mkfifo(pipe)
    for path in (pipe, tmp_path):
        with pytest.raises(PolicyFileError, match="not a regular file"):
            checkpoint_config(path)
    with pytest.raises(PolicyFileError, match="cannot be read"):
        checkpoint_config(Path("a\x00b.npz"))


@pytest.mark.thorough
def test_the_train_command_writes_a_policy_and_its_evaluation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`persian-rummy train`: progress lines saying what they count, an evaluation through the
    arena at the end of every run, a playable policy file (value head included) that records
    its commands and refuses other rules; --resume keeps the checkpoint's settings and names a
    knob given otherwise."""
    out = tmp_path / "run"
    argv = ["train", "--rules", "deals=1", "--hidden", "8", "--envs", "2", "--steps", "2", "--out", str(out)]
    assert main([*argv, "--evaluate-minutes", "0", "--evaluation-games", "2"]) == 0
    printed = capsys.readouterr().out
    assert "iteration 2 (" in printed and "evaluation at iteration 1 (2 games each): greedy" in printed
    assert "last evaluation: none yet" in printed and re.search(r"\d+ games? ended", printed)
    assert "evaluation at iteration 2 (2 games each): greedy" in printed  # the end of the run
    policy = Policy.load(out / "policy.npz", rules=Rules(deals=1))
    assert policy.training["command"].startswith("persian-rummy train --rules deals=1") and policy.has_value
    assert [json.loads(line)["iteration"] for line in (out / "log.jsonl").read_text().splitlines()] == [1, 2]
    bot = NeuralBot(policy)
    state = new_game(1, rules=Rules(deals=1))
    assert bot(state.view(1)) in legal_actions(state)
    assert main(["train", "--out", str(out)]) == 2
    assert "say how long" in capsys.readouterr().err
    assert main(["train", "--out", str(out), "--steps", "3", "--resume", "--envs", "4"]) == 2
    assert "envs: 4 given, the checkpoint's 2" in capsys.readouterr().err
    assert main(["train", "--out", str(tmp_path / "empty"), "--steps", "3", "--resume"]) == 2
    assert "no checkpoint to resume" in capsys.readouterr().err


SHARDED = """
import jax, numpy as np
from persian_rummy import Rules
from persian_rummy.learning import TrainConfig, Trainer
assert len(jax.devices()) == 2, jax.devices()
config = TrainConfig(rules=Rules(deals=1), hidden=(8,), envs=4, horizon=4, league_size=2, snapshot_every=1)
trainer = Trainer(config)
state = trainer.start()
assert len(state.games.current_player.sharding.device_set) == 2
assert len(state.network.policy.weight.sharding.device_set) == 2 and state.network.policy.weight.sharding.is_fully_replicated
for _ in range(3):
    state, metrics = trainer.iterate(state)
    assert int(metrics.illegal) == 0
assert int(state.iteration) == 3 and np.isfinite(np.asarray(state.network.policy.weight)).all()
assert not state.games.current_player.sharding.is_fully_replicated
print("sharded ok")
"""


@pytest.mark.thorough
def test_the_trainer_splits_the_games_over_two_devices() -> None:
    """With two (forced) host devices the games are split between them and the network is on
    both: the same command would use two GPUs."""
    environment = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=2", "JAX_PLATFORMS": "cpu"}
    done = subprocess.run(
        [sys.executable, "-c", SHARDED], env=environment, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "sharded ok" in done.stdout


def interrupted_run(folder: Path, wait_for: str) -> tuple[int, str]:
    """`persian-rummy train` in a process of its own, sent Ctrl-C (SIGINT) once a line
    starting with ``wait_for`` is printed; its exit status and everything it printed. Every
    wait is bounded (compiling takes minutes on a busy machine)."""
    import signal
    import threading

    command = [sys.executable, "-m", "persian_rummy", "train", "--rules", "deals=1", "--hidden", "8"]
    command += ["--envs", "2", "--horizon", "4", "--steps", "100000", "--out", str(folder), "--evaluation-games", "0"]
    # No compilation cache: "compiling" must be a real compilation, long enough to be
    # interrupted (the run's cache could hold the program already, conftest.py).
    environment = {name: value for name, value in os.environ.items() if name != "JAX_COMPILATION_CACHE_DIR"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
    assert process.stdout is not None
    lines: list[str] = []
    seen = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if line.startswith(wait_for):
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert seen.wait(900), "".join(lines)[-2000:]
        process.send_signal(signal.SIGINT)
        status = process.wait(900)
    finally:
        process.kill()
    reader.join(60)
    return status, "".join(lines)


@pytest.mark.thorough
@pytest.mark.parametrize("wait_for", ["compiling", "iteration 2 "])
def test_ctrl_c_saves_the_checkpoint_and_the_policy_and_exits_130(tmp_path: Path, wait_for: str) -> None:
    """Ctrl-C while compiling or between iterations: the run stops cleanly (no crash), saves
    the checkpoint, the compact checkpoint and the policy, and exits 130; the run resumes from
    what it saved."""
    status, printed = interrupted_run(tmp_path, wait_for)
    assert status == 130, printed[-2000:]
    assert "stopped at iteration" in printed and "Interrupted." in printed
    for name in (CHECKPOINT, COMPACT, "policy.npz"):
        assert (tmp_path / name).stat().st_size > 0
    saved = Policy.load(tmp_path / "policy.npz", rules=Rules(deals=1))
    state, meta = load_checkpoint(
        tmp_path / CHECKPOINT,
        Trainer(TrainConfig.from_json(json.dumps({"rules": "deals=1", "hidden": [8], "envs": 2, "horizon": 4}))),
    )
    assert meta["iteration"] == saved.training["steps"] == int(state.iteration)


def test_a_checkpoint_and_a_policy_file_given_for_each_other_say_which_file_is_which(tmp_path: Path) -> None:
    """Issue 50 item 7: a training checkpoint (full or compact) given as a player's policy
    file says it is a checkpoint and names the run's policy file beside it, wherever a policy
    file is read (make_bot, NeuralBot.load, Policy.from_bytes); a policy file given as a
    checkpoint says it is a policy file. The checkpoints are written by save_checkpoint from a
    small tree of arrays (a trainer's first state takes a minute to compile)."""
    from persian_rummy.bots import make_bot

    tree = {
        "network": {"hidden": [{"weight": np.zeros((3, 2), np.float32)}] * 20},
        "optimizer": [np.zeros(4, np.float32)] * 20,
        "games": {"hands": np.zeros((2, 3), np.int8)},
    }
    save_checkpoint(tmp_path / CHECKPOINT, TINY, tree, {"iteration": 1})
    save_checkpoint(tmp_path / COMPACT, TINY, tree, {"iteration": 1}, games=False)
    for name in (CHECKPOINT, COMPACT):
        path = tmp_path / name
        expected = (
            f"{path}' is a training checkpoint.*not a policy file: the run's policy is '{tmp_path / 'policy.npz'}'"
        )
        for read in (make_bot, NeuralBot.load, Policy.load):
            with pytest.raises(PolicyFileError, match=expected + r" \(written when the run stops; not there yet\)"):
                read(str(path))
        with pytest.raises(PolicyFileError, match=r"these bytes are a training checkpoint.*policy\.npz"):
            Policy.from_bytes(path.read_bytes())
    Policy.load(Path(shipped_policy_path())).save(tmp_path / "policy.npz")
    with pytest.raises(PolicyFileError, match=r"policy\.npz'$"):
        make_bot(str(tmp_path / CHECKPOINT))
    with pytest.raises(PolicyFileError, match=r"is a policy file .*, not a training checkpoint: a run's checkpoints"):
        load_checkpoint(tmp_path / "policy.npz", Trainer(TINY))


def test_the_training_log_lines_stay_under_100_characters() -> None:
    """Issue 50 item 12: an iteration's report was one line of about 190 characters; it is
    lines of at most 99, the latest evaluation wrapped, with the counts in the singular for one."""
    from persian_rummy.learning._run import Progress, _line
    from persian_rummy.learning._trainer import Metrics

    metrics = Metrics(*(np.float32(12345) for _ in Metrics._fields))
    latest = ", ".join(f"vs {name}: win rate 0.512 [0.498, 0.530], margin +12.3" for name in ("greedy", "mc", "neural"))
    text = _line(Progress(iteration=123456, games=98765432, latest=latest), metrics, 1234.5)
    assert max(map(len, text.splitlines())) < 100 and len(text.splitlines()) >= 4, text
    assert " ".join(text.split()).endswith(" ".join(latest.split()))
    one = _line(Progress(iteration=1, games=1), Metrics(*(np.float32(1) for _ in Metrics._fields)), 1.0)
    assert "1 game ended" in one and "won 1 of 1 game " in one
