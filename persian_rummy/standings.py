"""Standings of a round robin: every bot's results against all the others and a rating.

:func:`~persian_rummy.arena.round_robin` returns :class:`Standings`: its matches, and per bot
the games, wins, draws, share of games won (95% Wilson interval), mean margin per game and a
rating on the Elo scale (a Bradley-Terry fit of all the games, a draw counting half a win to
each side, anchored at 0 for the first bot; 400 rating points are odds of 10 to 1).

>>> from persian_rummy.arena import GameResult, MatchResult
>>> won = GameResult(0, False, (60, 10), 100)
>>> lost = GameResult(1, False, (10, 60), 100)
>>> standings = Standings((MatchResult(("a", "b"), (won, won, won, lost)),))
>>> [(row.name, row.wins, round(row.rating)) for row in standings.rows]
[('a', 3, 0), ('b', 1, -147)]
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Final, Protocol

import attrs

__all__ = ["Standing", "Standings", "bradley_terry", "wilson_interval"]

#: The normal quantile of a two-sided 95% interval.
Z95: Final = 1.959963984540054
_PRIOR: Final = 0.5  # a virtual draw between every pair that played: no infinite rating
_ROUNDS: Final = 500


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); ``(0.0, 1.0)`` for no trials.

    >>> low, high = wilson_interval(90, 100)
    >>> round(low, 3), round(high, 3)
    (0.826, 0.945)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At a rate of 0 or 1 the bound is exactly 0 or 1; rounding must not move it past the rate.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


class _Match(Protocol):
    """What the standings read of a :class:`~persian_rummy.arena.MatchResult`."""

    @property
    def sides(self) -> tuple[str, str]: ...
    @property
    def games(self) -> Sequence[object]: ...
    @property
    def wins(self) -> tuple[int, int]: ...
    @property
    def draws(self) -> int: ...
    @property
    def margin(self) -> tuple[float, float]: ...


def bradley_terry(names: Sequence[str], scores: dict[tuple[str, str], tuple[float, int]]) -> dict[str, float]:
    """Elo-scale ratings from ``scores[(a, b)] = (a's wins plus half its draws, games)``,
    fitted by the minorise-maximise iteration, the first name at 0.

    >>> ratings = bradley_terry(["a", "b"], {("a", "b"): (7.5, 10)})
    >>> ratings["a"], round(ratings["b"])
    (0.0, -170)
    """
    strength = dict.fromkeys(names, 1.0)
    won = dict.fromkeys(names, 0.0)
    games: dict[tuple[str, str], float] = {}
    for (first, second), (wins, count) in scores.items():
        won[first] += wins + _PRIOR
        won[second] += count - wins + _PRIOR
        for pair in ((first, second), (second, first)):
            games[pair] = games.get(pair, 0.0) + count + 2 * _PRIOR
    for _ in range(_ROUNDS):
        updated = {}
        for name in names:
            total = sum(
                count / (strength[name] + strength[other]) for (one, other), count in games.items() if one == name
            )
            updated[name] = won[name] / total if total else strength[name]
        strength = updated
    anchor = strength[names[0]] if names else 1.0
    return {name: 400.0 * math.log10(strength[name] / anchor) for name in names}


@attrs.frozen
class Standing:
    """One bot's row of the standings.

    >>> from persian_rummy.arena import round_robin
    >>> best = round_robin(["greedy", "random"], games=4, seed=1).rows[0]
    >>> best.name, best.games, best.rating    # the first bot's rating is 0 on the Elo scale
    ('greedy', 4, 0.0)
    """

    #: The bot's label (as in its matches).
    name: str
    #: Games played, won and drawn, against all the others.
    games: int
    wins: int
    draws: int
    #: Its mean margin per game (its total minus the other side's).
    margin: float
    #: Its rating on the Elo scale (the first bot at 0).
    rating: float

    @property
    def win_rate(self) -> tuple[float, float, float]:
        """The share of games won and its 95% Wilson interval.

        >>> Standing("a", 4, 3, 0, 10.0, 0.0).win_rate[0]
        0.75
        """
        low, high = wilson_interval(self.wins, self.games)
        return (self.wins / self.games if self.games else 0.0), low, high


@attrs.frozen
class Standings:
    """The matches of a round robin and every bot's :class:`Standing`, best rating first.
    Iterating gives the matches (as the list ``round_robin`` used to return).

    >>> from persian_rummy.arena import round_robin
    >>> standings = round_robin(["greedy", "random", "mc"], games=2, seed=1)
    >>> len(standings.matches), [row.name for row in standings.rows][-1]
    (3, 'random')
    """

    #: Every match, pair by pair.
    matches: tuple[_Match, ...]

    @property
    def rows(self) -> tuple[Standing, ...]:
        """A :class:`Standing` per bot, best rating first."""
        names: list[str] = []
        for match in self.matches:
            names += [name for name in match.sides if name not in names]
        totals = {name: [0, 0, 0, 0.0] for name in names}
        scores: dict[tuple[str, str], tuple[float, int]] = {}
        for match in self.matches:
            first, second = match.sides
            count, draws = len(match.games), match.draws
            margin = match.margin[0] * count
            for side, name in enumerate(match.sides):
                row = totals[name]
                row[0] += count
                row[1] += match.wins[side]
                row[2] += draws
                row[3] += margin if side == 0 else -margin
            wins, games = scores.get((first, second), (0.0, 0))
            scores[(first, second)] = (wins + match.wins[0] + draws / 2, games + count)
        ratings = bradley_terry(names, scores)
        rows = [
            Standing(name, int(row[0]), int(row[1]), int(row[2]), row[3] / row[0] if row[0] else 0.0, ratings[name])
            for name, row in totals.items()
        ]
        return tuple(sorted(rows, key=lambda row: -row.rating))

    def table(self) -> str:
        """The standings as a text table."""
        rows = self.rows
        width = max([4, *(len(row.name) for row in rows)])
        lines = [f"{'bot':<{width}}  games  wins  draws  win rate  95% CI          margin  rating"]
        for row in rows:
            rate, low, high = row.win_rate
            lines.append(
                f"{row.name:<{width}}  {row.games:>5}  {row.wins:>4}  {row.draws:>5}  {rate:>8.3f}  "
                f"[{low:.3f}, {high:.3f}]  {row.margin:>+6.1f}  {row.rating:>+6.0f}"
            )
        return "\n".join(lines)

    def __iter__(self) -> Iterator[_Match]:
        return iter(self.matches)

    def __len__(self) -> int:
        return len(self.matches)

    def __str__(self) -> str:
        return self.table()
