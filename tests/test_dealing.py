"""Seeded shuffling and dealing (R5-R7): the same seed gives the same deck forever."""

from __future__ import annotations

from collections import Counter

import pytest

from persian_rummy import (
    DECK,
    ArgumentTypeError,
    GameState,
    InvalidStateError,
    Phase,
    Rules,
    WrongPhaseError,
    legal_actions,
    new_game,
    next_deal,
    parse_cards,
    play,
    shuffled_deck,
)

# Pinned decks: if the shuffle ever changes, every recorded game would replay differently.
PINNED = {
    0: "5s 8d Qh Th 6h 5h Jd Ac 3s 2d Ad 6d 7h 7s 7d Jk 3c Kd 4h 4s 2c 2s 6s 8h Jk 9s Qd Js 4d 3d Kh 7c 4c 9c "
    "5c Jc Ts Qs Tc Kc Jh Td 2h 9h 8s 6c Ks 5d 3h Jk 8c Qc Ah As Jk 9d",
    1: "Jk Kc As 3h 2d 4d 4h 8h Jd 9d 6h Ts Js Jh 3c 3s Tc Ks 5d Qs Qd 7c Ah 8c Jk 9s Td 6s 2s Ad Jc Th 8d 8s "
    "6c 3d 7d 6d 7s 4s Jk Qh 2h 9c 4c 5h 2c Qc Kh Ac Jk 5c Kd 9h 7h 5s",
    "persian-rummy": "Ac Th 9h 3h 7s Js Td Ah 4s 2s 5s Kd Jh Jd Ad Tc 5d 7h 6c Qs 7c Qh 4c 6d 3c As 2h 9s Kc 8c "
    "2d Jk Jk Jk 7d Kh 8s Ts 5h 4d Qc 6s Ks 5c 3d Jk 3s Jc 9d 9c 8h 6h Qd 2c 4h 8d",
    2**70: "9d Tc 5d Jk Jc 8c As 7h 8d Kc Jk Ad Td 2s Kd 6c Th Ah 2h 3d Jk Kh 8s 4c 4s 9s 6h 3s Ac 7d Qs 5c 2c "
    "5h 9h Jk Jd 8h 3h Qd 2d Qh Ks 3c Js Jh 7s 6s 5s 7c 4d Ts 4h 6d 9c Qc",
    -3: "7c 3h 8s Jk 4d Tc 2c Kd Qc 7h Jc Td 8c 8d 5d 8h Jk Ad 6d 5c 7d 6c 5h Qd 3s 4c Kc 6s Ac 9h Js 2s 2h Ks "
    "9s Jk 4h Qs Jh 2d Th 4s 3c 9c 9d 5s 7s Jd As 6h Ah Ts 3d Jk Qh Kh",
}


@pytest.mark.parametrize("seed", list(PINNED))
def test_r5_seeded_shuffle_is_pinned(seed: int | str) -> None:
    assert shuffled_deck(seed) == parse_cards(PINNED[seed])


def test_r1_r5_a_shuffled_deck_is_the_deck() -> None:
    for seed in range(50):
        assert Counter(shuffled_deck(seed)) == Counter(DECK)


def test_r5_seeds_reproduce_and_differ() -> None:
    assert shuffled_deck(7) == shuffled_deck(7)
    assert new_game(7) == new_game(7)
    assert len({shuffled_deck(seed) for seed in range(30)}) == 30
    assert shuffled_deck(1) != shuffled_deck("1")  # a number and a text are different seeds


@pytest.mark.parametrize("seed", [True, 1.5, None, b"1", (1,)])
def test_r5_bad_seeds_raise(seed: object) -> None:
    with pytest.raises(ArgumentTypeError):
        shuffled_deck(seed)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        new_game(seed)  # type: ignore[arg-type]


def test_r5_r6_new_game_pins_the_first_deal() -> None:
    state = new_game(1)
    assert [str(hand) for hand in state.hands] == [
        "3s 6s Ts Qs 3h 8h 8c",
        "Js 2d Jd Qd Tc Jk Jk",
        "9s Ks Jh 4d 9d 7c Kc",
        "As 4h 6h Ah 5d Td 3c",
    ]
    assert state.discard_pile == parse_cards("2s")
    assert str(state.stock[-1]) == "Ad"
    assert state == GameState.from_deck(shuffled_deck(1))


@pytest.mark.parametrize("dealer", range(4))
def test_r5_r6_new_game_deals_from_the_shuffled_deck_left_of_the_dealer(dealer: int) -> None:
    state = new_game(9, dealer=dealer)
    assert state == GameState.from_deck(shuffled_deck(9), dealer=dealer)
    assert state.current_player == (dealer + 1) % 4 and state.dealer == dealer
    assert [len(hand) for hand in state.hands] == [7, 7, 7, 7]
    assert len(state.stock) == 27 and len(state.discard_pile) == 1


@pytest.mark.parametrize("dealer", [-1, 4, "0", None, True])
def test_r3_new_game_rejects_a_bad_dealer(dealer: object) -> None:
    with pytest.raises(InvalidStateError, match="R3"):
        new_game(1, dealer=dealer)  # type: ignore[arg-type]


def test_r5_new_game_keeps_the_rules() -> None:
    rules = Rules(deals=4, ace_in_runs="high_or_low")
    assert new_game(1, rules=rules).rules is rules


def finish(state: GameState) -> GameState:
    while state.phase.is_live:
        state = play(state, legal_actions(state)[0])
    return state


def test_r7_next_deal_passes_the_deal_clockwise() -> None:
    rules = Rules(deals=6)
    state = new_game(1, dealer=2, rules=rules)
    dealers = [state.dealer]
    first_players = [state.current_player]
    for deal in range(2, 7):
        state = finish(state)
        scores = state.scores
        state = next_deal(state, deal)
        assert state.deal_number == deal and state.scores == scores and state.rules is rules
        assert state == GameState.from_deck(
            shuffled_deck(deal), dealer=state.dealer, deal_number=deal, scores=scores, rules=rules
        )
        dealers.append(state.dealer)
        first_players.append(state.current_player)
    assert dealers == [2, 3, 0, 1, 2, 3]
    assert first_players == [3, 0, 1, 2, 3, 0]
    assert finish(state).phase is Phase.GAME_OVER


def test_r7_default_game_the_left_of_the_first_dealer_deals_the_second_hand() -> None:
    state = finish(new_game(4, dealer=0))
    second = next_deal(state, 5)
    assert second.dealer == 1 and second.current_player == 2 and second.deal_number == 2


def test_r7_next_deal_only_from_round_over() -> None:
    with pytest.raises(WrongPhaseError, match="R7: deal 1 is still being played"):
        next_deal(new_game(1), 2)
    over = finish(new_game(1, rules=Rules(deals=1)))
    with pytest.raises(WrongPhaseError, match="R7: the game is over"):
        next_deal(over, 2)
