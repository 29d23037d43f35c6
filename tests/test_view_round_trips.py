"""Regression: the view of any valid state validates and round-trips, including positions
built with GameState.from_position, whose stock may hold more than the 27 cards of a deal."""

from __future__ import annotations

from persian_rummy import GameState, PlayerView, play


def test_r27_view_of_a_from_position_state_round_trips() -> None:
    # The quickstart's position: every card not named is in the stock (43 cards, R1).
    state = GameState.from_position(["4s 9d", "5s 6s Kd", "Ks Kh", "2c 2d"], "4c 7s 9c 2h")
    state = play(state, "take 1")
    assert len(state.stock) == 43
    for seat in range(4):
        view = state.view(seat)
        view.validate()
        assert PlayerView.from_json(view.to_json()) == view
        assert PlayerView.parse(view.position()) == view
