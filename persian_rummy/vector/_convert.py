"""The exact conversions between the library's :class:`~persian_rummy.GameState` values and a
batch's position arrays (internal): :meth:`Env.from_states <persian_rummy.vector.Env.from_states>`
and :meth:`Env.to_states <persian_rummy.vector.Env.to_states>` read and write through these."""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from persian_rummy._moves import tally
from persian_rummy.cards import CARDS, JOKER_INDEX
from persian_rummy.encoding import MAX_MELDS, MAX_PILE
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, InvalidStateError, excerpt
from persian_rummy.hand import make_hand
from persian_rummy.melds import Meld
from persian_rummy.state import GameState, Phase
from persian_rummy.vector._knobs import Knobs
from persian_rummy.vector._tables import CARD_COLUMNS, MELD_COUNTS, MELD_JOKERS, NUM_MELDS

__all__ = ["games_of", "position_row"]

_PHASES: Final = (Phase.DRAW, Phase.MELD, Phase.ROUND_OVER, Phase.GAME_OVER)
_PHASE_NUMBER: Final = {phase: number for number, phase in enumerate(_PHASES)}


def position_row(k: Knobs, state: object, number: int) -> dict[str, Any]:
    """One GameState as the numpy arrays of a GameArrays, with its key and decks as zeros (the
    caller draws them)."""
    if type(state) is not GameState:
        raise ArgumentTypeError(f"from_states: item {number} is not a GameState but {excerpt(state)}")
    if state.rules != k.rules:
        raise InvalidArgumentError(
            f"from_states: item {number} is played under rules {state.rules}, but this Env plays {k.rules}"
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
            [score.total for score in tally(state.melds, _NO_HANDS, went_out=None, rules=k.rules)], np.int32
        ),
        "passes": np.int32(state.consecutive_passes),
        "idle_turns": np.int32(state.idle_turns),
        "turn_progress": np.bool_(state.turn_progress),
        "went_out": np.int32(-1 if state.went_out is None else state.went_out),
        "key": np.zeros(2, np.uint32),
        "decks": np.zeros((k.deck_slots, 56), np.int8),
    }


def games_of(k: Knobs, arrays: dict[str, npt.NDArray[Any]], *, validate: bool = True) -> list[GameState]:
    """The GameState of every row of checked position arrays (a leading batch axis), each
    (``validate``) through the scalar validator and the table points checked against the
    melds: :class:`~persian_rummy.InvalidStateError` naming the row."""
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
                _table_meld(
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
            rules=k.rules,
            consecutive_passes=lists["passes"][row],
            idle_turns=lists["idle_turns"][row],
            turn_progress=lists["turn_progress"][row],
            went_out=None if went_out < 0 else went_out,
        )
        games.append(_checked(k, game, row, arrays["table_points"][row].tolist()) if validate else game)
    return games


def _checked(k: Knobs, game: GameState, row: int, table_points: list[int]) -> GameState:
    # The scalar validator on a row's position, and the derived table points against it.
    try:
        game.validate()
    except InvalidStateError as error:
        raise InvalidStateError(f"to_states: row {row}: {error}") from None
    want = [score.total for score in tally(game.melds, _NO_HANDS, went_out=None, rules=k.rules)]
    if table_points != want:
        raise InvalidStateError(
            f"to_states: row {row}, field table_points: the melds credit {want} to the teams, not {table_points}"
        )
    return game


def _table_meld(
    number: int, seats_row: npt.NDArray[np.int8], laid_row: npt.NDArray[np.bool_], joker_seat: int, place: int
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
