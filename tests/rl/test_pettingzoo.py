"""The PettingZoo environment passes PettingZoo's own conformance tests, and plays the game."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils import wrappers

from persian_rummy import ArgumentTypeError, IllegalActionError, InvalidArgumentError, Rules, legal_actions
from persian_rummy.arena import play_game
from persian_rummy.bots import RandomBot
from persian_rummy.encoding import NUM_ACTIONS, action_to_int
from persian_rummy.pettingzoo import AGENTS, env, raw_env


def test_pettingzoo_api_test() -> None:
    api_test(env(), num_cycles=1000)


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=1000)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: render_test asks for render_mode="human", which was refused.
    render_test(env)
    assert "Deal 1 of 2" in capsys.readouterr().out  # "human" prints the table


def test_api_test_of_the_raw_environment() -> None:
    api_test(raw_env(), num_cycles=1000)


def test_an_illegal_action_through_env_ends_the_game_with_a_penalty_as_in_classic_games(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = env(illegal_reward=-3.0)
    game.reset(seed=1)
    game.step(57)  # pass, with cards in the stock (R20)
    assert "Illegal move" in caplog.text
    assert all(game.terminations.values())
    assert game.rewards == {"player_0": 0, "player_1": -3.0, "player_2": 0, "player_3": 0}
    for _agent in game.agent_iter():
        game.step(None)
    assert not game.agents
    with pytest.raises(AssertionError, match="not in action space"):
        fresh = env()
        fresh.reset(seed=1)
        fresh.step(NUM_ACTIONS)  # PettingZoo's AssertOutOfBoundsWrapper


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"reward_scale": 0}, InvalidArgumentError),
        ({"reward_scale": -1.0}, InvalidArgumentError),
        ({"reward_scale": float("nan")}, InvalidArgumentError),
        ({"reward_scale": float("inf")}, InvalidArgumentError),
        ({"reward_scale": 10**400}, InvalidArgumentError),
        ({"reward_scale": "100"}, ArgumentTypeError),
        ({"reward_scale": True}, ArgumentTypeError),
        ({"max_actions": "x"}, ArgumentTypeError),
        ({"max_actions": 0}, InvalidArgumentError),
        ({"max_actions": 2.5}, ArgumentTypeError),
        ({"max_actions": True}, ArgumentTypeError),
        ({"dealer": 4}, InvalidArgumentError),
        ({"dealer": -1}, InvalidArgumentError),
        ({"dealer": True}, ArgumentTypeError),
        ({"rules": "deals=1"}, ArgumentTypeError),
        ({"render_mode": ["ansi"]}, InvalidArgumentError),
        ({"render_mode": "rgb_array"}, InvalidArgumentError),
    ],
    ids=repr,
)
def test_bad_arguments_are_refused_at_construction(arguments: dict[str, object], error: type) -> None:
    # Regression: reward_scale=0 raised ZeroDivisionError at the end of deal 1, after the deal
    # had advanced; nan gave NaN rewards; max_actions="x" raised after the action was applied.
    for build in (raw_env, env):
        with pytest.raises(error):
            build(**arguments)
    with pytest.raises(InvalidArgumentError):
        env(illegal_reward=float("nan"))


@pytest.mark.parametrize(
    ("seed", "error"),
    [(2**4096, InvalidArgumentError), (1.5, ArgumentTypeError), ("7", ArgumentTypeError), (True, ArgumentTypeError)],
    ids=lambda value: type(value).__name__,
)
def test_a_refused_reset_changes_nothing(seed: object, error: type) -> None:
    # Regression: a refused reset still reseeded, so the next unseeded reset dealt another game.
    game, twin = raw_env(), raw_env()
    for each in (game, twin):
        each.reset(seed=5)
        each.step(0)
    before = game.episode.state
    with pytest.raises(error):
        game.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        game.reset(options=["not", "a", "dict"])  # type: ignore[arg-type]
    assert game.episode.state is before and game.agent_selection == "player_1"
    game.reset()
    twin.reset()
    assert game.episode.state == twin.episode.state


def test_numpy_and_the_longest_seeds_are_accepted_and_play_every_deal() -> None:
    # Regression: reset(seed=np.int64(5)) raised a bare TypeError; reset(seed=10**300) played
    # deal 1, then every step raised.
    game, twin = raw_env(), raw_env()
    game.reset(seed=np.int64(5))
    twin.reset(seed=5)
    assert game.episode.state == twin.episode.state
    for seed in (10**300, -(2**4095), 2**4096 - 1):
        game = env(rules=Rules(deals=2))
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            game.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
        assert game.unwrapped.episode.state.deal_number == 2 and game.unwrapped.episode.is_over


@pytest.mark.parametrize(
    ("agent", "error"), [("player_4", InvalidArgumentError), (0, ArgumentTypeError), ([], ArgumentTypeError)]
)
def test_a_name_that_is_not_an_agents_is_refused(agent: object, error: type) -> None:
    game = raw_env()
    game.reset(seed=1)
    before = game.episode.state
    for method in (game.observe, game.observation_space, game.action_space):
        with pytest.raises(error, match="player_0 to player_3"):
            method(agent)  # type: ignore[arg-type]
    assert game.episode.state is before and game.agent_selection == "player_1"


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
    with pytest.raises(InvalidArgumentError, match="render_mode"):
        raw_env(render_mode="rgb_array")


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


def test_env_keeps_pettingzoos_own_wrappers_checks(caplog: pytest.LogCaptureFixture) -> None:
    # env() is wrapped as PettingZoo's classic games are, in PettingZoo's own wrappers.
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
    for _agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    assert not game.agents
    game.step(None)  # PettingZoo logs a warning, and nothing happens
    assert "step() called after all agents are terminated or truncated" in caplog.text


def test_the_win_bonus_is_paid_to_the_winners_at_the_games_end_r26() -> None:
    """win_bonus: each agent's return is its team's margin plus the bonus for a win, minus it
    for a loss (R26), in the very game played without it."""
    returns = []
    for bonus in (0.0, 3.0):
        game = env(reward_scale=1.0, win_bonus=bonus)
        game.reset(seed=7)
        bots = [RandomBot(seat) for seat in range(4)]
        totals = dict.fromkeys(AGENTS, 0.0)
        for agent in game.agent_iter():
            _, reward, terminated, truncated, _ = game.last()
            totals[agent] += reward
            if terminated or truncated:
                game.step(None)
                continue
            seat = AGENTS.index(agent)
            game.step(action_to_int(bots[seat](game.unwrapped.episode.state.view(seat))))
        returns.append(totals)
    margin = returns[0]["player_0"]
    sign = (margin > 0) - (margin < 0)
    assert sign != 0
    assert returns[1] == {
        name: value + (3.0 * sign if name in ("player_0", "player_2") else -3.0 * sign)
        for name, value in returns[0].items()
    }
