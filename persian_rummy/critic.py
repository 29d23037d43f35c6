"""The critic: what a whole position is worth, for the search's sampled worlds (needs numpy).

The search (:class:`~persian_rummy.search.ExpertBot`) plays its rollouts in worlds it dealt
itself (:func:`~persian_rummy.worlds.determinize`), where every hand and the stock are known.
Where a rollout stops, the policy's value head reads only the seat to move's view; the
critic reads the whole sampled state and the head's estimate: the points and cards in each hand, how many of them
pair or run together, the jokers, what each team has melded this deal, the stock and the
pile, the deal and the scores so far (:func:`critic_features`). It is a small network (one
hidden layer) fitted on self-play of the shipped policy, where the result of every position
is known: it estimates what the rest of the game is worth to the team to move, in the value
head's units (each deal's margin over 100, and 1 for winning the game, -1 for losing it),
the margin already scored not counted.

The critic reads hidden cards, so it is for states the caller owns (a world the search dealt,
a finished game), never for a seat's real position. The shipped weights
(:func:`shipped_critic`) are a small file read without pickle.

>>> from persian_rummy import new_game
>>> value = shipped_critic().values([new_game(3)], [0.0])
>>> value.shape, bool(abs(value[0]) < 2)
((1,), True)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from persian_rummy._npz import read_arrays
from persian_rummy.cards import JOKER_INDEX
from persian_rummy.errors import InvalidArgumentError, PolicyFileError
from persian_rummy.hand import Hand
from persian_rummy.scoring import tally
from persian_rummy.state import GameState, Phase, team_of

__all__ = ["CRITIC_FEATURES", "Critic", "critic_features", "shipped_critic"]

_SEATS: Final = ("mover", "next", "partner", "last")
_SEAT_FEATURES: Final = ("points", "cards", "jokers", "pairs", "neighbours", "wild_points")
#: What :func:`critic_features` reads, in order: for each seat from the one to move (the
#: mover, the next, the partner, the last): the points in its hand over 100 (R22), its cards
#: over 14, its jokers, its ranks held twice or more over 7, its cards of one suit one or two
#: ranks apart over 7, its points in jokers and aces over 100; then for the mover's team and
#: the other, what it has melded and laid off this deal (doubles counted) over 100; the
#: deal's margin if it ended now over 100; the stock's cards over 27, the pile's over 20, the
#: pile's top card's points over 20; the deal the last; the scores' margin so far over 100,
#: and that margin where the deal is the last; whether the mover is still to draw; the policy's
#: value head's estimate (of the mover's view of the same state), and that where the deal is
#: the last.
CRITIC_FEATURES: Final = (
    *(f"{seat}_{name}" for seat in _SEATS for name in _SEAT_FEATURES),
    "ours_melded",
    "theirs_melded",
    "deal_margin",
    "stock",
    "pile",
    "pile_top",
    "last_deal",
    "banked",
    "banked_last_deal",
    "to_draw",
    "head",
    "head_last_deal",
)
_K: Final = len(CRITIC_FEATURES)
#: The largest a critic file may be, in bytes, so that a hostile file is bounded work.
_FILE_LIMIT: Final = 1 << 20
_VERSION: Final = 1
_ARRAYS: Final = ("mean", "scale", "hidden", "hidden_bias", "out", "out_bias")

Array = npt.NDArray[np.float64]


def _seat(hand: Hand) -> list[float]:
    """The features of one hand."""
    ranks: dict[int, int] = {}
    suits: dict[int, set[int]] = {}
    jokers = points = wild = 0
    for card in hand:
        points += card.points
        index = card.index
        if index == JOKER_INDEX:
            jokers += 1
            wild += card.points
            continue
        rank, suit = index % 13, index // 13  # 2 to the ace, in deck order
        ranks[rank] = ranks.get(rank, 0) + 1
        suits.setdefault(suit, set()).add(rank)
        if rank == 12:
            wild += card.points
    pairs = sum(1 for count in ranks.values() if count >= 2)
    neighbours = sum(1 for held in suits.values() for rank in held if rank + 1 in held or rank + 2 in held)
    return [points / 100, len(hand) / 14, float(jokers), pairs / 7, neighbours / 7, wild / 100]


def critic_features(state: GameState, head: float) -> Array:
    """The features :class:`Critic` reads of a whole state (every hand read: a state the
    caller owns), for the team of the seat to move (:data:`CRITIC_FEATURES`, in order), with
    ``head`` the policy's value head's estimate of the mover's view of it (0 without one).

    >>> from persian_rummy import new_game
    >>> features = critic_features(new_game(1), 0.25)
    >>> len(features) == len(CRITIC_FEATURES), float(features[CRITIC_FEATURES.index("stock")])
    (True, 1.0)
    """
    mover = state.current_player
    team = team_of(mover)
    row: list[float] = []
    for offset in range(4):
        row.extend(_seat(state.hands[(mover + offset) % 4]))
    scores = tally(state.melds, state.hands, went_out=None, rules=state.rules)
    ours, theirs = scores[team], scores[1 - team]
    row.append((ours.melded + ours.laid_off + ours.doubles) / 100)
    row.append((theirs.melded + theirs.laid_off + theirs.doubles) / 100)
    row.append((ours.total - theirs.total) / 100)
    row.append(len(state.stock) / 27)
    row.append(len(state.discard_pile) / 20)
    row.append(state.discard_pile[-1].points / 20 if state.discard_pile else 0.0)
    last = float(state.deal_number >= state.rules.deals)
    first, second = state.scores
    banked = (first - second if team == 0 else second - first) / 100
    row.extend([last, banked, banked * last, float(state.phase is Phase.DRAW), head, head * last])
    return np.array(row, dtype=np.float64)


class Critic:
    """A value of whole states: one hidden layer of tanh units over :func:`critic_features`
    (standardized by ``mean`` and ``scale``), then a linear output: what the rest of the game
    is worth to the team to move, in the value head's units. Raises
    :class:`~persian_rummy.PolicyFileError` for arrays of the wrong shapes or not finite.

    >>> import numpy as np
    >>> k = len(CRITIC_FEATURES)
    >>> zero = Critic(np.zeros(k), np.ones(k), np.zeros((k, 2)), np.zeros(2), np.zeros(2), 0.25)
    >>> from persian_rummy import new_game
    >>> zero.values([new_game(1)], [0.0]).tolist()
    [0.25]
    """

    __slots__ = ("hidden", "hidden_bias", "mean", "out", "out_bias", "scale")

    def __init__(
        self,
        mean: npt.ArrayLike,
        scale: npt.ArrayLike,
        hidden: npt.ArrayLike,
        hidden_bias: npt.ArrayLike,
        out: npt.ArrayLike,
        out_bias: npt.ArrayLike,
    ) -> None:
        arrays = [np.asarray(value, dtype=np.float64) for value in (mean, scale, hidden, hidden_bias, out, out_bias)]
        self.mean, self.scale, self.hidden, self.hidden_bias, self.out, self.out_bias = arrays
        width = self.hidden.shape[1] if self.hidden.ndim == 2 else -1
        shapes = ((_K,), (_K,), (_K, width), (width,), (width,), ())
        if width < 1 or any(array.shape != shape for array, shape in zip(arrays, shapes, strict=True)):
            raise PolicyFileError(
                f"a critic reads {_K} features through one hidden layer, not arrays of shapes "
                f"{[array.shape for array in arrays]}"
            )
        if not all(np.isfinite(array).all() for array in arrays) or not (self.scale > 0).all():
            raise PolicyFileError("a critic's arrays must be finite, its scales above 0")

    def evaluate(self, features: npt.ArrayLike) -> Array:
        """The values of rows of :func:`critic_features`."""
        rows = (np.atleast_2d(np.asarray(features, dtype=np.float64)) - self.mean) / self.scale
        return np.asarray(np.tanh(rows @ self.hidden + self.hidden_bias) @ self.out + self.out_bias, dtype=np.float64)

    def values(self, states: Sequence[GameState], heads: Sequence[float]) -> Array:
        """What the rest of the game is worth to the team to move in each state (whole
        states, each hand read), the margin already scored not counted; ``heads`` are the
        value head's estimates of the movers' views of them."""
        if len(states) != len(heads):
            raise InvalidArgumentError(
                f"a critic values as many states as it is given heads, not {len(states)} and {len(heads)}"
            )
        if not states:
            return np.zeros(0)
        return self.evaluate(
            np.stack([critic_features(state, float(head)) for state, head in zip(states, heads, strict=True)])
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the critic to ``path`` (an ``.npz`` of plain arrays, read back by :meth:`load`).

        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "critic.npz"
        >>> shipped_critic().save(path)
        >>> bool((Critic.load(path).hidden == shipped_critic().hidden).all())
        True
        """
        np.savez(
            path,
            version=np.array(_VERSION),
            features=np.array(CRITIC_FEATURES),
            **{name: getattr(self, name) for name in _ARRAYS},
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Critic:
        """The critic in the file at ``path``, read without pickle. Raises
        :class:`~persian_rummy.PolicyFileError` for a file that cannot be read, is too large,
        is not a critic file, or whose features or arrays are not this version's.

        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "bad.npz"
        >>> _ = path.write_bytes(b"not a zip")
        >>> Critic.load(path)
        Traceback (most recent call last):
        ...
        persian_rummy.errors.PolicyFileError: the critic file bad.npz is not an .npz archive of arrays
        """
        arrays = read_arrays(path, "critic", _ARRAYS, version=_VERSION, features=CRITIC_FEATURES, limit=_FILE_LIMIT)
        if any(array.dtype.kind != "f" for array in arrays.values()):
            raise PolicyFileError(f"the critic file {Path(path).name} holds arrays that are not of floats")
        return cls(*(arrays[name] for name in _ARRAYS))

    def __repr__(self) -> str:
        return f"Critic(<{_K} features, {self.hidden.shape[1]} hidden>)"


def shipped_critic() -> Critic:
    """The critic fitted on self-play that ships with the library (``policies/critic.npz``).

    >>> shipped_critic()
    Critic(<36 features, 16 hidden>)
    """
    return Critic.load(Path(__file__).parent / "policies" / "critic.npz")
