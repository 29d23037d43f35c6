"""The rules of a turn, one section per family of actions (internal): whose turn it is, drawing
from the stock, taking from the discard pile, melding, laying off, discarding, passing, and
the last card and going out; then the legal actions, listed from the same tables.

Each family has one check that returns its verdict, as :func:`~persian_rummy.melds.shape_of`
does for melds: ``None`` (or what the action makes) when the rules allow the action, else a
:class:`Refusal` that names the rule, the error and the reason. :func:`verdict` asks the check
of an action's family: :func:`~persian_rummy.play` raises its refusal (or makes the next state
from what it allows) and :func:`~persian_rummy.is_legal` answers from it, without making a
state. :func:`~persian_rummy.legal_actions` lists the actions from the tables the checks use
(the melds of a hand, what the table accepts, whether a card taken can be used, the last-card
rule); :meth:`GameState.validate <persian_rummy.GameState.validate>` asks the same enumeration
whether the player to move has an action. The checks read masks, melds, rules and the public
fields of a position (``SharedFields``, the base of a state and a view), never the state's class, so
they sit below the state in the layers.

=========================  ==========  =========================================
family                     rules       check
=========================  ==========  =========================================
whose turn                 R3, R6      :func:`seat_verdict`
which part of the turn     R12, R18,   each check below asks it first
                           R20
draw from the stock        R12, R20    :func:`draw_verdict`
take from the pile         R13-R14     :func:`take_verdict`
meld                       R8-R11,     :func:`meld_verdict`
                           R14-R15
lay off                    R11, R14,   :func:`lay_off_verdict`
                           R16
discard                    R14, R17    :func:`discard_verdict`
pass                       R20         :func:`pass_verdict`
the last card, going out   R18-R19     :func:`leftover_verdict`, :func:`goes_out`
=========================  ==========  =========================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

import attrs

from persian_rummy._bits import ACE_BIT, RANK_MASKS, SUIT_BITS, cards_bits, repeated
from persian_rummy._phase import Phase, SharedFields
from persian_rummy.actions import (
    DISCARDS,
    DRAW_STOCK,
    MELD_ACTIONS,
    PASS,
    Action,
    Discard,
    DrawDiscard,
    DrawStock,
    LayOff,
    MeldCards,
    Pass,
    draw_discard_action,
    lay_off_action,
    meld_action,
)
from persian_rummy.cards import CARDS, JOKER_INDEX, Card
from persian_rummy.errors import (
    CardNotInHandError,
    EmptyStockError,
    IllegalActionError,
    InvalidDrawError,
    InvalidLayOffError,
    InvalidMeldError,
    LastCardError,
    MeldValueError,
    NoSuchMeldError,
    NotYourTurnError,
    PassNotAllowedError,
    TargetNotUsedError,
    WrongPhaseError,
    counted,
    excerpt,
)
from persian_rummy.hand import Hand, make_hand
from persian_rummy.melds import (
    Meld,
    candidate_melds,
    extend,
    extension_bits,
    extensions,
    new_meld,
    shape_of,
    table_extensions,
)
from persian_rummy.rules import Rules
from persian_rummy.scoring import RoundScore as RoundScore  # re-exported: scoring is its home
from persian_rummy.scoring import tally as tally  # re-exported: scoring is its home


@attrs.frozen
class Refusal:
    """The verdict of a check that refuses an action: the error to raise, the rule broken, the
    full message (it may name the mover's cards) and the public reason (``None``: the error's
    own default, which names no hidden card, R27).

    >>> from persian_rummy import GameState
    >>> refusal = pass_verdict(GameState.from_position(["", "", "", ""], []), 48)
    >>> refusal.rule, refusal.error.__name__
    ('R20', 'PassNotAllowedError')
    """

    error: type[IllegalActionError]
    rule: str
    message: str
    reason: str | None = None

    def exception(self, state: object, action: object) -> IllegalActionError:
        """The error to raise for ``action`` tried on ``state``."""
        return self.error(self.rule, self.message, state=state, action=action, reason=self.reason)


# --- Whose turn, and which part of it (R3, R6, R12, R18, R20) ----------------------------


def seat_verdict(position: SharedFields, seat: object) -> Refusal | None:
    """Whether ``seat`` may act now: a seat 0-3 (R3) that is to move while the round is live
    (R6); once the round is over, any seat's action is refused by its phase instead."""
    if type(seat) is not int or not 0 <= seat < 4:
        return Refusal(NotYourTurnError, "R3", f"seats are 0, 1, 2 and 3, so {excerpt(seat)} is never to move")
    if seat != position.current_player and position.phase.is_live:
        return Refusal(NotYourTurnError, "R6", f"it is seat {position.current_player}'s turn, not seat {seat}'s")
    return None


def _wrong_phase(position: SharedFields, phase: Phase, action: Action | None) -> Refusal:
    # The refusal for an action of the part of the turn ``phase`` (a turn starts with a draw or
    # a pass and goes on with melds, lay-offs and a discard, R12; no one acts once the round
    # is over, R18, R20), for a position not in it. Every family's check asks it first.
    seat = position.current_player
    if not position.phase.is_live:
        return Refusal(
            WrongPhaseError,
            "R18" if position.went_out is not None else "R20",
            f"the round is over (phase {position.phase.name}); nobody acts until the next deal",
        )
    if phase is Phase.DRAW:
        return Refusal(
            WrongPhaseError,
            "R12",
            f"seat {seat} has already drawn this turn; {str(action)!r} is only for the start of a turn",
        )
    return Refusal(WrongPhaseError, "R12", f"seat {seat} must draw first (or pass with an empty stock)")


# --- Drawing from the stock (R12, R20) ----------------------------------------------------


def draw_verdict(position: SharedFields, stock_size: int) -> Refusal | None:
    """Whether the player to move may draw the top card of the stock: at the start of the turn
    (R12), while the stock has cards (R20)."""
    if position.phase is not Phase.DRAW:
        return _wrong_phase(position, Phase.DRAW, DRAW_STOCK)
    if not stock_size:
        return Refusal(EmptyStockError, "R20", "the stock is empty: take from the discard pile or pass")
    return None


# --- Taking from the discard pile (R13-R14) -----------------------------------------------


def take_verdict(
    position: SharedFields, hand: Hand, index: object, action: Action | None
) -> tuple[int, int, Card | None] | Refusal:
    """Whether the player to move may take ``discard_pile[index]`` and every card above it
    (R13): the index is in the pile, and its card, the target, can be melded or laid off at
    once with the hand and all the cards taken (R14; and without stranding a last card under
    ``last_card_discard="forbidden"``, R19), unless it is the top card and
    ``top_card_must_meld`` is off. The verdict is the hand after the draw, as a mask and
    jokers, and the card the next action must use (``None`` for a top card taken freely).
    ``action`` is the shared ``DrawDiscard`` of the index, ``None`` for one past the
    pile's limit."""
    if position.phase is not Phase.DRAW:
        return _wrong_phase(position, Phase.DRAW, action)
    pile = position.discard_pile
    if action is None or type(index) is not int or index >= len(pile):
        return Refusal(
            InvalidDrawError,
            "R13",
            f"there is no card at index {excerpt(index)} of the discard pile ({counted(len(pile), 'card')}, 0 at the bottom)",
        )
    taken_mask, taken_jokers = cards_bits(pile[index:])
    mask, jokers = hand.mask | taken_mask, hand.jokers + taken_jokers
    rules = position.rules
    if index == len(pile) - 1 and not rules.top_card_must_meld:
        return mask, jokers, None  # the top card alone is taken freely
    target = pile[index]
    if not target_usable(mask, jokers, target, position.melds, rules, position.current_player):
        how = "melded" if rules.pickup_use == "new_meld_only" else "melded or laid off"
        if rules.last_card_discard == "forbidden":
            how += " (without stranding a last card, R19)"
        return Refusal(InvalidDrawError, "R14", f"{target} cannot be {how} at once, so it may not be taken")
    return mask, jokers, target


def target_usable(mask: int, jokers: int, target: Card, melds: tuple[Meld, ...], rules: Rules, seat: int) -> bool:
    """Whether the card taken from the discard pile can be melded or laid off at once, using the
    hand plus every card taken (R14, and R19 under ``"forbidden"``)."""
    if rules.last_card_discard == "forbidden":
        return bool(meld_phase_actions(mask, jokers, melds, target, rules, seat, first_only=True))
    ace_low = rules.ace_low
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
    ace_low = rules.ace_low
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


def _target_refusal(position: SharedFields, used: bool) -> Refusal | None:
    # After a take, the next action must use the card taken (R14).
    must = position.must_meld
    if must is None or used:
        return None
    how = "meld" if position.rules.pickup_use == "new_meld_only" else "meld or lay off"
    return Refusal(TargetNotUsedError, "R14", f"the next action must {how} {must}, taken from the discard pile")


# --- Melding (R8-R11, R14-R15) ------------------------------------------------------------


def meld_verdict(position: SharedFields, hand: Hand, cards: tuple[Card, ...], action: Action) -> Meld | Refusal:
    """Whether the player to move may lay down ``cards`` (in canonical order) as a new meld:
    after the draw (R12), no card named twice (R1), every card held (R15), a valid set or run
    (R8-R11) with the ace low only under ``ace_in_runs="high_or_low"`` (R10), using the card
    taken from the pile if there is one (R14), and not stranding a last card (R19). The
    verdict is the new meld, credited to the player."""
    if position.phase is not Phase.MELD:
        return _wrong_phase(position, Phase.MELD, action)
    seat = position.current_player
    mask, jokers = cards_bits(cards)
    twice = repeated(cards) if mask.bit_count() + jokers < len(cards) else None
    if twice is not None:
        return Refusal(
            InvalidMeldError,
            "R1",
            f"{twice} is named twice, but the deck has one {twice}",
            "R1: the meld names a card twice, but the deck has one of each",
        )
    if mask & ~hand.mask or jokers > hand.jokers:
        missing = [str(card) for card in cards if card not in hand]
        if jokers > hand.jokers:
            missing.append(f"{jokers} jokers (holds {hand.jokers})")
        return Refusal(
            CardNotInHandError,
            "R15",
            f"seat {seat} does not hold {' '.join(dict.fromkeys(missing))}",
            f"R15: seat {seat} does not hold every card of the meld",
        )
    shape = shape_of(mask, jokers)
    if isinstance(shape, MeldValueError):
        return Refusal(
            InvalidMeldError,
            shape.rule,
            f"{' '.join(map(str, cards))} is not a valid meld: {shape.reason}",
            f"{shape.rule}: not a valid meld: {shape.reason}",
        )
    if shape.ace_low and not position.rules.ace_low:
        text = "in runs the ace is high only (ace_in_runs='high'): A-2-3 is not a run"
        return Refusal(InvalidMeldError, "R10", text, f"R10: {text}")
    must = position.must_meld
    refusal = _target_refusal(position, must is None or must in cards)
    if refusal is not None:
        return refusal
    new = new_meld(mask, jokers, shape, seat)
    refusal = leftover_verdict(position, hand.mask & ~mask, hand.jokers - jokers, (new,))
    return new if refusal is None else refusal


# --- Laying off (R11, R14, R16) -----------------------------------------------------------


def lay_off_verdict(
    position: SharedFields, hand: Hand, card: Card, meld: object, action: Action | None
) -> Meld | Refusal:
    """Whether the player to move may add ``card`` to table meld number ``meld``: after the
    draw (R12), a meld on the table, a card held, one that keeps the meld valid (R11, R16),
    the card taken from the pile if there is one, and not under ``pickup_use="new_meld_only"``
    (R14), not stranding a last card (R19). The verdict is the meld extended, the card
    credited to the player. ``action`` is the shared ``LayOff``, ``None`` for a table index
    past the limit."""
    if position.phase is not Phase.MELD:
        return _wrong_phase(position, Phase.MELD, action)
    melds = position.melds
    if action is None or type(meld) is not int or meld >= len(melds):
        return Refusal(
            NoSuchMeldError, "R16", f"there is no meld {excerpt(meld)} on the table ({counted(len(melds), 'meld')})"
        )
    refusal = _card_refusal(position, hand, card, "R16")
    if refusal is not None:
        return refusal
    target_meld = melds[meld]
    if card not in extensions(target_meld, position.rules.ace_low):
        rule = "R11" if card.is_joker or target_meld.is_joker_set else "R16"
        return Refusal(
            InvalidLayOffError,
            rule,
            f"{card} does not extend the meld {' '.join(map(str, target_meld.cards))}",
            f"{rule}: the card named does not extend meld {meld} ({' '.join(map(str, target_meld.cards))})",
        )
    must = position.must_meld
    if must is not None and position.rules.pickup_use == "new_meld_only":
        return Refusal(
            TargetNotUsedError,
            "R14",
            f"the next action must lay down a new meld containing {must} (pickup_use='new_meld_only')",
        )
    refusal = _target_refusal(position, must is None or must == card)
    if refusal is not None:
        return refusal
    extended = extend(target_meld, card, position.current_player)
    mask, jokers = without(hand.mask, hand.jokers, card.index)
    refusal = leftover_verdict(position, mask, jokers, (), replaced=(meld, extended))
    return extended if refusal is None else refusal


def can_lay_off(card_index: int, melds: Iterable[Meld], ace_low: bool) -> bool:
    """Whether some meld of ``melds`` accepts the card of ``card_index`` (R16)."""
    return any(extension_bits(table_meld, ace_low) >> card_index & 1 for table_meld in melds)


def lay_off_bits(melds: tuple[Meld, ...], ace_low: bool) -> int:
    """Every card that some meld of the table accepts, as a mask (bit ``JOKER_INDEX`` for the
    joker): what :func:`can_lay_off` asks of each card, computed once for a table."""
    return table_extensions(melds, ace_low)[0]


def _card_refusal(position: SharedFields, hand: Hand, card: Card, rule: str) -> Refusal | None:
    # The card an action names is in the mover's hand (R16, R17).
    if hand.jokers if card.index == JOKER_INDEX else hand.mask >> card.index & 1:
        return None
    seat = position.current_player
    return Refusal(
        CardNotInHandError,
        rule,
        f"seat {seat} does not hold {card}",
        f"{rule}: seat {seat} does not hold the card named",
    )


# --- Discarding (R14, R17, R19) -----------------------------------------------------------


def discard_verdict(position: SharedFields, hand: Hand, card: Card) -> Refusal | None:
    """Whether the player to move may discard ``card``, ending the turn: after the draw (R12),
    not while the card taken from the pile waits to be used (R14), a card held (R17), and not
    the last card under ``last_card_discard="forbidden"`` (R19)."""
    if position.phase is not Phase.MELD:
        return _wrong_phase(position, Phase.MELD, DISCARDS[card.index])
    if position.must_meld is not None:
        return _target_refusal(position, False)
    refusal = _card_refusal(position, hand, card, "R17")
    if refusal is None and position.rules.last_card_discard == "forbidden" and len(hand) == 1:
        return Refusal(
            LastCardError,
            "R19",
            f"seat {position.current_player} may not discard their last card (last_card_discard='forbidden')",
        )
    return refusal


# --- Passing (R20) ------------------------------------------------------------------------


def pass_verdict(position: SharedFields, stock_size: int) -> Refusal | None:
    """Whether the player to move may pass instead of drawing: at the start of the turn, only
    when the stock is empty (R20)."""
    if position.phase is not Phase.DRAW:
        return _wrong_phase(position, Phase.DRAW, PASS)
    if stock_size:
        return Refusal(
            PassNotAllowedError,
            "R20",
            f"seat {position.current_player} may pass only when the stock is empty ({counted(stock_size, 'card')} left)",
        )
    return None


# --- One verdict for any action -----------------------------------------------------------

#: A check's verdict: a refusal, or what the action makes (the meld of a meld or a lay-off,
#: the hand and the card to use of a take), or ``None`` for a legal action that makes nothing.
Verdict = Refusal | Meld | tuple[int, int, Card | None] | None

#: A check asked with the position, the hand of the player to move, the stock's size and the
#: action.
Check = Callable[[SharedFields, Hand, int, Any], Verdict]
#: The check of each kind of action (what :func:`verdict` asks; the engine's play reads it
#: directly, as its hot path).
CHECKS: Final[dict[type[Action], Check]] = {
    DrawStock: lambda position, hand, stock_size, action: draw_verdict(position, stock_size),
    DrawDiscard: lambda position, hand, stock_size, action: take_verdict(position, hand, action.index, action),
    MeldCards: lambda position, hand, stock_size, action: meld_verdict(position, hand, action.cards, action),
    LayOff: lambda position, hand, stock_size, action: lay_off_verdict(
        position, hand, action.card, action.meld, action
    ),
    Discard: lambda position, hand, stock_size, action: discard_verdict(position, hand, action.card),
    Pass: lambda position, hand, stock_size, action: pass_verdict(position, stock_size),
}


def verdict(position: SharedFields, hand: Hand, stock_size: int, action: Action) -> Verdict:
    """The verdict of ``action``'s family on ``position``, whose player to move holds ``hand``
    with ``stock_size`` cards in the stock: the one question :func:`~persian_rummy.play` and
    :func:`~persian_rummy.is_legal` ask (the seat is asked apart, :func:`seat_verdict`).

    >>> from persian_rummy import new_game, Pass
    >>> state = new_game(1)
    >>> verdict(state, state.hand, len(state.stock), Pass()).rule
    'R20'
    """
    return CHECKS[type(action)](position, hand, stock_size, action)


# --- The last card and going out (R18-R19) ------------------------------------------------


def leftover_ok(mask: int, jokers: int, melds: tuple[Meld, ...], rules: Rules) -> bool:
    """Under ``last_card_discard="forbidden"``: a hand left with one card is allowed only if that
    card can be laid off at once (R19)."""
    if mask.bit_count() + jokers != 1:
        return True
    index = JOKER_INDEX if jokers else mask.bit_length() - 1
    return can_lay_off(index, melds, rules.ace_low)


def leftover_verdict(
    position: SharedFields,
    mask: int,
    jokers: int,
    added: tuple[Meld, ...],
    *,
    replaced: tuple[int, Meld] | None = None,
) -> Refusal | None:
    """Whether a meld or lay-off may leave the hand ``mask`` and ``jokers``: under
    ``last_card_discard="forbidden"`` a last card must be one the table accepts, as it will be
    with ``added`` melded (or meld ``replaced[0]`` grown into ``replaced[1]``), since it may
    not be discarded (R19)."""
    rules = position.rules
    if rules.last_card_discard != "forbidden" or mask.bit_count() + jokers != 1:
        return None
    melds = position.melds + added
    if replaced is not None:
        index, meld = replaced
        melds = melds[:index] + (meld,) + melds[index + 1 :]
    if leftover_ok(mask, jokers, melds, rules):
        return None
    left = next(iter(make_hand(mask, jokers)))
    seat = position.current_player
    return Refusal(
        LastCardError,
        "R19",
        f"this would leave seat {seat} holding only {left}, which cannot be laid off, "
        "and last_card_discard='forbidden' forbids discarding it",
        f"R19: this would leave seat {seat} one card that cannot be laid off, "
        "and last_card_discard='forbidden' forbids discarding it",
    )


def goes_out(left: Hand, rules: Rules, *, by_discard: bool) -> bool:
    """Whether the player to move goes out, ending the round, with ``left`` in hand: emptying
    the hand by melding or laying off goes out (R18); discarding the last card does only under
    ``last_card_discard="goes_out"``, and keeps the player in with an empty hand under
    ``"stays_in"`` (R19)."""
    return not left and (not by_discard or rules.last_card_discard == "goes_out")


def without(mask: int, jokers: int, index: int) -> tuple[int, int]:
    """The hand ``mask`` and ``jokers`` less the card of ``index``."""
    if index == JOKER_INDEX:
        return mask, jokers - 1
    return mask & ~(1 << index), jokers


# --- The legal actions, from the same tables ----------------------------------------------


class _SuitDiscards(dict[int, tuple[Action, ...]]):
    """The discards of one suit's cards, in card order, by the suit's 13 bits (each made when
    first asked for: at most 8192 a suit). Two threads that miss at once store equal tuples of
    the same shared actions, so the table needs no lock."""

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.base = 13 * suit

    def __missing__(self, bits: int) -> tuple[Action, ...]:
        discards = self[bits] = tuple(DISCARDS[self.base + rank] for rank in range(13) if bits >> rank & 1)
        return discards


_SUIT_DISCARDS: Final = tuple(_SuitDiscards(suit) for suit in range(4))


def turn_actions_of(
    position: SharedFields, hand: Hand, stock_size: int, *, draws_only: bool = False
) -> tuple[Action, ...]:
    """The legal actions of the player to move, who holds ``hand``, with ``stock_size`` cards
    in the stock; only the draw phase's with ``draws_only``, and none once the round is over.

    In the draw phase: the stock if it has cards (R12), each discard-pile index whose target
    can be used at once, from the bottom up (R13-R14), and a pass when the stock is empty
    (R20). After the draw: the melds, lay-offs and discards (R14-R17, R19).
    """
    phase = position.phase
    seat = position.current_player
    if phase is Phase.MELD:
        if draws_only:
            return ()
        return tuple(
            meld_phase_actions(hand.mask, hand.jokers, position.melds, position.must_meld, position.rules, seat)
        )
    if phase is not Phase.DRAW:
        return ()
    out: list[Action] = [DRAW_STOCK] if stock_size else []
    pile = position.discard_pile
    if pile:
        usable = usable_targets(hand.mask, hand.jokers, pile, position.melds, position.rules, seat)
        out.extend([draw_discard_action(index) for index in reversed(usable)])
    if not stock_size:
        out.append(PASS)
    return tuple(out)


def meld_phase_actions(
    mask: int,
    jokers: int,
    melds: tuple[Meld, ...],
    must: Card | None,
    rules: Rules,
    seat: int,
    first_only: bool = False,
) -> list[Action]:
    """The legal actions after the draw: melds, then lay-offs, then discards (R14-R19), from
    the melds of the hand (:func:`~persian_rummy.melds.candidate_melds`), what the table
    accepts (:func:`~persian_rummy.melds.table_extensions`) and the last-card rule
    (:func:`leftover_ok`), as the checks above read them."""
    ace_low = rules.ace_low
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
