"""PPO in plain JAX and optax on the batched engine, self-play, then a match against greedy.

One network plays all four seats; the rollout, the advantages (from each team's side) and the
updates are compiled JAX. After the time budget the network is saved as a policy file and
played through the arena against the greedy bot, on paired deals::

    python examples/ppo_jax.py --seconds 300 --seed 0 --games 1000 --out ppo.npz

Needs the ``[train]`` extra (JAX and optax): ``pip install ".[train]"`` in a clone.
"""

from __future__ import annotations

import argparse
import time
from typing import cast

import jax
import jax.numpy as jnp
import optax

from persian_rummy.arena import MatchResult, run_match
from persian_rummy.vector import Env, export_policy, sample_policy, team_gae

ENVS, HORIZON, EPOCHS, MINIBATCHES, HIDDEN = 256, 32, 2, 4, (128, 128)
LEARNING_RATE, CLIP, ENTROPY, VALUE_COEF, GAMMA, LAMBDA = 3e-4, 0.2, 0.01, 0.5, 1.0, 0.95
env = Env(win_bonus=1.0)  # rewards: each deal's margin over 100, and +-1 for the game won or lost


def init_network(key: jax.Array) -> dict:
    sizes, keys = (1590, *HIDDEN), jax.random.split(key, len(HIDDEN) + 2)
    hidden = [
        (jax.random.normal(k, (a, b)) * jnp.sqrt(2 / a), jnp.zeros(b))
        for k, a, b in zip(keys[:-2], sizes[:-1], sizes[1:], strict=True)
    ]
    policy = (jax.random.normal(keys[-2], (HIDDEN[-1], env.num_actions)) * 0.01, jnp.zeros(env.num_actions))
    value = (jax.random.normal(keys[-1], (HIDDEN[-1], 1)) * 0.01, jnp.zeros(1))
    return {"hidden": hidden, "policy": policy, "value": value}


def forward(net: dict, observation: jax.Array) -> tuple[jax.Array, jax.Array]:
    x = observation.reshape(observation.shape[0], -1)
    for weight, bias in net["hidden"]:
        x = jax.nn.relu(x @ weight + bias)
    return x @ net["policy"][0] + net["policy"][1], (x @ net["value"][0] + net["value"][1])[:, 0]


def log_probs(logits: jax.Array, mask: jax.Array) -> jax.Array:
    return jax.nn.log_softmax(jnp.where(mask, logits, -1e9))


def rollout(net: dict, state, key: jax.Array):
    """HORIZON steps of every game; finished games are dealt anew after each step."""

    def one(carry, _):
        state, key = carry
        key, choose, deal = jax.random.split(key, 3)
        logits, value = forward(net, state.observation)
        action = jax.vmap(sample_policy)(jax.random.split(choose, ENVS), logits, state.legal_action_mask)
        after = jax.vmap(env.step)(state, action)
        valid = ~state.terminated  # a finished row's step is no sample (every row, after a reset)
        sample = {
            "observation": state.observation,
            "mask": state.legal_action_mask,
            "action": action,
            "log_prob": jnp.take_along_axis(log_probs(logits, state.legal_action_mask), action[:, None], 1)[:, 0],
            "value": value,
            "team": state.current_player % 2,
            "valid": valid,
            "reward": after.rewards[:, :2],  # seats 0 and 1: one of each team
            "done": after.terminated & valid,
        }
        return (env.reset_finished(after, jax.random.split(deal, ENVS)), key), sample

    (state, key), samples = jax.lax.scan(one, (state, key), None, HORIZON)
    # Each team's value at its next decision: the mover's, and the next seat's (the other team).
    mover = forward(net, state.observation)[1]
    other = forward(net, jax.vmap(env.observe)(state, (state.current_player + 1) % 4))[1]
    last = jnp.where((state.current_player % 2)[:, None] == jnp.arange(2), mover[:, None], other[:, None])
    return state, samples, jnp.where(state.terminated[:, None], 0.0, last)


def loss(net: dict, batch: dict) -> jax.Array:
    logits, value = forward(net, batch["observation"])
    all_log_probs = log_probs(logits, batch["mask"])
    log_prob = jnp.take_along_axis(all_log_probs, batch["action"][:, None], 1)[:, 0]
    ratio, advantage = jnp.exp(log_prob - batch["log_prob"]), batch["advantage"]
    policy_loss = -jnp.minimum(ratio * advantage, jnp.clip(ratio, 1 - CLIP, 1 + CLIP) * advantage)
    entropy = -jnp.sum(jnp.where(batch["mask"], jnp.exp(all_log_probs) * all_log_probs, 0.0), axis=1)
    terms = policy_loss + VALUE_COEF * (value - batch["return"]) ** 2 - ENTROPY * entropy
    return jnp.sum(terms * batch["valid"]) / jnp.maximum(jnp.sum(batch["valid"]), 1)


optimizer = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(LEARNING_RATE))


@jax.jit
def iterate(net: dict, opt_state, state, key: jax.Array):
    key, play, shuffle = jax.random.split(key, 3)
    state, samples, last = rollout(net, state, play)
    advantage = team_gae(
        samples["reward"], samples["value"], samples["team"], samples["valid"], samples["done"], last,
        gamma=GAMMA, gae_lambda=LAMBDA,
    )  # fmt: skip
    samples["return"] = advantage + samples["value"]
    valid = samples["valid"]
    mean = jnp.sum(advantage * valid) / jnp.maximum(jnp.sum(valid), 1)
    spread = jnp.sqrt(jnp.sum((advantage - mean) ** 2 * valid) / jnp.maximum(jnp.sum(valid), 1)) + 1e-8
    samples["advantage"] = (advantage - mean) / spread
    flat = jax.tree_util.tree_map(lambda a: a.reshape(HORIZON * ENVS, *a.shape[2:]), samples)

    def update(carry, indices):
        net, opt_state = carry
        grads = jax.grad(loss)(net, jax.tree_util.tree_map(lambda a: a[indices], flat))
        updates, opt_state = optimizer.update(grads, opt_state, net)
        return (cast(dict, optax.apply_updates(net, updates)), opt_state), None

    for epoch_key in jax.random.split(shuffle, EPOCHS):
        order = jax.random.permutation(epoch_key, HORIZON * ENVS).reshape(MINIBATCHES, -1)
        (net, opt_state), _ = jax.lax.scan(update, (net, opt_state), order)
    return net, opt_state, state, key, jnp.sum(samples["done"])


def main() -> None:
    parser = argparse.ArgumentParser(description="PPO in plain JAX and optax on the batched engine")
    parser.add_argument("--seconds", type=float, default=300.0, help="training time, compilation included (300)")
    parser.add_argument("--cpu-seconds", type=float, help="a budget of processor time instead (all threads)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=1000, help="games against greedy, in pairs of deals (1000)")
    parser.add_argument("--out", default="ppo.npz", help="the policy file written (ppo.npz)")
    args = parser.parse_args()
    start, cpu = time.perf_counter(), time.process_time()
    key, net_key, deal_key = jax.random.split(jax.random.PRNGKey(args.seed), 3)
    net = init_network(net_key)
    opt_state, state = optimizer.init(net), jax.jit(jax.vmap(env.init))(jax.random.split(deal_key, ENVS))
    iterations = games = 0
    try:  # Ctrl-C stops the training early; the network is then saved and played as it is
        while (time.process_time() - cpu if args.cpu_seconds else time.perf_counter() - start) < (
            args.cpu_seconds or args.seconds
        ):
            net, opt_state, state, key, done = iterate(net, opt_state, state, key)
            iterations, games = iterations + 1, games + int(done)
            if iterations % 20 == 0:
                print(f"{time.perf_counter() - start:6.0f} s  iteration {iterations}  games {games}", flush=True)
    except KeyboardInterrupt:
        print("stopped")
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    samples = iterations * HORIZON * ENVS
    print(f"trained: {iterations} iterations, {samples} samples, {games} games, {wall:.0f} s, {cpu:.0f} CPU s")
    training = {"command": "examples/ppo_jax.py", "seed": args.seed, "steps": samples, "games": games,
                "wall_seconds": round(wall, 1), "device": jax.devices()[0].device_kind}  # fmt: skip
    export_policy(net["hidden"], net["policy"], net["value"], training=training).save(args.out)
    played = []  # against greedy in parts of 100 games (50 pairs of deals), each part's result shown
    for part in range(0, args.games, 100):
        result = run_match(args.out, "greedy", games=min(100, args.games - part), seed=f"ppo-{args.seed}/{part}")
        played += result.games
        rate, low, high = MatchResult(result.sides, tuple(played)).win_rate(0)
        print(f"against greedy: {rate:.3f} [{low:.3f}, {high:.3f}] over {len(played)} games (paired deals)", flush=True)


if __name__ == "__main__":
    main()
