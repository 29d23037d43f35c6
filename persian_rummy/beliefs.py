"""Beliefs: where the cards a seat has not seen are likely to lie, learned from self-play
(needs numpy).

A seat to move knows its hand, the table, the discard pile, how many cards each hand and the
stock hold, and the public history of the deal (R27). The cards it has not seen lie in the
other hands or in the stock. Some are known exactly: a card taken from the discard pile and
not played since stays in the taker's hand (R13; :func:`~persian_rummy.worlds.known_cards`).
The uniform sampler (:func:`~persian_rummy.worlds.determinize`) deals the others at random,
so each lies in a place with the probability of that place's share of the hidden places.

The others' choices say more. A seat that drew from the stock over a 7♥ on top of the pile
probably holds neither the 6♥ and 8♥ nor two other sevens (it would have taken it, R14); a
seat that threw the 8♥ probably kept nothing next to it; a card that could have been laid
off on the table for several of a seat's turns is probably not in that hand. A
:class:`BeliefModel` reads such counts from the history (:func:`card_features`) and gives
each unseen card a probability for each of its possible places (:meth:`BeliefModel.locations`):
a logistic (softmax) model, each place's odds its share of the hidden places times the
exponential of a weighted sum of features, the probabilities then scaled so that each place
expects as many cards as it holds. With all weights zero it is the uniform sampler's
marginals exactly. Its weights were fitted on self-play, where every position knows the true
deal (:func:`belief_examples`); the shipped ones (:func:`shipped_beliefs`) are a small file
read without pickle.

>>> from persian_rummy import info_after, new_game
>>> info = info_after(new_game(7), ["draw", "discard Jk"], seat=2)
>>> cards, probabilities = shipped_beliefs().locations(info)
>>> len(cards), probabilities.shape, bool(abs(probabilities.sum(axis=1) - 1).max() < 1e-9)
(47, (47, 5), True)
>>> float(probabilities[:, 2].max())  # the seat's own hand holds no unseen card
0.0
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from persian_rummy._greedy import greedy_choice
from persian_rummy._npz import read_arrays
from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards
from persian_rummy.cards import JOKER_INDEX, POINTS, Card
from persian_rummy.dealing import new_game
from persian_rummy.engine import legal_actions, play
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, PolicyFileError, excerpt
from persian_rummy.policy import NeuralBot, shipped_policy
from persian_rummy.state import GameState
from persian_rummy.view import InfoState, PlayerView
from persian_rummy.worlds import known_cards, unseen_cards

__all__ = [
    "FEATURES",
    "BeliefModel",
    "belief_examples",
    "card_features",
    "shipped_beliefs",
    "uniform_locations",
]

#: What :func:`card_features` measures for each card and each other seat, in order: a bias
#: (a hand against the stock), the card a joker, its points over 20 (R22), then, by that
#: seat: discards of its rank, of its suit one and two ranks away; stock draws over a pile top
#: of its rank, of its suit one or two away, and over one of its rank deeper in the pile's top
#: five; cards taken from the pile of its rank and of its suit one or two away; sets of its
#: rank melded and runs of its suit it would extend; turns the card could have been laid off
#: on the table, and at its last turn; cards known in the hand of its rank and of its suit one or two away; the
#: seat's turns over 10; the seat the viewer's partner; the seat's last discard and last stock
#: draw near the card (its rank or its suit one or two away); the seat's stock draws over 10;
#: points times turns; and the seat's next turn the viewer's (the seat just played).
FEATURES: Final = (
    "bias",
    "joker",
    "points",
    "discard_rank",
    "discard_suit_1",
    "discard_suit_2",
    "declined_rank",
    "declined_suit",
    "declined_deep_rank",
    "took_rank",
    "took_suit",
    "melded_rank",
    "melded_run",
    "could_lay_off",
    "could_lay_off_last",
    "known_rank",
    "known_suit",
    "turns",
    "partner",
    "last_discard_near",
    "last_declined_near",
    "stock_draws",
    "points_turns",
    "just_played",
)
_K: Final = len(FEATURES)
_INDEX: Final = {name: number for number, name in enumerate(FEATURES)}
#: The places a card can lie: seats 0-3 and the stock (the last column).
STOCK: Final = 4
_TYPES: Final = JOKER_INDEX + 1
#: The largest a belief file may be, in bytes, so that a hostile file is bounded work.
_FILE_LIMIT: Final = 1 << 20
_VERSION: Final = 1
#: Rounds of scaling that make each place expect as many cards as it holds.
_SCALINGS: Final = 20

Array = npt.NDArray[np.float64]


def _rank(index: int) -> int:
    return -1 if index == JOKER_INDEX else index % 13


def _suit(index: int) -> int:
    return -1 if index == JOKER_INDEX else index // 13


def _near(index: int, distance: int) -> tuple[int, ...]:
    """The card types of ``index``'s suit ``distance`` ranks away (none for a joker)."""
    if index == JOKER_INDEX:
        return ()
    rank, base = index % 13, index - index % 13
    return tuple(base + rank + step for step in (-distance, distance) if 0 <= rank + step < 13)


def _same_rank(index: int) -> tuple[int, ...]:
    """The card types of ``index``'s rank, itself included (the joker alone for a joker)."""
    if index == JOKER_INDEX:
        return (JOKER_INDEX,)
    return tuple(suit * 13 + index % 13 for suit in range(4))


def _near_any(index: int) -> set[int]:
    return {*_same_rank(index), *_near(index, 1), *_near(index, 2)}


def _extenders(meld: list[int]) -> tuple[int, ...]:
    """The card types that could be laid off on a meld of these card types (R16): another
    suit of a set of three, the fourth joker, or a run's next card at either end (ace high)."""
    if len(meld) >= 4 and (len(set(map(_rank, meld))) == 1):
        return ()
    if all(card == JOKER_INDEX for card in meld):
        return (JOKER_INDEX,) if len(meld) < 4 else ()
    ranks = {_rank(card) for card in meld}
    if len(ranks) == 1:
        return tuple(card for card in _same_rank(meld[0]) if card not in meld)
    low, high = min(meld), max(meld)
    return tuple(card for card, rank in ((low - 1, _rank(low) - 1), (high + 1, _rank(high) + 1)) if 0 <= rank < 13)


def _piles(info: InfoState) -> list[list[int]]:
    """The discard pile (card types, bottom first) before each event of the history, read
    back from the pile now: a discard put its card on top, a pile draw took the cards it
    shows (R13, R17)."""
    pile = [card.index for card in info.view.discard_pile]
    before: list[list[int]] = []
    for event in reversed(info.history):
        action = event.action
        if isinstance(action, Discard) and pile:
            pile.pop()
        elif isinstance(action, DrawDiscard):
            pile.extend(card.index for card in event.cards)
        before.append(list(pile))
    before.reverse()
    return before


def card_features(info: InfoState) -> Array:
    """The features of every card type for every seat, read from ``info``'s public history
    (:data:`FEATURES`): an array of shape ``(53, 4, len(FEATURES))``, by card index (52, the
    joker) and seat; the viewer's own seat is all zeros.

    Raises :class:`~persian_rummy.ArgumentTypeError` for anything but an
    :class:`~persian_rummy.InfoState`.

    >>> from persian_rummy import info_after, new_game
    >>> info = info_after(new_game(7), ["draw", "discard Jk"], seat=2)
    >>> features = card_features(info)
    >>> features.shape, float(features[52, 1, FEATURES.index("discard_rank")])  # seat 1 threw a joker
    ((53, 4, 24), 1.0)
    """
    if not isinstance(info, InfoState):
        raise ArgumentTypeError(f"beliefs read an InfoState, not {excerpt(info)}")
    view = info.view
    out = np.zeros((_TYPES, 4, _K))
    column = _INDEX
    piles = _piles(info)
    table: list[list[int]] = []
    turns = [0] * 4
    draws = [0] * 4
    last_discard: list[int | None] = [None] * 4
    last_declined: list[int | None] = [None] * 4
    for event, pile in zip(info.history, piles, strict=True):
        seat, action = event.seat, event.action
        if isinstance(action, DrawStock):
            draws[seat] += 1
            if pile:
                top = pile[-1]
                last_declined[seat] = top
                for card in _same_rank(top):
                    out[card, seat, column["declined_rank"]] += 1
                for card in (*_near(top, 1), *_near(top, 2)):
                    out[card, seat, column["declined_suit"]] += 1
                for deep in pile[-5:-1]:
                    for card in _same_rank(deep):
                        out[card, seat, column["declined_deep_rank"]] += 1
        elif isinstance(action, DrawDiscard):
            for taken in event.cards:
                for card in _same_rank(taken.index):
                    out[card, seat, column["took_rank"]] += 1
                for card in (*_near(taken.index, 1), *_near(taken.index, 2)):
                    out[card, seat, column["took_suit"]] += 1
        elif isinstance(action, MeldCards):
            meld = sorted(card.index for card in action.cards)
            table.append(meld)
            for card in _extenders(meld):
                out[card, seat, column["melded_rank" if len({_rank(c) for c in meld}) == 1 else "melded_run"]] += 1
        elif isinstance(action, LayOff):
            if 0 <= action.meld < len(table):
                table[action.meld] = sorted([*table[action.meld], action.card.index])
        elif isinstance(action, Discard):
            turns[seat] += 1
            thrown = action.card.index
            last_discard[seat] = thrown
            for card in _same_rank(thrown):
                out[card, seat, column["discard_rank"]] += 1
            for card in _near(thrown, 1):
                out[card, seat, column["discard_suit_1"]] += 1
            for card in _near(thrown, 2):
                out[card, seat, column["discard_suit_2"]] += 1
            out[:, seat, column["could_lay_off_last"]] = 0
            for meld in table:  # the cards this seat could have laid off this turn (R16)
                for card in _extenders(meld):
                    out[card, seat, column["could_lay_off"]] += 1
                    out[card, seat, column["could_lay_off_last"]] = 1
    known = known_cards(info)
    points = np.array(POINTS, dtype=np.float64) / 20
    for seat in range(4):
        if seat == view.seat:
            continue
        block = out[:, seat, :]
        block[:, column["bias"]] = 1
        block[JOKER_INDEX, column["joker"]] = 1
        block[:, column["points"]] = points
        for held in known[seat]:
            for card in _same_rank(held.index):
                block[card, column["known_rank"]] += 1
            for card in (*_near(held.index, 1), *_near(held.index, 2)):
                block[card, column["known_suit"]] += 1
        block[:, column["turns"]] = turns[seat] / 10
        block[:, column["partner"]] = float(seat == (view.seat + 2) % 4)
        for name, last in (("last_discard_near", last_discard[seat]), ("last_declined_near", last_declined[seat])):
            if last is not None:
                for card in _near_any(last):
                    block[card, column[name]] = 1
        block[:, column["stock_draws"]] = draws[seat] / 10
        block[:, column["points_turns"]] = points * turns[seat] / 10
        block[:, column["just_played"]] = float(seat == (view.seat - 1) % 4)
    out[:, view.seat, :] = 0
    return out


def _places(info: InfoState) -> tuple[list[Card], list[int | None], Array]:
    """The unseen cards in deck order, each one's known seat (``None`` where the history does
    not place it), and the hidden places each seat and the stock has for the others."""
    view = info.view
    seen = [*view.hand, *view.discard_pile]
    for meld in view.melds:
        seen.extend(meld.cards)
    unseen = unseen_cards(seen)
    known = known_cards(info)
    pinned: list[int | None] = [None] * len(unseen)
    room = np.zeros(5)
    for seat in range(4):
        if seat == view.seat:
            continue
        room[seat] = view.hand_sizes[seat] - len(known[seat])
        for card in known[seat]:
            for number, candidate in enumerate(unseen):
                if candidate == card and pinned[number] is None:
                    pinned[number] = seat
                    break
    room[STOCK] = view.stock_size
    return unseen, pinned, room


def _scaled(odds: Array, room: Array) -> Array:
    """``odds`` (one row a card, one column a place) scaled, row by row and column by column,
    until each row sums to 1 and each column to its place's ``room`` (iterative proportional
    fitting): each place then expects as many of the cards as it holds."""
    probabilities: Array = odds / odds.sum(axis=1, keepdims=True)
    for _ in range(_SCALINGS):
        totals = probabilities.sum(axis=0)
        probabilities *= np.divide(room, totals, out=np.zeros_like(room), where=totals > 0)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
    return probabilities


def _assemble(info: InfoState, free_odds: Callable[[list[Card], Array], Array]) -> tuple[tuple[Card, ...], Array]:
    unseen, pinned, room = _places(info)
    probabilities = np.zeros((len(unseen), 5))
    free = [number for number, seat in enumerate(pinned) if seat is None]
    for number, seat in enumerate(pinned):
        if seat is not None:
            probabilities[number, seat] = 1
    if free:
        cards = [unseen[number] for number in free]
        odds = free_odds(cards, room) * room
        probabilities[free] = _scaled(odds, room)
    return tuple(unseen), probabilities


def uniform_locations(info: InfoState) -> tuple[tuple[Card, ...], Array]:
    """The probability that each unseen card lies in each place under the uniform sampler
    (:func:`~persian_rummy.worlds.determinize` at the seat's own turn): the unseen cards in
    deck order, and for each a row of five (seats 0-3, then the stock). A card the history
    places (a card taken from the pile and still held, R13) is in its seat; each other lies
    in a place with the place's share of the hidden places.

    >>> from persian_rummy import InfoState, new_game
    >>> cards, probabilities = uniform_locations(InfoState.start(new_game(1), 0))
    >>> len(cards), [round(float(p), 3) for p in probabilities[0]]
    (48, [0.0, 0.146, 0.146, 0.146, 0.562])
    """
    if not isinstance(info, InfoState):
        raise ArgumentTypeError(f"beliefs read an InfoState, not {excerpt(info)}")
    return _assemble(info, lambda cards, room: np.ones((len(cards), 5)))


class BeliefModel:
    """A card-location model: one weight for each of :data:`FEATURES` (see the module's
    docstring). :meth:`locations` gives, for a seat's information state, the probability that
    each unseen card lies in each other hand or in the stock. All weights zero is the uniform
    sampler (:func:`uniform_locations`).

    Raises :class:`~persian_rummy.PolicyFileError` for weights that are not
    ``len(FEATURES)`` finite numbers.

    >>> from persian_rummy import InfoState, new_game
    >>> info = InfoState.start(new_game(1), 0)
    >>> zero = BeliefModel(np.zeros(len(FEATURES)))
    >>> bool(np.allclose(zero.locations(info)[1], uniform_locations(info)[1]))
    True
    """

    __slots__ = ("weights",)

    def __init__(self, weights: npt.ArrayLike) -> None:
        array = np.asarray(weights)
        if array.shape != (_K,) or array.dtype.kind not in "fi":
            raise PolicyFileError(f"a belief model has {_K} weights, not an array of shape {array.shape}")
        if not np.isfinite(array).all():
            raise PolicyFileError("a belief model's weights must be finite")
        self.weights: Array = array.astype(np.float64)

    def locations(self, info: InfoState) -> tuple[tuple[Card, ...], Array]:
        """The unseen cards of ``info``'s seat in deck order, and for each the probability
        that it lies in each place (a row of five: seats 0-3, then the stock). Each row sums
        to 1, a place with no hidden room (the seat's own hand, an empty stock, a hand whose
        cards the history all shows) has probability 0, and a card the history places (taken
        from the pile and still held, R13) has probability 1 in that seat.

        >>> from persian_rummy import info_after, new_game
        >>> info = info_after(new_game(3), ["draw", "discard 4d"], seat=0)
        >>> cards, probabilities = shipped_beliefs().locations(info)
        >>> bool(abs(probabilities.sum(axis=1) - 1).max() < 1e-9), float(probabilities[:, 0].sum())
        (True, 0.0)
        """
        if not isinstance(info, InfoState):
            raise ArgumentTypeError(f"beliefs read an InfoState, not {excerpt(info)}")
        logits = card_features(info) @ self.weights

        def odds(cards: list[Card], room: Array) -> Array:
            rows = np.ones((len(cards), 5))
            rows[:, :4] = np.exp(np.clip(logits[[card.index for card in cards]], -30, 30))
            return rows

        return _assemble(info, odds)

    def odds(self, info: InfoState) -> dict[Card, tuple[float, ...]]:
        """The weights :func:`~persian_rummy.worlds.determinize` deals ``info``'s unseen cards
        by (its ``odds``): for each unseen card the history does not place, its probability in
        each place (seats 0-3, then the stock) over that place's hidden room, so that the
        first card dealt lands in each place with the model's probability.

        >>> from persian_rummy import info_after, new_game
        >>> import random
        >>> from persian_rummy.worlds import determinize
        >>> info = info_after(new_game(3), ["draw", "discard 4d"], seat=0)
        >>> world = determinize(info, random.Random(1), odds=shipped_beliefs().odds(info))
        >>> world.view(0) == info.view
        True
        """
        cards, probabilities = self.locations(info)
        _, pinned, room = _places(info)
        per_room = np.divide(probabilities, room, out=np.zeros_like(probabilities), where=room > 0)
        return {
            card: tuple(float(weight) for weight in row)
            for card, seat, row in zip(cards, pinned, per_room, strict=True)
            if seat is None
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model to ``path`` (an ``.npz`` of plain arrays, read back by :meth:`load`).

        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "beliefs.npz"
        >>> shipped_beliefs().save(path)
        >>> bool((BeliefModel.load(path).weights == shipped_beliefs().weights).all())
        True
        """
        np.savez(path, version=np.array(_VERSION), features=np.array(FEATURES), weights=self.weights.astype(np.float64))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> BeliefModel:
        """The model in the file at ``path``, read without pickle. Raises
        :class:`~persian_rummy.PolicyFileError` for a file that cannot be read, is too large,
        is not a belief file, or whose features or weights are not this version's.

        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "bad.npz"
        >>> _ = path.write_bytes(b"not a zip")
        >>> BeliefModel.load(path)
        Traceback (most recent call last):
        ...
        persian_rummy.errors.PolicyFileError: the belief file bad.npz is not an .npz archive of arrays
        """
        arrays = read_arrays(path, "belief", ("weights",), version=_VERSION, features=FEATURES, limit=_FILE_LIMIT)
        return cls(arrays["weights"])

    def __repr__(self) -> str:
        return f"BeliefModel(<{_K} weights>)"


def shipped_beliefs() -> BeliefModel:
    """The model fitted on self-play that ships with the library (``policies/beliefs.npz``).

    >>> shipped_beliefs()
    BeliefModel(<24 weights>)
    """
    return BeliefModel.load(Path(__file__).parent / "policies" / "beliefs.npz")


#: One example of :func:`belief_examples`: the features of the free unseen cards (shape
#: ``(cards, 4, len(FEATURES))``), the places' hidden room (five), and each card's true place.
Example = tuple[Array, Array, npt.NDArray[np.int64]]


def _player(seed: int) -> Callable[[PlayerView], Action]:
    """A self-play seat: the shipped policy, or the greedy player, by the seed's parity."""
    if seed % 2:
        return NeuralBot(shipped_policy(), seed)
    return lambda view: greedy_choice(view, legal_actions(view))


def belief_positions(seed: int | str, games: int) -> Iterator[tuple[InfoState, GameState]]:
    """Every position of the first deal of ``games`` self-play games, as the seat to move's
    information state (at its own turn) and the true state. The games are dealt from
    ``seed``; each seat plays the shipped policy or the greedy player (drawn from ``seed``),
    so the same seed gives the same positions.

    >>> info, state = next(belief_positions("doc", 1))
    >>> info.seat == state.current_player
    True
    """
    if not isinstance(games, int) or isinstance(games, bool) or games < 0:
        raise InvalidArgumentError(f"games must be a whole number of at least 0, not {excerpt(games)}")
    draw = random.Random(f"beliefs {seed!r}")
    for game in range(games):
        state = new_game(f"{seed!r} {game}")
        players = [_player(draw.getrandbits(32)) for _ in range(4)]
        infos = [InfoState.start(state, seat) for seat in range(4)]
        while state.phase.is_live:
            mover = state.current_player
            yield infos[mover], state
            action = players[mover](infos[mover].view)
            state = play(state, action)
            if not state.phase.is_live:
                break
            infos = [info.update(action, state) for info in infos]


def belief_examples(seed: int | str, games: int, *, every: int = 1) -> Iterator[Example]:
    """Training examples for a :class:`BeliefModel` from :func:`belief_positions`: every
    ``every``-th position's features of its free unseen cards (those the history does not
    place), the hidden room of each place, and where each card truly lies (0-3 a seat,
    4 the stock). The same seed gives the same examples.

    >>> features, room, truth = next(belief_examples("doc", 1))
    >>> features.shape[1:], room.tolist(), bool((truth != 1).all())  # seat 1 plays first (R6)
    ((4, 24), [7.0, 0.0, 7.0, 7.0, 27.0], True)
    """
    if not isinstance(every, int) or isinstance(every, bool) or every < 1:
        raise InvalidArgumentError(f"every must be a whole number of at least 1, not {excerpt(every)}")
    for number, (info, state) in enumerate(belief_positions(seed, games)):
        if number % every:
            continue
        unseen, pinned, room = _places(info)
        free = [card for card, seat in zip(unseen, pinned, strict=True) if seat is None]
        truth = _true_places(state, info, free)
        yield card_features(info)[[card.index for card in free]], room, truth


def _true_places(state: GameState, info: InfoState, free: Sequence[Card]) -> npt.NDArray[np.int64]:
    """Where each of ``free`` lies in ``state``: a joker's copies fill the seats' free jokers
    (those not known) in seat order, then the stock."""
    known = known_cards(info)
    left = []
    for seat in range(4):
        hand = list(state.hands[seat]) if seat != info.seat else []
        for card in known[seat]:
            if card in hand:
                hand.remove(card)
        left.append(hand)
    places = []
    for card in free:
        for seat in range(4):
            if card in left[seat]:
                left[seat].remove(card)
                places.append(seat)
                break
        else:
            places.append(STOCK)
    return np.array(places, dtype=np.int64)
