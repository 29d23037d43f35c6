"""The speed benchmark (``benchmarks/rl_step.py``) times what it says: each runner plays the
steps asked, through the ends of games, and its JSON line reports the rates and their ratios.
The timings themselves are the benchmark's, not a test's."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "benchmarks"))

import rl_step
from peers import open_spiel_player, persian_rummy_player


def _our_engine(rng: random.Random) -> Callable[[int], int]:
    return rl_step.whole_games(persian_rummy_player(rng.getrandbits(16)))


def _openspiel_engine(rng: random.Random) -> Callable[[int], int]:
    player = open_spiel_player(rng.getrandbits(16))
    assert player is not None  # OpenSpiel is part of [rl]
    return rl_step.whole_games(player)


RUNNERS: dict[str, Callable[[random.Random], Callable[[int], int]]] = {
    "env": rl_step.ours,
    "raw_env": partial(rl_step.ours, wrapped=False),
    "engine": _our_engine,
    "openspiel": rl_step.openspiel_gin_rummy,
    "openspiel_engine": _openspiel_engine,
}


@pytest.mark.parametrize("name", RUNNERS)
def test_each_runner_plays_the_steps_asked_across_several_games(name: str) -> None:
    # A game of ours takes about 200 steps (a deal about 100) and one of OpenSpiel's gin rummy
    # about 120, so 600 steps cross the end of several games and the resets are exercised.
    # The engine runners play whole games, so they play up to a game more than asked.
    run = RUNNERS[name](random.Random(3))
    steps = run(600)
    assert steps == 600 if "engine" not in name else 600 <= steps < 1000
    assert run(1) >= 1


def ratio_of(ratio: float, ours: int, theirs: int) -> bool:
    """Whether ``ratio`` (to two places) is the ratio of two rates that rounded to ``ours`` and
    ``theirs``: exact bounds from the rounding, whatever the rates (a busy machine's are small)."""
    return (ours - 0.5) / (theirs + 0.5) - 0.005 <= ratio <= (ours + 0.5) / max(theirs - 0.5, 1e-9) + 0.005


def test_the_json_line_reports_rates_ratios_and_every_round(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # RLCard is in the [rl-benchmark] extra only; our engine runner stands in for it here.
    monkeypatch.setattr(rl_step, "rlcard_gin_rummy", _our_engine)
    monkeypatch.setattr(rl_step, "has_rlcard", lambda: True)
    assert rl_step.main(["--seconds", "0.05", "--rounds", "2"]) == 0
    result = json.loads(capsys.readouterr().out)
    rates = result["steps_per_second"]
    assert set(rates) == {
        "persian_rummy_pettingzoo",
        "persian_rummy_pettingzoo_raw",
        "rlcard_gin_rummy",
        "openspiel_gin_rummy",
        "persian_rummy_engine",
        "openspiel_gin_rummy_engine",
    }
    assert all(rate > 0 for rate in rates.values())
    assert ratio_of(result["ours_vs_openspiel"], rates["persian_rummy_pettingzoo"], rates["openspiel_gin_rummy"])
    assert ratio_of(
        result["raw_ours_vs_openspiel"], rates["persian_rummy_pettingzoo_raw"], rates["openspiel_gin_rummy"]
    )
    engine, openspiel_engine = rates["persian_rummy_engine"], rates["openspiel_gin_rummy_engine"]
    assert ratio_of(result["engine_ours_vs_openspiel"], engine, openspiel_engine)
    assert len(result["rounds"]) == 2
    assert all(
        set(found) == {"ours_vs_rlcard", "ours_vs_openspiel", "raw_ours_vs_openspiel", "engine_ours_vs_openspiel"}
        for found in result["rounds"]
    )
    assert result["python"] == sys.version.split()[0]
    assert result["seconds_per_runner"] == pytest.approx(0.1)


def test_without_rlcard_the_line_leaves_its_runner_and_ratio_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(rl_step, "has_rlcard", lambda: False)
    assert rl_step.main(["--seconds", "0.02", "--rounds", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert "rlcard_gin_rummy" not in result["steps_per_second"] and "ours_vs_rlcard" not in result
    assert set(result["rounds"][0]) == {"ours_vs_openspiel", "raw_ours_vs_openspiel", "engine_ours_vs_openspiel"}
