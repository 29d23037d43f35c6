"""Illegal actions: one exception per rule broken, naming the rule, leaving the state as it was
(R12-R20), and the shape of the exception hierarchy."""

from __future__ import annotations

import pickle

import pytest
from positions import position

from persian_rummy import (
    Action,
    ArgumentTypeError,
    CardNotInHandError,
    Discard,
    DrawDiscard,
    DrawStock,
    EmptyStockError,
    GameNotOverError,
    GameState,
    IllegalActionError,
    InfoState,
    InvalidDrawError,
    InvalidLayOffError,
    InvalidMeldError,
    InvalidRulesError,
    InvalidStateError,
    LastCardError,
    LayOff,
    MeldCards,
    NoSuchMeldError,
    NotationError,
    NotYourTurnError,
    Pass,
    PassNotAllowedError,
    PersianRummyError,
    RoundNotOverError,
    Rules,
    TargetNotUsedError,
    WrongPhaseError,
    draw_discard,
    draw_stock,
    is_legal,
    legal_actions,
    new_game,
    pass_turn,
    play,
)

DEFAULT_RULES = Rules()


def meld_phase() -> GameState:
    return draw_stock(position(["2c", "7s 7h 7d 3c 9h", "2d", "2h"], "5d", top="Kd", melds=["4c@3 5c@3 6c@3"]))


def after_pile_draw() -> GameState:
    return draw_discard(position(["2c", "7s 7h 3c 9h Th Jh", "2d", "2h"], "7d", melds=["4c@3 5c@3 6c@3"]), 0)


def forbidden_last_card() -> GameState:
    rules = Rules(last_card_discard="forbidden")
    state = draw_stock(position(["2c", "7s 7h 7d", "2d", "2h"], "3d", top="7c", rules=rules))
    return play(state, "meld 7s 7h 7d")


def round_over() -> GameState:
    state = draw_stock(position(["2c", "7s 7h 7d 8c Tc", "2d", "2h"], "3d", top="9c"))
    return play(play(state, "meld 7s 7h 7d"), "meld 8c 9c Tc")


CASES: list[tuple[str, GameState, Action, type[IllegalActionError], str]] = [
    ("discard before drawing", new_game(1), Discard("Js"), WrongPhaseError, "R12"),
    ("meld before drawing", new_game(1), MeldCards("Jd Qd Kd"), WrongPhaseError, "R12"),
    ("lay off before drawing", new_game(1), LayOff("Js", 0), WrongPhaseError, "R12"),
    ("draw twice", meld_phase(), DrawStock(), WrongPhaseError, "R12"),
    ("take after drawing", meld_phase(), DrawDiscard(0), WrongPhaseError, "R12"),
    ("pass after drawing", meld_phase(), Pass(), WrongPhaseError, "R12"),
    ("act after going out", round_over(), DrawStock(), WrongPhaseError, "R18"),
    ("discard a card not held", meld_phase(), Discard("As"), CardNotInHandError, "R17"),
    ("meld cards not held", meld_phase(), MeldCards("7s 7h 7c"), CardNotInHandError, "R15"),
    ("lay off a card not held", meld_phase(), LayOff("7c", 0), CardNotInHandError, "R16"),
    ("meld a non-meld", meld_phase(), MeldCards("7s 7h 9h"), InvalidMeldError, "R9"),
    ("meld two cards", meld_phase(), MeldCards("7s 7h"), InvalidMeldError, "R8"),
    ("lay off that does not fit", meld_phase(), LayOff("9h", 0), InvalidLayOffError, "R16"),
    ("lay off on no meld", meld_phase(), LayOff("3c", 1), NoSuchMeldError, "R16"),
    ("lay off on a far meld", meld_phase(), LayOff("3c", 17), NoSuchMeldError, "R16"),
    ("discard after a pile draw", after_pile_draw(), Discard("9h"), TargetNotUsedError, "R14"),
    ("meld without the target", after_pile_draw(), MeldCards("9h Th Jh"), TargetNotUsedError, "R14"),
    ("lay off another card after a pile draw", after_pile_draw(), LayOff("3c", 0), TargetNotUsedError, "R14"),
    ("take an unusable card", position(["2c", "5s 6s Kd", "2d", "2h"], "9c"), DrawDiscard(0), InvalidDrawError, "R14"),
    ("take beyond the pile", position(["2c", "5s 6s Kd", "2d", "2h"], "9c"), DrawDiscard(1), InvalidDrawError, "R13"),
    (
        "draw from an empty stock",
        position(["2c", "5s", "2d", "2h"], "9c", rest_to="pile"),
        DrawStock(),
        EmptyStockError,
        "R20",
    ),
    ("pass with a stock", new_game(1), Pass(), PassNotAllowedError, "R20"),
    ("discard the last card when forbidden", forbidden_last_card(), Discard("7c"), LastCardError, "R19"),
    (
        "strand a last card when forbidden",
        draw_stock(
            position(["2c", "7s 7h 7d", "2d", "2h"], "3d", top="9h", rules=Rules(last_card_discard="forbidden"))
        ),
        MeldCards("7s 7h 7d"),
        LastCardError,
        "R19",
    ),
]


@pytest.mark.parametrize(("name", "state", "action", "error", "rule"), CASES, ids=[case[0] for case in CASES])
def test_r12_r20_each_illegal_action_raises_its_error_naming_the_rule_state_unchanged(
    name: str, state: GameState, action: Action, error: type[IllegalActionError], rule: str
) -> None:
    copy = pickle.loads(pickle.dumps(state))
    assert action not in legal_actions(state)
    assert not is_legal(state, action)
    with pytest.raises(error) as caught:
        play(state, action)
    assert type(caught.value) is error
    assert caught.value.rule == rule
    message = str(caught.value)
    assert message.startswith(f"{rule}: ")
    assert state.summary() in message  # the position is in the message
    assert caught.value.state is state
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, PersianRummyError)
    assert state == copy and hash(state) == hash(copy)
    # The text form of the action raises the same.
    with pytest.raises(error):
        play(state, str(action))


def test_every_illegal_action_error_subclass_is_exercised() -> None:
    # NotYourTurnError needs play(..., seat=...): tests/test_reasons.py exercises it.
    exercised = {case[3] for case in CASES} | {NotYourTurnError}
    assert exercised == set(IllegalActionError.__subclasses__())


def test_exception_hierarchy_all_value_errors_under_one_root() -> None:
    for error in (
        NotationError,
        IllegalActionError,
        InvalidStateError,
        InvalidRulesError,
        RoundNotOverError,
        GameNotOverError,
    ):
        assert issubclass(error, PersianRummyError) and issubclass(error, ValueError)
    for error in IllegalActionError.__subclasses__():
        assert issubclass(error, IllegalActionError)


def test_r12_illegal_action_errors_pickle_with_rule_and_action() -> None:
    with pytest.raises(PassNotAllowedError) as caught:
        pass_turn(new_game(1))
    copy = pickle.loads(pickle.dumps(caught.value))
    assert type(copy) is PassNotAllowedError
    assert copy.rule == "R20" and copy.action == Pass() and str(copy) == str(caught.value)


def test_r12_play_rejects_what_is_not_an_action() -> None:
    with pytest.raises(NotationError):
        play(new_game(1), "fly away")
    assert not is_legal(new_game(1), "fly away")


@pytest.mark.parametrize(
    "value",
    [42, 10**5000, 1.5, None, b"draw", ["draw"], {"draw"}, DrawStock],
    ids=["int", "huge int", "float", "None", "bytes", "list", "set", "the class"],
)
def test_r12_a_value_that_is_neither_an_action_nor_text_is_an_argument_type_error(value: object) -> None:
    # play, is_legal (of a state and of a view) and InfoState.update all say what they take,
    # with our own error (a TypeError too), and leave the state as it was.
    state = new_game(1)
    before = state.position()
    calls = {
        "play": lambda: play(state, value),  # type: ignore[arg-type]
        "is_legal": lambda: is_legal(state, value),  # type: ignore[arg-type]
        "is_legal(view)": lambda: is_legal(state.view(1), value),  # type: ignore[arg-type]
        "InfoState.update": lambda: InfoState.start(state, 1).update(value, state),  # type: ignore[arg-type]
    }
    for name, call in calls.items():
        with pytest.raises(ArgumentTypeError, match="expected an Action or its text") as caught:
            call()
        assert isinstance(caught.value, TypeError), name
        assert len(str(caught.value)) < 200, name  # a huge number is described, not printed
    assert state.position() == before
