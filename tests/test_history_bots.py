"""Bots that read the public history (R13, R27): determinize from an InfoState keeps the cards
a seat took from the pile in its hand, the arena hands InfoStates to the bots that ask, and
MonteCarloBot's history knob."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from persian_rummy import (
    Action,
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
