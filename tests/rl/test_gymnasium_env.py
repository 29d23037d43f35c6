"""The Gymnasium environment passes Gymnasium's own check_env, and plays the game."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from persian_rummy import ArgumentTypeError, IllegalActionError, InvalidArgumentError, NotationError, Rules
from persian_rummy.arena import derived_seed, play_game
from persian_rummy.bots import RandomBot, make_bot
from persian_rummy.encoding import action_to_int
from persian_rummy.gymnasium import ENV_ID, PersianRummyEnv


@pytest.mark.filterwarnings("ignore:.*render fps:UserWarning")
def test_gymnasium_check_env() -> None:
    check_env(gymnasium.make(ENV_ID).unwrapped)
    check_env(gymnasium.make(ENV_ID, opponents="greedy", seat=3, render_mode="ansi").unwrapped)


@pytest.mark.thorough
@pytest.mark.parametrize("rules", [Rules(ace_in_runs="high_or_low", deals=3), Rules(last_card_discard="goes_out")])
def test_gymnasium_check_env_under_other_rules(rules: Rules) -> None:
    for seat in range(4):
        check_env(gymnasium.make(ENV_ID, rules=rules, seat=seat, opponents="mc:samples=1,horizon=1").unwrapped)


def test_make_by_module_path_registers_the_environment() -> None:
    made = gymnasium.make("persian_rummy.gymnasium:persian_rummy/PersianRummy-v0", opponents=["random"] * 3)
    assert isinstance(made.unwrapped, PersianRummyEnv)


def _play(env: PersianRummyEnv, seed: int) -> float:
    _, info = env.reset(seed=seed)
    learner = RandomBot(99)
    total = 0.0
    terminated = False
    while not terminated:
        state = env.episode.state
        assert state.current_player == env.seat and info["action_mask"].any()
        action = learner(state.view(env.seat))
        _, reward, terminated, truncated, info = env.step(action_to_int(action))
        assert not truncated and not info["illegal_action"]
        total += float(reward)
    assert not info["action_mask"].any()
    return total


def test_r23_r26_rewards_add_up_to_the_learner_margin() -> None:
    env = PersianRummyEnv(opponents="greedy", seat=1, reward_scale=1.0)
    total = _play(env, 11)
    final = env.episode.state
    assert total == final.scores[1] - final.scores[0]
    # The same game through the arena: the same deals, the same bots (seeded by the game seed).
    bots = [make_bot("greedy", derived_seed(11, "bot", seat)) for seat in range(4)]
    bots[1] = RandomBot(99)
    arena_final = play_game(bots, 11).final
    assert arena_final.scores == final.scores


def test_illegal_actions_are_penalized_or_raise() -> None:
    env = PersianRummyEnv(illegal_reward=-2.0)
    observation, _ = env.reset(seed=1)
    again, reward, terminated, truncated, info = env.step(57)  # pass, with a full stock (R20)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, False, False, True)
    assert np.array_equal(observation, again)
    strict = PersianRummyEnv(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="cannot play pass"):
        strict.step(57)
    with pytest.raises(InvalidArgumentError, match="not an action index"):
        strict.step(9999)
    # A whole number outside the numbering is one more illegal index; a value that is not a
    # whole number is no action at all, in either mode.
    again, reward, _, _, info = env.step(9999)
    assert (reward, info["illegal_action"]) == (-2.0, True) and np.array_equal(observation, again)
    for game in (env, strict):
        for value in (57.0, 2.5, "0", None):
            with pytest.raises(ArgumentTypeError, match="an action index is a whole number"):
                game.step(value)
    assert strict.step(np.int64(0))[3] is False  # numpy integers are whole numbers: draw (R12)


def test_bad_arguments_raise() -> None:
    with pytest.raises(NotationError, match="not a bot"):
        PersianRummyEnv(opponents="clever")
    with pytest.raises(InvalidArgumentError, match="three opponents"):
        PersianRummyEnv(opponents=["random"])
    with pytest.raises(InvalidArgumentError, match="seat"):
        PersianRummyEnv(seat=4)
    with pytest.raises(ValueError, match="illegal_action"):
        PersianRummyEnv(illegal_action="ignore")
    with pytest.raises(RuntimeError, match="reset"):
        PersianRummyEnv().step(0)


def test_render_ansi_shows_the_learner_view() -> None:
    env = PersianRummyEnv(render_mode="ansi", seat=2)
    env.reset(seed=1)
    text = env.render()
    hand = " ".join(map(str, env.episode.state.hands[2]))
    assert text is not None and f"Your hand: {hand}" in text
