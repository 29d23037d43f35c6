"""The greedy player's judgement (internal): what a hand is worth played out greedily, which
cards to keep, which draw and which meld or lay-off to prefer, and the score margin a rollout
ends on. :class:`~persian_rummy.bots.GreedyBot` plays :func:`greedy_choice`;
:class:`~persian_rummy.bots.MonteCarloBot` ranks its candidates by the same measures and plays
:func:`greedy_rollout` in each sampled world; the search player values a leaf by
:func:`score_margin` where its policy has no value head.

Everything here reads masks (``_bits``) and meld keys (``melds.meld_key``), never builds a
meld, so that a rollout's turn costs microseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from persian_rummy._bits import RANK_MASKS, SUIT_BITS, cards_bits, mask_points
from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards, Pass, meld_action
from persian_rummy.cards import JOKER_INDEX, POINTS
from persian_rummy.engine import legal_actions, play
from persian_rummy.melds import LAY_OFFS, MeldKind, candidate_melds, meld_key
from persian_rummy.scoring import tally
from persian_rummy.state import GameState, Phase
from persian_rummy.view import PlayerView

__all__ = [
    "discard_order",
    "draw_gains",
    "greedy_choice",
    "greedy_draw",
    "greedy_rollout",
    "greedy_turn",
    "score_margin",
]

#: What the greedy rules read: the view of the seat to move, or (in rollouts) the full state,
#: whose ``hand`` is the hand of the player to move.
_Position = GameState | PlayerView


def _meld_value(mask: int, jokers: int, is_set: bool, double_jokers: bool = True) -> int:
    value = mask_points(mask) + POINTS[JOKER_INDEX] * jokers
    if is_set and mask.bit_count() + jokers == 4 and (mask or double_jokers):
        value *= 2  # R24: a set of four melded at once scores double (four jokers: a knob)
    return value


#: The value of every meld of the deck (see _meld_value), by ``mask | jokers << JOKER_INDEX``,
#: under ``double_four_jokers`` False and True (index 0 and 1, R24): worked out once at import
#: instead of for each candidate of each plan.
_MELD_VALUES: Final = tuple(
    {
        mask | jokers << JOKER_INDEX: _meld_value(mask, jokers, shape.kind is MeldKind.SET, double_jokers)
        for mask, jokers, shape in candidate_melds((1 << JOKER_INDEX) - 1, 4, True)
    }
    for double_jokers in (False, True)
)
#: The engine's shared meld actions by identity (they live as long as the module), with their
#: mask and jokers; any other MeldCards is read from its cards.
_MELD_ACTIONS: Final = {
    id(action): (action, mask, jokers)
    for action, mask, jokers in (
        (meld_action(mask, jokers), mask, jokers)
        for mask, jokers, _ in candidate_melds((1 << JOKER_INDEX) - 1, 4, True)
    )
}


def _plan(mask: int, jokers: int, table: Sequence[int], ace_low: bool, double_jokers: bool) -> tuple[int, int, int]:
    """A greedy meld plan for a hand: repeatedly lay the most valuable meld, then lay off
    whatever fits the table and the new melds. Returns ``(points laid, mask left, jokers left)``
    (R8-R11, R15-R16, R22, R24). The table is the melds' keys (see ``meld_key``): what a meld
    takes depends on its cards only, so the plan builds no meld."""
    laid = 0
    keys = list(table)
    values = _MELD_VALUES[double_jokers]
    while True:
        best = None
        best_value = 0
        for meld_mask, meld_jokers, _ in candidate_melds(mask, jokers, ace_low):
            value = values[meld_mask | meld_jokers << JOKER_INDEX]
            if value > best_value:
                best, best_value = (meld_mask, meld_jokers), value
        if best is None:
            break
        meld_mask, meld_jokers = best
        mask &= ~meld_mask
        jokers -= meld_jokers
        laid += best_value
        keys.append(meld_mask | meld_jokers << JOKER_INDEX)
    if mask or jokers:
        changed = True
        while changed and (mask or jokers):
            changed = False
            held = mask | (1 << JOKER_INDEX if jokers else 0)
            for position, key in enumerate(keys):
                cards, bits = LAY_OFFS[key]
                if not bits[ace_low] & held:
                    continue
                for card in cards[ace_low]:
                    index = card.index
                    if index == JOKER_INDEX:
                        if not jokers:
                            continue
                        jokers -= 1
                        keys[position] = key + (1 << JOKER_INDEX)
                    elif mask >> index & 1:
                        mask &= ~(1 << index)
                        keys[position] = key | 1 << index
                    else:
                        continue
                    laid += POINTS[index]
                    changed = True
                    break
    return laid, mask, jokers


def _net(mask: int, jokers: int, table: Sequence[int], ace_low: bool, bonus: int, double_jokers: bool) -> float:
    """What a hand is worth if played out greedily now on a table of meld keys: points laid,
    minus half the points left in hand (they may still be melded or discarded later), plus the
    going-out bonus if it empties (R18, R23, R25)."""
    laid, left_mask, left_jokers = _plan(mask, jokers, table, ace_low, double_jokers)
    if not left_mask and not left_jokers:
        return laid + bonus
    return laid - 0.5 * (mask_points(left_mask) + POINTS[JOKER_INDEX] * left_jokers)


def _neighbours(offset: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    # For a rank offset: each adjacent rank's bit with the bits of the two ends that would make
    # the pair a run of three, and each rank two away with the bit of the rank between.
    adjacent = []
    for neighbour in (offset - 1, offset + 1):
        if 0 <= neighbour < 13:
            low, high = min(offset, neighbour) - 1, max(offset, neighbour) + 1
            ends = (1 << low if low >= 0 else 0) | (1 << high if high < 13 else 0)
            adjacent.append((1 << neighbour, ends))
    gapped = [
        (1 << neighbour, 1 << ((offset + neighbour) // 2))
        for neighbour in (offset - 2, offset + 2)
        if 0 <= neighbour < 13
    ]
    return tuple(adjacent), tuple(gapped)


_NEIGHBOURS: Final = tuple(_neighbours(offset) for offset in range(13))


def _keep_score(index: int, mask: int, jokers: int, gone: int) -> int:
    """How close a card of the hand is to a meld: partners for a set, neighbours for a run,
    counting only melds whose missing cards are not already out of play (``gone``)."""
    if index == JOKER_INDEX:
        return 4 if jokers >= 2 else 0
    offset = index % 13
    base = index - offset
    score = 0
    rank_mask = RANK_MASKS[offset]
    mates = (mask & rank_mask & ~(1 << index)).bit_count()
    if mates and (rank_mask & ~mask & ~gone or mates >= 2):
        score += 2 * mates
    suit_bits = mask >> base & SUIT_BITS
    dead = gone >> base & SUIT_BITS
    adjacent, gapped = _NEIGHBOURS[offset]
    # A neighbour in the suit counts 2 if a card beyond the pair is still in play, a rank two
    # away counts 1 if the card between is.
    for bit, ends in adjacent:
        if suit_bits & bit and ends & ~dead:
            score += 2
    for bit, between in gapped:
        if suit_bits & bit and not dead & between:
            score += 1
    return score


def _out_of_play(view: _Position) -> int:
    """The natural cards on the table or in the discard pile, as a mask."""
    gone = cards_bits(view.discard_pile)[0]
    for meld in view.melds:
        gone |= meld.mask
    return gone


def discard_order(view: _Position, discards: Sequence[Discard]) -> list[Discard]:
    """The discards from best to worst: loose cards before cards close to melds, then the
    costliest first (R22), then card order."""
    hand = view.hand
    mask, jokers = hand.mask, hand.jokers
    gone = _out_of_play(view)

    def key(action: Discard) -> tuple[int, int, int]:
        index = action.card.index
        return _keep_score(index, mask, jokers, gone), -POINTS[index], index

    return sorted(discards, key=key)


def _table_action_value(view: _Position, action: Action) -> float:
    """The value of a meld or lay-off: its own points plus what the rest of the hand can then
    lay greedily (going out counts its bonus)."""
    hand = view.hand
    mask, jokers = hand.mask, hand.jokers
    ace_low = view.rules.ace_low
    table = [meld_key(meld) for meld in view.melds]
    if isinstance(action, MeldCards):
        known = _MELD_ACTIONS.get(id(action))
        if known is not None and known[0] is action:
            _, meld_mask, meld_jokers = known
            gained = _MELD_VALUES[view.rules.double_four_jokers][meld_mask | meld_jokers << JOKER_INDEX]
        else:
            meld_mask, meld_jokers = cards_bits(action.cards)
            is_set = meld_jokers > 0 or len({card.rank for card in action.cards}) == 1
            gained = _meld_value(meld_mask, meld_jokers, is_set, view.rules.double_four_jokers)
        mask &= ~meld_mask
        jokers -= meld_jokers
        # The table as it is: the new meld's extensions matter little for this comparison.
    else:
        assert isinstance(action, LayOff)
        index = action.card.index
        gained = POINTS[index]
        if index == JOKER_INDEX:
            jokers -= 1
            table[action.meld] += 1 << JOKER_INDEX
        else:
            mask &= ~(1 << index)
            table[action.meld] |= 1 << index
    return gained + _net(mask, jokers, table, ace_low, view.rules.going_out_bonus, view.rules.double_four_jokers)


def draw_gains(view: _Position, actions: Sequence[Action]) -> list[tuple[float, Action]]:
    """For each legal pile draw, how much more the hand could lay down with the cards taken
    than without them."""
    hand = view.hand
    mask, jokers = hand.mask, hand.jokers
    ace_low = view.rules.ace_low
    bonus = view.rules.going_out_bonus
    table = [meld_key(meld) for meld in view.melds]
    double_jokers = view.rules.double_four_jokers
    base = _net(mask, jokers, table, ace_low, bonus, double_jokers)
    pile = view.discard_pile
    gains: list[tuple[float, Action]] = []
    for action in actions:
        if not isinstance(action, DrawDiscard):
            continue
        taken_mask, taken_jokers = cards_bits(pile[action.index :])
        gains.append(
            (_net(mask | taken_mask, jokers + taken_jokers, table, ace_low, bonus, double_jokers) - base, action)
        )
    return gains


def greedy_choice(view: _Position, actions: Sequence[Action]) -> Action:
    if len(actions) == 1:
        return actions[0]
    if view.phase is Phase.DRAW:
        return greedy_draw(view, actions)
    return greedy_turn(view, actions)


def greedy_draw(view: _Position, actions: Sequence[Action]) -> Action:
    gains = draw_gains(view, actions)
    best_gain, best = max(gains, key=lambda item: item[0], default=(0.0, None))
    if best is not None and best_gain > 0:
        return best
    fallback = actions[0]
    if isinstance(fallback, DrawStock):
        return fallback
    return actions[-1] if isinstance(actions[-1], Pass) else (best or fallback)


def greedy_turn(view: _Position, actions: Sequence[Action]) -> Action:
    table = [action for action in actions if type(action) is MeldCards or type(action) is LayOff]
    if table:
        return max(table, key=lambda action: _table_action_value(view, action))
    discards = [action for action in actions if isinstance(action, Discard)]
    return discard_order(view, discards)[0]


def score_margin(state: GameState, team: int) -> float:
    """The score margin of ``team`` if the round ended now (R23), or at its end (R25)."""
    first, second = state.scores
    if state.phase.is_live:
        now = tally(state.melds, state.hands, went_out=None, rules=state.rules)
        first += now[0].total
        second += now[1].total
    return first - second if team == 0 else second - first


def greedy_rollout(state: GameState, turns: int, team: int) -> float:
    """Play greedily for everyone until ``turns`` more turns have ended or the round is over."""
    while state.phase.is_live:
        seat = state.current_player
        state = play(state, greedy_choice(state, legal_actions(state)))
        if state.current_player != seat:
            turns -= 1
            if turns <= 0:
                break
    return score_margin(state, team)
