"""The environment: :class:`Env`, pgx's protocol over the game, the mask and the observation
(internal module; :class:`Env` is re-exported by :mod:`persian_rummy.vector`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np
from numpy.typing import DTypeLike

from persian_rummy.encoding import NUM_ACTIONS
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, InvalidStateError, excerpt
from persian_rummy.limits import deal_points
from persian_rummy.observation import OBSERVATION_SHAPE
from persian_rummy.rules import Rules
from persian_rummy.state import GameState
from persian_rummy.vector._checks import (
    action_number,
    check_concrete,
    check_fields,
    check_index,
    check_key,
    check_number,
    check_observation_dtype,
    check_penalty,
    check_rows,
    check_rules,
    check_seat_value,
    field_table,
    fields_of,
    host_to_device,
    key_words,
    reward_bounds,
)
from persian_rummy.vector._convert import games_of, position_row
from persian_rummy.vector._game import TEAM, deal, deck, game_decks, own_deck, play, score
from persian_rummy.vector._knobs import Knobs, margin_limit
from persian_rummy.vector._mask import mask
from persian_rummy.vector._observe import observe, to_float
from persian_rummy.vector._observe import scale as observation_scale
from persian_rummy.vector._state import ENV_ID, GAME_OVER, MELD, ROUND_OVER, GameArrays, State, select
from persian_rummy.vector._words import I32

__all__ = ["Env"]

Array = jax.Array
# The compiled refresh (mask and observation) of a batch read by from_states, by configuration.
_REFRESH: dict[tuple[Rules, float, float, np.dtype[Any]], Any] = {}
# Folded into init's key to make the key a game carries for its later deals (R6-R7).
_CARRY: Final = 0x5EED


class Env:
    """The game under ``rules`` as pure single-game functions (static: one compiled program per
    :class:`~persian_rummy.Rules`), with pgx's protocol: :meth:`init`, :meth:`step`,
    :meth:`observe`, ``id``, ``version``, ``num_players``, ``num_actions`` and
    ``observation_shape``; and the exact conversions :meth:`from_states` and :meth:`to_states`.

    ``reward_scale`` divides the rewards (as the PettingZoo environment's, default 100);
    ``illegal_action_penalty`` is the reward of the mover's **team** when it plays an illegal
    action, which ends the game, and the other team gets its opposite (pgx gives the offender
    alone the penalty and the other players its share: see the docs' "Vectorized engine").
    Both are finite real numbers (Python's or numpy's) with the bounds that keep every reward
    a finite ``float32``. ``win_bonus`` (default 0, at most 1e6 in size) is added at the
    game's end to the rewards of the team ahead (R26) and taken from the other's, so that the
    rewards' sum measures the win rate as well as the margin (the trainer's ``win_bonus``).

    ``observation_dtype`` is ``float32`` (the default: the values of
    :func:`~persian_rummy.observation.observation_tensor`), or ``int16`` or ``int32``: the
    whole numbers that the ``float32`` observation divides by :attr:`observation_scale`
    (numpy's ``obs.astype(np.float32) / env.observation_scale`` gives it bit for bit, and
    :meth:`float_observation` under ``jit``). ``int16`` halves the observation's memory; it
    takes the rules whose scores stay within 32,767 in size (the default rules' stay within
    1,954, R23).

    >>> from persian_rummy import new_game
    >>> env = Env()
    >>> state = env.from_states([new_game(7)])
    >>> env.to_states(state) == [new_game(7)], int(state.legal_action_mask.sum())
    (True, 1)
    >>> env.id, env.version, env.num_players, env.num_actions, env.observation_shape
    ('persian_rummy', 'v1', 4, 1436, (30, 53))
    """

    #: The environment's name (pgx's ``Env.id``; ``State.env_id`` too).
    id: Final = ENV_ID
    #: The version of its dynamics and observation; it changes when either does.
    version: Final = "v1"
    num_actions: Final = NUM_ACTIONS
    num_players: Final = 4
    observation_shape: Final = OBSERVATION_SHAPE

    def __init__(
        self,
        rules: Rules = Rules(),
        *,
        reward_scale: float = 100.0,
        illegal_action_penalty: float = -1.0,
        observation_dtype: DTypeLike = np.float32,
        win_bonus: float = 0.0,
    ) -> None:
        if type(rules) is not Rules:
            raise ArgumentTypeError(f"rules must be a Rules value, not {excerpt(rules)}")
        scale = check_number("reward_scale", reward_scale)
        penalty = check_number("illegal_action_penalty", illegal_action_penalty)
        if scale <= 0:
            raise InvalidArgumentError(f"reward_scale must be above 0, not {excerpt(reward_scale)}")
        low, high = reward_bounds(margin_limit(rules))
        if not low <= scale <= high:
            raise InvalidArgumentError(
                f"reward_scale must be {low:g} to {high:g}, so that every reward is a finite float32 "
                f"and a point is not rounded to 0, not {excerpt(reward_scale)}"
            )
        check_penalty(penalty)
        bonus = check_number("win_bonus", win_bonus)
        if abs(bonus) > 1e6 or margin_limit(rules) / scale + abs(bonus) > float(np.finfo(np.float32).max):
            raise InvalidArgumentError(
                f"win_bonus must be -1e6 to 1e6, and keep every reward a finite float32, not {excerpt(win_bonus)}"
            )
        dtype = check_observation_dtype(observation_dtype, rules.deals * deal_points(rules.going_out_bonus))
        self.rules = rules
        self.reward_scale = scale
        self.illegal_action_penalty = penalty
        #: Added to each seat's reward at the game's end: + for the winning team, - for the
        #: other, 0 to both when the totals are equal (R26); 0 by default.
        self.win_bonus = bonus
        self.observation_dtype: np.dtype[Any] = dtype
        #: The denominator of each entry of the observation (``float32[30, 53]``, read-only).
        self.observation_scale = observation_scale(rules)
        self._k = Knobs(rules, scale, penalty)
        self._fields = field_table(self._k.deck_slots, dtype)
        config = (rules, scale, penalty, dtype)
        if config not in _REFRESH:  # one compiled program per configuration, shared by its Envs
            _REFRESH[config] = jax.jit(jax.vmap(self._refresh))
        self._refresh_batch = _REFRESH[config]

    def __repr__(self) -> str:
        dtype = "" if self.observation_dtype == np.float32 else f", observation_dtype=np.{self.observation_dtype}"
        bonus = f", win_bonus={self.win_bonus!r}" if self.win_bonus else ""
        return f"Env(rules={self.rules!r}, reward_scale={self.reward_scale!r}{dtype}{bonus})"

    def deck(self, key: Array) -> Array:
        """The deck ``key`` deals, in the order of :meth:`GameState.from_deck
        <persian_rummy.GameState.from_deck>` (``int8[56]`` card indices): :meth:`init` deals
        ``deck(key)``, and :meth:`step` deals the deck of its key (or of the game's own).

        >>> deck = Env().deck(jax.random.PRNGKey(0))
        >>> deck.shape, sorted(deck.tolist()) == sorted(c.index for c in __import__("persian_rummy").DECK)
        ((56,), True)
        """
        check_key(key, "deck")
        return deck(key)

    def init(self, key: Array) -> State:
        """The first deal of a game, dealt by seat 0 (as :func:`~persian_rummy.new_game`'s
        default) from ``deck(key)``: seat 1 is to draw (R5-R6). The game keeps a key of its
        own, made from ``key``, for the deals that :meth:`step` deals without one. ``key`` is
        ``uint32[2]`` or a typed key of any implementation (``jax.random.key(0, impl="rbg")``).

        >>> shapes = jax.eval_shape(Env().init, jax.random.PRNGKey(3))
        >>> shapes.observation.shape, shapes.legal_action_mask.shape, shapes.rewards.dtype
        ((30, 53), (1436,), dtype('float32'))
        """
        check_key(key, "init")
        own = key_words(jax.random.fold_in(key, _CARRY))
        x = deal(deck(key), jnp.int32(0), jnp.int32(1), jnp.zeros(2, I32), own, game_decks(own, self._k.deck_slots))
        # The empty table is a constant here: the barrier keeps the compiler from folding the
        # mask's table half at compile time (slow, and the same program either way).
        dealt: GameArrays = jax.lax.optimization_barrier(x)  # type: ignore[no-untyped-call]
        return self._state(dealt, jnp.zeros(4, jnp.float32), jnp.bool_(False), jnp.int32(0), jnp.int32(0))

    def _state(self, x: GameArrays, rewards: Array, terminated: Array, step_count: Array, ended_deal: Array) -> State:
        # The State of a position: the mover's observation and the mask (all True once over).
        over = terminated | (x.phase >= ROUND_OVER)
        return State(
            current_player=x.current_player,
            observation=observe(self._k, x, x.current_player, self.observation_dtype),
            legal_action_mask=jnp.where(over, True, mask(self._k, x)),
            rewards=rewards,
            terminated=terminated,
            truncated=jnp.bool_(False),
            _ended_deal=ended_deal,
            _step_count=step_count,
            _x=x,
            _rules=self.rules,
        )

    def _refresh(self, state: State) -> State:
        # A batch read by from_states: each row's decks drawn from its key, its mask and observation.
        x = state._x.replace(decks=game_decks(state._x.key, self._k.deck_slots))
        return self._state(x, state.rewards, state.terminated, state._step_count, state._ended_deal)

    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """Play ``action`` (an index of the :mod:`~persian_rummy.encoding` numbering, one whole
        number) in one game: exactly :func:`~persian_rummy.play` for a legal action. When it
        ends a deal that is not the last, the next deal is dealt at once (the next dealer
        clockwise, R6-R7, the scores carried) from ``deck(key)``, or, without a key, deal ``n``
        from ``deck(fold_in(own, n))``, ``own`` the game's own key (``State._x.key``: so a game
        stays reproducible from :meth:`init`'s key alone). Without a key the step is the fast
        one: those decks were drawn when the game started, so a step shuffles nothing, where
        with a key every row of a batched step shuffles that key's deck (a batched step
        computes the next deal in every row). ``rewards`` are each seat's team's deal score
        minus the other team's over ``reward_scale``. A finished deal read by
        :meth:`from_states` (``ROUND_OVER``) takes any action and deals the next one, with zero
        rewards. On a terminated game the state is returned as it is (its observation computed
        again), with zero rewards. An illegal action ends the game: ``terminated`` is set, the
        position is unchanged and the mover's team gets ``illegal_action_penalty``, the other
        team its opposite.

        >>> env = Env()
        >>> state = jax.eval_shape(env.init, jax.random.PRNGKey(0))
        >>> jax.eval_shape(env.step, state, 0).rewards.shape
        (4,)
        """
        self._check_state(state, "step")
        check_index(action, "action")
        if key is not None:
            check_key(key, "step")
        state = host_to_device(state)
        safe, in_range = action_number(action, NUM_ACTIONS)
        x = state._x
        live = (x.phase <= MELD) & ~state.terminated
        legal = in_range & state.legal_action_mask[safe]
        # A terminated game stays as it is, with zero rewards; an illegal action in a live game
        # ends it with the position kept and the penalty to the mover's team. Only the position
        # is chosen here: the mask and the observation are then computed once, of the one chosen.
        done = state.terminated
        kept = done | (live & ~legal)
        nxt, rewards, ended = self._advance(x, safe, live, key)
        mover_team = jnp.asarray(TEAM)[state.current_player]
        penalty = jnp.where(
            jnp.asarray(TEAM) == mover_team,
            np.float32(self.illegal_action_penalty),
            np.float32(-self.illegal_action_penalty),
        )
        return self._state(
            select(kept, x, nxt),
            jnp.where(done, np.float32(0), jnp.where(kept, penalty, rewards)),
            kept | (nxt.phase == GAME_OVER),
            jnp.where(done, state._step_count, state._step_count + 1),
            jnp.where(kept, 0, ended),
        )

    def _advance(self, x: GameArrays, action: Array, live: Array, key: Array | None) -> tuple[GameArrays, Array, Array]:
        # The position after a legal action (or, in a finished deal, the next deal), the
        # rewards, and the number of the deal the action ended (0 for none).
        k = self._k
        played = play(k, x, action)
        over = played.phase >= ROUND_OVER
        deal_scores = score(k, played)
        played = played.replace(scores=jnp.where(over, x.scores + deal_scores, x.scores))
        # The margin over the scale as the environment rounds it (float64, then float32).
        margins = jnp.asarray(k.margins)
        margin = margins[jnp.clip(deal_scores[0] - deal_scores[1] + k.margin_limit, 0, 2 * k.margin_limit)]
        signs = jnp.asarray(np.array([1, -1, 1, -1], np.float32))
        rewards = jnp.where(over & live, margin * signs, np.float32(0))
        if self.win_bonus:  # R26: the team ahead after the last deal wins; equal totals draw
            won = jnp.sign(played.scores[0] - played.scores[1]).astype(jnp.float32) * np.float32(self.win_bonus)
            rewards = rewards + jnp.where(over & live & (played.phase == GAME_OVER), won * signs, np.float32(0))
        ended = jnp.where(over & live, x.deal_number, 0).astype(I32)
        # A finished deal that is not the last: the next deal (R6-R7), computed in every row
        # (a batched step cannot skip it), from a deck drawn when the game started unless a
        # key is given or the game has too many deals for that (the static choice of the trace).
        finished = jnp.where(live, played.phase, x.phase) == ROUND_OVER
        base = select(live, played, x)
        if key is not None:
            cards = deck(key)
        elif k.deck_slots:
            cards = base.decks[jnp.clip(base.deal_number - 1, 0, k.deck_slots - 1)]
        else:
            cards = own_deck(base.key, base.deal_number + 1)
        following = deal(cards, (base.dealer + 1) % 4, base.deal_number + 1, base.scores, base.key, base.decks)
        return select(finished, following, base), rewards, ended

    def reset_finished(self, state: State, keys: Array, *, capacity: int | None = None) -> State:
        """The batch ``state`` (one leading axis, ``B`` rows) with every finished row (its
        ``terminated`` set) replaced by a fresh game, exactly ``init(keys[row])``, and every
        other row as it is: the auto-reset of a loop that deals finished games anew after each
        step. ``keys`` is a batch of ``B`` keys (``jax.random.split(key, B)``); call it under
        ``jit``, after the step whose rewards you have read (a row reset holds ``init``'s zero
        rewards), and not under ``vmap``: it works on the whole batch.

        It deals only the finished rows. pgx's auto-reset, ``jnp.where(terminated, init(keys),
        state)`` row by row, deals every row and keeps few, which costs about three steps;
        here the finished rows (up to ``capacity``, by default ``B // 16``, at least 1) are
        gathered, dealt and written back, a step that finishes none deals nothing, and one
        that finishes more than ``capacity`` deals every row (the same result, the slow way).

        >>> env = Env()
        >>> init = jax.jit(jax.vmap(env.init))
        >>> keys = jax.random.split(jax.random.PRNGKey(0), 4)
        >>> state = init(keys)
        >>> state = state.replace(terminated=state.terminated.at[2].set(True))
        >>> fresh = jax.random.split(jax.random.PRNGKey(1), 4)
        >>> reset = jax.jit(env.reset_finished)(state, fresh)
        >>> bool((reset._x.hands[2] == init(fresh)._x.hands[2]).all()), bool((reset._x.hands[0] == state._x.hands[0]).all())
        (True, True)
        """
        fields = fields_of(state, "reset_finished")
        lead = check_fields(fields, "reset_finished", batched=True, table=self._fields)
        if len(lead) != 1:
            raise InvalidArgumentError(f"reset_finished takes a batch (one leading axis), not axes {lead}")
        assert isinstance(state, State)  # fields_of refused anything else
        check_rules(state, self.rules, "reset_finished")
        size = lead[0]
        dtype = getattr(keys, "dtype", None)
        typed = dtype is not None and bool(jnp.issubdtype(dtype, jax.dtypes.prng_key))
        shape = tuple(getattr(keys, "shape", ()))
        if shape != ((size,) if typed else (size, 2)):
            raise InvalidArgumentError(
                f"reset_finished takes one key a row ({size} keys: jax.random.split(key, {size})), not {excerpt(keys)}"
            )
        if capacity is None:
            capacity = max(1, size // 16)
        if type(capacity) is not int or capacity < 1:
            raise InvalidArgumentError(
                f"reset_finished: capacity must be a whole number from 1, not {excerpt(capacity)}"
            )
        if size == 0:
            return state
        state = host_to_device(state)
        capacity = min(capacity, size)
        done = jnp.asarray(state.terminated)
        count = jnp.sum(done, dtype=jnp.int32)

        def few(state: State) -> State:
            rows = jnp.nonzero(done, size=capacity, fill_value=size)[0]
            fresh = jax.vmap(self.init)(keys[jnp.minimum(rows, size - 1)])
            result: State = jax.tree_util.tree_map(lambda old, new: old.at[rows].set(new, mode="drop"), state, fresh)
            return result

        def every(state: State) -> State:
            fresh = jax.vmap(self.init)(keys)
            result: State = jax.tree_util.tree_map(
                lambda new, old: jnp.where(done.reshape((-1,) + (1,) * (old.ndim - 1)), new, old), fresh, state
            )
            return result

        branch = jnp.where(count == 0, 0, jnp.where(count <= capacity, 1, 2))
        reset: State = jax.lax.switch(branch, [lambda same: same, few, every], state)
        return reset

    def _check_state(self, state: object, where: str) -> None:
        # One game's State of this environment (trace time: shapes, dtypes and the rules).
        check_fields(fields_of(state, where), where, batched=False, table=self._fields)
        assert isinstance(state, State)  # fields_of refused anything else
        check_rules(state, self.rules, where)

    def observe(self, state: State, player_id: Array | int | None = None) -> Array:
        """The observation of seat ``player_id`` (by default the seat to act, as pgx's): exactly
        :func:`~persian_rummy.observation.observation_tensor` of that seat's
        :class:`~persian_rummy.PlayerView` (``float32[30, 53]``, bit for bit; the planes are
        listed in :mod:`persian_rummy.observation`), or its whole numbers in an environment of
        integer observations (``observation_dtype``). A concrete seat outside 0-3 is refused
        (:class:`~persian_rummy.InvalidArgumentError`); under ``jit`` or ``vmap``, where a
        traced seat cannot be refused, one outside 0-3 observes all zeros: no seat's cards.

        >>> env = Env()
        >>> obs = jax.eval_shape(env.observe, jax.eval_shape(env.init, jax.random.PRNGKey(0)), 1)
        >>> obs.shape, obs.dtype
        ((30, 53), dtype('float32'))
        """
        self._check_state(state, "observe")
        state = host_to_device(state)
        if player_id is None:
            return state.observation
        check_index(player_id, "player_id")
        check_seat_value(player_id)
        seat = jnp.asarray(player_id)
        valid = (seat >= 0) & (seat < 4)
        seen = observe(self._k, state._x, jnp.where(valid, seat, 0).astype(I32), self.observation_dtype)
        return jnp.where(valid, seen, jnp.zeros((), self.observation_dtype))

    def float_observation(self, observation: Array) -> Array:
        """The ``float32`` observation of an integer one (``int16`` or ``int32``, of one game or
        a batch: ``[..., 30, 53]``), bit for bit what an environment of ``float32`` observations
        gives; under ``jit`` too, where dividing by :attr:`observation_scale` is not exact
        (XLA's CPU backend rounds some quotients a bit off; numpy's division is exact).

        >>> from persian_rummy import new_game
        >>> from persian_rummy.observation import observation_tensor
        >>> env = Env(observation_dtype="int16")
        >>> state = env.from_states([new_game(5)])
        >>> state.observation.dtype
        dtype('int16')
        >>> game = new_game(5)
        >>> want = observation_tensor(game.view(game.current_player))
        >>> bool((env.float_observation(state.observation)[0] == want).all())
        True
        >>> bool((np.asarray(state.observation[0], np.float32) / env.observation_scale == want).all())
        True
        """
        dtype = getattr(observation, "dtype", None)
        shape = tuple(getattr(observation, "shape", ()))
        if dtype is None or not np.issubdtype(np.dtype(dtype), np.integer):
            raise ArgumentTypeError(f"float_observation takes an integer observation, not {excerpt(observation)}")
        if shape[-2:] != OBSERVATION_SHAPE:
            raise InvalidArgumentError(f"float_observation takes observations of shape (..., 30, 53), not {shape}")
        return to_float(self._k, jnp.asarray(observation))

    def from_states(self, states: Sequence[GameState], key: Array | None = None) -> State:
        """A batch of rows (a leading axis of ``len(states)``) holding exactly these positions,
        with their masks and the observations of their movers: any valid position of this
        environment's rules, in any phase and any deal. Each row's own key (for the deals
        :meth:`step` deals without one) is one of ``jax.random.split(key, len(states))``
        (``key`` defaults to ``jax.random.PRNGKey(0)``). Anything else is refused with the
        library's error: a value that is not a :class:`~persian_rummy.GameState`
        (:class:`~persian_rummy.ArgumentTypeError`), a position of other rules
        (:class:`~persian_rummy.InvalidArgumentError`) or an invalid one
        (:class:`~persian_rummy.InvalidStateError`). No states give a batch of no rows.

        >>> from persian_rummy import new_game
        >>> env = Env()
        >>> batch = env.from_states([new_game(1), new_game(2)])
        >>> batch.current_player.shape, env.to_states(batch) == [new_game(1), new_game(2)]
        ((2,), True)
        """
        if isinstance(states, GameState) or not isinstance(states, Sequence):
            raise ArgumentTypeError(f"from_states takes a sequence of GameState values, not {excerpt(states)}")
        if key is not None:
            check_key(key, "from_states", concrete=True)
        if not states:
            return self._empty()
        rows = [position_row(self._k, state, number) for number, state in enumerate(states)]
        stacked = {name: np.stack([row[name] for row in rows]) for name in rows[0]}
        keys = jax.random.split(jax.random.PRNGKey(0) if key is None else key, len(rows))
        stacked["key"] = np.asarray(key_words(keys))
        size = len(rows)
        batch = State(
            current_player=jnp.asarray(stacked["current_player"]),
            observation=jnp.zeros((size, *OBSERVATION_SHAPE), jnp.float32),
            legal_action_mask=jnp.zeros((size, NUM_ACTIONS), bool),
            rewards=jnp.zeros((size, 4), jnp.float32),
            terminated=jnp.asarray(stacked["phase"] == GAME_OVER),
            truncated=jnp.zeros(size, bool),
            _ended_deal=jnp.zeros(size, jnp.int32),
            _step_count=jnp.zeros(size, jnp.int32),
            _x=GameArrays(**{name: jnp.asarray(value) for name, value in stacked.items()}),
            _rules=self.rules,
        )
        refreshed: State = self._refresh_batch(batch)
        return refreshed

    def _empty(self) -> State:
        # A batch of no rows: every field of its dtype with a leading axis of 0.
        arrays = {name: jnp.zeros((0, *shape), dtype) for name, (shape, dtype) in self._fields.items()}
        position = GameArrays(**{name.removeprefix("_x."): arrays[name] for name in arrays if name.startswith("_x.")})
        public = {name: value for name, value in arrays.items() if not name.startswith("_x.")}
        return State(**public, _x=position, _rules=self.rules)

    def to_states(self, state: State, *, validate: bool = True) -> list[GameState]:
        """The :class:`~persian_rummy.GameState` of every row of a batch (or of one unbatched
        game), exactly: ``env.to_states(env.from_states(states)) == list(states)``. A game
        ended by an illegal action gives its position before that action. Every row is checked
        first, field by field and then by the scalar validator
        (:meth:`GameState.validate <persian_rummy.GameState.validate>`): the first that fails
        raises :class:`~persian_rummy.InvalidStateError` naming the row and the field; a field
        of the wrong dtype or shape raises :class:`~persian_rummy.ArgumentTypeError` or
        :class:`~persian_rummy.InvalidArgumentError`. ``validate=False`` skips the scalar
        validator and the table points (about two thirds of the time, for rows the engine
        made); the field checks always run, so no row ever raises anything but these errors.

        >>> from persian_rummy import new_game
        >>> env = Env()
        >>> [game.current_player for game in env.to_states(env.from_states([new_game(2)]))]
        [1]
        """
        if type(validate) is not bool:
            raise ArgumentTypeError(f"to_states: validate must be True or False, not {excerpt(validate)}")
        fields = fields_of(state, "to_states")
        lead = check_fields(fields, "to_states", batched=True, table=self._fields)
        if len(lead) > 1:
            raise InvalidArgumentError(f"to_states takes one game or a batch (one leading axis), not axes {lead}")
        assert isinstance(state, State)  # fields_of refused anything else
        check_rules(state, self.rules, "to_states")
        check_concrete(fields, "to_states")
        if lead == (0,):
            return []
        arrays = {
            name.removeprefix("_x."): np.asarray(value) for name, value in fields.items() if name.startswith("_x.")
        }
        for name in ("terminated", "truncated", "rewards"):
            arrays[name] = np.asarray(fields[name])
        arrays["ended_deal"] = np.asarray(fields["_ended_deal"])
        arrays["step_count"] = np.asarray(fields["_step_count"])
        public = np.asarray(fields["current_player"])
        if not lead:
            arrays = {name: value[None] for name, value in arrays.items()}
            public = public[None]
        check_rows(arrays, self.rules.deals)
        differs = public != arrays["current_player"]
        if differs.any():
            row = int(np.argmax(differs))
            raise InvalidStateError(
                f"to_states: row {row}, field current_player: {int(public[row])}, but the position's "
                f"seat to act is {int(arrays['current_player'][row])}"
            )
        return games_of(self._k, arrays, validate=validate)
