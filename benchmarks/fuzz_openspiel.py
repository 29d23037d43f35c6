"""A seeded mutation fuzzer over the OpenSpiel adapter's readers (needs the ``[rl]`` extra).

    python benchmarks/fuzz_openspiel.py --inputs 200000 --seed 0 2>/dev/null
    python benchmarks/fuzz_openspiel.py --inputs 2000 --target openspiel_text

It builds a corpus from real games of ``python_persian_rummy`` under several parameters and
feeds each reader mutants of it: text mutants made as ``benchmarks/fuzz.py`` makes them
(characters inserted, deleted, repeated or replaced, numbers made huge, lines repeated,
inputs spliced), and mutants made for each reader (below):

- ``openspiel_text``: a state's own text (``state.serialize()``), read back by
  ``game.deserialize_state`` of one of the games; half of its mutants change only the
  history's actions (replaced, inserted, deleted, repeated, swapped) and keep its length
  right, so that the replay's checks refuse them;
- ``openspiel_envelope``: OpenSpiel's text of a game and state
  (``pyspiel.serialize_game_and_state``), its state part's pickle included, read back by
  ``pyspiel.deserialize_game_and_state``;
- ``openspiel_envelope_ours``: the same texts, read back by the library's own reader of
  them, :func:`persian_rummy.openspiel.deserialize_game_and_state`, which unpickles nothing;
- ``openspiel_game_string``: a game's string, loaded by ``pyspiel.load_game``;
- ``openspiel_params_json``: the game's parameters as JSON, given to ``PersianRummyGame``;
  most of its mutants replace values by others of every type, and add, remove or misspell
  names.

The library's own readers (all but the envelope's and the game string's) may raise only a
:class:`~persian_rummy.PersianRummyError`. OpenSpiel's (the other two) may also raise its
``pyspiel.SpielError``; any other exception is undocumented if it was raised in the package's
code, and counted apart as OpenSpiel's own if not (its reader unpickles the state's part and
sets its attributes before the game runs: a damaged pickle raises what ``pickle`` raises). A
state that loads must replay: its text written again must read back as the same state. The
report says how many inputs each reader took and refused, every undocumented exception (with
a bounded excerpt of its input), every input that took more than ``--slow`` seconds of the
process's CPU time (not of the clock: the long run shares a busy machine; with how it
ended: OpenSpiel's parser of a game's string is slow on long ones, and raises its
``SpielError``), and whether any pickle ran code. The exit code is 1 if anything undocumented or slow was found.

OpenSpiel's own parser of a game's string takes time and memory that grow fast with its
length (a string of 110,000 characters took 700 MB): OpenSpiel's readers are given game
strings of ``GAME_STRING_LIMIT`` (2,000) characters at most, and the longer mutants are
counted as skipped (the library's reader refuses game strings of over 1,000 characters
itself). C++ OpenSpiel prints each ``SpielError`` it raises on the standard error: send it
to ``/dev/null``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel
from fuzz import mutant

import persian_rummy
from persian_rummy import PersianRummyError
from persian_rummy.openspiel import PersianRummyGame, PersianRummyState, deserialize_game_and_state

_PACKAGE = str(Path(persian_rummy.__file__).resolve().parent)

#: The games the corpus is made from, and the readers read with.
PARAMETERS: list[dict[str, Any]] = [
    {"deals": 1},
    {},
    {"deals": 1, "ace_in_runs": "high_or_low", "last_card_discard": "forbidden", "utility": "margin"},
    {"deals": 3, "going_out_bonus": 0, "top_card_must_meld": False},
]
_GAMES: list[PersianRummyGame] = [PersianRummyGame(params) for params in PARAMETERS]

#: Set by a pickle if one ever ran code while it was read (none may).
RAN: list[str] = []


def _ran(text: str) -> None:
    RAN.append(text)


def _play(game: pyspiel.Game, rng: random.Random, steps: int) -> PersianRummyState:
    state: PersianRummyState = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choices(outcomes, weights)[0]))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def corpus(seed: int) -> dict[str, list[str]]:
    """Valid inputs for every target, from games played at random with ``seed``."""
    rng = random.Random(seed)
    texts: list[str] = []
    envelopes: list[str] = []
    for game in _GAMES:
        for steps in (0, 1, 28, 29, 30, 31, 33, 40, 60, 120, 250):
            state = _play(game, rng, steps)
            texts.append(state.serialize())
            envelopes.append(pyspiel.serialize_game_and_state(game, state))
    names = [str(game) for game in _GAMES] + ["python_persian_rummy()", "python_persian_rummy(deals=1000)"]
    params = [json.dumps(value) for value in PARAMETERS] + [
        json.dumps({"deals": 1000, "going_out_bonus": 1000, "stock_out_end": "all_pass", "utility": "win"}),
        json.dumps({"pickup_use": "meld_or_lay_off", "double_four_jokers": False}),
    ]
    return {
        "openspiel_text": texts,
        "openspiel_envelope": envelopes,
        "openspiel_envelope_ours": envelopes,
        "openspiel_game_string": names,
        "openspiel_params_json": params,
    }


def _read_text(text: str) -> None:
    game = _GAMES[len(text) % len(_GAMES)]
    state = game.deserialize_state(text)
    again = game.deserialize_state(state.serialize())
    if again.history() != state.history() or str(again) != str(state):
        raise AssertionError("a state read from a text does not read back as itself")


def _read_envelope(text: str) -> None:
    game, state = pyspiel.deserialize_game_and_state(text)
    if isinstance(state, PersianRummyState):
        again = game.deserialize_state(state.serialize())
        if again.history() != state.history() or str(again) != str(state):
            raise AssertionError("a state read from OpenSpiel's text does not read back as itself")


def _read_envelope_ours(text: str) -> None:
    game, state = deserialize_game_and_state(text)
    again = game.deserialize_state(state.serialize())
    if again.history() != state.history() or str(again) != str(state):
        raise AssertionError("a state read from OpenSpiel's text does not read back as itself")


#: The longest game string given to OpenSpiel's own parser: its time and memory grow fast with
#: the length (a string of 110,000 characters of "name()" groups took 700 MB).
GAME_STRING_LIMIT = 2000


def _game_section(text: str) -> str:
    """The [Game] section of OpenSpiel's text, as its reader joins it."""
    lines = text.split("\n")
    if "[Game]" not in lines:
        return ""
    after = lines[lines.index("[Game]") + 1 :]
    return "\n".join(after[: after.index("[State]")] if "[State]" in after else after)


def _load_game_string(text: str) -> None:
    game = pyspiel.load_game(text)
    if isinstance(game, PersianRummyGame):
        game.new_initial_state().chance_outcomes()


def _params_json(params: Any) -> None:
    PersianRummyGame(params)


def _json(text: str) -> Any:
    """The JSON value of ``text`` (``None`` if it is no JSON): parsed before the reader is
    timed, as the reader is not the JSON parser."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _text(text: str) -> Any:
    return text


#: Each target: its name, its reader, its weight, whether OpenSpiel's reader is in it, and
#: what the reader is given of the input.
TARGETS: list[tuple[str, Callable[[Any], None], float, bool, Callable[[str], Any]]] = [
    ("openspiel_text", _read_text, 4.0, False, _text),
    ("openspiel_envelope", _read_envelope, 3.0, True, _text),
    ("openspiel_envelope_ours", _read_envelope_ours, 2.0, False, _text),
    ("openspiel_game_string", _load_game_string, 1.0, True, _text),
    ("openspiel_params_json", _params_json, 2.0, False, _json),
]


def _raised_in_package(error: BaseException) -> bool:
    """Whether a frame of the package's code is on ``error``'s traceback."""
    return any(
        str(Path(frame.filename).resolve()).startswith(_PACKAGE) for frame in traceback.extract_tb(error.__traceback__)
    )


def _excerpt(text: str, limit: int = 120) -> str:
    return repr(text[:limit]) + (f"... ({len(text)} characters)" if len(text) > limit else "")


def _crafted(seeds: list[str], rng: random.Random) -> str:
    """An OpenSpiel text whose state part is a pickle that runs code when it is read."""
    import base64
    import pickle

    class Crafted:
        def __reduce__(self) -> tuple[object, ...]:
            return (_ran, ("code ran",))

    base = rng.choice(seeds)
    head = base.rpartition("__dict__=")[0]
    payload: Any = rng.choice([{"_node": Crafted()}, {"x": Crafted()}, {"_node": [Crafted()]}, [Crafted()]])
    return head + "__dict__=" + base64.b64encode(pickle.dumps(payload)).decode()


def _mutate_history(text: str, rng: random.Random) -> str:
    """``text`` with its history changed (an action replaced, inserted, deleted, repeated or
    two swapped) and its length kept right, so that the replay is what refuses it."""
    head, _, history = text.rpartition("\n")
    actions = history.partition(": ")[2].split(" ") if ": " in history else []
    for _ in range(rng.choice([1, 1, 2, 5])):
        at = rng.randrange(len(actions) + 1)
        choice = rng.randrange(5)
        number = str(rng.choice([rng.randrange(53), rng.randrange(1436), 0, 57]))
        if choice == 0 and actions:
            actions[min(at, len(actions) - 1)] = number
        elif choice == 1:
            actions.insert(at, number)
        elif choice == 2 and actions:
            del actions[min(at, len(actions) - 1)]
        elif choice == 3 and actions:
            actions[at:at] = actions[at : at + rng.choice([1, 4, 30])] * rng.choice([2, 10])
        elif len(actions) > 1:
            first, second = rng.randrange(len(actions)), rng.randrange(len(actions))
            actions[first], actions[second] = actions[second], actions[first]
    return f"{head}\nhistory {len(actions)}:" + "".join(" " + action for action in actions)


_VALUES: list[Any] = [
    None, True, False, -1, 0, 1, 2, 1000, 1001, 10**30, -(10**30), 1.5, float("inf"), "", "x", "2", "high",
    "high_or_low", "win", "margin", "\ud800", "\x00", [], [1], {}, {"deals": 1}, "9" * 5000,
]  # fmt: skip
_NAMES: list[str] = ["deal", "Deals", "deals ", "utility", "__class__", "", "\ud800", "x" * 300, "1"]


def _mutate_params(text: str, rng: random.Random) -> str:
    """The parameters ``text`` (a JSON object) with values replaced by others of any type,
    names added, removed or misspelt (bounded: each value is small)."""
    params: dict[str, Any] = json.loads(text)
    for _ in range(rng.choice([1, 1, 2, 3])):
        choice = rng.randrange(4)
        if choice == 0 or not params:
            params[rng.choice([*PARAMETERS[2], *_NAMES])] = rng.choice(_VALUES)
        elif choice == 1:
            params[rng.choice(list(params))] = rng.choice(_VALUES)
        elif choice == 2:
            del params[rng.choice(list(params))]
        else:
            params[rng.choice(_NAMES)] = params.pop(rng.choice(list(params)))
    return json.dumps(params)


def fuzz(
    inputs: int,
    seed: int = 0,
    *,
    targets: list[str] | None = None,
    slow: float = 1.0,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Run the fuzzer and return its findings (see the module documentation)."""
    rng = random.Random(seed)
    seeds = corpus(seed)
    chosen = [row for row in TARGETS if targets is None or row[0] in targets]
    names = [row[0] for row in chosen]
    weights = [row[2] for row in chosen]
    rows = {row[0]: row for row in chosen}
    counts: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    rejected: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    openspiels: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    undocumented: list[dict[str, str]] = []
    slow_inputs: list[dict[str, Any]] = []
    longest = 0
    started = time.perf_counter()
    cpu = time.process_time()
    for number in range(inputs):
        name = rng.choices(names, weights)[0]
        _, reader, _, openspiel_reader, prepare = rows[name]
        if name.startswith("openspiel_envelope") and rng.random() < 0.02:
            text = _crafted(seeds[name], rng)
        elif name == "openspiel_text" and rng.random() < 0.5:
            text = _mutate_history(rng.choice(seeds[name]), rng)
        elif name == "openspiel_params_json" and rng.random() < 0.6:
            text = _mutate_params(rng.choice(seeds[name]), rng)
        else:
            text = mutant(seeds[name], rng, json_like=False)
        if (
            openspiel_reader
            and len(text if name == "openspiel_game_string" else _game_section(text)) > GAME_STRING_LIMIT
        ):
            skipped[name] += 1
            continue
        counts[name] += 1
        value = prepare(text)
        outcome = "read"
        begin = time.process_time()
        try:
            reader(value)
        except PersianRummyError as error:
            rejected[name] += 1
            longest = max(longest, len(str(error)))
            outcome = type(error).__name__
        except pyspiel.SpielError as error:
            outcome = "SpielError"
            if not openspiel_reader:
                kinds[f"{name}: {type(error).__name__}"] += 1
                undocumented.append({"target": name, "error": repr(error)[:300], "input": _excerpt(text)})
            else:
                rejected[name] += 1
        except Exception as error:  # what the fuzzer is looking for
            outcome = type(error).__name__
            if openspiel_reader and not _raised_in_package(error) and not isinstance(error, AssertionError):
                openspiels[f"{name}: {type(error).__name__}"] += 1
                outcome += " (OpenSpiel's)"
            else:
                kinds[f"{name}: {type(error).__name__}"] += 1
                if kinds[f"{name}: {type(error).__name__}"] <= 5:
                    undocumented.append({"target": name, "error": repr(error)[:300], "input": _excerpt(text)})
        took = time.process_time() - begin
        seconds[name] += took
        if took > slow:
            again = time.process_time()
            with contextlib.suppress(Exception):
                reader(value)
            slow_inputs.append(
                {
                    "target": name,
                    "seconds": round(took, 3),
                    "again": round(time.process_time() - again, 3),
                    "outcome": outcome,
                    "characters": len(text),
                    "input": _excerpt(text),
                }
            )
        if progress is not None and number % 10_000 == 0:
            progress(number)
    return {
        "inputs": inputs,
        "seed": seed,
        "seconds": round(time.perf_counter() - started, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "per_target": dict(counts),
        "skipped_long_game_strings": dict(skipped),
        "rejected": dict(rejected),
        "seconds_per_target": {name: round(value, 1) for name, value in seconds.items()},
        "undocumented": undocumented,
        "undocumented_kinds": dict(kinds),
        "openspiels_own": dict(openspiels),
        "code_ran": len(RAN),
        "slow": slow_inputs,
        "longest_message_characters": longest,
        "python": sys.version.split()[0],
        "open_spiel": "2.0.2",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000, help="how many inputs (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the corpus and the mutations")
    parser.add_argument("--target", action="append", help="fuzz only this reader (repeatable)")
    parser.add_argument("--slow", type=float, default=1.0, help="report inputs that take more CPU seconds than this")
    args = parser.parse_args(argv)
    names = [row[0] for row in TARGETS]
    for name in args.target or ():
        if name not in names:
            parser.error(f"no target {name!r}; choose from {', '.join(names)}")

    def progress(number: int) -> None:
        print(f"  {number:,} inputs", file=sys.stdout, flush=True)

    report = fuzz(args.inputs, args.seed, targets=args.target, slow=args.slow, progress=progress)
    print(json.dumps(report, indent=2, ensure_ascii=True))
    # OpenSpiel's own parser of a game's string is slow on long ones (it raises SpielError).
    slow_again = [item for item in report["slow"] if item["again"] > args.slow and item["outcome"] != "SpielError"]
    return 1 if report["undocumented"] or report["code_ran"] or slow_again else 0


if __name__ == "__main__":
    raise SystemExit(main())
