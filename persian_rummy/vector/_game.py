"""The game itself, one game at a time: the deck and the deal (R1, R5-R7), the transitions of
:func:`~persian_rummy.play` for a legal action (R12-R21) and a deal's scores (R22-R25), as pure
functions of a :class:`~._state.GameArrays` (internal)."""

from __future__ import annotations

from typing import Final

import jax
import jax.numpy as jnp
import numpy as np

from persian_rummy.cards import JOKER_INDEX
from persian_rummy.encoding import DISCARD_BASE, LAY_OFF_BASE, MAX_MELDS, MAX_PILE, MELD_BASE, PASS_INDEX
from persian_rummy.rules import IDLE_LIMIT
from persian_rummy.vector._knobs import Knobs
from persian_rummy.vector._state import DRAW, GAME_OVER, MELD, ROUND_OVER, GameArrays, select
from persian_rummy.vector._tables import CARD_COLUMNS, DECK_CARDS, EXTENSION_NEXT, MELD_COUNTS, NUM_MELDS, POINTS_ARRAY
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


def deal(cards: Array, dealer: Array, deal_number: Array, scores: Array, key: Array, decks: Array) -> GameArrays:
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
    return GameArrays(
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


def end_round(k: Knobs, x: GameArrays, went_out: Array, passes: Array, idle: Array) -> GameArrays:
    # The round ends (R18, R20, R21); its scores are added once, in step (score).
    return x.replace(
        phase=jnp.where(x.deal_number >= k.rules.deals, GAME_OVER, ROUND_OVER).astype(I32),
        must_meld=jnp.int32(-1),
        passes=passes,
        idle_turns=idle,
        turn_progress=jnp.where(went_out >= 0, True, x.turn_progress),
        went_out=went_out,
    )


def score(k: Knobs, x: GameArrays) -> Array:
    """The deal's scores of a finished round, the going-out bonus included (R22-R25)."""
    points = jnp.asarray(POINTS_ARRAY)
    in_hand = x.hands.astype(I32) @ points
    deal = x.table_points - jnp.stack([in_hand[0] + in_hand[2], in_hand[1] + in_hand[3]])
    out_team = jnp.asarray(TEAM)[jnp.clip(x.went_out, 0)]
    return deal + jnp.where((jnp.arange(2) == out_team) & (x.went_out >= 0), k.rules.going_out_bonus, 0)


def next_turn(k: Knobs, x: GameArrays, passed: Array) -> GameArrays:
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


def after_table_change(k: Knobs, x: GameArrays) -> GameArrays:
    seat = x.current_player
    empty = x.hands[seat].sum() == 0
    ended = end_round(k, x, seat, x.passes, jnp.int32(0))
    going = x.replace(phase=jnp.int32(MELD), must_meld=jnp.int32(-1), turn_progress=jnp.bool_(True))
    return select(empty, ended, going)


def play(k: Knobs, x: GameArrays, action: Array) -> GameArrays:
    """The scalar :func:`~persian_rummy.play` of a legal action, for a live position.

    A batched step computes every kind of action in every row, so each array of the position
    is written once, by the one update that the action's kind makes of it (a slot out of
    range, dropped, for the kinds that leave it as it is): selecting among six whole
    positions, one for each kind, read and wrote kilobytes a row that a large batch keeps
    in memory, not in the caches. The turn's end is then chosen among the kinds' scalars."""
    kind = (
        (action >= 1).astype(I32)
        + (action >= PASS_INDEX)
        + (action >= MELD_BASE)
        + (action >= LAY_OFF_BASE)
        + (action >= DISCARD_BASE)
    )
    from_stock, from_pile, melds, lays_off, discards = (kind == which for which in (0, 1, 3, 4, 5))
    seat = x.current_player
    columns = jnp.arange(CARD_COLUMNS)
    # The stock's top card (R12); the pile's cards from the index taken to the top (R13).
    top = jnp.clip(x.stock_size - 1, 0)
    index = action - 1
    order = jnp.arange(MAX_PILE)
    taken = from_pile & (order >= index) & (order < x.pile_size)
    pile = x.pile.astype(I32)
    from_pile_counts = jnp.zeros(CARD_COLUMNS, jnp.int8).at[jnp.where(taken, pile, CARD_COLUMNS)].add(1, mode="drop")
    # The meld laid down (R8-R11, R15), the card laid off and its meld (R16), the discard (R17).
    number = jnp.clip(action - MELD_BASE, 0, NUM_MELDS - 1)
    counts = jnp.asarray(MELD_COUNTS)[number]
    lay_card, lay_slot = jnp.divmod(jnp.clip(action - LAY_OFF_BASE, 0, MAX_MELDS * CARD_COLUMNS - 1), MAX_MELDS)
    card = jnp.where(from_stock, x.stock[top].astype(I32), jnp.where(lays_off, lay_card, action - DISCARD_BASE))
    one = (columns == card).astype(jnp.int8)
    change = jnp.where(
        from_stock, one, jnp.where(lays_off | discards, -one, jnp.where(melds, -counts, from_pile_counts))
    )
    slot = jnp.where(melds, x.num_melds, jnp.where(lays_off, lay_slot, MAX_MELDS))
    lay_meld = jnp.where(x.meld_id[lay_slot] < 0, NUM_MELDS, x.meld_id[lay_slot]).astype(I32)
    joker = lays_off & (lay_card == JOKER_INDEX)
    laid_row = jnp.where((columns == lay_card) & ~joker, seat, x.meld_seat[lay_slot]).astype(jnp.int8)
    gained = jnp.where(
        melds, jnp.asarray(k.meld_value)[number], jnp.where(lays_off, jnp.asarray(POINTS_ARRAY)[lay_card], 0)
    )
    after = x.replace(
        hands=x.hands.at[seat].add(change),
        stock=x.stock.at[jnp.where(from_stock, top, MAX_PILE)].set(-1, mode="drop"),
        stock_size=x.stock_size - from_stock,
        pile=jnp.where(taken, -1, x.pile)
        .at[jnp.where(discards, x.pile_size, MAX_PILE)]
        .set(card.astype(jnp.int8), mode="drop"),
        pile_size=jnp.where(from_pile, index, x.pile_size + discards),
        meld_id=x.meld_id.at[slot].set(
            jnp.where(melds, number, jnp.asarray(EXTENSION_NEXT)[lay_meld, lay_card]).astype(jnp.int16), mode="drop"
        ),
        meld_seat=x.meld_seat.at[slot].set(
            jnp.where(melds, jnp.where(counts > 0, seat, -1).astype(jnp.int8), laid_row), mode="drop"
        ),
        meld_laid=x.meld_laid.at[jnp.where(lays_off, lay_slot, MAX_MELDS), lay_card].set(True, mode="drop"),
        joker_seat=x.joker_seat.at[jnp.where(joker, lay_slot, MAX_MELDS)].set(seat.astype(jnp.int8), mode="drop"),
        joker_pos=x.joker_pos.at[jnp.where(joker, lay_slot, MAX_MELDS)].set(jnp.int8(3), mode="drop"),
        num_melds=x.num_melds + melds,
        table_points=x.table_points.at[seat % 2].add(gained),
    )
    drawn = after.replace(phase=jnp.int32(MELD), must_meld=jnp.int32(-1), turn_progress=jnp.bool_(True))
    free = (index == x.pile_size - 1) & (not k.rules.top_card_must_meld)
    picked = after.replace(phase=jnp.int32(MELD), must_meld=jnp.where(free, -1, pile[jnp.clip(index, 0, MAX_PILE - 1)]))
    tabled = after_table_change(k, after)
    ends = [drawn, picked, next_turn(k, after, jnp.bool_(True)), tabled, tabled, _discarded(k, after, seat)]
    played: GameArrays = jax.tree_util.tree_map(lambda *cases: _choose(kind, cases), *ends)
    return played


def _choose(kind: Array, cases: tuple[Array, ...]) -> Array:
    # One field of the position by the action's kind: most are the same array in every case.
    if all(case is cases[0] for case in cases):
        return cases[0]
    return jax.lax.select_n(kind, *cases)


def _discarded(k: Knobs, after: GameArrays, seat: Array) -> GameArrays:
    # After a discard (R17): the next turn, or the round's end if the hand is empty and the
    # rules let a last card be discarded to go out (R18-R19).
    turn = next_turn(k, after, jnp.bool_(False))
    if k.rules.last_card_discard != "goes_out":
        return turn
    out = end_round(k, after, seat, jnp.int32(0), jnp.int32(0))
    return select(after.hands[seat].sum() == 0, out, turn)
