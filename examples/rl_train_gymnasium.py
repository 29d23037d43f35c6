"""Train a tiny numpy policy in the Gymnasium environment, with action masking.

    python examples/rl_train_gymnasium.py [EPISODES] [EVALUATION_EPISODES]

The learner holds seat 0 against three random bots. Its policy is a softmax over the legal
actions only (the mask from ``info["action_mask"]``) of linear scores: one weight per action
plus one per (action, card in hand) pair, trained with REINFORCE (the episode's return, the
final team margin in hundreds of points, minus a running baseline). It prints the mean return
of the untrained (uniform) policy and of the trained one, on the same evaluation deals.
"""

import sys

import gymnasium
import numpy as np

import persian_rummy.gymnasium  # noqa: F401 - registers persian_rummy/PersianRummy-v0
from persian_rummy.encoding import NUM_ACTIONS

episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 300
evaluations = int(sys.argv[2]) if len(sys.argv) > 2 else 40

env = gymnasium.make("persian_rummy/PersianRummy-v0", opponents="random")
rng = np.random.default_rng(0)
bias = np.zeros(NUM_ACTIONS)
weights = np.zeros((NUM_ACTIONS, 53))


def features(observation):
    return observation[0]  # plane 0: the learner's hand, one column per card


def policy(observation, mask):
    legal = np.flatnonzero(mask)
    scores = bias[legal] + weights[legal] @ features(observation)
    scores -= scores.max()
    probabilities = np.exp(scores)
    return legal, probabilities / probabilities.sum()


def play(seed):
    observation, info = env.reset(seed=seed)
    steps = []
    total = 0.0
    done = False
    while not done:
        legal, probabilities = policy(observation, info["action_mask"])
        choice = rng.choice(len(legal), p=probabilities)
        steps.append((features(observation), legal, probabilities, choice))
        observation, reward, terminated, truncated, info = env.step(int(legal[choice]))
        total += float(reward)
        done = terminated or truncated
    return total, steps


def evaluate():
    """The mean return on the evaluation deals (seeds apart from the training ones)."""
    return float(np.mean([play(10_000 + game)[0] for game in range(evaluations)]))


before = evaluate()  # all weights 0: uniform over the legal actions
baseline = 0.0
rate = 0.05
for episode in range(episodes):
    total, steps = play(episode)
    advantage = total - baseline
    baseline += 0.05 * (total - baseline)
    for hand, legal, probabilities, choice in steps:
        # The gradient of log softmax: the chosen action's features minus their expectation.
        step = -rate * advantage * probabilities
        step[choice] += rate * advantage
        bias[legal] += step
        weights[legal] += np.outer(step, hand)
after = evaluate()
print(f"mean return per game (hundreds of points), {evaluations} games against random bots")
print(f"untrained (uniform over legal actions): {before:+.2f}")
print(f"trained for {episodes} games: {after:+.2f}")
