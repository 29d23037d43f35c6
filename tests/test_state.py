"""Game states: positions, dealing from a deck and validation (R1, R3, R5-R7, R14, R18-R21)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from persian_rummy import (
    DECK,
    Card,
    GameState,
    Hand,
    InvalidStateError,
    Meld,
    Phase,
    Rules,
    new_game,
    parse_cards,
    team_of,
)
from persian_rummy._bits import partner_of
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES


def test_r3_teams_are_opposite_seats() -> None:
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_r3_a_seats_partner_sits_across_the_table_on_its_team() -> None:
    assert [partner_of(seat) for seat in range(4)] == [2, 3, 0, 1]
    for seat in range(4):
        assert partner_of(seat) != seat and partner_of(partner_of(seat)) == seat
        assert team_of(partner_of(seat)) == team_of(seat)
        name = TEAM_NAMES[team_of(seat)]
        assert SEAT_NAMES[seat] in name and SEAT_NAMES[partner_of(seat)] in name


def test_r6_from_position_the_player_left_of_the_dealer_draws_first() -> None:
    for dealer in range(4):
        state = GameState.from_position(["", "", "", ""], "4s", dealer=dealer)
        assert state.dealer == dealer
        assert state.current_player == (dealer + 1) % 4
        assert state.phase is Phase.DRAW and state.must_meld is None
        assert state.deal_number == 1 and state.scores == (0, 0) and state.rules == Rules()


def test_r5_from_position_stock_defaults_to_the_unnamed_cards_in_deck_order() -> None:
    state = GameState.from_position(["4s 4d", "Qs Ks As", "", "Jk"], "2c 9h", melds=["7s@0 7h@0 7d@0"])
    named = parse_cards("4s 4d Qs Ks As Jk 2c 9h 7s 7h 7d")
    expected = list(DECK)
    for card in named:
        expected.remove(card)
    assert list(state.stock) == expected
    assert state.stock[-1] == Card.parse("Jk")  # the last of them is on top
    assert state.discard_pile == parse_cards("2c 9h") and state.top_card == Card.parse("9h")
    assert state.melds == (Meld.parse("7s 7h 7d", seat=0),)
    assert state.hands[1] == Hand("Qs Ks As")


def test_r5_from_position_accepts_cards_hands_and_melds_as_values_or_text() -> None:
    by_text = GameState.from_position(["4s 4d", "", "", ""], "2c", melds=["7s@2 7h@2 7d@2"])
    by_value = GameState.from_position(
        [Hand("4s 4d"), (), [], Hand()],
        [Card.parse("2c")],
        melds=[Meld.parse("7s 7h 7d", seat=2)],
    )
    assert by_text == by_value
    stock_text = " ".join(map(str, by_text.stock))
    assert GameState.from_position(["4s 4d", "", "", ""], "2c", melds=["7s@2 7h@2 7d@2"], stock=stock_text) == by_text


def test_r5_from_position_explicit_stock_is_bottom_to_top() -> None:
    rest = list(DECK)
    rest.remove(Card.parse("4s"))
    rest.remove(Card.parse("2c"))
    rest.reverse()
    state = GameState.from_position(["4s", "", "", ""], "2c", stock=rest)
    assert state.stock == tuple(rest) and state.stock[-1] == rest[-1]


def test_r1_from_position_needs_exactly_the_deck() -> None:
    with pytest.raises(InvalidStateError, match=r"R1: .*duplicated: 4s \(4 times\)"):
        GameState.from_position(["4s"] * 4, [])
    with pytest.raises(InvalidStateError, match=r"R1: .*missing: .*Jk"):
        GameState.from_position(["", "", "", ""], [], stock=DECK[:55])
    with pytest.raises(InvalidStateError, match=r"duplicated: Jk \(5 times\)"):
        GameState.from_position(["Jk", "", "", ""], [], stock=DECK)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": ["", "", ""]}, "R3: a position has 4 hands, not 3"),
        ({"hands": ["4x", "", "", ""]}, "does not parse: R1: '4x'"),
        ({"hands": ["4s 4s", "", "", ""]}, "does not parse"),
        ({"discard_pile": "4s 9z"}, "does not parse"),
        ({"melds": ["4s 5s 7s"]}, "does not parse"),
        ({"dealer": 4}, "R3: dealer must be a seat 0-3, not 4"),
        ({"current_player": -1}, "R3: current_player must be a seat 0-3"),
        ({"deal_number": 3}, "R7: deal_number must be 1-2, not 3"),
        ({"deal_number": 0}, "R7"),
        ({"scores": (0,)}, "R23: scores must be two whole numbers"),
        ({"melds": ["As@0 2s@0 3s@0"]}, "R10: the run As@0 2s@0 3s@0 plays the ace low"),
        ({"rules": Rules(last_card_discard="goes_out")}, "R19: under last_card_discard='goes_out'"),
        ({"rules": Rules(last_card_discard="forbidden")}, "R19: under last_card_discard='forbidden'"),
    ],
)
def test_r1_r3_r7_r10_r19_from_position_validation(kwargs: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"hands": ["", "", "", ""], "discard_pile": "4s"} | kwargs
    hands = arguments.pop("hands")
    pile = arguments.pop("discard_pile")
    with pytest.raises(InvalidStateError) as caught:
        GameState.from_position(hands, pile, **arguments)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_r10_ace_low_meld_on_the_table_is_fine_under_high_or_low() -> None:
    state = GameState.from_position(
        ["", "", "", ""], "4s", melds=["As@0 2s@0 3s@0"], rules=Rules(ace_in_runs="high_or_low")
    )
    assert state.melds[0].ace_low


@pytest.mark.parametrize("dealer", range(4))
def test_r5_r6_from_deck_deals_one_at_a_time_from_left_of_the_dealer(dealer: int) -> None:
    deck = list(DECK)
    state = GameState.from_deck(deck, dealer=dealer)
    first = (dealer + 1) % 4
    for k in range(4):
        seat = (first + k) % 4
        assert state.hands[seat] == Hand(deck[k:28:4])
        assert len(state.hands[seat]) == 7
    assert state.discard_pile == (deck[28],)  # the 29th card is turned up
    assert len(state.stock) == 27
    assert state.stock[-1] == deck[29]  # the 30th card is drawn first
    assert state.stock == tuple(reversed(deck[29:]))
    assert state.current_player == first and state.dealer == dealer
    assert state.phase is Phase.DRAW and state.melds == () and state.must_meld is None


def test_r5_from_deck_with_the_canonical_deck_pins_the_deal() -> None:
    state = GameState.from_deck(DECK)
    assert str(state.hands[1]) == "2s 6s Ts As 5h 9h Kh"
    assert str(state.hands[2]) == "3s 7s Js 2h 6h Th Ah"
    assert str(state.hands[3]) == "4s 8s Qs 3h 7h Jh 2d"
    assert str(state.hands[0]) == "5s 9s Ks 4h 8h Qh 3d"
    assert str(state.discard_pile[0]) == "4d"
    assert str(state.stock[-1]) == "5d"


def test_r1_from_deck_validates_the_deck_and_dealer() -> None:
    with pytest.raises(InvalidStateError, match=r"R1: .*missing: Jk"):
        GameState.from_deck(DECK[:55])
    with pytest.raises(InvalidStateError, match=r"R1: .*duplicated: 2s"):
        GameState.from_deck(DECK[:55] + (DECK[0],))
    with pytest.raises(InvalidStateError, match="R3: the dealer is a seat 0-3, not 5"):
        GameState.from_deck(DECK, dealer=5)
    with pytest.raises(InvalidStateError, match="does not parse"):
        GameState.from_deck("4s 5x")


def test_r5_from_deck_accepts_text() -> None:
    text = " ".join(map(str, DECK))
    assert GameState.from_deck(text) == GameState.from_deck(DECK)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"current_player": 4}, "R3: current_player must be a seat 0-3, not 4"),
        ({"dealer": -1}, "R3: dealer must be a seat 0-3, not -1"),
        ({"phase": "draw"}, "phase must be a Phase"),
        ({"deal_number": 3}, "R7: deal_number must be 1-2, not 3"),
        ({"scores": (0,)}, "R23: scores must be two whole numbers"),
        ({"scores": (0, 1.5)}, "R23"),
        ({"stock": []}, "stock must be a tuple"),
        ({"must_meld": Card.parse("2s")}, "R14"),
        ({"consecutive_passes": 1}, "R20: a player can have passed only with an empty stock"),
        ({"idle_turns": 8}, "R20-R21: idle_turns must be 0-7"),
        ({"idle_turns": -1}, "R20-R21"),
        ({"turn_progress": True}, "R14: before the draw there is no card to meld and no progress"),
        ({"went_out": 1}, "R18: nobody has gone out while the round is being played"),
        ({"rules": "default"}, "rules must be a Rules value"),
        ({"hands": ()}, "R3: a state has exactly four Hand values"),
        ({"hands": list(new_game(1).hands)}, "R3: a state has exactly four Hand values, as a tuple"),
        ({"hands": None}, "R3: a state has exactly four Hand values, as a tuple, not None"),
        ({"must_meld": "2s"}, "R14: must_meld must be a Card or None, not '2s'"),
        ({"went_out": "1"}, "R18: went_out must be a seat 0-3 or None"),
        ({"stock": ()}, "R1: the position must hold exactly the 56 cards"),
        ({"melds": ("7s 7h 7d",)}, "melds must be Meld values"),
        ({"phase": Phase.GAME_OVER}, "R7: the game is over exactly when the last deal has ended"),
    ],
)
def test_r1_r3_r7_r14_r18_r20_r21_validate_names_what_is_wrong(changes: dict[str, Any], message: str) -> None:
    state = attrs.evolve(new_game(1), **changes)
    with pytest.raises(InvalidStateError) as caught:
        state.validate()
    assert message in str(caught.value)


def test_r14_validate_the_card_to_meld_must_be_held_by_the_mover() -> None:
    state = GameState.from_position(["", "4s 5s", "", ""], "6s")
    state = attrs.evolve(state, phase=Phase.MELD, must_meld=Card.parse("Kd"))
    with pytest.raises(InvalidStateError, match="R14: the card to meld must be in the hand"):
        state.validate()


def test_r17_r18_validate_after_the_draw_the_mover_holds_a_card() -> None:
    state = attrs.evolve(GameState.from_position(["", "", "", ""], "6s"), phase=Phase.MELD)
    with pytest.raises(InvalidStateError, match="R17-R18"):
        state.validate()


def test_r18_validate_the_player_who_went_out_holds_nothing() -> None:
    state = attrs.evolve(GameState.from_position(["", "4s", "", ""], "6s"), phase=Phase.ROUND_OVER, went_out=1)
    with pytest.raises(InvalidStateError, match="R18: the player who went out holds no card"):
        state.validate()
    # Seat 0 went out: it acted last (R18), its team has the bonus (R25), seat 1 holds the 4s (R23).
    attrs.evolve(state, went_out=0, current_player=0, scores=(25, -4)).validate()


def test_r20_validate_pass_count_limit_depends_on_stock_out_end() -> None:
    state = GameState.from_position(["", "", "", ""], DECK, stock=())
    attrs.evolve(state, consecutive_passes=3).validate()
    with pytest.raises(InvalidStateError, match="consecutive_passes must be 0-3"):
        attrs.evolve(state, consecutive_passes=4).validate()
    first = GameState.from_position(["", "", "", ""], DECK, stock=(), rules=Rules(stock_out_end="first_pass"))
    with pytest.raises(InvalidStateError, match="consecutive_passes must be 0-0"):
        attrs.evolve(first, consecutive_passes=1).validate()


def test_r6_new_game_state_fields() -> None:
    state = new_game(7, dealer=2)
    assert state.dealer == 2 and state.current_player == 3
    assert [len(hand) for hand in state.hands] == [7, 7, 7, 7]
    assert len(state.stock) == 27 and len(state.discard_pile) == 1
    assert state.phase is Phase.DRAW and state.hand == state.hands[3]
    assert not state.is_deal_over
    state.validate()


def test_summary_names_the_position() -> None:
    summary = new_game(1).summary()
    assert summary.startswith("deal 1 of 2, seat 1 to act, phase DRAW, hand ")
    assert "stock 27" in summary and "0 melds" in summary


def test_states_are_frozen_values() -> None:
    state = new_game(1)
    with pytest.raises(AttributeError):
        state.current_player = 2  # type: ignore[misc]
    assert state == new_game(1) and hash(state) == hash(new_game(1))


def test_r9_r11_from_position_with_an_invalid_meld_raises_invalid_state_error() -> None:
    # Regression: a meld that is no meld used to escape as InvalidMeldError from from_position.
    for text in ("4s 5s 7s", "Jk Jk 4s", "7s@0 7h@1 7d@0"):
        with pytest.raises(InvalidStateError, match="does not parse"):
            GameState.from_position(["", "", "", ""], "4d", melds=[text])


def test_r12_a_played_state_hashes_as_an_equal_state_built_anew_without_attrs_private_slots() -> None:
    # The engine's evolve() makes every next state; its hash is cached in a slot of the
    # package's own, not in attrs' private cache_hash slot (which evolve used to write).
    from persian_rummy import play

    assert not any("attrs_cached_hash" in name for name in dir(GameState))
    state = play(new_game(1), "draw")
    fresh = GameState(**{field.name: getattr(state, field.name) for field in attrs.fields(GameState)})
    assert fresh == state and hash(fresh) == hash(state) == hash(state)
    assert {state: 1}[fresh] == 1


def test_r6_r12_the_states_methods_are_the_functions_answers() -> None:
    # Issue 50 item 8: state.legal_actions() and state.play() are the functions, as methods:
    # the same tuple, the same next state, the same refusal, and the state does not change.
    from playouts import RULE_SETS, playout

    from persian_rummy import IllegalActionError, legal_actions, play

    for seed, rules in ((3, RULE_SETS[0]), (4, RULE_SETS[1])):
        before: GameState | None = None
        for state, action in playout(seed, rules):
            if before is not None and action is not None:
                copy = attrs.evolve(before)
                assert before.play(action) == state == play(before, action)
                assert before.play(str(action)) == state
                assert before == copy
            assert state.legal_actions() == legal_actions(state)
            before = state
    state = new_game(1)
    for action, seat in (("discard Jk", None), ("draw", 2)):  # R12 (draw first), R6 (not your turn)
        with pytest.raises(IllegalActionError) as method:
            state.play(action, seat=seat)
        with pytest.raises(IllegalActionError) as function:
            play(state, action, seat=seat)
        assert (type(method.value), str(method.value)) == (type(function.value), str(function.value))
