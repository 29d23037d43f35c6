"""Position strings (:mod:`persian_rummy.position`): a state or a seat's view on one line, as
``format_position``, ``parse_position`` and ``parse_view_position`` write and read it. The round
trips of every reachable state are in ``test_notation``, the hostile inputs in
``test_malformed_input`` and ``test_limits``."""

from __future__ import annotations

import pytest
from playouts import playout

from persian_rummy import GameState, InvalidStateError, NotationError, Phase, draw_discard, new_game, play
from persian_rummy.position import format_position, parse_position, parse_view_position


def fields(text: str) -> list[str]:
    """The hands, the stock and the pile of a position string."""
    return text.split(" ")[:3]


def test_r16_position_keeps_meld_credits_and_lay_offs() -> None:
    state = GameState.from_position(
        ["", "4s 5s", "", ""],
        "9h",
        melds=["7s@0 7h@0 7d@0 7c+1", "3c+0 4c@3 5c@3 6c@3"],
        deal_number=2,  # scores come from deal 1 (R23)
        scores=(-12, 40),
    )
    text = state.position()
    assert " 0:7s7h7d7c+1/3:3c+04c5c6c " in text and "scores=-12,40" in text
    assert GameState.parse(text).melds == state.melds


def test_every_state_and_view_of_a_game_reads_back_from_the_modules_functions() -> None:
    for index, (state, _) in enumerate(playout(4)):
        if index % 5 and state.phase.is_live:
            continue  # every fifth state of play, and the end of each deal
        text = format_position(state)
        assert text == state.position() and parse_position(text) == state
        for seat in range(4):
            view = state.view(seat)
            assert parse_view_position(format_position(view)) == view


def test_a_states_position_is_not_read_as_a_views_nor_a_views_as_a_states() -> None:
    state = new_game(1)
    with pytest.raises(NotationError, match="a view position string"):
        parse_view_position(format_position(state))
    with pytest.raises(NotationError, match="a state position string"):
        parse_position(format_position(state.view(1)))


def test_r12_r13_the_stock_and_the_pile_are_written_bottom_to_top() -> None:
    state = new_game(1)
    mover = state.current_player
    drawn = play(state, "draw").hands[mover] - state.hands[mover]
    assert fields(format_position(state))[1].endswith(str(drawn))  # R12: its last card is drawn next
    state = GameState.from_position(["", "5s 6s Kd", "", ""], "4s Qh 9c 7s")
    assert fields(format_position(state))[2] == "4sQh9c7s"
    # R13: taking the top card (the 7s, melded with the 5s 6s) takes the last card written
    assert fields(format_position(draw_discard(state, 3)))[2] == "4sQh9c"


def test_r1_r5_r27_a_views_position_writes_the_hidden_hands_and_the_stock_as_their_sizes() -> None:
    state = new_game(7, dealer=2)
    for seat in range(4):
        text = format_position(state.view(seat))
        hands, stock, pile = fields(text)
        own = str(state.hands[seat]).replace(" ", "")
        # R5: seven cards to each seat, the top of the other 28 turned up, 27 left in the stock
        assert hands.split("/") == [own if other == seat else "?7" for other in range(4)]
        assert stock == "?27" and pile == str(state.discard_pile[0]) and f" seat={seat} " in text


def test_r23_r27_once_the_round_is_over_a_views_position_shows_every_hand_but_not_the_stock() -> None:
    state = next(state for state, _ in playout(0) if state.phase is Phase.ROUND_OVER)
    for seat in range(4):
        hands, stock, pile = fields(format_position(state.view(seat)))
        assert hands == fields(format_position(state))[0] and "?" not in hands
        assert stock == f"?{len(state.stock)}" and pile == fields(format_position(state))[2]


def test_hands_may_be_given_in_any_order_and_are_written_in_canonical_order() -> None:
    state = new_game(3)
    text = format_position(state)
    hands = fields(text)[0]
    reversed_hands = "/".join(
        "".join(reversed([hand[start : start + 2] for start in range(0, len(hand), 2)])) for hand in hands.split("/")
    )
    assert reversed_hands != hands
    again = parse_position(text.replace(hands, reversed_hands, 1))
    assert again == state and format_position(again) == text


def test_r1_a_position_must_hold_the_56_cards_of_the_deck_once_each() -> None:
    text = format_position(new_game(1))
    first, second = fields(text)[0].split("/")[:2]
    # The last card of seat 0's hand replaced by the first of seat 1's: one card twice, one missing.
    with pytest.raises(InvalidStateError, match=rf"R1: .*duplicated: {second[:2]} \(2 times\); missing: {first[-2:]}"):
        parse_position(text.replace(first, first[:-2] + second[:2], 1))
    with pytest.raises(NotationError):
        parse_position("not a position")
