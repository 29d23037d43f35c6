"""Observation tensors (persian_rummy.observation): shape, bounds, and no hidden card (R27)."""

from __future__ import annotations

import random

import attrs
import numpy as np
from hypothesis import assume, given, reject
from hypothesis import strategies as st

from persian_rummy import GameState, Hand, InvalidStateError, Phase, new_game, play
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
