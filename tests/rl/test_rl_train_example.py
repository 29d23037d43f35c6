"""The [rl-train] recipe (examples/rl_maskable_ppo.py) runs: MaskablePPO trains in the
Gymnasium environment with no wrapper and the arena evaluates it in paired games."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent.parent / "examples" / "rl_maskable_ppo.py"
RATE = re.compile(r"^ *(\w+): (\d\.\d{3}) \[(\d\.\d{3}), (\d\.\d{3})\] wins, margin [+-]\d+\.\d ± \d+\.\d per game$")


def _run(*args: str) -> str:
    # One thread, as the recipe runs it (the tutorial's command): the same figures, and no
    # thread pool to fight the other test workers for the cores.
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _rates(out: str) -> dict[str, tuple[str, ...]]:
    return {match[1]: match.groups()[1:] for line in out.splitlines() if (match := RATE.match(line))}


def test_r3_maskable_ppo_trains_and_is_evaluated_in_paired_games() -> None:
    out = _run("--timesteps", "64", "--n-steps", "32", "--seed", "3", "--eval-games", "4")
    rates = _rates(out)
    assert set(rates) == {"random", "untrained", "trained"}
    for rate, low, high in rates.values():
        # four games: the rate is a whole number of quarters, inside its interval
        assert float(rate) * 4 == round(float(rate) * 4) and float(low) <= float(rate) <= float(high)
    trained = re.search(r"^trained on (\d+) learner actions in \d+ CPU-seconds$", out, re.MULTILINE)
    assert trained is not None and int(trained[1]) >= 64


def test_a_budget_below_its_least_is_refused_before_training() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--timesteps", "0"], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 2 and "--timesteps: must be at least 1, not 0" in done.stderr
    assert done.stdout == ""


@pytest.mark.thorough
def test_r26_training_lifts_the_learners_team_above_uniform_play() -> None:
    # 16,384 learner actions (about 45 CPU-seconds) took seed 0 from 0.255 to 0.440 wins.
    rates = _rates(_run("--timesteps", "16384", "--seed", "0", "--eval-games", "200"))
    assert float(rates["trained"][0]) > float(rates["random"][0]) + 0.1
