"""Every script in examples/ runs, with small sizes so the tests stay fast."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _run(name: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_example_is_tested() -> None:
    tested = {"play_bots.py", "legal_draws.py", "custom_bot.py", "replay_game.py", "monte_carlo.py"}
    tested |= {"rl_train_gymnasium.py", "rl_ismcts_vs_bots.py"}  # tests/rl/test_rl_examples.py, with [rl]
    tested |= {"rl_maskable_ppo.py"}  # tests/rl/test_rl_train_example.py, with [rl-train]
    tested |= {"vector_selfplay.py"}  # tests/vector/test_vector_examples.py, with [jax] (thorough)
    tested |= {"ppo_jax.py"}  # tests/learning/test_ppo_example.py, with [train]
    assert {path.name for path in EXAMPLES.glob("*.py")} == tested


def test_r23_play_bots_prints_a_score_sheet_per_deal() -> None:
    out = _run("play_bots.py", "3", "random", "greedy", "random", "greedy")
    assert out.count("  North-South: melded") == 2 and out.count("  East-West: melded") == 2
    assert re.search(r"^Final: \(-?\d+, -?\d+\) - ", out, re.MULTILINE)


def test_play_bots_names_one_bot_or_four() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "play_bots.py"), "3", "random", "greedy"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 1 and "not 2" in done.stderr and "Traceback" not in done.stderr


def test_r13_r14_legal_draws_lists_deep_discard_draws() -> None:
    out = _run("legal_draws.py")
    assert "take 0: takes 4s Ks 9c Qc 2h 7s; the 4s must be used now: meld 4s 5s 6s, meld 4s 5s 6s 7s" in out
    assert "take 1: takes Ks 9c Qc 2h 7s; the Ks must be used now: layoff Ks 0" in out
    assert "take 2" not in out and "take 4" not in out  # the 9c and the 2h cannot be used


def test_custom_bot_plays_a_match() -> None:
    out = _run("custom_bot.py", "4")
    assert out.splitlines()[1].split()[:3] == ["0", "eager", "4"]


def test_replay_game_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "game.prr"
    out = _run("replay_game.py", str(path))
    assert path.read_text(encoding="utf-8").startswith('[Format "persian-rummy record 1"]')
    assert "2 deals" in out and "final scores" in out


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_monte_carlo_estimate(bot: str) -> None:
    out = _run("monte_carlo.py", "8", bot)
    match = re.search(r"won (\d+), drew (\d+)\nshare ([\d.]+), 95% interval \[([\d.]+), ([\d.]+)\]", out)
    assert match is not None, out
    wins, draws, share, low, high = int(match[1]), int(match[2]), float(match[3]), float(match[4]), float(match[5])
    assert share == pytest.approx((wins + draws / 2) / 8, abs=1e-3)
    assert low <= share <= high
