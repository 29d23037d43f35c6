"""Play a whole game between bots and print the score sheet of each deal.

    python examples/play_bots.py [SEED] [BOT ...]

BOT is a bot name for ``persian_rummy.bots.make_bot`` ("random", "greedy", "mc"): one for
every seat, or one per seat in the order North, East, South, West.
"""

import sys

from persian_rummy import Game, score_round, winner
from persian_rummy.bots import make_bot

TEAMS = ("North-South", "East-West")

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
names = sys.argv[2:] or ["greedy"]
if len(names) == 1:
    names = names * 4
if len(names) != 4:
    sys.exit(f"give one bot name for every seat, or four (North, East, South, West), not {len(names)}")
# Each seat gets its own bot, seeded from the game seed and the seat.
bots = [make_bot(name, seed * 4 + seat) for seat, name in enumerate(names)]

# The game deals each deal from the seed: when one ends, the next seat to the left deals the
# next (R7), shuffled by deal_seed(seed, deal number), and the scores carry over.
game = Game.new(seed)
while not game.is_over:
    # Each bot sees only its own seat's view (R27) and answers with a legal action.
    seat = game.state.current_player
    game = game.play(bots[seat](game.view(seat)))
    ended = game.after  # the state the action led to: a finished deal's last, before the next
    if ended.is_deal_over:
        print(
            f"Deal {ended.deal_number}:",
            "nobody went out" if ended.went_out is None else f"seat {ended.went_out} went out",
        )
        for score in score_round(ended):  # itemised: melded, laid off, doubles, in hand, bonus
            print(f"  {score}")

team = winner(game.state)
print("Final:", game.state.scores, "-", "a draw" if team is None else f"{TEAMS[team]} win")
