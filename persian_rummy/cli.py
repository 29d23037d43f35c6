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
import contextlib
import os
import re
import secrets
import shlex
import shutil
import sys
import textwrap
import time
import unicodedata
from collections.abc import Sequence
from statistics import fmean, pstdev
from typing import Final, TextIO

from persian_rummy import _train_command, _user_bots
from persian_rummy._bits import partner_of
from persian_rummy._version import __version__
from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards, Pass
from persian_rummy.arena import PlayedGame, derived_seed, play_game, wilson_interval
from persian_rummy.bots import BOTS, Bot
from persian_rummy.dealing import Seed, deal_seed, new_game, next_deal, shuffled_deck
from persian_rummy.engine import legal_actions, play
from persian_rummy.errors import (
    IllegalActionError,
    InvalidArgumentError,
    MissingExtraError,
    NotationError,
    PersianRummyError,
    excerpt,
)
from persian_rummy.presentation import Style, describe, result_text, round_end_text, score_sheet, styled_table
from persian_rummy.rules import PRESETS, Rules
from persian_rummy.scoring import score_round, winner
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES, GameState, Phase, team_of
from persian_rummy.view import PlayerView

__all__ = ["main", "visible"]


#: The width ``simulate`` wraps its turns to when the output is not a terminal, and the least.
_WIDTH: Final = 100
_NARROWEST: Final = 40


def _output_width(out: TextIO) -> int:
    """The width to wrap text written to ``out``: ``COLUMNS`` when it is set, else the
    terminal's width when ``out`` is a terminal, else 100 (a file or a pipe); never under 40."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit() and len(columns) < 6:
        width = int(columns)
    elif _is_terminal(out):
        width = shutil.get_terminal_size((_WIDTH, 24)).columns
    else:
        width = _WIDTH
    return max(width, _NARROWEST)


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed stream
        return False


def _wrap(text: str, indent: str, width: int = _WIDTH) -> str:
    return textwrap.fill(
        text, width=width, initial_indent=indent, subsequent_indent=indent + "      ", break_on_hyphens=False
    )


# --- simulate ----------------------------------------------------------------------------


def _seed(text: str) -> Seed:
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


def _bot_seed(seed: Seed) -> int:
    # The bots' seeds are whole numbers: a text seed is hashed to one, the same everywhere.
    return seed if isinstance(seed, int) else derived_seed("bots", seed)


def _bots_for(specs: Sequence[str], seed: Seed, rules: Rules | None = None) -> list[Bot]:
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
    # A name of BOTS, or a user's own bot as package.module:factory.
    return [_user_bots.build(spec, _bot_seed(seed) * 4 + seat, rules=rules) for seat, spec in enumerate(per_seat)]


def _lineup(specs: Sequence[str]) -> str:
    if len(specs) == 4:
        return ", ".join(f"{SEAT_NAMES[seat]} {spec}" for seat, spec in enumerate(specs))
    first, second = (specs[0], specs[0]) if len(specs) == 1 else (specs[0], specs[1])
    return f"{TEAM_NAMES[0]} {first} against {TEAM_NAMES[1]} {second}"


def _print_game(seed: Seed, specs: Sequence[str], rules: Rules, out: TextIO, style: Style) -> PlayedGame:
    print(style.bold(f"Persian Rummy, seed {seed}: {_lineup(specs)}; rules {rules}"), file=out)
    print("Partners sit opposite: North and South against East and West (R3).", file=out)
    print("Each turn ends with the number of cards its player then holds, in brackets.", file=out)
    turn: list[str] = []
    counter = [0]
    width = _output_width(out)

    # A take from the discard pile is told with the action that uses its card (R14).
    taken: list[tuple[GameState, Action, GameState]] = []

    def flush(seat: int, held: int) -> None:
        counter[0] += 1
        text = f"{counter[0]:>3}. {SEAT_NAMES[seat]}: " + "; ".join(turn) + f" [{held} card{'s' if held != 1 else ''}]"
        print(_wrap(text, "  ", width), file=out)
        turn.clear()

    def on_deal(state: GameState) -> None:
        if state.phase.is_live:
            counter[0] = 0
            print(file=out)
            print(
                style.bold(
                    f"== Deal {state.deal_number} of {state.rules.deals}: {SEAT_NAMES[state.dealer]} deals, "
                    f"{SEAT_NAMES[state.current_player]} plays first =="
                ),
                file=out,
            )
            for seat, hand in enumerate(state.hands):
                print(f"  {SEAT_NAMES[seat]:<6} {style.cards(hand)}", file=out)
            print(
                f"  Discard pile {style.cards(state.discard_pile)}, stock {len(state.stock)} cards",
                file=out,
            )
            return
        print(f"  {round_end_text(state)}", file=out)
        print(score_sheet(state, style), file=out)

    def on_action(before: GameState, action: Action, after: GameState) -> None:
        if isinstance(action, DrawDiscard) and after.must_meld is not None:
            taken.append((before, action, after))
            return
        if taken:
            turn.append(describe(*taken.pop(), style, used_by=action))
        turn.append(describe(before, action, after, style))
        if isinstance(action, Discard | Pass) or after.is_deal_over:
            seat = before.current_player
            flush(seat, len(after.hands[seat]))

    bots = _bots_for(specs, seed)
    game = play_game(bots, seed, rules=rules, on_deal=on_deal, on_action=on_action)
    print(file=out)
    print(style.bold(f"{result_text(game.final)}."), file=out)
    return game


def _progress(done: int, total: int, started: float, stream: TextIO) -> None:
    width = 30
    filled = width * done // total
    elapsed = time.perf_counter() - started
    rate = done / elapsed if elapsed > 0 else 0.0
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {rate:.1f}/s ")
    if done == total:
        stream.write("\n")
    stream.flush()


def _summarise(
    seed: int, games: int, specs: Sequence[str], rules: Rules, out: TextIO, progress: TextIO | None
) -> list[GameState]:
    finals: list[GameState] = []
    went_out = [0, 0]
    deals = [0]
    turns = [0]
    deal_wins = [0, 0]

    def on_deal(state: GameState) -> None:
        if not state.phase.is_live:
            deals[0] += 1
            if state.went_out is not None:
                went_out[team_of(state.went_out)] += 1
            first, second = (score.total for score in score_round(state))
            deal_wins[0] += first > second
            deal_wins[1] += second > first

    def on_action(before: GameState, action: Action, after: GameState) -> None:
        if isinstance(action, Discard | Pass) or after.is_deal_over:
            turns[0] += 1

    started = time.perf_counter()
    for number in range(games):
        bots = _bots_for(specs, seed + number)
        finals.append(play_game(bots, seed + number, rules=rules, on_deal=on_deal, on_action=on_action).final)
        if progress is not None:
            _progress(number + 1, games, started, progress)
    elapsed = time.perf_counter() - started
    wins = [sum(winner(final) == team for final in finals) for team in (0, 1)]
    draws = games - wins[0] - wins[1]
    print(f"{games} games (seeds {seed}-{seed + games - 1}), {_lineup(specs)}, rules {rules}", file=out)
    print(f"  {'':<30}{TEAM_NAMES[0]:>14}{TEAM_NAMES[1]:>14}", file=out)
    print(f"  {'games won':<30}" + "".join(f"{w:>8} ({100 * w / games:3.0f}%)" for w in wins), file=out)
    intervals = [wilson_interval(w, games) for w in wins]
    print(
        f"  {'win rate, 95% interval':<30}" + "".join(f"{f'[{low:.2f}, {high:.2f}]':>14}" for low, high in intervals),
        file=out,
    )
    print(f"  {'games drawn':<30}{draws:>14}", file=out)
    for team_label, values in (
        ("mean game score", [fmean(final.scores[team] for final in finals) for team in (0, 1)]),
        ("score standard deviation", [pstdev([final.scores[team] for final in finals]) for team in (0, 1)]),
    ):
        print(f"  {team_label:<30}" + "".join(f"{value:>14.1f}" for value in values), file=out)
    print(f"  {'deals won':<30}" + "".join(f"{w:>14}" for w in deal_wins), file=out)
    print(f"  {'went out (of ' + str(deals[0]) + ' deals)':<30}" + "".join(f"{w:>14}" for w in went_out), file=out)
    print(f"  mean turns per deal: {turns[0] / max(1, deals[0]):.1f}", file=out)
    print(f"  time: {elapsed:.2f} s ({games / elapsed if elapsed else 0:.1f} games/s)", file=out)
    return finals


# --- play --------------------------------------------------------------------------------


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
        if not _interactive():
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
            # The reason names no hidden card: what a server would show the whole table.
            print(f"That is not allowed: {style.in_text(error.reason)}", file=out)
        else:  # pragma: no cover - the legal list is authoritative
            return action


def _interactive() -> bool:
    isatty = getattr(sys.stdin, "isatty", None)
    return bool(isatty and isatty())


def _play(
    seed: Seed, seat: int, specs: Sequence[str], rules: Rules, out: TextIO, style: Style, save: str | None = None
) -> int:
    deals: list[list[Action]] = []
    try:
        return _play_game(seed, seat, specs, rules, out, style, save, deals)
    except KeyboardInterrupt:
        # Ctrl-C saves the game played so far, as quit and Ctrl-D do; main says "Interrupted."
        if save is not None:
            print(file=out)
            _save(save, seed, deals, rules, out)
        raise


def _play_game(
    seed: Seed,
    seat: int,
    specs: Sequence[str],
    rules: Rules,
    out: TextIO,
    style: Style,
    save: str | None,
    deals: list[list[Action]],
) -> int:
    # ``deals`` fills as the game is played: every action is in it once it has been played.
    bots = _bots_for(specs, seed)
    print(style.bold(f"Persian Rummy: you are {SEAT_NAMES[seat]} (seat {seat}); your partner is "
                     f"{SEAT_NAMES[partner_of(seat)]}."), file=out)  # fmt: skip
    print(f"Seed {seed}: persian-rummy play --seed {shlex.quote(str(seed))} deals this game again.", file=out)
    print("Type help at the prompt for the syntax; quit (or Ctrl-D, or Ctrl-C) leaves.", file=out)
    state = new_game(seed, rules=rules)
    while True:
        deals.append([])
        print(file=out)
        print(
            style.bold(f"== Deal {state.deal_number} of {rules.deals}: {SEAT_NAMES[state.dealer]} deals =="),
            file=out,
        )
        while state.phase.is_live:
            mover = state.current_player
            if mover == seat:
                action = _ask(state, seat, legal_actions(state), out, style)
                if action is None:
                    if save is not None:
                        _save(save, seed, deals, rules, out)
                    print("Goodbye.", file=out)
                    return 0
            else:
                action = bots[mover](state.view(mover))
            after = play(state, action)
            deals[-1].append(action)
            state, before = after, state
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
        if state.is_game_over:
            print(style.bold(f"{result_text(state)}."), file=out)
            if save is not None:
                _save(save, seed, deals, rules, out)
            return 0
        state = next_deal(state, game_seed=seed)


# --- replay ------------------------------------------------------------------------------

#: Character categories a terminal may act on instead of showing: controls (escape, bell,
#: carriage return), formats (bidirectional overrides), line and paragraph separators,
#: surrogates, private use and unassigned code points.
_INVISIBLE: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def visible(text: str) -> str:
    """``text`` from an untrusted source (a record's names and comments) made safe to print:
    every character a terminal could act on instead of showing is written as its escape.

    >>> print(visible("Ann\\x1b[2J\\x07 \\u202eevil"))
    Ann\\x1b[2J\\x07 \\u202eevil
    """
    if text.isprintable():
        return text
    return "".join(
        char
        if unicodedata.category(char) not in _INVISIBLE
        else char.encode("unicode_escape", "backslashreplace").decode("ascii")
        for char in text
    )


def _replay(path: str, out: TextIO, style: Style, *, step: bool) -> int:
    from persian_rummy import record as records

    try:
        with open(path, encoding="utf-8") as file:
            game = records.load(file)
        states: list[GameState | PlayerView] = list(game.views() if game.is_redacted else game.replay().states)
    except OSError as error:
        print(f"persian-rummy: cannot read {visible(path)}: {error.strerror}", file=sys.stderr)
        return 2
    except (PersianRummyError, UnicodeDecodeError) as error:
        print(f"persian-rummy: {visible(path)} is not a valid game record: {visible(str(error))}", file=sys.stderr)
        return 2
    steps: list[records.RecordedAction | None] = []
    for deal in game.deals:
        steps.append(None)
        steps.extend(deal.actions)
    players = [visible(name) for name in game.players]
    who = "" if game.viewer is None else f", as {players[game.viewer]} saw it"
    print(style.bold(f"Game record {visible(path)}{who}: {', '.join(players)}; rules {game.rules}"), file=out)
    previous: GameState | PlayerView | None = None
    number = 0
    for state, item in zip(states, steps, strict=False):
        if item is None:
            number = 0
            print(file=out)
            print(style.bold(f"== Deal {state.deal_number}: {SEAT_NAMES[state.dealer]} deals =="), file=out)
        else:
            number += 1
            words = str(item.action)
            if isinstance(previous, GameState) and isinstance(state, GameState):
                words = describe(previous, item.action, state, style)
            note = f"   ; {visible(item.comment)}" if item.comment else ""
            print(f"\n{number}. {players[item.seat]} {words}{note}", file=out)
        previous = state
        print(styled_table(state, style), file=out)
        if not state.phase.is_live:
            print(f"  {round_end_text(state)}", file=out)
            print(score_sheet(state, style), file=out)
        if step:
            try:
                answer = input("-- Enter: next action, q: quit -- ")
            except EOFError:
                print(file=out)
                return 0
            if not _interactive():
                print(answer, file=out)
            if answer.strip().lower() in ("q", "quit"):
                return 0
    last = states[-1] if states else None
    if last is not None and last.phase is Phase.GAME_OVER:
        print(file=out)
        print(style.bold(f"{result_text(last)}."), file=out)
    return 0


def _save(path: str, seed: Seed, deals: Sequence[Sequence[Action]], rules: Rules, out: TextIO) -> None:
    """Save a game played from ``seed`` as a game record (see :mod:`persian_rummy.record`)."""
    from persian_rummy import record as records

    game = records.GameRecord.from_actions(
        [(deal_seed(seed, number), actions) for number, actions in enumerate(deals, 1)], rules=rules
    )
    with open(path, "w", encoding="utf-8") as file:
        records.dump(game, file)
    print(f"Saved the game record to {path}.", file=out)


def _serve(host: str, port: int, db: str) -> int:
    """Run the table server (:func:`persian_rummy.server.serve`) if the [server] extra is installed."""
    try:
        from persian_rummy.server import serve
    except MissingExtraError as error:  # it says what to install
        print(f"persian-rummy: serve: {error}", file=sys.stderr)
        return 2
    except ImportError as error:
        print(
            f'persian-rummy: serve needs the [server] extra (pip install "persian-rummy[server]"): {error}',
            file=sys.stderr,
        )
        return 2
    serve(host, port, db)
    return 0


# --- main --------------------------------------------------------------------------------


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], name: str, summary: str, examples: str
) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` starts with ``summary`` and ends with ``examples``."""
    return commands.add_parser(
        name,
        help=summary,
        description=summary[0].upper() + summary[1:] + ".",
        epilog="examples:\n" + textwrap.indent(textwrap.dedent(examples).strip("\n"), "  "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="persian-rummy",
        description="Persian Rummy, the card game: bots play (simulate), you play (play), a saved game "
        "is shown again (replay), tables are served to browsers (serve). "
        "Each command's --help has examples.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    names = ", ".join(f"{name} (or {short})" if name == "montecarlo" else name for name, short in _bot_names())
    bot_help = (
        f"the bots: one for every seat, two (North-South, East-West) or four (by seat); "
        f"names: {names}, with knobs as in mc:samples=4, or your own as package.module:factory (default greedy)"
    )
    rules_help = "rules knobs as name=value, or a preset: " + ", ".join(PRESETS)
    colour_help = "colour the suits: auto (a terminal without NO_COLOR), always or never"
    seed_help = "a whole number or any text"

    sim = _command(
        commands,
        "simulate",
        "bots play; print one game turn by turn, or the statistics of many",
        """
        persian-rummy simulate --seed 1                  one game, turn by turn
        persian-rummy simulate --seed "friday" --save friday.prr
        persian-rummy simulate --games 100 --bot mc greedy   North-South mc against East-West greedy
        persian-rummy simulate --rules 500_rum --bot random
        """,
    )
    sim.add_argument("--seed", type=_seed, default=1, help=f"the seed of the (first) game, {seed_help} (default 1)")
    sim.add_argument("--games", type=int, default=1, help="how many games (default 1; more prints statistics)")
    sim.add_argument("--bot", nargs="+", default=["greedy"], metavar="NAME", help=bot_help)
    sim.add_argument("--rules", default="default", help=rules_help)
    sim.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto", help=colour_help)
    sim.add_argument("--no-progress", action="store_true", help="no progress bar for many games")
    sim.add_argument("--save", metavar="FILE", help="save the game (one game only) as a game record")

    game = _command(
        commands,
        "play",
        "play a game in the terminal against bots (your partner is a bot too)",
        """
        persian-rummy play                               South, against greedy bots, a random seed
        persian-rummy play --seed 42 --save mine.prr     the game is saved when it ends or you quit
        persian-rummy play --seat 0 --bot mc             North, against Monte Carlo bots
        At the prompt type an option's number, or the action (draw, take 2, meld 7s 7h 7d,
        lay off 9s on #0, discard Kd, pass); help shows the syntax, quit (or Ctrl-D, Ctrl-C) leaves.
        """,
    )
    game.add_argument(
        "--seed",
        type=_seed,
        default=None,
        help=f"the seed of the game, {seed_help} (default: a random one, printed to replay it)",
    )
    game.add_argument(
        "--seat", type=int, default=2, choices=range(4), help="your seat: 0 North, 1 East, 2 South (default), 3 West"
    )
    game.add_argument("--bot", nargs="+", default=["greedy"], metavar="NAME", help=bot_help)
    game.add_argument("--rules", default="default", help=rules_help)
    game.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto", help=colour_help)
    game.add_argument(
        "--save", metavar="FILE", help="save the game as a game record when it ends or you quit (quit, Ctrl-D, Ctrl-C)"
    )

    rep = _command(
        commands,
        "replay",
        "print a saved game record, or step through it",
        """
        persian-rummy replay mine.prr                    the whole game, each action and the table after it
        persian-rummy replay --step mine.prr             Enter shows the next action, q stops
        """,
    )
    rep.add_argument("file", help="a game record file")
    rep.add_argument("--step", action="store_true", help="wait for Enter after each action")
    rep.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto", help=colour_help)

    srv = _command(
        commands,
        "serve",
        "serve tables in the browser (needs the [server] extra)",
        """
        pip install "persian-rummy[server]"
        persian-rummy serve                              then open http://127.0.0.1:8000/
        persian-rummy serve --host 0.0.0.0 --port 8080 --db games.sqlite3
        """,
    )
    srv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    srv.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    srv.add_argument(
        "--db", default="persian-rummy.sqlite3", help="the SQLite file of the games (default persian-rummy.sqlite3)"
    )
    trn = _command(commands, "train", "train a player by self-play (needs the [train] extra)", _train_command.EXAMPLES)
    _train_command.add_arguments(trn, rules_help)
    return parser


def _bot_names() -> list[tuple[str, str]]:
    # Each bot once, with its other name if it has one (montecarlo, mc).
    seen: dict[object, list[str]] = {}
    for name, factory in BOTS.items():
        seen.setdefault(factory, []).append(name)
    return [(names[0], names[-1]) for names in seen.values()]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code.

    >>> main(["simulate", "--bot", "clever"])  # the message goes to standard error
    2
    """
    parser = _parser()
    args = parser.parse_args(argv)
    out = sys.stdout
    if args.command == "serve":
        return _serve(args.host, args.port, args.db)
    style = Style.for_stream(out, getattr(args, "color", "never"))  # train has no --color
    try:
        if args.command == "replay":
            return _replay(args.file, out, style, step=args.step)
        if args.command == "train":
            return _train_command.run(args, list(sys.argv[1:] if argv is None else argv))
        rules = Rules.parse(args.rules)
        _bots_for(args.bot, 0, rules)  # check the names (and the rules they play) before anything is printed
        if args.command == "play":
            seed = _random_seed() if args.seed is None else args.seed
            return _play(seed, args.seat, args.bot, rules, out, style, args.save)
        if args.games < 1:
            raise InvalidArgumentError(f"--games must be at least 1, not {args.games}")
        if args.games == 1:
            game = _print_game(args.seed, args.bot, rules, out, style)
            if args.save is not None:
                _save(args.save, args.seed, game.deals, rules, out)
        else:
            if args.save is not None:
                raise InvalidArgumentError("--save records one game: leave out --games or give --games 1")
            if not isinstance(args.seed, int):
                raise InvalidArgumentError(
                    f"--games {args.games} plays the seeds from --seed on (1, 2, 3, ...): "
                    f"give a whole-number --seed, not {excerpt(args.seed)}"
                )
            progress = None if args.no_progress or not sys.stderr.isatty() else sys.stderr
            _summarise(args.seed, args.games, args.bot, rules, out, progress)
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
    return 0
