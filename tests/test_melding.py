"""Melding and laying off: new melds, lay-offs on any meld, credit and extension (R8-R11, R15, R16)."""

from __future__ import annotations

import pytest
from positions import after_draw

from persian_rummy import (
    CardNotInHandError,
    Hand,
    InvalidLayOffError,
    InvalidMeldError,
    LayOff,
    Meld,
    MeldCards,
    NoSuchMeldError,
    Phase,
    Rules,
    lay_off,
    legal_actions,
    meld,
    parse_cards,
    play,
)
from persian_rummy.scoring import tally

DEFAULT_RULES = Rules()


def test_r15_meld_a_set_from_the_hand_credited_to_the_player() -> None:
    state = after_draw(["", "7s 7h 7d 2c", "", ""], "9d")
    after = meld(state, "7d 7s 7h")
    assert after.melds == (Meld.parse("7s@1 7h@1 7d@1"),)
    assert after.hands[1] == Hand("2c 9d")
    assert after.phase is Phase.MELD and after.current_player == 1
    assert play(state, MeldCards("7s 7h 7d")) == after == play(state, "meld 7h 7d 7s")


def test_r15_no_limit_on_melds_per_turn_and_no_minimum_first_meld() -> None:
    state = after_draw(["", "2s 3s 4s 2h 2d 2c Jk Jk Jk", "", ""], "9d")
    state = meld(state, "2s 3s 4s")  # 9 points: no minimum
    state = meld(state, "2h 2d 2c")
    state = meld(state, "Jk Jk Jk")
    assert len(state.melds) == 3 and state.hands[1] == Hand("9d")
    assert all(table_meld.owner == 1 for table_meld in state.melds)


def test_r8_r15_legal_melds_include_every_three_and_the_four() -> None:
    state = after_draw(["", "7s 7h 7d 7c", "", ""], "2d")
    melds = [action for action in legal_actions(state) if isinstance(action, MeldCards)]
    assert melds == [
        MeldCards("7s 7h 7d"),
        MeldCards("7s 7h 7c"),
        MeldCards("7s 7d 7c"),
        MeldCards("7h 7d 7c"),
        MeldCards("7s 7h 7d 7c"),
    ]


def test_r9_r15_legal_melds_include_every_run_window() -> None:
    state = after_draw(["", "4s 5s 6s 7s", "", ""], "2d")
    melds = {str(action) for action in legal_actions(state) if isinstance(action, MeldCards)}
    assert melds == {"meld 4s 5s 6s", "meld 4s 5s 6s 7s", "meld 5s 6s 7s"}


def test_r10_meld_ace_low_run_only_under_high_or_low() -> None:
    high = after_draw(["", "As 2s 3s Qs Ks", "", ""], "9d")
    with pytest.raises(InvalidMeldError, match="R10") as caught:
        meld(high, "As 2s 3s")
    assert caught.value.rule == "R10"
    assert MeldCards("As 2s 3s") not in legal_actions(high)
    assert MeldCards("Qs Ks As") in legal_actions(high)
    low = after_draw(["", "As 2s 3s Qs Ks", "", ""], "9d", rules=Rules(ace_in_runs="high_or_low"))
    assert MeldCards("As 2s 3s") in legal_actions(low)
    assert MeldCards("Qs Ks As") in legal_actions(low)
    after = meld(low, "As 2s 3s")
    assert after.melds[0].ace_low and str(after.melds[0]) == "As@1 2s@1 3s@1"


def test_r9_r10_no_wrapping_even_with_ace_low() -> None:
    state = after_draw(["", "Ks As 2s", "", ""], "9d", rules=Rules(ace_in_runs="high_or_low"))
    assert not [action for action in legal_actions(state) if isinstance(action, MeldCards)]
    with pytest.raises(InvalidMeldError, match="R9"):
        meld(state, "Ks As 2s")


def test_r11_joker_sets_meld_and_jokers_never_join_natural_melds() -> None:
    state = after_draw(["", "Jk Jk Jk Jk 7s 7h", "", ""], "7d")
    melds = {str(action) for action in legal_actions(state) if isinstance(action, MeldCards)}
    assert melds == {"meld 7s 7h 7d", "meld Jk Jk Jk", "meld Jk Jk Jk Jk"}
    with pytest.raises(InvalidMeldError, match="R11"):
        meld(state, "7s 7h Jk")
    with pytest.raises(InvalidMeldError, match="R11"):
        meld(state, "Jk Jk")


def test_r15_meld_cards_not_in_hand() -> None:
    state = after_draw(["", "7s 7h 2c", "", ""], "9d")
    with pytest.raises(CardNotInHandError, match="R15: seat 1 does not hold 7d"):
        meld(state, "7s 7h 7d")
    with pytest.raises(CardNotInHandError, match="R15"):
        meld(state, "Jk Jk Jk")


def test_r16_lay_off_on_an_opponents_meld_is_credited_to_the_layers_team() -> None:
    # North (0) lays off 3c on West's (3) run 4c 5c 6c.
    state = after_draw(["3c 9h", "", "", ""], "2d", melds=["4c@3 5c@3 6c@3"], dealer=3)
    after = lay_off(state, "3c", 0)
    table_meld = after.melds[0]
    assert str(table_meld) == "3c+0 4c@3 5c@3 6c@3"
    assert table_meld.owner == 3
    assert after.hands[0] == Hand("9h 2d")
    assert play(state, LayOff("3c", 0)) == after == play(state, "layoff 3c 0")


def test_r16_r23_opponents_meld_lay_off_scores_for_the_layer() -> None:
    state = after_draw(["3c 9h", "", "", ""], "2d", melds=["4c@3 5c@3 6c@3"], dealer=3)
    state = lay_off(state, "3c", 0)
    ns, ew = tally(state.melds, state.hands, went_out=None, rules=state.rules)
    assert (ns.melded, ns.laid_off) == (0, 3)
    assert (ew.melded, ew.laid_off) == (15, 0)


def test_r16_lay_off_extends_the_meld_logically_a_later_card_extends_past_it() -> None:
    state = after_draw(["3c 2c", "", "", ""], "9d", melds=["4c@3 5c@3 6c@3"], dealer=3)
    state = lay_off(state, "3c", 0)
    assert LayOff("2c", 0) in legal_actions(state)
    state = lay_off(state, "2c", 0)
    assert str(state.melds[0]) == "2c+0 3c+0 4c@3 5c@3 6c@3"


def test_r16_a_later_player_extends_past_an_opponents_lay_off() -> None:
    # West's run with North's 3c: East (1) then lays off the 2c below North's card.
    state = after_draw(["", "2c 9h", "", ""], "8d", melds=["3c+0 4c@3 5c@3 6c@3"])
    after = lay_off(state, "2c", 0)
    assert str(after.melds[0]) == "2c+1 3c+0 4c@3 5c@3 6c@3"


def test_r16_lay_off_on_own_and_partners_melds() -> None:
    # Seat 1 lays off on its partner's (seat 3) set and on its own run.
    state = after_draw(["", "9s 7c 9h", "", ""], "2d", melds=["7s@3 7h@3 7d@3", "Ts@1 Js@1 Qs@1"])
    assert set(legal_actions(state)) >= {LayOff("7c", 0), LayOff("9s", 1)}
    state = lay_off(state, "7c", 0)
    state = lay_off(state, "9s", 1)
    assert str(state.melds[0]) == "7s@3 7h@3 7d@3 7c+1"
    assert str(state.melds[1]) == "9s+1 Ts@1 Js@1 Qs@1"
    assert not state.melds[0].four_at_once


def test_r16_lay_off_lists_every_card_that_fits_every_meld() -> None:
    state = after_draw(["", "3c 7s 9c Jk", "", ""], "2d", melds=["4c@3 5c@3 6c@3", "7h@0 7d@0 7c@0", "Jk@2 Jk@2 Jk@2"])
    lay_offs = [action for action in legal_actions(state) if isinstance(action, LayOff)]
    assert lay_offs == [LayOff("3c", 0), LayOff("7s", 1), LayOff("Jk", 2)]


def test_r16_several_lay_offs_are_several_actions() -> None:
    state = after_draw(["", "2c 3c 9h", "", ""], "8d", melds=["4c@3 5c@3 6c@3"])
    assert LayOff("2c", 0) not in legal_actions(state)  # 2c fits only after 3c
    state = lay_off(state, "3c", 0)
    state = lay_off(state, "2c", 0)
    assert len(state.melds[0]) == 5 and state.melds[0].laid_off[:2] == (True, True)


def test_r16_lay_off_that_does_not_fit() -> None:
    state = after_draw(["", "9c 7s Jk", "", ""], "8d", melds=["4c@3 5c@3 6c@3", "7h@0 7d@0 7c@0"])
    with pytest.raises(InvalidLayOffError, match="R16: 9c does not extend the meld 4c 5c 6c"):
        lay_off(state, "9c", 0)
    with pytest.raises(InvalidLayOffError) as caught:
        lay_off(state, "Jk", 1)
    assert caught.value.rule == "R11"
    with pytest.raises(NoSuchMeldError, match="R16: there is no meld 2 on the table"):
        lay_off(state, "7s", 2)
    with pytest.raises(CardNotInHandError, match="R16"):
        lay_off(state, "3c", 0)


def test_r10_r16_lay_off_ace_below_a_two_only_under_high_or_low() -> None:
    high = after_draw(["", "Ah 9c", "", ""], "8d", melds=["2h@0 3h@0 4h@0"])
    assert LayOff("Ah", 0) not in legal_actions(high)
    with pytest.raises(InvalidLayOffError):
        lay_off(high, "Ah", 0)
    low = after_draw(["", "Ah 9c", "", ""], "8d", melds=["2h@0 3h@0 4h@0"], rules=Rules(ace_in_runs="high_or_low"))
    assert LayOff("Ah", 0) in legal_actions(low)
    assert lay_off(low, "Ah", 0).melds[0].ace_low


def test_r15_r16_melding_and_laying_off_leave_the_argument_unchanged() -> None:
    state = after_draw(["", "7s 7h 7d 3c 9h", "", ""], "2d", melds=["4c@3 5c@3 6c@3"])
    before = (state.hands, state.melds)
    meld(state, "7s 7h 7d")
    lay_off(state, "3c", 0)
    assert (state.hands, state.melds) == before


def test_r15_a_meld_is_a_new_table_entry_after_the_others() -> None:
    state = after_draw(["", "7s 7h 7d 9h", "", ""], "2d", melds=["4c@3 5c@3 6c@3"])
    after = meld(state, "7s 7h 7d")
    assert after.melds[0] == state.melds[0] and after.melds[1] == Meld.parse("7s@1 7h@1 7d@1")
    assert parse_cards("7s 7h 7d") == after.melds[1].cards
