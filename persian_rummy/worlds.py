"""Hidden worlds: the positions a seat cannot tell from the real one (R27).

A seat sees its own hand, the table, the discard pile and how many cards each other hand and
the stock hold; every other card could be in any place it was not seen in. A *world* puts
those unseen cards into the hidden places (the other hands, the stock, the hidden positions
of a deck) consistently with what the seat knows: a card the public history shows in a hand
stays in it (R13), and a seat that has just taken from the discard pile holds cards that meld
the card it took (R14).

The Monte-Carlo bot's search (:func:`determinize`), the replay of a redacted record
(:meth:`GameRecord.views <persian_rummy.record.GameRecord.views>`) and the OpenSpiel adapter's
``resample_from_infostate`` all make their worlds from the functions here:
:func:`unseen_cards`, the cards to place; :func:`cards_to_complete`, the cards a hidden hand
must be given to hold a meld; and :func:`fill_hidden`, the cards put in the hidden places in
order.

>>> import random
>>> from persian_rummy import new_game
>>> state = new_game(5)
>>> world = determinize(state.view(1), random.Random(0))
>>> world.hands[1] == state.hands[1], world.view(1) == state.view(1)
(True, True)
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from persian_rummy._moves import meld_partners, meld_phase_actions
from persian_rummy.actions import Discard, DrawDiscard, LayOff, MeldCards
from persian_rummy.cards import DECK, JOKER_INDEX, Card
from persian_rummy.errors import InvalidArgumentError, InvalidStateError, excerpt
from persian_rummy.hand import Hand
from persian_rummy.melds import extensions
from persian_rummy.state import SHARED_FIELDS, GameState, Phase
from persian_rummy.view import InfoState, PlayerView

__all__ = ["cards_to_complete", "determinize", "fill_hidden", "known_cards", "seat_seed", "unseen_cards"]


def seat_seed(seed: int | str, seen: PlayerView | InfoState) -> int:
    """The seed of one decision of a bot: from the bot's own ``seed`` and what its seat has
    seen (the view's position string, and the public history when it is given an
    :class:`~persian_rummy.InfoState`), the same on every platform and in every process.

    A bot that draws its decision's randomness from ``random.Random(seat_seed(seed, seen))``
    depends on nothing its seat cannot see (R27): not the hidden cards, not the seed the deck
    was shuffled from, not the other seats it was asked for before. One bot shared by several
    seats answers each as a fresh bot for that seat would, and a game replays from the bots'
    seeds alone (a 128-bit whole number).

    >>> from persian_rummy import new_game
    >>> view = new_game(5).view(1)
    >>> seat_seed(0, view) == seat_seed(0, InfoState.start(view)) != seat_seed(1, view)
    True
    """
    text = str(seen) if isinstance(seen, InfoState) else seen.position()
    return int.from_bytes(hashlib.blake2b(f"{seed!r}\n{text}".encode(), digest_size=16).digest(), "big")


def unseen_cards(seen: Iterable[Card]) -> list[Card]:
    """The cards of the deck that are not among ``seen``, in deck order (R1): each card seen
    takes one copy of it out (a card seen more often than the deck holds it takes out all).

    >>> from persian_rummy import DECK, parse_cards
    >>> len(unseen_cards(parse_cards("As Kd Jk Jk")))
    52
    >>> unseen_cards(DECK[1:-1])
    [Card.parse('2s'), Card.parse('Jk')]
    """
    counts = [0] * (JOKER_INDEX + 1)
    for card in seen:
        counts[card.index] += 1
    unseen = []
    for card in DECK:
        if counts[card.index]:
            counts[card.index] -= 1
        else:
            unseen.append(card)
    return unseen


def cards_to_complete(
    groups: Iterable[Sequence[Card]], held: Sequence[Card], unseen: Sequence[Card], room: int
) -> tuple[Card, ...] | None:
    """The cards a hidden hand must be given to hold all of the first of ``groups`` it can:
    those of the group not among ``held`` (the cards known to be in the hand), when there are
    at most ``room`` of them (the hand's hidden places) and ``unseen`` has them all; ``None``
    when no group can be completed. With the pairs that meld a card taken from the discard
    pile, these are the cards a world deals the taker (R14).

    >>> from persian_rummy import parse_cards
    >>> pairs = [parse_cards("Qh Qd"), parse_cards("Jd Kd")]
    >>> cards_to_complete(pairs, parse_cards("Qh"), parse_cards("Qd 3c Jd"), 1)
    (Card.parse('Qd'),)
    >>> print(cards_to_complete(pairs, [], parse_cards("Qd 3c Jd"), 1))
    None
    """
    available: Counter[Card] | None = None
    for group in groups:
        rest = list(held)
        needed = []
        for card in group:
            if card in rest:
                rest.remove(card)
            else:
                needed.append(card)
        if len(needed) > room:
            continue
        if available is None:
            available = Counter(unseen)
        if Counter(needed) - available:
            continue
        return tuple(needed)
    return None


def fill_hidden(places: Sequence[Card | None], cards: Iterable[Card]) -> tuple[Card, ...]:
    """``places`` with each hidden place (``None``) given the next of ``cards``, in order; the
    cards left over are not placed (the rest of a deck not dealt yet).

    Raises :class:`~persian_rummy.InvalidArgumentError` when there are fewer cards than hidden
    places.

    >>> from persian_rummy import Card, parse_cards
    >>> fill_hidden([Card.parse("As"), None, None], parse_cards("2h 3h 4h"))
    (Card.parse('As'), Card.parse('2h'), Card.parse('3h'))
    """
    rest = iter(cards)
    filled = []
    for place in places:
        if place is None:
            place = next(rest, None)
            if place is None:
                hidden = sum(place is None for place in places)
                raise InvalidArgumentError(f"there are fewer cards than the {hidden} hidden places to fill")
        filled.append(place)
    return tuple(filled)


#: Deals tried before the cards that meld a taken card are placed by hand (R14).
_DEAL_ATTEMPTS: Final = 32


def _deal_unseen(view: PlayerView, unseen: list[Card], known: list[list[Card]]) -> tuple[Hand, ...]:
    """The other seats' hands dealt in order from ``unseen``, each also holding the cards
    ``known`` to be in it."""
    hands = []
    start = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(view.hand)
            continue
        size -= len(known[seat])
        hands.append(Hand([*unseen[start : start + size], *known[seat]]))
        start += size
    return tuple(hands)


def _place_usable(unseen: list[Card], pinned: Card | None, view: PlayerView, known: list[list[Card]]) -> None:
    """Move unseen cards the mover can use at once to where its hand is dealt from: those that
    meld with ``pinned`` (R14), or else one that extends a meld on the table (R19). Cards the
    mover is known to hold (``known``) count towards the meld, and no more cards are placed
    than the mover's hidden part of its hand holds."""
    mover = view.current_player
    start = sum(size - len(known[seat]) for seat, size in enumerate(view.hand_sizes[:mover]) if seat != view.seat)
    room = view.hand_sizes[mover] - len(known[mover])
    held = list(known[mover])
    if pinned is not None:
        choices: list[tuple[Card, ...]] = list(meld_partners(pinned))
        if pinned in held:
            held.remove(pinned)  # the card to meld is not its own partner
    else:
        choices = [(card,) for meld in view.melds for card in extensions(meld, view.rules.ace_low)]
    needed = cards_to_complete(choices, held, unseen, room)
    if needed is None:
        return
    rest = list(unseen)
    for card in needed:
        rest.remove(card)
    unseen[:] = rest[:start] + list(needed) + rest[start:]


def determinize(
    view: PlayerView | InfoState, rng: random.Random, *, odds: Mapping[Card, Sequence[float]] | None = None
) -> GameState:
    """A full :class:`~persian_rummy.GameState` consistent with ``view``: the viewer's hand and
    everything public as they are, the unseen cards (the deck minus the viewer's hand, the
    table and the discard pile) dealt at random to the other hands, in their known sizes, and
    to the stock (R27).

    Given an :class:`~persian_rummy.InfoState`, the public history is used too: the cards a
    seat took from the discard pile and has not played since stay in that seat's hand (R13,
    R27), only the rest is dealt at random.

    ``odds`` (``None``, the default: the uniform deal) weighs where each card is dealt: for
    each unseen card, five weights of at least 0 (seats 0-3, then the stock), as
    :meth:`BeliefModel.odds <persian_rummy.beliefs.BeliefModel.odds>` gives them. The cards are
    then dealt one at a time in a random order, each to a place with hidden room left, with a
    probability proportional to its weight there times that room (equal weights deal exactly
    as uniformly as the default, with other random numbers). The world is as consistent with
    the view and the history as without them: the hand sizes, the stock's size and the cards
    the history places are the same.

    Raises :class:`~persian_rummy.InvalidStateError` when the view's unseen cards do not add
    up to the other hands and the stock (R1), and
    :class:`~persian_rummy.InvalidArgumentError` for ``odds`` that do not give an unseen card
    five finite weights of at least 0.

    >>> from persian_rummy import new_game
    >>> state = new_game(5)
    >>> guess = determinize(state.view(1), random.Random(0))
    >>> guess.hands[1] == state.hands[1], [len(hand) for hand in guess.hands], len(guess.stock)
    (True, [7, 7, 7, 7], 27)
    >>> guess.validate()
    >>> state = GameState.from_position(["4s 9d 2h", "5s 6s Kd", "Qh Qd 3c", "2c 2d 7h"], "Qs 4c 7s")
    >>> moves = ["take 2", "meld 5s 6s 7s", "discard Kd", "take 0", "meld Qs Qh Qd"]
    >>> from persian_rummy import info_after
    >>> info = info_after(state, moves, seat=0)
    >>> str(info.history[3]), all(card in determinize(info, random.Random(seed)).hands[2] for card in ("4c", "Kd") for seed in range(20))
    ('S take 0 = Qs 4c Kd', True)
    """
    known = known_cards(view) if isinstance(view, InfoState) else None
    if isinstance(view, InfoState):
        view = view.view
    seen = list(view.hand) + list(view.discard_pile)
    for meld in view.melds:
        seen.extend(meld.cards)
    unseen = unseen_cards(seen)
    others = sum(size for seat, size in enumerate(view.hand_sizes) if seat != view.seat)
    if len(unseen) != others + view.stock_size:
        raise InvalidStateError(
            f"R1: the view of seat {view.seat} leaves {len(unseen)} unseen cards for "
            f"{others} cards in other hands and {view.stock_size} in the stock"
        )
    # Cards known to be in another seat's hand stay there: the card it just took from the pile
    # (R14, public) and, with the history, every card it took and has not played (R13).
    pinned = view.must_meld if view.must_meld is not None and view.current_player != view.seat else None
    if known is None:
        known = [[] for _ in view.hand_sizes]
        if pinned is not None:
            known[view.current_player].append(pinned)
    for cards in known:
        for card in cards:
            unseen.remove(card)
    # After another seat's draw its hand must have a legal action (R14, R19), as in play:
    # deals that miss are dealt again.
    check = view.phase is Phase.MELD and view.current_player != view.seat
    hands: tuple[Hand, ...] = ()
    rooms = None if odds is None else _rooms(view, known, odds, unseen)
    for attempt in range(_DEAL_ATTEMPTS + 1):
        if attempt < _DEAL_ATTEMPTS:
            if odds is None or rooms is None:
                rng.shuffle(unseen)
            else:
                _deal_weighted(unseen, odds, rooms, rng)
        else:
            _place_usable(unseen, pinned, view, known)
        hands = _deal_unseen(view, unseen, known)
        mover = hands[view.current_player]
        if not check or meld_phase_actions(
            mover.mask, mover.jokers, view.melds, pinned, view.rules, view.current_player, first_only=True
        ):
            break
    dealt = sum(view.hand_sizes) - len(view.hand) - sum(len(cards) for cards in known)
    return GameState(
        hands=hands,
        stock=tuple(unseen[dealt:]),
        **{name: getattr(view, name) for name in SHARED_FIELDS},
    )


def _rooms(
    view: PlayerView, known: list[list[Card]], odds: Mapping[Card, Sequence[float]], unseen: list[Card]
) -> list[int]:
    """The hidden room of each place (seats 0-3, the stock) for the cards ``unseen`` not
    known, after checking that ``odds`` weighs each of them."""
    for card in set(unseen):
        row = odds.get(card) if isinstance(odds, Mapping) else None
        if (
            row is None
            or len(row) != 5
            or not all(isinstance(weight, int | float) and 0 <= weight < math.inf for weight in row)
        ):
            raise InvalidArgumentError(
                f"R27: the odds of a world give each unseen card five finite weights of at least 0 (seats 0-3, "
                f"the stock), not {excerpt(row)} for {card}"
            )
    rooms = [0 if seat == view.seat else size - len(known[seat]) for seat, size in enumerate(view.hand_sizes)]
    return [*rooms, view.stock_size]


def _deal_weighted(
    unseen: list[Card], odds: Mapping[Card, Sequence[float]], rooms: list[int], rng: random.Random
) -> None:
    """Order ``unseen`` as :func:`_deal_unseen` deals it (the other seats' hidden places in
    seat order, then the stock), each card in a random order given a place with room left
    with a probability proportional to its weight there times that room (by room alone when
    its weights there are all 0); the stock's cards are then shuffled."""
    order = list(unseen)
    rng.shuffle(order)
    left = list(rooms)
    placed: list[list[Card]] = [[] for _ in left]
    for card in order:
        row = odds[card]
        weights = [row[place] * room for place, room in enumerate(left)]
        total = sum(weights)
        if not total > 0:
            weights, total = [float(room) for room in left], float(sum(left))
        pick = rng.random() * total
        place = 0
        while place < len(weights) - 1 and (pick >= weights[place] or not left[place]):
            pick -= weights[place]
            place += 1
        while not left[place]:  # rounding at the end of the sums: the last place with room
            place -= 1
        placed[place].append(card)
        left[place] -= 1
    rng.shuffle(placed[-1])
    unseen[:] = [card for cards in placed for card in cards]


def known_cards(info: InfoState) -> list[list[Card]]:
    """Per seat, the cards the public history shows in its hand: taken from the discard pile
    (R13) and not melded, laid off or discarded since; none for the viewer's own seat (its
    hand is known anyway).

    >>> from persian_rummy import GameState, info_after
    >>> state = GameState.from_position(["4s 9d 2h", "5s 6s Kd", "Qh Qd 3c", "2c 2d 7h"], "Qs 4c 7s")
    >>> known_cards(info_after(state, ["take 2", "meld 5s 6s 7s", "discard Kd", "take 0", "meld Qs Qh Qd"], seat=0))
    [[], [], [Card.parse('4c'), Card.parse('Kd')], []]
    """
    known: list[list[Card]] = [[] for _ in range(len(info.view.hand_sizes))]
    for event in info.history:
        held = known[event.seat]
        if event.seat == info.seat:
            continue
        action = event.action
        if isinstance(action, DrawDiscard):
            held.extend(event.cards)
        elif isinstance(action, MeldCards):
            for card in action.cards:
                if card in held:
                    held.remove(card)
        elif isinstance(action, LayOff | Discard) and action.card in held:
            held.remove(action.card)
    return known
