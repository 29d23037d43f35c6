"""Python protocols at the edges of the value types: comparisons and arithmetic with foreign
types, non-text input to the parsers, impossible states caught by ``validate`` (R1, R3,
R20-R21), and ``python -m persian_rummy``. The JSON entry points given the wrong kinds are in
``test_serialization``."""

from __future__ import annotations

import runpy
import sys

import attrs
import pytest

from persian_rummy import (
    Action,
    Card,
    Hand,
    InvalidStateError,
    NotationError,
    Rules,
    new_game,
    play,
)


@pytest.mark.parametrize("other", [3, "4s", None, 4.5])
def test_cards_order_only_against_cards(other: object) -> None:
    card = Card.parse("4s")
    assert card != other
    for compare in (
        lambda: card < other,  # type: ignore[operator]
        lambda: card <= other,  # type: ignore[operator]
        lambda: card > other,  # type: ignore[operator]
        lambda: card >= other,  # type: ignore[operator]
    ):
        with pytest.raises(TypeError):
            compare()


def test_cards_order_by_suit_then_rank_jokers_last() -> None:
    two, ace, joker = Card.parse("2h"), Card.parse("Ah"), Card.parse("Jk")
    assert two < ace <= ace < joker and joker > ace >= two


@pytest.mark.parametrize("other", [Card.parse("4s"), "4s", 1, ("4s",)])
def test_hands_add_and_subtract_only_hands(other: object) -> None:
    hand = Hand("4s 5s")
    with pytest.raises(TypeError):
        hand + other  # type: ignore[operator]
    with pytest.raises(TypeError):
        hand - other  # type: ignore[operator]


@pytest.mark.parametrize("value", [None, 7, ["draw"], b"draw"])
def test_actions_parse_only_text(value: object) -> None:
    with pytest.raises(NotationError, match="expected the text of an action"):
        Action.parse(value)  # type: ignore[arg-type]


def test_action_parse_returns_an_action_unchanged() -> None:
    action = Action.parse("take 2")
    assert Action.parse(action) is action  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"stock": list(new_game(1).stock)}, "stock must be a tuple"),
        ({"discard_pile": ("2s",)}, "Card values only"),
        ({"melds": ("7s 7h 7d",)}, "melds must be Meld values"),
        ({"turn_progress": 1}, "R21: turn_progress"),
        ({"consecutive_passes": 1}, "R20: a player can have passed only with an empty stock"),
        ({"idle_turns": 9}, "R20-R21: idle_turns"),
        ({"scores": (0, "1")}, "R23: scores"),
        ({"rules": "default"}, "rules must be a Rules value"),
    ],
)
def test_r1_r3_r20_r21_validate_catches_impossible_states(change: dict[str, object], message: str) -> None:
    state = attrs.evolve(new_game(1), **change)
    with pytest.raises(InvalidStateError, match=message):
        state.validate()


def test_r20_r21_validate_knows_how_a_round_ends() -> None:
    # A finished round that nobody went out of, with neither the passes nor the idle turns
    # that end a round, cannot occur.
    state = attrs.evolve(new_game(1, rules=Rules(deals=1)), phase=new_game(1).phase.GAME_OVER)
    with pytest.raises(InvalidStateError, match="R18, R20, R21"):
        state.validate()


def test_summary_of_a_state_with_a_bad_seat_still_describes_it() -> None:
    # Error messages describe even states that validate() rejects.
    state = attrs.evolve(new_game(1), current_player=7)
    assert "seat 7 to act" in state.summary()
    with pytest.raises(InvalidStateError, match="R3: current_player"):
        state.validate()


def test_python_dash_m_runs_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["persian_rummy", "simulate", "--seed", "1"])
    with pytest.raises(SystemExit) as exit_info:
        runpy.run_module("persian_rummy", run_name="__main__")
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "North" in out and "deal 1" in out.lower()


def test_illegal_actions_leave_a_state_that_still_plays() -> None:
    state = new_game(1)
    with pytest.raises(ValueError):
        play(state, "discard 4s")
    assert play(state, "draw").phase.name == "MELD"
