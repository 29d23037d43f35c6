"""``persian-rummy play``: a game in the terminal against bots (the partner is a bot too);
without ``--seed`` a random seed is dealt and printed, so the game can be played again.
``--save`` saves the game when it ends or the player leaves (quit, Ctrl-D or Ctrl-C); a bot
that answers what cannot be played (or fails) saves it too, and ``--resume FILE`` goes on with
a saved game. It says which bots (which level) the person plays against, and, on a terminal,
which bot is thinking while it does."""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shlex
from collections.abc import Sequence
from typing import Final, TextIO

from persian_rummy._bits import partner_of
from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards
from persian_rummy.arena import play_bot
from persian_rummy.bots import DEFAULT_LEVEL, LEVELS, Bot, Player, default_level
from persian_rummy.cli._options import (
    SEED_HELP,
    bots_for,
    command,
    guarded,
    interactive,
    is_terminal,
    lineup,
    rules_and_bots,
    save_game,
    seat_specs,
    seed_option,
)
from persian_rummy.dealing import Seed
from persian_rummy.engine import legal_actions, play
from persian_rummy.errors import (
    IllegalActionError,
    InvalidArgumentError,
    NotationError,
    PersianRummyError,
    excerpt,
)
from persian_rummy.game import Game
from persian_rummy.presentation import (
    Style,
    addressed,
    describe,
    result_text,
    round_end_text,
    score_sheet,
    styled_table,
)
from persian_rummy.rules import Rules
from persian_rummy.state import SEAT_NAMES, GameState

#: The levels as the help lists them, one a line, indented as the examples are.
_LEVELS_HELP: Final = "\n        ".join(f"  {name:<7} {level.description}" for name, level in LEVELS.items())

#: The seat of a game played without --seat.
_DEFAULT_SEAT: Final = 2


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parents: dict[str, argparse.ArgumentParser]
) -> None:
    """Add ``play`` to ``commands``."""
    game = command(
        commands,
        "play",
        "play a game in the terminal against bots (your partner is a bot too)",
        f"""
        persian-rummy play                               South, against {DEFAULT_LEVEL} bots, a random seed
        persian-rummy play --level easy                  against the easiest bots
        persian-rummy play --seed 42 --save mine.prr     the game is saved when it ends or you quit
        persian-rummy play --seat 0 --bot mc             North, against Monte Carlo bots
        persian-rummy play --resume mine.prr             go on with a saved game
        The levels (--level LEVEL, or --bot LEVEL), from the easiest:
        {_LEVELS_HELP}
        At the prompt type an option's number, or the action (draw, take 2, meld 7s 7h 7d,
        lay off 9s on #0, discard Kd, pass); help shows the syntax, quit (or Ctrl-D, Ctrl-C) leaves.
        """,
        [parents["players"], parents["colour"]],
    )
    game.add_argument(
        "--seed",
        type=seed_option,
        default=None,
        help=f"the seed of the game, {SEED_HELP} (default: a random one, printed to replay it)",
    )
    game.add_argument(
        "--seat",
        type=int,
        default=_DEFAULT_SEAT,
        choices=range(4),
        help="your seat: 0 North, 1 East, 2 South (default), 3 West",
    )
    game.add_argument(
        "--save", metavar="FILE", help="save the game as a game record when it ends or you quit (quit, Ctrl-D, Ctrl-C)"
    )
    game.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with the game saved in FILE (by --save, or when a bot failed), with its seed and rules",
    )
    game.add_argument(
        "--level",
        choices=list(LEVELS),
        default=None,
        help=f"the bots' level: {', '.join(LEVELS)}, from the easiest (each is described below; "
        f"default {DEFAULT_LEVEL}, or the strongest below it that plays --rules, unless --bot names the bots)",
    )
    game.set_defaults(handler=guarded(play_command), default_bots=[DEFAULT_LEVEL])


def play_command(args: argparse.Namespace, out: TextIO) -> int:
    """Play the game ``args`` asks for with the person at the terminal."""
    style = Style.for_stream(out, args.color)
    if args.level is not None:
        if args.bot is not None:
            raise InvalidArgumentError("give the bots by --bot or by --level, not both")
        args.bot = [args.level]
    if args.bot is None:  # the default level, or the strongest below it that plays the rules
        args.bot = [default_level(Rules.parse(args.rules))]
    resumed = None if args.resume is None else _resumed(args)
    rules = rules_and_bots(args)
    seed = _random_seed() if args.seed is None else args.seed
    return _play(seed, args.seat, args.bot, rules, out, style, args.save, resumed)


def _resumed(args: argparse.Namespace) -> Game:
    # The saved game --resume names; its rules are the game's (--rules may only repeat them).
    from persian_rummy.record import load

    if args.seed is not None:
        raise InvalidArgumentError("give --seed or --resume, not both: a saved game has its seed")
    try:
        with open(args.resume, encoding="utf-8") as file:
            game = Game.from_record(load(file))
    except OSError as error:
        raise InvalidArgumentError(f"the saved game {args.resume} cannot be read: {error.strerror}") from None
    if args.rules != "default" and Rules.parse(args.rules) != game.rules:
        raise InvalidArgumentError(f"the saved game is played by the rules {str(game.rules)!r}, not {args.rules!r}")
    if game.is_over:
        raise InvalidArgumentError(f"the game saved in {args.resume} is over: {result_text(game.state)}")
    args.rules, args.seed = str(game.rules), game.seed
    return game


def again(seed: Seed, seat: int, specs: Sequence[str], rules: Rules) -> str:
    """The command that deals the same game again: the seed and every option that shaped the
    game (the seat, the bots, the rules), each left out at its default (the bots' is the
    :func:`~persian_rummy.bots.default_level` of the rules).

    >>> again(7, 2, ["neural"], Rules())
    'persian-rummy play --seed 7 --bot neural'
    >>> again("friday game", 0, ["medium"], Rules(deals=1))
    "persian-rummy play --seed 'friday game' --seat 0 --rules deals=1"
    """
    words = ["persian-rummy", "play", "--seed", str(seed)]
    if seat != _DEFAULT_SEAT:
        words += ["--seat", str(seat)]
    if list(specs) != [default_level(rules)]:
        words += ["--bot", *specs]
    if rules != Rules():
        words += ["--rules", str(rules)]
    return shlex.join(words)


def _random_seed() -> int:
    """A fresh seed for ``persian-rummy play`` when none is given: short enough to type back
    as ``--seed``, from the operating system's randomness so that games differ run to run."""
    return secrets.randbelow(999_999) + 1


def _action_text(state: GameState, action: Action, style: Style) -> str:
    # The action's words (which Action.parse reads), then what it takes or where it goes in
    # brackets (which _read drops): every option can be typed back as it is listed.
    if isinstance(action, DrawStock):
        return "draw from the stock"
    if isinstance(action, DrawDiscard):
        taken = state.discard_pile[action.index :]
        return f"take {action.index} ({style.cards(taken)}, then meld the {style.card(taken[0])})"
    if isinstance(action, MeldCards):
        return f"meld {style.cards(action.cards)}"
    if isinstance(action, LayOff):
        target = state.melds[action.meld]
        return f"lay off {style.card(action.card)} on #{action.meld} ({style.cards(target.cards)})"
    if isinstance(action, Discard):
        return f"discard {style.card(action.card)}"
    return "pass"


#: A note in brackets at the end of an option (what a take takes, the meld laid off on).
_NOTE: Final = re.compile(r"\s*\([^()]*\)\s*$")


def _read(answer: str) -> Action:
    """The action typed at the prompt: any text :meth:`Action.parse` reads, or an option
    exactly as :func:`_action_text` lists it (with its note in brackets)."""
    return Action.parse(_NOTE.sub("", answer))


_HELP = """Type the number of an action, or the action itself (an option as it is listed works too):
  draw | take INDEX | meld CARD CARD CARD ... | lay off CARD MELD | discard CARD | pass
Cards are written like 7h, Td, Qs, Jk (joker); 10h and 7♥ work too.
Other commands: table (show the table again), help, quit."""


def _ask(state: GameState, seat: int, actions: Sequence[Action], out: TextIO, style: Style) -> Action | None:
    """Ask the human for an action until a legal one is given; ``None`` to quit."""
    print(file=out)
    print(styled_table(state.view(seat), style), file=out)
    print("Your options:", file=out)
    for number, action in enumerate(actions, 1):
        print(f"  {number:>2}) {_action_text(state, action, style)}", file=out)
    while True:
        out.flush()
        try:
            text = input("Your move (number, action, help or quit): ")
        except EOFError:
            print(file=out)
            return None
        if not interactive():
            print(text, file=out)  # echo scripted input, so the transcript reads like a session
        answer = text.strip()
        if not answer:
            continue
        lowered = answer.lower()
        if lowered in ("q", "quit", "exit"):
            return None
        if lowered in ("h", "help", "?"):
            print(_HELP, file=out)
            continue
        if lowered in ("t", "table"):
            print(styled_table(state.view(seat), style), file=out)
            for number, action in enumerate(actions, 1):
                print(f"  {number:>2}) {_action_text(state, action, style)}", file=out)
            continue
        if answer.isdecimal():  # not isdigit: int() rejects "²"
            # No list is a million long, and int() refuses thousands of digits.
            choice = int(answer) if len(answer) <= 6 else 0
            if 1 <= choice <= len(actions):
                return actions[choice - 1]
            shown = answer if len(answer) <= 20 else answer[:20] + "..."
            choose = "the only option is 1" if len(actions) == 1 else f"choose 1 to {len(actions)}"
            print(f"There is no option {shown}: {choose}.", file=out)
            continue
        try:
            action = _read(answer)
        except NotationError as error:
            print(
                f"I do not understand {excerpt(answer)}: {style.in_text(str(error))}. Type help for the syntax.",
                file=out,
            )
            continue
        if action in actions:
            return action
        try:
            play(state, action)
        except IllegalActionError as error:
            # The public reason (no hidden card), said to you and naming your card, as the
            # browser table says it.
            print(f"That is not allowed: {addressed(error, state.current_player, style)}", file=out)
        else:  # pragma: no cover - the legal list is authoritative
            return action


def _play(
    seed: Seed,
    seat: int,
    specs: Sequence[str],
    rules: Rules,
    out: TextIO,
    style: Style,
    save: str | None = None,
    resumed: Game | None = None,
) -> int:
    game = [Game.new(seed, rules=rules) if resumed is None else resumed]
    try:
        return _play_game(seat, specs, out, style, save, game)
    except KeyboardInterrupt:
        # Ctrl-C saves the game played so far, as quit and Ctrl-D do; main says "Interrupted."
        if save is not None:
            print(file=out)
            save_game(save, game[0], out)
        raise


def _opponents(specs: Sequence[str]) -> str:
    """Who the person plays against (and with): the level and what it is like, or the bots."""
    if len(set(specs)) == 1 and specs[0] in LEVELS:
        level = LEVELS[specs[0]]
        return f"You play against the {level.name} level; your partner plays it too. {level.description}"
    return f"The bots: {lineup(specs)} (your seat's bot is you)."


def _bot_turn(game: list[Game], mover: int, bots: Sequence[Bot], spec: str, out: TextIO) -> Action | Exception:
    """Ask the bot of ``mover`` and play its answer into ``game[0]``, returning the action; on
    a terminal, say it is thinking while it does. What it answers that cannot be played, or
    anything it raises, comes back as an error (the game is as it was) instead of ending the
    person's game."""
    thinking = is_terminal(out)
    if thinking:  # cleared at once when the bot has answered
        print(f"  {SEAT_NAMES[mover]} is thinking...", end="", file=out, flush=True)
    # A bot that reads the public history (the expert level) is handed its information
    # state, as the arena hands it; the others their view.
    player = Player.of(bots[mover])
    state = game[0].state
    try:
        seen = game[0].info_state(mover) if player.reads_history else state.view(mover)
        action, game[0] = play_bot(game[0], player, seen, spec)
    except Exception as error:  # its answer refused (named by play_bot), or the bot itself failed
        if isinstance(error, PersianRummyError) and str(error).startswith("the bot "):
            return error
        return PersianRummyError(f"the bot {spec} at seat {mover} ({SEAT_NAMES[mover]}) failed: {error!r}")
    finally:
        if thinking:
            print("\r\x1b[K", end="", file=out, flush=True)
    return action


def _saved_after_a_failure(
    failure: Exception, game: Game, seat: int, specs: Sequence[str], save: str | None, out: TextIO
) -> int:
    """Save the game a bot failed in (to ``save``, else to a new file here) and say how to go on."""
    print(f"\nThe game stopped: {failure}.", file=out)
    path = save if save is not None else _fresh_path(game.seed)
    save_game(path, game, out)
    words = ["persian-rummy", "play", "--resume", path]
    if seat != _DEFAULT_SEAT:
        words += ["--seat", str(seat)]
    print(f"Your game is not lost: {shlex.join([*words, '--bot', *specs])} goes on with it "
          "(give --bot the bots to play instead).", file=out)  # fmt: skip
    return 2


def _fresh_path(seed: Seed) -> str:
    # A file name in the current folder that no file has yet.
    stem = f"persian-rummy-{seed}" if isinstance(seed, int) and seed >= 0 else "persian-rummy-game"
    path, number = f"{stem}.prr", 1
    while os.path.exists(path):
        number += 1
        path = f"{stem}-{number}.prr"
    return path


def _play_game(seat: int, specs: Sequence[str], out: TextIO, style: Style, save: str | None, game: list[Game]) -> int:
    # ``game[0]`` is the game as it stands: every action is in it once it has been played.
    seed = game[0].seed
    bots = bots_for(specs)
    print(style.bold(f"Persian Rummy: you are {SEAT_NAMES[seat]} (seat {seat}); your partner is "
                     f"{SEAT_NAMES[partner_of(seat)]}."), file=out)  # fmt: skip
    print(f"Seed {seed}: {again(seed, seat, specs, game[0].rules)} deals this game again.", file=out)
    print(_opponents(specs), file=out)
    print("Type help at the prompt for the syntax; quit (or Ctrl-D, or Ctrl-C) leaves.", file=out)
    while True:
        state = game[0].state
        print(file=out)
        going_on = " (going on with the saved game)" if game[0].deals[-1] else ""
        print(
            style.bold(
                f"== Deal {state.deal_number} of {state.rules.deals}: {SEAT_NAMES[state.dealer]} deals =={going_on}"
            ),
            file=out,
        )
        while state.phase.is_live:
            mover = state.current_player
            if mover == seat:
                action = _ask(state, seat, legal_actions(state), out, style)
                if action is None:
                    if save is not None:
                        save_game(save, game[0], out)
                    print("Goodbye.", file=out)
                    return 0
            else:
                answer = _bot_turn(game, mover, bots, seat_specs(specs)[mover], out)
                if not isinstance(answer, Action):
                    return _saved_after_a_failure(answer, game[0], seat, specs, save, out)
                action = answer
            if mover == seat:
                game[0] = game[0].play(action)
            state, before = game[0].after, state  # the deal's last state, if the action ended it
            if mover == seat:
                print(f"  You {describe(before, action, state, style, you=True)}", file=out)
            else:
                print(f"  {SEAT_NAMES[mover]} {describe(before, action, state, style, reveal=False)}", file=out)
        print(f"  {round_end_text(state)}", file=out)
        print(
            "  Hands left: " + "; ".join(f"{SEAT_NAMES[s]} {style.cards(h)}" for s, h in enumerate(state.hands)),
            file=out,
        )
        print(score_sheet(state, style), file=out)
        if game[0].is_over:
            print(style.bold(f"{result_text(state)}."), file=out)
            if save is not None:
                save_game(save, game[0], out)
            return 0
