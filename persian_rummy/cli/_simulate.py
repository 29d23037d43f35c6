"""``persian-rummy simulate``: bots play; one game is printed turn by turn (wrapped to the
terminal's width) with a score sheet per deal, many games end with summary statistics."""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
from collections.abc import Sequence
from statistics import fmean, pstdev
from typing import Final, TextIO

from persian_rummy.actions import Action, Discard, DrawDiscard, Pass
from persian_rummy.arena import PlayedGame, play_game, wilson_interval
from persian_rummy.cli._options import (
    DEFAULT_BOTS,
    SEED_HELP,
    bots_for,
    command,
    guarded,
    lineup,
    output_width,
    rules_and_bots,
    save_game,
    seat_specs,
    seed_option,
    wrap,
)
from persian_rummy.dealing import Seed
from persian_rummy.errors import InvalidArgumentError, counted, excerpt
from persian_rummy.presentation import Style, describe, result_text, round_end_text, score_sheet
from persian_rummy.rules import Rules
from persian_rummy.scoring import score_round, winner
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES, GameState, team_of

#: The most games one ``simulate`` plays (a million games of the quick bots take hours).
MOST_GAMES: Final = 1_000_000


def add_parser(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parents: dict[str, argparse.ArgumentParser]
) -> None:
    """Add ``simulate`` to ``commands``."""
    sim = command(
        commands,
        "simulate",
        "bots play; print one game turn by turn, or the statistics of many",
        """
        persian-rummy simulate --seed 1                  one game, turn by turn
        persian-rummy simulate --seed "friday" --save friday.prr
        persian-rummy simulate --games 100 --bot mc greedy   North-South mc against East-West greedy
        persian-rummy simulate --rules 500_rum --bot random
        Without --bot, greedy bots play.
        """,
        [parents["players"], parents["colour"]],
    )
    sim.add_argument(
        "--seed", type=seed_option, default=1, help=f"the seed of the (first) game, {SEED_HELP} (default 1)"
    )
    sim.add_argument("--games", type=int, default=1, help="how many games (default 1; more prints statistics)")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar for many games")
    sim.add_argument("--save", metavar="FILE", help="save the game (one game only) as a game record")
    sim.set_defaults(handler=guarded(simulate), default_bots=list(DEFAULT_BOTS))


def simulate(args: argparse.Namespace, out: TextIO) -> int:
    """Play the games ``args`` asks for and print them (one) or their statistics (many)."""
    style = Style.for_stream(out, args.color)
    rules = rules_and_bots(args)
    if not 1 <= args.games <= MOST_GAMES:
        raise InvalidArgumentError(
            f"--games is 1-{MOST_GAMES:,} (more: several runs, each from its own --seed), not {args.games}"
        )
    if args.games == 1:
        played = _print_game(args.seed, args.bot, rules, out, style)
        if args.save is not None:
            save_game(args.save, played.game, out)
        return 0
    if args.save is not None:
        raise InvalidArgumentError("--save records one game: leave out --games or give --games 1")
    if not isinstance(args.seed, int):
        raise InvalidArgumentError(
            f"--games {args.games} plays the seeds from --seed on (1, 2, 3, ...): "
            f"give a whole-number --seed, not {excerpt(args.seed)}"
        )
    progress = None if args.no_progress or not sys.stderr.isatty() else sys.stderr
    _summarise(args.seed, args.games, args.bot, rules, out, progress)
    return 0


def _print_game(seed: Seed, specs: Sequence[str], rules: Rules, out: TextIO, style: Style) -> PlayedGame:
    width = output_width(out)
    header = f"Persian Rummy, seed {seed}: {lineup(specs)}; rules {rules}"
    print(style.bold(textwrap.fill(header, width=width, subsequent_indent="  ", break_on_hyphens=False)), file=out)
    print("Partners sit opposite: North and South against East and West (R3).", file=out)
    print("Each turn ends with the number of cards its player then holds, in brackets.", file=out)
    turn: list[str] = []
    counter = [0]

    # A take from the discard pile is told with the action that uses its card (R14).
    taken: list[tuple[GameState, Action, GameState]] = []

    def flush(seat: int, held: int) -> None:
        counter[0] += 1
        text = f"{counter[0]:>3}. {SEAT_NAMES[seat]}: " + "; ".join(turn) + f" [{held} card{'s' if held != 1 else ''}]"
        print(wrap(text, "  ", width), file=out)
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
                f"  Discard pile {style.cards(state.discard_pile)}, stock {counted(len(state.stock), 'card')}",
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

    bots = bots_for(specs)
    game = play_game(bots, seed, rules=rules, on_deal=on_deal, on_action=on_action, names=seat_specs(specs))
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
        bots = bots_for(specs)
        played = play_game(
            bots, seed + number, rules=rules, on_deal=on_deal, on_action=on_action, names=seat_specs(specs)
        )
        finals.append(played.final)
        if progress is not None:
            _progress(number + 1, games, started, progress)
    elapsed = time.perf_counter() - started
    wins = [sum(winner(final) == team for final in finals) for team in (0, 1)]
    draws = games - wins[0] - wins[1]
    print(f"{counted(games, 'game')} (seeds {seed}-{seed + games - 1}), {lineup(specs)}, rules {rules}", file=out)
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
