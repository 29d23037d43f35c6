"""A match of paired deals that keeps every finished pair: each pair of games (the same
cards, the sides trading seats) is played by :func:`~persian_rummy.arena.run_match` from the
seed ``SEED/PAIR`` and appended to ``--out`` as a JSON line at once, so a run stopped by the
clock keeps its games and a later run goes on from the next pair (the pairs already in the file
are skipped). ``--summary`` prints each file's games, wins, Wilson interval and mean margin
and, for two files of the same pairs, the paired difference of the first side's wins. Run it
with::

    OPENBLAS_NUM_THREADS=1 python benchmarks/paired_log.py expert benchmarks/baseline_60eaaeb.npz --seed held-out-54 --pairs 200 --out expert.jsonl
    python benchmarks/paired_log.py --summary expert.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from persian_rummy.arena import run_match
from persian_rummy.standings import wilson_interval


def play(first: str, second: str, seed: str, pairs: int, out: Path) -> None:
    """Play the pairs not yet in ``out``, appending each as it ends."""
    done = {json.loads(line)["pair"] for line in out.read_text().splitlines()} if out.exists() else set()
    for pair in range(pairs):
        if pair in done:
            continue
        start = time.perf_counter()
        result = run_match(first, second, 2, seed=f"{seed}/{pair}", workers=1)
        line = {
            "pair": pair,
            "sides": [first, second],
            "wins": list(result.wins),
            "draws": result.draws,
            "margins": [game.side_scores[0] - game.side_scores[1] for game in result.games],
            "seconds": round(time.perf_counter() - start, 1),
        }
        with out.open("a") as stream:
            stream.write(json.dumps(line) + "\n")


def _read(path: str) -> dict[int, dict[str, object]]:
    rows = (json.loads(line) for line in Path(path).read_text().splitlines() if line.strip())
    return {int(row["pair"]): row for row in rows}


def summary(paths: list[str]) -> None:
    """Each file's figures, and the paired difference of the first two files' first sides."""
    read = [_read(path) for path in paths]
    for path, rows in zip(paths, read, strict=True):
        wins = sum(row["wins"][0] for row in rows.values())  # type: ignore[index]
        losses = sum(row["wins"][1] for row in rows.values())  # type: ignore[index]
        draws = sum(row["draws"] for row in rows.values())  # type: ignore[misc]
        games = 2 * len(rows)
        low, high = wilson_interval(wins, games)
        margins = [margin for row in rows.values() for margin in row["margins"]]  # type: ignore[attr-defined]
        mean = sum(margins) / len(margins)
        spread = math.sqrt(sum((value - mean) ** 2 for value in margins) / max(1, len(margins) - 1))
        print(
            f"{path}: {games} games, {wins}-{losses}-{draws}, win rate {wins / games:.3f} [{low:.3f}, {high:.3f}], "
            f"margin {mean:+.1f} ± {1.96 * spread / math.sqrt(len(margins)):.1f}"
        )
    if len(read) == 2:
        common = sorted(set(read[0]) & set(read[1]))
        differences = [read[0][pair]["wins"][0] - read[1][pair]["wins"][0] for pair in common]  # type: ignore[index]
        mean = sum(differences) / len(differences)
        spread = math.sqrt(sum((value - mean) ** 2 for value in differences) / max(1, len(differences) - 1))
        half = 1.96 * spread / math.sqrt(len(differences))
        print(
            f"paired, {len(common)} pairs: the first file's win rate minus the second's {mean / 2:+.3f} ± {half / 2:.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sides", nargs="*", help="two bot specs to play, or with --summary the files")
    parser.add_argument("--seed", default="held-out-54", help="the deals' seed (default held-out-54)")
    parser.add_argument("--pairs", type=int, default=200, help="pairs of games (default 200: 400 games)")
    parser.add_argument("--out", help="the JSON lines file the pairs are appended to")
    parser.add_argument("--summary", action="store_true", help="summarise the files named")
    args = parser.parse_args(argv)
    if args.summary:
        summary(args.sides)
        return 0
    if len(args.sides) != 2 or not args.out:
        parser.error("give two bot specs and --out FILE (or --summary FILES)")
    play(args.sides[0], args.sides[1], args.seed, args.pairs, Path(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
