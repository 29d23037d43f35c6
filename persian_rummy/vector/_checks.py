"""What enters the vectorized engine, checked where it enters (internal).

Three kinds of check, each raising the library's errors, never a bare numpy or JAX one:

- at trace time (so under ``jit`` and ``vmap`` too): a :class:`~persian_rummy.vector.State`'s
  fields have the shapes and dtypes the engine makes, an action or a seat is one whole number,
  a key is a PRNG key, a sampler's mask and logits are one game's (:func:`check_fields`,
  :func:`check_index`, :func:`check_key`, :func:`check_mask`, :func:`check_logits`);
- eagerly, on concrete values: a seat is 0-3 (:func:`check_seat_value`), and an action of any
  integer dtype is compared with the numbering exactly (:func:`action_number`);
- in :meth:`~persian_rummy.vector.Env.to_states`, on every row: each field holds values that
  some position could (:func:`check_rows`), before the scalar validator sees the position.

>>> check_index(3.0, "action")
Traceback (most recent call last):
...
persian_rummy.errors.ArgumentTypeError: action must be a whole number (an integer dtype), not 3.0 (float)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final

import jax
import jax.core
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from persian_rummy.cards import JOKER_INDEX
from persian_rummy.encoding import MAX_MELDS, MAX_PILE, NUM_ACTIONS
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, InvalidStateError, excerpt
from persian_rummy.observation import OBSERVATION_SHAPE
from persian_rummy.rules import Rules
from persian_rummy.vector._state import GAME_ARRAY_FIELDS, STATE_FIELDS, GameArrays, State
from persian_rummy.vector._tables import CARD_COLUMNS, DECK_CARDS, MELD_COUNTS, MELD_JOKERS, NUM_MELDS

__all__ = [
    "FIELDS",
    "action_number",
    "check_concrete",
    "check_fields",
    "check_index",
    "check_key",
    "check_logits",
    "check_mask",
    "check_number",
    "check_observation_dtype",
    "check_penalty",
    "check_rows",
    "check_rules",
    "check_seat_value",
    "field_table",
    "fields_of",
    "host_to_device",
    "key_words",
    "reward_bounds",
]

_F32: Final = np.finfo(np.float32)
#: Every field of a State (the position's as ``_x.name``): its shape in one game and its dtype
#: (a batch adds leading axes). ``_x.decks`` has as many rows as the rules' later deals that a
#: game draws when it starts (:func:`field_table`).
FIELDS: Final[Mapping[str, tuple[tuple[int, ...], np.dtype[Any]]]] = {
    name: (shape, np.dtype(dtype))
    for name, shape, dtype in (
        ("current_player", (), np.int32),
        ("observation", OBSERVATION_SHAPE, np.float32),
        ("legal_action_mask", (NUM_ACTIONS,), np.bool_),
        ("rewards", (4,), np.float32),
        ("terminated", (), np.bool_),
        ("truncated", (), np.bool_),
        ("_ended_deal", (), np.int32),
        ("_step_count", (), np.int32),
        ("_x.current_player", (), np.int32),
        ("_x.hands", (4, CARD_COLUMNS), np.int8),
        ("_x.stock", (MAX_PILE,), np.int8),
        ("_x.stock_size", (), np.int32),
        ("_x.pile", (MAX_PILE,), np.int8),
        ("_x.pile_size", (), np.int32),
        ("_x.meld_id", (MAX_MELDS,), np.int16),
        ("_x.meld_seat", (MAX_MELDS, CARD_COLUMNS), np.int8),
        ("_x.meld_laid", (MAX_MELDS, CARD_COLUMNS), np.bool_),
        ("_x.joker_seat", (MAX_MELDS,), np.int8),
        ("_x.joker_pos", (MAX_MELDS,), np.int8),
        ("_x.num_melds", (), np.int32),
        ("_x.dealer", (), np.int32),
        ("_x.phase", (), np.int32),
        ("_x.must_meld", (), np.int32),
        ("_x.deal_number", (), np.int32),
        ("_x.scores", (2,), np.int32),
        ("_x.passes", (), np.int32),
        ("_x.idle_turns", (), np.int32),
        ("_x.turn_progress", (), np.bool_),
        ("_x.went_out", (), np.int32),
        ("_x.table_points", (2,), np.int32),
        ("_x.key", (2,), np.uint32),
        ("_x.decks", (0, 56), np.int8),
    )
}


def field_table(
    deck_slots: int, observation_dtype: np.dtype[Any]
) -> Mapping[str, tuple[tuple[int, ...], np.dtype[Any]]]:
    """:data:`FIELDS` for an environment whose games hold ``deck_slots`` decks and whose
    observation has ``observation_dtype``."""
    return {
        **FIELDS,
        "observation": (OBSERVATION_SHAPE, observation_dtype),
        "_x.decks": ((deck_slots, 56), np.dtype(np.int8)),
    }


#: The observation's dtypes (Env's ``observation_dtype``).
OBSERVATION_DTYPES: Final = (np.dtype(np.float32), np.dtype(np.int16), np.dtype(np.int32))


def check_observation_dtype(value: object, score_bound: int) -> np.dtype[Any]:
    """One of :data:`OBSERVATION_DTYPES` (anything ``numpy.dtype`` reads as one), and ``int16``
    only where no score reaches ``score_bound`` beyond its range; else the library's error."""
    try:
        if value is None:  # numpy reads None as float64
            raise TypeError
        dtype: np.dtype[Any] = np.dtype(value)  # type: ignore[call-overload]
    except TypeError:
        raise ArgumentTypeError(f"observation_dtype must be a dtype, not {excerpt(value)}") from None
    if dtype not in OBSERVATION_DTYPES:
        names = ", ".join(map(str, OBSERVATION_DTYPES))
        raise InvalidArgumentError(f"observation_dtype must be one of {names}, not {dtype}")
    if dtype == np.int16 and score_bound > np.iinfo(np.int16).max:
        raise InvalidArgumentError(
            f"observation_dtype int16 cannot hold these rules' scores, up to {score_bound} points in size "
            "(R7, R23): use int32"
        )
    return dtype


def fields_of(state: object, where: str) -> dict[str, object]:
    """The fields of a :class:`~persian_rummy.vector.State` by the names of :data:`FIELDS`,
    else :class:`~persian_rummy.ArgumentTypeError`."""
    if not isinstance(state, State):
        raise ArgumentTypeError(f"{where} takes a State, not {excerpt(state)}")
    position = state._x
    if not isinstance(position, GameArrays):
        raise ArgumentTypeError(f"{where}: State._x must be a GameArrays (the game's arrays), not {excerpt(position)}")
    if type(state._rules) is not Rules:
        raise ArgumentTypeError(f"{where}: State._rules must be a Rules value, not {excerpt(state._rules)}")
    found: dict[str, object] = {name: getattr(state, name) for name in STATE_FIELDS if name not in ("_x", "_rules")}
    found.update({f"_x.{name}": getattr(position, name) for name in GAME_ARRAY_FIELDS})
    return found


def check_rules(state: State, rules: Rules, where: str) -> None:
    """The state was made by an environment of ``rules``, else
    :class:`~persian_rummy.InvalidArgumentError` (a state of other rules would be played, or
    read, under rules it was not made for)."""
    if state._rules != rules:
        raise InvalidArgumentError(
            f"{where}: the state is a game under rules {state._rules}, but this Env plays {rules}"
        )


def check_concrete(fields: Mapping[str, object], where: str) -> None:
    """No field is traced (``where`` reads the values, so it cannot run under ``jit`` or
    ``vmap``), else :class:`~persian_rummy.ArgumentTypeError`."""
    for name, value in fields.items():
        if isinstance(value, jax.core.Tracer):
            raise ArgumentTypeError(
                f"{where} reads the values of the arrays, so it runs outside jit and vmap: State.{name} is traced"
            )


def host_to_device(state: State) -> State:
    """``state`` with any numpy array among its fields (a state fetched with
    ``jax.device_get``) made a JAX array, so that a step updates it as it updates its own;
    the very state when it holds none (under ``jit`` every field is a tracer)."""
    leaves = jax.tree_util.tree_leaves(state)
    if not any(isinstance(leaf, np.ndarray | np.generic) for leaf in leaves):
        return state
    converted: State = jax.tree_util.tree_map(jnp.asarray, state)
    return converted


def check_fields(
    fields: Mapping[str, object],
    where: str,
    *,
    batched: bool,
    table: Mapping[str, tuple[tuple[int, ...], np.dtype[Any]]],
) -> tuple[int, ...]:
    """Each field's dtype is the one ``table`` (the environment's :func:`field_table`) gives
    and its shape is one game's, with (``batched``) the
    same leading axes for every field: those axes, else :class:`~persian_rummy.ArgumentTypeError`
    for a dtype or a value that is no array and :class:`~persian_rummy.InvalidArgumentError`
    for a shape."""
    lead: tuple[int, ...] | None = None
    for name, (shape, dtype) in table.items():
        if name not in fields:
            continue
        value = fields[name]
        got_shape, got_dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
        if got_shape is None or got_dtype is None:
            raise ArgumentTypeError(f"{where}: State.{name} must be an array, not {excerpt(value)}")
        if np.dtype(got_dtype) != dtype:
            raise ArgumentTypeError(f"{where}: State.{name} must be of dtype {dtype}, not {np.dtype(got_dtype)}")
        got = tuple(got_shape)
        extra = len(got) - len(shape)
        if extra < 0 or got[extra:] != shape or (extra and not batched):
            want = f"(batch..., {', '.join(map(str, shape))})" if batched else str(shape)
            raise InvalidArgumentError(f"{where}: State.{name} must have shape {want}, not {got}")
        if lead is None:
            lead = got[:extra]
        elif got[:extra] != lead:
            raise InvalidArgumentError(
                f"{where}: State.{name} has leading axes {got[:extra]}, where the other fields have {lead}"
            )
    return lead or ()


def check_index(value: object, what: str) -> None:
    """``value`` (an action, a seat) is one whole number: a Python ``int`` or an array or
    tracer of an integer dtype and shape ``()``; a bool or a float is refused
    (:class:`~persian_rummy.ArgumentTypeError`), another shape too
    (:class:`~persian_rummy.InvalidArgumentError`: batch with ``jax.vmap``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return
    dtype = getattr(value, "dtype", None)
    if isinstance(value, bool) or dtype is None or not np.issubdtype(np.dtype(dtype), np.integer):
        kind = type(value).__name__ if dtype is None else str(np.dtype(dtype))
        raise ArgumentTypeError(f"{what} must be a whole number (an integer dtype), not {excerpt(value)} ({kind})")
    shape = tuple(getattr(value, "shape", ()))
    if shape:
        raise InvalidArgumentError(
            f"{what} must be one number per game (shape ()), not an array of shape {shape}: batch games with jax.vmap"
        )


def action_number(action: object, limit: int) -> tuple[jax.Array, jax.Array]:
    """An action checked by :func:`check_index` as ``(number, in_range)``: whether it is one of
    ``0 .. limit - 1``, compared without wrapping, and the number (``int32``; 0 where it is
    not). A concrete action (a Python, numpy or JAX integer of any width) is compared in
    Python's integers; a traced one in its own dtype, or in ``int32`` where that is narrower
    (``limit`` does not fit in ``int8``: 1436 would wrap to -92). Under ``jit`` or ``vmap``, a
    64-bit argument reaches the function as JAX made it at the boundary (32 bits unless
    ``jax_enable_x64`` is set), which no function of it can see past.

    >>> [bool(action_number(value, 1436)[1]) for value in (np.int8(0), np.uint8(185), np.int64(2**32))]
    [True, True, False]
    """
    if not isinstance(action, jax.core.Tracer):
        value = int(action)  # type: ignore[call-overload]
        inside = 0 <= value < limit
        return jnp.int32(value if inside else 0), jnp.bool_(inside)
    number = action if np.dtype(action.dtype).itemsize >= 4 else action.astype(jnp.int32)
    in_range = (number >= 0) & (number < limit)
    return jnp.where(in_range, number, 0).astype(jnp.int32), in_range


def check_seat_value(seat: object) -> None:
    """A concrete seat (not a tracer) is 0-3, else :class:`~persian_rummy.InvalidArgumentError`."""
    if isinstance(seat, jax.core.Tracer):
        return
    number = int(np.asarray(seat))
    if not 0 <= number < 4:
        raise InvalidArgumentError(f"R3: player_id must be a seat 0-3, not {number}")


def check_key(key: object, where: str, *, concrete: bool = False) -> None:
    """``key`` is one PRNG key: ``uint32[2]`` (``jax.random.PRNGKey``) or a typed key of shape
    () of any implementation (``jax.random.key(seed, impl=...)``); ``concrete``: not traced."""
    if concrete and isinstance(key, jax.core.Tracer):
        raise ArgumentTypeError(f"{where} reads the key's value, so it runs outside jit and vmap: the key is traced")
    dtype = getattr(key, "dtype", None)
    shape = tuple(getattr(key, "shape", (-1,)))
    if dtype is not None and jnp.issubdtype(dtype, jax.dtypes.prng_key):
        if shape != ():
            raise InvalidArgumentError(f"{where}: key must be one key (shape ()), not shape {shape}")
        return
    if dtype is None or np.dtype(dtype) != np.uint32:
        raise ArgumentTypeError(
            f"{where}: key must be a PRNG key (jax.random.PRNGKey or jax.random.key), not {excerpt(key)}"
        )
    if shape != (2,):
        raise InvalidArgumentError(f"{where}: key must be one key (uint32[2]), not shape {shape}: batch with jax.vmap")


def key_words(keys: jax.Array) -> jax.Array:
    """Checked keys (any leading axes) as the ``uint32[..., 2]`` words of threefry keys, the
    form a game carries: a raw key as it is, a typed threefry key's data, and a key of another
    implementation (whose data is not two words) drawn into two words by ``jax.random.bits``."""
    if not jnp.issubdtype(keys.dtype, jax.dtypes.prng_key):
        return keys
    if str(jax.random.key_impl(keys)) == "threefry2x32":
        return jax.random.key_data(keys)
    flat = keys.reshape(-1)
    words = jax.vmap(lambda key: jax.random.bits(key, (2,), jnp.uint32))(flat)
    return words.reshape(*keys.shape, 2)


def check_mask(mask: object, where: str) -> jax.Array:
    """A sampler's ``legal_action_mask``: a ``bool`` array of one game, shape ``(n,)`` with
    ``n`` at least 1 (a JAX or numpy array), as a JAX array; else
    :class:`~persian_rummy.ArgumentTypeError` for what is not a ``bool`` array (a float mask is
    not read as weights: ``mask > 0`` says which are set) and
    :class:`~persian_rummy.InvalidArgumentError` for a shape (batch with ``jax.vmap``)."""
    dtype, shape = getattr(mask, "dtype", None), getattr(mask, "shape", None)
    if dtype is None or shape is None or np.dtype(dtype) != np.bool_:
        kind = type(mask).__name__ if dtype is None else str(np.dtype(dtype))
        raise ArgumentTypeError(
            f"{where}: legal_action_mask must be a bool array, not {excerpt(mask)} ({kind}); "
            "a mask of another dtype is not read as weights: pass mask > 0"
        )
    if len(shape) != 1 or not shape[0]:
        raise InvalidArgumentError(
            f"{where}: legal_action_mask must be one game's mask (shape (n,), n >= 1), not shape {tuple(shape)}: "
            "batch games with jax.vmap"
        )
    return jnp.asarray(mask)


def check_logits(logits: object, shape: tuple[int, ...], where: str) -> jax.Array:
    """A sampler's ``logits``: a floating array of the mask's ``shape``, as a JAX array; else
    :class:`~persian_rummy.ArgumentTypeError` for a dtype and
    :class:`~persian_rummy.InvalidArgumentError` for a shape."""
    dtype, got = getattr(logits, "dtype", None), getattr(logits, "shape", None)
    if dtype is None or got is None or not np.issubdtype(np.dtype(dtype), np.floating):
        kind = type(logits).__name__ if dtype is None else str(np.dtype(dtype))
        raise ArgumentTypeError(f"{where}: logits must be a floating array, not {excerpt(logits)} ({kind})")
    if tuple(got) != shape:
        raise InvalidArgumentError(
            f"{where}: logits must have the mask's shape {shape}, not {tuple(got)}: batch games with jax.vmap"
        )
    return jnp.asarray(logits)


def check_number(name: str, value: object) -> float:
    """A finite real number (a Python or numpy one, not a bool) as a float, else the library's error."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer | np.floating):
        raise ArgumentTypeError(f"{name} must be a finite number, not {excerpt(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise InvalidArgumentError(f"{name} must be a finite number, not {excerpt(value)} (too large)") from None
    if not math.isfinite(number):
        raise InvalidArgumentError(f"{name} must be a finite number, not {excerpt(value)}")
    return number


def reward_bounds(margin_limit: int) -> tuple[float, float]:
    """The reward scales for which every deal's margin over the scale is a finite float32 and a
    margin of one point is not rounded to zero (a normal float32)."""
    return margin_limit / float(_F32.max), 1.0 / float(_F32.smallest_normal)


def check_penalty(penalty: float) -> None:
    """The penalty is a float32 number: finite, and 0 or normal (not rounded to 0 or infinity)."""
    size = abs(penalty)
    if size > float(_F32.max) or 0 < size < float(_F32.smallest_normal):
        raise InvalidArgumentError(
            f"illegal_action_penalty must be 0 or a float32 number, {float(_F32.smallest_normal):g} to "
            f"{float(_F32.max):g} in size, not {penalty!r}"
        )


def _refuse(arrays: Mapping[str, npt.NDArray[Any]], name: str, bad: npt.NDArray[np.bool_], what: str) -> None:
    rows = bad.reshape(len(bad), -1).any(axis=1)
    if rows.any():
        row = int(np.argmax(rows))
        raise InvalidStateError(
            f"to_states: row {row}, field {name}: {what}, not {excerpt(arrays[name][row].tolist())}"
        )


def _outside(values: npt.NDArray[Any], low: int, high: int) -> npt.NDArray[np.bool_]:
    result: npt.NDArray[np.bool_] = (values < low) | (values > high)
    return result


def check_rows(arrays: Mapping[str, npt.NDArray[Any]], deals: int) -> None:
    """Every row's fields (a leading batch axis) hold values that some position could, field by
    field, else :class:`~persian_rummy.InvalidStateError` naming the row and the field; the
    scalar validator then checks each row's position as a whole (the deck, the turn, the scores).
    ``arrays`` holds the position's fields by their own names, and the State's ``terminated``,
    ``truncated``, ``rewards``, ``ended_deal`` and ``step_count``."""
    for name, low, high in (
        ("current_player", 0, 3),
        ("dealer", 0, 3),
        ("phase", 0, 3),
        ("must_meld", -1, JOKER_INDEX),
        ("deal_number", 1, deals),
        ("went_out", -1, 3),
        ("passes", 0, 2**31 - 1),
        ("idle_turns", 0, 2**31 - 1),
        ("stock_size", 0, MAX_PILE),
        ("pile_size", 0, MAX_PILE),
        ("num_melds", 0, MAX_MELDS),
        ("step_count", 0, 2**31 - 1),
        ("ended_deal", 0, deals),
    ):
        _refuse(arrays, name, _outside(arrays[name], low, high), f"must be {low} to {high}")
    hands = arrays["hands"]
    _refuse(arrays, "hands", _outside(hands[..., :JOKER_INDEX], 0, 1), "a natural card is held 0 or 1 times (R1)")
    _refuse(arrays, "hands", _outside(hands[..., JOKER_INDEX], 0, 4), "a seat holds 0-4 jokers (R1)")
    for cards, size in (("stock", "stock_size"), ("pile", "pile_size")):
        held = np.arange(MAX_PILE) < arrays[size][:, None]
        values = arrays[cards]
        bad = np.where(held, _outside(values, 0, JOKER_INDEX), values != -1)
        _refuse(arrays, cards, bad, f"must hold card indices 0-52 below {size}, -1 above")
    _check_melds(arrays)
    decks = arrays["decks"]
    _refuse(
        arrays,
        "decks",
        np.sort(decks, axis=-1) != np.sort(np.asarray(DECK_CARDS, np.int8)),
        "each must be a deck: the 52 natural cards once and the joker (52) four times (R1)",
    )
    phase, terminated = arrays["phase"], arrays["terminated"]
    _refuse(
        arrays,
        "terminated",
        (phase == 3) & ~terminated | (phase == 2) & terminated,
        "must be set in a finished game (phase 3), and not in a finished deal (phase 2)",
    )
    _refuse(arrays, "truncated", arrays["truncated"], "is never set (R21 bounds every deal)")
    _refuse(arrays, "rewards", ~np.isfinite(arrays["rewards"]), "must be finite")


def _check_melds(arrays: Mapping[str, npt.NDArray[Any]]) -> None:
    slots = np.arange(MAX_MELDS) < arrays["num_melds"][:, None]
    ids = arrays["meld_id"].astype(np.int32)
    _refuse(
        arrays,
        "meld_id",
        np.where(slots, _outside(ids, 0, NUM_MELDS - 1), ids != -1),
        f"must hold meld numbers 0-{NUM_MELDS - 1} below num_melds, -1 above",
    )
    numbers = np.where(slots, ids, NUM_MELDS)
    cards = np.asarray(MELD_COUNTS, np.int8)[numbers] > 0  # [B, 18, 53]; the joker column: the meld holds jokers
    seats = arrays["meld_seat"]
    _refuse(
        arrays,
        "meld_seat",
        np.where(cards, _outside(seats, 0, 3), seats != -1),
        "must hold a seat 0-3 for each card of each meld, -1 elsewhere (R16)",
    )
    joker_seat, joker_pos = arrays["joker_seat"], arrays["joker_pos"]
    four_jokers = np.asarray(MELD_JOKERS, np.int8)[numbers] == 4
    laid_joker = joker_seat >= 0
    _refuse(
        arrays,
        "joker_seat",
        np.where(laid_joker, ~four_jokers | (joker_seat > 3), joker_seat != -1),
        "must be -1, or the seat 0-3 that laid a joker off on a set of three jokers (R11, R16)",
    )
    _refuse(
        arrays,
        "joker_pos",
        np.where(laid_joker, _outside(joker_pos, 0, 3), joker_pos != -1),
        "must be the place 0-3 of a laid-off joker, -1 where none was laid off",
    )
    laid = arrays["meld_laid"]
    natural_laid = laid[..., :JOKER_INDEX] & ~cards[..., :JOKER_INDEX]
    bad = natural_laid.any(axis=-1) | (laid[..., JOKER_INDEX] != laid_joker)
    _refuse(arrays, "meld_laid", bad, "marks only cards of the meld, and the joker where joker_seat is set (R16)")
