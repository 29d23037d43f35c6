"""Show the legal draws of a position, including draws from deep in the discard pile.

    python examples/legal_draws.py

Any card of the spread discard pile may be taken, with every card above it (R13), but only
if the card chosen can be melded or laid off at once (R14).
"""

from persian_rummy import DrawDiscard, GameState, legal_actions, legal_draws, play

# East (seat 1, first to play) holds a spade run in the making and a pair of queens.
state = GameState.from_position(
    hands=["2c 3c", "5s 6s Qh Qd 9d", "Kh Kc", "4h 4d"],
    discard_pile="4s Ks 9c Qc 2h 7s",  # bottom to top: 7s is the top card
    melds=["Ts@0 Js@0 Qs@0"],  # North's run on the table: East may lay off on it too (R16)
    dealer=0,
)

print("Discard pile, bottom to top:", " ".join(f"{i}:{card}" for i, card in enumerate(state.discard_pile)))
print("East holds:", state.hand)
for draw in legal_draws(state):
    if isinstance(draw, DrawDiscard):
        taken = state.discard_pile[draw.index :]
        after = play(state, draw)
        uses = ", ".join(str(action) for action in legal_actions(after))
        print(f"  {draw}: takes {' '.join(map(str, taken))}; the {taken[0]} must be used now: {uses}")
    else:
        print(f"  {draw}: the top card of the stock")
