"""Save a game to a record file, load it back and replay it state by state.

    python examples/replay_game.py [FILE]

Without FILE the record is written to a temporary file.
"""

import sys
import tempfile
from pathlib import Path

from persian_rummy import record
from persian_rummy.bots import GreedyBot, RandomBot

# Record a game while it is played: North-South random, East-West greedy.
bots = [RandomBot(1), GreedyBot(), RandomBot(3), GreedyBot()]
recorder = record.Recorder(players=["Ann", "Bob", "Cyd", "Dee"])
state = recorder.deal(seed=11)
while not state.is_game_over:
    if state.is_deal_over:
        state = recorder.deal()  # deal 2 is shuffled by deal_seed(11, 2), "11/2"
    else:
        seat = state.current_player
        state = recorder.play(bots[seat](state.view(seat)))

path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp()) / "game.prr"
with path.open("w", encoding="utf-8") as file:
    record.dump(recorder.record(), file)
print(f"saved {path} ({path.stat().st_size} bytes)")

# Loading checks every action; iterating the record replays every state in order.
with path.open(encoding="utf-8") as file:
    game = record.load(file)
states = list(game)
print(f"{len(game.deals)} deals, {sum(len(deal.actions) for deal in game.deals)} actions, {len(states)} states")
for deal in game.deals:
    first = deal.actions[:3]
    print(f"deal {deal.number}, dealt by seat {deal.dealer}: first actions {[str(item) for item in first]}")
print("final scores", states[-1].scores, "as recorded", game.scores)
assert states[-1].scores == game.scores
