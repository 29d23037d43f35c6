"""The vectorized engine's example runs: whole batched games of masked random play, and a
policy-gradient learner in JAX that improves on uniform play against random players."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent.parent / "examples" / "vector_selfplay.py"


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.thorough
def test_selfplay_plays_whole_games_and_the_learner_improves_on_uniform_play() -> None:
    # 12 batches of 64 games: about a minute and a half on 2 cores, compilation included. The
    # keys are fixed, so the run is the same every time on one platform (here -0.10 to +0.28).
    out = _run("12", "64")
    finished = re.search(r"self-play: 64 games, (\d+) finished", out)
    assert finished is not None and int(finished[1]) >= 60
    before, after = (float(value) for value in re.findall(r": ([+-]\d+\.\d+)$", out, re.MULTILINE))
    assert after > before + 0.15
