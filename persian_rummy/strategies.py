"""Hypothesis strategies for Persian Rummy: cards, hands, melds, rules, reachable game states
and actions, for testing bots, servers and the engine itself.

This module needs Hypothesis (``pip install ".[hypothesis]"`` in a clone of the repository); the rest of the
package does not, and ``import persian_rummy`` never imports this module.

Every strategy shrinks towards something simple: cards towards the two of spades, decks
towards the canonical order of :data:`~persian_rummy.DECK`, game states towards short games
(fewer actions, each the first legal action), so a failing game shrinks to a short one.

>>> from hypothesis import given
>>> from persian_rummy import legal_actions, play
>>> @given(game_states(), st.data())
... def test_every_legal_action_applies(state, data):
...     action = data.draw(legal_actions_for(state))
...     assert action in legal_actions(state)
...     play(state, action)
>>> test_every_legal_action_applies()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from persian_rummy._extras import needs_extra

with needs_extra("hypothesis", __name__):
    from hypothesis import strategies as st

from persian_rummy.actions import (
    Action,
    Discard,
    DrawDiscard,
    DrawStock,
    LayOff,
    MeldCards,
    Pass,
)
from persian_rummy.cards import CARDS, DECK, JOKER, Card, Rank, Suit
from persian_rummy.dealing import next_deal
from persian_rummy.engine import legal_actions, play
from persian_rummy.errors import MeldValueError
from persian_rummy.hand import Hand
from persian_rummy.limits import MELD_LIMIT, PILE_LIMIT
from persian_rummy.melds import AceInRuns, Meld
from persian_rummy.rules import Rules
from persian_rummy.state import GameState, Phase

__all__ = [
    "any_actions_for",
    "cards",
    "decks",
    "game_states",
    "hands",
    "illegal_actions_for",
    "invalid_melds",
    "joker_sets",
    "legal_actions_for",
    "melds",
    "natural_cards",
    "rules",
    "runs",
    "seats",
    "sets",
]

_NATURALS: Final = CARDS[:52]


def seats() -> st.SearchStrategy[int]:
    """A seat, 0-3 (R3); shrinks towards seat 0.

    >>> from hypothesis import find
    >>> find(seats(), lambda seat: seat > 1)
    2
    """
    return st.integers(0, 3)


def natural_cards() -> st.SearchStrategy[Card]:
    """One of the 52 natural cards (no joker); shrinks towards the two of spades.

    >>> from hypothesis import find
    >>> find(natural_cards(), lambda card: card.suit is Suit.HEARTS and card.rank >= Rank.TEN)
    Card.parse('Th')
    """
    return st.sampled_from(_NATURALS)


def cards() -> st.SearchStrategy[Card]:
    """One of the 53 distinct cards, the joker included (R1); shrinks towards the two of spades.

    >>> from hypothesis import find
    >>> find(cards(), lambda card: card.points == 20)
    Card.parse('Jk')
    """
    return st.sampled_from(CARDS)


def decks() -> st.SearchStrategy[tuple[Card, ...]]:
    """The 56-card deck in any order, as dealt by
    :meth:`~persian_rummy.GameState.from_deck`; shrinks towards :data:`~persian_rummy.DECK`.

    >>> from hypothesis import given
    >>> @given(decks())
    ... def test_a_deck_holds_the_56_cards(deck):
    ...     assert sorted(deck) == sorted(DECK)
    >>> test_a_deck_holds_the_56_cards()
    """
    return st.permutations(DECK).map(tuple)


def hands(min_size: int = 0, max_size: int = 14) -> st.SearchStrategy[Hand]:
    """A hand of ``min_size`` to ``max_size`` cards that could come from one deck (up to four
    jokers, each natural card at most once); shrinks towards the start of
    :data:`~persian_rummy.DECK`.

    >>> from hypothesis import find
    >>> find(hands(min_size=3), lambda hand: True)
    Hand.parse('2s 3s 4s')
    """
    if not 0 <= min_size <= max_size <= len(DECK):
        raise ValueError(f"hands() needs 0 <= min_size <= max_size <= 56, not {min_size} and {max_size}")
    positions = st.lists(st.integers(0, len(DECK) - 1), min_size=min_size, max_size=max_size, unique=True)
    return positions.map(lambda chosen: Hand([DECK[position] for position in chosen]))


def sets(seat: int | None = None, *, size: int | None = None) -> st.SearchStrategy[Meld]:
    """A freshly melded set of 3 or 4 natural cards of one rank (R8), played by ``seat`` (any
    seat if ``None``).

    >>> from hypothesis import find
    >>> find(sets(seat=2, size=4), lambda meld: True)
    Meld.parse('2s@2 2h@2 2d@2 2c@2')
    >>> find(sets(), lambda meld: meld.points > 20 and len(meld) == 3)
    Meld.parse('7s@0 7h@0 7d@0')
    """
    return st.builds(
        _make_set,
        st.sampled_from(tuple(Rank)),
        st.sampled_from((3, 4)) if size is None else st.just(size),
        st.permutations(tuple(Suit)),
        seats() if seat is None else st.just(seat),
    )


def _make_set(rank: Rank, size: int, suits: Sequence[Suit], seat: int) -> Meld:
    return Meld([Card(rank, suit) for suit in suits[:size]], seats=seat)


def runs(ace_in_runs: AceInRuns = "high", seat: int | None = None) -> st.SearchStrategy[Meld]:
    """A freshly melded run of 3 to 13 cards of one suit (R9), ace high; with
    ``ace_in_runs="high_or_low"`` also runs that play the ace low, A-2-3… (R10). Shrinks
    towards 2♠ 3♠ 4♠.

    >>> from hypothesis import find
    >>> find(runs(), lambda meld: True)
    Meld.parse('2s@0 3s@0 4s@0')
    >>> find(runs("high_or_low"), lambda meld: meld.ace_low)
    Meld.parse('As@0 2s@0 3s@0')
    """

    # A run is (suit, length, low rank); a low rank of 1 plays the ace low (lengths 3-12: the
    # whole suit A-2…K is the same cards as 2…A, an ace-high run).
    def runs_of(low_ranks: st.SearchStrategy[int], lengths: st.SearchStrategy[int]) -> st.SearchStrategy[Meld]:
        return st.builds(
            _make_run,
            st.sampled_from(tuple(Suit)),
            lengths,
            low_ranks,
            seats() if seat is None else st.just(seat),
        )

    high = st.integers(3, 13).flatmap(lambda length: runs_of(st.integers(2, 15 - length), st.just(length)))
    if ace_in_runs == "high":
        return high
    low = runs_of(st.just(1), st.integers(3, 12))
    return st.one_of(high, low)


def _make_run(suit: Suit, length: int, low: int, seat: int) -> Meld:
    ranks = [Rank.ACE if value == 1 else Rank(value) for value in range(low, low + length)]
    return Meld([Card(rank, suit) for rank in ranks], seats=seat)


def joker_sets(seat: int | None = None) -> st.SearchStrategy[Meld]:
    """A freshly melded set of 3 or 4 jokers and nothing else (R11).

    >>> from hypothesis import find
    >>> find(joker_sets(seat=1), lambda meld: len(meld) == 4)
    Meld.parse('Jk@1 Jk@1 Jk@1 Jk@1')
    """
    return st.builds(
        lambda size, seat: Meld([JOKER] * size, seats=seat),
        st.sampled_from((3, 4)),
        seats() if seat is None else st.just(seat),
    )


def melds(ace_in_runs: AceInRuns = "high", *, max_lay_offs: int = 3) -> st.SearchStrategy[Meld]:
    """A valid meld as it may lie on the table: a set, a run (ace low too under
    ``ace_in_runs="high_or_low"``) or a joker set, then up to ``max_lay_offs`` cards laid off
    on it by any seats (R16), each extending it validly.

    >>> from hypothesis import given
    >>> @given(melds("high_or_low"))
    ... def test_a_meld_reads_back_from_its_text(meld):
    ...     assert Meld.parse(str(meld)) == meld
    >>> test_a_meld_reads_back_from_its_text()
    """
    fresh = st.one_of(sets(), runs(ace_in_runs), joker_sets())
    if max_lay_offs <= 0:
        return fresh

    @st.composite
    def laid_off(draw: st.DrawFn) -> Meld:
        meld = draw(fresh)
        for _ in range(draw(st.integers(0, max_lay_offs))):
            extensions = meld.lay_off_cards(ace_in_runs)
            if not extensions:
                break
            meld = meld.lay_off(draw(st.sampled_from(extensions)), draw(seats()), ace_in_runs=ace_in_runs)
        return meld

    return laid_off()


def _is_valid_meld(cards: Sequence[Card], ace_in_runs: AceInRuns) -> bool:
    try:
        meld = Meld(cards)
    except MeldValueError:
        return False
    return ace_in_runs == "high_or_low" or not meld.ace_low


def invalid_melds(ace_in_runs: AceInRuns = "high") -> st.SearchStrategy[tuple[Card, ...]]:
    """Cards that do not make a meld the rules allow: too few cards, jokers with natural cards
    or fewer than three (R11), runs with a gap or wrapping past the ace (R9), mixed suits and
    ranks, a card named twice (R1), and, under ``ace_in_runs="high"``, runs with the ace low
    (R10). Melding them raises :class:`~persian_rummy.InvalidMeldError`; :class:`~persian_rummy.Meld` refuses
    them (raises :class:`~persian_rummy.MeldValueError`) but for the ace played low.

    >>> from hypothesis import given
    >>> @given(invalid_melds())
    ... def test_no_invalid_meld_is_a_meld(cards):
    ...     try:
    ...         meld = Meld(cards)
    ...     except MeldValueError:
    ...         return
    ...     assert meld.ace_low  # valid as a value, but the ace is high only (R10)
    >>> test_no_invalid_meld_is_a_meld()
    """
    natural_lists = st.lists(natural_cards(), min_size=1, max_size=6, unique=True)
    near_misses = st.one_of(
        # too few cards (R8)
        st.lists(natural_cards(), min_size=1, max_size=2, unique=True),
        # jokers with natural cards, or too few jokers (R11)
        st.builds(
            lambda jokers, naturals: [JOKER] * jokers + naturals,
            st.integers(1, 4),
            st.lists(natural_cards(), min_size=1, max_size=3, unique=True),
        ),
        st.integers(1, 2).map(lambda jokers: [JOKER] * jokers),
        # one suit, ranks with a gap or wrapping K-A-2 (R9, R10)
        st.builds(
            lambda suit, ranks: [Card(rank, suit) for rank in ranks],
            st.sampled_from(tuple(Suit)),
            st.lists(st.sampled_from(tuple(Rank)), min_size=3, max_size=6, unique=True),
        ),
        # a card named twice (R1)
        natural_cards().map(lambda card: [card, card, card]),
        # anything at all
        natural_lists,
    )
    if ace_in_runs == "high":
        near_misses = st.one_of(
            near_misses,
            st.builds(
                lambda suit, length: (
                    [Card(Rank.ACE, suit)] + [Card(Rank(value), suit) for value in range(2, length + 1)]
                ),
                st.sampled_from(tuple(Suit)),
                st.integers(3, 12),
            ),
        )
    return near_misses.filter(lambda chosen: not _is_valid_meld(chosen, ace_in_runs)).map(tuple)


def rules(max_deals: int = 3, **fixed: Any) -> st.SearchStrategy[Rules]:
    """A :class:`~persian_rummy.Rules` with every knob drawn (``deals`` from 1 to
    ``max_deals``), except those given as keyword arguments, which are fixed. Shrinks
    towards the defaults (one deal).

    >>> from hypothesis import find
    >>> find(rules(), lambda rules: True) == Rules(deals=1)
    True
    >>> find(rules(last_card_discard="forbidden"), lambda rules: True).last_card_discard
    'forbidden'
    """
    knobs: dict[str, st.SearchStrategy[Any]] = {
        "deals": st.integers(1, max_deals),
        "ace_in_runs": st.sampled_from(("high", "high_or_low")),
        "top_card_must_meld": st.sampled_from((True, False)),
        "pickup_use": st.sampled_from(("meld_or_lay_off", "new_meld_only")),
        "last_card_discard": st.sampled_from(("stays_in", "goes_out", "forbidden")),
        "stock_out_end": st.sampled_from(("all_pass", "first_pass")),
        "double_four_jokers": st.sampled_from((True, False)),
        "going_out_bonus": st.sampled_from((25, 0, 50)) | st.integers(0, 1000),
    }
    unknown = set(fixed) - {field.name for field in attrs.fields(Rules)}
    if unknown:
        raise ValueError(f"rules() got unknown knobs: {', '.join(sorted(unknown))}")
    for name, value in fixed.items():
        knobs[name] = st.just(value)
    return st.builds(Rules, **knobs)


# game_states() takes a parameter named ``rules``; this is the strategy of that name.
_any_rules = rules


def game_states(
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    *,
    max_actions: int = 300,
    finished: bool = False,
) -> st.SearchStrategy[GameState]:
    """A state reached by random legal play: deal a shuffled deck (any dealer, any rules unless
    ``rules`` is given), then play up to ``max_actions`` actions, each drawn from
    :func:`~persian_rummy.legal_actions`; a finished deal is followed by the next
    (:func:`~persian_rummy.next_deal`), so later deals and running scores occur too.

    With ``finished=False`` (the default) the state is always live (someone is to act); with
    ``finished=True`` it may be a finished round or game. Each choice is a separate draw, so a
    failing state shrinks to a short game of first-listed actions from a simple deck.

    >>> from hypothesis import given
    >>> from persian_rummy import legal_actions
    >>> @given(game_states(Rules(last_card_discard="forbidden")))
    ... def test_the_player_to_move_can_always_act(state):
    ...     assert state.phase.is_live and legal_actions(state)
    >>> test_the_player_to_move_can_always_act()
    """
    rule_sets: st.SearchStrategy[Rules]
    if rules is None:
        rule_sets = _any_rules()
    elif isinstance(rules, Rules):
        rule_sets = st.just(rules)
    else:
        rule_sets = rules

    @st.composite
    def played(draw: st.DrawFn) -> GameState:
        state = GameState.from_deck(draw(decks()), dealer=draw(seats()), rules=draw(rule_sets))
        live = state
        for _ in range(draw(st.integers(0, max_actions))):
            if state.phase is Phase.GAME_OVER:
                break
            if state.phase is Phase.ROUND_OVER:
                state = next_deal(state, draw(st.integers(0, 2**32 - 1)))
            else:
                actions = legal_actions(state)
                state = play(state, actions[draw(st.integers(0, len(actions) - 1))])
            if state.phase.is_live:
                live = state
        return state if finished else live

    return played()


def legal_actions_for(state: GameState) -> st.SearchStrategy[Action]:
    """One of the legal actions of ``state`` (which must be live); shrinks towards the first
    listed by :func:`~persian_rummy.legal_actions`.

    >>> from hypothesis import find
    >>> from persian_rummy import new_game
    >>> find(legal_actions_for(new_game(1)), lambda action: True)
    DrawStock()
    """
    actions = legal_actions(state)
    if not actions:
        raise ValueError(f"the round is over, so there is no legal action [{state.summary()}]")
    return st.sampled_from(actions)


def any_actions_for(state: GameState) -> st.SearchStrategy[Action]:
    """Any well-formed action, legal or not, that is plausible in ``state``: every kind of
    action, discard-pile indices and meld numbers around the real ones, cards mostly from the
    hand of the player to move.

    >>> from hypothesis import given
    >>> from persian_rummy import new_game
    >>> @given(any_actions_for(new_game(1)))
    ... def test_every_action_has_a_text_form(action):
    ...     assert Action.parse(str(action)) == action
    >>> test_every_action_has_a_text_form()
    """
    held = tuple(state.hands[state.current_player])
    card = st.one_of(st.sampled_from(held), cards()) if held else cards()
    return st.one_of(
        st.just(DrawStock()),
        st.just(Pass()),
        st.builds(DrawDiscard, st.integers(0, len(state.discard_pile) + 1)),
        st.builds(Discard, card),
        st.builds(LayOff, card, st.integers(0, min(len(state.melds) + 1, MELD_LIMIT - 1))),
        st.builds(MeldCards, st.lists(card, min_size=1, max_size=5)),
    )


def illegal_actions_for(state: GameState) -> st.SearchStrategy[Action]:
    """An action that the rules forbid in ``state``: one of :func:`any_actions_for` that is not
    in :func:`~persian_rummy.legal_actions` (every action, once the round is over). Playing it
    raises an :class:`~persian_rummy.IllegalActionError` subclass.

    >>> from hypothesis import given
    >>> from persian_rummy import IllegalActionError, new_game, play
    >>> @given(illegal_actions_for(new_game(1)))
    ... def test_illegal_actions_raise(action):
    ...     try:
    ...         play(new_game(1), action)
    ...     except IllegalActionError:
    ...         return
    ...     raise AssertionError(f"{action} was played")
    >>> test_illegal_actions_raise()
    """
    legal = frozenset(legal_actions(state))

    def illegal(actions: Sequence[Action]) -> list[Action]:
        return [action for action in actions if action not in legal]

    # Each kind of action from the illegal ones listed outright where they can be (so no
    # filter has to throw many draws away); lay-offs and melds are mostly illegal anyway.
    held = tuple(state.hands[state.current_player])
    card = st.one_of(st.sampled_from(held), cards()) if held else cards()
    kinds: list[st.SearchStrategy[Action]] = [
        st.sampled_from(illegal([DrawDiscard(index) for index in range(min(len(state.discard_pile) + 2, PILE_LIMIT))])),
        st.sampled_from(illegal([Discard(card) for card in CARDS])),
        st.builds(LayOff, card, st.integers(0, min(len(state.melds) + 1, MELD_LIMIT - 1))).filter(
            lambda action: action not in legal
        ),
        st.builds(MeldCards, st.lists(card, min_size=1, max_size=5)).filter(lambda action: action not in legal),
    ]
    kinds += [st.just(action) for action in illegal([DrawStock(), Pass()])]
    return st.one_of(kinds)
