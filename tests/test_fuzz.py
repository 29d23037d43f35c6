"""A short seeded run of the mutation fuzzer (``benchmarks/fuzz.py``) over every parser and
loader: only documented exceptions, and no input that takes seconds (R1-R27 on hostile input).
The long run (a million inputs) is a benchmark, not a test."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from fuzz import TARGETS, VALUE_TARGETS, fuzz


def test_a_short_seeded_fuzz_run_finds_only_documented_errors() -> None:
    report = fuzz(2500, seed=9, slow=3.0)  # a generous bound: the machine may be busy
    assert report["inputs"] == 2500
    # Every reader was fed, the readers of values too (the environments' with the [rl] extra).
    assert set(report["per_target"]) == {name for name, _, _ in TARGETS + VALUE_TARGETS}
    assert report["undocumented"] == [], report["undocumented"]
    assert report["slow"] == [], report["slow"]
    assert report["longest_message"]["characters"] <= 2100
