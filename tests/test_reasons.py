"""Every error has a ``reason`` that names no hidden card (R27), and ``play(..., seat=...)``
refuses a seat that is not to move (R6); what a server relays to a table."""

from __future__ import annotations

import pickle
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playouts import RULE_SETS, reachable_states
from test_errors import CASES

from persian_rummy import (
    DECK,
    Action,
    Card,
    Discard,
    DrawDiscard,
    GameState,
    IllegalActionError,
    LayOff,
    MeldCards,
    NotationError,
    NotYourTurnError,
    PersianRummyError,
    ReplayError,
    StateRequiredError,
    is_legal,
    legal_actions,
    new_game,
    observe,
    play,
)
from persian_rummy.errors import REASON_LIMIT

_CARD_TOKEN = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])[shdc♠♥♦♣](?![\w])|\bJk\b", re.IGNORECASE)


def public_cards(state: GameState) -> set[Card]:
    """The cards every seat sees (R27): the discard pile, the table and the card to meld."""
    cards = set(state.discard_pile)
    for meld in state.melds:
        cards.update(meld.cards)
    if state.must_meld is not None:
        cards.add(state.must_meld)
    return cards


def assert_names_no_hidden_card(reason: str, state: GameState) -> None:
    public = public_cards(state)
    for token in _CARD_TOKEN.findall(reason):
        card = Card.parse(token)
        assert card in public, f"{reason!r} names {card}, which is hidden"


@pytest.mark.parametrize(("name", "state", "action", "error", "rule"), CASES, ids=[case[0] for case in CASES])
def test_r27_each_illegal_action_reason_names_the_rule_and_no_hidden_card(
    name: str, state: GameState, action: Action, error: type[IllegalActionError], rule: str
) -> None:
    with pytest.raises(error) as caught:
        play(state, action)
    reason = caught.value.reason
    assert reason.startswith(f"{rule}: ")
    assert state.summary() not in reason and "[" not in reason
    assert_names_no_hidden_card(reason, state)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert copy.reason == reason


def test_r14_the_reason_names_the_public_card_taken() -> None:
    state, action = CASES[15][1], CASES[15][2]  # "discard after a pile draw"
    with pytest.raises(IllegalActionError) as caught:
        play(state, action)
    assert caught.value.reason == "R14: the next action must meld or lay off 7d, taken from the discard pile"


@settings(max_examples=60, deadline=None)
@given(state=reachable_states(live=True), seed=st.integers(0, 2**32 - 1))
def test_r27_no_refused_action_reason_names_a_hidden_card(state: GameState, seed: int) -> None:
    rng = random.Random(seed)
    hand = list(state.hands[state.current_player])
    tries: list[Action] = [Discard(rng.choice(DECK)), DrawDiscard(rng.randrange(56)), LayOff(rng.choice(DECK), 0)]
    if len(hand) >= 3:
        tries.append(MeldCards(rng.sample(hand, 3)))
    if hand:
        tries += [Discard(rng.choice(hand)), LayOff(rng.choice(hand), rng.randrange(max(1, len(state.melds))))]
    legal = legal_actions(state)
    for action in tries:
        if action in legal:
            continue
        with pytest.raises(IllegalActionError) as caught:
            play(state, action)
        assert_names_no_hidden_card(caught.value.reason, state)
        assert len(caught.value.reason) <= REASON_LIMIT + 40


def test_r6_play_refuses_a_seat_not_to_move_before_looking_at_the_action() -> None:
    state = new_game(1)
    assert state.current_player == 1
    for seat in (0, 2, 3):
        with pytest.raises(NotYourTurnError) as caught:
            play(state, "discard As", seat=seat)  # would be a WrongPhaseError for seat 1
        assert caught.value.rule == "R6" and caught.value.state is state
        assert caught.value.reason == f"R6: it is seat 1's turn, not seat {seat}'s"
        assert isinstance(caught.value, IllegalActionError) and isinstance(caught.value, ValueError)
        assert not is_legal(state, "draw", seat=seat)
    assert play(state, "draw", seat=1) == play(state, "draw")
    assert is_legal(state, "draw", seat=1)


@pytest.mark.parametrize("seat", [-1, 4, 10**5000, "1", 1.0, True], ids=["-1", "4", "huge", "text", "float", "bool"])
def test_r3_play_refuses_what_is_not_a_seat(seat: object) -> None:
    with pytest.raises(NotYourTurnError) as caught:
        play(new_game(1), "draw", seat=seat)  # type: ignore[arg-type]
    assert caught.value.rule == "R3" and len(str(caught.value)) < 400


def test_r18_a_finished_round_is_the_phase_error_whoever_sends() -> None:
    state = CASES[6][1]  # "act after going out"
    for seat in range(4):
        with pytest.raises(IllegalActionError) as caught:
            play(state, "draw", seat=seat)
        assert not isinstance(caught.value, NotYourTurnError)


@pytest.mark.parametrize("seed", range(8))
def test_r27_is_legal_answers_a_view_from_what_it_knows(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(seed, rules=RULE_SETS[seed % len(RULE_SETS)])
    for _ in range(60):
        if not state.phase.is_live:
            break
        legal = legal_actions(state)
        candidates = [*legal, Discard(rng.choice(DECK)), DrawDiscard(rng.randrange(8)), MeldCards(rng.sample(DECK, 3))]
        for seat in range(4):
            view = observe(state, seat)
            for action in candidates:
                expected = seat == state.current_player and is_legal(state, action)
                assert is_legal(view, action) is expected
                assert is_legal(view, str(action)) is expected
        state = play(state, rng.choice(legal))


def test_r27_play_on_a_view_is_a_clear_type_error() -> None:
    view = observe(new_game(1), 1)
    with pytest.raises(StateRequiredError) as caught:
        play(view, "draw")  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, PersianRummyError)
    with pytest.raises(StateRequiredError):
        play(None, "draw")  # type: ignore[arg-type]


def test_r1_notation_reasons_do_not_echo_the_text() -> None:
    for text in ("discard 4s 5s", "meld", "take 4s", "fly 4s", "layoff 4s", "discard 4x"):
        with pytest.raises(NotationError) as caught:
            Action.parse(text)
        assert "4s" not in caught.value.reason and "4x" not in caught.value.reason
        assert caught.value.reason in str(caught.value) or caught.value.reason.startswith(("R1:", "the action"))


def test_every_error_has_a_bounded_reason_and_message() -> None:
    with pytest.raises(NotationError) as caught:
        Card.parse("x" * 100_000)
    assert len(str(caught.value)) < 300 and len(caught.value.reason) <= REASON_LIMIT
    error = PersianRummyError("R5: " + "y" * 10_000)
    assert len(str(error)) < 2100 and error.reason == "R5: the request was refused"


def test_replay_error_reason_is_the_place_and_the_cause_reason() -> None:
    with pytest.raises(IllegalActionError) as caught:
        play(play(new_game(1), "draw"), "discard As")
    error = ReplayError(str(caught.value), deal=1, index=1, cause=caught.value)
    assert error.reason == "deal 1, action 1: R17: seat 1 does not hold the card named"
    assert pickle.loads(pickle.dumps(error)).reason == error.reason
