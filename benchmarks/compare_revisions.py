"""One benchmark of two revisions of the project, side by side in one run: each revision's own
tree (``git archive``) runs its own copy of the benchmark, the two taking turns ``--times``
times, so that both see the same machine in the same minutes. The benchmark prints one JSON
line (as ``vector_step.py`` and ``rl_step.py`` do); this prints one JSON line holding each
revision's lines, in the order they ran::

    python benchmarks/compare_revisions.py BEFORE AFTER [--times 2] [--script benchmarks/vector_step.py]
        [-- the benchmark's own arguments]

Each revision runs with its tree first on ``PYTHONPATH`` (its package, not the installed one)
and the current Python, so both need what the benchmark imports installed (here the ``[jax]``
and ``[rl]`` extras). Nothing is checked out in the working tree: the trees are temporary.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent


def export(revision: str, into: Path) -> Path:
    """The tree of ``revision`` written under ``into`` (``git archive``, no checkout)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{revision}^{{commit}}"],
        cwd=_ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    tree = into / commit[:12]
    tree.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", commit], cwd=_ROOT, check=True, capture_output=True).stdout
    with tempfile.TemporaryFile() as buffer:
        buffer.write(archive)
        buffer.seek(0)
        with tarfile.open(fileobj=buffer) as tar:
            tar.extractall(tree, filter="data")
    return tree


def run(tree: Path, script: str, arguments: list[str], timeout: float) -> dict[str, Any]:
    """The benchmark's JSON line, run in ``tree`` with that tree's package first on the path."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, script, *arguments],
        cwd=tree,
        env=environment,
        check=True,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    line: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="the earlier revision (a commit, tag or branch)")
    parser.add_argument("after", help="the later revision")
    parser.add_argument("--times", type=int, default=2, help="turns each revision takes (2)")
    parser.add_argument("--script", default="benchmarks/vector_step.py", help="the benchmark, from the root")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds one benchmark run may take (1800)")
    given = sys.argv[1:] if argv is None else argv
    split = given.index("--") if "--" in given else len(given)
    args = parser.parse_args(given[:split])
    arguments = given[split + 1 :]  # the benchmark's own
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        trees = {
            # A folder for each side, so that a revision can be compared with itself (the noise).
            name: export(revision, Path(scratch) / name)
            for name, revision in (("before", args.before), ("after", args.after))
        }
        for name, tree in trees.items():
            results[name] = {"revision": tree.name, "runs": []}
        for _ in range(args.times):
            for name, tree in trees.items():
                try:
                    results[name]["runs"].append(run(tree, args.script, arguments, args.timeout))
                except subprocess.CalledProcessError as error:
                    # Say which revision failed and why (its own stderr), not this script's trace.
                    print(f"{args.script} of {name} ({tree.name}) exited with {error.returncode}:", file=sys.stderr)
                    print(error.stderr.strip()[-2000:], file=sys.stderr)
                    return 1
                except subprocess.TimeoutExpired:
                    print(f"{args.script} of {name} ({tree.name}) ran past {args.timeout:g} s", file=sys.stderr)
                    return 1
    print(
        json.dumps(
            {"benchmark": "compare_revisions", "script": args.script, "python": sys.version.split()[0], **results}
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
