"""A minimal custom bot, and a short match against the library's greedy bot.

python examples/custom_bot.py [GAMES]
"""

import sys

from persian_rummy import Action, Discard, LayOff, MeldCards, PlayerView, legal_actions
from persian_rummy.arena import run_match


def eager(view: PlayerView) -> Action:
    """Meld or lay off whenever possible, else draw from the stock (or take from the pile
    when that is the only legal draw), else throw the most valuable card (R22)."""
    actions = legal_actions(view)  # a bot sees only its view, and must answer from this list
    for action in actions:
        if isinstance(action, MeldCards | LayOff):
            return action
    discards = [action for action in actions if isinstance(action, Discard)]
    if discards:
        return max(discards, key=lambda action: action.card.points)
    return actions[0]  # the draw phase: draw from the stock, or the first legal alternative


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    # A bot is any function of the view: the arena plays it as it is at both of its seats.
    # Games come in pairs with the same cards, the sides trading seats (see run_match).
    result = run_match(eager, "greedy", games=games, seed="custom-bot", workers=1)
    print(result.table())
