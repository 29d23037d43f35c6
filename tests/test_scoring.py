"""Scoring: card values, credit, the four-at-once double, the going-out bonus and the winner
(R22-R26), with the worked example of RULES.md as the oracle."""

from __future__ import annotations

import attrs
import pytest
from positions import rest_of_deck

from persian_rummy import (
    DECK,
    Card,
    GameNotOverError,
    GameState,
    Hand,
    Meld,
    Phase,
    RoundNotOverError,
    RoundScore,
    Rules,
    draw_stock,
    lay_off,
    meld,
    new_game,
    parse_cards,
    pass_turn,
    play,
    score_round,
    winner,
)
from persian_rummy.scoring import tally

DEFAULT_RULES = Rules()

# The worked example: North 0, East 1, South 2, West 3.
EXAMPLE_TABLE_BEFORE_EAST = [
    "8h@2 9h@2 Th@2",
    "Js@2 Jh@2 Jd@2 Jc@2",
    "7s@0 7h@0 7d@0",
    "3c+0 4c@3 5c@3 6c@3",
    "3d@3 3s@3 3h@3",
]


def worked_example_before_east(rules: Rules = DEFAULT_RULES) -> GameState:
    """East to draw the A♠ from the stock, holding three jokers, Q♠ K♠ and the 7♣."""
    hands = ["Kd 4d", "Jk Jk Jk Qs Ks 7c", "Jk Ad", "Qh 2d 9s"]
    named = [card for hand in hands for card in parse_cards(hand)]
    for text in EXAMPLE_TABLE_BEFORE_EAST:
        named.extend(Meld.parse(text).cards)
    named.append(Card.parse("As"))
    stock = rest_of_deck(named) + [Card.parse("As")]
    return GameState.from_position(hands, [], stock=stock, melds=EXAMPLE_TABLE_BEFORE_EAST, dealer=0, rules=rules)


def play_worked_example(rules: Rules = DEFAULT_RULES) -> GameState:
    state = draw_stock(worked_example_before_east(rules))
    state = meld(state, "Jk Jk Jk")
    state = meld(state, "Qs Ks As")
    return lay_off(state, "7c", 2)  # on North's sevens: East goes out


def test_r22_r26_worked_example_scores_ns_82_ew_130() -> None:
    state = play_worked_example()
    assert state.phase is Phase.ROUND_OVER and state.went_out == 1
    assert str(state.melds[2]) == "7s@0 7h@0 7d@0 7c+1"
    ns, ew = score_round(state)
    assert ns == RoundScore(team=0, melded=21 + 27 + 40, laid_off=3, doubles=40, in_hand=14 + 35, going_out=0)
    assert ew == RoundScore(team=1, melded=60 + 35 + 15 + 9, laid_off=7, doubles=0, in_hand=21, going_out=25)
    assert (ns.total, ew.total) == (82, 130)
    assert state.scores == (82, 130)


def test_r20_r25_worked_example_ended_by_stock_exhaustion_scores_ew_105() -> None:
    # The same table and hands, but the stock is empty (its cards lie in the discard pile)
    # and East's hand is already empty: four passes end the round with no bonus.
    table = [*EXAMPLE_TABLE_BEFORE_EAST, "Jk@1 Jk@1 Jk@1", "Qs@1 Ks@1 As@1"]
    table[2] = "7s@0 7h@0 7d@0 7c+1"
    hands = ["Kd 4d", "", "Jk Ad", "Qh 2d 9s"]
    named = [card for hand in hands for card in parse_cards(hand)]
    for text in table:
        named.extend(Meld.parse(text).cards)
    state = GameState.from_position(hands, rest_of_deck(named), stock=(), melds=table)
    for _ in range(4):
        state = pass_turn(state)
    assert state.phase is Phase.ROUND_OVER and state.went_out is None
    ns, ew = score_round(state)
    assert (ns.total, ew.total) == (82, 105)
    assert ew.going_out == 0


def test_r24_four_jacks_at_once_80_three_plus_a_later_jack_40() -> None:
    at_once = Meld.parse("Js Jh Jd Jc", seat=2)
    later = Meld.parse("Js Jh Jd", seat=2).lay_off("Jc", seat=2)
    empty = [Hand()] * 4
    assert tally([at_once], empty, went_out=None, rules=DEFAULT_RULES)[0].total == 80
    assert tally([later], empty, went_out=None, rules=DEFAULT_RULES)[0].total == 40
    # Laid off by an opponent: never doubled either, whoever lays it off.
    by_opponent = Meld.parse("Js Jh Jd", seat=2).lay_off("Jc", seat=1)
    ns, ew = tally([by_opponent], empty, went_out=None, rules=DEFAULT_RULES)
    assert (ns.total, ew.total) == (30, 10)


def test_r24_four_at_once_double_only_for_a_single_meld_action_in_play() -> None:
    state = draw_stock(
        GameState.from_position(
            ["2c", "Js Jh Jd Jc Qs Qh Qd", "2d", "2h"],
            [],
            stock=[*rest_of_deck(parse_cards("2c Js Jh Jd Jc Qs Qh Qd 2d 2h Qc")), Card.parse("Qc")],
        )
    )
    state = meld(state, "Js Jh Jd Jc")  # four at once
    state = meld(state, "Qs Qh Qd")
    state = lay_off(state, "Qc", 1)  # three + a later queen; goes out
    assert state.went_out == 1
    ns, ew = score_round(state)
    assert ew.melded == 40 + 30 and ew.laid_off == 10 and ew.doubles == 40
    assert ew.total == 80 + 40 + 25 - 2  # West still holds the 2h
    assert ns.doubles == 0


def test_r24_runs_never_double() -> None:
    run = Meld.parse("Js Qs Ks As", seat=1)
    assert tally([run], [Hand()] * 4, went_out=None, rules=DEFAULT_RULES)[1].total == 45


@pytest.mark.parametrize(("double", "four_jokers"), [(True, 160), (False, 80)])
def test_r24_double_four_jokers_knob(double: bool, four_jokers: int) -> None:
    rules = Rules(double_four_jokers=double)
    jokers = Meld.parse("Jk Jk Jk Jk", seat=3)
    jacks = Meld.parse("Js Jh Jd Jc", seat=0)
    ns, ew = tally([jokers, jacks], [Hand()] * 4, went_out=None, rules=rules)
    assert ew.total == four_jokers
    assert ns.total == 80  # natural sets of four still double
    later = Meld.parse("Jk Jk Jk", seat=3).lay_off("Jk", seat=1)
    assert tally([later], [Hand()] * 4, went_out=None, rules=rules)[1].total == 80
    # The meld answers the same question the scores do.
    assert jokers.scores_double(rules.double_four_jokers) is double
    assert jacks.scores_double(rules.double_four_jokers) and not later.scores_double(rules.double_four_jokers)


@pytest.mark.parametrize("bonus", [0, 25, 50])
def test_r25_going_out_bonus_knob(bonus: int) -> None:
    state = play_worked_example(Rules(going_out_bonus=bonus))
    ns, ew = score_round(state)
    assert ew.going_out == bonus and ns.going_out == 0
    assert ew.total == 105 + bonus


def test_r25_no_bonus_when_the_round_ends_by_passes() -> None:
    hands = ["2c", "2d", "2h", "2s"]
    state = GameState.from_position(hands, rest_of_deck(parse_cards("2c 2d 2h 2s")), stock=())
    for _ in range(4):
        state = pass_turn(state)
    ns, ew = score_round(state)
    assert (ns.going_out, ew.going_out) == (0, 0)
    assert (ns.total, ew.total) == (-4, -4)


def test_r23_cards_in_hand_count_against_both_partners_and_totals_may_be_negative() -> None:
    hands = [Hand("As Jk"), Hand("2c"), Hand("Kd"), Hand()]
    ns, ew = tally([], hands, went_out=None, rules=DEFAULT_RULES)
    assert (ns.in_hand, ns.total) == (45, -45)
    assert (ew.in_hand, ew.total) == (2, -2)


def test_r23_every_card_counts_for_the_seat_credited_with_it() -> None:
    table = [Meld.parse("3c+0 4c@3 5c@3 6c@3 7c+2"), Meld.parse("9d@1 Td@1 Jd@1 Qd+3")]
    ns, ew = tally(table, [Hand()] * 4, went_out=None, rules=DEFAULT_RULES)
    assert (ns.melded, ns.laid_off) == (0, 10)
    assert (ew.melded, ew.laid_off) == (15 + 29, 10)


def test_r23_scores_accumulate_over_deals() -> None:
    state = new_game(21)
    totals = [0, 0]
    from persian_rummy import legal_actions, next_deal

    for deal in range(2):
        while state.phase.is_live:
            state = play(state, legal_actions(state)[-1])
        ns, ew = score_round(state)
        totals[0] += ns.total
        totals[1] += ew.total
        assert state.scores == tuple(totals)
        if deal == 0:
            state = next_deal(state, 22)
    assert state.phase is Phase.GAME_OVER


def test_r23_score_round_needs_a_finished_round() -> None:
    with pytest.raises(RoundNotOverError, match="R23: deal 1 is still being played"):
        score_round(new_game(1))


def test_r22_score_str_lists_the_items() -> None:
    ns, _ = score_round(play_worked_example())
    assert str(ns) == "North-South: melded 88, laid off 3, doubles 40, less 49 in hand, going out 0, total 82"


def _game_over(scores: tuple[int, int]) -> GameState:
    # Deal 2 of 2 ended by four passes with an empty stock (R20), a table and hands that score
    # nothing: the totals are what deal 1 gave (R23).
    state = GameState.from_position(["", "", "", ""], DECK, stock=(), deal_number=2)
    return attrs.evolve(state, phase=Phase.GAME_OVER, scores=scores, consecutive_passes=4, idle_turns=4)


@pytest.mark.parametrize(("scores", "team"), [((82, 130), 1), ((130, 82), 0), ((-5, -20), 0), ((50, 50), None)])
def test_r26_winner_is_the_higher_total_equal_totals_are_a_draw(scores: tuple[int, int], team: int | None) -> None:
    state = _game_over(scores)
    state.validate()
    assert winner(state) == team


def test_r26_winner_after_a_real_game() -> None:
    state = play_worked_example(Rules(deals=1))
    assert state.phase is Phase.GAME_OVER
    assert winner(state) == 1


def test_r26_winner_needs_a_finished_game() -> None:
    with pytest.raises(GameNotOverError, match="R26: the game is not over"):
        winner(new_game(1))
    first_deal = play_worked_example()
    assert first_deal.phase is Phase.ROUND_OVER
    with pytest.raises(GameNotOverError):
        winner(first_deal)
    assert issubclass(GameNotOverError, RoundNotOverError) and issubclass(GameNotOverError, ValueError)


def test_r23_a_scores_repr_and_its_line_say_the_same_number_in_hand() -> None:
    """Issue 50 item 12: the repr said in_hand=49 where the line said "in hand -49"; each
    says the value subtracted the same way, and the repr still pastes back to the score."""
    from persian_rummy import RoundScore

    for score in score_round(play_worked_example()):
        assert eval(repr(score), {"RoundScore": RoundScore}) == score
        assert f"in_hand={score.in_hand}," in repr(score) and f"less {score.in_hand} in hand," in str(score)
        assert f"-{score.in_hand}" not in str(score)
