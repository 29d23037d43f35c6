"""The PettingZoo environment passes PettingZoo's own conformance tests, and plays the game."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

from persian_rummy import ArgumentTypeError, IllegalActionError, InvalidArgumentError, Rules, legal_actions
from persian_rummy.arena import play_game
from persian_rummy.bots import RandomBot
from persian_rummy.encoding import action_to_int
from persian_rummy.pettingzoo import AGENTS, env, raw_env


def test_pettingzoo_api_test() -> None:
    api_test(env(), num_cycles=1000)


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=1000)


@pytest.mark.thorough
@pytest.mark.parametrize("rules", [Rules(ace_in_runs="high_or_low", deals=3), Rules(last_card_discard="forbidden")])
def test_pettingzoo_api_test_under_other_rules(rules: Rules) -> None:
    for _ in range(3):
        api_test(env(rules=rules), num_cycles=1000)
    seed_test(lambda: env(rules=rules), num_cycles=1000)


def test_r23_r26_rewards_add_up_to_the_final_margin_and_seed_plays_the_arena_game() -> None:
    game = env(reward_scale=1.0)
    game.reset(seed=7)
    bots = [RandomBot(seat) for seat in range(4)]
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        if terminated or truncated:
            game.step(None)
            continue
        state = game.unwrapped.episode.state
        seat = AGENTS.index(agent)
        action = bots[seat](state.view(seat))
        assert observation["action_mask"][action_to_int(action)] == 1
        assert set(np.flatnonzero(observation["action_mask"])) == {action_to_int(a) for a in legal_actions(state)}
        game.step(action_to_int(action))
    final = play_game([RandomBot(seat) for seat in range(4)], 7).final
    margin = final.scores[0] - final.scores[1]
    assert totals == {"player_0": margin, "player_1": -margin, "player_2": margin, "player_3": -margin}


def test_an_illegal_action_raises_and_render_shows_the_table() -> None:
    game = raw_env(render_mode="ansi")
    game.reset(seed=1)
    with pytest.raises(IllegalActionError, match="cannot play pass"):
        game.step(57)
    with pytest.raises(InvalidArgumentError, match="not an action index"):
        game.step(5000)
    before = game.episode.state
    for value in (0.0, 2.5, "0", -1):
        with pytest.raises((ArgumentTypeError, InvalidArgumentError), match="action index"):
            game.step(value)  # type: ignore[arg-type]
    assert game.episode.state is before and game.agent_selection == "player_1"
    text = game.render()
    assert isinstance(text, str) and "Deal 1 of 2" in text
    svg = raw_env(render_mode="svg")
    svg.reset(seed=1)
    assert str(svg.render()).startswith("<svg")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="human")


def test_max_actions_truncates() -> None:
    game = env(max_actions=5)
    game.reset(seed=3)
    steps = 0
    for _agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            assert truncated and not terminated
            game.step(None)
            continue
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 5


def test_env_keeps_the_order_enforcing_wrappers_checks(caplog: pytest.LogCaptureFixture) -> None:
    # env() goes around the wrapper's attribute forwarding in last() and step(); its checks stay.
    game = env()
    assert isinstance(game, wrappers.OrderEnforcingWrapper)
    with pytest.raises(AttributeError, match="before reset"):
        game.last()
    with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before step"):
        game.step(0)
    with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before observe"):
        game.observe("player_0")
    game.reset(seed=5)
    observation, reward, terminated, truncated, info = game.last()
    assert (reward, terminated, truncated, info) == (0.0, False, False, {})
    assert observation["action_mask"].tolist() == game.unwrapped.observe(game.agent_selection)["action_mask"].tolist()
    assert game.last(observe=False)[0] is None
    with pytest.raises(IllegalActionError):
        game.step(57)  # pass, with cards in the stock (R20)
    for _agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    assert not game.agents
    game.step(None)  # PettingZoo logs a warning, and nothing happens
    assert "step() called after all agents are terminated or truncated" in caplog.text
