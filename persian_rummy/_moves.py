"""The rules' own checks on plain values (internal): the legal actions after a draw, whether
a card taken from the discard pile can be used at once, and the score of a table.

The engine plays with them and :meth:`GameState.validate <persian_rummy.GameState.validate>`
asks them whether a position could arise in play, so both answer from one place. They take
masks, melds and rules, never a state, so they sit below the state in the layers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final

import attrs

from persian_rummy._bits import ACE_BIT, RANK_MASKS, SUIT_BITS, TEAM_NAMES, team_of
from persian_rummy.actions import DISCARDS, MELD_ACTIONS, Action, lay_off_action, meld_action
from persian_rummy.cards import CARDS, JOKER_INDEX, Card
from persian_rummy.hand import Hand
from persian_rummy.melds import Meld, candidate_melds, credits, extend, extension_bits, new_meld, table_extensions
from persian_rummy.rules import Rules


class _SuitDiscards(dict[int, tuple[Action, ...]]):
    """The discards of one suit's cards, in card order, by the suit's 13 bits (each made when
    first asked for: at most 8192 a suit)."""

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.base = 13 * suit

    def __missing__(self, bits: int) -> tuple[Action, ...]:
        discards = self[bits] = tuple(DISCARDS[self.base + rank] for rank in range(13) if bits >> rank & 1)
        return discards


_SUIT_DISCARDS: Final = tuple(_SuitDiscards(suit) for suit in range(4))


def can_lay_off(card_index: int, melds: Iterable[Meld], ace_low: bool) -> bool:
    return any(extension_bits(table_meld, ace_low) >> card_index & 1 for table_meld in melds)


def lay_off_bits(melds: tuple[Meld, ...], ace_low: bool) -> int:
    """Every card that some meld of the table accepts, as a mask (bit ``JOKER_INDEX`` for the
    joker): what :func:`can_lay_off` asks of each card, computed once for a table."""
    return table_extensions(melds, ace_low)[0]


def leftover_ok(mask: int, jokers: int, melds: tuple[Meld, ...], rules: Rules) -> bool:
    """Under ``last_card_discard="forbidden"``: a hand left with one card is allowed only if that
    card can be laid off at once (R19)."""
    if mask.bit_count() + jokers != 1:
        return True
    index = JOKER_INDEX if jokers else mask.bit_length() - 1
    return can_lay_off(index, melds, rules.ace_in_runs == "high_or_low")


def meld_phase_actions(
    mask: int,
    jokers: int,
    melds: tuple[Meld, ...],
    must: Card | None,
    rules: Rules,
    seat: int,
    first_only: bool = False,
) -> list[Action]:
    """The legal actions after the draw: melds, then lay-offs, then discards (R14-R19)."""
    ace_low = rules.ace_in_runs == "high_or_low"
    forbidden = rules.last_card_discard == "forbidden"
    size = mask.bit_count() + jokers
    out: list[Action] = []
    if must is None and not forbidden and not first_only:
        # Every meld the hand holds is legal: the shared actions by key, in one pass.
        out = [
            MELD_ACTIONS[meld_mask | meld_jokers << JOKER_INDEX]
            for meld_mask, meld_jokers, _ in candidate_melds(mask, jokers, ace_low)
        ]
    else:
        must_bit = 0
        if must is not None:
            must_bit = 0 if must.index == JOKER_INDEX else 1 << must.index
        for meld_mask, meld_jokers, shape in candidate_melds(mask, jokers, ace_low):
            if must is not None and not (meld_mask & must_bit if must_bit else meld_jokers):
                continue
            if forbidden and size - meld_mask.bit_count() - meld_jokers == 1:
                table = melds + (new_meld(meld_mask, meld_jokers, shape, seat),)
                if not leftover_ok(mask & ~meld_mask, jokers - meld_jokers, table, rules):
                    continue
            out.append(meld_action(meld_mask, meld_jokers))
            if first_only:
                return out
    if must is None or rules.pickup_use == "meld_or_lay_off":
        # The cards that may be laid off, as a mask: the hand's, or only the card taken (R14).
        held = mask | (1 << JOKER_INDEX if jokers else 0)
        if must is not None:
            held &= 1 << must.index
        for position, bits, cards in table_extensions(melds, ace_low)[1]:
            if not bits & held:
                continue
            for card in cards:
                index = card.index
                if not held >> index & 1:
                    continue
                if forbidden and size == 2:
                    table = melds[:position] + (extend(melds[position], card, seat),) + melds[position + 1 :]
                    left_mask, left_jokers = without(mask, jokers, index)
                    if not leftover_ok(left_mask, left_jokers, table, rules):
                        continue
                out.append(lay_off_action(index, position))
                if first_only:
                    return out
    if must is None and (size >= 2 or not forbidden):
        spades, hearts, diamonds, clubs = _SUIT_DISCARDS
        out += spades[mask & SUIT_BITS]
        out += hearts[mask >> 13 & SUIT_BITS]
        out += diamonds[mask >> 26 & SUIT_BITS]
        out += clubs[mask >> 39]
        if jokers:
            out.append(DISCARDS[JOKER_INDEX])
    return out


def without(mask: int, jokers: int, index: int) -> tuple[int, int]:
    if index == JOKER_INDEX:
        return mask, jokers - 1
    return mask & ~(1 << index), jokers


def target_usable(mask: int, jokers: int, target: Card, melds: tuple[Meld, ...], rules: Rules, seat: int) -> bool:
    """Whether the card taken from the discard pile can be melded or laid off at once, using the
    hand plus every card taken (R14, and R19 under ``"forbidden"``)."""
    if rules.last_card_discard == "forbidden":
        return bool(meld_phase_actions(mask, jokers, melds, target, rules, seat, first_only=True))
    ace_low = rules.ace_in_runs == "high_or_low"
    lay_offs = lay_off_bits(melds, ace_low) if rules.pickup_use == "meld_or_lay_off" else 0
    return _usable(mask, jokers, target.index, ace_low, lay_offs)


def usable_targets(
    mask: int, jokers: int, pile: tuple[Card, ...], melds: tuple[Meld, ...], rules: Rules, seat: int
) -> list[int]:
    """The indices of the discard pile, from the top down, whose card the hand ``mask`` and
    ``jokers`` could take with every card above it and use at once (R13-R14, R19): the
    :func:`target_usable` of each, with what they share worked out once."""
    out = []
    top = len(pile) - 1
    free_top = not rules.top_card_must_meld
    forbidden = rules.last_card_discard == "forbidden"
    ace_low = rules.ace_in_runs == "high_or_low"
    lay_offs = lay_off_bits(melds, ace_low) if rules.pickup_use == "meld_or_lay_off" else 0
    for index in range(top, -1, -1):
        card = pile[index]
        card_index = card.index
        if card_index == JOKER_INDEX:
            jokers += 1
        else:
            mask |= 1 << card_index
        if (index == top and free_top) or (
            meld_phase_actions(mask, jokers, melds, card, rules, seat, first_only=True)
            if forbidden
            else _usable(mask, jokers, card_index, ace_low, lay_offs)
        ):
            out.append(index)
    return out


def _usable(mask: int, jokers: int, index: int, ace_low: bool, lay_offs: int) -> bool:
    # Card ``index`` melds with cards of ``mask`` and ``jokers`` (which hold it), or is one of
    # the table's ``lay_offs`` (R8-R11, R14, R16).
    if index == JOKER_INDEX:
        if jokers >= 3:
            return True
    else:
        offset = index % 13
        if (mask & RANK_MASKS[offset]).bit_count() >= 3:
            return True
        suit_bits = mask >> (index - offset) & SUIT_BITS
        if in_runs(suit_bits) >> offset & 1:
            return True
        if ace_low and suit_bits & ACE_BIT:
            rotated = ((suit_bits << 1) | (suit_bits >> 12)) & SUIT_BITS
            if in_runs(rotated) >> ((offset + 1) % 13) & 1:
                return True
    return bool(lay_offs >> index & 1)


def in_runs(bits: int) -> int:
    """The ranks of one suit's bits that lie in three or more in a row (R9), as bits."""
    starts = bits & bits >> 1 & bits >> 2
    return starts | starts << 1 | starts << 2


def meld_partners(target: Card) -> Iterator[tuple[Card, ...]]:
    """The pairs of cards that make a three-card meld with ``target`` (R8-R11): sets first,
    then runs with the ace high, then with the ace low (R10)."""
    if target.is_joker:
        yield (target, target)
        return
    rank, suit = target.index % 13, target.index // 13  # rank 0 is the two, 12 the ace
    others = [other for other in range(4) if other != suit]
    for first in range(3):
        for second in range(first + 1, 3):
            yield (CARDS[others[first] * 13 + rank], CARDS[others[second] * 13 + rank])
    for low in (rank - 2, rank - 1, rank):
        ranks = [r for r in (low, low + 1, low + 2) if r != rank]
        if low >= 0 and low + 2 <= 12:
            yield (CARDS[suit * 13 + ranks[0]], CARDS[suit * 13 + ranks[1]])
    ace_low = {12: (0, 1), 0: (12, 1), 1: (12, 0)}.get(rank)  # A-2-3 with the ace low
    if ace_low is not None:
        yield (CARDS[suit * 13 + ace_low[0]], CARDS[suit * 13 + ace_low[1]])


@attrs.frozen
class RoundScore:
    """One team's score for one round, itemised (R23-R25).

    >>> score = RoundScore(team=0, melded=88, laid_off=3, doubles=40, in_hand=49, going_out=0)
    >>> score.total
    82
    >>> print(score)
    North-South: melded 88, laid off 3, doubles 40, in hand -49, going out 0, total 82
    >>> print(RoundScore(team=1, melded=18, laid_off=0, doubles=0, in_hand=0, going_out=25))
    East-West: melded 18, laid off 0, doubles 0, in hand 0, going out 25, total 43
    """

    #: The team: 0 for North-South, 1 for East-West (R3).
    team: int
    #: The value of the cards the team melded (R23).
    melded: int
    #: The value of the cards the team laid off, on any meld (R16, R23).
    laid_off: int
    #: The extra value of sets of four melded at once (R24).
    doubles: int
    #: The value of the cards left in both partners' hands, subtracted (R23).
    in_hand: int
    #: The going-out bonus, if a partner went out (R25).
    going_out: int

    @property
    def total(self) -> int:
        """The round's total: melded + laid off + doubles - in hand + going out.

        >>> RoundScore(team=1, melded=0, laid_off=0, doubles=0, in_hand=20, going_out=0).total
        -20
        """
        return self.melded + self.laid_off + self.doubles - self.in_hand + self.going_out

    def __str__(self) -> str:
        return (
            f"{TEAM_NAMES[self.team]}: melded {self.melded}, laid off {self.laid_off}, doubles {self.doubles}, "
            f"in hand {-self.in_hand}, going out {self.going_out}, total {self.total}"
        )


def tally(
    melds: Sequence[Meld], hands: Sequence[Hand], *, went_out: int | None, rules: Rules
) -> tuple[RoundScore, RoundScore]:
    """Score a table, the hands left and who went out, for both teams (R22-R25).

    Every card on the table counts for the team of the seat credited with it (R16, R23); a set
    of four melded in one action counts double (R24; four jokers only if
    ``rules.double_four_jokers``); cards in hand count against the partners who hold them;
    the team of ``went_out`` gets ``rules.going_out_bonus`` (R25).

    >>> from persian_rummy import Rules, Meld, Hand
    >>> jacks, sevens = Meld.parse("Js Jh Jd Jc", seat=2), Meld.parse("7s@0 7h@0 7d@0 7c+1")
    >>> ns, ew = tally([jacks, sevens], [Hand("Kd 4d"), Hand(), Hand(), Hand()], went_out=1, rules=Rules())
    >>> ns.total, ew.total
    (87, 32)
    """
    melded = [0, 0]
    laid_off = [0, 0]
    doubles = [0, 0]
    for meld in melds:
        first_melded, second_melded, first_laid, second_laid = credits(meld)
        melded[0] += first_melded
        melded[1] += second_melded
        laid_off[0] += first_laid
        laid_off[1] += second_laid
        if meld.scores_double(rules.double_four_jokers):
            doubles[team_of(meld.owner)] += meld.points
    in_hand = [0, 0]
    for seat, hand in enumerate(hands):
        in_hand[team_of(seat)] += hand.points
    bonus = [0, 0]
    if went_out is not None:
        bonus[team_of(went_out)] = rules.going_out_bonus
    return (
        RoundScore(0, melded[0], laid_off[0], doubles[0], in_hand[0], bonus[0]),
        RoundScore(1, melded[1], laid_off[1], doubles[1], in_hand[1], bonus[1]),
    )
