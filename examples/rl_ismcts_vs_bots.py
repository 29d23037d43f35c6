"""OpenSpiel's IS-MCTS against the library's bots, with the arena.

    python examples/rl_ismcts_vs_bots.py [GAMES] [SIMULATIONS] [BOT]

Plays GAMES games (in pairs dealt the same cards, the sides trading seats) between
OpenSpiel's IS-MCTS with SIMULATIONS simulations per move (random rollouts to the end of the
deal) and BOT (default greedy), and prints the arena's table.
"""

import functools
import sys

from persian_rummy.arena import BotFactory, run_match
from persian_rummy.openspiel import ISMCTSPlayer

games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
simulations = int(sys.argv[2]) if len(sys.argv) > 2 else 8
opponent = sys.argv[3] if len(sys.argv) > 3 else "greedy"

# A player for each seat of each game, from the seed the arena derives for that seat.
ismcts = BotFactory(functools.partial(ISMCTSPlayer, simulations=simulations), name=f"ismcts:{simulations}")
print(run_match(ismcts, opponent, games, seed="ismcts-example", workers=1).table())
