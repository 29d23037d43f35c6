"""The ``persian-rummy`` command line (also ``python -m persian_rummy``).

``persian-rummy simulate --seed 1`` plays a whole game between random players and prints
every turn and the score sheet.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from persian_rummy.actions import Discard, DrawDiscard, DrawStock, LayOff, MeldCards, Pass
from persian_rummy.dealing import new_game, next_deal
from persian_rummy.engine import legal_actions, play
from persian_rummy.rules import PRESETS, Rules
from persian_rummy.scoring import score_round, winner
from persian_rummy.state import GameState, Phase

__all__ = ["main"]

SEAT_NAMES = ("North", "East", "South", "West")
TEAM_NAMES = ("North-South", "East-West")


def _describe(before: GameState, action: object, after: GameState) -> str:
    seat = before.current_player
    name = SEAT_NAMES[seat]
    if isinstance(action, DrawStock):
        return f"{name} draws from the stock"
    if isinstance(action, DrawDiscard):
        taken = before.discard_pile[action.index :]
        return f"{name} takes {' '.join(map(str, taken))} from the discard pile (must meld {taken[0]})"
    if isinstance(action, MeldCards):
        return f"{name} melds {' '.join(map(str, action.cards))}"
    if isinstance(action, LayOff):
        target = before.melds[action.meld]
        owner = SEAT_NAMES[target.owner]
        credit = "" if target.owner % 2 == seat % 2 else f" (credited to {TEAM_NAMES[seat % 2]})"
        return f"{name} lays off {action.card} on {owner}'s {' '.join(map(str, target.cards))}{credit}"
    if isinstance(action, Discard):
        return f"{name} discards {action.card}"
    if isinstance(action, Pass):
        return f"{name} passes"
    return f"{name}: {action}"  # pragma: no cover


def simulate(seed: int, rules: Rules, out: TextIO, *, verbose: bool = True) -> GameState:
    """Play one game between uniformly random players, printing it to ``out``."""
    rng = random.Random(seed)
    state = new_game(seed, rules=rules)
    while True:
        if verbose:
            print(f"== Deal {state.deal_number}: {SEAT_NAMES[state.dealer]} deals ==", file=out)
            for seat, hand in enumerate(state.hands):
                print(f"   {SEAT_NAMES[seat]:<5} {hand}", file=out)
            print(f"   discard pile: {' '.join(map(str, state.discard_pile))}", file=out)
        while state.phase.is_live:
            action = rng.choice(legal_actions(state))
            after = play(state, action)
            if verbose:
                print("   " + _describe(state, action, after), file=out)
                if not after.phase.is_live and after.went_out is not None:
                    print(f"   {SEAT_NAMES[after.went_out]} goes out!", file=out)
                elif not after.phase.is_live:
                    print("   The round ends without anyone going out.", file=out)
            state = after
        if verbose:
            print(f"-- Score sheet, deal {state.deal_number} --", file=out)
            for score in score_round(state):
                print(
                    f"   {TEAM_NAMES[score.team]:<12} melded {score.melded:>4}  laid off {score.laid_off:>4}  "
                    f"doubles {score.doubles:>4}  in hand {-score.in_hand:>5}  going out {score.going_out:>3}  "
                    f"= {score.total:>5}",
                    file=out,
                )
            print(f"   Totals: {TEAM_NAMES[0]} {state.scores[0]}, {TEAM_NAMES[1]} {state.scores[1]}", file=out)
        if state.phase is Phase.GAME_OVER:
            break
        state = next_deal(state, f"{seed}/{state.deal_number + 1}")
    if verbose:
        team = winner(state)
        print("== " + ("The game is a draw." if team is None else f"{TEAM_NAMES[team]} win.") + " ==", file=out)
    return state


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    parser = argparse.ArgumentParser(prog="persian-rummy", description="Persian Rummy, the card game.")
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play a whole game between random players and print it")
    sim.add_argument("--seed", type=int, default=1, help="the seed of the game (default 1)")
    sim.add_argument("--rules", default="default", help="rules knobs as name=value, or a preset: " + ", ".join(PRESETS))
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    simulate(args.seed, rules, sys.stdout)
    return 0
