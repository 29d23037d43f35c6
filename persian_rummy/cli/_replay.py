"""``persian-rummy replay``: print a saved game, or step through it with Enter."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from persian_rummy.cli._options import command, guarded, interactive
from persian_rummy.errors import PersianRummyError
from persian_rummy.presentation import Style, describe, result_text, round_end_text, score_sheet, styled_table, visible
from persian_rummy.state import SEAT_NAMES, GameState, Phase
from persian_rummy.view import PlayerView


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parents: dict[str, argparse.ArgumentParser]
) -> None:
    """Add ``replay`` to ``commands``."""
    rep = command(
        commands,
        "replay",
        "print a saved game record, or step through it",
        """
        persian-rummy replay mine.prr                    the whole game, each action and the table after it
        persian-rummy replay --step mine.prr             Enter shows the next action, q stops
        """,
        [parents["colour"]],
    )
    rep.add_argument("file", help="a game record file")
    rep.add_argument("--step", action="store_true", help="wait for Enter after each action")
    rep.set_defaults(handler=guarded(replay))


def replay(args: argparse.Namespace, out: TextIO) -> int:
    """Print the game record ``args`` names."""
    return _replay(args.file, out, Style.for_stream(out, args.color), step=args.step)


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
            if not interactive():
                print(answer, file=out)
            if answer.strip().lower() in ("q", "quit"):
                return 0
    last = states[-1] if states else None
    if last is not None and last.phase is Phase.GAME_OVER:
        print(file=out)
        print(style.bold(f"{result_text(last)}."), file=out)
    return 0
