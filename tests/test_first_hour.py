"""What a newcomer meets in the first hour: the words they type, one loop for a whole game,
the meld notation of position strings, and the command line's messages (issue 22)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from persian_rummy import (
    Action,
    ArgumentTypeError,
    DrawDiscard,
    DrawStock,
    GameState,
    LayOff,
    Meld,
    NotationError,
    WrongPhaseError,
    deal_seed,
    legal_actions,
    new_game,
    next_deal,
    play,
    score_round,
)
from persian_rummy.arena import play_game
from persian_rummy.bots import GreedyBot
from tests.playouts import playout

ROOT = Path(__file__).resolve().parent.parent

# --- the spoken forms of actions ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("lay off 9s 0", LayOff("9s", 0)),
        ("lay off 9♠ on #0", LayOff("9s", 0)),
        ("Lay Off 9s on meld 3", LayOff("9s", 3)),
        ("lay off Jk #2", LayOff("Jk", 2)),
        ("lay-off 10h 1", LayOff("Th", 1)),
        ("lay_off Th 1", LayOff("Th", 1)),
        ("layoff 9s on 0", LayOff("9s", 0)),
        ("draw from the stock", DrawStock()),
        ("draw stock", DrawStock()),
        ("Draw From Stock", DrawStock()),
        ("take #3", DrawDiscard(3)),
    ],
)
def test_r16_r12_r13_the_spoken_forms_parse(text: str, action: Action) -> None:
    assert Action.parse(text) == action
    # The canonical form is unchanged, and reads back to the same action.
    assert Action.parse(str(action)) == action
    assert str(Action.parse(text)) == str(action)


@pytest.mark.parametrize(
    "text",
    ["lay 9s 0", "lay off", "lay off 9s", "lay off 9s on", "lay off 9s on on 0", "draw the", "draw from", "take #"],
)
def test_spoken_forms_that_are_still_not_actions(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


def test_r16_play_takes_the_spoken_form_of_a_lay_off() -> None:
    state = GameState.from_position(["9d", "9s 4h", "Qh", "2d"], "2c", melds=["Ts@0 Js@0 Qs@0"])
    after = play(play(state, "draw from the stock"), "lay off 9s on #0")
    assert after.melds[0] == Meld.parse("9s+1 Ts@0 Js@0 Qs@0")


# --- a whole game in one loop ----------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 42, "friday"])
def test_r7_one_loop_plays_the_game_the_library_deals(seed: int | str) -> None:
    # The loop of the tutorial deals as the arena and the command line do (deal_seed).
    bots = [GreedyBot()] * 4
    state = new_game(seed)
    while not state.is_game_over:
        if state.is_deal_over:
            state = next_deal(state, game_seed=seed)
        else:
            state = play(state, bots[state.current_player](state.view(state.current_player)))
    assert state == play_game(bots, seed).final
    assert state.is_deal_over and state.is_over and state.view(0).is_game_over


def test_r7_is_deal_over_and_is_game_over_name_what_they_say() -> None:
    state = new_game(3)
    assert not state.is_deal_over and not state.is_game_over and not state.view(1).is_deal_over
    while not state.is_deal_over:
        state = play(state, legal_actions(state)[0])
    assert state.is_over and not state.is_game_over and state.view(2).is_deal_over
    second = next_deal(state, game_seed=3)
    assert second == next_deal(state, deal_seed(3, 2)) == next_deal(state, "3/2")
    assert score_round(state)  # the finished deal scores


def test_r7_next_deal_takes_exactly_one_seed() -> None:
    state = new_game(3)
    while not state.is_deal_over:
        state = play(state, legal_actions(state)[0])
    with pytest.raises(ArgumentTypeError, match="not neither"):
        next_deal(state)
    with pytest.raises(ArgumentTypeError, match="not both"):
        next_deal(state, 2, game_seed=3)
    with pytest.raises(WrongPhaseError, match="R7"):
        next_deal(new_game(1), game_seed=1)


# --- melds as a position string writes them ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        ("0:TcJcQc", "Tc@0 Jc@0 Qc@0"),
        ("3:3c+04c5c6c", "3c+0 4c@3 5c@3 6c@3"),
        (" 1:7s7h7d7c+2 ", "7s@1 7h@1 7d@1 7c+2"),
        ("2:JkJkJk", "Jk@2 Jk@2 Jk@2"),
    ],
)
def test_r8_r16_meld_parse_reads_the_position_strings_form(text: str, marked: str) -> None:
    assert Meld.parse(text) == Meld.parse(marked)
    position = new_game(1).position().split(" ")
    assert ":" not in position[3]  # (a fresh deal has no melds; the form is _notation's)


def test_r8_meld_parse_round_trips_every_meld_of_a_position_string() -> None:
    for state, _ in playout(5):
        melds = state.position().split(" ")[3]
        if melds != "-":
            for text, meld in zip(melds.split("/"), state.melds, strict=True):
                assert Meld.parse(text) == meld


@pytest.mark.parametrize("text", ["0:Tc Jc Qc", "x:TcJc", "0:TcJx", "TcJcQc", "0:" + "Tc" * 40])
def test_r8_a_meld_that_does_not_parse_says_what_to_write(text: str) -> None:
    with pytest.raises(NotationError, match=re.escape("(Tc@0 Jc@0 Qc@0)") + ".*" + re.escape("(0:TcJcQc")):
        Meld.parse(text)


def test_r16_the_position_form_names_its_seat() -> None:
    with pytest.raises(NotationError, match="melded by seat 1, not seat=0"):
        Meld.parse("1:7s7h7d", seat=0)
    assert Meld.parse("1:7s7h7d", seat=1) == Meld.parse("7s 7h 7d", seat=1)
