"""``persian-rummy train``: train a player by self-play (the ``[train]`` extra); JAX is
imported only when it runs."""

from __future__ import annotations

import argparse
import shlex
from typing import Final, TextIO

from persian_rummy.cli._options import command, guarded
from persian_rummy.errors import InvalidArgumentError

EXAMPLES: Final = """
pip install "persian-rummy[train]"
persian-rummy train --minutes 10 --out my-player          about ten minutes on a laptop CPU
persian-rummy train --minutes 60 --out my-player --resume  an hour more, from the last checkpoint
persian-rummy train --rules deals=1 --steps 200 --out short-games
persian-rummy play --bot neural                           the shipped player
"""


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parents: dict[str, argparse.ArgumentParser]
) -> None:
    """Add ``train`` to ``commands``."""
    parser = command(commands, "train", "train a player by self-play (needs the [train] extra)", EXAMPLES)
    parser.add_argument(
        "--rules", default="", help="rules knobs as name=value, or a preset (default: the default rules)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the seed of the run (default 0)")
    parser.add_argument("--minutes", type=float, default=None, help="train this many minutes more")
    parser.add_argument("--steps", type=int, default=None, help="train until this many iterations in all")
    parser.add_argument("--out", required=True, help="the folder of the checkpoints, the log and the policy files")
    parser.add_argument("--resume", action="store_true", help="go on from the checkpoint in --out")
    parser.add_argument("--hidden", default="128,128", help="the hidden layers' widths (default 128,128)")
    parser.add_argument("--envs", type=int, default=64, help="games played side by side (default 64)")
    parser.add_argument("--evaluate-minutes", type=float, default=10.0, help="minutes between evaluations (default 10)")
    parser.add_argument("--checkpoint-minutes", type=float, default=3.0, help="minutes between checkpoints (default 3)")
    parser.add_argument(
        "--evaluation-games", type=int, default=100, help="games against each scalar bot per evaluation (default 100)"
    )
    parser.set_defaults(handler=guarded(train_command))


def train_command(args: argparse.Namespace, out: TextIO) -> int:
    """Train as ``args`` say; the final policy file is ``OUT/policy.npz``."""
    from persian_rummy.learning import TrainConfig, train
    from persian_rummy.rules import Rules

    if args.minutes is None and args.steps is None:
        raise InvalidArgumentError("say how long to train: --minutes, --steps or both")
    try:
        hidden = tuple(int(width) for width in args.hidden.split(","))
    except ValueError:
        raise InvalidArgumentError(f"--hidden takes widths such as 128,128, not {args.hidden!r}") from None
    config = TrainConfig(rules=Rules.parse(args.rules), seed=args.seed, hidden=hidden, envs=args.envs)
    train(
        config,
        args.out,
        steps=args.steps,
        minutes=args.minutes,
        resume=args.resume,
        checkpoint_seconds=60.0 * args.checkpoint_minutes,
        evaluate_seconds=60.0 * args.evaluate_minutes,
        evaluation_games=args.evaluation_games,
        command=shlex.join(["persian-rummy", *args.command_line]),
        report=lambda line: print(line, file=out, flush=True),
    )
    print(f"the policy: {args.out}/policy.npz (play it with NeuralBot.load)", file=out)
    return 0
