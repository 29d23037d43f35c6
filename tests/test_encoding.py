"""The fixed action numbering (persian_rummy.encoding): bounds, round trips and masks."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings

from persian_rummy import (
    DECK,
    Action,
    ArgumentTypeError,
    DrawDiscard,
    GameState,
    IllegalActionError,
    InvalidArgumentError,
    LayOff,
    Meld,
    MeldCards,
    NotationError,
    Rules,
    legal_actions,
    play,
)
from persian_rummy.cards import CARDS
from persian_rummy.encoding import (
    ACTIONS,
    DISCARD_BASE,
    LAY_OFF_BASE,
    MAX_MELDS,
    MAX_PILE,
    MELD_BASE,
    MELDS,
    NUM_ACTIONS,
    PASS_INDEX,
    action_to_int,
    int_to_action,
    legal_flags,
    legal_indices,
    legal_mask,
)
from persian_rummy.strategies import game_states, rules

ACE_LOW = Rules(ace_in_runs="high_or_low")


def test_the_blocks_tile_the_numbering() -> None:
    assert (PASS_INDEX, MELD_BASE, LAY_OFF_BASE, DISCARD_BASE, NUM_ACTIONS) == (57, 58, 429, 1383, 1436)
    assert len(MELDS) == 13 * 5 + 2 + 4 * (66 + 10)


def test_every_index_decodes_to_a_distinct_action_that_encodes_back() -> None:
    actions = [int_to_action(index) for index in range(NUM_ACTIONS)]
    assert len(set(actions)) == NUM_ACTIONS
    assert [action_to_int(action) for action in actions] == list(range(NUM_ACTIONS))
    assert [action_to_int(str(action)) for action in actions] == list(range(NUM_ACTIONS))


def test_r8_r11_every_listed_meld_is_a_valid_meld() -> None:
    # Meld() raises for cards that are not a set, a run or a joker set.
    melds = [Meld(action.cards) for action in MELDS]
    assert [sorted(meld.cards) for meld in melds] == [sorted(action.cards) for action in MELDS]
    kinds = [(meld.kind.value, meld.is_joker_set, meld.ace_low) for meld in melds]
    assert kinds.count(("set", False, False)) == 65 and kinds.count(("set", True, False)) == 2
    assert kinds.count(("run", False, False)) == 4 * 66 and kinds.count(("run", False, True)) == 4 * 10


def test_r8_r11_every_meld_any_hand_can_make_is_numbered() -> None:
    # A hand holding the whole deck (after drawing the last card) can make every meld there is,
    # runs with the ace low included (R10 knob).
    last = CARDS[0]
    hand = list(DECK[1:])
    state = GameState.from_position([hand, "", "", ""], "", stock=[last], dealer=3, rules=ACE_LOW)
    state = play(state, "draw")
    made = {action for action in legal_actions(state) if isinstance(action, MeldCards)}
    assert made == set(MELDS)


def test_r13_r16_bounds_cover_the_largest_pile_and_table() -> None:
    # 18 melds of three take 54 cards: the most melds a table can hold (R8-R11).
    assert MAX_MELDS == 18 and 3 * MAX_MELDS <= len(DECK) < 3 * (MAX_MELDS + 1)
    assert len(DECK) == MAX_PILE
    assert action_to_int(DrawDiscard(MAX_PILE - 1)) == PASS_INDEX - 1
    assert action_to_int(LayOff("Jk", MAX_MELDS - 1)) == DISCARD_BASE - 1
    with pytest.raises(InvalidArgumentError, match="R13"):
        action_to_int(DrawDiscard(MAX_PILE))
    with pytest.raises(InvalidArgumentError, match="R16"):
        action_to_int(LayOff("2s", MAX_MELDS))


def test_bad_indices_and_values_raise_notation_errors() -> None:
    for index in (-1, NUM_ACTIONS, 10**30):
        with pytest.raises(InvalidArgumentError, match="not an action index"):
            int_to_action(index)
    with pytest.raises(ArgumentTypeError, match="whole number"):
        int_to_action("3")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="R8-R11"):
        action_to_int(MeldCards("2s 3s 4h"))
    with pytest.raises(ArgumentTypeError):
        action_to_int(3)
    with pytest.raises(NotationError, match="not an action"):
        action_to_int("jump")  # type: ignore[arg-type]


def test_r12_a_state_checks_legality() -> None:
    from persian_rummy import new_game

    state = new_game(1)
    assert action_to_int("draw", state) == 0 and int_to_action(0, state.view(1)) == Action.parse("draw")
    with pytest.raises(IllegalActionError, match="not a legal action"):
        action_to_int("pass", state)
    with pytest.raises(IllegalActionError, match="not a legal action"):
        int_to_action(0, state.view(0))  # seat 0 is not to move


def _check(state: GameState) -> None:
    actions = legal_actions(state)
    indices = [action_to_int(action) for action in actions]
    assert [int_to_action(index) for index in indices] == list(actions)
    assert len(set(indices)) == len(indices)
    assert legal_indices(state) == sorted(indices)
    assert all(ACTIONS[index] is action for index, action in zip(indices, actions, strict=True))
    mask = legal_mask(state)
    assert len(mask) == NUM_ACTIONS
    assert {index for index, flag in enumerate(mask) if flag} == set(indices)
    flags = legal_flags(state)
    assert type(flags) is bytes and list(flags) == [int(flag) for flag in mask]
    for seat in range(4):
        view = state.view(seat)
        expected = set(indices) if seat == state.current_player and state.phase.is_live else set()
        assert {index for index, flag in enumerate(legal_mask(view)) if flag} == expected
        assert {index for index, flag in enumerate(legal_flags(view)) if flag} == expected
        if expected:
            assert legal_indices(view) == sorted(expected)


@given(game_states(rules()))
def test_r12_r20_round_trip_and_mask_on_reachable_states(state: GameState) -> None:
    _check(state)


@given(game_states(ACE_LOW, finished=True))
def test_r10_round_trip_and_mask_with_the_ace_low(state: GameState) -> None:
    _check(state)


@pytest.mark.thorough
@pytest.mark.no_cover  # the quick test's paths, many times over (docs/testing.rst)
@settings(max_examples=500)
@given(game_states(rules(), max_actions=600, finished=True))
def test_r12_r20_round_trip_and_mask_thorough(state: GameState) -> None:
    _check(state)


def test_actions_that_are_not_the_engines_shared_values_are_numbered_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine lists its shared action values, which the numbering finds by identity; equal
    # actions made afresh must be found by value, so that the answer never rests on sharing.
    import attrs

    import persian_rummy.encoding as encoding
    from persian_rummy import new_game
    from persian_rummy.state import turn_actions

    state = play(new_game(4), "draw")
    expected, flags = legal_indices(state), legal_flags(state)
    copies = tuple(attrs.evolve(action) for action in turn_actions(state))
    assert copies and all(copy is not action for copy, action in zip(copies, turn_actions(state), strict=True))
    monkeypatch.setattr(encoding, "turn_actions", lambda position: copies)
    assert legal_indices(state) == expected and legal_flags(state) == flags


def test_the_core_imports_without_numpy() -> None:
    # The numbering is core: it must import in an interpreter where numpy cannot be found.
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import persian_rummy, persian_rummy.encoding, persian_rummy.bots, persian_rummy.arena\n"
        "assert persian_rummy.encoding.NUM_ACTIONS == 1436\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("value", ["draw", None, 3, [1, 2]])
def test_a_value_that_is_not_a_position_raises_an_argument_type_error(value: object) -> None:
    # legal_actions and every function of the numbering that takes a position share one check.
    from persian_rummy import legal_draws

    for function in (legal_actions, legal_draws, legal_indices, legal_flags, legal_mask):
        with pytest.raises(ArgumentTypeError, match="expected a GameState or a PlayerView"):
            function(value)  # type: ignore[arg-type]
    if value is not None:  # action_to_int(action, None) numbers the action without a position
        with pytest.raises(ArgumentTypeError, match="expected a GameState or a PlayerView"):
            action_to_int("draw", value)  # type: ignore[arg-type]


class _Unhashable(DrawDiscard):
    __hash__ = None  # type: ignore[assignment]


@pytest.mark.parametrize(
    ("function", "value", "error"),
    [
        (int_to_action, 10**5000, InvalidArgumentError),
        (int_to_action, -(10**5000), InvalidArgumentError),
        (int_to_action, True, ArgumentTypeError),
        (int_to_action, [], ArgumentTypeError),
        (int_to_action, 2.0, ArgumentTypeError),
        (action_to_int, [], ArgumentTypeError),
        (action_to_int, {"draw": 1}, ArgumentTypeError),
        (action_to_int, {1}, ArgumentTypeError),
        (action_to_int, 3, ArgumentTypeError),
        (action_to_int, b"draw", ArgumentTypeError),
        (action_to_int, _Unhashable(1), ArgumentTypeError),
        (action_to_int, "x" * 10**5, NotationError),
    ],
    ids=lambda value: type(value).__name__,
)
def test_every_wrong_type_or_value_raises_the_librarys_error(function: object, value: object, error: type) -> None:
    # Regression: a huge index raised a bare ValueError (its digits past Python's limit for
    # str), an unhashable value a bare TypeError; True was the index 1.
    with pytest.raises(error) as raised:
        function(value)  # type: ignore[operator]
    assert len(str(raised.value)) < 300


def test_r27_a_refusal_never_prints_the_cards_of_a_view_or_a_state() -> None:
    from persian_rummy import InfoState, new_game

    state = new_game(1)
    for value in (state, state.view(1), state.hands[1]):
        for function in (action_to_int, int_to_action):
            with pytest.raises(ArgumentTypeError) as raised:
                function(value)  # type: ignore[arg-type]
            message = str(raised.value)
            assert not any(str(card) in message for card in state.hands[1]), message
    # The functions that take a position name a wrong one by its type (it printed the hand).
    for value in (InfoState.start(state, 1), state.hands[1]):
        for function in (legal_flags, legal_mask, legal_indices):
            with pytest.raises(ArgumentTypeError) as raised:
                function(value)  # type: ignore[arg-type]
            assert not any(str(card) in str(raised.value) for card in state.hands[1]), str(raised.value)
