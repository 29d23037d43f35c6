"""Shuffling and dealing: seeded, reproducible on every platform and Python version (R5-R7).

The shuffle is a Fisher-Yates shuffle driven by SHA-256 in counter mode, so a seed gives the
same deck everywhere, independent of :mod:`random`'s implementation:

>>> shuffled_deck(1)[:5]
(Card.parse('Jk'), Card.parse('Kc'), Card.parse('As'), Card.parse('3h'), Card.parse('2d'))
>>> new_game(1) == new_game(1) != new_game(2)
True
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import Final, TypeVar

import attrs

from persian_rummy._bits import check_dealer
from persian_rummy.cards import DECK, Card
from persian_rummy.errors import ArgumentTypeError, InvalidArgumentError, WrongPhaseError, counted, excerpt
from persian_rummy.limits import DEALS_LIMIT, SEED_BITS, TEXT_LIMIT, check_text
from persian_rummy.rules import Rules
from persian_rummy.state import PLAYERS, GameState, Phase

__all__ = ["DealStart", "deal_seed", "following_deal", "new_game", "next_deal", "shuffled_deck"]

Seed = int | str
T = TypeVar("T")
_DOMAIN: Final = b"persian-rummy shuffle v1\x00"
_WORDS: Final = struct.Struct(">4Q")
_TWO_64: Final = 1 << 64


def check_seed(seed: object) -> Seed:
    """``seed`` if it is a seed: a whole number of at most :data:`~persian_rummy.limits.SEED_BITS`
    bits or a text of at most :data:`~persian_rummy.limits.TEXT_LIMIT` characters (internal;
    :func:`shuffled_deck` and :func:`deal_seed` raise what it raises)."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ArgumentTypeError(f"a seed is a whole number or a text, not {excerpt(seed)}")
    if isinstance(seed, int) and seed.bit_length() > SEED_BITS:
        raise InvalidArgumentError(f"a whole-number seed has at most {SEED_BITS} bits, not {seed.bit_length()}")
    if isinstance(seed, str):
        check_text(seed, "a text seed")
    return seed


class SeededStream:
    """Unbiased random whole numbers from a seed: SHA-256 of the seed and a counter
    (internal; the same numbers on every platform)."""

    def __init__(self, seed: Seed, purpose: str = "deck") -> None:
        check_seed(seed)
        kind = b"i" if isinstance(seed, int) else b"s"
        self._key = _DOMAIN + purpose.encode() + b"\x00" + kind + str(seed).encode("utf-8") + b"\x00"
        self._counter = 0
        # The words of the current digest not used yet, last first (popped from the end).
        self._words: list[int] = []

    def _next_word(self) -> int:
        if not self._words:
            digest = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._words = list(_WORDS.unpack(digest))[::-1]  # four big-endian 64-bit words
        return self._words.pop()

    def below(self, bound: int) -> int:
        """A whole number in ``range(bound)``, every value equally likely (rejection sampling)."""
        limit = _TWO_64 - _TWO_64 % bound
        while True:
            word = self._next_word()
            if word < limit:
                return word % bound

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        """A shuffled copy of ``items`` (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)


def shuffled_deck(seed: Seed) -> tuple[Card, ...]:
    """The 56-card deck shuffled by ``seed`` (a whole number or a text), in the order it is
    dealt (see :meth:`GameState.from_deck`).

    >>> sorted(shuffled_deck("any text")) == sorted(DECK)
    True
    """
    return SeededStream(seed).shuffle(DECK)


def deal_seed(seed: Seed, deal_number: int) -> Seed:
    """The seed that shuffles deal ``deal_number`` of the game with seed ``seed``: the game's
    seed for the first deal, ``"seed/deal"`` for the later ones. A
    :class:`~persian_rummy.Game` deals every deal this way, and the arena, the command line,
    the environments and the table server play through one; ``next_deal(state,
    game_seed=seed)`` and :meth:`Recorder.deal <persian_rummy.record.Recorder.deal>` deal the
    same, so ``new_game(seed)`` followed by ``next_deal(state, game_seed=seed)`` plays the same
    game as ``persian-rummy simulate --seed SEED``.

    Every seed that :func:`shuffled_deck` takes is a game's seed whose every deal can be
    dealt: where ``"seed/deal"`` would pass the :data:`~persian_rummy.limits.TEXT_LIMIT`
    characters of a text seed (a text seed near the limit, a whole number of more than about
    650 bits), the later deals' seed is ``"sha256:DIGEST/deal"`` instead, ``DIGEST`` the
    SHA-256 of the game's seed (its kind and its text) in hexadecimal: 78 characters at most.
    A seed that is not one raises what :func:`shuffled_deck` raises; ``deal_number`` is a whole
    number from 1 to :data:`~persian_rummy.limits.DEALS_LIMIT`, else
    :class:`~persian_rummy.ArgumentTypeError` or :class:`~persian_rummy.InvalidArgumentError`.

    >>> deal_seed(1, 1), deal_seed(1, 2)
    (1, '1/2')
    >>> deal_seed("x" * 200, 2)[:15], len(deal_seed(2**4096 - 1, 1000))
    ('sha256:60438f68', 76)
    """
    check_seed(seed)
    if type(deal_number) is not int:
        raise ArgumentTypeError(f"R7: a deal number is a whole number, not {excerpt(deal_number)}")
    if not 1 <= deal_number <= DEALS_LIMIT:
        raise InvalidArgumentError(f"R7: a deal number is 1 to {DEALS_LIMIT}, not {excerpt(deal_number)}")
    if deal_number == 1:
        return seed
    text = f"{seed}/{deal_number}"
    if len(text) <= TEXT_LIMIT:
        return text
    kind = "i" if isinstance(seed, int) else "s"
    digest = hashlib.sha256(f"{kind}:{seed}".encode()).hexdigest()
    return f"sha256:{digest}/{deal_number}"


def new_game(seed: Seed, *, dealer: int = 0, rules: Rules = Rules()) -> GameState:
    """Start a game: shuffle the deck with ``seed`` and deal the first deal (R5-R6).

    The player left of the dealer is to draw. The same seed gives the same game everywhere.

    A seed makes a deal reproducible, not secret: whoever knows it knows the whole deck, and a
    player can find a small whole-number seed by trying seeds against their own seven cards.
    A server dealing real games should use a secret seed with enough entropy, such as
    ``new_game(secrets.token_hex(16))``, and keep it until the game is over (R27).

    >>> state = new_game(42, dealer=3)
    >>> state.current_player, state.deal_number, state.scores
    (0, 1, (0, 0))
    """
    check_dealer(dealer)  # before the shuffle
    return GameState.from_deck(shuffled_deck(seed), dealer=dealer, rules=rules)


@attrs.frozen
class DealStart:
    """What a deal starts from besides its deck: its number, its dealer and the scores
    carried into it (R4, R7, R25).

    >>> following_deal(new_game(1, dealer=3))
    DealStart(number=2, dealer=0, scores=(0, 0))
    """

    #: The deal's number: 1 for the first deal of a game (R7).
    number: int
    #: The seat that deals it (R4).
    dealer: int
    #: The two teams' scores before it (R25).
    scores: tuple[int, int]


def following_deal(state: GameState) -> DealStart:
    """R7, the one place it is written: the deal after ``state``'s is the next by number,
    dealt by the next seat clockwise, the scores carried over. :func:`next_deal`, a record's
    replay and its checks, and the OpenSpiel game ask it (the batched JAX engine writes the
    same in arrays, and its differential test holds it to this). It reads the state's fields
    only: whether the deal is over is the caller's question.

    >>> state = new_game(1, dealer=2, rules=Rules(deals=3))
    >>> following_deal(state)
    DealStart(number=2, dealer=3, scores=(0, 0))
    """
    return DealStart(state.deal_number + 1, (state.dealer + 1) % PLAYERS, state.scores)


def next_deal(state: GameState, seed: Seed | None = None, *, game_seed: Seed | None = None) -> GameState:
    """From a finished deal (``ROUND_OVER``), deal the next one; the deal passes clockwise
    (R7) and the scores carry over (:meth:`Game.play <persian_rummy.Game.play>` does this when
    a deal ends). Give one of:

    - ``game_seed``: the seed the game was started with (``new_game(game_seed)``); the next
      deal is shuffled by ``deal_seed(game_seed, number)`` (:func:`deal_seed`), as every whole game
      of the library is dealt;
    - ``seed``: the seed of this one deal's shuffle, chosen by the caller.

    Raises :class:`~persian_rummy.WrongPhaseError` while the deal is being played or once the
    game is over, and :class:`~persian_rummy.ArgumentTypeError` unless exactly one seed is
    given.

    >>> from persian_rummy import Rules, new_game, play, legal_actions
    >>> state = new_game(1, rules=Rules(deals=2))
    >>> while not state.is_deal_over:
    ...     state = play(state, legal_actions(state)[-1])
    >>> second = next_deal(state, game_seed=1)
    >>> second.deal_number, second.dealer, second.scores == state.scores
    (2, 1, True)
    >>> second == next_deal(state, deal_seed(1, 2)) == next_deal(state, "1/2")
    True
    """
    if (seed is None) == (game_seed is None):
        raise ArgumentTypeError(
            "next_deal takes one seed: game_seed= (the game's seed, as new_game was given) "
            "or the deal's own seed, not " + ("both" if seed is not None else "neither")
        )
    start = following_deal(state)
    if game_seed is not None:
        seed = deal_seed(game_seed, start.number)
    if state.phase is not Phase.ROUND_OVER:
        if state.phase is Phase.GAME_OVER:
            message = f"the game is over after {counted(state.rules.deals, 'deal')}; there is no next deal"
        else:
            message = f"deal {state.deal_number} is still being played; only a finished deal is followed by the next"
        raise WrongPhaseError("R7", message, state=state)
    return GameState.from_deck(
        shuffled_deck(seed),  # type: ignore[arg-type]  # one of the two seeds was given
        dealer=start.dealer,
        deal_number=start.number,
        scores=start.scores,
        rules=state.rules,
    )
