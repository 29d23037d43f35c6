"""Meld values: sets, runs, joker sets, lay-off extensions and the meld notation (R8-R11, R16, R24)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from persian_rummy import (
    Card,
    GameState,
    InvalidArgumentError,
    InvalidStateError,
    Meld,
    MeldKind,
    MeldValueError,
    NotationError,
    parse_cards,
)
from persian_rummy.melds import extension_bits, table_extensions
from persian_rummy.strategies import game_states, rules


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


@pytest.mark.parametrize("text", ["4s 4d 4h", "4s 4d 4h 4c", "As Ad Ac", "Ts Th Tc"])
def test_r8_sets_of_three_or_four_of_a_rank(text: str) -> None:
    meld = Meld.parse(text, seat=0)
    assert meld.kind is MeldKind.SET
    assert len(meld) == len(cards(text))


@pytest.mark.parametrize("text", ["4s 4d", "4s", "4s 4d 5h", "4s 4d 4h 5c"])
def test_r8_not_a_set(text: str) -> None:
    with pytest.raises(MeldValueError):
        Meld.parse(text, seat=0)


@pytest.mark.parametrize(
    "text", ["Js Qs Ks As", "2s 3s 4s", "8h 9h Th", "9c Tc Jc Qc Kc", "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad"]
)
def test_r9_runs_of_three_or_more_in_suit_order(text: str) -> None:
    meld = Meld.parse(text, seat=0)
    assert meld.kind is MeldKind.RUN
    assert list(meld.cards) == sorted(cards(text))


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("4s 5s 7s", "R9"),  # a gap
        ("4s 5s 6h", "R9"),  # two suits
        ("4s 5s", "R8"),  # too short
        ("Ks As 2s", "R9"),  # wraps round the ace
        ("Qs Ks As 2s", "R9"),
        ("Ks As 2s 3s", "R9"),
    ],
)
def test_r9_not_a_run_and_runs_never_wrap(text: str, rule: str) -> None:
    with pytest.raises(MeldValueError) as caught:
        Meld.parse(text, seat=0)
    assert caught.value.rule == rule
    assert str(caught.value).startswith(rule)


def test_r9_a_run_holds_at_most_13_cards_and_the_whole_suit_takes_no_lay_off() -> None:
    suit = Meld.parse("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah", seat=0)
    assert len(suit) == 13
    assert suit.lay_off_cards("high") == () == suit.lay_off_cards("high_or_low")
    with pytest.raises(MeldValueError):
        suit.lay_off("Ah", seat=1)


def test_r9_runs_are_kept_ascending_whatever_the_input_order() -> None:
    assert Meld(["Ks", "As", "Qs"], seats=3) == Meld.parse("Qs Ks As", seat=3)
    assert [str(card) for card in Meld.parse("As Qs Ks", seat=0).cards] == ["Qs", "Ks", "As"]


def test_r10_ace_is_high_q_k_a_is_a_run_without_ace_low() -> None:
    meld = Meld.parse("Qs Ks As", seat=0)
    assert meld.kind is MeldKind.RUN and not meld.ace_low


def test_r10_ace_low_run_is_a_meld_value_flagged_ace_low_in_order() -> None:
    meld = Meld.parse("3s 2s As", seat=0)
    assert meld.ace_low
    assert [str(card) for card in meld.cards] == ["As", "2s", "3s"]
    assert str(meld) == "As@0 2s@0 3s@0"
    assert Meld.parse(str(meld)) == meld


def test_r10_ace_in_runs_high_offers_no_ace_below_a_two() -> None:
    run = Meld.parse("2s 3s 4s", seat=0)
    assert run.lay_off_cards("high") == cards("5s")
    assert not run.accepts("As") and not run.accepts("As", "high")
    with pytest.raises(MeldValueError, match="R16"):
        run.lay_off("As", seat=0)


def test_r10_ace_in_runs_high_or_low_offers_the_ace_below_a_two() -> None:
    run = Meld.parse("2s 3s 4s", seat=0)
    assert run.lay_off_cards("high_or_low") == cards("As 5s")
    extended = run.lay_off("As", seat=1, ace_in_runs="high_or_low")
    assert extended.ace_low
    assert str(extended) == "As+1 2s@0 3s@0 4s@0"
    # Ace low: nothing goes below it (no wrapping to the king).
    assert extended.lay_off_cards("high_or_low") == cards("5s")


def test_r10_ace_high_run_never_extends_past_the_ace_to_a_two() -> None:
    run = Meld.parse("Qs Ks As", seat=0)
    assert run.lay_off_cards("high") == cards("Js") == run.lay_off_cards("high_or_low")
    assert not run.accepts("2s", "high_or_low")


def test_r10_two_to_king_takes_the_ace_once_as_the_top_card() -> None:
    run = Meld.parse("2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd", seat=0)
    assert run.lay_off_cards("high") == cards("Ad") == run.lay_off_cards("high_or_low")
    whole = run.lay_off("Ad", seat=2, ace_in_runs="high_or_low")
    assert len(whole) == 13 and not whole.ace_low and str(whole.cards[-1]) == "Ad"
    assert Meld.parse(str(whole)) == whole


def test_r10_ace_low_run_up_to_queen_takes_the_king_and_then_nothing() -> None:
    run = Meld.parse("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs", seat=0)
    assert run.lay_off_cards("high_or_low") == cards("Ks")
    whole = run.lay_off("Ks", seat=1, ace_in_runs="high_or_low")
    assert len(whole) == 13 and whole.lay_off_cards("high_or_low") == ()
    assert Meld.parse(str(whole)) == whole


@pytest.mark.parametrize("text", ["Jk Jk Jk", "Jk Jk Jk Jk"])
def test_r11_joker_sets_of_three_or_four(text: str) -> None:
    meld = Meld.parse(text, seat=0)
    assert meld.kind is MeldKind.SET and meld.is_joker_set
    assert meld.points == 20 * len(meld)


@pytest.mark.parametrize("text", ["Jk Jk", "Jk Jk 4s", "Jk 4s 4d 4h", "Jk Jk Jk 4s", "Jk 4s 5s", "Qs Ks Jk"])
def test_r11_jokers_never_join_natural_cards_and_need_three(text: str) -> None:
    with pytest.raises(MeldValueError, match="R11") as caught:
        Meld.parse(text, seat=0)
    assert caught.value.rule == "R11"


def test_r11_five_jokers_do_not_exist() -> None:
    with pytest.raises(MeldValueError, match="R11"):
        Meld.parse("Jk Jk Jk Jk Jk", seat=0)


def test_r11_a_joker_is_never_laid_off_on_natural_melds_and_only_jokers_on_joker_sets() -> None:
    assert not Meld.parse("7s 7h 7d", seat=0).accepts("Jk")
    assert not Meld.parse("4s 5s 6s", seat=0).accepts("Jk")
    jokers = Meld.parse("Jk Jk Jk", seat=0)
    assert jokers.lay_off_cards() == (Card.parse("Jk"),)
    assert not jokers.accepts("As")
    assert Meld.parse("Jk Jk Jk Jk", seat=0).lay_off_cards() == ()


def test_r16_a_set_of_three_takes_exactly_the_missing_suit() -> None:
    assert Meld.parse("7s 7h 7d", seat=0).lay_off_cards() == cards("7c")
    assert Meld.parse("7s 7h 7c", seat=0).lay_off_cards() == cards("7d")
    assert Meld.parse("7s 7h 7d 7c", seat=0).lay_off_cards() == ()


def test_r16_a_run_takes_the_card_below_and_the_card_above() -> None:
    assert Meld.parse("5c 6c 7c", seat=0).lay_off_cards() == cards("4c 8c")


def test_r16_lay_off_is_credited_to_the_layer_and_marked_laid_off() -> None:
    meld = Meld.parse("4c 5c 6c", seat=3).lay_off("3c", seat=0)
    assert [str(card) for card in meld.cards] == ["3c", "4c", "5c", "6c"]
    assert meld.seats == (0, 3, 3, 3)
    assert meld.laid_off == (True, False, False, False)
    assert meld.owner == 3
    assert str(meld) == "3c+0 4c@3 5c@3 6c@3"


def test_r16_a_later_card_extends_past_a_lay_off() -> None:
    meld = Meld.parse("4c 5c 6c", seat=3).lay_off("3c", seat=0)
    assert meld.lay_off_cards() == cards("2c 7c")
    meld = meld.lay_off("2c", seat=1)
    assert str(meld) == "2c+1 3c+0 4c@3 5c@3 6c@3"


def test_r16_lay_off_returns_a_new_meld_and_leaves_the_old_one() -> None:
    meld = Meld.parse("4c 5c 6c", seat=3)
    meld.lay_off("7c", seat=1)
    assert str(meld) == "4c@3 5c@3 6c@3"


def test_r24_four_at_once_only_without_lay_offs() -> None:
    assert Meld.parse("Js Jh Jd Jc", seat=0).four_at_once
    assert Meld.parse("Jk Jk Jk Jk", seat=0).four_at_once
    assert not Meld.parse("Js Jh Jd", seat=0).lay_off("Jc", seat=0).four_at_once
    assert not Meld.parse("Jk Jk Jk", seat=0).lay_off("Jk", seat=1).four_at_once
    assert not Meld.parse("Js Qs Ks As", seat=0).four_at_once  # runs never double


@pytest.mark.parametrize(
    "text",
    [
        "7s@0 7h@0 7d@0 7c+1",
        "3c+0 4c@3 5c@3 6c@3",
        "8h@2 9h@2 Th@2",
        "Jk@1 Jk@1 Jk@1",
        "Jk@1 Jk@1 Jk@1 Jk+3",
        "As+2 2s@1 3s@1 4s@1 5s+0",
        "2c+1 3c+0 4c@3 5c@3 6c@3",
    ],
)
def test_r16_meld_text_round_trips_and_repr_pastes_back(text: str) -> None:
    meld = Meld.parse(text, seat=0)
    assert str(meld) == text
    assert Meld.parse(str(meld)) == meld
    assert eval(repr(meld), {"Meld": Meld}) == meld


def test_r8_meld_text_accepts_symbols_separators_and_a_default_seat() -> None:
    assert Meld.parse("8♥-9♥-10♥", seat=2) == Meld.parse("8h@2 9h@2 Th@2")
    assert Meld.parse("8h, 9h, th", seat=1) == Meld.parse("8h@1 9h@1 Th@1")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("7s+0 7h+0 7d+0", MeldValueError),  # no original card
        ("7s@0 7h@1 7d@0", MeldValueError),  # one meld action is one seat's
        ("4c@3 5c+0 6c@3 7c@3", MeldValueError),  # originals 4 6 7 are no meld
        ("4c@3 5c@3 6c@3 8c+0", MeldValueError),  # the lay-off does not extend it
        ("7s@4 7h@4 7d@4", NotationError),  # no seat 4
        ("7s@0 7x@0 7d@0", NotationError),
    ],
)
def test_r16_bad_meld_text_raises(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        Meld.parse(text, seat=0)


def test_r16_meld_constructor_checks_seats_and_flags_per_card() -> None:
    with pytest.raises(InvalidArgumentError):
        Meld("7s 7h 7d", seats=(0, 0))
    with pytest.raises(InvalidArgumentError):
        Meld("7s 7h 7d", laid_off=(False,))
    with pytest.raises(NotationError):
        Meld.parse(7)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        Meld.parse("7s 7h 7d", seat=0).lay_off("7c", seat=5)


def test_r22_meld_points_are_not_doubled_on_the_value() -> None:
    assert Meld.parse("8h 9h Th", seat=0).points == 27
    assert Meld.parse("Js Jh Jd Jc", seat=0).points == 40
    assert Meld.parse("Qs Ks As", seat=0).points == 35


def test_r16_r23_meld_text_must_say_who_melded_it() -> None:
    # The seat decides which team scores the meld, so the text never defaults to North.
    with pytest.raises(NotationError, match=r"R16: '7s 8s 9s' does not say who melded it"):
        Meld.parse("7s 8s 9s")
    with pytest.raises(NotationError, match="does not say who melded it"):
        Meld.parse("7s@1 8s 9s@1")  # one card unmarked
    with pytest.raises(InvalidStateError, match="R16: 'Js Jh Jd' does not say who melded it"):
        GameState.from_position(["", "", "", ""], [], melds=["Js Jh Jd"])
    assert Meld.parse("7s 8s 9s", seat=3) == Meld.parse("7s@3 8s@3 9s@3")
    assert Meld.parse("7s 8s 9s", seat=3).owner == 3
    # The seat marks round-trip: str() always writes them.
    assert str(Meld.parse("7s 8s 9s", seat=1)) == "7s@1 8s@1 9s@1"


@given(game_states(rules(), finished=True), st.booleans())
def test_r16_a_tables_extensions_are_its_melds_extensions(state: GameState, ace_low: bool) -> None:
    # The per-table summary the legal actions read equals asking each meld, in table order.
    union, entries = table_extensions(state.melds, ace_low)
    expected = [
        (position, extension_bits(meld, ace_low), meld.lay_off_cards("high_or_low" if ace_low else "high"))
        for position, meld in enumerate(state.melds)
        if extension_bits(meld, ace_low)
    ]
    assert list(entries) == expected
    bits = 0
    for meld in state.melds:
        bits |= extension_bits(meld, ace_low)
    assert union == bits
    assert table_extensions(state.melds, ace_low) is table_extensions(state.melds, ace_low)  # worked out once
    assert table_extensions(tuple(list(state.melds)), ace_low) == (union, entries)  # equal tables, equal answers
