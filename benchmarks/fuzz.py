"""A seeded mutation fuzzer over every parser and loader of persian-rummy.

    python benchmarks/fuzz.py --inputs 1000000 --seed 0
    python benchmarks/fuzz.py --inputs 20000 --target record --trace-memory

It builds a corpus of valid inputs from real games (action texts, cards, hands, melds, rules,
position strings of states and views, their JSON, full and redacted records) and feeds each
reader mutants of it (``--inputs`` in all): characters inserted, deleted, repeated thousands of times
or replaced (control characters, lone surrogates, other scripts, byte-order marks), numbers
made huge, two inputs spliced, and JSON values replaced by other types, long lists and deep
nesting. The readers of values (the encoding's functions, the observation's, the PettingZoo
and Gymnasium environments' constructors, ``reset``, ``observe`` and ``step``, the last three
needing the ``[rl]`` extra) are fed awkward Python values instead: whole numbers small, on a
boundary and huge, nan and the infinities, numpy scalars and arrays, bools, None, mutated bot
specs and other texts, containers, game objects and objects with misbehaving methods; a
refused ``reset``, ``observe`` or ``step`` that changed the game, the agent to act or the
generator counts as undocumented. It reports:

- every exception that is not a documented one (a :class:`~persian_rummy.PersianRummyError`;
  for the command line, any exception at all, or an exit code other than 0 and 2), with the
  target, the exception and a bounded excerpt of the input (``--save DIR`` keeps them whole);
- every input that took more than ``--slow`` seconds (default 1), timed once more so that a
  pause of a busy machine can be told from a slow input, and, with ``--calls N``, every input
  whose reading made more than N function calls (Python's and C's, counted by
  ``sys.setprofile``): the same count on any machine, however busy, so the test uses it;
- the longest error message, and the peak memory: of the process (``resource``) and, with
  ``--trace-memory`` (slower), of the worst single input (``tracemalloc``).

The same seed gives the same inputs. A short run is a test (``tests/test_fuzz.py``); the long
run is a benchmark. The exit code is 1 if anything was found.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from persian_rummy import (
    Action,
    Card,
    GameState,
    Hand,
    Meld,
    PersianRummyError,
    PlayerView,
    Rules,
    legal_actions,
    new_game,
    parse_cards,
    play,
)
from persian_rummy import record as records
from persian_rummy.cli import main as cli_main


def _replay_record(text: str) -> None:
    game = records.loads(text)
    if game.is_redacted:
        for _ in game.views():
            pass
    else:
        game.replay()


def _lenient_record(text: str) -> None:
    game = records.loads(text, check=False)
    if not game.is_redacted:
        game.replay(strict=False)


_CLI_FILE = Path(tempfile.gettempdir()) / f"persian-rummy-fuzz-{os.getpid()}.prr"


def _cli_replay(text: str) -> None:
    _CLI_FILE.write_bytes(text.encode("utf-8", "surrogatepass"))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = cli_main(["replay", str(_CLI_FILE)])
    if code not in (0, 2):
        raise AssertionError(f"exit code {code}")


def _play_text(text: str) -> None:
    play(_PLAY_STATE, text)


_PLAY_STATE = play(new_game(3), "draw")

#: Each reader: (name, function of the text, weight in the mix). Weights keep the slow readers
#: (records replay whole games) from taking the whole run.
TARGETS: tuple[tuple[str, Callable[[str], object], int], ...] = (
    ("action", Action.parse, 8),
    ("play", _play_text, 4),
    ("card", Card.parse, 6),
    ("cards", parse_cards, 6),
    ("hand", Hand.parse, 6),
    ("meld", Meld.parse, 6),
    ("rules", Rules.parse, 6),
    ("rules_json", Rules.from_json, 4),
    ("position", GameState.parse, 6),
    ("view_position", PlayerView.parse, 6),
    ("state_json", GameState.from_json, 4),
    ("view_json", PlayerView.from_json, 4),
    ("record", _replay_record, 2),
    ("record_unchecked", _lenient_record, 1),
    ("cli_replay", _cli_replay, 1),
)


# --- Values: the encoding's functions and the environments' arguments ---------------------
#
# These readers take Python values, not text: a learner's framework hands them whatever it
# holds (numpy scalars, floats, None, containers) and a careless user anything at all. Their
# inputs are drawn by hostile_value() from a pool of awkward values and mutated texts; each
# reader also checks that a refused call changed nothing (a change raises AssertionError,
# which the fuzzer reports as undocumented).


class _BadIndex:
    """An object whose ``__index__`` returns a float and ``__float__`` a string."""

    def __index__(self) -> int:
        return 1.5  # type: ignore[return-value]

    def __float__(self) -> float:
        return "1.5"  # type: ignore[return-value]


class _Unhashable:
    __hash__ = None  # type: ignore[assignment]


def _has_rl_extra() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(name) for name in ("numpy", "pettingzoo", "gymnasium"))


def _numpy_values(rng: random.Random) -> list[Any]:
    if not _has_rl_extra():
        return []
    import numpy as np

    return [
        np.int64(rng.randint(-5, 1440)),
        np.uint64(2**64 - 1),
        np.int8(-1),
        np.float32(rng.choice([0.0, 1.5, float("nan"), 3.0])),
        np.float64(rng.choice([100.0, float("inf"), -0.0])),
        np.bool_(rng.random() < 0.5),
        np.array([rng.randint(0, 3)]),
        np.array(rng.randint(0, 3)),
        np.zeros(2),
    ]


_POSITIONS_FOR_VALUES: list[Any] = []


def hostile_value(rng: random.Random, texts: list[str]) -> Any:
    """One awkward Python value: a whole number (small, on a boundary, huge), a float (nan,
    infinities), a numpy scalar or array, a bool, None, a mutated text or its bytes, a
    container of another value, a game object, or an object with misbehaving methods."""
    if not _POSITIONS_FOR_VALUES:
        state = play(new_game(4), "draw")
        _POSITIONS_FOR_VALUES.extend(
            [state, state.view(0), state.view(1), state.hands[1], Rules(), Action.parse("draw")]
        )
    kind = rng.randrange(12)
    if kind == 0:
        return rng.choice([0, 1, 2, 3, 4, -1, 5, 56, 57, 1435, 1436, 1437, 2**31, 2**63, 2**64, 2**4095, 2**4096])
    if kind == 1:
        return rng.choice([10**5000, -(10**5000), -(2**4096), rng.getrandbits(rng.randint(1, 6000))])
    if kind == 2:
        return rng.randint(-(10**6), 10**6)
    if kind == 3:
        return rng.choice([0.0, -0.0, 1.5, 3.0, 100.0, float("nan"), float("inf"), -float("inf"), 1e308, 5e-324])
    if kind == 4:
        values = _numpy_values(rng)
        return rng.choice(values) if values else rng.randint(0, 3)
    if kind == 5:
        return rng.choice([True, False, None])
    if kind in (6, 7):
        return _mutate_text(rng.choice(texts), rng) if rng.random() < 0.7 else rng.choice(texts)
    if kind == 8:
        return rng.choice(texts).encode("utf-8", "surrogatepass")
    if kind == 9:
        inner = hostile_value(rng, texts)
        shapes: list[Callable[[], Any]] = [
            lambda: [inner],
            lambda: (inner,) * rng.choice([1, 3, 4]),
            lambda: [inner] * 3,
            lambda: {"key": inner},
            lambda: range(3),
            lambda: frozenset([1, 2]),
            lambda: {1, 2},
        ]
        return rng.choice(shapes)()
    if kind == 10:
        return rng.choice(_POSITIONS_FOR_VALUES)
    return rng.choice([_BadIndex(), _Unhashable(), object(), type, print, Ellipsis, 1j])


def _value_texts() -> list[str]:
    return [
        "random", "greedy", "mc", "montecarlo", "mc:samples=8", "mc:samples=2,horizon=3", "mc:history=1",
        "montecarlo:samples=16,horizon=8", "ansi", "svg", "human", "penalize", "raise", "player_0", "player_3",
        "draw", "take 0", "meld 7s 7h 7d", "layoff 2s 1", "discard Jk", "pass", "seed", "x" * 200,
    ]  # fmt: skip


def _refused_changes_nothing(call: Callable[[], object], *snapshots: Callable[[], object]) -> None:
    before = [snapshot() for snapshot in snapshots]
    try:
        call()
    except PersianRummyError:
        if [snapshot() for snapshot in snapshots] != before:
            raise AssertionError("a refused call changed the environment") from None
        raise


def _encoding(value: Any) -> None:
    from persian_rummy.encoding import action_index, action_to_int, int_to_action, legal_flags

    for function in (action_to_int, int_to_action, action_index, legal_flags):
        with contextlib.suppress(PersianRummyError):
            function(value)
    state = _POSITIONS_FOR_VALUES[0]
    with contextlib.suppress(PersianRummyError):
        int_to_action(value, state)
    with contextlib.suppress(PersianRummyError):
        action_to_int("draw", value)
    int_to_action(0, value) if isinstance(value, GameState | PlayerView) else action_to_int(value, state)


def _observation(value: Any) -> None:
    from persian_rummy.observation import action_mask, observation_tensor, seat_tensor

    state = _POSITIONS_FOR_VALUES[0]
    with contextlib.suppress(PersianRummyError):
        seat_tensor(state, value)
    with contextlib.suppress(PersianRummyError):
        seat_tensor(value, 0)
    with contextlib.suppress(PersianRummyError):
        action_mask(value)
    observation_tensor(value)


_ENV_KNOBS = ("rules", "dealer", "reward_scale", "max_actions", "render_mode")
_GYM_KNOBS = (*_ENV_KNOBS, "opponents", "seat", "illegal_action", "illegal_reward")
_BUILT: dict[str, Any] = {}


def _pettingzoo(value: Any, rng: random.Random) -> None:
    from persian_rummy.pettingzoo import raw_env

    choice = rng.randrange(4)
    if choice == 0:
        raw_env(**{rng.choice(_ENV_KNOBS): value})
        return
    game = _BUILT.get("pettingzoo")
    if game is None:
        game = _BUILT["pettingzoo"] = raw_env()
        game.reset(seed=3)
    snapshots = (lambda: game.episode.state, lambda: game.agent_selection, lambda: game._seeds.getstate())
    if choice == 1:
        _refused_changes_nothing(lambda: game.reset(seed=value), *snapshots)
    elif choice == 2:
        _refused_changes_nothing(lambda: game.observe(value), *snapshots)
    else:
        try:
            _refused_changes_nothing(lambda: game.step(value), *snapshots)
        finally:
            game.reset(seed=3)


def _gymnasium(value: Any, rng: random.Random) -> None:
    from persian_rummy.gymnasium import PersianRummyEnv

    choice = rng.randrange(3)
    if choice == 0:
        PersianRummyEnv(**{rng.choice(_GYM_KNOBS): value})  # built, never reset: bots would play
        return
    game = _BUILT.get("gymnasium")
    if game is None:
        game = _BUILT["gymnasium"] = PersianRummyEnv()
        game.reset(seed=3)
    snapshots = (lambda: game.episode.state, lambda: str(game.np_random.bit_generator.state))
    if choice == 1:
        _refused_changes_nothing(lambda: game.reset(seed=value), *snapshots)
    else:
        try:
            _refused_changes_nothing(lambda: game.step(value), *snapshots)
        finally:
            game.reset(seed=3)


#: The readers of values: (name, function of a value and the fuzzer's generator, weight). The
#: environments' and the observation's need the ``[rl]`` extra and are left out without it.
VALUE_TARGETS: tuple[tuple[str, Callable[[Any, random.Random], object], int], ...] = (
    ("encoding_values", lambda value, rng: _encoding(value), 6),
    *(
        (
            ("observation_values", lambda value, rng: _observation(value), 4),
            ("pettingzoo_arguments", _pettingzoo, 6),
            ("gymnasium_arguments", _gymnasium, 6),
        )
        if _has_rl_extra()
        else ()
    ),
)


def corpus(seed: int) -> dict[str, list[str]]:
    """Valid inputs for every target, from a few random games."""
    rng = random.Random(seed)
    out: dict[str, list[str]] = {name: [] for name, _, _ in TARGETS}
    rule_sets = [Rules(), Rules(ace_in_runs="high_or_low", last_card_discard="forbidden"), Rules(deals=1)]
    texts: list[str] = []
    for game in range(4):
        rules = rule_sets[game % len(rule_sets)]
        recorder = records.Recorder(rules=rules, players=("Ann", "Bob", "Cy", "Di"))
        state = recorder.deal(seed=f"{seed}/{game}/1")
        steps = 0
        while True:
            if rng.random() < 0.05 or not state.phase.is_live:
                out["position"].append(state.position())
                out["state_json"].append(state.to_json())
                for seat in range(4):
                    view = state.view(seat)
                    out["view_position"].append(view.position())
                    out["view_json"].append(view.to_json())
            if state.phase.is_live:
                actions = legal_actions(state)
                texts += [str(action) for action in actions[:4]]
                action = rng.choice(actions)
                state = recorder.play(action, comment="a note" if rng.random() < 0.02 else "")
                steps += 1
            elif state.deal_number < rules.deals:
                state = recorder.deal(seed=f"{seed}/{game}/{state.deal_number + 1}")
            else:
                break
        record = recorder.record()
        out["record"].append(records.dumps(record))
        out["record"].append(records.dumps(record.redact(game % 4)))
        out["hand"] += [str(hand) for hand in state.hands]
        out["meld"] += [str(meld) for meld in state.melds] + [" ".join(map(str, meld.cards)) for meld in state.melds]
    out["record_unchecked"] = list(out["record"])
    out["cli_replay"] = list(out["record"])
    out["action"] = sorted(set(texts))
    out["play"] = out["action"]
    out["card"] = ["Qs", "10♥", "Jk", "joker", "🃏", "7D"]
    out["cards"] = out["hand"] + ["4s 5s 6s", "Jk Jk Jk"]
    out["rules"] = [str(rules) for rules in rule_sets] + ["default", "ace_in_runs=high_or_low deals=3"]
    out["rules_json"] = [rules.to_json() for rules in rule_sets]
    return out


_SPECIAL = [
    "\x00", "\x07", "\x1b[2J", "\r", "\n", "\t", "\u2028", "\ufeff", "\ud800", "\udfff", "é", "٣", "²", "🃏",
    "♠", "[", "]", "{", "}", '"', "\\", ",", ":", ";", "@", "+", "-", " ", "0", "9", "e", "null", "true",
]  # fmt: skip
_NUMBERS = ["-1", "0", "55", "56", "99", "4300", "100000000000", "9" * 4301, "9" * 20, "1e308", "-0", "1.5"]


def _mutate_json(text: str, rng: random.Random) -> str | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    nodes: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in node:
                nodes.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for index in range(len(node)):
                nodes.append((node, index))
                walk(node[index])

    walk(value)
    if not nodes:
        return None
    for _ in range(rng.randint(1, 3)):
        parent, key = rng.choice(nodes)
        choice = rng.randrange(9)
        if choice == 0:
            parent[key] = rng.choice([None, True, -1, 0, 10 ** rng.randint(1, 5000), 1.5, "", "x", [], {}])
        elif choice == 1:
            parent[key] = [parent[key]] * rng.choice([2, 5, 57, 100, 1000, 20_000])
        elif choice == 2:
            nested: Any = parent[key]
            for _ in range(rng.choice([10, 100, 1000])):
                nested = [nested]
            parent[key] = nested
        elif choice == 3 and isinstance(parent, dict):
            parent[rng.choice(["extra", "hands", "phase", "__class__", "\ud800"])] = parent[key]
        elif choice == 4 and isinstance(parent, dict):
            del parent[key]
            break
        elif choice == 5 and isinstance(parent[key], int):
            parent[key] = parent[key] + rng.choice([-1, 1, 56, 10**6, -(10**6)])
        elif choice == 6 and isinstance(parent[key], str):
            parent[key] = _mutate_text(parent[key], rng)
        elif choice == 7 and isinstance(parent[key], list) and parent[key]:
            rng.shuffle(parent[key])
        else:
            parent[key] = rng.choice([row[0][row[1]] for row in nodes])
    try:
        return json.dumps(value, ensure_ascii=rng.random() < 0.5)
    except (ValueError, RecursionError):
        return None


def _mutate_text(text: str, rng: random.Random, other: str = "") -> str:
    for _ in range(rng.choice([1, 1, 2, 3, 8])):
        size = len(text)
        position = rng.randint(0, size)
        choice = rng.randrange(10)
        if choice == 0:
            text = text[:position] + rng.choice(_SPECIAL) + text[position:]
        elif choice == 1 and size:
            end = min(size, position + rng.choice([1, 1, 3, 20, 200]))
            text = text[:position] + text[end:]
        elif choice == 2 and size:
            end = min(size, position + rng.choice([1, 5, 40, 400]))
            text = text[:position] + text[position:end] * rng.choice([2, 3, 10, 30, 100, 1000, 5000]) + text[end:]
        elif choice == 3:
            digits = [index for index, char in enumerate(text) if char.isdigit()]
            if digits:
                at = rng.choice(digits)
                text = text[:at] + rng.choice(_NUMBERS) + text[at + 1 :]
        elif choice == 4 and size:
            text = (
                text[:position] + chr(rng.choice([rng.randrange(32), rng.randrange(0x110000)])) + text[position + 1 :]
            )
        elif choice == 5 and other:
            cut = rng.randint(0, len(other))
            text = text[:position] + other[cut:]
        elif choice == 6:
            text = "\ufeff" + text
        elif choice == 7 and size:
            text = text.upper() if rng.random() < 0.5 else text.swapcase()
        elif choice == 8 and "\n" in text:
            lines = text.split("\n")
            line = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[line])
            text = "\n".join(lines)
        elif size:
            words = text.split(" ")
            if len(words) > 1:
                first, second = rng.randrange(len(words)), rng.randrange(len(words))
                words[first], words[second] = words[second], words[first]
                text = " ".join(words)
    return text


def mutant(seeds: list[str], rng: random.Random, json_like: bool) -> str:
    """One mutated input from the seeds of a target."""
    base = rng.choice(seeds)
    if json_like and rng.random() < 0.6:
        mutated = _mutate_json(base, rng)
        if mutated is not None:
            return mutated
    if rng.random() < 0.03:
        return "".join(chr(rng.randrange(0x110000)) for _ in range(rng.randint(0, 40)))
    return _mutate_text(base, rng, rng.choice(seeds))


def _shown_value(value: Any) -> str:
    """A bounded text of a value, for the report."""
    if type(value) is int and value.bit_length() > 400:
        return f"an int of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__}"
    return text[:300]


def _excerpt(text: str, limit: int = 120) -> str:
    return repr(text[:limit]) + (f"... ({len(text)} characters)" if len(text) > limit else "")


def fuzz(
    inputs: int,
    seed: int = 0,
    *,
    targets: list[str] | None = None,
    slow: float = 1.0,
    calls: int | None = None,
    trace_memory: bool = False,
    save: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Run the fuzzer and return its findings (see the module documentation)."""
    rng = random.Random(seed)
    seeds = corpus(seed)
    texts = _value_texts()
    chosen = [row for row in TARGETS if targets is None or row[0] in targets]
    chosen_values = [row for row in VALUE_TARGETS if targets is None or row[0] in targets]
    names = [name for name, _, _ in chosen] + [name for name, _, _ in chosen_values]
    weights = [weight for _, _, weight in chosen] + [weight for _, _, weight in chosen_values]
    readers: dict[str, Callable[[Any], object]] = {name: reader for name, reader, _ in chosen}
    value_readers = {name: reader for name, reader, _ in chosen_values}
    for name, value_reader in value_readers.items():
        # Each value reader draws its own choices from a generator of its own, seeded from the run's.
        readers[name] = partial(value_reader, rng=random.Random(rng.getrandbits(64)))
    counts: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    rejected: Counter[str] = Counter()
    undocumented: list[dict[str, str]] = []
    kinds: Counter[tuple[str, str]] = Counter()
    slow_inputs: list[dict[str, Any]] = []
    heavy_inputs: list[dict[str, Any]] = []
    most_calls = (0, "")
    longest_message = (0, "", "")
    worst_memory = (0, "", "")
    largest_input = 0
    started = time.perf_counter()
    if trace_memory:
        tracemalloc.start()
    for number in range(inputs):
        name = rng.choices(names, weights)[0]
        value: Any = None
        if name in value_readers:
            value = hostile_value(rng, texts)
            text = _shown_value(value)
        else:
            text = mutant(seeds[name], rng, json_like=name.endswith("json"))
            value = text
        largest_input = max(largest_input, len(text))
        counts[name] += 1
        if trace_memory:
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
        begin = time.perf_counter()
        made = 0

        def count(frame: object, event: str, arg: object) -> None:
            nonlocal made
            made += 1

        if calls is not None:
            sys.setprofile(count)
        try:
            readers[name](value)
        except PersianRummyError as error:
            rejected[name] += 1
            message = str(error)
            if len(message) > longest_message[0]:
                longest_message = (len(message), name, message[:200])
            if name == "cli_replay":
                kinds[(name, type(error).__name__)] += 1
                undocumented.append({"target": name, "error": repr(error)[:300], "input": _excerpt(text)})
        except Exception as error:  # what the fuzzer is looking for
            kinds[(name, type(error).__name__)] += 1
            if kinds[(name, type(error).__name__)] <= 5:
                undocumented.append({"target": name, "error": repr(error)[:300], "input": _excerpt(text)})
                if save is not None and name not in value_readers:
                    save.mkdir(parents=True, exist_ok=True)
                    path = save / f"{name}-{type(error).__name__}-{number}.txt"
                    path.write_bytes(text.encode("utf-8", "surrogatepass"))
        finally:
            if calls is not None:
                sys.setprofile(None)
        took = time.perf_counter() - begin
        seconds[name] += took
        most_calls = max(most_calls, (made, name))
        if calls is not None and made > calls:
            heavy_inputs.append({"target": name, "calls": made, "characters": len(text), "input": _excerpt(text)})
        if took > slow:
            # Timed again, alone, so a pause of a busy machine can be told from a slow input.
            again = time.perf_counter()
            with contextlib.suppress(Exception):
                readers[name](value)
            slow_inputs.append(
                {
                    "target": name,
                    "seconds": round(took, 3),
                    "again": round(time.perf_counter() - again, 3),
                    "characters": len(text),
                    "input": _excerpt(text),
                }
            )
            if save is not None and name not in value_readers:
                save.mkdir(parents=True, exist_ok=True)
                (save / f"{name}-slow-{number}.txt").write_bytes(text.encode("utf-8", "surrogatepass"))
        if trace_memory:
            peak = tracemalloc.get_traced_memory()[1] - before
            if peak > worst_memory[0]:
                worst_memory = (peak, name, _excerpt(text, 60))
        if progress is not None and number % 10_000 == 0:
            progress(number)
    if trace_memory:
        tracemalloc.stop()
    with contextlib.suppress(FileNotFoundError):
        _CLI_FILE.unlink()
    elapsed = time.perf_counter() - started
    return {
        "inputs": inputs,
        "seed": seed,
        "seconds": round(elapsed, 1),
        "per_target": dict(counts),
        "seconds_per_target": {name: round(value, 1) for name, value in seconds.items()},
        "rejected": dict(rejected),
        "undocumented": undocumented,
        "undocumented_kinds": {f"{target}: {kind}": count for (target, kind), count in kinds.items()},
        "slow": slow_inputs,
        **({"heavy": heavy_inputs, "most_calls": {"calls": most_calls[0], "target": most_calls[1]}} if calls else {}),
        "longest_message": {"characters": longest_message[0], "target": longest_message[1]},
        "largest_input_characters": largest_input,
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "worst_input_traced_mib": round(worst_memory[0] / 2**20, 2) if trace_memory else None,
        "worst_input_target": worst_memory[1] if trace_memory else None,
        "python": sys.version.split()[0],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000, help="how many inputs (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the corpus and the mutations")
    parser.add_argument("--target", action="append", help="fuzz only this reader (repeatable)")
    parser.add_argument("--slow", type=float, default=1.0, help="report inputs slower than this (seconds)")
    parser.add_argument("--calls", type=int, help="report inputs that make more function calls than this")
    parser.add_argument("--trace-memory", action="store_true", help="measure each input's peak (slower)")
    parser.add_argument("--save", type=Path, help="write the inputs that found something to this folder")
    args = parser.parse_args(argv)
    names = [name for name, _, _ in TARGETS] + [name for name, _, _ in VALUE_TARGETS]
    for name in args.target or ():
        if name not in names:
            parser.error(f"no target {name!r}; choose from {', '.join(names)}")

    def progress(number: int) -> None:
        print(f"  {number:,} inputs", file=sys.stderr, flush=True)

    report = fuzz(
        args.inputs,
        args.seed,
        targets=args.target,
        slow=args.slow,
        calls=args.calls,
        trace_memory=args.trace_memory,
        save=args.save,
        progress=progress,
    )
    print(json.dumps(report, indent=2, ensure_ascii=True))
    slow_again = [item for item in report["slow"] if item["again"] > args.slow]
    return 1 if report["undocumented"] or slow_again or report.get("heavy") else 0


if __name__ == "__main__":
    raise SystemExit(main())
