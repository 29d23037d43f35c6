"""Sizes and speeds of the text and data forms: position strings, JSON, pickles and records.

Plays ``--games`` random games (every rule preset), then measures, over every state met: the
length of the position string, the size of the JSON of a state and of a view, the size of a
pickle, and the time of each round trip; then the size of each game's ``.prr`` record and the
time to write, read and replay it. Run it with::

    python benchmarks/notation.py --games 20
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import time
from collections.abc import Callable

from persian_rummy import PRESETS, GameState, Phase, PlayerView, legal_actions
from persian_rummy.record import GameRecord, Recorder, dumps, loads


def play(seed: int) -> tuple[GameRecord, list[GameState]]:
    rng = random.Random(seed)
    recorder = Recorder(rules=list(PRESETS.values())[seed % len(PRESETS)])
    states = [recorder.deal(seed=seed)]
    while states[-1].phase is not Phase.GAME_OVER:
        state = states[-1]
        if state.phase is Phase.ROUND_OVER:
            states.append(recorder.deal(seed=rng.randrange(2**32)))
        else:
            states.append(recorder.play(rng.choice(legal_actions(state))))
    return recorder.record(), states


def per_item(function: Callable[[object], object], items: list[object]) -> float:
    """Microseconds per item."""
    start = time.perf_counter()
    for item in items:
        function(item)
    return (time.perf_counter() - start) / len(items) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    games = [play(seed) for seed in range(parser.parse_args().games)]
    states: list[object] = [state for _, played in games for state in played]
    views: list[object] = [state.view(index % 4) for index, state in enumerate(states)]  # type: ignore[attr-defined]
    positions = [state.position() for state in states]  # type: ignore[attr-defined]
    jsons = [state.to_json() for state in states]  # type: ignore[attr-defined]
    view_jsons = [view.to_json() for view in views]  # type: ignore[attr-defined]
    pickles = [pickle.dumps(state) for state in states]
    print(f"{len(games)} games, {len(states)} states")
    print("| form | mean size (chars or bytes) | max | write µs | read µs |")
    print("|---|---|---|---|---|")
    rows = [
        ("position string", positions, lambda s: s.position(), GameState.parse, states),
        ("state JSON", jsons, lambda s: s.to_json(), GameState.from_json, states),
        ("view JSON", view_jsons, lambda v: v.to_json(), PlayerView.from_json, views),
        ("state pickle", pickles, pickle.dumps, pickle.loads, states),
    ]
    for name, texts, write, read, values in rows:
        sizes = [len(text) for text in texts]
        print(
            f"| {name} | {statistics.mean(sizes):.0f} | {max(sizes)} "
            f"| {per_item(write, values):.1f} | {per_item(read, texts):.1f} |"  # type: ignore[arg-type]
        )
    records = [record for record, _ in games]
    texts = [dumps(record) for record in records]
    actions = sum(len(deal.actions) for record in records for deal in record.deals)
    print(
        f"| .prr record (whole game) | {statistics.mean(map(len, texts)):.0f} | {max(map(len, texts))} "
        f"| {per_item(dumps, records):.0f} | {per_item(loads, texts):.0f} |"  # type: ignore[arg-type]
    )
    start = time.perf_counter()
    for record in records:
        record.replay()
    replay = (time.perf_counter() - start) / actions * 1e6
    start = time.perf_counter()
    for record in records:
        list(record.redact(1).views())
    redacted = (time.perf_counter() - start) / actions * 1e6
    print(f"replay: {replay:.1f} µs per action; redact + replay as views: {redacted:.1f} µs per action")


if __name__ == "__main__":
    main()
