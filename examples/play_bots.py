"""Play a whole game between bots and print the score sheet of each deal.

    python examples/play_bots.py [SEED] [BOT ...]

BOT is a bot name for ``persian_rummy.bots.make_bot`` ("random", "greedy", "mc"): one for
every seat, or one per seat in the order North, East, South, West.
"""

import sys

from persian_rummy import new_game, next_deal, play, score_round, winner
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

state = new_game(seed)
while not state.is_game_over:
    if state.is_deal_over:
        # The next deal is dealt by the next seat to the left (R7), shuffled by
        # deal_seed(seed, deal number); the scores carry over.
        state = next_deal(state, game_seed=seed)
    # Each bot sees only its own seat's view (R27) and answers with a legal action.
    seat = state.current_player
    state = play(state, bots[seat](state.view(seat)))
    if state.is_deal_over:
        print(
            f"Deal {state.deal_number}:",
            "nobody went out" if state.went_out is None else f"seat {state.went_out} went out",
        )
        for score in score_round(state):  # itemised: melded, laid off, doubles, in hand, bonus
            print(f"  {score}")

team = winner(state)
print("Final:", state.scores, "-", "a draw" if team is None else f"{TEAMS[team]} win")
