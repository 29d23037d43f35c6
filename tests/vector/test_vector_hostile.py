"""Hostile input to the vectorized engine: every entry point refuses what it cannot take with
the library's errors, naming the row, the field or the argument, and never reads a seat's
cards into another seat's observation (R1, R3, R7, R11, R16, R27)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from persian_rummy import ArgumentTypeError, GameState, InvalidArgumentError, InvalidStateError, Rules, new_game
from persian_rummy.observation import observation_tensor
from persian_rummy.vector import Env, State
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
        r"State._x must be a Position",
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
