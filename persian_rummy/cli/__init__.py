"""The ``persian-rummy`` command line (also ``python -m persian_rummy``).

- ``persian-rummy simulate [--seed SEED] [--games N] [--bot NAME ...] [--rules TEXT]``: bots
  play; one game is printed turn by turn (wrapped to the terminal's width) with a score sheet
  per deal, many games end with summary statistics.
- ``persian-rummy play [--seed SEED] [--seat N] [--bot NAME ...] [--save FILE]``: play a game
  in the terminal against bots (your partner is a bot too); without ``--seed`` a random seed
  is dealt and printed, so the game can be played again. ``--save`` saves the game when it
  ends or you leave (quit, Ctrl-D or Ctrl-C).
- ``persian-rummy replay FILE``: print a saved game, or step through it with Enter.
- ``persian-rummy serve``: serve tables in the browser (the ``[server]`` extra).
- ``persian-rummy train --out DIR [--minutes M] [--steps N] [--resume]``: train a player by
  self-play on the vectorized engine (the ``[train]`` extra).

A seed is a whole number or any text, as :func:`~persian_rummy.new_game` takes. Suits are
coloured when the output is a terminal and ``NO_COLOR`` is not set.

>>> main(["simulate", "--seed", "1", "--games", "3", "--no-progress"])  # doctest: +ELLIPSIS
3 games (seeds 1-3), North-South greedy against East-West greedy, rules default
                                   North-South     East-West
  games won                            1 ( 33%)       2 ( 67%)
  win rate, 95% interval          [0.06, 0.79]  [0.21, 0.94]
  games drawn                                0
  mean game score                        319.7         360.7
  score standard deviation                66.5         108.9
  deals won                                  2             4
  went out (of 6 deals)                      4             2
  mean turns per deal: 24.5
  time: ... games/s)
0
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from persian_rummy._version import __version__
from persian_rummy.cli import _play, _replay, _serve, _simulate, _train
from persian_rummy.cli._options import Handler, parents
from persian_rummy.presentation import visible

__all__ = ["main", "visible"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="persian-rummy",
        description="Persian Rummy, the card game: bots play (simulate), you play (play), a saved game "
        "is shown again (replay), tables are served to browsers (serve), a player is trained (train). "
        "Each command's --help has examples.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    shared = parents()
    for module in (_simulate, _play, _replay, _serve, _train):
        module.add_parser(commands, shared)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code.

    >>> main(["simulate", "--bot", "clever"])  # the message goes to standard error
    2
    """
    args = _parser().parse_args(argv)
    args.command_line = list(sys.argv[1:] if argv is None else argv)  # what train records
    handler: Handler = args.handler
    return handler(args, sys.stdout)
