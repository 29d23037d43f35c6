"""``persian-rummy train``: train a player by self-play (the ``[train]`` extra); JAX is
imported only when it runs."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TextIO

from persian_rummy.cli._options import command, guarded
from persian_rummy.errors import InvalidArgumentError

EXAMPLES: Final = """
pip install ".[train]"                                    in a clone of the repository (not on PyPI yet)
persian-rummy train --minutes 10 --out my-player          about ten minutes on a laptop CPU
persian-rummy train --minutes 60 --out my-player --resume  an hour more, from the last checkpoint
persian-rummy train --rules deals=1 --steps 200 --out short-games
persian-rummy train --minutes 10 --out gpu-run --hidden 256,256 --envs 4096 --epochs 4 --minibatches 8 --league-size 2
                                                          the shipped player's settings, for a GPU
persian-rummy play --bot my-player/policy.npz             play against it
"""

# The knobs of TrainConfig the command line sets, with their parsers.
_KNOBS: Final[dict[str, Callable[[str], Any]]] = {
    "seed": int,
    "hidden": lambda text: tuple(int(width) for width in text.split(",")),
    "envs": int,
    "horizon": int,
    "epochs": int,
    "minibatches": int,
    "league_size": int,
    "learning_rate": float,
    "entropy": float,
    "self_play": float,
}


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parents: dict[str, argparse.ArgumentParser]
) -> None:
    """Add ``train`` to ``commands``."""
    parser = command(commands, "train", "train a player by self-play (needs the [train] extra)", EXAMPLES)
    parser.add_argument(
        "--rules", default=None, help="rules knobs as name=value, or a preset (default: the default rules)"
    )
    parser.add_argument("--minutes", type=float, default=None, help="train this many minutes more")
    parser.add_argument("--steps", type=int, default=None, help="train until this many iterations in all")
    parser.add_argument("--out", required=True, help="the folder of the checkpoint, the log and the policy file")
    parser.add_argument("--resume", action="store_true", help="go on from the checkpoint in --out, with its settings")
    knobs = parser.add_argument_group("settings of a new run (a resumed run keeps its checkpoint's)")
    knobs.add_argument("--seed", default=None, help="the seed of the run (default 0)")
    knobs.add_argument("--hidden", default=None, help="the hidden layers' widths (default 128,128)")
    knobs.add_argument("--envs", default=None, help="games played side by side (default 256)")
    knobs.add_argument("--horizon", default=None, help="actions of each game per iteration (default 32)")
    knobs.add_argument("--epochs", default=None, help="PPO passes over each iteration's actions (default 2)")
    knobs.add_argument("--minibatches", default=None, help="PPO updates per pass (default 4)")
    knobs.add_argument("--league-size", default=None, help="past snapshots kept as opponents (default 4)")
    knobs.add_argument("--learning-rate", default=None, help="Adam's step size (default 0.0003)")
    knobs.add_argument("--entropy", default=None, help="the entropy bonus's weight (default 0.01)")
    knobs.add_argument("--self-play", default=None, help="the share of pure self-play games (default 0.5)")
    parser.add_argument("--evaluate-minutes", type=float, default=10.0, help="minutes between evaluations (default 10)")
    parser.add_argument("--checkpoint-minutes", type=float, default=2.0, help="minutes between checkpoints (default 2)")
    parser.add_argument(
        "--evaluation-games", type=int, default=100, help="games against each bot per evaluation (default 100)"
    )
    parser.add_argument(
        "--opponents", default="greedy", help="the bots each evaluation plays, comma-separated (default greedy)"
    )
    parser.set_defaults(handler=guarded(train_command))


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The knobs given on the command line, parsed; a value that does not parse names its option."""
    given: dict[str, Any] = {}
    for name, parse in _KNOBS.items():
        text = getattr(args, name)
        if text is None:
            continue
        try:
            given[name] = parse(text)
        except ValueError:
            option = "--" + name.replace("_", "-")
            raise InvalidArgumentError(f"{option} does not take {text!r}") from None
    return given


def train_command(args: argparse.Namespace, out: TextIO) -> int:
    """Train as ``args`` say; the final policy file is ``OUT/policy.npz``."""
    import attrs

    from persian_rummy.learning import CHECKPOINT, COMPACT, TrainConfig, checkpoint_config, train
    from persian_rummy.rules import Rules

    if args.minutes is None and args.steps is None:
        raise InvalidArgumentError("say how long to train: --minutes, --steps or both")
    given = _given(args)
    if args.rules is not None:
        given["rules"] = Rules.parse(args.rules)
    if args.resume:
        found = [Path(args.out) / name for name in (CHECKPOINT, COMPACT) if (Path(args.out) / name).exists()]
        if not found:
            raise InvalidArgumentError(f"{args.out} holds no checkpoint to resume from: leave out --resume to start")
        config = checkpoint_config(found[0])
        differing = attrs.evolve(config, **given).differences(config) if given else []
        if differing:
            raise InvalidArgumentError(
                "--resume keeps the checkpoint's settings; these differ: "
                + "; ".join(text.replace(", not ", " given, the checkpoint's ") for text in differing)
            )
    else:
        config = TrainConfig(**given)
    train(
        config,
        args.out,
        steps=args.steps,
        minutes=args.minutes,
        resume=args.resume,
        checkpoint_seconds=60.0 * args.checkpoint_minutes,
        evaluate_seconds=60.0 * args.evaluate_minutes,
        evaluation_games=args.evaluation_games,
        opponents=tuple(name.strip() for name in args.opponents.split(",") if name.strip()),
        command=shlex.join(["persian-rummy", *args.command_line]),
        report=lambda line: print(line, file=out, flush=True),
    )
    print(f"the policy: {args.out}/policy.npz (play it with --bot {args.out}/policy.npz)", file=out)
    return 0
