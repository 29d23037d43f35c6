"""Observation tensors (persian_rummy.observation): shape, bounds, and no hidden card (R27)."""

from __future__ import annotations

import random

import attrs
import numpy as np
from hypothesis import assume, given, reject
from hypothesis import strategies as st

from persian_rummy import GameState, Hand, InvalidStateError, Phase, PlayerView, new_game, play
from persian_rummy.bots import determinize
from persian_rummy.encoding import NUM_ACTIONS, legal_mask
from persian_rummy.observation import (
    OBSERVATION_HIGH,
    OBSERVATION_LOW,
    OBSERVATION_SHAPE,
    action_mask,
    observation_tensor,
    seat_tensor,
)
from persian_rummy.strategies import game_states, rules


def _in_bounds(tensor: np.ndarray) -> bool:
    return bool(np.all(tensor >= OBSERVATION_LOW) and np.all(tensor <= OBSERVATION_HIGH))


@given(game_states(rules(), finished=True), st.integers(0, 3))
def test_r27_a_tensor_is_a_function_of_the_view(state: GameState, seat: int) -> None:
    view = state.view(seat)
    tensor = observation_tensor(view)
    assert tensor.shape == OBSERVATION_SHAPE and tensor.dtype == np.float32 and _in_bounds(tensor)
    # A state dealt at random behind the same view gives the same view, so the same tensor.
    if view.phase.is_live:
        world = determinize(view, random.Random(0))
        assert world.view(seat) == view
        assert np.array_equal(observation_tensor(world.view(seat)), tensor)
    assert np.array_equal(observation_tensor(type(view).parse(view.position())), tensor)
    assert np.array_equal(seat_tensor(state, seat), tensor)


@given(game_states(rules()), st.integers(0, 3), st.data())
def test_r27_changing_a_hidden_card_never_changes_the_tensor(state: GameState, seat: int, data: st.DataObject) -> None:
    # Swap one card of another seat's hand with a card of a third place the viewer cannot see
    # (another hidden hand or the stock): the viewer's tensor must not change.
    others = [other for other in range(4) if other != seat and len(state.hands[other])]
    assume(others)
    holder = data.draw(st.sampled_from(others))
    card = data.draw(st.sampled_from(sorted(state.hands[holder])))
    assume(card != state.must_meld)
    places = [other for other in range(4) if other not in (seat, holder) and len(state.hands[other])]
    places += ["stock"] if state.stock else []
    assume(places)
    place = data.draw(st.sampled_from(places))
    hands = list(state.hands)
    if place == "stock":
        position = data.draw(st.integers(0, len(state.stock) - 1))
        other_card = state.stock[position]
        stock = list(state.stock)
        stock[position] = card
        changed = attrs.evolve(state, stock=tuple(stock))
    else:
        assert isinstance(place, int)
        other_card = data.draw(st.sampled_from(sorted(state.hands[place])))
        assume(other_card != state.must_meld)
        hands[place] = hands[place] - Hand([other_card]) + Hand([card])
        changed = state
    hands[holder] = hands[holder] - Hand([card]) + Hand([other_card])
    changed = attrs.evolve(changed, hands=tuple(hands))
    # A swap may take from the mover the cards that meld the card it took (R14): then the
    # changed state could not occur, and validate says so; only possible states are compared.
    try:
        changed.validate()
    except InvalidStateError:
        reject()
    assert np.array_equal(observation_tensor(changed.view(seat)), observation_tensor(state.view(seat)))


def test_r13_the_pile_planes_follow_the_take_indices() -> None:
    state = new_game(3)
    for _ in range(12):
        hand = sorted(state.hands[state.current_player])
        state = play(state, "draw" if state.phase is Phase.DRAW else f"discard {hand[0]}")
    view = state.view(0)
    tensor = observation_tensor(view)
    for position, card in enumerate(view.discard_pile):
        assert tensor[23 + position, card.index] == 1.0 and tensor[23 + position].sum() == 1.0
    assert not tensor[23 + len(view.discard_pile) : 79].any()


@given(game_states(rules(), finished=True), st.integers(0, 3))
def test_action_mask_is_the_legal_mask(state: GameState, seat: int) -> None:
    for target in (state, state.view(seat)):
        mask = action_mask(target)
        assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.int8
        assert mask.astype(bool).tolist() == list(legal_mask(target))


def _planes_from_the_table(view: PlayerView) -> np.ndarray:
    # The tensor written out from the module's plane table, one entry at a time: an oracle for
    # the fast assembly from cached bytes.
    expected = np.zeros(OBSERVATION_SHAPE, np.float32)
    seat, team = view.seat, view.seat % 2
    for card in view.hand:
        expected[0, card.index] += 1
    for slot, meld in enumerate(view.melds):
        for card, credited, laid_off in zip(meld.cards, meld.seats, meld.laid_off, strict=True):
            expected[1 + slot, card.index] += 1
            expected[19 if credited % 2 == team else 20, card.index] += 1
            expected[21, card.index] += laid_off
    if view.must_meld is not None:
        expected[22, view.must_meld.index] = 1
    for position, card in enumerate(view.discard_pile):
        expected[23 + position, card.index] = 1
    scalars = expected[79]
    for relative in range(4):
        scalars[relative] = view.hand_sizes[(seat + relative) % 4] / 56
    scalars[4], scalars[5] = view.stock_size / 56, len(view.discard_pile) / 56
    own, other = view.scores[team], view.scores[1 - team]
    scalars[6], scalars[7] = (min(max(score / 1000, -10.0), 10.0) for score in (own, other))
    scalars[{Phase.DRAW: 8, Phase.MELD: 9}.get(view.phase, 10)] = 1
    scalars[11 + (view.current_player - seat) % 4] = 1
    scalars[15 + (view.dealer - seat) % 4] = 1
    scalars[19] = view.deal_number / view.rules.deals
    scalars[20], scalars[21] = min(view.consecutive_passes, 4) / 4, min(view.idle_turns, 8) / 8
    scalars[22] = view.turn_progress
    if view.went_out is not None:
        scalars[23 + (view.went_out - seat) % 4] = 1
    return expected


@given(game_states(rules(), finished=True), st.integers(0, 3))
def test_r27_every_plane_holds_what_the_plane_table_says(state: GameState, seat: int) -> None:
    view = state.view(seat)
    expected = _planes_from_the_table(view)
    for tensor in (observation_tensor(view), seat_tensor(state, seat)):
        assert tensor.flags.writeable and tensor.flags.c_contiguous
        assert tensor.tobytes() == expected.tobytes()  # the same float32 values, bit for bit
