"""What the subcommands share: the options declared once (parent parsers), the seed and the
bots an option names, the output's width, saving a game record, and the error handling
around a command."""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Final, TextIO

from persian_rummy.bots import BOTS, LEVELS, Bot
from persian_rummy.cli._user_bots import build
from persian_rummy.dealing import Seed, shuffled_deck
from persian_rummy.errors import NotationError, PersianRummyError
from persian_rummy.game import Game
from persian_rummy.rules import PRESETS, Rules
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES

#: A subcommand's handler: it reads its parsed options and writes to the stream; it returns
#: the exit code. Each subcommand's parser names its handler with ``set_defaults``.
Handler = Callable[[argparse.Namespace, TextIO], int]

#: The width ``simulate`` wraps its turns to when the output is not a terminal, and the least.
_WIDTH: Final = 100
_NARROWEST: Final = 40


def output_width(out: TextIO) -> int:
    """The width to wrap text written to ``out``: ``COLUMNS`` when it is set, else the
    terminal's width when ``out`` is a terminal, else 100 (a file or a pipe); never under 40."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit() and len(columns) < 6:
        width = int(columns)
    elif is_terminal(out):
        width = shutil.get_terminal_size((_WIDTH, 24)).columns
    else:
        width = _WIDTH
    return max(width, _NARROWEST)


def is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed stream
        return False


def wrap(text: str, indent: str, width: int = _WIDTH) -> str:
    return textwrap.fill(
        text, width=width, initial_indent=indent, subsequent_indent=indent + "      ", break_on_hyphens=False
    )


def seed_option(text: str) -> Seed:
    """A ``--seed``: a whole number (``42``), or any other text (``"friday game"``), as
    :func:`~persian_rummy.new_game` takes (R5)."""
    body = text.removeprefix("-")
    seed: Seed = int(text) if body.isascii() and body.isdigit() and len(body) <= _SEED_DIGITS else text
    try:
        shuffled_deck(seed)  # the library's own check of a seed (a text of at most 200 characters)
    except PersianRummyError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return seed


#: The most digits of a whole-number seed (SEED_BITS bits); longer digits are read as text.
_SEED_DIGITS: Final = 1200


def bots_for(specs: Sequence[str], rules: Rules | None = None) -> list[Bot]:
    # Each bot's seed is its seat's number: fixed, so a game replays from its own seed, and
    # never the game's seed, which shuffles the deck (a bot's randomness says nothing about the
    # deal). Its choices differ game to game because they draw from what its seat has seen.
    return [build(spec, seat, rules=rules) for seat, spec in enumerate(seat_specs(specs))]


def seat_specs(specs: Sequence[str]) -> list[str]:
    """The ``--bot`` spec of each seat: one for every seat, two by team, or four by seat."""
    if len(specs) == 1:
        per_seat = [specs[0]] * 4
    elif len(specs) == 2:
        per_seat = [specs[0], specs[1], specs[0], specs[1]]
    elif len(specs) == 4:
        per_seat = list(specs)
    else:
        raise NotationError(
            f"give one bot (every seat), two (North-South, East-West) or four (by seat), not {len(specs)}"
        )
    return per_seat


def lineup(specs: Sequence[str]) -> str:
    if len(specs) == 4:
        return ", ".join(f"{SEAT_NAMES[seat]} {spec}" for seat, spec in enumerate(specs))
    first, second = (specs[0], specs[0]) if len(specs) == 1 else (specs[0], specs[1])
    return f"{TEAM_NAMES[0]} {first} against {TEAM_NAMES[1]} {second}"


def interactive() -> bool:
    isatty = getattr(sys.stdin, "isatty", None)
    return bool(isatty and isatty())


def save_game(path: str, game: Game, out: TextIO) -> None:
    """Save ``game`` as a game record (see :mod:`persian_rummy.record`)."""
    from persian_rummy.record import dump

    with open(path, "w", encoding="utf-8") as file:
        dump(game.record(), file)
    print(f"Saved the game record to {path}.", file=out)


def command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    summary: str,
    examples: str,
    parents: Sequence[argparse.ArgumentParser] = (),
) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` starts with ``summary`` and ends with ``examples``, with
    the shared options of ``parents``."""
    return commands.add_parser(
        name,
        parents=list(parents),
        help=summary,
        description=summary[0].upper() + summary[1:] + ".",
        epilog="examples:\n" + textwrap.indent(textwrap.dedent(examples).strip("\n"), "  "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _bot_names() -> list[tuple[str, str]]:
    # Each bot once, with its other name if it has one (montecarlo, mc).
    seen: dict[object, list[str]] = {}
    for name, factory in BOTS.items():
        seen.setdefault(factory, []).append(name)
    return [(names[0], names[-1]) for names in seen.values()]


def parents() -> dict[str, argparse.ArgumentParser]:
    """The options more than one subcommand takes, each declared once, as parent parsers:
    ``colour`` (``--color``) and ``players`` (``--bot`` and ``--rules``)."""
    colour = argparse.ArgumentParser(add_help=False)
    colour.add_argument(
        "--color",
        "--colour",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the suits: auto (a terminal without NO_COLOR), always or never",
    )
    players = argparse.ArgumentParser(add_help=False)
    names = ", ".join(f"{name} (or {short})" if name == "montecarlo" else name for name, short in _bot_names())
    players.add_argument(
        "--bot",
        nargs="+",
        default=None,
        metavar="NAME",
        help=f"the bots: one for every seat, two (North-South, East-West) or four (by seat); "
        f"names: {names}, with knobs as in mc:samples=4, a level ({', '.join(LEVELS)}), "
        "your own as module:name (a bot, a class, a function of a seed that makes one, or a "
        "BotFactory, in module.py beside you or on the import path), or a trained policy file (a path ending in .npz; "
        "without --bot: see the examples below)",
    )
    players.add_argument(
        "--rules", default="default", help="rules knobs as name=value, or a preset: " + ", ".join(PRESETS)
    )
    return {"colour": colour, "players": players}


#: The bots of every seat when ``--bot`` is not given.
DEFAULT_BOTS: Final = ("greedy",)

#: The words every ``--seed`` help starts from.
SEED_HELP: Final = "a whole number or any text"


def rules_and_bots(args: argparse.Namespace) -> Rules:
    """The rules ``--rules`` names, after checking the ``--bot`` names (before anything is printed).
    Without ``--bot`` the command's own default bots (``default_bots``) play."""
    if args.bot is None:
        args.bot = list(args.default_bots)
    rules = Rules.parse(args.rules)
    bots_for(args.bot, rules)  # the names, and the rules each bot can play
    return rules


def guarded(handler: Handler) -> Handler:
    """``handler`` with the command line's answer to an error: the library's errors and files
    that cannot be written are one line on standard error (exit code 2), Ctrl-C says so (130),
    and a reader that went away ends the command quietly."""

    def run(args: argparse.Namespace, out: TextIO) -> int:
        try:
            return handler(args, out)
        except PersianRummyError as error:
            print(f"persian-rummy: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("\nInterrupted.", file=out)
            return 130
        except BrokenPipeError:
            # The reader went away (``persian-rummy simulate | head``): stop quietly, and keep
            # Python from complaining when it flushes standard output at exit.
            with contextlib.suppress(AttributeError, OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        except OSError as error:  # --save to a path that cannot be written
            print(f"persian-rummy: cannot write {error.filename or 'the output'}: {error.strerror}", file=sys.stderr)
            return 2

    return run
