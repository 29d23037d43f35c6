"""Observation tensors (persian_rummy.observation): shape, bounds, and no hidden card (R27)."""

from __future__ import annotations

import random

import attrs
import numpy as np
import pytest
from hypothesis import assume, given, reject
from hypothesis import strategies as st

from persian_rummy import (
    ArgumentTypeError,
    GameState,
    Hand,
    InvalidArgumentError,
    InvalidStateError,
    Meld,
    Phase,
    PlayerView,
    Rules,
    legal_actions,
    new_game,
    play,
)
from persian_rummy.bots import determinize
from persian_rummy.cards import CARDS, JOKER, JOKER_INDEX, Card
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


def test_r13_the_pile_plane_follows_the_take_indices() -> None:
    state = new_game(3)
    for _ in range(12):
        hand = sorted(state.hands[state.current_player])
        state = play(state, "draw" if state.phase is Phase.DRAW else f"discard {hand[0]}")
    view = state.view(0)
    tensor = observation_tensor(view)
    naturals = [card for card in view.discard_pile if not card.is_joker]
    assert len(naturals) > 1
    for position, card in enumerate(view.discard_pile):
        if not card.is_joker:
            assert tensor[25, card.index] == np.float32((position + 1) / 56)  # the card of take position
    assert np.count_nonzero(tensor[25, :52]) == len(naturals)


def test_r13_the_jokers_of_the_pile_are_counted_and_placed_lowest_first() -> None:
    # Random play, until the pile has held two jokers or more; each step's pile is checked.
    rng = random.Random(5)
    seen = 0
    for seed in range(200):
        state = new_game(seed)
        while state.phase.is_live and seen < 20:
            jokers = [position for position, card in enumerate(state.discard_pile) if card.is_joker]
            tensor = seat_tensor(state, seed % 4)
            assert tensor[25, JOKER_INDEX] == len(jokers)
            assert tensor[29, 28:32].tolist() == [np.float32((p + 1) / 56) for p in jokers] + [0.0] * (4 - len(jokers))
            seen += len(jokers) >= 2
            state = play(state, rng.choice(legal_actions(state)))
        if seen >= 20:
            break
    assert seen >= 20


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
            expected[19 + (credited - seat) % 4, card.index] += 1
            expected[23, card.index] += laid_off
    if view.must_meld is not None:
        expected[24, view.must_meld.index] = 1
    jokers = []
    for position, card in enumerate(view.discard_pile):
        if card.is_joker:
            expected[25, JOKER_INDEX] += 1
            jokers.append((position + 1) / 56)
        else:
            expected[25, card.index] = (position + 1) / 56
    if view.revealed_hands is not None:
        for relative in (1, 2, 3):
            for card in view.revealed_hands[(seat + relative) % 4]:
                expected[25 + relative, card.index] += 1
    scalars = expected[29]
    for relative in range(4):
        scalars[relative] = view.hand_sizes[(seat + relative) % 4] / 56
    scalars[4], scalars[5] = view.stock_size / 56, len(view.discard_pile) / 56
    scalars[6], scalars[7] = view.scores[team] / 1000, view.scores[1 - team] / 1000
    scalars[8 + [Phase.DRAW, Phase.MELD, Phase.ROUND_OVER, Phase.GAME_OVER].index(view.phase)] = 1
    scalars[12 + (view.current_player - seat) % 4] = 1
    scalars[16 + (view.dealer - seat) % 4] = 1
    scalars[20] = view.deal_number / view.rules.deals
    scalars[21], scalars[22] = view.consecutive_passes / 4, view.idle_turns / 8
    scalars[23] = view.turn_progress
    if view.went_out is not None:
        scalars[24 + (view.went_out - seat) % 4] = 1
    scalars[28 : 28 + len(jokers)] = jokers
    return expected


def _view_from_tensor(tensor: np.ndarray, seat: int, rules: Rules) -> PlayerView:
    # The inverse of observation_tensor, given what it leaves out (the viewer's seat and the
    # rules, which an environment fixes): the proof that the tensor is lossless.
    def count(value: float, scale: int) -> int:
        found = round(float(value) * scale)
        assert np.float32(found / scale) == value  # exactly the float32 of a count over its scale
        return found

    def cards(plane: np.ndarray) -> list[Card]:
        assert set(plane[:52].tolist()) <= {0.0, 1.0}
        return [CARDS[index] for index in np.flatnonzero(plane[:52])] + [JOKER] * count(plane[52], 1)

    def absolute(relative: int) -> int:
        return (seat + relative) % 4

    def one_hot(columns: np.ndarray) -> int | None:
        found = np.flatnonzero(columns).tolist()
        assert len(found) <= 1 and columns.sum() == len(found)
        return found[0] if found else None

    scalars = tensor[29]
    assert not scalars[32:].any()
    melds = []
    for slot in range(18):
        meld_cards = cards(tensor[1 + slot])
        if not meld_cards:
            assert not tensor[1 + slot : 19].any()  # the melds fill the first slots
            break
        seats, flags = [], []
        for card in meld_cards:
            credited = [relative for relative in range(4) if tensor[19 + relative, card.index]]
            if card.is_joker:  # the only joker meld (R11): originals first, then a lay-off
                counts = {relative: count(tensor[19 + relative, 52], 1) for relative in credited}
                laid = count(tensor[23, 52], 1)
                melder = next(r for r, n in counts.items() if n >= len(meld_cards) - laid)
                layer = next((r for r, n in counts.items() if r != melder), melder)
                originals = len(meld_cards) - laid
                seats = [absolute(melder)] * originals + [absolute(layer)] * laid
                flags = [False] * originals + [True] * laid
                break
            assert len(credited) == 1
            seats.append(absolute(credited[0]))
            flags.append(bool(count(tensor[23, card.index], 1)))
        melds.append(Meld(meld_cards, seats, flags))
    assert sum(len(meld) for meld in melds) == count(tensor[19:23].sum(), 1)
    size = count(scalars[5], 56)
    pile: list[Card | None] = [None] * size
    for index in np.flatnonzero(tensor[25, :52]):
        pile[count(tensor[25, index], 56) - 1] = CARDS[index]
    jokers = count(tensor[25, 52], 1)
    for column in range(28, 28 + jokers):
        pile[count(scalars[column], 56) - 1] = JOKER
    assert not scalars[28 + jokers : 32].any() and None not in pile
    must = one_hot(tensor[24])
    phase = [Phase.DRAW, Phase.MELD, Phase.ROUND_OVER, Phase.GAME_OVER][one_hot(scalars[8:12]) or 0]
    hand = Hand(cards(tensor[0]))
    revealed = None
    if not phase.is_live:
        others = {absolute(relative): Hand(cards(tensor[25 + relative])) for relative in (1, 2, 3)}
        revealed = tuple(hand if other == seat else others[other] for other in range(4))
    else:
        assert not tensor[26:29].any()
    team = seat % 2
    scores = [0, 0]
    scores[team], scores[1 - team] = count(scalars[6], 1000), count(scalars[7], 1000)
    mover, dealer, went_out = one_hot(scalars[12:16]), one_hot(scalars[16:20]), one_hot(scalars[24:28])
    assert mover is not None and dealer is not None
    sizes = [0] * 4
    for relative in range(4):
        sizes[absolute(relative)] = count(scalars[relative], 56)
    return PlayerView(
        seat=seat,
        hand=hand,
        hand_sizes=tuple(sizes),
        stock_size=count(scalars[4], 56),
        discard_pile=tuple(card for card in pile if card is not None),
        melds=tuple(melds),
        current_player=absolute(mover),
        dealer=absolute(dealer),
        phase=phase,
        must_meld=None if must is None else CARDS[must],
        deal_number=count(scalars[20], rules.deals),
        scores=(scores[0], scores[1]),
        rules=rules,
        consecutive_passes=count(scalars[21], 4),
        idle_turns=count(scalars[22], 8),
        turn_progress=bool(count(scalars[23], 1)),
        went_out=None if went_out is None else absolute(went_out),
        revealed_hands=revealed,
    )


@given(game_states(rules(), finished=True), st.integers(0, 3))
def test_r27_the_tensor_is_lossless_the_view_decodes_back_from_it(state: GameState, seat: int) -> None:
    view = state.view(seat)
    decoded = _view_from_tensor(observation_tensor(view), seat, view.rules)
    assert decoded == view
    assert observation_tensor(decoded).tobytes() == observation_tensor(view).tobytes()


def test_the_tensor_is_compact() -> None:
    # Issue 19: at most 1,600 values (the pile as one plane, not 56 one-hot planes).
    assert OBSERVATION_SHAPE == (30, 53) and OBSERVATION_LOW.size == 1590 <= 1600


@given(game_states(rules(), finished=True), st.integers(0, 3))
def test_r27_every_plane_holds_what_the_plane_table_says(state: GameState, seat: int) -> None:
    view = state.view(seat)
    expected = _planes_from_the_table(view)
    for tensor in (observation_tensor(view), seat_tensor(state, seat)):
        assert tensor.flags.writeable and tensor.flags.c_contiguous
        assert tensor.tobytes() == expected.tobytes()  # the same float32 values, bit for bit


@pytest.mark.parametrize(
    ("seat", "error"),
    [
        (-1, InvalidArgumentError),
        (4, InvalidArgumentError),
        (10**5000, InvalidArgumentError),
        (True, ArgumentTypeError),
        (1.0, ArgumentTypeError),
        ("1", ArgumentTypeError),
        (None, ArgumentTypeError),
    ],
    ids=lambda value: type(value).__name__,
)
def test_r3_seat_tensor_refuses_a_seat_that_is_not_0_to_3(seat: object, error: type) -> None:
    # Regression: -1 and True silently gave the tensor of seat 3 and seat 1, 4 a bare IndexError.
    with pytest.raises(error, match="R3"):
        seat_tensor(new_game(1), seat)  # type: ignore[arg-type]
    assert np.array_equal(seat_tensor(new_game(1), np.int64(2)), seat_tensor(new_game(1), 2))


@pytest.mark.parametrize("value", [None, 3, "view", new_game(1)])
def test_observation_tensor_refuses_a_value_that_is_not_a_view(value: object) -> None:
    # Regression: a bare AttributeError from inside.
    with pytest.raises(ArgumentTypeError, match="PlayerView"):
        observation_tensor(value)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="GameState"):
        seat_tensor(new_game(1).view(0) if isinstance(value, GameState) else value, 0)  # type: ignore[arg-type]


def test_a_view_built_by_hand_with_a_field_no_game_has_raises_invalid_state() -> None:
    view = new_game(1).view(0)
    for changes in (
        {"hand_sizes": (7, 7, 7, 99)},
        {"phase": "draw"},
        {"seat": 7},
        {"stock_size": -1},
        {"consecutive_passes": -1},
        {"idle_turns": 9},
    ):
        with pytest.raises(InvalidStateError):
            observation_tensor(attrs.evolve(view, **changes))


def test_tensors_built_step_by_step_through_games_hold_what_the_plane_table_says() -> None:
    # The pile plane is patched, not rebuilt, when the pile grows by a discard: every step of
    # random games (jokers discarded, cards taken, deals ended) against the oracle.
    rng = random.Random(8)
    for seed in range(12):
        state = new_game(seed, rules=Rules(deals=2))
        while True:
            for seat in (state.current_player, (state.current_player + 1) % 4):
                expected = _planes_from_the_table(state.view(seat))
                assert seat_tensor(state, seat).tobytes() == expected.tobytes()
            if not state.phase.is_live:
                break
            state = play(state, rng.choice(legal_actions(state)))


def test_r16_the_table_planes_are_cached_per_melds_tuple_within_their_bound() -> None:
    # The meld and table rows are cached by identity (persian_rummy._cache): an equal table
    # held in another tuple gives the same planes, and no number of tables grows the caches
    # past their bounds.
    from persian_rummy._cache import cache_size
    from persian_rummy.observation import _meld_rows, _table_rows

    state = GameState.from_position(["9h", "", "", ""], [], melds=["2s@0 3s@0 4s@0 5s+1"])
    tensor = seat_tensor(state, 0)
    for _ in range(600):
        copy = attrs.evolve(state, melds=tuple(Meld(meld.cards, meld.seats, meld.laid_off) for meld in state.melds))
        assert copy.melds is not state.melds
        assert seat_tensor(copy, 0).tobytes() == tensor.tobytes()
    assert cache_size(_table_rows) <= 512 and cache_size(_meld_rows) <= 4096


def test_r7_the_deal_column_cache_stays_within_its_bound() -> None:
    # Scalar column 20 (the deal number over the deals) is kept per (deal, deals); games with
    # every deals knob up to the limit do not grow the cache past its bound.
    from persian_rummy.limits import DEALS_LIMIT
    from persian_rummy.observation import _CACHE_LIMIT, _DEALS, _deal

    for deals in range(1, DEALS_LIMIT + 1):
        for number in range(1, deals + 1, max(1, deals // 16)):
            assert _deal(number, deals) == np.float32(number / deals).tobytes()
    assert len(_DEALS) <= _CACHE_LIMIT
