"""The critics of the search's leaves against the realized result, on held-out self-play:
the shipped policy's value head (:attr:`Policy.value <persian_rummy.policy.Policy.value>`,
which reads the seat to move's view) and the full-state critic
(:func:`~persian_rummy.critic.shipped_critic`, which reads the whole state, as the search's
sampled worlds allow). Run it with::

    OMP_NUM_THREADS=1 python benchmarks/critic.py --games 400

The positions: the shipped policy plays all four seats (its best action, as the search's
rollouts play), games dealt from a seed the critic was never fitted on, each game's next
deals from its own seed (as a rollout's); every turn's start (every ``--every``-th) is a
position, valued for the team to move. The realized result: what the rest of the game was
worth to that team in the value head's units (the margins of the deal and the deals after
it over 100, and 1 for winning the game, -1 for losing it), the margin already scored not
counted. Printed: each critic's mean error (its estimate less the result) and its
correlation with the result, with 95% intervals by games (a bootstrap).

``--fit OUT`` first fits a critic on ``--train-games`` games of another seed (a small
network, minibatch Adam on the squared error, numpy) and writes it to ``OUT`` (the shipped
file is ``persian_rummy/policies/critic.npz``); the figures are then of the new critic.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import sys
import time

import numpy as np
import numpy.typing as npt

from persian_rummy import new_game
from persian_rummy.critic import CRITIC_FEATURES, Critic, critic_features, shipped_critic
from persian_rummy.dealing import next_deal
from persian_rummy.encoding import ACTIONS
from persian_rummy.engine import play
from persian_rummy.observation import seat_tensor
from persian_rummy.policy import shipped_policy
from persian_rummy.search import WIN_VALUE, _Network
from persian_rummy.state import GameState, Phase, team_of

#: The seeds: the critic is fitted on the first, measured on the second (never fitted on).
TRAIN_SEED = "critic-train"
HELD_OUT_SEED = "critic-held-out"

Array = npt.NDArray[np.float64]


def self_play(seed: str, games: int, every: int = 1) -> tuple[Array, Array, Array, Array]:
    """The positions of ``games`` games of the shipped policy's self-play (all played a step
    at a time together): each position's critic features, the value head's estimate, the
    realized result (as the module says) and its game's number."""
    network = _Network(shipped_policy())
    draw = random.Random(f"critic {seed}")
    starts = [new_game(f"{seed} {game}") for game in range(games)]
    deal_seeds = [draw.getrandbits(63) for _ in range(games)]
    recorded: list[list[GameState]] = [[state] for state in starts]
    finals = _play_out(network, starts, deal_seeds, recorded, every)
    heads, results, numbers, kept = [], [], [], []
    for game, positions in enumerate(recorded):
        for state in positions:
            results.append(_result(finals[game], state))
            kept.append(state)
            heads.append(seat_tensor(state, state.current_player).reshape(-1))
            numbers.append(game)
    head = network.values(np.stack(heads)).astype(np.float64)
    features = np.stack([critic_features(state, float(value)) for state, value in zip(kept, head, strict=True)])
    return features, head, np.array(results), np.array(numbers)


def _result(final: GameState, state: GameState) -> float:
    """What the rest of the game from ``state`` was worth to its mover's team, in the head's units."""
    team = team_of(state.current_player)
    first, second = final.scores
    margin = first - second if team == 0 else second - first
    banked = state.scores[0] - state.scores[1] if team == 0 else state.scores[1] - state.scores[0]
    return (margin - banked) / 100 + (math.copysign(WIN_VALUE, margin) if margin else 0.0)


def _play_out(
    network: _Network, states: list[GameState], deal_seeds: list[int], recorded: list[list[GameState]], every: int
) -> list[GameState]:
    """Play the policy's best actions from each state to the game's end, all a step at a
    time together, the next deals from ``deal_seeds``; every ``every``-th turn's start is
    appended to ``recorded`` (nothing where ``every`` is 0). The final states."""
    states = list(states)
    turn = [0] * len(states)
    live = [game for game, state in enumerate(states) if state.phase.is_live]
    while live:
        chosen = network.step(states, live)
        live = []
        for game, index in chosen:
            state = states[game]
            mover = state.current_player
            state = play(state, ACTIONS[index])
            if state.phase is Phase.ROUND_OVER:
                state = next_deal(state, game_seed=deal_seeds[game])
            states[game] = state
            if not state.phase.is_live:
                continue
            live.append(game)
            if state.current_player != mover:
                turn[game] += 1
                if every and turn[game] % every == 0:
                    recorded[game].append(state)
    return states


def ceiling(seed: str, games: int, every: int, repeats: int) -> tuple[float, float, int]:
    """How well any value of the state could correlate with the realized result: each of
    the positions of :func:`self_play` played out ``repeats`` times, each time with other
    next deals (the only chance left once every hand is known: the policy plays its best
    action). The correlation of the best estimate (the mean over all next deals) with one
    result is at most the square root of the share of the results' variance between
    positions; that share, the mean realized result's correlation with one result, and the
    positions."""
    network = _Network(shipped_policy())
    recorded: list[list[GameState]] = [[new_game(f"{seed} {game}")] for game in range(games)]
    draw = random.Random(f"critic {seed}")
    _play_out(network, [r[0] for r in recorded], [draw.getrandbits(63) for _ in range(games)], recorded, every)
    positions = [state for states in recorded for state in states]
    rng = random.Random(f"critic ceiling {seed}")
    outcomes = np.zeros((len(positions), repeats))
    for repeat in range(repeats):
        finals = _play_out(network, positions, [rng.getrandbits(63) for _ in positions], [[] for _ in positions], 0)
        outcomes[:, repeat] = [_result(final, state) for final, state in zip(finals, positions, strict=True)]
    within = float(outcomes.var(axis=1, ddof=1).mean())
    total = float(outcomes.var())
    share = max(0.0, 1 - within / total)
    # The mean of the other repeats against one repeat: a noisy estimate of the best value.
    others = (outcomes.sum(axis=1) - outcomes[:, 0]) / (repeats - 1)
    return share, float(np.corrcoef(others, outcomes[:, 0])[0, 1]), len(positions)


def figures(estimate: Array, result: Array, games: Array, rounds: int = 1000) -> str:
    """The mean error and the correlation, each with a 95% interval by games (a bootstrap)."""
    error = float((estimate - result).mean())
    correlation = float(np.corrcoef(estimate, result)[0, 1])
    rng = np.random.default_rng(0)
    unique = np.unique(games)
    rows = {game: np.flatnonzero(games == game) for game in unique}
    errors, correlations = [], []
    for _ in range(rounds):
        picked = np.concatenate([rows[game] for game in rng.choice(unique, len(unique))])
        errors.append((estimate[picked] - result[picked]).mean())
        correlations.append(np.corrcoef(estimate[picked], result[picked])[0, 1])
    e_low, e_high = np.percentile(errors, [2.5, 97.5])
    c_low, c_high = np.percentile(correlations, [2.5, 97.5])
    return (
        f"mean error {error:+.3f} [{e_low:+.3f}, {e_high:+.3f}], "
        f"correlation {correlation:.3f} [{c_low:.3f}, {c_high:.3f}], "
        f"mean estimate {estimate.mean():+.3f}, mean result {result.mean():+.3f}"
    )


def fit(features: Array, result: Array, width: int, epochs: int, seed: int = 0) -> Critic:
    """A critic fitted by Adam on the squared error, minibatches of 512 in a shuffled order
    each epoch (a small L2 penalty), the rate lowered for the last third."""
    mean = features.mean(axis=0)
    scale = features.std(axis=0)
    scale[scale < 1e-6] = 1.0
    x = (features - mean) / scale
    rng = np.random.default_rng(seed)
    params = [
        rng.normal(0, 1 / math.sqrt(x.shape[1]), (x.shape[1], width)),
        np.zeros(width),
        rng.normal(0, 1 / math.sqrt(width), width),
        np.array(float(result.mean())),
    ]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        rate = 0.003 if epoch < epochs * 2 / 3 else 0.0005
        order = rng.permutation(len(x))
        for start in range(0, len(x), 512):
            batch = order[start : start + 512]
            hidden = np.tanh(x[batch] @ params[0] + params[1])
            error = hidden @ params[2] + params[3] - result[batch]
            d_out = error / len(batch)
            d_hidden = np.outer(d_out, params[2]) * (1 - hidden**2)
            grads = [
                x[batch].T @ d_hidden + 1e-4 * params[0],
                d_hidden.sum(0),
                hidden.T @ d_out + 1e-4 * params[2],
                d_out.sum(),
            ]
            step += 1
            for number, grad in enumerate(grads):
                moments[number] = 0.9 * moments[number] + 0.1 * grad
                squares[number] = 0.999 * squares[number] + 0.001 * grad**2
                m = moments[number] / (1 - 0.9**step)
                v = squares[number] / (1 - 0.999**step)
                params[number] = params[number] - rate * m / (np.sqrt(v) + 1e-8)
        fitted = np.tanh(x @ params[0] + params[1]) @ params[2] + params[3]
        print(f"epoch {epoch}: mean squared error {float(((fitted - result) ** 2).mean()):.4f}", file=sys.stderr)
    return Critic(mean, scale, params[0], params[1], params[2], params[3])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="held-out games")
    parser.add_argument("--every", type=int, default=1, help="a position every this many turns")
    parser.add_argument("--fit", metavar="OUT", help="fit a critic first and write it here")
    parser.add_argument("--train-games", type=int, default=2000)
    parser.add_argument("--width", type=int, default=16, help="the fitted critic's hidden units")
    parser.add_argument("--epochs", type=int, default=20, help="the fit's passes over its positions")
    parser.add_argument(
        "--ceiling", type=int, metavar="R", default=0, help="also play each position of --ceiling-games R times"
    )
    parser.add_argument("--ceiling-games", type=int, default=40)
    parser.add_argument("--ceiling-every", type=int, default=6)
    arguments = parser.parse_args(argv)
    print(f"Python {platform.python_version()}, numpy {np.__version__}, {len(CRITIC_FEATURES)} features")
    critic = None
    if arguments.fit:
        began = time.perf_counter()
        x, _, y, games = self_play(TRAIN_SEED, arguments.train_games, arguments.every)
        print(
            f"fitting on {len(y):,} positions of {arguments.train_games} games of seed {TRAIN_SEED!r} "
            f"({time.perf_counter() - began:.0f} s of self-play)"
        )
        critic = fit(x, y, arguments.width, arguments.epochs)
        critic.save(arguments.fit)
        print(f"training fit: {figures(critic.evaluate(x), y, games, rounds=100)}")
    critic = critic or shipped_critic()
    began = time.perf_counter()
    x, head, y, games = self_play(HELD_OUT_SEED, arguments.games, arguments.every)
    print(
        f"held out: {len(y):,} positions of {arguments.games} games of seed {HELD_OUT_SEED!r} "
        f"({time.perf_counter() - began:.0f} s of self-play)"
    )
    print(f"value head (the mover's view): {figures(head, y, games)}")
    print(f"full-state critic:             {figures(critic.evaluate(x), y, games)}")
    if arguments.ceiling:
        share, correlation, count = ceiling(
            HELD_OUT_SEED, arguments.ceiling_games, arguments.ceiling_every, arguments.ceiling
        )
        print(
            f"ceiling ({count} positions, each played out {arguments.ceiling} times with other next deals): "
            f"{share:.3f} of the results' variance lies between positions, so no value of the state "
            f"correlates with one result above {math.sqrt(share):.3f} on them; the mean of the other "
            f"{arguments.ceiling - 1} results correlates {correlation:.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
