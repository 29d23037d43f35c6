"""What whole games produce for fixed seeds: the command line's output and records, the
arena's results, the environments' observations and rewards, and a server table's stored
actions, frames and records (a helper module, no tests).

Every part of the library that plays a whole game deals it the same way (R7), so these stay
byte-identical however the deal loop is written; ``tests/data/golden_games.json`` holds them,
and the tests compare each section with it. Long texts are kept as SHA-256 digests. Rewrite
the file only for a deliberate change of behaviour: ``python tests/golden.py --write``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from persian_rummy import Action, GameState, Rules, legal_actions
from persian_rummy.arena import play_game, run_match
from persian_rummy.bots import GreedyBot, RandomBot
from persian_rummy.record import Recorder, dumps

GOLDEN = Path(__file__).resolve().parent / "data" / "golden_games.json"

#: ``persian-rummy simulate`` runs, each printed (and with --save, recorded) in full.
SIMULATE: tuple[tuple[str, ...], ...] = (
    ("--seed", "1"),
    ("--seed", "2"),
    ("--seed", "7", "--rules", "deals=3"),
    ("--seed", "friday game"),
    ("--seed", "5", "--rules", "500_rum", "--bot", "random"),
    ("--seed", "11", "--bot", "random", "greedy"),
    ("--seed", "-3", "--bot", "greedy", "random", "random", "greedy", "--rules", "deals=4"),
)

#: ``persian-rummy play`` runs: the person always answers option 1 (or quits after ``moves``).
PLAY: tuple[tuple[tuple[str, ...], int], ...] = (
    # The bots named: play's default level is the strongest, searching bot, too slow here.
    (("--seed", "7", "--bot", "greedy"), 500),
    (("--seed", "x y", "--seat", "0", "--rules", "deals=3", "--bot", "random"), 500),
    (("--seed", "12", "--bot", "greedy"), 30),  # quits in the first deal
)


def digest(text: str | bytes) -> str:
    """The SHA-256 of ``text`` (UTF-8), in hexadecimal."""
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


@contextlib.contextmanager
def _terminal(stdin: str = "") -> Iterator[io.StringIO]:
    """Standard output captured, standard input scripted and a fixed width (COLUMNS)."""
    out = io.StringIO()
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    stdin_before = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            yield out
    finally:
        sys.stdin = stdin_before
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def _command(argv: Sequence[str], stdin: str = "") -> dict[str, Any]:
    from persian_rummy.cli import main

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "game.prr")
        with _terminal(stdin) as out:
            code = main([*argv, "--color", "never", "--save", path])
        text = out.getvalue().replace(path, "FILE")
        record = Path(path).read_text(encoding="utf-8") if os.path.exists(path) else ""
    return {"code": code, "output": digest(text), "record": digest(record), "lines": len(text.splitlines())}


def cli_outputs() -> dict[str, Any]:
    """The command line's output and saved records."""
    found: dict[str, Any] = {}
    for argv in SIMULATE:
        found["simulate " + " ".join(argv)] = _command(["simulate", *argv])
    for argv, moves in PLAY:
        found[f"play {' '.join(argv)} ({moves} answers)"] = _command(["play", *argv], "1\n" * moves)
    from persian_rummy.cli import main

    with _terminal() as out:  # many games: statistics, without the line of the time taken
        main(["simulate", "--seed", "3", "--games", "4", "--no-progress", "--color", "never"])
    lines = [line for line in out.getvalue().splitlines() if not line.strip().startswith("time:")]
    found["simulate --seed 3 --games 4"] = digest("\n".join(lines))
    return found


def arena_outputs() -> dict[str, Any]:
    """The arena's matches (every game's scores) and whole games (every action)."""
    found: dict[str, Any] = {}
    for name, (first, second), options in (
        ("greedy-greedy", ("greedy", "greedy"), {"games": 6, "seed": 1}),
        ("greedy-random deals=3", ("greedy", "random"), {"games": 4, "seed": "m", "rules": Rules(deals=3)}),
    ):
        result = run_match(first, second, workers=1, **options)
        found[name] = [[game.game, game.swapped, list(game.scores), game.actions] for game in result.games]
    for seed, dealer, rules in ((1, 0, Rules()), ("text", 2, Rules(deals=3)), (2**70, 3, Rules(deals=1))):
        bots = [GreedyBot(seat) if seat % 2 else RandomBot(seat) for seat in range(4)]
        seen: list[str] = []

        def on_deal(state: GameState, seen: list[str] = seen) -> None:
            seen.append(state.position())

        def on_action(before: GameState, action: Action, after: GameState, seen: list[str] = seen) -> None:
            seen.append(f"{before.position()} {action} {after.position()}")

        game = play_game(bots, seed, dealer=dealer, rules=rules, on_deal=on_deal, on_action=on_action)
        found[f"play_game {seed} {dealer} {rules}"] = {
            "final": game.final.position(),
            "deals": [[str(action) for action in deal] for deal in game.deals],
            "deal_seeds": [str(seed) for seed in game.deal_seeds],
            "callbacks": digest("\n".join(seen)),
        }
    return found


def recorder_outputs() -> dict[str, Any]:
    """A recorder dealing a game from one seed (later deals derived), first actions played."""
    recorder = Recorder(rules=Rules(deals=3), players=["Ann", "Bo", "Cy", "Di"])
    recorder.deal(seed="rec", dealer=1)
    while True:
        while recorder.state.phase.is_live:
            recorder.play(legal_actions(recorder.state)[0], comment="first")
        if recorder.state.is_game_over:
            break
        recorder.deal()
    return {"recorder": digest(dumps(recorder.record()))}


def rl_outputs() -> dict[str, Any]:
    """The environments' observations (digests) and rewards over seeded episodes, the
    learner playing seeded random legal actions."""
    import numpy as np

    from persian_rummy.gymnasium import PersianRummyEnv
    from persian_rummy.pettingzoo import raw_env

    found: dict[str, Any] = {}
    for seat, opponents, seed, rules in ((0, "greedy", 3, Rules()), (3, "random", 8, Rules(deals=3))):
        env = PersianRummyEnv(opponents, seat=seat, rules=rules)
        chooser = random.Random(seed)
        observation, info = env.reset(seed=seed)
        hashed = hashlib.sha256(observation.tobytes())
        rewards: list[str] = []
        done = False
        while not done:
            index = chooser.choice(np.flatnonzero(info["action_mask"]).tolist())
            observation, reward, terminated, truncated, info = env.step(index)
            hashed.update(observation.tobytes() + info["action_mask"].tobytes())
            rewards.append(repr(float(reward)))
            done = terminated or truncated
        found[f"gymnasium seat {seat} {opponents} seed {seed} {rules}"] = {
            "observations": hashed.hexdigest(),
            "rewards": rewards if len(rewards) < 80 else digest(" ".join(rewards)),
            "steps": len(rewards),
            "end": [bool(terminated), bool(truncated)],
        }
    for seed, rules in ((5, Rules()), (6, Rules(deals=3))):
        aec = raw_env(rules=rules)
        aec.reset(seed=seed)
        chooser = random.Random(seed)
        hashed = hashlib.sha256()
        rewards = []
        steps = 0
        while not all(aec.terminations.values()):
            observation, reward, _, _, _ = aec.last()
            hashed.update(observation["observation"].tobytes() + observation["action_mask"].tobytes())
            if reward:
                rewards.append(f"{aec.agent_selection} {reward!r}")
            aec.step(chooser.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
        found[f"pettingzoo seed {seed} {rules}"] = {
            "observations": hashed.hexdigest(),
            "rewards": rewards + [f"final {agent} {aec.rewards[agent]!r}" for agent in aec.agents],
            "steps": steps,
        }
    return found


def server_outputs() -> dict[str, Any]:
    """Bots' games at a server table: the actions it stores (seq, seat, text, game over),
    every frame sent (digests), its log and its records."""
    from persian_rummy.server.tables import Table

    found: dict[str, Any] = {}
    for seed, dealer, seats, rules in (
        (7, 0, ("greedy",) * 4, Rules()),
        (2**100 + 5, 2, ("greedy", "random", "greedy", "random"), Rules(deals=3)),
    ):
        table = Table.new(seats=seats, seed=seed, dealer=dealer, rules=rules, table_id="t")
        stored: list[str] = []
        frames = hashlib.sha256("".join(table.frames([0, 1, 2, 3, None])).encode())
        while not table.finished:
            seat = table.state.current_player
            bot = table.bots[seat]
            assert bot is not None
            before, logged = table.state, len(table.log)
            action, after = table.check(seat, bot(table.state.view(seat)))
            stored.append(f"{table.seq + 1} {seat} {action} {after.is_over}")
            table.commit(action, after)
            if table.state.deal_number != before.deal_number and table.ended is not None:
                frames.update("".join(table.frames([0, 1, 2, 3, None], table.ended, (logged, len(table.log)))).encode())
            frames.update("".join(table.frames([0, 1, 2, 3, None], None, (logged, len(table.log)))).encode())
        found[f"table {seed} {dealer} {seats} {rules}"] = {
            "stored": digest("\n".join(stored)),
            "actions": len(stored),
            "frames": frames.hexdigest(),
            "log": digest("\n".join(f"{mover} {public} {own}" for mover, public, own in table.log)),
            "record": digest(dumps(table.record())),
            "seat records": [digest(table.record_text(seat)) for seat in range(4)],
            "final": table.state.position(),
        }
    return found


SECTIONS = {
    "cli": cli_outputs,
    "arena": arena_outputs,
    "recorder": recorder_outputs,
    "rl": rl_outputs,
    "server": server_outputs,
}


def expected(section: str) -> Any:
    """The stored outputs of ``section``."""
    return json.loads(GOLDEN.read_text(encoding="utf-8"))[section]


if __name__ == "__main__":
    outputs = {name: make() for name, make in SECTIONS.items()}
    text = json.dumps(outputs, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if sys.argv[1:] == ["--write"]:
        GOLDEN.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
