"""The vectorized engine's speed benchmark (``benchmarks/vector_step.py``) counts what it says
(only the steps of games being played, through the ends of games) and its JSON line reports
the rates, the ratios to OpenSpiel's gin rummy and the compile times. The timings themselves
are the benchmark's, not a test's."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "benchmarks"))

import vector_step

from persian_rummy import Rules
from persian_rummy.vector import Env


@pytest.mark.thorough
def test_the_runner_counts_only_live_rows_across_game_ends() -> None:
    runner = vector_step.Vector(Env(Rules(deals=1)), 8, seed=1)
    steps = 0
    calls = 0
    while calls < 400:  # a one-deal game of random play lasts about 100 to 300 steps
        before = runner.calls
        found, _ = runner.run(0.0)
        calls += runner.calls - before
        steps += found
    assert 0 < steps <= 8 * calls
    assert steps < 8 * calls  # some rows finished and waited for the reset
    assert bool(jnp.all(runner.state.legal_action_mask.any(axis=1)))


@pytest.mark.thorough
def test_the_json_line_reports_rates_ratios_and_compile_times(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--seconds", "0.05", "--rounds", "1", "--batches", "4", "--compile-batch", "4", "--samplers", "legal"]
    assert vector_step.main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["steps_per_second"]) == {"openspiel_gin_rummy", "vector_legal_4"}
    assert set(result["vs_openspiel"]) == {"vector_legal_4"} and result["steps_per_second"]["vector_legal_4"] > 0
    assert result["flatness"] == {"legal": 1.0}
    assert set(result["compile_seconds"]) == {"step", "observe"} and result["device"]
    assert result["sampler_alone_us_per_row"]["legal"] > 0 and result["sampler_bound_vs_openspiel"]["legal"] > 0
    assert result["keyed"] is False


@pytest.mark.thorough
def test_several_observation_dtypes_are_timed_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--seconds", "0.05", "--rounds", "1", "--batches", "4", "--compile-batch", "4", "--samplers", "legal"]
    assert vector_step.main([*args, "--observation-dtype", "float32,int16"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["steps_per_second"]) == {"openspiel_gin_rummy", "vector_legal_float32_4", "vector_legal_int16_4"}
    assert result["flatness"] == {"legal_float32": 1.0, "legal_int16": 1.0}
    assert result["observation_dtype"] == "float32,int16"


@pytest.mark.thorough
def test_a_keyed_runner_gives_every_step_a_key_and_counts_the_same_way() -> None:
    """``--keyed``: pgx's loop with keys, ``step(state, action, key)``: the step draws a deck
    from its key (random bits the keyless step, its later decks drawn at init, does not draw);
    the same counting."""
    env = Env()
    runner = vector_step.Vector(env, 4, seed=2, sampler="policy", keyed=True)
    found, _ = runner.run(0.0)
    assert 0 < found <= 4 * runner.calls
    keys = jax.random.split(jax.random.PRNGKey(0), 4)

    def bits_drawn(keyed: bool) -> int:
        step = vector_step.programs(env, vector_step.sample_legal, keyed=keyed)[0]
        return str(jax.make_jaxpr(step)(runner.state, keys, jnp.int32(0))).count("random_bits")

    assert bits_drawn(True) > bits_drawn(False) > 0


@pytest.mark.thorough
def test_compare_revisions_runs_a_revision_s_own_tree_and_benchmark(tmp_path: Path) -> None:
    """compare_revisions exports a revision's tree (no checkout) and runs that tree's copy of
    the benchmark with that tree's package first on the path: its JSON line comes back."""
    import compare_revisions

    tree = compare_revisions.export("HEAD", tmp_path)
    assert (tree / "pyproject.toml").is_file() and (tree / "persian_rummy" / "vector" / "_env.py").is_file()
    arguments = ["--seconds", "0.05", "--rounds", "1", "--batches", "4", "--compile-batch", "4", "--samplers", "legal"]
    line = compare_revisions.run(tree, "benchmarks/vector_step.py", arguments, timeout=600)
    assert line["benchmark"] == "vector_step" and set(line["steps_per_second"]) == {
        "openspiel_gin_rummy",
        "vector_legal_4",
    }


@pytest.mark.thorough
def test_compare_revisions_names_the_revision_whose_benchmark_failed(capsys: pytest.CaptureFixture[str]) -> None:
    """A benchmark that fails (here, an argument it does not know) ends the comparison with
    exit status 1 and the failing revision's own error, not a trace of the runner; a revision
    compared with itself (a measure of the noise) gets a tree for each side."""
    import compare_revisions

    assert compare_revisions.main(["HEAD", "HEAD", "--times", "1", "--", "--no-such-argument"]) == 1
    said = capsys.readouterr().err
    assert "benchmarks/vector_step.py of before" in said and "exited with 2" in said
    assert "--no-such-argument" in said and "Traceback" not in said


@pytest.mark.thorough
def test_device_check_reports_both_loops_and_a_training_burst(tmp_path: Path) -> None:
    """benchmarks/device_check.py at small sizes (the GPU's run is the same script): both loops
    at each batch, the best batch of each, a training burst whose folder is kept and resumed,
    and the JSON file written beside the printed line."""
    import device_check

    out = tmp_path / "check.json"
    config = json.dumps({"envs": 2, "horizon": 4, "hidden": [4], "league_size": 1, "rules": "deals=1"})
    arguments = ["--batches", "4,8", "--seconds", "0.05", "--rules", "deals=1", "--train-minutes", "0.001"]
    arguments += ["--train-config", config, "--train-out", str(tmp_path / "run"), "--json", str(out)]
    assert device_check.main(arguments) == 0
    result = json.loads(out.read_text())
    assert set(result["loops"]) == {"keyless", "keyed"}
    for loop in ("keyless", "keyed"):
        assert set(result["loops"][loop]) == {"4", "8"} and result["best"][loop]["batch"] in (4, 8)
        assert all(row["steps_per_second"] > 0 for row in result["loops"][loop].values())
    assert result["training"]["config"]["envs"] == 2 and not result["training"]["resumed"]
    assert (tmp_path / "run" / "resume.npz").exists() and (tmp_path / "run" / "policy.npz").exists()
    assert device_check.main(arguments) == 0  # the same folder again: the run goes on
    assert json.loads(out.read_text())["training"]["resumed"]


def test_device_check_stops_the_sweep_only_when_memory_runs_out() -> None:
    import device_check

    assert device_check._out_of_memory(RuntimeError("RESOURCE_EXHAUSTED: Out of memory while trying to allocate"))
    assert not device_check._out_of_memory(RuntimeError("INVALID_ARGUMENT: shapes differ"))


@pytest.mark.thorough
def test_the_resets_are_timed_side_by_side_with_their_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    """--resets: the loops that deal finished games anew after every step (reset_finished, and
    pgx's way) beside the every-16-steps loop, each with its rate over that loop's."""
    args = ["--seconds", "0.05", "--rounds", "1", "--batches", "4", "--compile-batch", "4", "--samplers", "legal"]
    assert vector_step.main([*args, "--resets", "finished,pgx"]) == 0
    result = json.loads(capsys.readouterr().out)
    names = {"vector_legal_4", "vector_legal_4_reset_finished", "vector_legal_4_reset_pgx"}
    assert set(result["steps_per_second"]) == {"openspiel_gin_rummy", *names}
    assert set(result["auto_reset_vs_every16"]) == names - {"vector_legal_4"}
    assert all(ratio > 0 for ratio in result["auto_reset_vs_every16"].values())


@pytest.mark.thorough
def test_a_loop_that_resets_after_every_step_never_holds_a_finished_game() -> None:
    runner = vector_step.Vector(Env(Rules(deals=1)), 8, seed=2, resets="finished")
    steps = 0
    while runner.calls < 300:  # a one-deal game of random play lasts about 100 to 300 steps
        found, _ = runner.run(0.0)
        steps += found
        assert not bool(jnp.any(runner.state.terminated))
    assert steps == 8 * runner.calls - 8 * 3  # every row live at every step (the warm-up's 3 calls uncounted)
