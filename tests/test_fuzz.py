"""A short seeded run of the mutation fuzzer (``benchmarks/fuzz.py``) over every parser and
loader: only documented exceptions, and no input that takes long (R1-R27 on hostile input),
counted in function calls rather than seconds so that a busy machine cannot fail it. The long
run (a million inputs) is a benchmark, not a test."""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from fuzz import TARGETS, VALUE_TARGETS, fuzz

# The most calls (Python's and C's) one input's reading may make. The heaviest inputs of this run
# make about 430,000 (the first Gymnasium environment, its imports included) and 225,000 (the
# replay of a long record); input read in time that grows faster than its length makes millions
# (a second of Python is some tens of millions of calls).
CALLS = 2_000_000


def test_a_short_seeded_fuzz_run_finds_only_documented_errors() -> None:
    report = fuzz(2500, seed=9, slow=math.inf, calls=CALLS)
    assert report["inputs"] == 2500
    # Every reader was fed, the readers of values too (the environments' with the [rl] extra).
    assert set(report["per_target"]) == {name for name, _, _ in TARGETS + VALUE_TARGETS}
    assert report["undocumented"] == [], report["undocumented"]
    assert report["heavy"] == [], report["heavy"]
    assert report["longest_message"]["characters"] <= 2100
