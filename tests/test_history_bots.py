"""Bots that read the public history (R13, R27): determinize from an InfoState keeps the cards
a seat took from the pile in its hand, the arena hands InfoStates to the bots that ask, and
MonteCarloBot's history knob."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from positions import position

from persian_rummy import (
    Action,
    Card,
    DrawDiscard,
    GameState,
    InfoState,
    InvalidArgumentError,
    PlayerView,
    info_after,
    legal_actions,
    play,
)
from persian_rummy.arena import play_game, run_match
from persian_rummy.bots import GreedyBot, MonteCarloBot, determinize, make_bot
from persian_rummy.strategies import decks, rules


@st.composite
def histories(draw: st.DrawFn) -> tuple[GameState, list[Action]]:
    """A fresh deal and the legal actions played from it (within the deal)."""
    start = GameState.from_deck(draw(decks()), rules=draw(rules(max_deals=1)))
    state = start
    actions: list[Action] = []
    for _ in range(draw(st.integers(0, 200))):
        if not state.phase.is_live:
            break
        options = legal_actions(state)
        # Prefer pile draws, so that there is history to read.
        takes = [action for action in options if isinstance(action, DrawDiscard)]
        action = takes[0] if takes and draw(st.booleans()) else options[draw(st.integers(0, len(options) - 1))]
        after = play(state, action)
        if not after.phase.is_live:
            break
        actions.append(action)
        state = after
    return start, actions


@given(histories(), st.integers(0, 3), st.integers(0, 2**32))
def test_r13_r27_determinize_keeps_the_cards_taken_from_the_pile(
    history: tuple[GameState, list[Action]], seat: int, sample: int
) -> None:
    start, actions = history
    info = info_after(start, actions, seat=seat)
    world = determinize(info, random.Random(sample))
    world.validate()
    assert world.view(seat) == info.view
    # Every card a seat took and has not played since is in its sampled hand.
    held: list[Counter[object]] = [Counter() for _ in range(4)]
    for event in info.history:
        action, hand = event.action, held[event.seat]
        if isinstance(action, DrawDiscard):
            hand.update(event.cards)
            continue
        played = getattr(action, "cards", None) or [getattr(action, "card", None)]
        for card in played:
            if hand[card] > 0:  # a card it took; the others came from its hidden hand
                hand[card] -= 1
    for other in range(4):
        if other != seat:
            assert not held[other] - Counter(world.hands[other]), (other, held[other], world.hands[other])


def test_r27_the_arena_hands_info_states_to_bots_that_ask() -> None:
    seen: list[type] = []

    class Recorder:
        takes_info_state = True

        def __call__(self, info: PlayerView | InfoState) -> Action:
            seen.append(type(info))
            assert isinstance(info, InfoState) and info.view.is_to_move
            return GreedyBot()(info.view)

    play_game([Recorder(), GreedyBot(1), GreedyBot(2), GreedyBot(3)], 5)
    assert seen and set(seen) == {InfoState}


def test_monte_carlo_history_knob() -> None:
    bot = make_bot("mc:samples=2,horizon=2,history=1", 3)
    assert isinstance(bot, MonteCarloBot) and bot.takes_info_state
    assert repr(bot) == "MonteCarloBot(seed=3, samples=2, horizon=2, candidates=3, history=1)"
    assert not MonteCarloBot().takes_info_state and repr(MonteCarloBot()) == (
        "MonteCarloBot(seed=0, samples=4, horizon=4, candidates=3)"
    )
    with pytest.raises(InvalidArgumentError, match="history is 0 or 1"):
        make_bot("mc:history=2")
    result = run_match("mc:samples=2,horizon=2,history=1", "greedy", games=2, seed="history", workers=1)
    assert len(result.games) == 2


def test_r14_r27_determinize_gives_the_taker_a_meld_that_uses_the_cards_it_is_known_to_hold() -> None:
    # South takes the 7s with the Td above it, melds 5s 6s 7s and keeps the Td; later it takes
    # the Jd (and the 2h above it). South then holds one hidden card, so a sampled world must
    # deal it the 9d or the Qd, for a run with the Td: a pair of jacks would not fit (R14).
    state = position(["8c 8d Jd", "2c 9c Kc", "5s 6s Qd", "3h 4h Ks"], "7s Td", top="2h 3c Kh 4c")
    moves = ["draw", "discard 2c", "take 0", "meld 5s 6s 7s", "discard 2c", "draw", "discard Kh", "draw"]
    moves += ["discard Jd", "draw", "discard 2h", "take 2"]
    info = info_after(state, moves, seat=1)
    assert info.view.must_meld == Card.parse("Jd") and info.view.hand_sizes[2] == 4
    for sample in range(40):
        world = determinize(info, random.Random(sample))
        world.validate()
        assert world.view(1) == info.view
        assert {Card.parse("9d"), Card.parse("Qd")} & set(world.hands[2]), sample
