"""An exact vectorized engine in JAX: thousands of games per call (needs the ``[jax]`` extra).

In the idiom of pgx, every function of :class:`Env` plays **one** game, as pure functions of
fixed-shape arrays; users batch with ``jax.vmap`` and compile with ``jax.jit``:

>>> import jax
>>> from persian_rummy import new_game
>>> env = Env()
>>> keys = jax.random.split(jax.random.PRNGKey(0), 2)
>>> state = env.from_states([new_game(1), new_game(2)])  # or jax.vmap(env.init)(keys)
>>> state.current_player.tolist(), state.legal_action_mask.shape
([1, 1], (2, 1436))
>>> env.to_states(state) == [new_game(1), new_game(2)]
True

and then, compiled once per :class:`~persian_rummy.Rules`, ``step = jax.jit(jax.vmap(env.step))``
and ``state = step(state, actions, keys)`` play one action in every row.

Every row is exactly the scalar engine's position: :meth:`Env.to_states` gives the
:class:`~persian_rummy.GameState` of each row and :meth:`Env.from_states` the rows of given
states, ``legal_action_mask`` is :func:`~persian_rummy.encoding.legal_flags` and
:meth:`Env.step` is :func:`~persian_rummy.play` (see the docs' "Vectorized engine" page for the
conventions at a deal's end, a game's end and an illegal action).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Final

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from persian_rummy._moves import tally
from persian_rummy.cards import CARDS, JOKER_INDEX
from persian_rummy.encoding import DISCARD_BASE, LAY_OFF_BASE, MAX_MELDS, MAX_PILE, MELD_BASE, NUM_ACTIONS, PASS_INDEX
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, InvalidStateError, excerpt
from persian_rummy.hand import make_hand
from persian_rummy.limits import DECK_POINTS, deal_points
from persian_rummy.melds import Meld
from persian_rummy.rules import IDLE_LIMIT, Rules
from persian_rummy.state import GameState, Phase
from persian_rummy.vector._checks import (
    check_fields,
    check_index,
    check_key,
    check_number,
    check_penalty,
    check_rows,
    check_seat_value,
    reward_bounds,
)
from persian_rummy.vector._tables import (
    CARD_COLUMNS,
    DECK_CARDS,
    EXT_BITS,
    EXT_NEXT,
    MELD_ACE_LOW,
    MELD_BITS,
    MELD_COUNTS,
    MELD_JOKERS,
    MELD_SET,
    MELD_SIZE,
    MELDS_WITH,
    NUM_MELDS,
    OVER_56,
    PAIRS,
    POINTS_ARRAY,
)

__all__ = ["Env", "State"]

Array = jax.Array
#: The phases as numbers: :class:`~persian_rummy.Phase` in declaration order.
DRAW, MELD, ROUND_OVER, GAME_OVER = 0, 1, 2, 3
_PHASES: Final = (Phase.DRAW, Phase.MELD, Phase.ROUND_OVER, Phase.GAME_OVER)
_PHASE_NUMBER: Final = {phase: number for number, phase in enumerate(_PHASES)}
_DECK_SIZE: Final = 56
_HAND_SIZE: Final = 7
_STOCK_START: Final = _DECK_SIZE - 4 * _HAND_SIZE - 1  # 27 (R5)
_I32 = jnp.int32
_U32 = jnp.uint32


@dataclasses.dataclass(frozen=True)
class State:
    """One game (or, with a leading batch axis, a batch of games) as fixed-shape arrays.

    The public fields are pgx's: ``current_player`` (the seat to act; after a deal, the seat
    that acted last), ``legal_action_mask`` (``bool[1436]``, the
    :mod:`~persian_rummy.encoding` numbering; all True once ``terminated``), ``rewards``
    (``float32[4]``, by seat, of the last step), ``terminated`` (the game is over),
    ``truncated`` (never set: R21 bounds every deal) and ``step_count``. The others hold the
    position, ``-1`` marking an empty slot:

    - ``hands``: ``int8[4, 53]``, how many of each card (column = card index, 52 the joker,
      0-4) each seat holds;
    - ``stock``: ``int8[56]``, the stock bottom to top (the top card is at ``stock_size - 1``);
      ``stock_size``;
    - ``pile``: ``int8[56]``, the discard pile bottom to top; ``pile_size``;
    - ``meld_id``: ``int16[18]``, the table's melds in table order, each as its number among
      the 371 melds of :data:`~persian_rummy.encoding.MELDS` (a lay-off makes another of
      them); ``meld_seat``: ``int8[18, 53]``, the seat credited with each card of each meld
      (R16; for the joker column, the seat that melded the jokers); ``meld_laid``:
      ``bool[18, 53]``, the cards laid off after the meld was made; ``joker_seat`` and
      ``joker_pos``: ``int8[18]``, the seat that laid off a joker on a set of three jokers and
      the place of that joker among the meld's four; ``num_melds``;
    - ``dealer``, ``phase`` (0 draw, 1 meld, 2 round over, 3 game over), ``must_meld`` (the
      card index to meld next, R14), ``deal_number``, ``scores`` (``int32[2]``, the teams'
      totals), ``passes`` (R20), ``idle_turns`` (R21), ``turn_progress`` (R21) and
      ``went_out`` (R18): the fields of :class:`~persian_rummy.GameState`;
    - ``table_points``: ``int32[2]``, the points of the table credited to each team, the
      doubles of sets of four melded at once included (R16, R23, R24; a set of four never
      takes a lay-off, so its double is known when it is melded): derived, kept so that a
      deal's end adds the hands and the bonus only.
    """

    current_player: Array
    legal_action_mask: Array
    rewards: Array
    terminated: Array
    truncated: Array
    step_count: Array
    hands: Array
    stock: Array
    stock_size: Array
    pile: Array
    pile_size: Array
    meld_id: Array
    meld_seat: Array
    meld_laid: Array
    joker_seat: Array
    joker_pos: Array
    num_melds: Array
    dealer: Array
    phase: Array
    must_meld: Array
    deal_number: Array
    scores: Array
    passes: Array
    idle_turns: Array
    turn_progress: Array
    went_out: Array
    table_points: Array

    def replace(self, **changes: Array) -> State:
        """A copy with the fields given changed (pgx's ``state.replace``).

        >>> from persian_rummy import new_game
        >>> Env().from_states([new_game(1)]).replace(step_count=jnp.int32(5)).step_count.tolist()
        5
        """
        return dataclasses.replace(self, **changes)


# The compiled mask of a batch read by from_states, by (rules, reward_scale, penalty).
_REFRESH: dict[tuple[Rules, float, float], Any] = {}
_FIELDS: Final = tuple(field.name for field in dataclasses.fields(State))
jax.tree_util.register_dataclass(State, data_fields=list(_FIELDS), meta_fields=[])

# Tables as device constants (numpy here; jnp converts them once per trace).
_POW: Final = (np.uint32(1) << np.arange(32, dtype=np.uint32)).astype(np.uint32)
_JOKER_BIT: Final = np.uint32(1 << 20)
_TEAM: Final = np.array([0, 1, 0, 1], np.int32)
#: Each meld's points, not doubled (R22).
_MELD_POINTS: Final = np.dot(MELD_COUNTS.astype(np.int32), np.asarray(POINTS_ARRAY, np.int32))


def _pair_bits(ace_low: bool) -> npt.NDArray[np.uint32]:
    """For each card, its three-card meld partners (:data:`PAIRS`) as two words each; a pair
    that cannot be (padding, or the ace low when the rules forbid it, R10) is all ones, which
    no hand holds."""
    out = np.full((CARD_COLUMNS, PAIRS.shape[1], 2), 0xFFFFFFFF, np.uint32)
    for card in range(CARD_COLUMNS):
        for number, (first, second, low) in enumerate(PAIRS[card].tolist()):
            if first < 0 or first == JOKER_INDEX or (low and not ace_low):
                continue
            words = [0, 0]
            for partner in (first, second):
                words[partner // 32] |= 1 << (partner % 32)
            out[card, number] = words
    return out


def _card_bits(counts: Array) -> tuple[Array, Array]:
    """The natural cards of a count vector (``[..., 53]``) as two words."""
    held = counts[..., :JOKER_INDEX] > 0
    low = jnp.sum(jnp.where(held[..., :32], _POW, 0), axis=-1, dtype=_U32)
    high = jnp.sum(jnp.where(held[..., 32:], _POW[:20], 0), axis=-1, dtype=_U32)
    return low, high


def _has(card: Array, low: Array, high: Array) -> Array:
    """Whether natural ``card`` (or the joker flag, for 52) is among two words."""
    card = jnp.clip(card, 0, JOKER_INDEX)
    word = jnp.where(card < 32, low, high)
    shift = jnp.where(card < 32, card, card - 32).astype(_U32)
    return (word >> shift) & 1 == 1


def _over_1000(scores: Array) -> Array:
    """Whole numbers over 1000 as the float32 nearest to the exact quotient (as the scalar
    tensor gives them, through float64), for any score (R23): the quotient's whole part plus
    the remainder's thousandths, held as a pair of float32 numbers and added without error
    before the one rounding."""
    whole = jnp.floor_divide(scores, 1000)
    rest = scores - 1000 * whole
    high, low = jnp.asarray(_THOUSANDTHS[0])[rest], jnp.asarray(_THOUSANDTHS[1])[rest]
    first = whole.astype(jnp.float32)
    total = first + high
    back = total - first
    error = (first - (total - back)) + (high - back)
    result: Array = total + (error + low)
    return result


def _thousandths() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    # r / 1000 for r = 0-999 as float32 pairs, high + low (each rounded from float64).
    exact = np.arange(1000, dtype=np.float64) / 1000.0
    high = exact.astype(np.float32)
    return high, (exact - high.astype(np.float64)).astype(np.float32)


_THOUSANDTHS: Final = _thousandths()


def _or_reduce(words: Array, axis: int) -> Array:
    reduced: Array = jax.lax.reduce(words, np.uint32(0), jax.lax.bitwise_or, (axis,))
    return reduced


def _select(condition: Array, chosen: State, other: State) -> State:
    """``chosen`` where ``condition`` holds, else ``other``, field by field (a branch as a value)."""
    result: State = jax.tree_util.tree_map(lambda a, b: jnp.where(condition, a, b), chosen, other)
    return result


def _check_state(state: object, where: str) -> None:
    # One game's State: every field of the engine's shape and dtype (at trace time).
    if not isinstance(state, State):
        raise ArgumentTypeError(f"{where} takes a State, not {excerpt(state)}")
    check_fields({name: getattr(state, name) for name in _FIELDS}, where, batched=False)


class Env:
    """The game under ``rules`` as pure single-game functions (static: one compiled program
    per :class:`~persian_rummy.Rules`), pgx style: :meth:`init`, :meth:`step`,
    :meth:`observe`, and the exact conversions :meth:`from_states` and :meth:`to_states`.

    ``reward_scale`` divides the rewards (as the PettingZoo environment's, default 100);
    ``illegal_action_penalty`` is the reward of the mover's team when it plays an illegal
    action, which ends the game (the other team gets its opposite; pgx's convention).

    >>> from persian_rummy import new_game
    >>> env = Env()
    >>> state = env.from_states([new_game(7)])
    >>> env.to_states(state) == [new_game(7)], int(state.legal_action_mask.sum())
    (True, 1)
    """

    num_actions: Final = NUM_ACTIONS
    num_players: Final = 4

    def __init__(
        self, rules: Rules = Rules(), *, reward_scale: float = 100.0, illegal_action_penalty: float = -1.0
    ) -> None:
        if type(rules) is not Rules:
            raise ArgumentTypeError(f"rules must be a Rules value, not {excerpt(rules)}")
        scale = check_number("reward_scale", reward_scale)
        penalty = check_number("illegal_action_penalty", illegal_action_penalty)
        # R23-R25: a deal's margin is at most one team's best deal plus the deck in the other's hands.
        self._margin_limit = deal_points(rules.going_out_bonus) + DECK_POINTS
        if scale <= 0:
            raise InvalidArgumentError(f"reward_scale must be above 0, not {excerpt(reward_scale)}")
        low, high = reward_bounds(self._margin_limit)
        if not low <= scale <= high:
            raise InvalidArgumentError(
                f"reward_scale must be {low:g} to {high:g}, so that every reward is a finite float32 "
                f"and a point is not rounded to 0, not {excerpt(reward_scale)}"
            )
        check_penalty(penalty)
        self.rules = rules
        self.reward_scale = scale
        self.illegal_action_penalty = penalty
        self._ace_low = rules.ace_low
        self._forbidden = rules.last_card_discard == "forbidden"
        self._lay_off_pickup = rules.pickup_use == "meld_or_lay_off"
        allowed = np.ones(NUM_MELDS + 1, bool)
        allowed[NUM_MELDS] = False
        if not self._ace_low:
            allowed &= np.logical_not(MELD_ACE_LOW)
        self._allowed = allowed
        self._ext = EXT_BITS[int(self._ace_low)]
        self._pair_bits = _pair_bits(self._ace_low)
        # R24: a set of four melded at once scores double (four jokers only if the knob says so).
        doubled = MELD_SET & (MELD_SIZE == 4)
        if not rules.double_four_jokers:
            doubled &= MELD_JOKERS == 0
        self._meld_value = (_MELD_POINTS * np.where(doubled, 2, 1)).astype(np.int32)
        self._ext_flags = np.array(
            [
                [
                    bool(words[card // 32] >> (card % 32) & 1) if card < JOKER_INDEX else bool(words[1] & _JOKER_BIT)
                    for card in range(CARD_COLUMNS)
                ]
                for words in self._ext.tolist()
            ],
            bool,
        )
        self._deal_fraction = np.array([number / rules.deals for number in range(rules.deals + 1)], np.float32)
        self._margins = np.array(
            [margin / self.reward_scale for margin in range(-self._margin_limit, self._margin_limit + 1)], np.float32
        )
        key = (rules, self.reward_scale, self.illegal_action_penalty)
        if key not in _REFRESH:  # one compiled program per configuration, shared by its Envs
            _REFRESH[key] = jax.jit(jax.vmap(self._with_mask))
        self._refresh = _REFRESH[key]

    def __repr__(self) -> str:
        return f"Env(rules={self.rules!r}, reward_scale={self.reward_scale!r})"

    # --- Dealing -----------------------------------------------------------------------------

    def deck(self, key: Array) -> Array:
        """The deck ``key`` deals, in the order of :meth:`GameState.from_deck
        <persian_rummy.GameState.from_deck>` (``int8[56]`` card indices): :meth:`init` and the
        deals that :meth:`step` starts deal it that way.

        >>> deck = Env().deck(jax.random.PRNGKey(0))
        >>> deck.shape, sorted(deck.tolist()) == sorted(c.index for c in __import__("persian_rummy").DECK)
        ((56,), True)
        """
        # Each card's place is the rank of its random word among the 56 (ties broken by the
        # card's place in the deck): a comparison of all pairs, which vectorizes, where a sort
        # per game does not.
        check_key(key, "deck")
        words = jax.random.bits(key, (_DECK_SIZE,), jnp.uint32)
        order = jnp.arange(_DECK_SIZE)
        before = (words[None, :] < words[:, None]) | (
            (words[None, :] == words[:, None]) & (order[None, :] < order[:, None])
        )
        rank = jnp.sum(before, axis=1, dtype=jnp.int32)
        cards = jnp.asarray(DECK_CARDS).astype(jnp.int32)
        return jnp.sum(jnp.where(rank[None, :] == order[:, None], cards[None, :], 0), axis=1).astype(jnp.int8)

    def _deal(self, key: Array, dealer: Array, deal_number: Array, scores: Array) -> State:
        deck = self.deck(key).astype(_I32)
        seats = (dealer + 1 + jnp.arange(4 * _HAND_SIZE)) % 4
        dealt = (deck[: 4 * _HAND_SIZE, None] == jnp.arange(CARD_COLUMNS)[None, :]).astype(jnp.int8)  # [28, 53]
        hands = jnp.sum(
            jnp.where(seats[None, :, None] == jnp.arange(4)[:, None, None], dealt[None], 0), axis=1, dtype=jnp.int8
        )
        pile = jnp.full(MAX_PILE, -1, jnp.int8).at[0].set(deck[4 * _HAND_SIZE].astype(jnp.int8))
        order = jnp.arange(_DECK_SIZE)
        stock = jnp.where(order < _STOCK_START, deck[jnp.clip(_DECK_SIZE - 1 - order, 0)], -1).astype(jnp.int8)
        return State(
            current_player=((dealer + 1) % 4).astype(_I32),
            legal_action_mask=jnp.zeros(NUM_ACTIONS, bool),
            rewards=jnp.zeros(4, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            step_count=jnp.int32(0),
            hands=hands,
            stock=stock,
            stock_size=jnp.int32(_STOCK_START),
            pile=pile,
            pile_size=jnp.int32(1),
            meld_id=jnp.full(MAX_MELDS, -1, jnp.int16),
            meld_seat=jnp.full((MAX_MELDS, CARD_COLUMNS), -1, jnp.int8),
            meld_laid=jnp.zeros((MAX_MELDS, CARD_COLUMNS), bool),
            joker_seat=jnp.full(MAX_MELDS, -1, jnp.int8),
            joker_pos=jnp.full(MAX_MELDS, -1, jnp.int8),
            num_melds=jnp.int32(0),
            dealer=jnp.asarray(dealer, _I32),
            phase=jnp.int32(DRAW),
            must_meld=jnp.int32(-1),
            deal_number=jnp.asarray(deal_number, _I32),
            scores=jnp.asarray(scores, _I32),
            table_points=jnp.zeros(2, _I32),
            passes=jnp.int32(0),
            idle_turns=jnp.int32(0),
            turn_progress=jnp.bool_(False),
            went_out=jnp.int32(-1),
        )

    def init(self, key: Array) -> State:
        """The first deal of a game, dealt by seat 0 (as :func:`~persian_rummy.new_game`'s
        default) from the deck ``key`` shuffles (:meth:`deck`): seat 1 is to draw (R5-R6).

        >>> shapes = jax.eval_shape(Env().init, jax.random.PRNGKey(3))
        >>> shapes.hands.shape, shapes.legal_action_mask.shape, shapes.rewards.dtype
        ((4, 53), (1436,), dtype('float32'))
        """
        check_key(key, "init")
        state = self._deal(key, jnp.int32(0), jnp.int32(1), jnp.zeros(2, _I32))
        # The empty table is a constant here: the barrier keeps the compiler from folding the
        # mask's table half at compile time (slow, and the same program either way).
        dealt: State = jax.lax.optimization_barrier(state)  # type: ignore[no-untyped-call]
        return self._with_mask(dealt)

    # --- The legal actions -------------------------------------------------------------------

    def _table(self, state: State) -> tuple[Array, Array, Array]:
        # The table's meld numbers (empty slots as NUM_MELDS), each meld's extension words
        # ([18, 2]) and their union ([2]).
        ids = jnp.where(state.meld_id < 0, NUM_MELDS, state.meld_id).astype(_I32)
        ext = jnp.asarray(self._ext)[ids]
        return ids, ext, _or_reduce(ext, 0)

    def _leftover_ok(self, low: Array, high: Array, jokers: Array, union: Array) -> Array:
        # Whether a one-card leftover (two words, a joker count) is among ``union`` (R19).
        ok: Array = (
            ((low & union[..., 0]) != 0)
            | ((high & union[..., 1]) != 0)
            | ((jokers > 0) & ((union[..., 1] & _JOKER_BIT) != 0))
        )
        return ok

    def _except(self, ext: Array) -> Array:
        # For each table meld, the union of the other melds' extensions ([18, 2]).
        others = ~jnp.eye(MAX_MELDS, dtype=bool)
        return _or_reduce(jnp.where(others[:, :, None], ext[None, :, :], np.uint32(0)), 1)

    def _mask(self, state: State) -> Array:
        rules = self.rules
        seat = state.current_player
        hand = state.hands[seat].astype(_I32)
        size = hand.sum()
        low, high = _card_bits(hand)
        jokers = hand[JOKER_INDEX]
        must = state.must_meld
        ids, ext, union = self._table(state)
        allowed = jnp.asarray(self._allowed)
        meld_bits = jnp.asarray(MELD_BITS)
        meld_jokers = jnp.asarray(MELD_JOKERS).astype(_I32)
        meld_size = jnp.asarray(MELD_SIZE).astype(_I32)
        slots = jnp.arange(MAX_MELDS) < state.num_melds
        except_union = self._except(ext) if self._forbidden else None

        # After the draw: melds (R8-R11, R15), lay-offs (R16), discards (R17), with the card
        # taken from the pile (R14) and the last card (R19).
        held = (meld_bits[:, 0] & ~low) == 0
        held &= (meld_bits[:, 1] & ~high) == 0
        held &= meld_jokers <= jokers
        melds = allowed & held
        melds &= (must < 0) | (jnp.asarray(MELD_COUNTS)[:, jnp.clip(must, 0)] > 0)
        if self._forbidden:
            union_after = union[None, :] | jnp.asarray(self._ext)
            left_low = low & ~meld_bits[:, 0]
            left_high = high & ~meld_bits[:, 1]
            ok = self._leftover_ok(left_low, left_high, jokers - meld_jokers, union_after)
            melds &= (size - meld_size != 1) | ok
        extends = jnp.asarray(self._ext_flags)[ids] & slots[:, None]  # [18, 53]
        cards = jnp.arange(CARD_COLUMNS)
        lay_offs = extends & (hand > 0)[None, :]
        if self._lay_off_pickup:
            lay_offs &= (must < 0) | (cards == must)[None, :]
        else:
            lay_offs &= must < 0
        if self._forbidden:
            assert except_union is not None
            ok = self._lay_off_ok(ids, except_union, low, high, jokers, cards[None, :])
            lay_offs &= (size != 2) | ok
        discards = (hand > 0) & (must < 0)
        if self._forbidden:
            discards &= size >= 2

        # Before the draw: the stock (R12), the pile (R13-R14, R19), a pass (R20).
        index = jnp.arange(MAX_PILE)
        in_pile = index < state.pile_size
        pile = jnp.where(in_pile, state.pile.astype(_I32), 0)
        natural = in_pile & (pile < JOKER_INDEX)
        bit = jnp.left_shift(np.uint32(1), jnp.where(pile < 32, pile, pile - 32).astype(_U32))
        pile_low = jnp.where(natural & (pile < 32), bit, np.uint32(0))
        pile_high = jnp.where(natural & (pile >= 32), bit, np.uint32(0))
        pile_jokers = (in_pile & (pile == JOKER_INDEX)).astype(_I32)
        # The cards taken with each index: every card from it to the top (suffix sums by a
        # scan, which XLA's CPU backend runs faster than its cumsum).
        taken_low = low | jax.lax.associative_scan(jnp.bitwise_or, pile_low, reverse=True)
        taken_high = high | jax.lax.associative_scan(jnp.bitwise_or, pile_high, reverse=True)
        taken_jokers = jokers + jax.lax.associative_scan(jnp.add, pile_jokers, reverse=True)
        if self._forbidden:
            assert except_union is not None
            usable = self._usable_forbidden(
                state, ids, ext, union, except_union, pile, taken_low, taken_high, taken_jokers, size
            )
        else:
            pairs = jnp.asarray(self._pair_bits)[pile]  # [56, 7, 2]: each pair's two cards as words
            held = ((pairs[..., 0] & ~taken_low[:, None]) == 0) & ((pairs[..., 1] & ~taken_high[:, None]) == 0)
            natural_meld = jnp.any(held, axis=1) & (pile < JOKER_INDEX)
            joker_meld = (pile == JOKER_INDEX) & (taken_jokers >= 3)
            usable = natural_meld | joker_meld
            if self._lay_off_pickup:
                usable |= _has(pile, union[0], union[1])
        top = index == state.pile_size - 1
        takes = in_pile & (usable | (top & (not rules.top_card_must_meld)))

        draw_phase = jnp.concatenate([(state.stock_size > 0)[None], takes, (state.stock_size == 0)[None]])
        meld_phase = jnp.concatenate([melds[:NUM_MELDS], lay_offs.T.reshape(-1), discards])
        live_draw = state.phase == DRAW
        live_meld = state.phase == MELD
        mask = jnp.concatenate([draw_phase & live_draw, meld_phase & live_meld])
        assert mask.shape == (NUM_ACTIONS,)
        assert PASS_INDEX == MAX_PILE + 1 and MELD_BASE == PASS_INDEX + 1
        assert LAY_OFF_BASE == MELD_BASE + NUM_MELDS and DISCARD_BASE == LAY_OFF_BASE + MAX_MELDS * CARD_COLUMNS
        return mask

    def _lay_off_ok(
        self, ids: Array, except_union: Array, low: Array, high: Array, jokers: Array, card: Array
    ) -> Array:
        # Under "forbidden": laying ``card`` off on each table meld leaves a hand of these two
        # words and jokers less the card; whether that one card can be laid off at once on the
        # grown table (R19). Shapes broadcast to [18, ...].
        grown = jnp.asarray(EXT_NEXT)[ids[:, None], jnp.clip(card, 0, JOKER_INDEX)]
        grown = jnp.where(grown < 0, NUM_MELDS, grown)
        union = except_union[:, None, :] | jnp.asarray(self._ext)[grown]
        natural = card < JOKER_INDEX
        bit = jnp.left_shift(np.uint32(1), jnp.where(card < 32, card, card - 32).astype(_U32))
        left_low = jnp.where(natural & (card < 32), low & ~bit, low)
        left_high = jnp.where(natural & (card >= 32), high & ~bit, high)
        left_jokers = jokers - (card == JOKER_INDEX)
        return self._leftover_ok(left_low, left_high, left_jokers, union)

    def _usable_forbidden(
        self,
        state: State,
        ids: Array,
        ext: Array,
        union: Array,
        except_union: Array,
        pile: Array,
        taken_low: Array,
        taken_high: Array,
        taken_jokers: Array,
        size: Array,
    ) -> Array:
        # Under last_card_discard="forbidden": each pile card is usable if the hand with every
        # card taken has a legal meld holding it or a legal lay-off of it (R14, R19).
        index = jnp.arange(MAX_PILE)
        count = size + state.pile_size - index  # [56]
        candidates = jnp.asarray(MELDS_WITH)[pile].astype(_I32)  # [56, K]
        bits = jnp.asarray(MELD_BITS)[candidates]
        meld_jokers = jnp.asarray(MELD_JOKERS).astype(_I32)[candidates]
        meld_size = jnp.asarray(MELD_SIZE).astype(_I32)[candidates]
        low, high = taken_low[:, None], taken_high[:, None]
        jokers = taken_jokers[:, None]
        held = ((bits[..., 0] & ~low) == 0) & ((bits[..., 1] & ~high) == 0) & (meld_jokers <= jokers)
        held &= jnp.asarray(self._allowed)[candidates]
        union_after = union | jnp.asarray(self._ext)[candidates]
        ok = self._leftover_ok(low & ~bits[..., 0], high & ~bits[..., 1], jokers - meld_jokers, union_after)
        melds = jnp.any(held & ((count[:, None] - meld_size != 1) | ok), axis=1)
        if not self._lay_off_pickup:
            return melds
        slots = jnp.arange(MAX_MELDS) < state.num_melds
        extends = _has(pile[None, :], ext[:, 0:1], ext[:, 1:2]) & slots[:, None]  # [18, 56]
        ok = self._lay_off_ok(
            ids, except_union, taken_low[None, :], taken_high[None, :], taken_jokers[None, :], pile[None, :]
        )
        lay_offs = jnp.any(extends & ((count[None, :] != 2) | ok), axis=0)
        return melds | lay_offs

    def _with_mask(self, state: State) -> State:
        over = state.terminated | (state.phase >= ROUND_OVER)
        mask = jnp.where(over, True, self._mask(state))
        return state.replace(legal_action_mask=mask)

    # --- Playing -----------------------------------------------------------------------------

    def _end_round(self, state: State, went_out: Array, passes: Array, idle: Array) -> State:
        # The round ends (R18, R20, R21); its scores are added once, in step (_score).
        return state.replace(
            phase=jnp.where(state.deal_number >= self.rules.deals, GAME_OVER, ROUND_OVER).astype(_I32),
            must_meld=jnp.int32(-1),
            passes=passes,
            idle_turns=idle,
            turn_progress=jnp.where(went_out >= 0, True, state.turn_progress),
            went_out=went_out,
        )

    def _score(self, state: State) -> Array:
        """The deal's scores of a finished round, the going-out bonus included (R22-R25)."""
        points = jnp.asarray(POINTS_ARRAY)
        in_hand = state.hands.astype(_I32) @ points
        deal = state.table_points - jnp.stack([in_hand[0] + in_hand[2], in_hand[1] + in_hand[3]])
        out_team = jnp.asarray(_TEAM)[jnp.clip(state.went_out, 0)]
        return deal + jnp.where((jnp.arange(2) == out_team) & (state.went_out >= 0), self.rules.going_out_bonus, 0)

    def _next_turn(self, state: State, passed: Array) -> State:
        passes = jnp.where(passed, state.passes + 1, 0)
        idle = jnp.where(state.turn_progress, 0, state.idle_turns + 1)
        ends = (passed & (passes >= self.rules.pass_limit)) | (idle >= IDLE_LIMIT)
        ended = self._end_round(state, jnp.int32(-1), passes, idle)
        going = state.replace(
            current_player=(state.current_player + 1) % 4,
            phase=jnp.int32(DRAW),
            must_meld=jnp.int32(-1),
            passes=passes,
            idle_turns=idle,
            turn_progress=jnp.bool_(False),
        )
        return _select(ends, ended, going)

    def _after_table_change(self, state: State) -> State:
        seat = state.current_player
        empty = state.hands[seat].sum() == 0
        ended = self._end_round(state, seat, state.passes, jnp.int32(0))
        going = state.replace(phase=jnp.int32(MELD), must_meld=jnp.int32(-1), turn_progress=jnp.bool_(True))
        return _select(empty, ended, going)

    def _draw_stock(self, state: State, action: Array) -> State:
        card = state.stock[jnp.clip(state.stock_size - 1, 0)].astype(_I32)
        return state.replace(
            hands=state.hands.at[state.current_player, card].add(1),
            stock=state.stock.at[jnp.clip(state.stock_size - 1, 0)].set(-1),
            stock_size=state.stock_size - 1,
            phase=jnp.int32(MELD),
            must_meld=jnp.int32(-1),
            turn_progress=jnp.bool_(True),
        )

    def _draw_discard(self, state: State, action: Array) -> State:
        index = action - 1
        order = jnp.arange(MAX_PILE)
        taken = (order >= index) & (order < state.pile_size)
        pile = state.pile.astype(_I32)
        added = jnp.zeros(CARD_COLUMNS, jnp.int8).at[jnp.where(taken, pile, CARD_COLUMNS)].add(1, mode="drop")
        free = (index == state.pile_size - 1) & (not self.rules.top_card_must_meld)
        target = pile[jnp.clip(index, 0, MAX_PILE - 1)]
        return state.replace(
            hands=state.hands.at[state.current_player].add(added),
            pile=jnp.where(taken, -1, state.pile).astype(jnp.int8),
            pile_size=index,
            phase=jnp.int32(MELD),
            must_meld=jnp.where(free, -1, target).astype(_I32),
        )

    def _pass(self, state: State, action: Array) -> State:
        return self._next_turn(state, jnp.bool_(True))

    def _meld(self, state: State, action: Array) -> State:
        number = action - MELD_BASE
        counts = jnp.asarray(MELD_COUNTS)[number]
        seat = state.current_player
        slot = state.num_melds
        return self._after_table_change(
            state.replace(
                hands=state.hands.at[seat].add(-counts),
                meld_id=state.meld_id.at[slot].set(number.astype(jnp.int16), mode="drop"),
                meld_seat=state.meld_seat.at[slot].set(jnp.where(counts > 0, seat, -1).astype(jnp.int8), mode="drop"),
                num_melds=slot + 1,
                table_points=state.table_points.at[seat % 2].add(jnp.asarray(self._meld_value)[number]),
            )
        )

    def _lay_off(self, state: State, action: Array) -> State:
        card, slot = jnp.divmod(action - LAY_OFF_BASE, MAX_MELDS)
        seat = state.current_player
        number = jnp.where(state.meld_id[slot] < 0, NUM_MELDS, state.meld_id[slot]).astype(_I32)
        grown = jnp.asarray(EXT_NEXT)[number, card]
        joker = card == JOKER_INDEX
        return self._after_table_change(
            state.replace(
                hands=state.hands.at[seat, card].add(-1),
                meld_id=state.meld_id.at[slot].set(grown),
                meld_seat=state.meld_seat.at[slot, card].set(
                    jnp.where(joker, state.meld_seat[slot, card], seat).astype(jnp.int8)
                ),
                meld_laid=state.meld_laid.at[slot, card].set(True),
                table_points=state.table_points.at[seat % 2].add(jnp.asarray(POINTS_ARRAY)[card]),
                joker_seat=state.joker_seat.at[slot].set(
                    jnp.where(joker, seat, state.joker_seat[slot]).astype(jnp.int8)
                ),
                joker_pos=state.joker_pos.at[slot].set(jnp.where(joker, 3, state.joker_pos[slot]).astype(jnp.int8)),
            )
        )

    def _discard(self, state: State, action: Array) -> State:
        card = action - DISCARD_BASE
        seat = state.current_player
        hands = state.hands.at[seat, card].add(-1)
        after = state.replace(
            hands=hands,
            pile=state.pile.at[state.pile_size].set(card.astype(jnp.int8), mode="drop"),
            pile_size=state.pile_size + 1,
        )
        turn = self._next_turn(after, jnp.bool_(False))
        if self.rules.last_card_discard != "goes_out":
            return turn
        out = self._end_round(after, seat, jnp.int32(0), jnp.int32(0))
        empty = hands[seat].sum() == 0
        return _select(empty, out, turn)

    def _play(self, state: State, action: Array) -> State:
        # The scalar play() of a legal action, for a live position.
        kind = (
            (action >= 1).astype(_I32)
            + (action >= PASS_INDEX)
            + (action >= MELD_BASE)
            + (action >= LAY_OFF_BASE)
            + (action >= DISCARD_BASE)
        )
        branches = [self._draw_stock, self._draw_discard, self._pass, self._meld, self._lay_off, self._discard]
        played: State = jax.lax.switch(kind, branches, state, action)
        return played

    def step(self, state: State, action: Array, key: Array) -> State:
        """Play ``action`` (an index of the :mod:`~persian_rummy.encoding` numbering) in one
        game: exactly :func:`~persian_rummy.play` for a legal action. When it ends a deal that
        is not the last, the next deal is dealt from ``key`` (:meth:`deck`; the next dealer
        clockwise, R6-R7, the scores carried), and ``rewards`` are each seat's team's deal
        score minus the other team's over ``reward_scale``. A finished deal read by
        :meth:`from_states` (``ROUND_OVER``) takes any action and deals the next one, with
        zero rewards. On a terminated game the state is returned as it is, with zero rewards.
        An illegal action ends the game: ``terminated`` is set, the position is unchanged and
        the mover's team gets ``illegal_action_penalty``, the other team its opposite.

        >>> env = Env()
        >>> state = jax.eval_shape(env.init, jax.random.PRNGKey(0))
        >>> jax.eval_shape(env.step, state, jnp.int32(0), jax.random.PRNGKey(1)).rewards.shape
        (4,)
        """
        _check_state(state, "step")
        check_index(action, "action")
        check_key(key, "step")
        # The range is checked in the action's own dtype, so that no wide number wraps into it;
        # a Python int outside int32 is outside the numbering all the same.
        wide = isinstance(action, int) and not -(2**31) <= action < 2**31
        number = jnp.asarray(-1 if wide else action)
        in_range = (number >= 0) & (number < NUM_ACTIONS)
        safe = jnp.where(in_range, number, 0).astype(_I32)
        live = (state.phase <= MELD) & ~state.terminated
        legal = in_range & state.legal_action_mask[safe]
        played = self._play(state, safe)
        over = played.phase >= ROUND_OVER
        deal = self._score(played)
        played = played.replace(scores=jnp.where(over, state.scores + deal, state.scores))
        # The margin over the scale as the environment rounds it (float64, then float32).
        margin = jnp.asarray(self._margins)[jnp.clip(deal[0] - deal[1] + self._margin_limit, 0, 2 * self._margin_limit)]
        signs = jnp.asarray(np.array([1, -1, 1, -1], np.float32))
        rewards = jnp.where(over, margin * signs, np.float32(0))
        played = played.replace(rewards=rewards)
        # A finished deal that is not the last: the next deal, from the key (R6-R7).
        finished = jnp.where(live, played.phase, state.phase) == ROUND_OVER
        base = _select(live, played, state)
        following = self._deal(key, (base.dealer + 1) % 4, base.deal_number + 1, base.scores)
        following = following.replace(rewards=jnp.where(live, rewards, np.float32(0)))
        nxt = _select(finished, following, base)
        nxt = nxt.replace(
            terminated=nxt.phase == GAME_OVER,
            step_count=state.step_count + 1,
        )
        nxt = self._with_mask(nxt)
        # An illegal action in a live game ends it, with the penalty (pgx's convention).
        mover_team = jnp.asarray(_TEAM)[state.current_player]
        penalty = jnp.where(
            jnp.asarray(_TEAM) == mover_team,
            np.float32(self.illegal_action_penalty),
            np.float32(-self.illegal_action_penalty),
        )
        # A terminated game stays as it is, with zero rewards; both keep the position.
        done = state.terminated
        kept = state.replace(
            rewards=jnp.where(done, np.float32(0), penalty),
            terminated=jnp.bool_(True),
            legal_action_mask=jnp.ones(NUM_ACTIONS, bool),
            step_count=jnp.where(done, state.step_count, state.step_count + 1),
        )
        return _select(done | (live & ~legal), kept, nxt)

    # --- Observation -------------------------------------------------------------------------

    def observe(self, state: State, seat: Array) -> Array:
        """The observation of ``seat``: exactly
        :func:`~persian_rummy.observation.observation_tensor` of that seat's
        :class:`~persian_rummy.PlayerView` (``float32[30, 53]``, bit for bit; the planes are
        listed in :mod:`persian_rummy.observation`).

        >>> env = Env()
        >>> obs = jax.eval_shape(env.observe, jax.eval_shape(env.init, jax.random.PRNGKey(0)), jnp.int32(1))
        >>> obs.shape, obs.dtype
        ((30, 53), dtype('float32'))
        """
        _check_state(state, "observe")
        check_index(seat, "player_id")
        check_seat_value(seat)
        seat = jnp.asarray(seat)
        valid = (seat >= 0) & (seat < 4)
        seat = jnp.where(valid, seat, 0).astype(_I32)
        return jnp.where(valid, self._observe(state, seat), np.float32(0))

    def _observe(self, state: State, seat: Array) -> Array:
        relative = (seat + jnp.arange(4)) % 4  # the viewer, its left, its partner, its right
        ids = jnp.where(state.meld_id < 0, NUM_MELDS, state.meld_id).astype(_I32)
        counts = jnp.asarray(MELD_COUNTS).astype(jnp.float32)[ids]  # [18, 53]
        credited = state.meld_seat.astype(_I32)
        columns = jnp.arange(CARD_COLUMNS)
        natural = columns < JOKER_INDEX
        laid_joker = (state.joker_seat >= 0).astype(_I32)
        owner_jokers = jnp.asarray(MELD_JOKERS).astype(_I32)[ids] - laid_joker
        joker_owner = credited[:, JOKER_INDEX]
        joker_seat = state.joker_seat.astype(_I32)

        def credit(who: Array) -> Array:
            # R16, R23: the table cards credited to seat ``who``.
            naturals = jnp.sum((credited == who) & natural[None, :], axis=0).astype(jnp.float32)
            jokers = jnp.sum(
                jnp.where(joker_owner == who, owner_jokers, 0) + jnp.where(joker_seat == who, laid_joker, 0)
            )
            return naturals.at[JOKER_INDEX].set(jokers.astype(jnp.float32))

        laid = jnp.sum(state.meld_laid & natural[None, :], axis=0).astype(jnp.float32)
        laid = laid.at[JOKER_INDEX].set(jnp.sum(laid_joker).astype(jnp.float32))
        must = ((columns == state.must_meld) & (state.must_meld >= 0)).astype(jnp.float32)
        over_56 = jnp.asarray(OVER_56)
        # The pile plane: each natural card's position (i + 1) / 56, the jokers' count; the
        # jokers' positions, lowest first, as scalar columns 28-31 (R13).
        index = jnp.arange(MAX_PILE)
        pile = state.pile.astype(_I32)
        in_pile = index < state.pile_size
        positions = over_56[index + 1]
        is_natural = in_pile & (pile >= 0) & (pile < JOKER_INDEX)
        pile_plane = (
            jnp.zeros(CARD_COLUMNS, jnp.float32)
            .at[jnp.where(is_natural, pile, CARD_COLUMNS)]
            .set(positions, mode="drop")
        )
        is_joker = in_pile & (pile == JOKER_INDEX)
        pile_plane = pile_plane.at[JOKER_INDEX].set(jnp.sum(is_joker).astype(jnp.float32))
        joker_rank = jnp.cumsum(is_joker) - 1  # the how-many-th joker of the pile each is
        joker_columns = jnp.zeros(4, jnp.float32).at[jnp.where(is_joker, joker_rank, 4)].set(positions, mode="drop")
        hands = state.hands.astype(jnp.float32)
        revealed = jnp.where(state.phase >= ROUND_OVER, hands[relative[1:]], np.float32(0))  # R23, R27
        sizes = state.hands.astype(_I32).sum(axis=1)
        scores = jnp.where(seat % 2 == 0, state.scores, state.scores[::-1])
        scalars = jnp.concatenate(
            [
                over_56[sizes[relative]],
                over_56[state.stock_size][None],
                over_56[state.pile_size][None],
                _over_1000(scores),
                (jnp.arange(4) == state.phase).astype(jnp.float32),
                (jnp.arange(4) == (state.current_player - seat) % 4).astype(jnp.float32),
                (jnp.arange(4) == (state.dealer - seat) % 4).astype(jnp.float32),
                jnp.asarray(self._deal_fraction)[state.deal_number][None],
                (state.passes.astype(jnp.float32) / np.float32(4))[None],
                (state.idle_turns.astype(jnp.float32) / np.float32(8))[None],
                state.turn_progress.astype(jnp.float32)[None],
                ((jnp.arange(4) == (state.went_out - seat) % 4) & (state.went_out >= 0)).astype(jnp.float32),
                joker_columns,
                jnp.zeros(CARD_COLUMNS - 32, jnp.float32),
            ]
        )
        return jnp.concatenate(
            [
                hands[seat][None],
                counts,
                jnp.stack([credit(who) for who in relative]),
                laid[None],
                must[None],
                pile_plane[None],
                revealed,
                scalars[None],
            ]
        )

    # --- Conversions -------------------------------------------------------------------------

    def from_states(self, states: Sequence[GameState]) -> State:
        """A batch of rows (a leading axis of ``len(states)``) holding exactly these positions,
        with their masks: any valid position of this environment's rules, in any phase and
        any deal. Anything else is refused with the library's error: a value that is not a
        :class:`~persian_rummy.GameState` (:class:`~persian_rummy.ArgumentTypeError`), a
        position of other rules (:class:`~persian_rummy.InvalidArgumentError`) or an invalid
        one (:class:`~persian_rummy.InvalidStateError`).

        >>> from persian_rummy import new_game
        >>> env = Env()
        >>> batch = env.from_states([new_game(1), new_game(2)])
        >>> batch.current_player.shape, env.to_states(batch) == [new_game(1), new_game(2)]
        ((2,), True)
        """
        if isinstance(states, GameState) or not isinstance(states, Sequence):
            raise ArgumentTypeError(f"from_states takes a sequence of GameState values, not {excerpt(states)}")
        if not states:
            raise InvalidArgumentError("from_states needs at least one GameState (a batch has one row or more)")
        rows = [self._row(state, number) for number, state in enumerate(states)]
        stacked = {name: np.stack([row[name] for row in rows]) for name in rows[0]}
        batch = State(**{name: jnp.asarray(value) for name, value in stacked.items()})
        refreshed: State = self._refresh(batch)
        return refreshed

    def _row(self, state: object, number: int) -> dict[str, Any]:
        if type(state) is not GameState:
            raise ArgumentTypeError(f"from_states: item {number} is not a GameState but {excerpt(state)}")
        if state.rules != self.rules:
            raise InvalidArgumentError(
                f"from_states: item {number} is played under rules {state.rules}, but this Env plays {self.rules}"
            )
        state.validate()
        hands = np.zeros((4, CARD_COLUMNS), np.int8)
        for seat, hand in enumerate(state.hands):
            for card in hand:
                hands[seat, card.index] += 1
        stock = np.full(MAX_PILE, -1, np.int8)
        stock[: len(state.stock)] = [card.index for card in state.stock]
        pile = np.full(MAX_PILE, -1, np.int8)
        pile[: len(state.discard_pile)] = [card.index for card in state.discard_pile]
        meld_id = np.full(MAX_MELDS, -1, np.int16)
        meld_seat = np.full((MAX_MELDS, CARD_COLUMNS), -1, np.int8)
        meld_laid = np.zeros((MAX_MELDS, CARD_COLUMNS), bool)
        joker_seat = np.full(MAX_MELDS, -1, np.int8)
        joker_pos = np.full(MAX_MELDS, -1, np.int8)
        for slot, meld in enumerate(state.melds):
            meld_id[slot] = _MELD_ID[meld.mask | sum(card.is_joker for card in meld.cards) << JOKER_INDEX]
            for place, (card, seat, laid) in enumerate(zip(meld.cards, meld.seats, meld.laid_off, strict=True)):
                if card.is_joker and laid:
                    joker_seat[slot], joker_pos[slot] = seat, place
                    meld_laid[slot, JOKER_INDEX] = True
                elif card.is_joker:
                    meld_seat[slot, JOKER_INDEX] = seat
                else:
                    meld_seat[slot, card.index] = seat
                    meld_laid[slot, card.index] = laid
        return {
            "current_player": np.int32(state.current_player),
            "legal_action_mask": np.zeros(NUM_ACTIONS, bool),
            "rewards": np.zeros(4, np.float32),
            "terminated": np.bool_(state.phase is Phase.GAME_OVER),
            "truncated": np.bool_(False),
            "step_count": np.int32(0),
            "hands": hands,
            "stock": stock,
            "stock_size": np.int32(len(state.stock)),
            "pile": pile,
            "pile_size": np.int32(len(state.discard_pile)),
            "meld_id": meld_id,
            "meld_seat": meld_seat,
            "meld_laid": meld_laid,
            "joker_seat": joker_seat,
            "joker_pos": joker_pos,
            "num_melds": np.int32(len(state.melds)),
            "dealer": np.int32(state.dealer),
            "phase": np.int32(_PHASE_NUMBER[state.phase]),
            "must_meld": np.int32(-1 if state.must_meld is None else state.must_meld.index),
            "deal_number": np.int32(state.deal_number),
            "scores": np.array(state.scores, np.int32),
            "table_points": np.array(
                [score.total for score in tally(state.melds, _NO_HANDS, went_out=None, rules=self.rules)], np.int32
            ),
            "passes": np.int32(state.consecutive_passes),
            "idle_turns": np.int32(state.idle_turns),
            "turn_progress": np.bool_(state.turn_progress),
            "went_out": np.int32(-1 if state.went_out is None else state.went_out),
        }

    def to_states(self, state: State) -> list[GameState]:
        """The :class:`~persian_rummy.GameState` of every row of a batch (or of one unbatched
        game), exactly: ``env.to_states(env.from_states(states)) == list(states)``. A game
        ended by an illegal action gives its position before that action.

        >>> from persian_rummy import new_game
        >>> env = Env()
        >>> [game.current_player for game in env.to_states(env.from_states([new_game(2)]))]
        [1]
        """
        if not isinstance(state, State):
            raise ArgumentTypeError(f"to_states takes a State, not {excerpt(state)}")
        lead = check_fields({name: getattr(state, name) for name in _FIELDS}, "to_states", batched=True)
        if len(lead) > 1:
            raise InvalidArgumentError(f"to_states takes one game or a batch (one leading axis), not axes {lead}")
        arrays = {name: np.asarray(getattr(state, name)) for name in _FIELDS}
        if not lead:
            arrays = {name: value[None] for name, value in arrays.items()}
        check_rows(arrays, self.rules.deals)
        # Whole-batch conversions first (each hand's mask in one product), then plain lists.
        counts = arrays["hands"].astype(np.int64)
        masks = ((counts[..., :JOKER_INDEX] > 0).astype(np.int64) @ _MASK_BITS).tolist()
        jokers = counts[..., JOKER_INDEX].tolist()
        lists = {
            name: arrays[name].tolist()
            for name in (
                "stock",
                "stock_size",
                "pile",
                "pile_size",
                "num_melds",
                "meld_id",
                "joker_seat",
                "joker_pos",
                "current_player",
                "dealer",
                "phase",
                "must_meld",
                "deal_number",
                "scores",
                "passes",
                "idle_turns",
                "turn_progress",
                "went_out",
            )
        }
        seats = arrays["meld_seat"]
        laid = arrays["meld_laid"]
        games = []
        for row in range(len(lists["phase"])):
            hands = tuple(make_hand(mask, joker) for mask, joker in zip(masks[row], jokers[row], strict=True))
            try:
                melds = tuple(
                    self._table_meld(
                        lists["meld_id"][row][slot],
                        seats[row, slot],
                        laid[row, slot],
                        lists["joker_seat"][row][slot],
                        lists["joker_pos"][row][slot],
                    )
                    for slot in range(lists["num_melds"][row])
                )
            except InvalidArgumentError as error:  # a meld's cards, seats and lay-offs do not go together
                raise InvalidStateError(f"to_states: row {row}, fields meld_*: {error}") from None
            must = lists["must_meld"][row]
            went_out = lists["went_out"][row]
            game = GameState(
                hands=hands,
                stock=tuple(map(CARDS.__getitem__, lists["stock"][row][: lists["stock_size"][row]])),
                discard_pile=tuple(map(CARDS.__getitem__, lists["pile"][row][: lists["pile_size"][row]])),
                melds=melds,
                current_player=lists["current_player"][row],
                dealer=lists["dealer"][row],
                phase=_PHASES[lists["phase"][row]],
                must_meld=None if must < 0 else CARDS[must],
                deal_number=lists["deal_number"][row],
                scores=(lists["scores"][row][0], lists["scores"][row][1]),
                rules=self.rules,
                consecutive_passes=lists["passes"][row],
                idle_turns=lists["idle_turns"][row],
                turn_progress=lists["turn_progress"][row],
                went_out=None if went_out < 0 else went_out,
            )
            games.append(self._checked(game, row, arrays["table_points"][row].tolist()))
        return games

    def _checked(self, game: GameState, row: int, table_points: list[int]) -> GameState:
        # The scalar validator on a row's position, and the derived table points against it.
        try:
            game.validate()
        except InvalidStateError as error:
            raise InvalidStateError(f"to_states: row {row}: {error}") from None
        want = [score.total for score in tally(game.melds, _NO_HANDS, went_out=None, rules=self.rules)]
        if table_points != want:
            raise InvalidStateError(
                f"to_states: row {row}, field table_points: the melds credit {want} to the teams, not {table_points}"
            )
        return game

    def _table_meld(
        self, number: int, seats_row: npt.NDArray[np.int8], laid_row: npt.NDArray[np.bool_], joker_seat: int, place: int
    ) -> Meld:
        # The Meld of one table slot, cached by what it holds (melds repeat from row to row).
        key = (number, seats_row.tobytes(), laid_row.tobytes(), joker_seat, place)
        found = _MELD_CACHE.get(key)
        if found is not None:
            return found
        jokers = int(MELD_JOKERS[number])
        if jokers:
            seats = [int(seats_row[JOKER_INDEX])] * jokers
            flags = [False] * jokers
            if place >= 0:
                seats[place], flags[place] = joker_seat, True
            meld = Meld([CARDS[JOKER_INDEX]] * jokers, seats, flags)
        else:
            cards = [card for card in range(JOKER_INDEX) if MELD_COUNTS[number, card]]
            meld = Meld(
                [CARDS[card] for card in cards],
                [int(seats_row[card]) for card in cards],
                [bool(laid_row[card]) for card in cards],
            )
        if len(_MELD_CACHE) >= _MELD_CACHE_LIMIT:
            _MELD_CACHE.clear()
        _MELD_CACHE[key] = meld
        return meld


_NO_HANDS: Final = (make_hand(0, 0),) * 4
_MASK_BITS: Final = np.int64(1) << np.arange(JOKER_INDEX, dtype=np.int64)
# Melds by what a table slot holds (bounded; two threads that race build equal melds).
_MELD_CACHE: dict[tuple[int, bytes, bytes, int, int], Meld] = {}
_MELD_CACHE_LIMIT: Final = 65536
_MELD_ID: Final = {
    sum(1 << card for card in range(JOKER_INDEX) if MELD_COUNTS[number, card])
    | int(MELD_JOKERS[number]) << JOKER_INDEX: number
    for number in range(NUM_MELDS)
}
