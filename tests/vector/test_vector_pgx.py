"""pgx's protocol, as pgx's documentation writes its loops (not pgx's code, and without pgx):
``jit(vmap(env.init))``, ``jit(vmap(env.step))`` with and without keys, random play until every
game is over, finished games reset, and the state's ``observation``, ``legal_action_mask``,
``rewards``, ``terminated`` and ``truncated``; then where we differ from pgx on purpose (the
illegal-action rewards by team, R3)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from persian_rummy import GameState, Phase, Rules, legal_actions, new_game, next_deal, play
from persian_rummy.cards import CARDS
from persian_rummy.encoding import NUM_ACTIONS, action_to_int
from persian_rummy.observation import OBSERVATION_SHAPE, observation_tensor
from persian_rummy.vector import Env, State, sample_legal, sample_policy

BATCH = 32  # the batch of test_vector.py, so that the programs compiled for it serve here too
ENV = Env()
INIT = jax.jit(jax.vmap(ENV.init))
STEP = jax.jit(jax.vmap(ENV.step))  # pgx's form: no key
DECK = jax.jit(ENV.deck)


def act_randomly(key: jax.Array, mask: jax.Array) -> jax.Array:
    """pgx's documented random policy: categorical over the log of the mask's probabilities."""
    probs = mask / mask.sum(axis=-1, keepdims=True)
    logits = jnp.maximum(jnp.log(probs), jnp.finfo(probs.dtype).min)
    return jax.random.categorical(key, logits=logits, axis=-1)


def test_the_env_answers_pgx_s_attributes() -> None:
    assert (ENV.id, ENV.version, ENV.num_players, ENV.num_actions) == ("persian_rummy", "v1", 4, NUM_ACTIONS)
    assert ENV.observation_shape == OBSERVATION_SHAPE
    state = INIT(jax.random.split(jax.random.PRNGKey(0), BATCH))
    assert state.env_id == ENV.id
    assert state.observation.shape == (BATCH, *ENV.observation_shape) and state.observation.dtype == jnp.float32
    assert state.legal_action_mask.shape == (BATCH, ENV.num_actions)
    assert state.rewards.shape == (BATCH, ENV.num_players) and state._step_count.tolist() == [0] * BATCH
    assert not state.truncated.any() and not state.terminated.any()


@pytest.mark.thorough
def test_pgx_s_random_play_loop_runs_unchanged_to_the_end_of_every_game_r7() -> None:
    """The loop of pgx's "API usage" page: step until every game is terminated or truncated;
    at every step the shapes hold, the rewards of a step sum to 0 by team (R23), a finished
    game's mask is all True and it stays finished with zero rewards, and the observation is
    the mover's (R27)."""
    act = jax.jit(act_randomly)
    key = jax.random.PRNGKey(42)
    key, subkey = jax.random.split(key)
    state = INIT(jax.random.split(subkey, BATCH))
    totals = np.zeros((BATCH, 4), np.float32)
    steps = 0
    while not bool((state.terminated | state.truncated).all()):
        assert steps < 3000, "random games of two deals end long before this (R21 bounds every deal)"
        key, subkey = jax.random.split(key)
        was_over = np.asarray(state.terminated)
        action = act(subkey, state.legal_action_mask)
        state = STEP(state, action)
        rewards = np.asarray(state.rewards)
        assert np.array_equal(rewards[:, 0], rewards[:, 2]) and np.array_equal(rewards[:, 0], -rewards[:, 1])
        assert not rewards[was_over].any()
        assert np.asarray(state.legal_action_mask)[np.asarray(state.terminated)].all()
        totals += rewards
        steps += 1
    games = ENV.to_states(state)
    assert all(game.phase is Phase.GAME_OVER for game in games)
    for row, game in enumerate(games):  # the rewards add up to the final margin (R23)
        margin = (game.scores[0] - game.scores[1]) / ENV.reward_scale
        assert totals[row, 0] == pytest.approx(margin, abs=1e-4)
        assert np.array_equal(np.asarray(state.observation[row]), observation_tensor(game.view(game.current_player)))


def test_without_a_key_a_game_is_reproducible_and_deals_from_its_own_key_r6() -> None:
    """Without a key the next deal comes from the game's own key: the same init keys and
    actions give the same games, and deal 2 is the scalar engine's ``from_deck`` of
    ``deck(fold_in(own, 2))``."""
    finished = new_game(3)
    while finished.phase.is_live:
        finished = play(finished, legal_actions(finished)[-1])
    assert finished.phase is Phase.ROUND_OVER
    key = jax.random.PRNGKey(5)
    batch = ENV.from_states([finished] * BATCH, key=key)
    after = STEP(batch, jnp.zeros(BATCH, jnp.int32))
    again = STEP(ENV.from_states([finished] * BATCH, key=key), jnp.zeros(BATCH, jnp.int32))
    assert all(
        bool((a == b).all())
        for a, b in zip(jax.tree_util.tree_leaves(after), jax.tree_util.tree_leaves(again), strict=True)
    )
    games = ENV.to_states(after)
    for row, own in enumerate(jax.random.split(key, BATCH)):
        deck = np.asarray(DECK(jax.random.fold_in(own, 2)))
        want = GameState.from_deck([CARDS[int(card)] for card in deck], dealer=1, deal_number=2, scores=finished.scores)
        assert games[row] == want
    assert len({str(game) for game in games}) == BATCH  # each row its own deal
    assert next_deal(finished, 1).deal_number == games[0].deal_number


@pytest.mark.thorough
def test_with_keys_the_deal_comes_from_the_step_s_key_and_auto_reset_keeps_games_going() -> None:
    """``step(state, action, key)`` as pgx's optional key, and the auto-reset of finished games
    that pgx's training loops do: a finished row starts again from ``init``."""

    @jax.jit
    def advance(state: State, key: jax.Array) -> State:
        choose, deal, fresh = jax.random.split(key, 3)
        actions = jax.vmap(sample_legal)(jax.random.split(choose, BATCH), state.legal_action_mask)
        state = jax.vmap(ENV.step)(state, actions, jax.random.split(deal, BATCH))
        restarted = jax.vmap(ENV.init)(jax.random.split(fresh, BATCH))
        over = state.terminated
        result: State = jax.tree_util.tree_map(
            lambda new, old: jnp.where(jnp.reshape(over, (-1,) + (1,) * (new.ndim - 1)), new, old), restarted, state
        )
        return result

    key = jax.random.PRNGKey(7)
    state = INIT(jax.random.split(key, BATCH))
    resets = 0
    for number in range(700):
        key, sub = jax.random.split(key)
        before = np.asarray(state._step_count)
        state = advance(state, sub)
        assert not bool(state.terminated.any())
        resets += int((np.asarray(state._step_count) == 0).sum())
        assert np.all((np.asarray(state._step_count) == before + 1) | (np.asarray(state._step_count) == 0))
        if number % 100 == 0:
            assert ENV.to_states(state)  # every row a valid position
    assert resets > 0


def test_an_illegal_action_costs_the_offender_s_team_not_only_the_offender() -> None:
    """Where we differ from pgx on purpose: pgx gives the offender -1 and the others their
    share; in a partnership game the offender's partner shares the blame (R3): its team -1,
    the other team +1. The position is kept; the game is over."""
    state = ENV.from_states([new_game(1)] * BATCH)
    action = jnp.full(BATCH, action_to_int("pass"), jnp.int32)  # a pass with cards in the stock (R20)
    after = STEP(state, action)
    assert after.rewards[0].tolist() == [1.0, -1.0, 1.0, -1.0]  # seat 1 (team 1) moved
    assert bool(after.terminated.all()) and ENV.to_states(after)[0] == new_game(1)
    again = STEP(after, action)  # pgx: a terminated game is returned as it is, with zero rewards
    assert not bool(again.rewards.any()) and again._step_count.tolist() == after._step_count.tolist()


def test_observe_defaults_to_the_mover_and_matches_the_state_s_observation_r27() -> None:
    state = INIT(jax.random.split(jax.random.PRNGKey(3), BATCH))
    one = jax.tree_util.tree_map(lambda leaf: leaf[0], state)
    assert ENV.observe(one) is one.observation
    seat = jax.jit(ENV.observe)(one, one.current_player)
    assert bool((seat == one.observation).all())


def test_the_samplers_draw_only_legal_actions_with_the_right_frequencies() -> None:
    """sample_legal is uniform over the mask and sample_policy follows the softmax of the
    logits over it (chi-square-sized tolerances on 20,000 draws)."""
    mask = jnp.zeros(NUM_ACTIONS, bool).at[jnp.array([0, 31, 32, 700, 1435])].set(True)
    keys = jax.random.split(jax.random.PRNGKey(11), 20_000)
    drawn = np.asarray(jax.jit(jax.vmap(sample_legal, in_axes=(0, None)))(keys, mask))
    values, counts = np.unique(drawn, return_counts=True)
    assert values.tolist() == [0, 31, 32, 700, 1435]
    assert np.all(np.abs(counts - 4000) < 300)
    assert int(jax.jit(sample_legal)(keys[0], jnp.zeros(NUM_ACTIONS, bool))) == 0  # as documented
    logits = jnp.zeros(NUM_ACTIONS).at[700].set(np.log(3.0)).at[5].set(100.0)  # 5 is not legal
    drawn = np.asarray(jax.jit(jax.vmap(sample_policy, in_axes=(0, None, None)))(keys, logits, mask))
    values, counts = np.unique(drawn, return_counts=True)
    assert values.tolist() == [0, 31, 32, 700, 1435]
    want = np.array([1, 1, 1, 3, 1]) / 7 * 20_000
    assert np.all(np.abs(counts - want) < 5 * np.sqrt(want))


def test_a_state_is_pgx_s_pytree() -> None:
    state = INIT(jax.random.split(jax.random.PRNGKey(0), BATCH))
    assert isinstance(state, State)
    assert {"current_player", "observation", "legal_action_mask", "rewards", "terminated", "truncated"} <= set(
        State.__dataclass_fields__
    )
    assert all(name.startswith("_") for name in State.__dataclass_fields__ if name not in pgx_public_fields())
    assert Rules() == ENV.rules


def pgx_public_fields() -> set[str]:
    return {"current_player", "observation", "legal_action_mask", "rewards", "terminated", "truncated"}
