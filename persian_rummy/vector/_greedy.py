"""The greedy player inside JAX: :func:`greedy_action`, the action that
:class:`~persian_rummy.bots.GreedyBot` plays in a row's position, as pure fixed-shape code
(internal module; the name is re-exported by :mod:`persian_rummy.vector`).

It is the scalar bot's judgement (``persian_rummy._greedy``) read into arrays, tie-breaks
included: the legal actions in the scalar engine's order (the draws by pile index; the melds in
:func:`~persian_rummy.melds.candidate_melds` order, then the lay-offs by table meld and by the
meld's own order of its extension cards), the first of the best kept as Python's ``max``
keeps it; a hand's meld plan lays the first meld of greatest value in candidate order, again
and again, then lays off in passes over the table in order, one card a meld a pass, the meld's
low end first. Values are halves of whole numbers, kept doubled as ``int32``, so they tie
exactly where the scalar bot's floats tie.
"""

from __future__ import annotations

from typing import Final

import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from persian_rummy.cards import JOKER_INDEX
from persian_rummy.encoding import DISCARD_BASE, LAY_OFF_BASE, MAX_MELDS, MELD_BASE, PASS_INDEX
from persian_rummy.melds import LAY_OFFS, candidate_melds
from persian_rummy.rules import Rules
from persian_rummy.vector._knobs import Knobs
from persian_rummy.vector._state import DRAW, State
from persian_rummy.vector._tables import (
    EXTENSION_NEXT,
    MELD_BITS,
    MELD_JOKERS,
    MELD_KEYS,
    MELD_NUMBER_BY_KEY,
    NUM_MELDS,
    POINTS_ARRAY,
    read_only,
)

__all__ = ["greedy_action"]

Array = jax.Array


def _priority() -> npt.NDArray[np.int32]:
    # Each meld's place in candidate_melds' order: the enumeration of a hand that holds every
    # card lists every meld, and that of any hand lists its melds in the same relative order
    # (sets by rank, runs by suit then lowest then highest card, the ace-low runs after a
    # suit's others, the joker sets last), which the test checks on random hands.
    out = np.full(NUM_MELDS + 1, NUM_MELDS, np.int32)
    for place, (mask, jokers, _) in enumerate(candidate_melds((1 << JOKER_INDEX) - 1, 4, True)):
        out[MELD_NUMBER_BY_KEY[mask | jokers << JOKER_INDEX]] = place
    return out


def _lay_off_cards() -> npt.NDArray[np.int32]:
    # For each ace rule (0 high, 1 high or low) and meld, its extension cards in LAY_OFFS order
    # (at most two, the low end first), -1 padding; the empty slot takes none.
    out = np.full((2, NUM_MELDS + 1, 2), -1, np.int32)
    for number, key in enumerate(MELD_KEYS):
        cards = LAY_OFFS[key][0]
        for ace_low in (0, 1):
            for place, card in enumerate(cards[ace_low]):
                out[ace_low, number, place] = card.index
    return out


#: Each meld's place in :func:`~persian_rummy.melds.candidate_melds` order.
PRIORITY: Final = read_only(_priority())
#: ``LAY_OFF_CARDS[ace_low, meld]``: the cards that extend the meld, in the scalar scan's order.
LAY_OFF_CARDS: Final = read_only(_lay_off_cards())
#: The take and meld actions the bot weighs, in the scalar engine's order (the takes by pile
#: index, the melds by :data:`PRIORITY`), and their kinds (0 a take, 1 a meld; 2 for the
#: lay-offs after them, which depend on the table).
_TAKES_AND_MELDS: Final = read_only(
    np.concatenate([np.arange(1, PASS_INDEX), MELD_BASE + np.argsort(PRIORITY[:NUM_MELDS], kind="stable")]).astype(
        np.int32
    )
)
_KINDS: Final = read_only(np.repeat(np.array([0, 1, 2], np.int32), [PASS_INDEX - 1, NUM_MELDS, 2 * MAX_MELDS]))
_BIG: Final = 1 << 20
#: How many weighed actions one pass of the loop plans side by side.
_CHUNK: Final = 8
_SHIFTS: Final = np.arange(32, dtype=np.uint32)


def _split(bits: Array) -> tuple[Array, Array]:
    # 52 flags as the two words of _tables (cards 0-31, cards 32-51).
    flags = bits.astype(jnp.uint32)
    first = jnp.sum(flags[:32] << _SHIFTS, dtype=jnp.uint32)
    second = jnp.sum(flags[32:52] << _SHIFTS[:20], dtype=jnp.uint32)
    return first, second


def _flags(first: Array, second: Array) -> Array:
    # The two words back as 52 flags.
    return jnp.concatenate([(first >> _SHIFTS) & 1, ((second >> _SHIFTS) & 1)[:20]]).astype(bool)


def _holds(first: Array, second: Array, card: Array) -> Array:
    # Whether the words hold natural card ``card`` (0-51).
    word = jnp.where(card < 32, first, second)
    return ((word >> (card % 32).astype(jnp.uint32)) & 1) == 1


def _without(first: Array, second: Array, card: Array) -> tuple[Array, Array]:
    bit = jnp.uint32(1) << (card % 32).astype(jnp.uint32)
    return jnp.where(card < 32, first & ~bit, first), jnp.where(card < 32, second, second & ~bit)


class _Judge:
    """The greedy measures under one set of rules, as functions of arrays."""

    def __init__(self, rules: Rules) -> None:
        allowed, value = _rule_tables(rules)
        self.ace_low = rules.ace_low
        self.bonus = rules.going_out_bonus
        self.allowed = jnp.asarray(allowed)
        self.value = jnp.asarray(value)
        self.rank = jnp.asarray(value * 512 - np.asarray(PRIORITY, np.int32))  # the greatest value, then the first
        self.meld_bits = jnp.asarray(MELD_BITS)
        self.meld_jokers = jnp.asarray(MELD_JOKERS.astype(np.int32))
        self.next = jnp.asarray(
            np.where(np.asarray(EXTENSION_NEXT, np.int32) < 0, NUM_MELDS, EXTENSION_NEXT).astype(np.int32)
        )
        self.cards = jnp.asarray(LAY_OFF_CARDS[int(self.ace_low)])
        self.points = jnp.asarray(POINTS_ARRAY)

    def _best_meld(self, first: Array, second: Array, jokers: Array) -> tuple[Array, Array]:
        # The first meld of greatest value that the hand holds, and whether there is one.
        held = (
            self.allowed
            & ((self.meld_bits[:, 0] & ~first) == 0)
            & ((self.meld_bits[:, 1] & ~second) == 0)
            & (self.meld_jokers <= jokers)
        )
        scores = jnp.where(held, self.rank, -_BIG)
        best = jnp.argmax(scores).astype(jnp.int32)
        return best, held[best]

    def net2(self, first: Array, second: Array, jokers: Array, table: Array, count: Array) -> Array:
        """Twice ``_net``: the hand played out greedily on ``table`` (meld numbers, ``count``
        of them, the empty slot ``NUM_MELDS`` after): twice the points laid, minus the points
        left in hand, or twice the points laid and the bonus if it empties (R18, R23, R25)."""

        def meld_cond(carry: tuple[Array, ...]) -> Array:
            return carry[-1]

        def meld_body(carry: tuple[Array, ...]) -> tuple[Array, ...]:
            first, second, jokers, table, count, laid, best, _ = carry
            words = self.meld_bits[best]
            first, second = first & ~words[0], second & ~words[1]
            jokers = jokers - self.meld_jokers[best]
            table = jnp.where(jnp.arange(MAX_MELDS) == count, best, table)
            laid = laid + self.value[best]
            following, found = self._best_meld(first, second, jokers)
            return first, second, jokers, table, count + 1, laid, following, found

        best, found = self._best_meld(first, second, jokers)
        start: tuple[Array, ...] = (first, second, jokers, table, count, jnp.int32(0), best, found)
        first, second, jokers, table, count, laid, _, _ = jax.lax.while_loop(meld_cond, meld_body, start)

        def at(place: Array, carry: tuple[Array, ...]) -> tuple[Array, ...]:
            # One meld of the pass: the first of its extension cards that the hand holds.
            first, second, jokers, table, laid, changed = carry
            meld = table[place]
            options = self.cards[meld]
            usable = jnp.where(
                options == JOKER_INDEX, jokers > 0, (options >= 0) & _holds(first, second, jnp.maximum(options, 0))
            )
            card = jnp.where(usable[0], options[0], options[1])
            lays = usable[0] | usable[1]
            is_joker = card == JOKER_INDEX
            natural = lays & ~is_joker
            new_first, new_second = _without(first, second, jnp.clip(card, 0, JOKER_INDEX - 1))
            first = jnp.where(natural, new_first, first)
            second = jnp.where(natural, new_second, second)
            jokers = jokers - (lays & is_joker).astype(jnp.int32)
            grown = jnp.where(lays, self.next[meld, jnp.maximum(card, 0)], meld)
            table = jnp.where(jnp.arange(MAX_MELDS) == place, grown, table)
            laid = laid + jnp.where(lays, self.points[jnp.maximum(card, 0)], 0)
            return first, second, jokers, table, laid, changed | lays

        def pass_cond(carry: tuple[Array, ...]) -> Array:
            first, second, jokers, _, _, changed = carry
            return changed & ((first | second) != 0) | changed & (jokers > 0)

        def pass_body(carry: tuple[Array, ...]) -> tuple[Array, ...]:
            first, second, jokers, table, laid, _ = carry
            fresh: tuple[Array, ...] = (first, second, jokers, table, laid, jnp.bool_(False))
            swept: tuple[Array, ...] = jax.lax.fori_loop(0, MAX_MELDS, at, fresh)
            return swept

        start2: tuple[Array, ...] = (first, second, jokers, table, laid, jnp.bool_(True))
        first, second, jokers, table, laid, _ = jax.lax.while_loop(pass_cond, pass_body, start2)
        left = (
            jnp.sum(jnp.where(_flags(first, second), self.points[:JOKER_INDEX], 0)) + self.points[JOKER_INDEX] * jokers
        )
        empty = ((first | second) == 0) & (jokers == 0)
        return jnp.where(empty, 2 * (laid + self.bonus), 2 * laid - left)

    def action(self, state: State) -> Array:
        """The greedy bot's action id for one game's state (see :func:`greedy_action`)."""
        x = state._x
        legal = state.legal_action_mask
        counts = x.hands[x.current_player].astype(jnp.int32)
        first, second = _split(counts[:JOKER_INDEX] > 0)
        jokers = counts[JOKER_INDEX]
        table = jnp.where(x.meld_id < 0, NUM_MELDS, x.meld_id).astype(jnp.int32)
        count = x.num_melds.astype(jnp.int32)
        drawing = x.phase == DRAW
        # The actions the bot weighs, in the scalar engine's order of the legal actions: the
        # pile draws by index; the melds in candidate order, then the lay-offs by table meld,
        # each meld's extension cards in its own order (the low end first).
        lay_cards = self.cards[table]  # [18, 2]
        lay_actions = jnp.where(
            lay_cards >= 0, LAY_OFF_BASE + MAX_MELDS * lay_cards + jnp.arange(MAX_MELDS)[:, None], 0
        ).reshape(2 * MAX_MELDS)
        actions = jnp.concatenate([jnp.asarray(_TAKES_AND_MELDS), lay_actions])
        kinds = jnp.asarray(_KINDS)
        weighed = legal[actions] & jnp.where(drawing, kinds == 0, kinds > 0) & (actions > 0)
        (places,) = jnp.nonzero(weighed, size=actions.shape[0], fill_value=0)
        weighed_count = jnp.sum(weighed).astype(jnp.int32)
        # For each pile index, the cards from it to the top (R13): one-hot words summed from the
        # top down (the cards are distinct), and the jokers among them.
        in_pile = jnp.arange(x.pile.shape[0]) < x.pile_size
        pile_cards = x.pile.astype(jnp.int32)
        natural = in_pile & (pile_cards >= 0) & (pile_cards < JOKER_INDEX)
        safe = jnp.clip(pile_cards, 0, JOKER_INDEX - 1)
        one_first = jnp.where(natural & (safe < 32), jnp.uint32(1) << (safe % 32).astype(jnp.uint32), jnp.uint32(0))
        one_second = jnp.where(natural & (safe >= 32), jnp.uint32(1) << (safe % 32).astype(jnp.uint32), jnp.uint32(0))
        suffix_first = jnp.cumsum(one_first[::-1], dtype=jnp.uint32)[::-1]
        suffix_second = jnp.cumsum(one_second[::-1], dtype=jnp.uint32)[::-1]
        suffix_jokers = jnp.cumsum((in_pile & (pile_cards == JOKER_INDEX)).astype(jnp.int32)[::-1])[::-1]
        slots = jnp.arange(MAX_MELDS)

        def value2(action: Array) -> Array:
            # Twice what the bot measures for one weighed action (a draw: the hand's net with
            # the cards taken; a meld or lay-off: its points plus the rest played out).
            index = jnp.clip(action - 1, 0, x.pile.shape[0] - 1)
            takes = action > 0  # action 0 (the stock) weighs the hand as it is: the base
            drawn = (
                first | jnp.where(takes, suffix_first[index], 0),
                second | jnp.where(takes, suffix_second[index], 0),
                jokers + jnp.where(takes, suffix_jokers[index], 0),
            )
            is_meld = (action >= MELD_BASE) & (action < LAY_OFF_BASE)
            meld = jnp.clip(action - MELD_BASE, 0, NUM_MELDS - 1)
            words = self.meld_bits[meld]
            melded = (first & ~words[0], second & ~words[1], jokers - self.meld_jokers[meld])
            card = jnp.clip((action - LAY_OFF_BASE) // MAX_MELDS, 0, JOKER_INDEX)
            place = (action - LAY_OFF_BASE) % MAX_MELDS
            lay_first, lay_second = _without(first, second, jnp.minimum(card, JOKER_INDEX - 1))
            joker = card == JOKER_INDEX
            laid = (
                jnp.where(joker, first, lay_first),
                jnp.where(joker, second, lay_second),
                jokers - joker.astype(jnp.int32),
            )
            hand = tuple(
                jnp.where(drawing, d, jnp.where(is_meld, m, lay)) for d, m, lay in zip(drawn, melded, laid, strict=True)
            )
            on = (slots == place) & ~drawing & ~is_meld
            after = jnp.where(on, self.next[table, card], table)
            gained = jnp.where(drawing, 0, jnp.where(is_meld, self.value[meld], self.points[card]))
            return 2 * gained + self.net2(hand[0], hand[1], hand[2], after, count)

        # Slot 0 weighs the hand as it is (a draw's base: one traced plan serves both), slot
        # j > 0 the j-th weighed action; the slots are weighed _CHUNK at a time, side by side,
        # and the first of the greatest is kept, as Python's max keeps it.
        slot_actions = jnp.concatenate([jnp.zeros(1, jnp.int32), actions[places]])
        slot_actions = jnp.concatenate([slot_actions, jnp.zeros(_CHUNK, jnp.int32)])
        slots_used = weighed_count + 1

        def weigh_cond(carry: tuple[Array, ...]) -> Array:
            return carry[0] < slots_used

        def weigh_body(carry: tuple[Array, ...]) -> tuple[Array, ...]:
            start, best, best_value, base = carry
            numbers = start + jnp.arange(_CHUNK, dtype=jnp.int32)
            chunk = jax.lax.dynamic_slice(slot_actions, (start,), (_CHUNK,))
            values = jax.vmap(value2)(chunk)
            base = jnp.where(start == 0, values[0], base)
            weighed_here = (numbers > 0) & (numbers < slots_used)
            values = jnp.where(weighed_here, values, -_BIG)
            top = jnp.argmax(values)
            better = values[top] > best_value
            return (
                start + _CHUNK,
                jnp.where(better, chunk[top], best),
                jnp.where(better, values[top], best_value),
                base,
            )

        start: tuple[Array, ...] = (jnp.int32(0), jnp.int32(-1), jnp.int32(-_BIG), jnp.int32(0))
        _, best, best_value, base = jax.lax.while_loop(weigh_cond, weigh_body, start)
        # A draw: the best pile draw if it adds something, else the stock, or a pass (R12-R20).
        stock_or_pass = jnp.where(x.stock_size > 0, 0, PASS_INDEX)
        draw = jnp.where((best >= 0) & (best_value > base), best, stock_or_pass)
        # After the draw: the best meld or lay-off, else the discard that discard_order puts first.
        turn = jnp.where(best >= 0, best, self._discard(state, counts))
        chosen = jnp.where(drawing, draw, turn)
        only = jnp.sum(legal) == 1
        return jnp.where(only, jnp.argmax(legal).astype(jnp.int32), chosen).astype(jnp.int32)

    def _discard(self, state: State, counts: Array) -> Array:
        # discard_order's first: by _keep_score, then the costliest, then card order (R17, R22).
        x = state._x
        held = counts[:JOKER_INDEX] > 0
        pile_flags = (
            jnp.zeros(JOKER_INDEX + 2, bool)
            .at[jnp.where(jnp.arange(x.pile.shape[0]) < x.pile_size, x.pile.astype(jnp.int32), JOKER_INDEX + 1)]
            .set(True)[:JOKER_INDEX]
        )
        slots = jnp.arange(MAX_MELDS) < x.num_melds
        table_words = self.meld_bits[jnp.where(slots, x.meld_id, NUM_MELDS).astype(jnp.int32)]
        table_first = jnp.bitwise_or.reduce(table_words[:, 0])
        table_second = jnp.bitwise_or.reduce(table_words[:, 1])
        gone = pile_flags | _flags(table_first, table_second)
        grid = held.reshape(4, 13)
        dead = gone.reshape(4, 13)
        rank_held = grid.sum(axis=0)  # per rank
        rank_open = (~grid & ~dead).any(axis=0)
        mates = jnp.broadcast_to(rank_held - 1, (4, 13))
        sets = jnp.where((mates > 0) & (rank_open | (mates >= 2)), 2 * mates, 0)
        padded = jnp.pad(grid, ((0, 0), (2, 2)))
        dead_padded = jnp.pad(dead, ((0, 0), (3, 3)), constant_values=True)
        offsets = jnp.arange(13)
        score = sets
        for step in (-1, 1):
            neighbour = padded[:, 2 + step : 15 + step]
            # The ends of the pair: the rank below the lower card and above the higher (R9).
            low = jnp.minimum(offsets, offsets + step) - 1
            high = jnp.maximum(offsets, offsets + step) + 1
            low_open = (low >= 0) & ~dead_padded[:, 3 + low]
            high_open = (high < 13) & ~dead_padded[:, jnp.minimum(high, 12) + 3]
            score = score + jnp.where(neighbour & (low_open | high_open), 2, 0)
        for step in (-2, 2):
            neighbour = padded[:, 2 + step : 15 + step]
            between = dead_padded[:, 3 + offsets + step // 2]
            score = score + jnp.where(neighbour & ~between, 1, 0)
        naturals = score.reshape(JOKER_INDEX)
        joker_score = jnp.where(counts[JOKER_INDEX] >= 2, 4, 0)
        keep = jnp.concatenate([naturals, joker_score[None]])
        key = (keep * 64 + (63 - self.points)) * 64 + jnp.arange(JOKER_INDEX + 1)
        legal = state.legal_action_mask[DISCARD_BASE:]
        return (DISCARD_BASE + jnp.argmin(jnp.where(legal, key, _BIG))).astype(jnp.int32)


#: The rules' allowed melds (R10) and meld values (R24), as numpy tables, by rules: the
#: device arrays are made anew in each trace (an array made inside one trace and kept would
#: leak its tracer into the next).
_RULE_TABLES: dict[Rules, tuple[npt.NDArray[np.bool_], npt.NDArray[np.int32]]] = {}


def _rule_tables(rules: Rules) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int32]]:
    tables = _RULE_TABLES.get(rules)
    if tables is None:
        knobs = Knobs(rules, 1.0, 1.0)
        tables = _RULE_TABLES[rules] = (np.asarray(knobs.allowed, bool), np.asarray(knobs.meld_value, np.int32))
    return tables


def greedy_action(state: State) -> Array:
    """The action id (``int32``) that :class:`~persian_rummy.bots.GreedyBot` plays in one
    game's position, exactly, tie-breaks included: a pure function of fixed shapes, so
    ``jax.vmap`` batches it and ``jax.jit`` compiles it, and an evaluation against greedy
    stays on the device. Once the game is over (every action legal) it answers 0.

    >>> import jax
    >>> from persian_rummy import GameState, play
    >>> from persian_rummy.actions import DrawDiscard
    >>> from persian_rummy.encoding import ACTIONS
    >>> from persian_rummy.vector import Env
    >>> position = GameState.from_position(["", "5s 6s 7s 8h 2c Kd", "", ""], "8s Qh", dealer=0)
    >>> state = Env().from_states([position, play(position, DrawDiscard(0))])
    >>> [ACTIONS[int(i)] for i in jax.jit(jax.vmap(greedy_action))(state)]  # as GreedyBot's docstring
    [DrawDiscard(index=0), MeldCards(cards=(Card.parse('5s'), Card.parse('6s'), Card.parse('7s'), Card.parse('8s')))]
    """
    rules = state._rules
    judge = _Judge(rules)
    over = state.terminated
    return jnp.where(over, 0, judge.action(state)).astype(jnp.int32)
