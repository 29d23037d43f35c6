"""Random-game soak (R1-R27): 1,200 complete games of uniformly random legal actions, the
knob grid in turn, every invariant of ``conformance`` checked after every action, and a
random illegal action tried from every state. A bigger soak: ``python benchmarks/soak.py``.
"""

from __future__ import annotations

import pytest
from conformance import KNOB_GRID, MAX_ACTIONS_PER_ROUND, play_game, soak, soak_rules

GAMES = 1_200  # each of the 48 knob sets 25 times


# About a minute on two cores: the thorough profile's (CI's), not a contributor's default run.
@pytest.mark.thorough
def test_soak_of_random_games_keeps_every_invariant() -> None:
    report = soak(GAMES, workers=2)
    assert report.games == GAMES
    # Every knob combination was played, rounds ended both ways, and none overran R21's bound.
    assert report.knob_sets == frozenset(KNOB_GRID)
    assert report.went_out > 0 and report.exhausted > 0
    assert 0 < report.longest_round <= MAX_ACTIONS_PER_ROUND
    assert report.deals == sum(soak_rules(seed).deals for seed in range(GAMES))


def test_soak_plays_every_legal_action_from_every_state() -> None:
    # A smaller soak in this process that also plays every legal action from every state: ten
    # games, every fifth knob set of the grid (5 is prime to the grid's 2s and 3s, so every
    # knob takes each of its values).
    for seed in range(0, len(KNOB_GRID), 5):
        rules = KNOB_GRID[seed]
        final, deals = play_game(seed, rules, check_all=True, thorough=True)
        assert final.phase.name == "GAME_OVER" and len(deals) == rules.deals
