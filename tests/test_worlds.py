"""Hidden worlds (R27): a sampled world looks to its seat exactly as the real position does
and holds every card of the deck once (R1); the functions that the bots' search, the replay
of a redacted record and the OpenSpiel adapter's redeal share take out the cards the seat has
seen, complete a taker's meld (R14) and fill the hidden places in order."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from playouts import information, reachable_states

from persian_rummy import (
    DECK,
    Card,
    GameState,
    InfoState,
    InvalidArgumentError,
    info_after,
    legal_actions,
)
from persian_rummy._moves import meld_partners
from persian_rummy.worlds import cards_to_complete, determinize, fill_hidden, unseen_cards


def every_card(state: GameState) -> Counter[Card]:
    """Each card of a state, wherever it is, with how often it is there."""
    cards = Counter(state.stock) + Counter(state.discard_pile)
    for hand in state.hands:
        cards.update(hand)
    for meld in state.melds:
        cards.update(meld.cards)
    return cards


@given(reachable_states(live=True), st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_r1_r27_a_world_of_a_view_shows_the_seat_that_view_and_holds_every_card_once(
    state: GameState, seat: int, sample: int
) -> None:
    view = state.view(seat)
    world = determinize(view, random.Random(sample))
    world.validate()  # a position that can arise: the mover has a legal action (R14, R19)
    assert world.view(seat) == view
    assert every_card(world) == Counter(DECK)
    if seat == state.current_player:
        assert legal_actions(world) == legal_actions(state)


@given(information(), st.integers(0, 2**32 - 1))
def test_r1_r13_r27_a_world_of_an_information_state_shows_the_seat_its_view_and_holds_every_card_once(
    position: tuple[GameState, InfoState], sample: int
) -> None:
    state, info = position
    world = determinize(info, random.Random(sample))
    world.validate()
    assert world.view(info.seat) == info.view
    assert every_card(world) == Counter(DECK)
    assert every_card(world) == every_card(state)


def test_r27_the_same_generator_samples_the_same_world() -> None:
    view = GameState.from_position(["4s 5s", "Qs Ks As 2h", "Jk 3c", "7h 8h 9h"], "2c 9c").view(0)
    assert determinize(view, random.Random(7)) == determinize(view, random.Random(7))


@given(st.permutations(DECK), st.integers(0, len(DECK)))
def test_r1_the_unseen_cards_are_the_rest_of_the_deck_in_deck_order(deck: list[Card], count: int) -> None:
    seen = deck[:count]
    unseen = unseen_cards(seen)
    assert Counter(seen) + Counter(unseen) == Counter(DECK)
    assert unseen == sorted(unseen)


def test_r1_a_card_seen_more_often_than_the_deck_holds_it_takes_out_every_copy() -> None:
    assert unseen_cards([*DECK, *DECK]) == []
    assert unseen_cards([DECK[0], DECK[0]]) == list(DECK[1:])


@given(st.sampled_from(DECK), st.data(), st.permutations(DECK), st.integers(0, 40), st.integers(0, 3))
def test_r14_the_cards_that_complete_a_meld_are_those_of_the_first_group_that_fits(
    target: Card, data: st.DataObject, deck: list[Card], count: int, room: int
) -> None:
    groups = list(meld_partners(target))
    # The hand is known to hold some cards, often partners of the target.
    partners = sorted({card for group in groups for card in group})
    held = data.draw(st.lists(st.sampled_from(partners) | st.sampled_from(DECK), max_size=4))
    unseen = deck[:count]
    need = cards_to_complete(groups, held, unseen, room)

    def missing(group: tuple[Card, ...]) -> Counter[Card]:
        return Counter(group) - Counter(held)

    fitting = [group for group in groups if missing(group).total() <= room and not missing(group) - Counter(unseen)]
    if not fitting:
        assert need is None
        return
    assert need is not None
    assert Counter(need) == missing(fitting[0])  # nothing the hand already holds is dealt again
    assert len(need) <= room and not Counter(need) - Counter(unseen)
    assert not Counter(fitting[0]) - Counter(held) - Counter(need)  # the hand now melds the target


@given(
    st.lists(st.none() | st.sampled_from(DECK), max_size=30),
    st.lists(st.sampled_from(DECK), max_size=30),
)
def test_filling_keeps_the_known_places_and_gives_the_hidden_ones_the_cards_in_order(
    places: list[Card | None], cards: list[Card]
) -> None:
    hidden = places.count(None)
    if len(cards) < hidden:
        with pytest.raises(InvalidArgumentError, match=f"fewer cards than the {hidden} hidden places"):
            fill_hidden(places, cards)
        return
    filled = fill_hidden(places, cards)
    assert len(filled) == len(places)
    assert [card for card, place in zip(filled, places, strict=True) if place is not None] == [
        place for place in places if place is not None
    ]
    assert [card for card, place in zip(filled, places, strict=True) if place is None] == cards[:hidden]


def test_r27_a_decisions_seed_reads_the_bots_seed_and_what_its_seat_has_seen_only() -> None:
    from persian_rummy import new_game
    from persian_rummy.worlds import seat_seed

    info = info_after(new_game(1), ["draw", "discard Jk"], seat=3)
    world = determinize(info, random.Random(1))
    assert world.hands != new_game(1).hands  # other hidden cards ...
    same = InfoState(world.view(3), info.history)
    assert seat_seed(4, same) == seat_seed(4, info)  # ... the same seed
    assert len({seat_seed(4, info), seat_seed(5, info), seat_seed(4, info.view), seat_seed("4", info)}) == 4
    later = info_after(new_game(1), ["draw", "discard Jk", "draw"], seat=3)
    assert seat_seed(4, later) != seat_seed(4, info)
