"""Hostile input to the vectorized engine: every entry point refuses what it cannot take with
the library's errors, naming the row, the field or the argument, and never reads a seat's
cards into another seat's observation (R1, R3, R7, R11, R16, R27)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from persian_rummy import (
    ArgumentTypeError,
    GameState,
    InvalidArgumentError,
    InvalidStateError,
    Rules,
    legal_actions,
    new_game,
    next_deal,
    play,
)
from persian_rummy.encoding import NUM_ACTIONS
from persian_rummy.observation import observation_tensor
from persian_rummy.vector import Env, State, sample_legal, sample_policy
from persian_rummy.vector._checks import action_number
from persian_rummy.vector._state import STATE_FIELDS

ENV = Env()
_MELDED = GameState.from_position(
    ["4s 4d", "Qs Ks As", "Th", "9c"], "2c 9h", melds=["7s@0 7h@0 7d@0", "Jk@1 Jk@1 Jk@1 Jk+2"]
)
# Row 0 a fresh deal, row 1 a position with a natural meld and a set of jokers with one laid off.
_BATCH = ENV.from_states([new_game(3), _MELDED])


def corrupt(name: str, index: tuple[int, ...], value: Any, batch: State = _BATCH) -> State:
    """``batch`` with one value of one field changed (``index`` starts with the row)."""
    inner = name not in STATE_FIELDS
    array = np.array(getattr(batch._x if inner else batch, name))
    array[index] = value
    if inner:
        return batch.replace(_x=batch._x.replace(**{name: jnp.asarray(array)}))
    return batch.replace(**{name: jnp.asarray(array)})


def corrupt_seat(row: int, seat: int) -> State:
    """``_BATCH`` with the seat to act of one row changed, in the State and in its position."""
    batch = corrupt("current_player", (row,), seat)
    players = np.array(batch._x.current_player)
    players[row] = seat
    return batch.replace(_x=batch._x.replace(current_player=jnp.asarray(players)))


def seat_holding(row: int, seat: int) -> int:
    return int(np.nonzero(np.asarray(_BATCH._x.hands[row, seat, :52]))[0][0])


_SEAT1_CARD = seat_holding(0, 1)

ROWS: list[tuple[str, Callable[[], State], str]] = [
    ("a card in two hands (R1)", lambda: corrupt("hands", (1, 0, 45), 1), r"row 1: R1"),
    ("a card of seat 1 in seat 0's hand too", lambda: corrupt("hands", (0, 0, _SEAT1_CARD), 1), r"row 0: R1"),
    ("five jokers", lambda: corrupt("hands", (0, 0, 52), 5), r"row 0, field hands: a seat holds 0-4 jokers"),
    ("a negative count", lambda: corrupt("hands", (1, 2, 3), -1), r"row 1, field hands"),
    ("a natural held twice", lambda: corrupt("hands", (0, 0, 0), 2), r"row 0, field hands"),
    ("current_player 9", lambda: corrupt_seat(0, 9), r"row 0, field current_player: must be 0 to 3"),
    ("dealer -1", lambda: corrupt("dealer", (1,), -1), r"row 1, field dealer"),
    ("phase -1", lambda: corrupt("phase", (0,), -1), r"row 0, field phase"),
    ("phase 7", lambda: corrupt("phase", (0,), 7), r"row 0, field phase"),
    ("must_meld 60", lambda: corrupt("must_meld", (0,), 60), r"row 0, field must_meld"),
    ("deal_number 0", lambda: corrupt("deal_number", (0,), 0), r"row 0, field deal_number: must be 1 to 2"),
    ("deal_number 3 of 2 deals", lambda: corrupt("deal_number", (1,), 3), r"row 1, field deal_number"),
    ("went_out 4", lambda: corrupt("went_out", (0,), 4), r"row 0, field went_out"),
    ("passes -1", lambda: corrupt("passes", (0,), -1), r"row 0, field passes"),
    ("idle_turns -3", lambda: corrupt("idle_turns", (0,), -3), r"row 0, field idle_turns"),
    ("idle_turns 9 (R21)", lambda: corrupt("idle_turns", (0,), 9), r"row 0: R20-R21"),
    ("stock_size 57", lambda: corrupt("stock_size", (0,), 57), r"row 0, field stock_size"),
    ("stock_size -1", lambda: corrupt("stock_size", (0,), -1), r"row 0, field stock_size"),
    ("a stock card 60", lambda: corrupt("stock", (0, 0), 60), r"row 0, field stock: must hold card indices"),
    ("a card above the stock's top", lambda: corrupt("stock", (0, 40), 3), r"row 0, field stock"),
    ("pile_size 80", lambda: corrupt("pile_size", (0,), 80), r"row 0, field pile_size"),
    ("a pile card -2", lambda: corrupt("pile", (0, 0), -2), r"row 0, field pile"),
    ("num_melds 19", lambda: corrupt("num_melds", (1,), 19), r"row 1, field num_melds"),
    ("num_melds 3 with two melds", lambda: corrupt("num_melds", (1,), 3), r"row 1, field meld_id"),
    ("meld id 500", lambda: corrupt("meld_id", (1, 0), 500), r"row 1, field meld_id"),
    ("a meld id past num_melds", lambda: corrupt("meld_id", (0, 5), 10), r"row 0, field meld_id"),
    ("a meld's seat 7", lambda: corrupt("meld_seat", (1, 0, 5), 7), r"row 1, field meld_seat"),
    ("a seat for a card not in the meld", lambda: corrupt("meld_seat", (1, 0, 0), 1), r"row 1, field meld_seat"),
    ("a lay-off flag off the meld", lambda: corrupt("meld_laid", (1, 0, 0), True), r"row 1, field meld_laid"),
    ("a joker laid on a natural meld", lambda: corrupt("joker_seat", (1, 0), 2), r"row 1, field joker_seat"),
    ("a joker's place 5", lambda: corrupt("joker_pos", (1, 1), 5), r"row 1, field joker_pos"),
    ("a joker's place without its seat", lambda: corrupt("joker_pos", (0, 1), 2), r"row 0, field joker_pos"),
    ("table points off by one", lambda: corrupt("table_points", (1, 0), 1), r"row 1, field table_points"),
    ("a finished game not terminated", lambda: corrupt("phase", (0,), 3), r"row 0, field terminated"),
    ("truncated", lambda: corrupt("truncated", (0,), True), r"row 0, field truncated"),
    ("a NaN reward", lambda: corrupt("rewards", (0, 2), np.nan), r"row 0, field rewards"),
    ("a public seat not the position's", lambda: corrupt("current_player", (1,), 2), r"row 1, field current_player"),
    ("a negative step count", lambda: corrupt("_step_count", (1,), -4), r"row 1, field step_count"),
    ("a later deal's deck with a card twice", lambda: corrupt("decks", (1, 0, 3), 52), r"row 1, field decks"),
    ("a later deal's deck with card 99", lambda: corrupt("decks", (0, 0, 10), 99), r"row 0, field decks"),
]


@pytest.mark.parametrize(("case", "make", "match"), ROWS, ids=[case for case, _, _ in ROWS])
def test_to_states_refuses_a_corrupted_row_naming_row_and_field(
    case: str, make: Callable[[], State], match: str
) -> None:
    with pytest.raises(InvalidStateError, match=match):
        ENV.to_states(make())
    if "field" in match and "table_points" not in match:  # the field checks run without the validator too
        with pytest.raises(InvalidStateError, match=match):
            ENV.to_states(make(), validate=False)


def _inner(**changes: Any) -> State:
    return _BATCH.replace(_x=_BATCH._x.replace(**changes))


SHAPES: list[tuple[str, Callable[[], State], type[Exception], str]] = [
    (
        "a float phase",
        lambda: _inner(phase=_BATCH._x.phase.astype(jnp.float32)),
        ArgumentTypeError,
        r"State._x.phase must be of dtype int32, not float32",
    ),
    (
        "hands as int32",
        lambda: _inner(hands=_BATCH._x.hands.astype(jnp.int32)),
        ArgumentTypeError,
        r"State._x.hands must be of dtype int8",
    ),
    (
        "hands of 52 columns",
        lambda: _inner(hands=_BATCH._x.hands[..., :52]),
        InvalidArgumentError,
        r"State._x.hands must have shape",
    ),
    (
        "a float64 observation",
        lambda: _BATCH.replace(observation=np.asarray(_BATCH.observation, np.float64)),
        ArgumentTypeError,
        r"State.observation must be of dtype float32",
    ),
    (
        "a mask of 1435 actions",
        lambda: _BATCH.replace(legal_action_mask=_BATCH.legal_action_mask[:, :-1]),
        InvalidArgumentError,
        r"State.legal_action_mask must have shape",
    ),
    (
        "rows that disagree",
        lambda: _inner(phase=jnp.zeros(3, jnp.int32)),
        InvalidArgumentError,
        r"State._x.phase has leading axes \(3,\)",
    ),
    (
        "a list for an array",
        lambda: _inner(dealer=[0, 1]),
        ArgumentTypeError,
        r"State._x.dealer must be an array",
    ),
    (
        "two decks for a game of two deals",
        lambda: _inner(decks=jnp.concatenate([_BATCH._x.decks, _BATCH._x.decks], axis=1)),
        InvalidArgumentError,
        r"State._x.decks must have shape \(batch..., 1, 56\)",
    ),
    (
        "a dict for the position",
        lambda: _BATCH.replace(_x={"hands": _BATCH._x.hands}),  # type: ignore[arg-type]
        ArgumentTypeError,
        r"State._x must be a GameArrays",
    ),
]


@pytest.mark.parametrize(("case", "make", "error", "match"), SHAPES, ids=[case for case, *_ in SHAPES])
def test_a_state_of_wrong_shapes_or_dtypes_is_refused_everywhere(
    case: str, make: Callable[[], State], error: type[Exception], match: str
) -> None:
    bad = make()
    with pytest.raises(error, match=match):
        ENV.to_states(bad)
    one = jax.tree_util.tree_map(lambda leaf: leaf[0] if np.ndim(leaf) else leaf, bad)
    # One game has no batch axis to disagree on, and JAX itself turns float64 into float32
    # where 64-bit numbers are off (its default), before step sees it.
    if case not in ("rows that disagree", "a dict for the position", "a float64 observation"):
        with pytest.raises(error, match=match.replace("(batch..., ", "(")):
            jax.eval_shape(ENV.step, one, 0, jax.random.PRNGKey(0))
        with pytest.raises(error, match=match.replace("(batch..., ", "(")):
            jax.eval_shape(ENV.observe, one, 0)


def test_to_states_refuses_two_batch_axes_and_names_the_state_type() -> None:
    doubled = jax.tree_util.tree_map(lambda leaf: leaf[None], _BATCH)
    with pytest.raises(InvalidArgumentError, match="one leading axis"):
        ENV.to_states(doubled)
    with pytest.raises(ArgumentTypeError, match="step takes a State"):
        ENV.step("state", 0, jax.random.PRNGKey(0))  # type: ignore[arg-type]


_ONE = jax.tree_util.tree_map(lambda leaf: leaf[0], _BATCH)
_KEY = jax.random.PRNGKey(0)


@pytest.mark.parametrize(
    ("action", "error", "match"),
    [
        (0.5, ArgumentTypeError, r"action must be a whole number .*0\.5 \(float\)"),
        (float("nan"), ArgumentTypeError, r"action must be a whole number"),
        (jnp.float32(3.0), ArgumentTypeError, r"action must be a whole number .*\(float32\)"),
        (True, ArgumentTypeError, r"action must be a whole number .*\(bool\)"),
        (jnp.bool_(False), ArgumentTypeError, r"action must be a whole number"),
        ("0", ArgumentTypeError, r"action must be a whole number"),
        (jnp.zeros(3, jnp.int32), InvalidArgumentError, r"action must be one number per game .*shape \(3,\)"),
    ],
    ids=["half", "nan", "float32", "bool", "jax bool", "text", "shape 3"],
)
def test_an_action_that_is_not_one_whole_number_is_refused_at_trace_time(
    action: object, error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):  # the value as it is, inside a traced function
        jax.eval_shape(lambda state: ENV.step(state, action, _KEY), _ONE)
    if not isinstance(action, str):
        with pytest.raises(error, match=match.split(" .*")[0]):  # and as a tracer, under jit
            jax.jit(ENV.step).trace(_ONE, action, _KEY)


def test_batched_actions_of_the_wrong_shape_name_the_action() -> None:
    keys = jax.random.split(_KEY, 2)
    with pytest.raises(InvalidArgumentError, match=r"action must be one number per game .*shape \(2,\)"):
        jax.eval_shape(jax.vmap(ENV.step), _BATCH, jnp.zeros((2, 2), jnp.int32), keys)
    with pytest.raises(ArgumentTypeError, match="action must be a whole number"):
        jax.eval_shape(jax.vmap(ENV.step), _BATCH, jnp.zeros(2, jnp.float32), keys)


def test_integer_actions_of_any_width_are_taken_and_a_huge_one_is_illegal() -> None:
    for action in (np.int64(5), jnp.uint8(5), np.int16(5), 10**20):
        shapes = jax.eval_shape(lambda state, action=action: ENV.step(state, action, _KEY), _ONE)
        assert shapes.terminated.dtype == jnp.bool_


@pytest.mark.parametrize(
    ("key", "error"),
    [
        (jnp.zeros(3, jnp.uint32), InvalidArgumentError),
        (jnp.zeros(2, jnp.float32), ArgumentTypeError),
        (7, ArgumentTypeError),
    ],
    ids=["three words", "float words", "int"],
)
def test_a_key_that_is_not_one_prng_key_is_refused(key: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="key"):
        jax.eval_shape(ENV.step, _ONE, 0, key)
    with pytest.raises(error, match="key"):
        jax.eval_shape(ENV.init, key)
    with pytest.raises(error, match="key"):
        jax.eval_shape(ENV.deck, key)


@pytest.mark.parametrize("seat", [-1, 4, 100, np.int32(4), jnp.int32(-7)])
def test_observe_refuses_a_concrete_seat_out_of_range_r3(seat: object) -> None:
    with pytest.raises(InvalidArgumentError, match="player_id must be a seat 0-3"):
        ENV.observe(_ONE, seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [1.0, True, jnp.float32(0)])
def test_observe_refuses_a_seat_that_is_not_a_whole_number(seat: object) -> None:
    with pytest.raises(ArgumentTypeError, match="player_id must be a whole number"):
        jax.eval_shape(ENV.observe, _ONE, seat)


def test_observe_of_a_traced_seat_out_of_range_shows_nothing_at_all_r27() -> None:
    """Under jit a seat outside 0-3 cannot be refused; its observation is all zeros, never
    another seat's cards (seat 4 used to show seat 3's hand in seat 0's frame)."""
    observe = jax.jit(jax.vmap(ENV.observe))
    seats = jnp.array([4, 100], jnp.int32)
    got = np.asarray(observe(_BATCH, seats))
    assert not got.any()
    mover = np.asarray(observe(_BATCH, jnp.array([1, 1], jnp.int32)))  # the same program, a real seat
    assert np.array_equal(mover[0], observation_tensor(new_game(3).view(1)))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"reward_scale": 1e-40}, InvalidArgumentError, "reward_scale must be .* to"),
        ({"reward_scale": 10**40}, InvalidArgumentError, "reward_scale must be .* to"),
        ({"reward_scale": 10**400}, InvalidArgumentError, "reward_scale must be a finite number.*too large"),
        ({"reward_scale": np.float64("inf")}, InvalidArgumentError, "reward_scale must be a finite number"),
        ({"reward_scale": True}, ArgumentTypeError, "reward_scale must be a finite number"),
        ({"reward_scale": "100"}, ArgumentTypeError, "reward_scale must be a finite number"),
        ({"illegal_action_penalty": 1e39}, InvalidArgumentError, "illegal_action_penalty must be 0 or a float32"),
        ({"illegal_action_penalty": -(10**39)}, InvalidArgumentError, "illegal_action_penalty must be 0 or a float32"),
        ({"illegal_action_penalty": 1e-45}, InvalidArgumentError, "illegal_action_penalty must be 0 or a float32"),
        ({"illegal_action_penalty": np.bool_(True)}, ArgumentTypeError, "illegal_action_penalty must be a finite"),
        ({"observation_dtype": None}, ArgumentTypeError, "observation_dtype must be a dtype, not None"),
        ({"observation_dtype": "no such type"}, ArgumentTypeError, "observation_dtype must be a dtype"),
        ({"observation_dtype": bool}, InvalidArgumentError, "must be one of float32, int16, int32, not bool"),
        ({"observation_dtype": "float64"}, InvalidArgumentError, "must be one of .*, not float64"),
        ({"observation_dtype": np.int8}, InvalidArgumentError, "must be one of .*, not int8"),
        (
            {"rules": Rules(deals=40), "observation_dtype": "int16"},
            InvalidArgumentError,
            r"int16 cannot hold these rules' scores, up to 39080 points .*\(R7, R23\): use int32",
        ),
    ],
)
def test_env_refuses_extreme_numbers_so_rewards_stay_finite(
    kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        Env(**kwargs)


@pytest.mark.parametrize(
    ("observation", "error", "match"),
    [
        (np.zeros((30, 53), np.float32), ArgumentTypeError, "takes an integer observation"),
        ([[0] * 53] * 30, ArgumentTypeError, "takes an integer observation"),
        (np.zeros((30, 52), np.int16), InvalidArgumentError, r"shape \(..., 30, 53\), not \(30, 52\)"),
        (np.zeros((53,), np.int32), InvalidArgumentError, r"not \(53,\)"),
    ],
)
def test_float_observation_refuses_what_is_not_an_integer_observation(
    observation: object, error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        ENV.float_observation(observation)  # type: ignore[arg-type]


def test_env_takes_numpy_numbers_and_big_finite_ones() -> None:
    env = Env(Rules(), reward_scale=np.float32(100), illegal_action_penalty=np.int64(-2))
    assert env.reward_scale == 100.0 and env.illegal_action_penalty == -2.0
    assert Env(reward_scale=10**26).reward_scale == 1e26
    assert Env(illegal_action_penalty=np.float64(-3e38)).illegal_action_penalty == -3e38


# --- Forged GameStates: a field of the wrong type or container, at every level --------------

_STATE_FIELD_NAMES = [field.name for field in attrs.fields(GameState)]
# A fresh deal (draw), a meld phase with a card to meld and melds on the table, a finished deal.
_MELD_PHASE = GameState.parse(
    "6s8s9sTsQs9d6c8c/2d8dJdQdTcJkJk/Ks4dKc/4h6h8hTh5d7dTd 5s7h9hKd5cJkAcKhQc2c5h4c9c2hQhJk4s7s6d 2s7c "
    "0:3s3h3d+23c/2:JsJhJc/3:AsAhAd turn=0 phase=meld must=8s dealer=0 deal=1 scores=0,0 passes=0 idle=0 "
    "progress=0 out=- rules=default"
)


def _finished(game: GameState) -> GameState:
    while game.phase.is_live:
        game = play(game, legal_actions(game)[-1])
    return game


_ROUND_OVER = _finished(new_game(3))
_BASES = {
    "draw": new_game(3),
    "meld": _MELD_PHASE,
    "melded": _MELDED,
    "round over": _ROUND_OVER,
    "game over": _finished(next_deal(_ROUND_OVER, 5)),
}


def _forgeries(value: object) -> dict[str, object]:
    """Values of the wrong type or container for a field holding ``value``: every field gets
    the scalars; a tuple also its items in a list, an iterator and a generator, and items of
    the wrong type (None, a number, a list where a tuple belongs) at the level below."""
    found: dict[str, object] = {
        "None": None,
        "int": 7,
        "numpy int": np.int64(1),
        "text": "x",
        "card text": "8s",
        "float": 1.5,
        "bool": True,
        "bytes": b"x",
    }
    if isinstance(value, tuple):
        found |= {"list": list(value), "iterator": iter(value), "generator": (item for item in value)}
        if value:
            rest = value[1:]
            found |= {"item None": (None, *rest), "item int": (3, *rest), "item text": ("Qs", *rest)}
            if isinstance(value[0], tuple):
                found["item list"] = (list(value[0]), *rest)
    return found


FORGED = [
    (f"{base}.{name}={label}", base, name, label)
    for base, state in _BASES.items()
    for name in _STATE_FIELD_NAMES
    for label in _forgeries(getattr(state, name))
]


@pytest.mark.parametrize(("case", "base", "name", "label"), FORGED, ids=[case for case, *_ in FORGED])
def test_a_forged_game_state_is_refused_or_round_trips_exactly_r1_r3(
    case: str, base: str, name: str, label: str
) -> None:
    """Any value in any field of a GameState (built around its validator with attrs.evolve)
    reaches from_states and the scalar validator: either the library's error, or (a value of
    the right type, such as must_meld None) a batch whose round trip gives the very state
    back, every container a tuple again. Never a raw TypeError from inside (hands of no
    len(), a card to meld given as text, R3, R14)."""
    state = _BASES[base]
    forged = attrs.evolve(state, **{name: _forgeries(getattr(state, name))[label]})
    try:
        batch = ENV.from_states([forged])
    except (InvalidStateError, InvalidArgumentError, ArgumentTypeError) as error:
        with pytest.raises(type(error)):  # the validator says the same, alone
            forged.validate() if isinstance(error, InvalidStateError) else ENV.from_states([forged])
        return
    forged.validate()
    (back,) = ENV.to_states(batch)
    assert back == forged
    assert all(type(getattr(back, field)) is type(getattr(forged, field)) for field in _STATE_FIELD_NAMES)


@pytest.mark.parametrize("container", [list, iter, lambda hands: (hand for hand in hands)])
def test_hands_must_be_a_tuple_of_four_hands_r3(container: Callable[[Any], Any]) -> None:
    """hands as a list passed validation and was made a tuple by the round trip (so the
    batch did not hold the state given); an iterator raised a raw TypeError from len()."""
    forged = attrs.evolve(new_game(3), hands=container(new_game(3).hands))
    with pytest.raises(InvalidStateError, match=r"R3: a state has exactly four Hand values, as a tuple"):
        forged.validate()
    with pytest.raises(InvalidStateError, match=r"R3"):
        ENV.from_states([new_game(1), forged])


# --- Actions of every integer dtype: compared with the numbering without wrapping -----------

_ONLY_176 = ENV.from_states([_MELD_PHASE])  # its one legal action is 176 (a lay-off)
_ONLY_176_ONE = jax.tree_util.tree_map(lambda leaf: leaf[0], _ONLY_176)
_STEP = jax.jit(ENV.step)


def _outcome(state: State) -> tuple[bool, list[float], int]:
    return bool(state.terminated), np.asarray(state.rewards).tolist(), int(state._step_count)


_DTYPES = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)
_LEGAL = [
    (dtype, value, where)
    for dtype in _DTYPES
    for value, where in ((0, "draw"), (176, "meld"))
    if np.iinfo(dtype).max >= value
]
# Each dtype a step is compiled for costs a compilation: the narrow ones, whose wrap this is.
_COMPILED = [(dtype, value, where) for dtype, value, where in _LEGAL if dtype in (np.int8, np.uint8)]


@pytest.mark.parametrize(("dtype", "value", "where"), _LEGAL, ids=[f"{np.dtype(d)}-{v}" for d, v, _ in _LEGAL])
@pytest.mark.parametrize("how", ["eager", "numpy array"])
def test_a_legal_action_of_any_integer_dtype_is_played_as_the_same_number(
    dtype: type[np.integer[Any]], value: int, where: str, how: str
) -> None:
    """np.int8(0), a legal draw, ended the game with the penalty, and np.uint8(176), a legal
    lay-off, was called illegal: the range was compared in the action's own dtype, where 1436
    wraps (to -92 in int8, 156 in uint8)."""
    state = _ONE if where == "draw" else _ONLY_176_ONE
    want = _STEP(state, value)
    assert _outcome(want)[0] is False  # legal: played
    got = ENV.step(state, dtype(value) if how == "eager" else np.array(value, dtype))
    assert _outcome(got) == _outcome(want)
    assert ENV.to_states(got) == ENV.to_states(want)


@pytest.mark.parametrize(("dtype", "value", "where"), _COMPILED, ids=[f"{np.dtype(d)}-{v}" for d, v, _ in _COMPILED])
def test_a_traced_narrow_action_is_played_as_the_same_number_under_jit_and_vmap(
    dtype: type[np.integer[Any]], value: int, where: str
) -> None:
    state = _ONE if where == "draw" else _ONLY_176_ONE
    want = _STEP(state, value)
    assert _outcome(_STEP(state, dtype(value))) == _outcome(want)
    if dtype is np.uint8 and value:  # and batched: the lay-off in every row
        rows = jax.jit(jax.vmap(ENV.step))(_ONLY_176, np.full(1, value, dtype))
        assert ENV.to_states(rows) == ENV.to_states(want) and not bool(rows.terminated.any())


@pytest.mark.parametrize("dtype", _DTYPES, ids=lambda dtype: str(np.dtype(dtype)))
def test_the_range_check_is_exact_for_every_integer_dtype_traced_or_concrete(dtype: type[np.integer[Any]]) -> None:
    """The check step makes, alone: each dtype's edge values, concrete, and traced by jit and
    by vmap (where a 64-bit argument is 32 bits by the time the trace sees it, JAX's own
    conversion at the boundary, unless jax_enable_x64)."""
    info = np.iinfo(dtype)
    edges = (info.min, info.max, -1, 0, 1, 175, 176, 255, 1435, 1436, 1437, 2**31, 2**32, 2**32 + 176, 2**63)
    values = sorted({value for value in edges if info.min <= value <= info.max})

    def want(value: int) -> tuple[bool, int]:
        return (True, value) if 0 <= value < NUM_ACTIONS else (False, 0)

    for value in values:
        number, inside = action_number(dtype(value), NUM_ACTIONS)
        assert (bool(inside), int(number)) == want(value), value
    canonical = np.iinfo(jnp.asarray(np.zeros((), dtype)).dtype)  # what JAX makes of it at the boundary
    kept = [value for value in values if canonical.min <= value <= canonical.max]
    traced = jax.jit(lambda action: action_number(action, NUM_ACTIONS))
    for value in kept:
        number, inside = traced(dtype(value))
        assert (bool(inside), int(number)) == want(value), value
    numbers, inside = jax.vmap(lambda action: action_number(action, NUM_ACTIONS))(np.array(kept, dtype))
    assert [(bool(i), int(n)) for n, i in zip(numbers, inside, strict=True)] == [want(value) for value in kept]


@pytest.mark.parametrize(
    "action",
    [
        np.int64(2**32),
        np.int64(-(2**32)),
        np.int64(2**32 + 176),
        np.uint64(2**63),
        np.int64(-(2**63)),
        np.uint64(2**64 - 1),
        np.array(2**32, np.int64),
        jnp.uint32(2**32 - 1),
        np.uint32(2**31),
        np.int32(-(2**31)),
        np.int8(-1),
        np.int16(1436),
        np.uint16(65535),
        2**32,
        -(2**40),
    ],
    ids=repr,
)
def test_an_action_outside_the_numbering_is_illegal_in_every_width_eagerly(action: object) -> None:
    """Eagerly, a 64-bit numpy action wrapped into range (np.int64(2**32) played the draw, and
    2**32 + 176 the lay-off): it is compared as the whole number it is, and is illegal, which
    ends the game with the penalty and keeps the position."""
    for state in (_ONE, _ONLY_176_ONE):
        after = ENV.step(state, action)  # type: ignore[arg-type]
        mover = int(state.current_player)
        assert _outcome(after)[0] is True and after.rewards[mover] == -1.0
        assert ENV.to_states(after) == ENV.to_states(state)


# --- Keys of every PRNG implementation, at every entry that takes one -----------------------

_IMPLS = ["threefry2x32", "rbg", "unsafe_rbg"]


@pytest.mark.parametrize("impl", _IMPLS)
def test_a_typed_key_of_any_implementation_is_taken_everywhere(impl: str) -> None:
    """A typed key of another implementation (rbg) raised JAX's TypeError at init and
    from_states (its data is four words, the game's own key two): it is taken everywhere,
    the game's own key drawn from it; a typed threefry key deals exactly as its raw form."""
    key = jax.random.key(7, impl=impl)
    shapes = jax.eval_shape(ENV.init, key)  # init's own key drawn from it, as two words
    assert shapes._x.key.shape == (2,) and shapes._x.key.dtype == jnp.uint32
    assert jax.eval_shape(jax.vmap(ENV.init), jax.random.split(key, 3)).terminated.shape == (3,)
    assert jax.eval_shape(ENV.step, _ONE, 0, key).terminated.dtype == jnp.bool_
    batch = ENV.from_states([new_game(1), new_game(2)], key=key)
    again = ENV.from_states([new_game(1), new_game(2)], key=jax.random.key(7, impl=impl))
    assert ENV.to_states(batch) == [new_game(1), new_game(2)]
    assert bool((batch._x.key == again._x.key).all()) and not bool((batch._x.key[0] == batch._x.key[1]).all())
    deck = np.asarray(ENV.deck(key))
    assert sorted(deck.tolist()) == sorted(np.asarray(ENV.deck(_KEY)).tolist())
    assert np.array_equal(deck, np.asarray(ENV.deck(jax.random.key(7, impl=impl))))
    mask = _ONLY_176_ONE.legal_action_mask
    assert int(sample_legal(key, mask)) == 176
    assert int(sample_policy(key, jnp.zeros(NUM_ACTIONS), mask)) == 176
    if impl == "threefry2x32":  # a typed threefry key is its raw words
        raw = jax.random.PRNGKey(7)
        own = jax.jit(lambda key: ENV.init(key)._x.key)  # init deals deck(key) and keeps this key
        assert bool((own(raw) == own(key)).all())
        assert bool((ENV.from_states([new_game(1), new_game(2)], key=raw)._x.key == batch._x.key).all())
        assert np.array_equal(deck, np.asarray(ENV.deck(raw)))


_BAD_KEYS = [
    ("three words", jnp.zeros(3, jnp.uint32), InvalidArgumentError),
    ("four words", jnp.zeros(4, jnp.uint32), InvalidArgumentError),
    ("a batch of raw keys", jnp.zeros((2, 2), jnp.uint32), InvalidArgumentError),
    ("one word", jnp.zeros((), jnp.uint32), InvalidArgumentError),
    ("a batch of typed keys", jax.random.split(jax.random.key(0), 2), InvalidArgumentError),
    ("a batch of rbg keys", jax.random.split(jax.random.key(0, impl="rbg"), 2), InvalidArgumentError),
    ("float words", jnp.zeros(2, jnp.float32), ArgumentTypeError),
    ("int32 words", jnp.zeros(2, jnp.int32), ArgumentTypeError),
    ("None", None, ArgumentTypeError),
    ("an int", 7, ArgumentTypeError),
    ("a list", [0, 0], ArgumentTypeError),
]


@pytest.mark.parametrize(("case", "key", "error"), _BAD_KEYS, ids=[case for case, *_ in _BAD_KEYS])
def test_a_key_that_is_not_one_key_is_refused_at_every_entry(case: str, key: object, error: type[Exception]) -> None:
    mask = _ONE.legal_action_mask
    calls: list[Callable[[], object]] = [
        lambda: ENV.deck(key),  # type: ignore[arg-type]
        lambda: ENV.init(key),  # type: ignore[arg-type]
        lambda: sample_legal(key, mask),  # type: ignore[arg-type]
        lambda: sample_policy(key, jnp.zeros(NUM_ACTIONS), mask),  # type: ignore[arg-type]
    ]
    if key is not None:  # where the key is optional, None is no key
        calls += [lambda: ENV.step(_ONE, 0, key), lambda: ENV.from_states([new_game(1)], key=key)]  # type: ignore[arg-type]
    for call in calls:
        with pytest.raises(error, match="key"):
            call()


def test_from_states_refuses_a_traced_key_and_to_states_a_traced_state() -> None:
    with pytest.raises(ArgumentTypeError, match="from_states reads the key's value, so it runs outside jit"):
        jax.jit(lambda key: ENV.from_states([new_game(1)], key=key).terminated)(_KEY)
    with pytest.raises(ArgumentTypeError, match=r"to_states reads the values .* outside jit and vmap"):
        jax.jit(lambda state: len(ENV.to_states(state)))(_ONE)
    with pytest.raises(ArgumentTypeError, match=r"to_states reads the values"):
        jax.vmap(lambda state: len(ENV.to_states(state)))(_BATCH)


# --- States fetched to the host (jax.device_get) --------------------------------------------


def test_a_host_state_is_taken_wherever_a_state_is_and_gives_the_device_state_s_results() -> None:
    """jax.device_get(state) given to step raised AttributeError: 'numpy.ndarray' object has
    no attribute 'at'. Every entry that takes a state takes it, gives what the device state
    gives, and leaves the host arrays as they were."""
    host, batch = jax.device_get(_ONLY_176_ONE), jax.device_get(_ONLY_176)
    assert isinstance(host.legal_action_mask, np.ndarray)
    before = [leaf.copy() for leaf in jax.tree_util.tree_leaves(host)]
    assert _outcome(ENV.step(host, 176)) == _outcome(ENV.step(_ONLY_176_ONE, 176))
    assert _outcome(ENV.step(host, 176, _KEY)) == _outcome(ENV.step(_ONLY_176_ONE, 176, _KEY))
    assert _outcome(ENV.step(host, 3)) == _outcome(ENV.step(_ONLY_176_ONE, 3))  # illegal
    assert _outcome(_STEP(host, 176)) == _outcome(_STEP(_ONLY_176_ONE, 176))
    assert isinstance(ENV.observe(host), jax.Array)
    assert np.array_equal(ENV.observe(host), ENV.observe(_ONLY_176_ONE))
    assert np.array_equal(ENV.observe(host, 2), ENV.observe(_ONLY_176_ONE, 2))
    assert ENV.to_states(host) == ENV.to_states(batch) == [_MELD_PHASE]
    assert host.to_svg() == _ONLY_176_ONE.to_svg() and batch.to_svg() == _ONLY_176.to_svg()
    assert all(np.array_equal(a, b) for a, b in zip(before, jax.tree_util.tree_leaves(host), strict=True))


# --- Empty batches --------------------------------------------------------------------------


def test_an_empty_batch_is_empty_everywhere() -> None:
    """to_states of an empty batch raised numpy's reshape error; from_states([]) refused. A
    batch of no rows goes through every entry and gives no rows."""
    empty = ENV.from_states([])
    assert all(leaf.shape[0] == 0 for leaf in jax.tree_util.tree_leaves(empty))
    assert [tuple(leaf.shape[1:]) for leaf in jax.tree_util.tree_leaves(empty)] == [
        tuple(leaf.shape[1:]) for leaf in jax.tree_util.tree_leaves(_BATCH)
    ]
    assert [leaf.dtype for leaf in jax.tree_util.tree_leaves(empty)] == [
        leaf.dtype for leaf in jax.tree_util.tree_leaves(_BATCH)
    ]
    assert ENV.to_states(empty) == [] and ENV.to_states(empty, validate=False) == []
    sliced = jax.tree_util.tree_map(lambda leaf: leaf[:0], _BATCH)
    assert ENV.to_states(sliced) == [] and ENV.to_states(jax.device_get(sliced)) == []
    keys = jax.random.split(_KEY, 0)  # the traced entries, traced over no rows (XLA runs them as such)
    assert jax.eval_shape(jax.vmap(ENV.init), keys).terminated.shape == (0,)
    stepped = jax.eval_shape(jax.vmap(ENV.step), empty, jnp.zeros(0, jnp.int32))
    assert [leaf.shape for leaf in jax.tree_util.tree_leaves(stepped)] == [
        leaf.shape for leaf in jax.tree_util.tree_leaves(empty)
    ]
    assert jax.eval_shape(jax.vmap(ENV.observe), empty, jnp.zeros(0, jnp.int32)).shape == (0, 30, 53)
    assert jax.eval_shape(jax.vmap(sample_legal), keys, empty.legal_action_mask).shape == (0,)
    logits = jnp.zeros((0, NUM_ACTIONS))
    assert jax.eval_shape(jax.vmap(sample_policy), keys, logits, empty.legal_action_mask).shape == (0,)
    integer = Env(observation_dtype="int16")
    assert integer.from_states([]).observation.dtype == jnp.int16
    assert integer.float_observation(integer.from_states([]).observation).shape == (0, 30, 53)
    assert 'width="0" height="0"' in empty.to_svg()


# --- The samplers check what they draw from -------------------------------------------------

_MASK = _ONE.legal_action_mask
_SAMPLER_CASES: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    (
        "a batch of masks",
        lambda: sample_legal(_KEY, _BATCH.legal_action_mask),
        InvalidArgumentError,
        r"shape \(2, 1436\)",
    ),
    ("a mask of 0.5s", lambda: sample_legal(_KEY, jnp.full(NUM_ACTIONS, 0.5)), ArgumentTypeError, "bool array"),
    ("a mask of ints", lambda: sample_legal(_KEY, _MASK.astype(jnp.int32)), ArgumentTypeError, "pass mask > 0"),
    ("no mask", lambda: sample_legal(_KEY, None), ArgumentTypeError, "legal_action_mask must be a bool array"),
    ("a list mask", lambda: sample_legal(_KEY, [True] * NUM_ACTIONS), ArgumentTypeError, "bool array"),
    ("an empty mask", lambda: sample_legal(_KEY, jnp.zeros(0, bool)), InvalidArgumentError, r"n >= 1"),
    ("a float key", lambda: sample_legal(jnp.zeros(2), _MASK), ArgumentTypeError, "key must be a PRNG key"),
    ("logits too short", lambda: sample_policy(_KEY, jnp.zeros(100), _MASK), InvalidArgumentError, r"\(100,\)"),
    ("int logits", lambda: sample_policy(_KEY, jnp.zeros(NUM_ACTIONS, jnp.int32), _MASK), ArgumentTypeError, "float"),
    ("no logits", lambda: sample_policy(_KEY, None, _MASK), ArgumentTypeError, "logits must be a floating array"),
    (
        "a batch of logits",
        lambda: sample_policy(_KEY, jnp.zeros((2, NUM_ACTIONS)), _MASK),
        InvalidArgumentError,
        r"logits must have the mask's shape",
    ),
    (
        "a batch of masks to sample_policy",
        lambda: sample_policy(_KEY, jnp.zeros((2, NUM_ACTIONS)), _BATCH.legal_action_mask),
        InvalidArgumentError,
        "batch games with jax.vmap",
    ),
    (
        "a float mask to sample_policy",
        lambda: sample_policy(_KEY, jnp.zeros(NUM_ACTIONS), _MASK * 1.0),
        ArgumentTypeError,
        "bool",
    ),
]


@pytest.mark.parametrize(("case", "call", "error", "match"), _SAMPLER_CASES, ids=[c for c, *_ in _SAMPLER_CASES])
def test_the_samplers_refuse_what_is_not_one_game_s_mask_key_and_logits(
    case: str, call: Callable[[], object], error: type[Exception], match: str
) -> None:
    """A batch of masks given to the unbatched sample_legal returned 5092, outside the
    numbering; a mask of 0.5s was read as all False and gave 0; a None mask, a float key or
    logits of the wrong length raised JAX's own errors."""
    with pytest.raises(error, match=match):
        call()


def test_the_samplers_take_numpy_masks_and_never_draw_a_forbidden_action_whatever_the_logits() -> None:
    mask = np.zeros(NUM_ACTIONS, bool)
    mask[[5, 176, 1435]] = True
    keys = jax.random.split(_KEY, 64)
    assert set(np.asarray(jax.jit(jax.vmap(sample_legal, in_axes=(0, None)))(keys, mask)).tolist()) <= {5, 176, 1435}
    policy = jax.jit(jax.vmap(sample_policy, in_axes=(0, None, None)))
    for fill in (np.nan, np.inf, -np.inf):  # nan ones drew 1439, in the padding past the last action
        drawn = policy(keys, jnp.full(NUM_ACTIONS, fill).at[0].set(50.0), mask)
        assert set(np.asarray(drawn).tolist()) <= {5, 176, 1435}
    short = np.zeros(40, bool)
    short[39] = True  # another game's mask: any length from 1
    assert int(sample_legal(_KEY, short)) == 39 and int(sample_policy(_KEY, np.zeros(40, np.float32), short)) == 39


# --- A state is its environment's: its rules, its fields ------------------------------------


def test_a_state_of_other_rules_is_refused_and_replace_names_an_unknown_field() -> None:
    """A state carries the rules it was made under (static): an environment of other rules
    refuses it, where it would have played or read it under rules it was not made for."""
    other = Env(Rules(last_card_discard="forbidden"))
    with pytest.raises(InvalidArgumentError, match=r"step: the state is a game under rules .*but this Env plays"):
        other.step(_ONE, 0)
    with pytest.raises(InvalidArgumentError, match=r"observe: the state is a game under rules"):
        other.observe(_ONE, 1)
    with pytest.raises(InvalidArgumentError, match=r"to_states: the state is a game under rules"):
        other.to_states(_BATCH)
    with pytest.raises(ArgumentTypeError, match=r"State._rules must be a Rules value"):
        ENV.step(_ONE.replace(_rules="default"), 0)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match=r"State.replace: no field hand \(its fields: current_player"):
        _ONE.replace(hand=jnp.zeros(3))
    with pytest.raises(ArgumentTypeError, match=r"GameArrays.replace: no field foo"):
        _ONE._x.replace(foo=jnp.zeros(3))
    with pytest.raises(ArgumentTypeError, match="validate must be True or False"):
        ENV.to_states(_BATCH, validate="no")  # type: ignore[arg-type]
