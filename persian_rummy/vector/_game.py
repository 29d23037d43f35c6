"""The game itself, one game at a time: the deck and the deal (R1, R5-R7), the transitions of
:func:`~persian_rummy.play` for a legal action (R12-R21) and a deal's scores (R22-R25), as pure
functions of a :class:`~._state.Position` (internal)."""

from __future__ import annotations

from functools import partial
from typing import Final

import jax
import jax.numpy as jnp
import numpy as np

from persian_rummy.cards import JOKER_INDEX
from persian_rummy.encoding import DISCARD_BASE, LAY_OFF_BASE, MAX_MELDS, MAX_PILE, MELD_BASE, PASS_INDEX
from persian_rummy.rules import IDLE_LIMIT
from persian_rummy.vector._knobs import Knobs
from persian_rummy.vector._state import DRAW, GAME_OVER, MELD, ROUND_OVER, Position, select
from persian_rummy.vector._tables import CARD_COLUMNS, DECK_CARDS, EXT_NEXT, MELD_COUNTS, NUM_MELDS, POINTS_ARRAY
from persian_rummy.vector._words import I32

__all__ = ["TEAM", "deal", "deck", "game_decks", "own_deck", "play", "score"]

Array = jax.Array
#: Each seat's team (R3).
TEAM: Final = np.array([0, 1, 0, 1], np.int32)
_DECK_SIZE: Final = 56
_HAND_SIZE: Final = 7
_STOCK_START: Final = _DECK_SIZE - 4 * _HAND_SIZE - 1  # 27 (R5)


def deck(key: Array) -> Array:
    """The deck ``key`` deals, in the order of :meth:`GameState.from_deck
    <persian_rummy.GameState.from_deck>` (``int8[56]`` card indices).

    Each card's place is the rank of its random word among the 56 (ties broken by the card's
    place in the deck): a comparison of all pairs, which vectorizes where a sort per game
    does not, counted in ``int8`` (the ranks are below 56) and scattered once to the places.
    """
    words = jax.random.bits(key, (_DECK_SIZE,), jnp.uint32)
    order = jnp.arange(_DECK_SIZE, dtype=jnp.int8)
    before = (words[None, :] < words[:, None]) | (
        (words[None, :] == words[:, None]) & (order[None, :] < order[:, None])
    )
    rank = jnp.sum(before, axis=1, dtype=jnp.int8)
    shuffled: Array = jnp.zeros(_DECK_SIZE, jnp.int8).at[rank].set(jnp.asarray(DECK_CARDS), unique_indices=True)
    return shuffled


def own_deck(key: Array, number: Array) -> Array:
    """The deck of deal ``number`` that :meth:`Env.step <persian_rummy.vector.Env.step>` deals
    without a key: ``deck(fold_in(key, number))``, ``key`` the game's own."""
    return deck(jax.random.fold_in(key, jnp.asarray(number, jnp.uint32)))


def game_decks(key: Array, count: int) -> Array:
    """The decks :func:`own_deck` gives deals 2 to ``count + 1`` of the game of ``key``
    (``int8[count, 56]``), drawn when the game starts."""
    decks: Array = jax.vmap(lambda number: own_deck(key, number))(jnp.arange(2, count + 2, dtype=jnp.uint32))
    return decks


def deal(cards: Array, dealer: Array, deal_number: Array, scores: Array, key: Array, decks: Array) -> Position:
    """The deal of the deck ``cards`` by ``dealer`` (R5-R6): the seat on the dealer's left is
    to draw; ``key`` and ``decks`` are the game's own, carried on."""
    # Card i goes to the seat i places after the dealer's left (R5): a [7, 4, 53] sum by
    # that seat, then each seat's row found by its place after the dealer's left.
    dealt = cards[: 4 * _HAND_SIZE, None] == jnp.arange(CARD_COLUMNS, dtype=jnp.int8)[None, :]  # [28, 53]
    by_place = jnp.sum(dealt.reshape(_HAND_SIZE, 4, CARD_COLUMNS), axis=0, dtype=jnp.int8)
    hands = by_place[(jnp.arange(4) - dealer - 1) % 4]
    pile = jnp.full(MAX_PILE, -1, jnp.int8).at[0].set(cards[4 * _HAND_SIZE])
    # The stock bottom to top is the deck's end, reversed: its last card is drawn first.
    stock = jnp.concatenate([cards[::-1][:_STOCK_START], jnp.full(_DECK_SIZE - _STOCK_START, -1, jnp.int8)])
    return Position(
        current_player=((dealer + 1) % 4).astype(I32),
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
        dealer=jnp.asarray(dealer, I32),
        phase=jnp.int32(DRAW),
        must_meld=jnp.int32(-1),
        deal_number=jnp.asarray(deal_number, I32),
        scores=jnp.asarray(scores, I32),
        passes=jnp.int32(0),
        idle_turns=jnp.int32(0),
        turn_progress=jnp.bool_(False),
        went_out=jnp.int32(-1),
        table_points=jnp.zeros(2, I32),
        key=key,
        decks=decks,
    )


def end_round(k: Knobs, x: Position, went_out: Array, passes: Array, idle: Array) -> Position:
    # The round ends (R18, R20, R21); its scores are added once, in step (score).
    return x.replace(
        phase=jnp.where(x.deal_number >= k.rules.deals, GAME_OVER, ROUND_OVER).astype(I32),
        must_meld=jnp.int32(-1),
        passes=passes,
        idle_turns=idle,
        turn_progress=jnp.where(went_out >= 0, True, x.turn_progress),
        went_out=went_out,
    )


def score(k: Knobs, x: Position) -> Array:
    """The deal's scores of a finished round, the going-out bonus included (R22-R25)."""
    points = jnp.asarray(POINTS_ARRAY)
    in_hand = x.hands.astype(I32) @ points
    deal = x.table_points - jnp.stack([in_hand[0] + in_hand[2], in_hand[1] + in_hand[3]])
    out_team = jnp.asarray(TEAM)[jnp.clip(x.went_out, 0)]
    return deal + jnp.where((jnp.arange(2) == out_team) & (x.went_out >= 0), k.rules.going_out_bonus, 0)


def next_turn(k: Knobs, x: Position, passed: Array) -> Position:
    passes = jnp.where(passed, x.passes + 1, 0)
    idle = jnp.where(x.turn_progress, 0, x.idle_turns + 1)
    ends = (passed & (passes >= k.rules.pass_limit)) | (idle >= IDLE_LIMIT)
    ended = end_round(k, x, jnp.int32(-1), passes, idle)
    going = x.replace(
        current_player=(x.current_player + 1) % 4,
        phase=jnp.int32(DRAW),
        must_meld=jnp.int32(-1),
        passes=passes,
        idle_turns=idle,
        turn_progress=jnp.bool_(False),
    )
    return select(ends, ended, going)


def after_table_change(k: Knobs, x: Position) -> Position:
    seat = x.current_player
    empty = x.hands[seat].sum() == 0
    ended = end_round(k, x, seat, x.passes, jnp.int32(0))
    going = x.replace(phase=jnp.int32(MELD), must_meld=jnp.int32(-1), turn_progress=jnp.bool_(True))
    return select(empty, ended, going)


def draw_stock(k: Knobs, x: Position, action: Array) -> Position:
    card = x.stock[jnp.clip(x.stock_size - 1, 0)].astype(I32)
    return x.replace(
        hands=x.hands.at[x.current_player, card].add(1),
        stock=x.stock.at[jnp.clip(x.stock_size - 1, 0)].set(-1),
        stock_size=x.stock_size - 1,
        phase=jnp.int32(MELD),
        must_meld=jnp.int32(-1),
        turn_progress=jnp.bool_(True),
    )


def draw_discard(k: Knobs, x: Position, action: Array) -> Position:
    index = action - 1
    order = jnp.arange(MAX_PILE)
    taken = (order >= index) & (order < x.pile_size)
    pile = x.pile.astype(I32)
    added = jnp.zeros(CARD_COLUMNS, jnp.int8).at[jnp.where(taken, pile, CARD_COLUMNS)].add(1, mode="drop")
    free = (index == x.pile_size - 1) & (not k.rules.top_card_must_meld)
    target = pile[jnp.clip(index, 0, MAX_PILE - 1)]
    return x.replace(
        hands=x.hands.at[x.current_player].add(added),
        pile=jnp.where(taken, -1, x.pile).astype(jnp.int8),
        pile_size=index,
        phase=jnp.int32(MELD),
        must_meld=jnp.where(free, -1, target).astype(I32),
    )


def pass_turn(k: Knobs, x: Position, action: Array) -> Position:
    return next_turn(k, x, jnp.bool_(True))


def meld(k: Knobs, x: Position, action: Array) -> Position:
    number = action - MELD_BASE
    counts = jnp.asarray(MELD_COUNTS)[number]
    seat = x.current_player
    slot = x.num_melds
    return after_table_change(
        k,
        x.replace(
            hands=x.hands.at[seat].add(-counts),
            meld_id=x.meld_id.at[slot].set(number.astype(jnp.int16), mode="drop"),
            meld_seat=x.meld_seat.at[slot].set(jnp.where(counts > 0, seat, -1).astype(jnp.int8), mode="drop"),
            num_melds=slot + 1,
            table_points=x.table_points.at[seat % 2].add(jnp.asarray(k.meld_value)[number]),
        ),
    )


def lay_off(k: Knobs, x: Position, action: Array) -> Position:
    card, slot = jnp.divmod(action - LAY_OFF_BASE, MAX_MELDS)
    seat = x.current_player
    number = jnp.where(x.meld_id[slot] < 0, NUM_MELDS, x.meld_id[slot]).astype(I32)
    grown = jnp.asarray(EXT_NEXT)[number, card]
    joker = card == JOKER_INDEX
    return after_table_change(
        k,
        x.replace(
            hands=x.hands.at[seat, card].add(-1),
            meld_id=x.meld_id.at[slot].set(grown),
            meld_seat=x.meld_seat.at[slot, card].set(jnp.where(joker, x.meld_seat[slot, card], seat).astype(jnp.int8)),
            meld_laid=x.meld_laid.at[slot, card].set(True),
            table_points=x.table_points.at[seat % 2].add(jnp.asarray(POINTS_ARRAY)[card]),
            joker_seat=x.joker_seat.at[slot].set(jnp.where(joker, seat, x.joker_seat[slot]).astype(jnp.int8)),
            joker_pos=x.joker_pos.at[slot].set(jnp.where(joker, 3, x.joker_pos[slot]).astype(jnp.int8)),
        ),
    )


def discard(k: Knobs, x: Position, action: Array) -> Position:
    card = action - DISCARD_BASE
    seat = x.current_player
    hands = x.hands.at[seat, card].add(-1)
    after = x.replace(
        hands=hands,
        pile=x.pile.at[x.pile_size].set(card.astype(jnp.int8), mode="drop"),
        pile_size=x.pile_size + 1,
    )
    turn = next_turn(k, after, jnp.bool_(False))
    if k.rules.last_card_discard != "goes_out":
        return turn
    out = end_round(k, after, seat, jnp.int32(0), jnp.int32(0))
    empty = hands[seat].sum() == 0
    return select(empty, out, turn)


def play(k: Knobs, x: Position, action: Array) -> Position:
    # The scalar play() of a legal action, for a live position.
    kind = (
        (action >= 1).astype(I32)
        + (action >= PASS_INDEX)
        + (action >= MELD_BASE)
        + (action >= LAY_OFF_BASE)
        + (action >= DISCARD_BASE)
    )
    branches = [draw_stock, draw_discard, pass_turn, meld, lay_off, discard]
    played: Position = jax.lax.switch(kind, [partial(branch, k) for branch in branches], x, action)
    return played
