"""Train sb3-contrib's MaskablePPO in the Gymnasium environment against greedy bots.

    python examples/rl_maskable_ppo.py --timesteps 64000 --seed 0 --eval-games 600

Needs the ``[rl-train]`` extra (sb3-contrib, which brings Stable-Baselines3 and PyTorch).
The learner holds seat 0 of ``persian_rummy/PersianRummy-v0`` with greedy bots in the three
other seats (its partner too). MaskablePPO asks the environment's ``action_masks()`` method
for the legal actions, so it needs no wrapper and never tries an illegal one.

The evaluation is the arena's: paired games dealt the same cards, the two teams trading seats
(the learner sits in seat 0 in one game of a pair, in seat 1 in the other: its observation is
from its own seat), of the learner's team (the policy with a greedy partner) against two
greedy bots, dealt from seeds that training never saw. The policy plays its most likely legal
action. The same games are played first with a uniformly random learner (``random``) and with
the untrained network, for comparison. It prints each team's share of games won with its 95%
Wilson interval and its mean margin per game, and the training's CPU time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from sb3_contrib import MaskablePPO

from persian_rummy import Action, PlayerView
from persian_rummy.arena import BotSpec, run_match
from persian_rummy.encoding import int_to_action
from persian_rummy.gymnasium import PersianRummyEnv
from persian_rummy.observation import action_mask, observation_tensor


class PolicyBot:
    """A bot that plays the model's most likely legal action, from its own view (the same at
    every seat it is given: the arena plays a bot as it is)."""

    def __init__(self, model: MaskablePPO) -> None:
        self.model = model

    def __call__(self, view: PlayerView) -> Action:
        index, _ = self.model.predict(observation_tensor(view), action_masks=action_mask(view), deterministic=True)
        return int_to_action(int(index), view)


def evaluate(name: str, learner: BotSpec, games: int, seed: str) -> None:
    """Print the win rate of the team of ``learner`` and a greedy partner against two greedy bots."""
    result = run_match((learner, "greedy"), "greedy", games, seed=seed, workers=1)
    rate, low, high = result.win_rate(0)
    margin, half = result.margin
    print(f"{name:>10}: {rate:.3f} [{low:.3f}, {high:.3f}] wins, margin {margin:+.1f} ± {half:.1f} per game")


def _at_least(least: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return parse


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--timesteps", type=_at_least(1), default=64_000, help="learner actions to train on (64000)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the network and the training games")
    parser.add_argument("--n-steps", type=_at_least(2), default=2048, help="learner actions per update (2048)")
    parser.add_argument("--eval-games", type=_at_least(2), default=600, help="games per evaluation, in pairs (600)")
    parser.add_argument("--eval-seed", default="ppo-eval", help="the evaluation's match seed (default 'ppo-eval')")
    args = parser.parse_args(argv)

    env = PersianRummyEnv(opponents="greedy")
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=min(64, args.n_steps), seed=args.seed)
    evaluate("random", "random", args.eval_games, args.eval_seed)
    evaluate("untrained", PolicyBot(model), args.eval_games, args.eval_seed)
    start = time.process_time()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.process_time() - start
    print(f"trained on {model.num_timesteps} learner actions in {seconds:.0f} CPU-seconds")
    evaluate("trained", PolicyBot(model), args.eval_games, args.eval_seed)


if __name__ == "__main__":
    main()
