"""The time ``import persian_rummy`` takes, beside ``import chess`` (python-chess), in one run.

A program that plays a game imports the rules engine and nothing else: what only some
programs use (the JSON conversion's cattrs, numpy, the bots, the records) is imported where
it is first used. This benchmark measures the cost of the import itself: each sample is a
fresh interpreter that times one ``import`` statement (the processor time it takes,
``time.process_time`` around it, so the interpreter's own start is left out), and the two imports alternate, sample by sample,
so that a shared machine's load falls on both alike. The package timed is this checkout's
(its folder is put first on the interpreters' path). Both read their compiled bytecode, as
an installed package's imports do: the interpreters write and read it under a private cache
folder (``PYTHONPYCACHEPREFIX``), filled by one untimed import of each first, whatever
``PYTHONDONTWRITEBYTECODE`` says here. The report is the median of each, and
their ratio; the target is at most 1.5 times python-chess's. python-chess is not a
dependency of the library: the ``[benchmark]`` extra installs it::

    pip install -e ".[benchmark]"
    python benchmarks/import_cost.py --runs 21
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

#: The checkout this benchmark belongs to: its package is the one timed.
ROOT = Path(__file__).resolve().parent.parent

#: The statement each fresh interpreter runs: the processor time of the import in seconds,
#: printed. Processor time, not wall-clock time: on a shared machine the wall clock counts the
#: other programs' turns too, and the import's own work is what is compared.
_TIMED = "import time; start = time.process_time(); import {module}; print(time.process_time() - start)"


def import_time(module: str, env: dict[str, str]) -> float:
    """Seconds of processor time a fresh interpreter (with the environment ``env``) takes to
    run ``import module``."""
    done = subprocess.run(
        [sys.executable, "-c", _TIMED.format(module=module)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
        cwd=tempfile.gettempdir(),  # not a folder whose own copy of a package would be found first
    )
    return float(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=21, help="fresh interpreters for each import (default 21)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    modules = ("persian_rummy", "chess")
    samples: dict[str, list[float]] = {module: [] for module in modules}
    cache = tempfile.mkdtemp(prefix="import-cost-")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    try:
        for module in modules:  # writes the bytecode: neither is timed cold
            import_time(module, env)
        for _ in range(args.runs):
            for module in modules:
                samples[module].append(import_time(module, env))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    medians = {module: statistics.median(times) for module, times in samples.items()}
    result: dict[str, object] = {
        "python": platform.python_version(),
        "runs": args.runs,
        "persian_rummy_ms": round(medians["persian_rummy"] * 1000, 1),
        "chess_ms": round(medians["chess"] * 1000, 1),
        "ratio": round(medians["persian_rummy"] / medians["chess"], 2),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"import persian_rummy {result['persian_rummy_ms']} ms, import chess {result['chess_ms']} ms "
            f"(medians of {args.runs} fresh interpreters each, alternating): {result['ratio']} times"
        )
    return result


if __name__ == "__main__":
    main()
