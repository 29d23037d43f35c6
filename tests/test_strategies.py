"""The public Hypothesis strategies (``persian_rummy.strategies``) generate what they promise,
and the core package imports without Hypothesis."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from conformance import check_illegal, check_state
from hypothesis import Phase as HypothesisPhase
from hypothesis import find, given, settings
from hypothesis import strategies as st

import persian_rummy.strategies as strategies
from persian_rummy import (
    GameState,
    IllegalActionError,
    InvalidArgumentError,
    InvalidMeldError,
    Meld,
    MeldCards,
    MeldKind,
    MeldValueError,
    NotationError,
    Phase,
    Rules,
    draw_stock,
    is_legal,
    legal_actions,
    meld,
    play,
)
from persian_rummy.actions import Action


def test_the_core_package_imports_without_hypothesis() -> None:
    # A fresh interpreter in which Hypothesis cannot be imported.
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "import persian_rummy\n"
        "assert 'persian_rummy.strategies' not in sys.modules\n"
        "try:\n"
        "    import persian_rummy.strategies\n"
        "except ImportError as error:\n"
        "    assert 'pip install \".[hypothesis]\" in a clone' in str(error), error\n"
        "else:\n"
        "    raise SystemExit('imported without hypothesis')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_strategies_without_hypothesis_raise_an_import_error_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same, in this process (so the lines are covered): load the module's file afresh.
    monkeypatch.setitem(sys.modules, "hypothesis", None)
    spec = importlib.util.spec_from_file_location("_strategies_without_hypothesis", strategies.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with pytest.raises(ImportError, match=r"pip install \"\.\[hypothesis\]\" in a clone"):
        spec.loader.exec_module(module)


@given(strategies.cards(), strategies.natural_cards(), strategies.seats())
def test_cards_and_seats(card: object, natural: object, seat: int) -> None:
    assert card in strategies.CARDS
    assert natural in strategies.CARDS[:52]
    assert seat in range(4)


@given(strategies.decks())
def test_r1_decks_are_permutations_of_the_deck(deck: tuple[strategies.Card, ...]) -> None:
    assert sorted(deck) == sorted(strategies.DECK)
    GameState.from_deck(deck)


@given(strategies.hands(min_size=2, max_size=9))
def test_r1_hands_could_come_from_one_deck(hand: strategies.Hand) -> None:
    assert 2 <= len(hand) <= 9
    assert hand.jokers <= 4


def test_hands_rejects_impossible_sizes() -> None:
    with pytest.raises(ValueError, match="min_size"):
        strategies.hands(min_size=5, max_size=3)


@given(strategies.sets())
def test_r8_sets_are_three_or_four_of_a_rank(value: Meld) -> None:
    assert value.kind is MeldKind.SET and len(value) in (3, 4) and not value.is_joker_set
    assert len({card.rank for card in value.cards}) == 1


@given(strategies.runs("high_or_low"))
def test_r9_r10_runs_are_consecutive_in_one_suit(value: Meld) -> None:
    assert value.kind is MeldKind.RUN and 3 <= len(value) <= 13
    assert len({card.suit for card in value.cards}) == 1
    values = [1 if value.ace_low and card.rank == 14 else card.rank for card in value.cards]
    assert values == list(range(values[0], values[0] + len(values)))


@given(strategies.runs("high"))
def test_r10_ace_high_runs_never_play_the_ace_low(value: Meld) -> None:
    assert not value.ace_low


@given(strategies.joker_sets())
def test_r11_joker_sets_are_three_or_four_jokers(value: Meld) -> None:
    assert value.is_joker_set and len(value) in (3, 4) and all(card.is_joker for card in value.cards)


@given(strategies.melds("high_or_low"))
def test_r16_melds_with_lay_offs_are_valid_and_read_back(value: Meld) -> None:
    assert Meld.parse(str(value)) == value
    assert Meld(value.cards, value.seats, value.laid_off) == value


@given(strategies.melds(max_lay_offs=0))
def test_r15_fresh_melds_have_no_lay_off(value: Meld) -> None:
    assert not any(value.laid_off) and not value.ace_low


@given(
    st.sampled_from(["high", "high_or_low"]).flatmap(lambda ace: st.tuples(st.just(ace), strategies.invalid_melds(ace)))
)
def test_r8_r11_invalid_melds_cannot_be_melded(case: tuple[str, tuple[strategies.Card, ...]]) -> None:
    ace, cards = case
    try:
        hand = strategies.Hand(cards)
    except InvalidArgumentError:
        # A natural card named twice (R1): no hand holds it, and no meld is made of it.
        with pytest.raises(MeldValueError):
            Meld(cards)
        return
    # Give the player to move exactly those cards, let them draw, and try to meld them.
    rest = list(strategies.DECK)
    for card in hand:
        rest.remove(card)
    state = GameState.from_position(["", hand, "", ""], rest[-1:], stock=rest[:-1], rules=Rules(ace_in_runs=ace))
    with pytest.raises(InvalidMeldError):
        meld(draw_stock(state), cards)


@given(strategies.rules())
def test_rules_draws_every_knob_validly(rules: Rules) -> None:
    assert Rules.parse(str(rules)) == rules
    assert 1 <= rules.deals <= 3


def test_rules_draws_every_value_of_every_knob() -> None:
    seen: dict[str, set[object]] = {}

    @given(strategies.rules())
    def collect(rules: Rules) -> None:
        for name in ("ace_in_runs", "top_card_must_meld", "pickup_use", "last_card_discard", "stock_out_end"):
            seen.setdefault(name, set()).add(getattr(rules, name))

    collect()
    assert seen["last_card_discard"] == {"stays_in", "goes_out", "forbidden"}
    assert all(len(values) >= 2 for values in seen.values())


def test_rules_fixes_the_knobs_given_and_rejects_unknown_ones() -> None:
    @given(strategies.rules(pickup_use="new_meld_only", deals=2))
    def check(rules: Rules) -> None:
        assert rules.pickup_use == "new_meld_only" and rules.deals == 2

    check()
    with pytest.raises(ValueError, match="unknown knobs: colour"):
        strategies.rules(colour="red")


@given(strategies.game_states(max_actions=150))
def test_r12_r20_game_states_are_live_and_reachable(state: GameState) -> None:
    assert state.phase.is_live
    check_state(state)


@given(strategies.game_states(strategies.rules(deals=2), max_actions=600, finished=True))
def test_r7_game_states_include_finished_rounds_and_later_deals(state: GameState) -> None:
    check_state(state)
    assert state.deal_number in (1, 2)


def test_r7_game_states_reach_the_second_deal_and_the_end_of_the_game() -> None:
    games = strategies.game_states(Rules(), max_actions=800, finished=True)
    search = settings(phases=[HypothesisPhase.generate], max_examples=1000, database=None)
    second = find(games, lambda state: state.deal_number == 2, settings=search)
    over = find(games, lambda state: state.phase is Phase.GAME_OVER, settings=search)
    check_state(second)
    check_state(over)


@given(strategies.game_states(), st.data())
def test_r12_r20_legal_actions_for_are_legal(state: GameState, data: st.DataObject) -> None:
    action = data.draw(strategies.legal_actions_for(state))
    assert action in legal_actions(state) and is_legal(state, action)
    play(state, action)


def test_legal_actions_for_a_finished_round_is_an_error() -> None:
    deck = strategies.DECK
    state = GameState.from_position([deck[:13], deck[13:26], deck[26:39], deck[39:52]], "Jk Jk Jk Jk", stock=())
    for _ in range(4):
        state = play(state, "pass")
    assert state.is_deal_over
    with pytest.raises(ValueError, match="the round is over"):
        strategies.legal_actions_for(state)


@given(strategies.game_states(finished=True), st.data())
def test_r12_r20_illegal_actions_for_raise_and_change_nothing(state: GameState, data: st.DataObject) -> None:
    action = data.draw(strategies.illegal_actions_for(state))
    check_illegal(state, action, legal_actions(state))


@given(strategies.game_states(max_actions=40), st.data())
def test_any_actions_for_round_trip_through_text(state: GameState, data: st.DataObject) -> None:
    action = data.draw(strategies.any_actions_for(state))
    assert Action.parse(str(action)) == action
    try:
        play(state, action)
    except IllegalActionError:
        assert action not in legal_actions(state)
    else:
        assert action in legal_actions(state)


def test_r15_a_meld_action_names_at_least_one_card() -> None:
    # Regression: MeldCards(()) used to build an action whose text, "meld", did not parse back.
    with pytest.raises(NotationError, match="at least one card"):
        MeldCards(())
    with pytest.raises(NotationError):
        MeldCards("")


def test_the_strategies_module_documents_every_public_name() -> None:
    for name in strategies.__all__:
        doc = getattr(strategies, name).__doc__
        assert doc and ">>>" in doc, name
    assert Path(strategies.__file__).name == "strategies.py"
