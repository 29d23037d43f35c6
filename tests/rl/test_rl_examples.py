"""The [rl] examples run, briefly; the training example shows its policy improve."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


def _run(name: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _returns(out: str) -> tuple[float, float]:
    before, after = (float(value) for value in re.findall(r": ([+-]\d+\.\d+)$", out, re.MULTILINE))
    return before, after


def test_training_example_runs() -> None:
    out = _run("rl_train_gymnasium.py", "4", "2")
    assert "trained for 4 games" in out
    _returns(out)


@pytest.mark.thorough
def test_training_example_improves_on_uniform_play() -> None:
    before, after = _returns(_run("rl_train_gymnasium.py", "300", "40"))
    assert after > before + 0.3


def test_ismcts_example_plays_a_match() -> None:
    out = _run("rl_ismcts_vs_bots.py", "2", "2", "random")
    assert out.splitlines()[1].split()[:3] == ["0", "ismcts:2", "2"]
