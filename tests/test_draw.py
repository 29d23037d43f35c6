"""Drawing: the stock, deep discard-pile draws and the card that must be melded (R12-R14)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from persian_rummy import (
    DECK,
    Card,
    DrawDiscard,
    DrawStock,
    GameState,
    Hand,
    InvalidDrawError,
    LayOff,
    MeldCards,
    Pass,
    Phase,
    Rules,
    TargetNotUsedError,
    discard,
    draw_discard,
    draw_stock,
    is_legal,
    lay_off,
    legal_actions,
    legal_draws,
    meld,
    parse_cards,
    play,
)

DEFAULT_RULES = Rules()


def seat1(hand: str, pile: str, *, melds: Sequence[str] = (), rules: Rules = DEFAULT_RULES) -> GameState:
    """A position with seat 1 (left of dealer 0) to draw, the other hands empty."""
    return GameState.from_position(["", hand, "", ""], pile, melds=melds, rules=rules)


def draw_indices(state: GameState) -> list[int]:
    return [action.index for action in legal_draws(state) if isinstance(action, DrawDiscard)]


def test_r12_draw_stock_takes_the_top_card() -> None:
    state = seat1("5s 6s Kd", "4s")
    top = state.stock[-1]
    after = draw_stock(state)
    assert after.hands[1] == state.hands[1] + Hand([top])
    assert after.stock == state.stock[:-1]
    assert after.discard_pile == state.discard_pile
    assert after.phase is Phase.MELD and after.current_player == 1 and after.must_meld is None
    assert play(state, DrawStock()) == after == play(state, "draw")


def test_r12_draw_stock_is_always_offered_while_the_stock_has_cards() -> None:
    state = seat1("5s 6s Kd", "4s Qh 9c 7s")
    assert legal_draws(state)[0] == DrawStock()
    assert Pass() not in legal_draws(state)


def test_r13_deep_draw_takes_everything_above() -> None:
    state = seat1("5s 6s Kd", "4s Qh 9c 7s")
    after = draw_discard(state, 0)
    assert after.discard_pile == ()
    assert after.hands[1] == Hand("5s 6s Kd 4s Qh 9c 7s")
    assert after.must_meld == Card.parse("4s")
    assert after.phase is Phase.MELD and after.stock == state.stock


def test_r13_draw_from_the_middle_leaves_the_cards_below() -> None:
    state = seat1("Qs Qd", "4s Qh 9c 7s")
    after = draw_discard(state, 1)
    assert after.discard_pile == parse_cards("4s")
    assert after.hands[1] == Hand("Qs Qd Qh 9c 7s")
    assert after.must_meld == Card.parse("Qh")


def test_r13_the_whole_pile_is_offered_from_the_bottom_up() -> None:
    state = seat1("5s 6s Kd", "4s Qh 9c 7s")
    assert legal_draws(state) == (DrawStock(), DrawDiscard(0), DrawDiscard(3))


def test_r13_no_card_at_that_index() -> None:
    state = seat1("5s 6s Kd", "4s Qh")
    for index in (2, 7):
        with pytest.raises(InvalidDrawError, match="R13: there is no card at index"):
            draw_discard(state, index)
    with pytest.raises(InvalidDrawError, match="R13"):
        draw_discard(state, -1)
    empty = GameState.from_position(["", "5s 6s", "", ""], "")
    assert draw_indices(empty) == []
    with pytest.raises(InvalidDrawError, match="R13"):
        draw_discard(empty, 0)


def test_r14_target_must_be_usable_with_hand_plus_all_taken_cards() -> None:
    # The 4s makes a run only with the 6s that lies above it in the pile.
    state = seat1("5s Kd", "4s Qh 6s")
    assert draw_indices(state) == [0]
    after = draw_discard(state, 0)
    assert after.must_meld == Card.parse("4s")
    assert MeldCards("4s 5s 6s") in legal_actions(after)
    # The 6s alone (taken from the top) has only the 5s beside it: no run.
    with pytest.raises(InvalidDrawError, match="R14: 6s cannot be melded or laid off at once"):
        draw_discard(state, 2)


def test_r14_a_set_may_use_cards_taken_from_above_the_target() -> None:
    state = seat1("9d 2c", "9s Kc 9h")
    assert draw_indices(state) == [0]
    after = draw_discard(state, 0)
    assert legal_actions(after) == (MeldCards("9s 9h 9d"),)


def test_r14_unusable_cards_are_not_offered_and_raise() -> None:
    state = seat1("5s 6s Kd", "4s Qh 9c 7s")
    for index in (1, 2):
        assert not is_legal(state, DrawDiscard(index))
        with pytest.raises(InvalidDrawError, match="R14") as caught:
            draw_discard(state, index)
        assert caught.value.rule == "R14"


def test_r14_only_actions_using_the_target_are_legal_after_a_pile_draw() -> None:
    start = GameState.from_position(["", "5s 6s 7s 8s", "", ""], "2c 8c 8h", melds=["Kd@0 Qd@0 Jd@0"])
    state = draw_discard(start, 1)
    assert state.must_meld == Card.parse("8c")
    assert [str(action) for action in legal_actions(state)] == ["meld 8s 8h 8c"]
    with pytest.raises(TargetNotUsedError, match="R14: the next action must meld or lay off 8c"):
        discard(state, "8c")
    with pytest.raises(TargetNotUsedError, match="R14"):
        meld(state, "5s 6s 7s")
    after = meld(state, "8s 8h 8c")
    assert after.must_meld is None
    assert [str(action) for action in legal_actions(after)] == [
        "meld 5s 6s 7s",
        "discard 5s",
        "discard 6s",
        "discard 7s",
    ]


def test_r14_the_target_may_be_melded_in_a_run_with_other_taken_cards() -> None:
    state = draw_discard(seat1("Kd", "9c Tc Jc"), 0)
    assert state.must_meld == Card.parse("9c")
    assert legal_actions(state) == (MeldCards("9c Tc Jc"),)
    after = meld(state, "9c Tc Jc")
    assert after.hands[1] == Hand("Kd")


def test_r14_meld_or_lay_off_target_may_be_laid_off() -> None:
    rules = Rules(pickup_use="meld_or_lay_off")
    state = seat1("2d 9h", "7c", melds=["7s@0 7h@0 7d@0"], rules=rules)
    assert draw_indices(state) == [0]
    after = draw_discard(state, 0)
    assert legal_actions(after) == (LayOff("7c", 0),)
    with pytest.raises(TargetNotUsedError):
        discard(after, "2d")
    laid = lay_off(after, "7c", 0)
    assert laid.melds[0].seats == (0, 0, 0, 1) and laid.melds[0].laid_off[-1]


def test_r14_new_meld_only_target_may_not_be_laid_off() -> None:
    rules = Rules(pickup_use="new_meld_only")
    state = seat1("2d 9h", "7c", melds=["7s@0 7h@0 7d@0"], rules=rules)
    assert draw_indices(state) == []
    with pytest.raises(InvalidDrawError, match="R14: 7c cannot be melded at once"):
        draw_discard(state, 0)


def test_r14_new_meld_only_lay_off_of_the_target_raises_after_the_draw() -> None:
    # The target can go in a new meld or on the table; only the new meld is allowed.
    rules = Rules(pickup_use="new_meld_only")
    state = seat1("8c 9c 2d", "7c", melds=["7s@0 7h@0 7d@0"], rules=rules)
    after = draw_discard(state, 0)
    assert legal_actions(after) == (MeldCards("7c 8c 9c"),)
    with pytest.raises(TargetNotUsedError, match="pickup_use='new_meld_only'"):
        lay_off(after, "7c", 0)
    default = draw_discard(seat1("8c 9c 2d", "7c", melds=["7s@0 7h@0 7d@0"]), 0)
    assert legal_actions(default) == (MeldCards("7c 8c 9c"), LayOff("7c", 0))


def test_r14_top_card_must_meld_true_top_card_needs_a_meld() -> None:
    state = seat1("2d 9h", "5c Kc")
    assert draw_indices(state) == []
    with pytest.raises(InvalidDrawError, match="R14"):
        draw_discard(state, 1)


def test_r14_top_card_must_meld_false_top_card_is_free() -> None:
    rules = Rules(top_card_must_meld=False)
    state = seat1("2d 9h", "5c Kc", rules=rules)
    assert draw_indices(state) == [1]
    after = draw_discard(state, 1)
    assert after.must_meld is None
    assert after.hands[1] == Hand("2d 9h Kc")
    # Free to discard it back at once.
    assert discard(after, "Kc").discard_pile == parse_cards("5c Kc")
    # A deeper card still has to be melded.
    with pytest.raises(InvalidDrawError, match="R14"):
        draw_discard(state, 0)


def test_r14_top_card_must_meld_false_a_usable_top_card_is_still_free() -> None:
    rules = Rules(top_card_must_meld=False)
    after = draw_discard(seat1("5s 6s Kd", "7s", rules=rules), 0)
    assert after.must_meld is None
    assert MeldCards("5s 6s 7s") in legal_actions(after)
    assert is_legal(after, "discard 7s")


def test_r14_joker_target_melds_only_with_jokers() -> None:
    state = seat1("Jk Jk 5s", "Jk")
    assert draw_indices(state) == [0]
    assert legal_actions(draw_discard(state, 0)) == (MeldCards("Jk Jk Jk"),)
    assert draw_indices(seat1("Jk 5s 6s", "Jk")) == []


def test_r14_joker_target_may_be_laid_off_on_a_joker_set() -> None:
    state = seat1("5s", "Jk", melds=["Jk@0 Jk@0 Jk@0"])
    assert draw_indices(state) == [0]
    assert legal_actions(draw_discard(state, 0)) == (LayOff("Jk", 0),)
    assert draw_indices(seat1("5s", "Jk", melds=["Jk@0 Jk@0 Jk@0"], rules=Rules(pickup_use="new_meld_only"))) == []


def test_r10_r14_ace_low_target_only_under_high_or_low() -> None:
    assert draw_indices(seat1("2s 3s", "As")) == []
    low = seat1("2s 3s", "As", rules=Rules(ace_in_runs="high_or_low"))
    assert draw_indices(low) == [0]
    assert legal_actions(draw_discard(low, 0)) == (MeldCards("As 2s 3s"),)
    # Never wrapping: K-A-2 is no run even when the ace may be low.
    assert draw_indices(seat1("Ks 3d", "2s As", rules=Rules(ace_in_runs="high_or_low"))) == []
    assert draw_indices(seat1("Ks Qs", "As")) == [0]


def test_r10_r14_lay_off_target_respects_ace_in_runs() -> None:
    high = seat1("9d", "Ah", melds=["2h@0 3h@0 4h@0"])
    assert draw_indices(high) == []
    low = seat1("9d", "Ah", melds=["2h@0 3h@0 4h@0"], rules=Rules(ace_in_runs="high_or_low"))
    assert draw_indices(low) == [0]
    after = lay_off(draw_discard(low, 0), "Ah", 0)
    assert str(after.melds[0]) == "Ah+1 2h@0 3h@0 4h@0"


def test_r13_r14_a_player_with_a_huge_pile_still_gets_only_usable_indices() -> None:
    # 25 cards in the pile; every index whose card can be melded with everything above it is offered.
    pile = [card for card in DECK if card.suit is not None and card.suit.letter in "sh"][:25]
    state = GameState.from_position(["", "", "", ""], pile)
    indices = draw_indices(state)
    for index in range(len(pile)):
        assert (index in indices) == is_legal(state, DrawDiscard(index))
    # Any spade from 2s to Qs has the two spades above it, so it can start a run.
    assert all(index in indices for index in range(11))
