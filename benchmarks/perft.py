"""Golden perft counts: check, time or regenerate them.

``tests/data/perft.json`` lists fixed positions and, for each, the number of sequences of
exactly 1, 2, ... ``depth`` legal actions from it; ``tests/test_perft.py`` checks them.

    python benchmarks/perft.py            # recompute every count, time it, report mismatches
    python benchmarks/perft.py --write    # recompute and write the counts back to the file

Run ``--write`` only after a deliberate change of the rules (or a new position), and check the
diff of the data file: every count that changes is a change in the set of legal actions.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "perft.json"
sys.path.insert(0, str(ROOT / "tests"))

from conformance import perft, position_from_json  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="write the recomputed counts to the data file")
    parser.add_argument("--data", type=Path, default=DATA, help="the data file (default: tests/data/perft.json)")
    args = parser.parse_args(argv)
    document = json.loads(args.data.read_text(encoding="utf-8"))
    mismatches = 0
    total_nodes = 0
    total_time = 0.0
    for entry in document["positions"]:
        state = position_from_json(entry)
        counts = []
        started = time.perf_counter()
        for depth in range(1, entry["depth"] + 1):
            counts.append(perft(state, depth))
        elapsed = time.perf_counter() - started
        total_nodes += sum(counts)
        total_time += elapsed
        old = entry.get("counts")
        status = "new" if old is None else "ok" if old == counts else f"MISMATCH (file: {old})"
        mismatches += old is not None and old != counts
        print(f"{entry['name']:<36} {' '.join(map(str, counts)):<32} {elapsed:6.2f}s  {status}")
        entry["counts"] = counts
    print(f"{total_nodes} leaves in {total_time:.2f}s ({total_nodes / max(total_time, 1e-9):,.0f} leaves/s)")
    if args.write:
        args.data.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {args.data.relative_to(ROOT) if args.data.is_relative_to(ROOT) else args.data}")
        return 0
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
