"""Monte-Carlo estimate: how often does the team that deals first win?

    python examples/monte_carlo.py [GAMES] [BOT]

Plays GAMES games between four copies of BOT (default greedy), the first dealer rotating
around the table, and reports the share of games won by the first dealer's team with a 95%
interval. The deal passes to the left (R7), so each team deals one of the two deals; the
first dealer's opponents play first in the first deal (R6).
"""

import sys

from persian_rummy import team_of, winner
from persian_rummy.arena import play_game, wilson_interval
from persian_rummy.bots import make_bot

games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
name = sys.argv[2] if len(sys.argv) > 2 else "greedy"

wins = draws = 0
for game in range(games):
    dealer = game % 4
    bots = [make_bot(name, game * 4 + seat) for seat in range(4)]
    team = winner(play_game(bots, seed=f"monte-carlo/{game}", dealer=dealer).final)
    if team is None:
        draws += 1
    elif team == team_of(dealer):
        wins += 1

# A draw counts as half a win for each team.
share = (wins + draws / 2) / games
low, high = wilson_interval(wins + draws / 2, games)
print(f"{games} games of {name} bots: the first dealer's team won {wins}, drew {draws}")
print(f"share {share:.3f}, 95% interval [{low:.3f}, {high:.3f}]")
