"""Turns and the end of a round: discard, going out, the last card, the empty stock, idle
turns and the number of deals (R7, R17-R21)."""

from __future__ import annotations

import pytest
from positions import position

from persian_rummy import (
    DrawDiscard,
    DrawStock,
    EmptyStockError,
    GameState,
    Hand,
    LastCardError,
    Pass,
    PassNotAllowedError,
    Phase,
    RoundEnd,
    Rules,
    WrongPhaseError,
    discard,
    draw_discard,
    draw_stock,
    lay_off,
    legal_actions,
    legal_draws,
    meld,
    new_game,
    next_deal,
    parse_cards,
    pass_turn,
    play,
    score_round,
)

DEFAULT_RULES = Rules()


def finish_by_passes(state: GameState) -> GameState:
    while state.phase.is_live:
        state = pass_turn(state)
    return state


# --- R17 discard -------------------------------------------------------------------------


def test_r17_discard_ends_the_turn_and_passes_play_to_the_left() -> None:
    state = draw_stock(position(["", "4s 9h", "", ""], "2c", top="Kd"))
    after = discard(state, "9h")
    assert after.discard_pile == parse_cards("2c 9h")
    assert after.hands[1] == Hand("4s Kd")
    assert after.current_player == 2 and after.phase is Phase.DRAW and after.must_meld is None
    assert play(state, "discard 9h") == after


def test_r17_after_melding_a_player_with_cards_must_discard_to_end_the_turn() -> None:
    state = draw_stock(position(["", "7s 7h 7d 9h 2c", "", ""], "3d", top="Kd"))
    state = meld(state, "7s 7h 7d")
    assert state.phase is Phase.MELD and state.current_player == 1
    actions = legal_actions(state)
    assert {str(action) for action in actions} == {"discard 9h", "discard 2c", "discard Kd"}
    with pytest.raises(WrongPhaseError, match="R12"):
        draw_stock(state)
    with pytest.raises(WrongPhaseError):
        pass_turn(state)


def test_r12_r17_seat_order_goes_round_the_table_clockwise() -> None:
    state = new_game(5, dealer=2)
    seats = []
    for _ in range(8):
        seats.append(state.current_player)
        state = play(state, "draw")
        state = play(state, next(action for action in legal_actions(state) if str(action).startswith("discard")))
    assert seats == [3, 0, 1, 2, 3, 0, 1, 2]


# --- R18 going out -----------------------------------------------------------------------


def test_r18_going_out_by_melding_ends_the_round_at_once() -> None:
    state = draw_stock(position(["", "7s 7h 7d 8c Tc", "", ""], "3d", top="9c"))
    state = meld(state, "7s 7h 7d")
    assert state.phase is Phase.MELD
    after = meld(state, "8c 9c Tc")
    assert after.phase is Phase.ROUND_OVER and after.went_out == 1
    assert state.round_end is None and after.round_end is RoundEnd.WENT_OUT
    assert after.view(0).round_end is RoundEnd.WENT_OUT
    assert after.hands[1] == Hand()
    assert after.discard_pile == parse_cards("3d")  # no discard needed
    assert legal_actions(after) == ()
    for action in ("draw", "pass", "discard 3d", "meld 2s 3s 4s"):
        with pytest.raises(WrongPhaseError, match="R18: the round is over"):
            play(after, action)
    ns, ew = score_round(after)
    assert ew.going_out == 25 and ns.going_out == 0
    assert after.scores == (ns.total, ew.total)


def test_r18_going_out_by_laying_off() -> None:
    state = draw_stock(position(["", "3c", "", ""], "2d", top="7c", melds=["4c@3 5c@3 6c@3"]))
    state = lay_off(state, "3c", 0)
    assert state.phase is Phase.MELD
    after = lay_off(state, "7c", 0)
    assert after.phase is Phase.ROUND_OVER and after.went_out == 1
    assert str(after.melds[0]) == "3c+1 4c@3 5c@3 6c@3 7c+1"


# --- R19 the last card -------------------------------------------------------------------


def test_r19_stays_in_discarding_the_last_card_keeps_the_player_in() -> None:
    state = draw_stock(position(["2c", "7s 7h 7d", "2d", "2h"], "3d", top="9h"))
    state = meld(state, "7s 7h 7d")
    assert [str(action) for action in legal_actions(state)] == ["discard 9h"]
    after = discard(state, "9h")
    assert after.phase is Phase.DRAW and after.current_player == 2
    assert after.hands[1] == Hand() and after.went_out is None


def test_r19_stays_in_a_player_with_an_empty_hand_draws_as_usual() -> None:
    state = position(["2s", "", "3s", "4s"], "2c", top="Qh")
    state = draw_stock(state)
    assert state.hands[1] == Hand("Qh") and state.phase is Phase.MELD
    assert [str(action) for action in legal_actions(state)] == ["discard Qh"]
    after = discard(state, "Qh")
    assert after.phase is Phase.DRAW and after.current_player == 2
    assert after.hands[1] == Hand() and after.went_out is None


def test_r19_stays_in_an_empty_hand_may_draw_from_the_pile_only_to_meld() -> None:
    state = position(["2s", "", "3s", "4s"], "2c 9h Th Jh")
    assert legal_draws(state) == (DrawStock(), DrawDiscard(1))
    after = draw_discard(state, 1)
    assert meld(after, "9h Th Jh").went_out == 1


def test_r19_stays_in_the_empty_handed_player_goes_out_by_laying_off_the_drawn_card() -> None:
    state = draw_stock(position(["2s", "", "3s", "4s"], "2c", top="7c", melds=["4c@3 5c@3 6c@3"]))
    after = lay_off(state, "7c", 0)
    assert after.phase is Phase.ROUND_OVER and after.went_out == 1
    assert score_round(after)[1].going_out == 25


def test_r19_goes_out_discarding_the_last_card_ends_the_round_as_going_out() -> None:
    rules = Rules(last_card_discard="goes_out")
    state = draw_stock(position(["2c", "7s 7h 7d", "2d", "2h"], "3d", top="9h", rules=rules))
    state = meld(state, "7s 7h 7d")
    after = discard(state, "9h")
    assert after.phase is Phase.ROUND_OVER and after.went_out == 1
    assert after.discard_pile == parse_cards("3d 9h")
    ns, ew = score_round(after)
    assert ew.going_out == 25 and ns.going_out == 0
    assert (ns.total, ew.total) == (-4, 21 - 2 + 25)


def test_r19_goes_out_a_discard_that_keeps_cards_does_not_end_the_round() -> None:
    rules = Rules(last_card_discard="goes_out")
    state = draw_stock(position(["2c", "9h", "2d", "2h"], "3d", top="Kd", rules=rules))
    after = discard(state, "9h")
    assert after.phase is Phase.DRAW and after.hands[1] == Hand("Kd")


def test_r19_forbidden_the_last_card_may_not_be_discarded() -> None:
    rules = Rules(last_card_discard="forbidden")
    state = draw_stock(position(["2c", "7s 7h 7d", "2d", "2h"], "3d", top="7c", rules=rules))
    state = meld(state, "7s 7h 7d")  # leaves the 7c, which can be laid off at once
    assert state.hands[1] == Hand("7c")
    assert [str(action) for action in legal_actions(state)] == ["layoff 7c 0"]
    with pytest.raises(LastCardError, match="R19: seat 1 may not discard their last card"):
        discard(state, "7c")
    assert lay_off(state, "7c", 0).went_out == 1


def test_r19_forbidden_a_meld_that_leaves_an_unplayable_last_card_is_illegal() -> None:
    rules = Rules(last_card_discard="forbidden")
    state = draw_stock(position(["2c", "7s 7h 7d", "2d", "2h"], "3d", top="9h", rules=rules))
    assert [str(action) for action in legal_actions(state)] == ["discard 7s", "discard 7h", "discard 9h", "discard 7d"]
    with pytest.raises(LastCardError, match="R19: this would leave seat 1 holding only 9h"):
        meld(state, "7s 7h 7d")


def test_r19_forbidden_a_lay_off_that_strands_an_unplayable_last_card_is_illegal() -> None:
    rules = Rules(last_card_discard="forbidden")
    state = draw_stock(position(["2s", "9h", "3s", "4s"], "2c", top="Kd", melds=["Qd@0 Jd@0 Td@0"], rules=rules))
    assert [str(action) for action in legal_actions(state)] == ["discard 9h", "discard Kd"]
    default = draw_stock(position(["2s", "9h", "3s", "4s"], "2c", top="Kd", melds=["Qd@0 Jd@0 Td@0"]))
    assert "layoff Kd 0" in [str(action) for action in legal_actions(default)]
    with pytest.raises(LastCardError, match="R19: this would leave seat 1 holding only 9h"):
        lay_off(state, "Kd", 0)
    # The same lay-off is fine when the card left can itself be laid off.
    state = draw_stock(position(["2s", "9d", "3s", "4s"], "2c", top="Kd", melds=["Qd@0 Jd@0 Td@0"], rules=rules))
    assert "layoff Kd 0" in [str(action) for action in legal_actions(state)]
    state = lay_off(state, "Kd", 0)
    assert [str(action) for action in legal_actions(state)] == ["layoff 9d 0"]
    assert lay_off(state, "9d", 0).went_out == 1


def test_r19_forbidden_a_meld_that_strands_an_unplayable_last_card_is_illegal() -> None:
    rules = Rules(last_card_discard="forbidden")
    state = draw_stock(position(["2c", "5s 6s 7s", "2d", "2h"], "8s", top="Jk", rules=rules))
    assert "meld 5s 6s 7s" not in [str(action) for action in legal_actions(state)]
    with pytest.raises(LastCardError, match="R19"):
        meld(state, "5s 6s 7s")
    ok = draw_stock(position(["2c", "5s 6s 7s", "2d", "2h"], "9h", top="8s", rules=rules))
    assert "meld 5s 6s 7s" in [str(action) for action in legal_actions(ok)]  # 8s can follow
    assert "meld 5s 6s 7s 8s" in [str(action) for action in legal_actions(ok)]


def test_r14_r19_forbidden_a_pile_draw_counts_only_if_a_legal_meld_uses_the_target() -> None:
    # Taking the 7s would force 5s 6s 7s, leaving the Kd alone, which cannot be laid off.
    rules = Rules(last_card_discard="forbidden")
    state = position(["2c", "5s 6s Kd", "2d", "2h"], "7s", rules=rules)
    assert DrawDiscard(0) not in legal_draws(state)
    default = position(["2c", "5s 6s Kd", "2d", "2h"], "7s")
    assert DrawDiscard(0) in legal_draws(default)
    with_room = position(["2c", "5s 6s Kd", "2d", "2h"], "7s", melds=["Jd@0 Qd@0 Td@0"], rules=rules)
    assert DrawDiscard(0) in legal_draws(with_room)


# --- R20 the empty stock -----------------------------------------------------------------


def test_r20_empty_stock_only_legal_pile_draws_or_pass() -> None:
    state = position(["2c", "5s 6s Kd", "2d", "2h"], "7s 9d", rest_to="pile")
    assert state.stock == ()
    draws = legal_draws(state)
    assert DrawStock() not in draws and draws[-1] == Pass()
    assert all(isinstance(action, DrawDiscard | Pass) for action in draws)
    assert DrawDiscard(len(state.discard_pile) - 2) in draws  # the 7s, taking the 9d with it
    with pytest.raises(EmptyStockError, match="R20: the stock is empty"):
        draw_stock(state)


def test_r20_pass_only_with_an_empty_stock() -> None:
    state = position(["2c", "5s", "2d", "2h"], "7s")
    assert Pass() not in legal_actions(state)
    with pytest.raises(PassNotAllowedError, match="R20: seat 1 may pass only when the stock is empty"):
        pass_turn(state)


def test_r20_a_pass_ends_the_turn_at_once() -> None:
    state = position(["2c", "5s", "2d", "2h"], "7s", rest_to="pile")
    after = pass_turn(state)
    assert after.current_player == 2 and after.phase is Phase.DRAW
    assert after.hands == state.hands and after.discard_pile == state.discard_pile
    assert after.consecutive_passes == 1
    assert play(state, "pass") == after


def test_r20_all_pass_four_passes_in_a_row_end_the_round_without_bonus() -> None:
    state = position(["2c", "5s", "2d", "2h"], "7s", rest_to="pile")
    for passes in range(1, 4):
        state = pass_turn(state)
        assert state.phase is Phase.DRAW and state.consecutive_passes == passes
    assert state.round_end is None
    state = pass_turn(state)
    assert state.phase is Phase.ROUND_OVER and state.went_out is None
    assert state.round_end is RoundEnd.PASSED and state.view(2).round_end is RoundEnd.PASSED
    ns, ew = score_round(state)
    assert ns.going_out == 0 == ew.going_out
    assert (ns.total, ew.total) == (-(2 + 2), -(5 + 2))


def test_r20_a_pile_draw_resets_the_pass_count() -> None:
    state = position(["2c", "5s 6s Kd", "2d", "2h"], "7s 9d", dealer=1, rest_to="pile")
    assert state.current_player == 2
    state = pass_turn(pass_turn(pass_turn(state)))  # seats 2, 3, 0
    assert state.current_player == 1 and state.consecutive_passes == 3
    state = draw_discard(state, len(state.discard_pile) - 2)
    state = meld(state, "5s 6s 7s")
    state = discard(state, "Kd")
    assert state.consecutive_passes == 0 and state.phase is Phase.DRAW
    for _ in range(3):
        state = pass_turn(state)
    assert state.phase is Phase.DRAW
    assert pass_turn(state).phase is Phase.ROUND_OVER


def test_r20_first_pass_ends_the_round_at_the_first_pass() -> None:
    rules = Rules(stock_out_end="first_pass")
    state = position(["2c", "5s", "2d", "2h"], "7s", rest_to="pile", rules=rules)
    after = pass_turn(state)
    assert after.phase is Phase.ROUND_OVER and after.went_out is None
    assert rules.pass_limit == 1 and after.round_end is RoundEnd.PASSED
    assert score_round(after)[0].going_out == 0 == score_round(after)[1].going_out


def test_r20_the_pile_is_never_turned_over() -> None:
    state = position(["2c", "5s", "2d", "2h"], "7s", rest_to="pile")
    state = pass_turn(pass_turn(state))
    assert state.stock == () and len(state.discard_pile) > 1
    assert DrawStock() not in legal_actions(state)


# --- R21 idle turns ----------------------------------------------------------------------


def test_r21_eight_idle_turns_end_the_round_with_top_card_must_meld_false() -> None:
    rules = Rules(top_card_must_meld=False)
    state = position(["2c", "5d", "9h", "Kh"], "7s", top="3c", rules=rules)
    stock = state.stock
    for turn in range(1, 9):
        top = state.discard_pile[-1]
        state = draw_discard(state, len(state.discard_pile) - 1)
        assert state.must_meld is None
        state = discard(state, top)
        assert state.stock == stock  # no card drawn from the stock, none added to the table
        if turn < 8:
            assert state.phase is Phase.DRAW and state.idle_turns == turn
    assert state.phase is Phase.ROUND_OVER and state.went_out is None
    assert state.idle_turns == 8 == rules.idle_limit and state.round_end is RoundEnd.IDLE
    assert score_round(state)[0].going_out == 0 == score_round(state)[1].going_out


def test_r21_a_stock_draw_resets_the_idle_count() -> None:
    rules = Rules(top_card_must_meld=False)
    state = position(["2c", "5d", "9h", "Kh"], "7s", top="3c", rules=rules)
    for _ in range(7):
        top = state.discard_pile[-1]
        state = discard(draw_discard(state, len(state.discard_pile) - 1), top)
    assert state.idle_turns == 7
    drawn = state.stock[-1]
    state = discard(draw_stock(state), drawn)
    assert state.idle_turns == 0 and state.phase is Phase.DRAW


def test_r21_a_card_added_to_the_table_resets_the_idle_count() -> None:
    rules = Rules(top_card_must_meld=False)
    state = position(["2c", "5d", "8d", "Qh 4s"], "7s", top="3c", melds=["9h@1 Th@1 Jh@1"], rules=rules)
    for _ in range(6):  # seats 1, 2, 3, 0, 1, 2 swap the top card
        state = discard(draw_discard(state, len(state.discard_pile) - 1), "7s")
    assert state.idle_turns == 6 and state.current_player == 3
    state = lay_off(draw_discard(state, len(state.discard_pile) - 1), "Qh", 0)
    state = discard(state, "7s")
    assert state.idle_turns == 0 and state.phase is Phase.DRAW


def test_r21_passes_count_among_the_idle_turns() -> None:
    rules = Rules(top_card_must_meld=False)
    state = position(["2c", "5d", "9h", "Kh"], "7s 3c", rest_to="pile", rules=rules)
    # Alternate a free swap of the top card and a pass: passes never reach four in a row,
    # but eight idle turns end the round.
    for turn in range(1, 9):
        if turn % 2:
            top = state.discard_pile[-1]
            state = discard(draw_discard(state, len(state.discard_pile) - 1), top)
        else:
            state = pass_turn(state)
    assert state.phase is Phase.ROUND_OVER and state.consecutive_passes == 1
    assert state.idle_turns == 8 and state.round_end is RoundEnd.IDLE


# --- R7 deals ----------------------------------------------------------------------------


def play_out(state: GameState) -> GameState:
    while state.phase.is_live:
        state = play(state, legal_actions(state)[-1])
    return state


def test_r7_two_deals_the_first_ends_in_round_over_the_second_in_game_over() -> None:
    state = play_out(new_game(11))
    assert state.phase is Phase.ROUND_OVER and state.deal_number == 1
    first_scores = state.scores
    second = next_deal(state, 12)
    assert second.deal_number == 2 and second.scores == first_scores and second.phase is Phase.DRAW
    final = play_out(second)
    assert final.phase is Phase.GAME_OVER and final.deal_number == 2
    ns, ew = score_round(final)
    assert final.scores == (first_scores[0] + ns.total, first_scores[1] + ew.total)


@pytest.mark.parametrize("deals", [1, 3])
def test_r7_deals_knob_the_action_ending_the_last_deal_goes_straight_to_game_over(deals: int) -> None:
    state = new_game(3, rules=Rules(deals=deals))
    for deal in range(1, deals + 1):
        assert state.deal_number == deal
        state = play_out(state)
        if deal < deals:
            assert state.phase is Phase.ROUND_OVER
            state = next_deal(state, 100 + deal)
    assert state.phase is Phase.GAME_OVER


def test_r7_going_out_in_the_last_deal_goes_straight_to_game_over() -> None:
    state = draw_stock(position(["", "7s 7h 7d 8c Tc", "", ""], "3d", top="9c", rules=Rules(deals=1)))
    state = meld(meld(state, "7s 7h 7d"), "8c 9c Tc")
    assert state.phase is Phase.GAME_OVER and state.went_out == 1


def test_r7_passes_ending_the_last_deal_go_straight_to_game_over() -> None:
    state = position(["2c", "5s", "2d", "2h"], "7s", rest_to="pile", rules=Rules(deals=1))
    assert finish_by_passes(state).phase is Phase.GAME_OVER


def test_r7_next_deal_raises_on_game_over_and_during_play() -> None:
    state = play_out(new_game(3, rules=Rules(deals=1)))
    with pytest.raises(WrongPhaseError, match="R7: the game is over after 1 deal"):
        next_deal(state, 1)
    with pytest.raises(WrongPhaseError, match="R7: deal 1 is still being played"):
        next_deal(new_game(3), 1)
