"""The tables that depend on the rules and the rewards, built once per :class:`Env
<persian_rummy.vector.Env>` from the fixed tables of :mod:`._tables` (internal)."""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from persian_rummy.cards import JOKER_INDEX
from persian_rummy.limits import DECK_POINTS, deal_points
from persian_rummy.rules import Rules
from persian_rummy.vector._tables import (
    CARD_COLUMNS,
    EXTENSION_BITS,
    MELD_ACE_LOW,
    MELD_COUNTS,
    MELD_JOKERS,
    MELD_SET,
    MELD_SIZE,
    NUM_MELDS,
    PAIRS,
    POINTS_ARRAY,
)

__all__ = ["DECKS_LIMIT", "JOKER_BIT", "Knobs", "margin_limit"]

#: The most later deals whose decks a game draws when it starts (``GameArrays.decks``): with
#: more (``Rules.deals`` above 9), a step without a key draws the next deal's deck as it deals.
DECKS_LIMIT: Final = 8
#: The joker's flag in the second word of a card set.
JOKER_BIT: Final = np.uint32(1 << 20)
#: Each meld's points, not doubled (R22).
_MELD_POINTS: Final = np.dot(MELD_COUNTS.astype(np.int32), np.asarray(POINTS_ARRAY, np.int32))


def margin_limit(rules: Rules) -> int:
    """R23-R25: a deal's margin is at most one team's best deal plus the deck in the other's hands."""
    return deal_points(rules.going_out_bonus) + DECK_POINTS


def _pair_bits(ace_low: bool) -> npt.NDArray[np.uint32]:
    """For each card, its three-card meld partners (:data:`PAIRS`) as two words each; a pair
    that cannot be (padding, or the ace low when the rules forbid it, R10) is all ones, which
    no hand holds."""
    out = np.full((CARD_COLUMNS, PAIRS.shape[1], 2), 0xFFFFFFFF, np.uint32)
    for card in range(CARD_COLUMNS):
        for number, (first, second, low) in enumerate(PAIRS[card].tolist()):
            if first < 0 or first == JOKER_INDEX or (low and not ace_low):
                continue
            words = [0, 0]
            for partner in (first, second):
                words[partner // 32] |= 1 << (partner % 32)
            out[card, number] = words
    return out


class Knobs:
    """The rules' knobs as flags and numpy tables (device constants once traced)."""

    def __init__(self, rules: Rules, reward_scale: float, illegal_action_penalty: float) -> None:
        self.rules = rules
        self.reward_scale = reward_scale
        self.penalty = illegal_action_penalty
        self.ace_low = rules.ace_low
        self.forbidden = rules.last_card_discard == "forbidden"
        self.lay_off_pickup = rules.pickup_use == "meld_or_lay_off"
        allowed = np.ones(NUM_MELDS + 1, bool)
        allowed[NUM_MELDS] = False
        if not self.ace_low:
            allowed &= np.logical_not(MELD_ACE_LOW)
        self.allowed = allowed
        self.extensions = EXTENSION_BITS[int(self.ace_low)]
        self.pair_bits = _pair_bits(self.ace_low)
        # R24: a set of four melded at once scores double (four jokers only if the knob says so).
        doubled = MELD_SET & (MELD_SIZE == 4)
        if not rules.double_four_jokers:
            doubled &= MELD_JOKERS == 0
        self.meld_value = (_MELD_POINTS * np.where(doubled, 2, 1)).astype(np.int32)
        # The later deals whose decks a game draws when it starts (GameArrays.decks).
        self.deck_slots = rules.deals - 1 if rules.deals - 1 <= DECKS_LIMIT else 0
        self.deal_fraction = np.array([number / rules.deals for number in range(rules.deals + 1)], np.float32)
        self.margin_limit = margin_limit(rules)
        self.margins = np.array(
            [margin / reward_scale for margin in range(-self.margin_limit, self.margin_limit + 1)], np.float32
        )
