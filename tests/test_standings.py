"""The standings of a round robin (:mod:`persian_rummy.standings`): every bot's games, wins and
draws, the share of games won with its Wilson interval, and a Bradley-Terry rating on the Elo
scale, a draw counting half a win to each side (R26)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from persian_rummy.arena import round_robin
from persian_rummy.bots import GreedyBot
from persian_rummy.standings import bradley_terry, wilson_interval


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_contains_the_rate_and_stays_in_bounds(successes: int, trials: int) -> None:
    successes = min(successes, trials)
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_wilson_interval_reference_values() -> None:
    # Reference values of the Wilson score interval at 95%.
    assert [round(bound, 4) for bound in wilson_interval(0, 10)] == [0.0, 0.2775]
    assert [round(bound, 4) for bound in wilson_interval(50, 100)] == [0.4038, 0.5962]
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_round_robin_gives_standings() -> None:
    """Every bot's games, wins and a rating; the stronger bot rates higher (R26: draws count half)."""
    standings = round_robin(["random", "greedy", GreedyBot(4)], 4, workers=1, seed=2)
    assert len(standings) == 3 and len(list(standings)) == 3
    rows = {row.name: row for row in standings.rows}
    assert set(rows) == {"random", "greedy", "GreedyBot"}
    assert rows["random"].games == 8 and rows["random"].rating == min(row.rating for row in rows.values())
    assert rows["greedy"].rating > rows["random"].rating and rows["random"].wins <= 2
    assert sum(row.wins for row in rows.values()) + sum(row.draws for row in rows.values()) // 2 == 12
    table = standings.table().splitlines()
    assert table[0].split()[:3] == ["bot", "games", "wins"] and len(table) == 4 and str(standings) == standings.table()
    assert standings.rows[0].win_rate[1] <= standings.rows[0].win_rate[0] <= standings.rows[0].win_rate[2]


def test_bradley_terry_is_symmetric_and_anchored() -> None:
    ratings = bradley_terry(["a", "b", "c"], {("a", "b"): (5.0, 10), ("b", "c"): (8.0, 10), ("a", "c"): (8.0, 10)})
    assert ratings["a"] == 0.0 and abs(ratings["b"]) < 1e-6 and ratings["c"] < -150
    assert bradley_terry([], {}) == {}
