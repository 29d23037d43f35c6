"""Player views: each player sees their own hand and everything public, nothing else (R27)."""

from __future__ import annotations

import random

import attrs
import pytest

from persian_rummy import (
    Card,
    GameState,
    Hand,
    InvalidStateError,
    PlayerView,
    Rules,
    draw_discard,
    legal_actions,
    legal_draws,
    new_game,
    next_deal,
    observe,
    play,
)

KNOB_SETS = [
    Rules(),
    Rules(ace_in_runs="high_or_low", last_card_discard="goes_out", stock_out_end="first_pass"),
    Rules(top_card_must_meld=False, pickup_use="new_meld_only"),
    Rules(last_card_discard="forbidden", deals=1),
]


def test_r27_a_view_holds_only_its_own_hand() -> None:
    state = new_game(1)
    names = set(attrs.fields_dict(PlayerView))
    assert "hands" not in names and "stock" not in names
    for seat in range(4):
        view = observe(state, seat)
        assert view == state.view(seat)
        assert view.seat == seat and view.hand == state.hands[seat]
        assert view.hand_sizes == (7, 7, 7, 7) and view.stock_size == 27
        hands = [value for value in attrs.astuple(view, recurse=False) if isinstance(value, Hand)]
        assert hands == [state.hands[seat]]


def test_r27_public_information_is_in_every_view() -> None:
    state = play(play(new_game(3), "draw"), legal_actions(play(new_game(3), "draw"))[-1])
    for seat in range(4):
        view = state.view(seat)
        assert view.discard_pile == state.discard_pile and view.top_card == state.top_card
        assert view.melds == state.melds and view.scores == state.scores
        assert view.current_player == state.current_player and view.phase is state.phase
        assert view.dealer == state.dealer and view.deal_number == state.deal_number and view.rules == state.rules
        assert view.hand_sizes == tuple(len(hand) for hand in state.hands)
        assert view.stock_size == len(state.stock)


def test_r27_a_view_cannot_tell_apart_states_that_differ_only_in_hidden_cards() -> None:
    # Swap a card between seat 2's hand and the stock, and reorder the stock: seat 0 sees the same.
    state = new_game(5)
    hidden = state.hands[2]
    out_card = next(iter(hidden))
    in_card = state.stock[0]
    other = attrs.evolve(
        state,
        hands=(state.hands[0], state.hands[1], hidden - Hand([out_card]) + Hand([in_card]), state.hands[3]),
        stock=tuple(reversed((out_card,) + state.stock[1:])),
    )
    other.validate()
    assert other != state
    for seat in (0, 1, 3):
        assert other.view(seat) == state.view(seat)
    assert other.view(2) != state.view(2)


def test_r14_r27_the_card_to_meld_is_public_to_every_seat() -> None:
    # Everyone saw the 4s taken from the spread pile, so everyone knows it must be melded next.
    state = draw_discard(GameState.from_position(["", "5s 6s Kd", "", ""], "4s Qh 9c 7s"), 0)
    assert state.must_meld == Card.parse("4s")
    assert all(state.view(seat).must_meld == state.must_meld for seat in range(4))
    assert all(PlayerView.from_json(state.view(seat).to_json()) == state.view(seat) for seat in range(4))


def test_r27_legal_actions_of_a_view_match_the_state_for_the_mover_and_are_empty_for_others() -> None:
    checked = 0
    for game, rules in enumerate(KNOB_SETS * 3):
        rng = random.Random(game)
        state = new_game(game, rules=rules)
        while True:
            while state.phase.is_live:
                actions = legal_actions(state)
                for seat in range(4):
                    view = state.view(seat)
                    if seat == state.current_player:
                        assert view.is_to_move
                        assert legal_actions(view) == actions
                        assert legal_draws(view) == legal_draws(state)
                    else:
                        assert not view.is_to_move
                        assert legal_actions(view) == () == legal_draws(view)
                checked += 1
                state = play(state, rng.choice(actions))
            for seat in range(4):
                assert legal_actions(state.view(seat)) == ()
            if state.deal_number == rules.deals:
                break
            state = next_deal(state, game + 100)
    assert checked > 1000


@pytest.mark.parametrize("seat", [-1, 4, "0", None])
def test_r3_r27_a_view_is_for_a_seat(seat: object) -> None:
    with pytest.raises(InvalidStateError, match="R3"):
        observe(new_game(1), seat)  # type: ignore[arg-type]


def test_r27_print_shows_a_readable_table_and_repr_stays_pasteable() -> None:
    from persian_rummy import GameState, PlayerView, new_game, play  # noqa: F401 - for eval

    state = play(new_game(1), "draw")
    text = str(state)
    # One line per seat, in seat order, every hand face up; the seat to act marked.
    rows = text.splitlines()[1:5]
    assert [row.split()[0] for row in rows] == ["North", "East", "South", "West"]
    for row, hand in zip(rows, state.hands, strict=True):
        assert row.split()[1] == str(len(hand)) and " ".join(map(str, hand)) in row
    assert "<- to meld, lay off or discard" in rows[1]
    assert eval(repr(state)) == state
    # A view names only its own hand (R27) and still pastes back.
    view = state.view(2)
    shown = str(view)
    assert "Your hand: " + " ".join(map(str, state.hands[2])) in shown
    for seat in (0, 1, 3):
        assert not any(str(card) in shown.splitlines()[1 + seat] for card in state.hands[seat])
    assert eval(repr(view)) == view
    assert str(view) != view.position()
