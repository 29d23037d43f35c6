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
from persian_rummy.observation import seat_tensor


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


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"reward_scale": 0}, InvalidArgumentError),
        ({"reward_scale": float("nan")}, InvalidArgumentError),
        ({"reward_scale": "1"}, ArgumentTypeError),
        ({"illegal_reward": float("inf")}, InvalidArgumentError),
        ({"illegal_reward": None}, ArgumentTypeError),
        ({"max_actions": "x"}, ArgumentTypeError),
        ({"max_actions": -3}, InvalidArgumentError),
        ({"dealer": 7}, InvalidArgumentError),
        ({"seat": True}, ArgumentTypeError),
        ({"seat": -1}, InvalidArgumentError),
        ({"rules": None}, ArgumentTypeError),
        ({"opponents": 5}, ArgumentTypeError),
        ({"opponents": {"random"}}, ArgumentTypeError),
        ({"opponents": ["random", "random", 7]}, ArgumentTypeError),
        ({"opponents": "mc:samples=" + "9" * 50}, InvalidArgumentError),
        ({"illegal_action": ["raise"]}, InvalidArgumentError),
        ({"render_mode": "rgb_array"}, InvalidArgumentError),
    ],
    ids=repr,
)
def test_bad_arguments_are_refused_at_construction(arguments: dict[str, object], error: type) -> None:
    # Regression: opponents="mc:samples=" and fifty nines made reset() run forever, opponents=5
    # raised a bare TypeError, reward_scale=0 a ZeroDivisionError at the end of a deal.
    with pytest.raises(error):
        PersianRummyEnv(**arguments)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("seed", "error"),
    [(-1, InvalidArgumentError), (2**4096, InvalidArgumentError), (1.5, ArgumentTypeError), ("7", ArgumentTypeError)],
    ids=lambda value: type(value).__name__,
)
def test_a_refused_reset_changes_nothing(seed: object, error: type) -> None:
    env, twin = PersianRummyEnv(), PersianRummyEnv()
    for each in (env, twin):
        each.reset(seed=5)
        each.step(0)
    before = env.episode.state
    with pytest.raises(error):
        env.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        env.reset(options="fast")  # type: ignore[arg-type]
    assert env.episode.state is before
    # The generator was not reseeded: the next unseeded reset deals what the twin's deals.
    assert np.array_equal(env.reset()[0], twin.reset()[0]) and env.episode.state == twin.episode.state


def test_numpy_and_the_longest_seeds_are_accepted_and_play_every_deal() -> None:
    env, twin = PersianRummyEnv(), PersianRummyEnv()
    assert np.array_equal(env.reset(seed=np.int64(5))[0], twin.reset(seed=5)[0])
    for seed in (10**300, 2**4096 - 1):
        env = PersianRummyEnv(rules=Rules(deals=2))
        _, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            assert not truncated
        assert env.episode.state.deal_number == 2


def test_illegal_steps_count_toward_max_actions_so_every_episode_ends() -> None:
    # Regression: with max_actions=5, a thousand illegal steps did not end the episode.
    env = PersianRummyEnv(max_actions=5)
    env.reset(seed=1)
    ends = [env.step(57)[3] for _ in range(5)]  # pass, with a full stock (R20): illegal
    assert ends == [False] * 4 + [True]
    default = PersianRummyEnv(rules=Rules(deals=1))
    default.reset(seed=1)
    steps = 0
    while not default.step(57)[3]:
        steps += 1
    assert steps + 1 == 1400  # one deal's most actions (ACTIONS_PER_DEAL)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_make_vec_after_a_game_ends_is_as_documented(mode: str) -> None:
    from gymnasium.vector import AutoresetMode

    autoreset = AutoresetMode.NEXT_STEP if mode == "next_step" else AutoresetMode.SAME_STEP
    envs = gymnasium.make_vec(ENV_ID, num_envs=2, rules=Rules(deals=1), vector_kwargs={"autoreset_mode": autoreset})
    _, info = envs.reset(seed=3)
    ended = 0
    for _ in range(2000):
        masks = info["action_mask"]
        actions = np.array([np.flatnonzero(row)[0] if row.any() else 0 for row in masks])
        _, _, terminated, truncated, info = envs.step(actions)
        done = terminated | truncated
        if mode == "next_step":
            # The step that ends a game shows an empty mask; the next step (any action) resets.
            assert (info["action_mask"][~done].sum(axis=1) > 0).all()
            assert (info["action_mask"][done].sum(axis=1) == 0).all()
        else:
            assert (info["action_mask"].sum(axis=1) > 0).all()  # always the live game's mask
            if done.any():
                assert "final_obs" in info
        ended += int(done.sum())
        if ended >= 3:
            break
    assert ended >= 3
    envs.close()


def test_partner_self_passes_check_env_and_plays_both_seats_of_the_team_r3() -> None:
    """partner="self": the learner moves for both seats of its team, each from that seat's own
    view (R3, R27), the bots for the other two; Gymnasium's checker accepts it."""
    check_env(gymnasium.make(ENV_ID, partner="self", opponents="greedy", seat=1).unwrapped)
    game = PersianRummyEnv(partner="self", opponents=["random", "greedy"], seat=2)
    assert game.seats == (0, 2)
    observation, info = game.reset(seed=3)
    rng = np.random.default_rng(0)
    seen, total, terminated = set(), 0.0, False
    while not terminated:
        seat = info["seat"]
        assert game.episode.state.current_player == seat and seat in (0, 2)
        state = game.episode.state
        assert np.array_equal(observation, seat_tensor(state, seat))
        seen.add(seat)
        observation, reward, terminated, _, info = game.step(int(rng.choice(info["action_mask"].nonzero()[0])))
        total += float(reward)
    assert seen == {0, 2}
    scores = game.episode.state.scores
    assert total == pytest.approx((scores[0] - scores[1]) / 100)  # the team's margin (seat 2: team 0)
    with pytest.raises(InvalidArgumentError, match="two opponents"):
        PersianRummyEnv(partner="self", opponents=["random"] * 3)
    with pytest.raises(InvalidArgumentError, match="partner must be"):
        PersianRummyEnv(partner="team")


def test_the_win_bonus_is_added_to_the_last_reward_r26() -> None:
    """win_bonus: the learner's return is its team's margin over the scale, plus the bonus
    when the team wins, minus it when it loses (R26)."""
    returns = {}
    for bonus in (0.0, 2.0):
        game = PersianRummyEnv(opponents="greedy", seat=1, win_bonus=bonus)
        _, info = game.reset(seed=5)
        rng = np.random.default_rng(1)
        terminated, total = False, 0.0
        while not terminated:
            _, reward, terminated, _, info = game.step(int(rng.choice(info["action_mask"].nonzero()[0])))
            total += float(reward)
        scores = game.episode.state.scores
        returns[bonus] = (total, (scores[1] > scores[0]) - (scores[1] < scores[0]))
    (plain, outcome), (with_bonus, same) = returns[0.0], returns[2.0]
    assert outcome == same and with_bonus == pytest.approx(plain + 2.0 * outcome)
