"""Melds on the table: sets, runs and joker sets, with the seat credited for each card
(R8-R11, R16, R24).

A meld's text lists its cards in canonical order, each with the seat that played it:
``card@seat`` for a card of the original meld and ``card+seat`` for a card laid off later.
The seat decides which team scores each card (R16, R23), so text never leaves it out:
:meth:`Meld.parse` reads unmarked cards only when told whose they are (``seat=``).

>>> meld = Meld.parse("7s 7h 7d", seat=0).lay_off(Card.parse("7c"), seat=1)
>>> meld
Meld.parse('7s@0 7h@0 7d@0 7c+1')
>>> meld.kind, meld.four_at_once, [str(card) for card in meld.cards]
(<MeldKind.SET: 'set'>, False, ['7s', '7h', '7d', '7c'])
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import Final, Literal

import attrs

from persian_rummy._bits import (
    ACE_BIT,
    RANK_MASKS,
    SUIT_BITS,
    cards_bits,
    cards_of_mask,
    is_seat,
    repeated,
    run_bits,
    team_of,
)
from persian_rummy._cache import identity_cached
from persian_rummy.cards import CARDS, JOKER_INDEX, Card, parse_cards
from persian_rummy.errors import InvalidArgumentError, MeldValueError, NotationError, counted, excerpt

__all__ = ["Meld", "MeldKind"]

AceInRuns = Literal["high", "high_or_low"]

#: The most cards of a meld: a run from 2 to A (R9).
_LONGEST_MELD: Final = 13
_TOKEN: Final = re.compile(r"(.+?)([@+])([0-9]+)")
#: A meld as a position string writes it: the seat that melded it, ':', then its cards
#: written two characters each, a card laid off later followed by '+' and its seat (0:TcJcQc+1).
_CARD_TEXT: Final = r"(?:[2-9TJQKA][shdc]|Jk)"
_POSITION_FORM: Final = re.compile(rf"([0-3]):((?:{_CARD_TEXT}(?:\+[0-3])?)+)")
_POSITION_CARD: Final = re.compile(rf"({_CARD_TEXT})(\+[0-3])?")
#: The longest meld in the position form: 13 cards, each laid off, and the seat.
_POSITION_FORM_LIMIT: Final = 2 + 4 * _LONGEST_MELD + 8
_HOW_TO_WRITE: Final = (
    "write a meld as its cards, each marked with the seat that melded it (Tc@0 Jc@0 Qc@0) or laid it "
    "off (Kc+1), or as a position string writes it (0:TcJcQc, or 0:TcJcQcKc+1)"
)


class MeldKind(enum.Enum):
    """What a meld is: a :attr:`SET` (same rank, or jokers only) or a :attr:`RUN` (R8-R11).

    >>> MeldKind.RUN.value
    'run'
    """

    SET = "set"
    RUN = "run"


class MeldShape:
    """What the engine knows of a valid meld's cards, computed once (internal)."""

    __slots__ = ("ace_low", "high", "kind", "low", "suit")

    def __init__(self, kind: MeldKind, suit: int, low: int, high: int, ace_low: bool) -> None:
        self.kind = kind
        self.suit = suit
        self.low = low
        self.high = high
        self.ace_low = ace_low


def shape_of(mask: int, jokers: int) -> MeldShape | MeldValueError:
    """Classify the cards of a would-be meld, or say why they are not one: the error (not
    raised) names the rule and the reason (internal).

    Runs that need the ace low are accepted here; whether ``ace_in_runs`` allows them is the
    engine's business (R10).
    """
    entry = _DECK_MELDS.get(mask | jokers << JOKER_INDEX)
    if entry is not None:  # a meld of the deck: its shape is in the table
        return entry[2]
    count = mask.bit_count()
    if jokers:
        if count:
            return MeldValueError("R11", "a joker may be melded only in a set of jokers, never with natural cards")
        if jokers < 3:
            return MeldValueError("R11", "a set of jokers needs 3 or 4 jokers")
        return JOKER_SET
    if count < 3:
        return MeldValueError("R8", "a meld needs at least 3 cards")
    low_index = (mask & -mask).bit_length() - 1
    rank_offset = low_index % 13
    set_mask = 0
    for suit in range(4):
        set_mask |= 1 << (suit * 13 + rank_offset)
    if mask & ~set_mask == 0:
        return MeldShape(MeldKind.SET, -1, rank_offset + 2, rank_offset + 2, False)
    suit = low_index // 13
    suit_bits = mask >> (suit * 13)
    if suit_bits & ~SUIT_BITS:
        return MeldValueError("R9", "a run's cards must all be of one suit, and a set's of one rank")
    run = run_bits(suit_bits)
    if run is None:
        if suit_bits & ACE_BIT and suit_bits & 1:
            return MeldValueError("R9", "a run's ranks must be consecutive and may not wrap around past the ace")
        return MeldValueError("R9", "a run's ranks must be consecutive")
    low, high, ace_low = run
    return MeldShape(MeldKind.RUN, suit, low, high, ace_low)


#: The shape of a set of each rank offset (0 = the two), and of a set of jokers (internal).
SET_SHAPES: Final = tuple(MeldShape(MeldKind.SET, -1, offset + 2, offset + 2, False) for offset in range(13))
JOKER_SET: Final = MeldShape(MeldKind.SET, -1, 0, 0, False)

#: A candidate meld as the engine and the bots see it: (natural mask, jokers, shape).
MeldEntry = tuple[int, int, MeldShape]


def _run_entries() -> dict[int, MeldEntry]:
    # Every run of the deck by its mask, with its shape: 2-3-4 … 2-…-A, and A-2-3 … A-2-…-Q
    # (the ace low; A-2-…-K is the whole suit, the run 2…A).
    entries: dict[int, MeldEntry] = {}
    for suit in range(4):
        base = suit * 13
        for first in range(11):
            for last in range(first + 2, 13):
                run = ((1 << (last - first + 1)) - 1) << (base + first)
                entries[run] = (run, 0, MeldShape(MeldKind.RUN, suit, first + 2, last + 2, False))
        for last in range(1, 11):
            run = 1 << (base + 12) | ((1 << (last + 1)) - 1) << base
            entries[run] = (run, 0, MeldShape(MeldKind.RUN, suit, 1, last + 2, True))
    return entries


def _set_entries() -> dict[int, tuple[MeldEntry, ...]]:
    # For each rank's cards held (three or four of them), its sets: each three, then the four.
    entries: dict[int, tuple[MeldEntry, ...]] = {}
    for offset in range(13):
        shape = SET_SHAPES[offset]
        bits = [1 << (suit * 13 + offset) for suit in range(4)]
        for held in combinations(bits, 3):
            rank_bits = held[0] | held[1] | held[2]
            entries[rank_bits] = ((rank_bits, 0, shape),)
        trios = tuple((trio[0] | trio[1] | trio[2], 0, shape) for trio in combinations(bits, 3))
        entries[RANK_MASKS[offset]] = (*trios, (RANK_MASKS[offset], 0, shape))
    return entries


# Fixed tables built once at import (never grown, so safe to read from any thread): every run
# and the sets of each rank's cards, so the enumeration builds no shape and no tuple.
_RUNS: Final = _run_entries()
_SETS: Final = _set_entries()
_JOKER_SETS: Final = ((0, 3, JOKER_SET), (0, 4, JOKER_SET))
#: Every meld of the deck by ``mask | jokers << JOKER_INDEX``: what shape_of answers at once.
_DECK_MELDS: Final = {
    entry[0] | entry[1] << JOKER_INDEX: entry
    for entry in (*_RUNS.values(), *(entry for entries in _SETS.values() for entry in entries), *_JOKER_SETS)
}


def candidate_melds(mask: int, jokers: int, ace_low: bool) -> Iterator[MeldEntry]:
    """Every valid meld within a hand, as (natural mask, jokers, shape): sets by rank, then runs
    by suit and position, then joker sets (R8-R11); internal, shared by the engine and the bots."""
    spades, hearts = mask & SUIT_BITS, mask >> 13 & SUIT_BITS
    diamonds, clubs = mask >> 26 & SUIT_BITS, mask >> 39 & SUIT_BITS
    # The ranks of which the hand holds three or four cards, as one suit's bits.
    threes = (spades & hearts & (diamonds | clubs)) | ((spades | hearts) & diamonds & clubs)
    while threes:
        low = threes & -threes
        threes ^= low
        yield from _SETS[mask & RANK_MASKS[low.bit_length() - 1]]
    for base, suit_bits in ((0, spades), (13, hearts), (26, diamonds), (39, clubs)):
        if suit_bits & suit_bits >> 1 & suit_bits >> 2:  # three in a row somewhere
            rest = suit_bits
            while rest:
                start = (rest & -rest).bit_length() - 1
                ones = rest >> start
                length = ((~ones) & (ones + 1)).bit_length() - 1
                rest &= ~(((1 << length) - 1) << start)
                for first in range(length - 2):
                    for last in range(first + 2, length):
                        yield _RUNS[((1 << (last - first + 1)) - 1) << (base + start + first)]
        if ace_low and suit_bits & ACE_BIT and suit_bits & 3 == 3:
            ones = suit_bits & (SUIT_BITS >> 1)
            length = ((~ones) & (ones + 1)).bit_length() - 1
            ace = 1 << (base + 12)
            # A-2…K would be the whole suit, already listed as the run 2…A.
            for last in range(1, min(length, 11)):
                yield _RUNS[ace | ((1 << (last + 1)) - 1) << base]
    if jokers >= 3:
        yield from _JOKER_SETS[: jokers - 2]


def _order_key(shape: MeldShape, card: Card) -> int:
    if shape.kind is MeldKind.RUN and shape.ace_low and card.index % 13 == 12:
        return -1  # the ace played low comes first
    return card.index


@attrs.frozen(init=False, repr=False)
class Meld:
    """A meld on the table: its cards in canonical order (runs ascending) and, for each card,
    the seat credited with it (R16) and whether it was laid off after the meld was made.

    Build a new meld with :meth:`parse` or the constructor, and extend it with
    :meth:`lay_off`. Melds are validated (R8-R11); a run with the ace low is a valid meld
    value, and the game accepts it only under ``ace_in_runs="high_or_low"`` (R10).

    >>> Meld(["Ks", "As", "Qs"], seats=3)
    Meld.parse('Qs@3 Ks@3 As@3')
    >>> Meld.parse("Jk Jk Jk", seat=1).points
    60
    """

    #: The cards, in the meld's order (a run from its low end).
    cards: tuple[Card, ...]
    #: For each card, the seat credited with it: who melded it or laid it off (R16, R23).
    seats: tuple[int, ...]
    #: For each card, whether it was laid off after the meld was made (R16).
    laid_off: tuple[bool, ...]
    #: What the meld is, computed once from its cards (internal to the engine).
    shape: MeldShape = attrs.field(eq=False, hash=False)
    _mask: int = attrs.field(eq=False, hash=False)
    _jokers: int = attrs.field(eq=False, hash=False)
    # The cards that extend the meld, (ace high only, ace low allowed), as cards and as masks
    # (bit JOKER_INDEX for the joker): shared entries of LAY_OFFS, as they depend on the
    # cards only.
    _lay_off_cards: tuple[tuple[Card, ...], tuple[Card, ...]] = attrs.field(eq=False, hash=False)
    _lay_off_bits: tuple[int, int] = attrs.field(eq=False, hash=False)
    # The points credited to each team, computed on first use (see credits()).
    _credits: tuple[int, int, int, int] | None = attrs.field(eq=False, hash=False)

    def __init__(
        self,
        cards: str | Iterable[Card | str],
        seats: int | Iterable[int] = 0,
        laid_off: Iterable[bool] | None = None,
    ) -> None:
        parsed = parse_cards(cards)
        seat_tuple = (seats,) * len(parsed) if isinstance(seats, int) else tuple(seats)
        flags = (False,) * len(parsed) if laid_off is None else tuple(laid_off)
        if len(seat_tuple) != len(parsed) or len(flags) != len(parsed):
            raise InvalidArgumentError(
                f"R16: a meld needs one seat and one laid-off flag per card "
                f"({counted(len(parsed), 'card')}, {counted(len(seat_tuple), 'seat')}, {counted(len(flags), 'flag')})"
            )
        for seat in seat_tuple:
            if not is_seat(seat):
                raise InvalidArgumentError(f"R3: seats are 0, 1, 2 and 3, not {excerpt(seat)}")
        if all(flags):
            raise MeldValueError("R15", f"{_plain(parsed)} has no card of an original meld")
        originals = [card for card, flag in zip(parsed, flags, strict=True) if not flag]
        original_seats = {seat for seat, flag in zip(seat_tuple, flags, strict=True) if not flag}
        if len(original_seats) != 1:
            raise MeldValueError("R15", "the cards of one meld action are played by one seat")
        mask, jokers = _mask_of(parsed)
        original_shape = shape_of(*_mask_of(originals))
        if isinstance(original_shape, MeldValueError):
            raise MeldValueError(
                original_shape.rule, f"{_plain(originals)} is not a valid meld: {original_shape.reason}"
            )
        shape = shape_of(mask, jokers)
        if isinstance(shape, MeldValueError) or shape.kind is not original_shape.kind:
            raise MeldValueError("R16", f"the cards {_plain(parsed)} do not form one meld")
        triples = sorted(zip(parsed, seat_tuple, flags, strict=True), key=lambda item: _order_key(shape, item[0]))
        _init_meld(
            self,
            tuple(item[0] for item in triples),
            tuple(item[1] for item in triples),
            tuple(item[2] for item in triples),
            shape,
            mask,
            jokers,
        )

    @classmethod
    def parse(cls, text: str, *, seat: int | None = None) -> Meld:
        """Parse a meld: cards separated by spaces (or commas, or hyphens), each marked
        ``@seat`` (part of the original meld, melded by that seat) or ``+seat`` (laid off
        later by that seat, R16). Cards written without a mark were melded by ``seat``, which
        must then be given: the text alone does not say whose meld it is, and the seat decides
        which team scores it (R23). The form of the melds in a position string, the seat that
        melded it, ``:`` and the cards (``0:TcJcQc``, ``3:3c+04c5c6c``), is read too.

        >>> Meld.parse("0:TcJcQc") == Meld.parse("Tc@0 Jc@0 Qc@0")
        True
        >>> Meld.parse("3c+0 4c@3 5c@3 6c@3")
        Meld.parse('3c+0 4c@3 5c@3 6c@3')
        >>> Meld.parse("8♥-9♥-10♥", seat=2)
        Meld.parse('8h@2 9h@2 Th@2')
        >>> Meld.parse("7s 8s 9s")
        Traceback (most recent call last):
        ...
        persian_rummy.errors.NotationError: R16: '7s 8s 9s' does not say who melded it: mark every card (7s@0 for North's) or give seat=
        """
        if not isinstance(text, str):
            raise NotationError(f"R8: expected the text of a meld, not {excerpt(text)}")
        if ":" in text:
            return cls._parse_position_form(text, seat)
        cards: list[Card] = []
        seats: list[int] = []
        flags: list[bool] = []
        for token in re.split(r"[\s,]+", text.strip()):
            if not token:
                continue
            match = _TOKEN.fullmatch(token)
            if match is None:
                try:
                    unmarked = parse_cards(token)
                except NotationError as error:
                    raise NotationError(f"{error}; {_HOW_TO_WRITE}") from None
                if not unmarked:
                    continue
                if seat is None:
                    raise NotationError(
                        f"R16: {excerpt(text.strip())} does not say who melded it: mark every card "
                        f"({unmarked[0]}@0 for North's) or give seat="
                    )
                cards.extend(unmarked)
                seats.extend([seat] * len(unmarked))
                flags.extend([False] * len(unmarked))
                if len(cards) > _LONGEST_MELD:
                    raise MeldValueError("R9", f"a meld has at most {_LONGEST_MELD} cards (a run 2-A)")
                continue
            if len(match.group(3)) > 1:  # checked before int(): it may have thousands of digits
                raise NotationError(f"R3: seats are 0, 1, 2 and 3, not {excerpt(match.group(3))}")
            cards.append(Card.parse(match.group(1)))
            if not is_seat(int(match.group(3))):
                raise NotationError(f"R3: {excerpt(token)} names seat {match.group(3)}; seats are 0, 1, 2 and 3")
            seats.append(int(match.group(3)))
            flags.append(match.group(2) == "+")
            if len(cards) > _LONGEST_MELD:
                raise MeldValueError("R9", f"a meld has at most {_LONGEST_MELD} cards (a run 2-A)")
        return cls(cards, seats, flags)

    @classmethod
    def _parse_position_form(cls, text: str, seat: int | None) -> Meld:
        # 0:TcJcQc+1 -> Tc@0 Jc@0 Qc+1, read by parse.
        match = _POSITION_FORM.fullmatch(text.strip()) if len(text) <= _POSITION_FORM_LIMIT else None
        if match is None:
            raise NotationError(f"R8: {excerpt(text.strip())} is not a meld: {_HOW_TO_WRITE}")
        owner = int(match[1])
        if seat is not None and seat != owner:
            raise NotationError(f"R16: {excerpt(text.strip())} was melded by seat {owner}, not seat={seat}")
        marked = " ".join(card + (laid_off or f"@{owner}") for card, laid_off in _POSITION_CARD.findall(match[2]))
        meld = cls.parse(marked)
        if meld.owner != owner:
            raise NotationError(f"R16: the meld {excerpt(text.strip())} has no card melded by seat {owner}")
        return meld

    @property
    def kind(self) -> MeldKind:
        """:attr:`MeldKind.SET` or :attr:`MeldKind.RUN`.

        >>> Meld.parse("Qs Ks As", seat=0).kind
        <MeldKind.RUN: 'run'>
        """
        return self.shape.kind

    @property
    def is_joker_set(self) -> bool:
        """Whether this is a set of jokers (R11).

        >>> Meld.parse("Jk Jk Jk", seat=0).is_joker_set
        True
        """
        return self._jokers > 0

    @property
    def ace_low(self) -> bool:
        """Whether this is a run with the ace played low (A-2-3…), allowed only under
        ``ace_in_runs="high_or_low"`` (R10).

        >>> Meld.parse("As 2s 3s", seat=0).ace_low, Meld.parse("Qs Ks As", seat=0).ace_low
        (True, False)
        """
        return self.shape.ace_low

    @property
    def melded_ace_low(self) -> bool:
        """Whether the cards first melded (before any lay-off) were a run with the ace played
        low: then the meld could only arise under ``ace_in_runs="high_or_low"`` (R10), even once
        lay-offs have grown it into the whole suit.

        >>> Meld.parse("As@1 2s@1 3s@1 4s+1 5s+1 6s+1 7s+1 8s+1 9s+1 Ts+1 Js+1 Qs+1 Ks+1").melded_ace_low
        True
        >>> Meld.parse("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks", seat=0).melded_ace_low
        False
        """
        if not self.ace_low and len(self.cards) < 13:
            return False
        shape = shape_of(*_mask_of(card for card, flag in zip(self.cards, self.laid_off, strict=True) if not flag))
        return not isinstance(shape, MeldValueError) and shape.ace_low

    @property
    def owner(self) -> int:
        """The seat that laid the meld down.

        >>> Meld.parse("4c@3 5c@3 6c@3 7c+0").owner
        3
        """
        for seat, flag in zip(self.seats, self.laid_off, strict=True):
            if not flag:
                return seat
        raise AssertionError("unreachable: a meld always has an original card")  # pragma: no cover

    @property
    def four_at_once(self) -> bool:
        """Whether this is a set of four melded in a single action, which scores double (R24).

        >>> Meld.parse("Js Jh Jd Jc", seat=0).four_at_once
        True
        >>> Meld.parse("Js Jh Jd Jc+2", seat=0).four_at_once
        False
        """
        return self.shape.kind is MeldKind.SET and len(self.cards) == 4 and not any(self.laid_off)

    def scores_double(self, double_four_jokers: bool = True) -> bool:
        """Whether the meld scores double (R24): a set of four melded in a single action,
        except four jokers when the rules' ``double_four_jokers`` is False.

        >>> Meld.parse("Jk Jk Jk Jk", seat=0).scores_double(), Meld.parse("Jk Jk Jk Jk", seat=0).scores_double(False)
        (True, False)
        >>> Meld.parse("Js Jh Jd Jc", seat=0).scores_double(False), Meld.parse("Js Jh Jd Jc+2", seat=0).scores_double()
        (True, False)
        """
        return self.four_at_once and (double_four_jokers or not self.is_joker_set)

    @property
    def points(self) -> int:
        """The value of the meld's cards, not doubled (R22).

        >>> Meld.parse("8h 9h Th", seat=0).points
        27
        """
        return sum(card.points for card in self.cards)

    @property
    def mask(self) -> int:
        """The natural cards of the meld as a bit mask (see :attr:`Hand.mask`).

        >>> Meld.parse("2s 3s 4s", seat=0).mask
        7
        """
        return self._mask

    def lay_off_cards(self, ace_in_runs: AceInRuns = "high") -> tuple[Card, ...]:
        """The cards that could be laid off on this meld (at most two: R8-R11, R16).

        >>> Meld.parse("2s 3s 4s", seat=0).lay_off_cards(), Meld.parse("2s 3s 4s", seat=0).lay_off_cards("high_or_low")
        ((Card.parse('5s'),), (Card.parse('As'), Card.parse('5s')))
        >>> Meld.parse("Jk Jk Jk", seat=0).lay_off_cards()
        (Card.parse('Jk'),)
        """
        return extensions(self, ace_in_runs == "high_or_low")

    def accepts(self, card: Card | str, ace_in_runs: AceInRuns = "high") -> bool:
        """Whether ``card`` can be laid off on this meld.

        >>> Meld.parse("7s 7h 7d", seat=0).accepts("7c"), Meld.parse("7s 7h 7d", seat=0).accepts("Jk")
        (True, False)
        """
        return Card.parse(card) in self.lay_off_cards(ace_in_runs)

    def lay_off(self, card: Card | str, seat: int, *, ace_in_runs: AceInRuns = "high") -> Meld:
        """The meld extended by ``card``, laid off and credited to ``seat`` (R16).

        >>> Meld.parse("4c 5c 6c", seat=3).lay_off("3c", seat=0)
        Meld.parse('3c+0 4c@3 5c@3 6c@3')
        """
        card = Card.parse(card)
        if card not in self.lay_off_cards(ace_in_runs):
            raise MeldValueError("R16", f"{card} does not extend the meld {_plain(self.cards)}")
        if not is_seat(seat):
            raise InvalidArgumentError(f"R3: seats are 0, 1, 2 and 3, not {excerpt(seat)}")
        return extend(self, card, seat)

    def __str__(self) -> str:
        return _meld_text(self, 0)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def __len__(self) -> int:
        return len(self.cards)

    def __reduce__(self) -> tuple[object, ...]:
        # Pickle the cards and credits only; the shape and the cached extensions are derived.
        return (Meld, (self.cards, self.seats, self.laid_off))


def _plain(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


def _mask_of(cards: Iterable[Card]) -> tuple[int, int]:
    # The cards as a mask and jokers, refusing a natural card twice (R1) and a fifth joker (R11).
    listed = tuple(cards)
    mask, jokers = cards_bits(listed)
    if mask.bit_count() + jokers < len(listed):
        card = repeated(listed)
        raise MeldValueError("R1", f"{card} appears twice, but the deck has one {card}")
    if jokers > 4:
        raise MeldValueError("R11", "a set of jokers has at most 4 jokers")
    return mask, jokers


def _init_meld(
    meld: Meld,
    cards: tuple[Card, ...],
    seats: tuple[int, ...],
    flags: tuple[bool, ...],
    shape: MeldShape,
    mask: int,
    jokers: int,
) -> None:
    setter = object.__setattr__
    setter(meld, "cards", cards)
    setter(meld, "seats", seats)
    setter(meld, "laid_off", flags)
    setter(meld, "shape", shape)
    setter(meld, "_mask", mask)
    setter(meld, "_jokers", jokers)
    key = mask | jokers << JOKER_INDEX
    lay_offs = LAY_OFFS.get(key) or _lay_offs_of(shape, mask, jokers)
    setter(meld, "_lay_off_cards", lay_offs[0])
    setter(meld, "_lay_off_bits", lay_offs[1])
    setter(meld, "_credits", None)


def new_meld(mask: int, jokers: int, shape: MeldShape, seat: int) -> Meld:
    """A fresh meld from already validated cards (the engine's fast path)."""
    meld = object.__new__(Meld)
    if jokers:
        cards: tuple[Card, ...] = (CARDS[JOKER_INDEX],) * jokers
    elif shape.ace_low:
        cards = (CARDS[shape.suit * 13 + 12],) + tuple(cards_of_mask(mask & ~(1 << (shape.suit * 13 + 12))))
    else:
        cards = tuple(cards_of_mask(mask))
    _init_meld(meld, cards, (seat,) * len(cards), (False,) * len(cards), shape, mask, jokers)
    return meld


def meld_key(meld: Meld) -> int:
    """The meld's cards as one number, ``mask | jokers << JOKER_INDEX``: the key of the fixed
    tables of the deck's melds (internal). Laying off a natural card sets its bit; a joker adds
    ``1 << JOKER_INDEX``."""
    return meld._mask | meld._jokers << JOKER_INDEX


def extensions(meld: Meld, ace_low_allowed: bool) -> tuple[Card, ...]:
    """The cards that extend ``meld`` (internal; see :meth:`Meld.lay_off_cards`)."""
    return meld._lay_off_cards[ace_low_allowed]


def extension_bits(meld: Meld, ace_low_allowed: bool) -> int:
    """The cards that extend ``meld`` as a mask, bit :data:`~persian_rummy.cards.JOKER_INDEX`
    for the joker (internal): a lay-off test of a hand is one ``&``."""
    return meld._lay_off_bits[ace_low_allowed]


@identity_cached(8192)  # per meld: its text is in the JSON of every view of every state it is in
def _meld_text(meld: Meld, _: int) -> str:
    return " ".join(
        f"{card}{'+' if flag else '@'}{seat}"
        for card, seat, flag in zip(meld.cards, meld.seats, meld.laid_off, strict=True)
    )


#: A table's lay-off targets: every card some meld accepts, as a mask, and for each meld that
#: accepts a card, its position, its mask and its cards (internal).
TableExtensions = tuple[int, tuple[tuple[int, int, tuple[Card, ...]], ...]]


@identity_cached(4096)  # per melds tuple, which states share until the table changes
def table_extensions(melds: tuple[Meld, ...], ace_low_allowed: int) -> TableExtensions:
    """What every meld of a table accepts (internal; see :data:`TableExtensions`): the lay-off
    checks of a hand against a table, worked out once per melds tuple and ace rule (for at
    most 4096 tables; two threads that race work out the same value)."""
    union = 0
    entries = []
    for position, meld in enumerate(melds):
        bits = meld._lay_off_bits[ace_low_allowed]
        if bits:
            union |= bits
            entries.append((position, bits, meld._lay_off_cards[ace_low_allowed]))
    return union, tuple(entries)


def credits(meld: Meld) -> tuple[int, int, int, int]:
    """The points of the meld's cards by team of the seat credited (R16, R23): melded by team
    0, melded by team 1, laid off by team 0, laid off by team 1 (internal; computed once per
    meld, and two threads that race compute the same value)."""
    cached = meld._credits
    if cached is None:
        points = [0, 0, 0, 0]
        for card, seat, flag in zip(meld.cards, meld.seats, meld.laid_off, strict=True):
            points[2 * flag + team_of(seat)] += card.points
        cached = (points[0], points[1], points[2], points[3])
        object.__setattr__(meld, "_credits", cached)
    return cached


def _lay_off_cards(shape: MeldShape, mask: int, jokers: int, ace_low_allowed: bool) -> tuple[Card, ...]:
    # The cards that extend a meld of these cards (R8-R11, R16): they depend on nothing else.
    size = mask.bit_count() + jokers
    if shape.kind is MeldKind.SET:
        if size >= 4:
            return ()
        if jokers:
            return (CARDS[JOKER_INDEX],)
        offset = shape.low - 2
        for suit in range(4):
            if not mask >> (suit * 13 + offset) & 1:
                return (CARDS[suit * 13 + offset],)
        raise AssertionError("unreachable: a set of three misses one suit")  # pragma: no cover
    base = shape.suit * 13
    out: list[Card] = []
    low, high = shape.low, shape.high
    if low >= 3:
        out.append(CARDS[base + low - 3])
    elif low == 2 and high < 13 and ace_low_allowed:
        # With 2…K on the table the ace fits either way: it is offered once, as the top card.
        out.append(CARDS[base + 12])
    if high <= 13 and not (high == 13 and low == 1):
        out.append(CARDS[base + high - 1])
    return tuple(out)


_LayOffEntry = tuple[tuple[tuple[Card, ...], tuple[Card, ...]], tuple[int, int]]


def _lay_offs_of(shape: MeldShape, mask: int, jokers: int) -> _LayOffEntry:
    # A meld's lay-off cards and masks, (ace high only, ace low allowed).
    high, low = _lay_off_cards(shape, mask, jokers, False), _lay_off_cards(shape, mask, jokers, True)
    return (high, low), (_bits_of(high), _bits_of(low))


def _bits_of(cards: tuple[Card, ...]) -> int:
    # Lay-off cards as a mask, bit JOKER_INDEX for the joker (a meld takes one joker at a time).
    mask, jokers = cards_bits(cards)
    return mask | (1 << JOKER_INDEX if jokers else 0)


def extend(meld: Meld, card: Card, seat: int) -> Meld:
    """``meld`` with ``card`` laid off by ``seat``; the card must be one of its extensions."""
    shape = meld.shape
    if shape.kind is MeldKind.SET:
        new_shape = shape
        triples = sorted(
            [*zip(meld.cards, meld.seats, meld.laid_off, strict=True), (card, seat, True)],
            key=lambda item: item[0].index,
        )
        cards = tuple(item[0] for item in triples)
        seats = tuple(item[1] for item in triples)
        flags = tuple(item[2] for item in triples)
    else:
        rank = card.index % 13 + 2
        if rank == shape.high + 1:
            new_shape = MeldShape(MeldKind.RUN, shape.suit, shape.low, rank, shape.ace_low)
            cards = meld.cards + (card,)
            seats = meld.seats + (seat,)
            flags = meld.laid_off + (True,)
        else:
            low = 1 if rank == 14 else rank
            new_shape = MeldShape(MeldKind.RUN, shape.suit, low, shape.high, low == 1)
            cards = (card,) + meld.cards
            seats = (seat,) + meld.seats
            flags = (True,) + meld.laid_off
        if len(cards) == 13 and new_shape.ace_low:
            # The whole suit reads the same either way; keep one canonical form (ace high), so
            # that a meld's text parses back to an equal meld.
            new_shape = MeldShape(MeldKind.RUN, shape.suit, 2, 14, False)
            cards, seats, flags = cards[1:] + cards[:1], seats[1:] + seats[:1], flags[1:] + flags[:1]
    result = object.__new__(Meld)
    jokers = meld._jokers + (card.index == JOKER_INDEX)
    mask = meld._mask | (0 if card.index == JOKER_INDEX else 1 << card.index)
    _init_meld(result, cards, seats, flags, new_shape, mask, jokers)
    return result


#: The lay-off cards of every meld of the deck by ``mask | jokers << JOKER_INDEX`` (its key, see
#: meld_key), built once at import: a meld takes its entry when it is made, and no meld
#: computes them again; the bots' plans read it by key without building melds (internal).
LAY_OFFS: Final = {key: _lay_offs_of(entry[2], entry[0], entry[1]) for key, entry in _DECK_MELDS.items()}
