"""Whole batched games on the device: masked random self-play, then a small masked
policy-gradient learner in JAX that improves against random play (needs ``[jax]``).

    python examples/vector_selfplay.py [ITERATIONS] [BATCH]

Part 1 plays ``BATCH`` one-deal games at once with a random policy over the legal actions
(``legal_action_mask``), ``jit(vmap(step))`` inside a ``lax.scan``, and prints how long they
lasted and how they ended. Part 2 trains the North-South team (seats 0 and 2) against random
East-West players with REINFORCE: a softmax over the legal actions of linear scores (one weight
per action, plus one per action and card of the mover's hand, read from plane 0 of
the state's ``observation``), the return being the team's final margin in hundreds of points, minus the
batch's mean. It prints the mean margin of the untrained (uniform) policy and of the trained
one, on the same evaluation deals (the same keys).
"""

import sys
import time

import jax
import jax.numpy as jnp

from persian_rummy import Rules
from persian_rummy.encoding import NUM_ACTIONS
from persian_rummy.vector import Env

iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 40
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 128
horizon = 320  # steps of a one-deal game of random play: about 100 to 300 (R21 bounds them all)
env = Env(Rules(deals=1))


def sample(key, probabilities):
    """An action drawn from ``probabilities`` (one random number: the inverse of the cumulative
    distribution, cheaper than noise over all 1436 actions)."""
    cumulative = jax.lax.associative_scan(jnp.add, probabilities)  # a cumsum, fast on CPU too
    return jnp.argmax(cumulative > jax.random.uniform(key) * cumulative[-1])


def random_action(key, mask):
    return sample(key, mask.astype(jnp.float32))


@jax.jit
def self_play(key):
    """``batch`` whole games of masked random play: the steps each took, and how each ended."""
    keys = jax.random.split(key, batch)
    state = jax.vmap(env.init)(keys)

    def one(carry, key):
        state, steps, margin = carry
        choose, deal = jax.random.split(key)
        actions = jax.vmap(random_action)(jax.random.split(choose, batch), state.legal_action_mask)
        steps = steps + ~state.terminated
        state = jax.vmap(env.step)(state, actions, jax.random.split(deal, batch))
        return (state, steps, margin + state.rewards[:, 0] * env.reward_scale), None

    zeros = jnp.zeros(batch, jnp.int32)
    (state, steps, margin), _ = jax.lax.scan(one, (state, zeros, zeros * 1.0), jax.random.split(key, horizon))
    return steps, state.terminated, margin


start = time.perf_counter()
steps, finished, margins = jax.block_until_ready(self_play(jax.random.PRNGKey(0)))
print(
    f"self-play: {batch} games, {int(finished.sum())} finished within {horizon} steps, "
    f"{int(steps.mean())} steps on average, mean margin North-South {float(margins.mean()):+.1f} "
    f"({time.perf_counter() - start:.1f} s, compilation included)"
)


def scores_of(params, observation):
    bias, weights = params
    return bias + weights @ observation[0]  # plane 0: the mover's hand, one column per card


def rollout(params, key, learner_plays):
    """Games of the learner (seats 0 and 2; random if not ``learner_plays``) against random
    players: the observations, masks and actions of the learner's steps, and each game's
    return for North-South (its margin over 100)."""
    keys = jax.random.split(key, batch)
    state = jax.vmap(env.init)(keys)

    def one(carry, key):
        state, total = carry
        choose, deal = jax.random.split(key)
        observation = state.observation  # the mover's, as pgx keeps it
        scores = jax.vmap(scores_of, in_axes=(None, 0))(params, observation)
        probabilities = jax.nn.softmax(jnp.where(state.legal_action_mask, scores, -jnp.inf), axis=1)
        choices = jax.random.split(choose, batch)
        learned = jax.vmap(sample)(choices, probabilities)
        uniform = jax.vmap(random_action)(choices, state.legal_action_mask)
        mine = (state.current_player % 2 == 0) & ~state.terminated & learner_plays
        actions = jnp.where(mine, learned, uniform)
        record = (observation[:, 0], state.legal_action_mask, actions, mine)
        state = jax.vmap(env.step)(state, actions, jax.random.split(deal, batch))
        return (state, total + state.rewards[:, 0]), record

    (state, total), records = jax.lax.scan(one, (state, jnp.zeros(batch)), jax.random.split(key, horizon))
    return records, total


def loss(params, records, advantage):
    hands, masks, actions, mine = records
    bias, weights = params
    scores = bias + jnp.einsum("ac,tbc->tba", weights, hands)
    scores = jnp.where(masks, scores, -jnp.inf)
    chosen = jnp.take_along_axis(jax.nn.log_softmax(scores), actions[..., None], axis=-1)[..., 0]
    return -jnp.mean(jnp.sum(jnp.where(mine, chosen, 0.0), axis=0) * advantage)


@jax.jit
def train_step(params, key, rate):
    records, total = rollout(params, key, True)
    gradient = jax.grad(loss)(params, records, total - total.mean())
    return jax.tree_util.tree_map(lambda p, g: p - rate * g, params, gradient), total.mean()


evaluate = jax.jit(lambda params, key, learner: rollout(params, key, learner)[1].mean())

params = (jnp.zeros(NUM_ACTIONS), jnp.zeros((NUM_ACTIONS, 53)))
evaluation_key = jax.random.PRNGKey(10_000)
start = time.perf_counter()
before = float(evaluate(params, evaluation_key, True))  # all weights 0: uniform over the legal actions
key = jax.random.PRNGKey(1)
for _ in range(iterations):
    key, sub = jax.random.split(key)
    params, _ = train_step(params, sub, 0.05)
after = float(evaluate(params, evaluation_key, True))
print(
    f"mean return per game (hundreds of points), {batch} games against random players, "
    f"{time.perf_counter() - start:.1f} s"
)
print(f"untrained (uniform over legal actions): {before:+.2f}")
print(f"trained for {iterations} batches of {batch} games: {after:+.2f}")
