"""Every parser, fed truncated, shuffled and random input, raises only our documented
exceptions (subclasses of PersianRummyError), never a bare KeyError, IndexError, TypeError..."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st
from playouts import RULE_SETS, reachable_states

from persian_rummy import (
    Action,
    Card,
    GameState,
    Hand,
    Meld,
    Observation,
    PersianRummyError,
    PlayerView,
    Rules,
    new_game,
    parse_cards,
)
from persian_rummy import record as records
from persian_rummy.record import GameRecord, RecordedAction

PARSERS: dict[str, Callable[[object], object]] = {
    "Card.parse": Card.parse,  # type: ignore[dict-item]
    "parse_cards": parse_cards,  # type: ignore[dict-item]
    "Hand.parse": Hand.parse,  # type: ignore[dict-item]
    "Meld.parse": Meld.parse,  # type: ignore[dict-item]
    "Rules.parse": Rules.parse,  # type: ignore[dict-item]
    "Action.parse": Action.parse,  # type: ignore[dict-item]
    "RecordedAction.parse": RecordedAction.parse,  # type: ignore[dict-item]
    "Observation.parse": Observation.parse,  # type: ignore[dict-item]
    "GameState.parse": GameState.parse,  # type: ignore[dict-item]
    "PlayerView.parse": PlayerView.parse,  # type: ignore[dict-item]
    "GameState.from_json": GameState.from_json,  # type: ignore[dict-item]
    "PlayerView.from_json": PlayerView.from_json,  # type: ignore[dict-item]
    "Rules.from_json": Rules.from_json,  # type: ignore[dict-item]
    "record.loads": records.loads,  # type: ignore[dict-item]
}

_STATE = new_game(1)
_RECORD = GameRecord.from_actions([(1, ["draw", "discard Jk ; x", "draw", "discard Kc"])])
#: A valid input for each parser, to truncate, shuffle and mutate.
VALID: dict[str, str] = {
    "Card.parse": "10♥",
    "parse_cards": "4s, 4d, 4h Jk",
    "Hand.parse": "Jk 4s 4d Jk Ah",
    "Meld.parse": "3c+0 4c@3 5c@3 6c@3",
    "Rules.parse": "deals=1 ace_in_runs=high_or_low going_out_bonus=50",
    "Action.parse": "layoff 8h 2",
    "RecordedAction.parse": "W meld 7h 7d 7s ; three sevens",
    "Observation.parse": "S take 2 = 7h 8h Jk",
    "GameState.parse": _STATE.position(),
    "PlayerView.parse": _STATE.view(2).position(),
    "GameState.from_json": _STATE.to_json(),
    "PlayerView.from_json": _STATE.view(2).to_json(),
    "Rules.from_json": RULE_SETS[1].to_json(),
    "record.loads": records.dumps(_RECORD),
}


def only_our_errors(name: str, value: object) -> None:
    # Our errors are the documented outcome; anything else escapes and fails the test.
    with contextlib.suppress(PersianRummyError):
        PARSERS[name](value)


parser_names = st.sampled_from(sorted(PARSERS))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20,
)


@given(parser_names, st.text(max_size=300) | st.binary(max_size=300))
def test_random_text_and_bytes(name: str, value: str | bytes) -> None:
    only_our_errors(name, value)


@given(parser_names, st.none() | st.integers() | st.floats() | st.lists(st.integers(), max_size=3))
def test_values_that_are_not_text(name: str, value: object) -> None:
    only_our_errors(name, value)


@given(parser_names, st.data())
def test_truncated_valid_input(name: str, data: st.DataObject) -> None:
    text = VALID[name]
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    only_our_errors(name, text[start:end])
    only_our_errors(name, text[:start] + text[end:])


@given(parser_names, st.randoms(use_true_random=False), st.sampled_from(["", " ", "\n", "/", ",", ":"]))
def test_shuffled_valid_input(name: str, rng: object, separator: str) -> None:
    text = VALID[name]
    parts = text.split(separator) if separator else list(text)
    rng.shuffle(parts)  # type: ignore[attr-defined]
    only_our_errors(name, separator.join(parts))


@given(parser_names, st.data())
def test_valid_input_with_a_character_changed(name: str, data: st.DataObject) -> None:
    text = VALID[name]
    index = data.draw(st.integers(0, len(text) - 1))
    replacement = data.draw(st.characters() | st.sampled_from('0123456789?-+/@:=;[]{}" sJk'))
    only_our_errors(name, text[:index] + replacement + text[index + 1 :])


@given(st.sampled_from(["GameState.from_json", "PlayerView.from_json", "Rules.from_json"]), json_values)
def test_random_json_values(name: str, value: object) -> None:
    only_our_errors(name, json.dumps(value))


def _leaves(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in _leaves(item, (*path, key))] + [path]
    if isinstance(value, list):
        return [leaf for index, item in enumerate(value) for leaf in _leaves(item, (*path, index))] + [path]
    return [path]


@given(reachable_states(), st.integers(0, 3), st.data(), json_values)
def test_valid_json_with_a_part_replaced(state: GameState, seat: int, data: st.DataObject, value: object) -> None:
    for name, text in (("GameState.from_json", state.to_json()), ("PlayerView.from_json", state.view(seat).to_json())):
        document = json.loads(text)
        path = data.draw(st.sampled_from(_leaves(document)))
        if not path:
            continue
        target = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        only_our_errors(name, json.dumps(document))
        del target[path[-1]]
        only_our_errors(name, json.dumps(document))


@given(reachable_states(), st.integers(0, 3), st.data())
def test_valid_positions_with_a_field_mangled(state: GameState, seat: int, data: st.DataObject) -> None:
    for name, text in (("GameState.parse", state.position()), ("PlayerView.parse", state.view(seat).position())):
        words = text.split(" ")
        index = data.draw(st.integers(0, len(words) - 1))
        words[index] = data.draw(st.sampled_from(words) | st.text(max_size=12))
        only_our_errors(name, " ".join(words))


def test_every_parser_has_a_valid_example() -> None:
    for name, text in VALID.items():
        PARSERS[name](text)  # must not raise
