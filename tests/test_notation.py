"""Text and data forms round-trip: actions, position strings, JSON (states, views, rules) and
pickles (states, views, actions, melds, cards)."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st
from playouts import RULE_SETS, playout, reachable_states

from persian_rummy import (
    DECK,
    JOKER,
    Action,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    Hand,
    InvalidStateError,
    LayOff,
    Meld,
    MeldCards,
    NotationError,
    Pass,
    PlayerView,
    Rules,
    legal_actions,
    new_game,
)
from persian_rummy.cards import CARDS
from persian_rummy.limits import MELD_LIMIT, PILE_LIMIT
from persian_rummy.scoring import tally
from persian_rummy.serialization import VERSION

cards = st.sampled_from(CARDS)
actions = st.one_of(
    st.just(DrawStock()),
    st.just(Pass()),
    st.builds(DrawDiscard, st.integers(0, PILE_LIMIT - 1)),
    st.builds(MeldCards, st.lists(cards, min_size=1, max_size=13)),
    st.builds(LayOff, cards, st.integers(0, MELD_LIMIT - 1)),
    st.builds(Discard, cards),
)


@given(actions)
def test_every_action_text_parses_back(action: Action) -> None:
    text = str(action)
    assert Action.parse(text) == action
    assert str(Action.parse(text)) == text  # canonical text is a fixed point
    assert Action.parse(f"  {text.upper()}  ") == action  # keywords and cards are case-insensitive
    assert pickle.loads(pickle.dumps(action)) == action
    assert eval(repr(action)) == action


@given(reachable_states(live=True))
def test_legal_actions_round_trip_through_text(state: GameState) -> None:
    for action in legal_actions(state):
        assert Action.parse(str(action)) == action


def test_action_grammar_examples() -> None:
    assert Action.parse("take 3") == DrawDiscard(3)
    assert Action.parse("layoff 8♥ 2") == LayOff("8h", 2)
    assert Action.parse("meld 10♠ J♠ Q♠") == MeldCards("Ts Js Qs")
    for bad in ("take", "take -1", "take 1.5", "layoff 8h", "layoff 8h x", "discard", "meld", "draw 1", "jump"):
        with pytest.raises(NotationError):
            Action.parse(bad)


def _round_trip_state(state: GameState) -> None:
    text = state.position()
    assert "\n" not in text and "  " not in text
    assert GameState.parse(text) == state
    assert GameState.parse(text).position() == text
    assert eval(repr(state)) == state
    assert GameState.from_json(state.to_json()) == state
    assert GameState.from_json(state.to_json().encode()) == state
    assert pickle.loads(pickle.dumps(state)) == state


def _round_trip_view(view: PlayerView) -> None:
    assert PlayerView.parse(view.position()) == view
    assert eval(repr(view)) == view
    assert PlayerView.from_json(view.to_json()) == view
    assert pickle.loads(pickle.dumps(view)) == view


@given(reachable_states())
def test_states_and_views_round_trip(state: GameState) -> None:
    _round_trip_state(state)
    for seat in range(4):
        _round_trip_view(state.view(seat))


def test_every_counter_survives_a_whole_game_under_every_rule_set() -> None:
    # One whole game per rule set: every phase, counter and score value met is kept.
    for index, rules in enumerate(RULE_SETS):
        for state, _ in playout(index, rules, dealer=index % 4):
            _round_trip_state(state)
        assert state.phase.name == "GAME_OVER"


def test_cards_unpickle_to_the_interned_instances() -> None:
    for card in CARDS:
        assert pickle.loads(pickle.dumps(card)) is card
    assert pickle.loads(pickle.dumps(JOKER)) is JOKER
    meld = Meld.parse("7s@0 7h@0 7d@0 7c+1")
    assert pickle.loads(pickle.dumps(meld)) == meld
    hand = Hand(DECK[:9])
    assert pickle.loads(pickle.dumps(hand)) == hand


@given(st.sampled_from([*RULE_SETS, Rules(deals=1, ace_in_runs="high_or_low")]))
def test_rules_round_trip_through_json(rules: Rules) -> None:
    text = rules.to_json()
    assert json.loads(text)["version"] == VERSION
    assert Rules.from_json(text) == rules
    assert Rules.parse(str(rules)) == rules


def test_json_has_a_format_and_version_and_rejects_others() -> None:
    data = json.loads(new_game(1).to_json())
    assert list(data)[:2] == ["format", "version"] and data["format"] == "persian-rummy state"
    for key, value in (("version", 2), ("version", "1"), ("format", "persian-rummy view")):
        with pytest.raises(NotationError, match=f"\\$.{key}"):
            GameState.from_json(json.dumps({**data, key: value}))


@pytest.mark.parametrize(
    ("path", "value", "error", "where"),
    [
        (("hands", 0), "4s 4s", NotationError, r"\$.hands\[0\]"),
        (("hands", 0), "2c", InvalidStateError, "R1"),  # 2c twice in the deck
        (("current_player",), 4, InvalidStateError, "R3"),
        (("current_player",), True, NotationError, r"\$.current_player"),
        (("current_player",), 1.0, NotationError, r"\$.current_player"),
        (("phase",), "round_over", InvalidStateError, "R18, R20, R21"),  # nobody went out or passed
        (("phase",), "game_over", InvalidStateError, "R7"),
        (("phase",), "dance", NotationError, r"\$.phase"),
        (("melds",), ["7s 7h 8h"], NotationError, r"\$.melds\[0\]"),
        (("scores",), [1], NotationError, r"\$.scores"),
        (("rules", "deals"), 0, NotationError, r"R7"),
        (("rules", "ace_in_runs"), "low", NotationError, r"\$.rules.ace_in_runs"),
        (("stock",), ["5d"], NotationError, r"\$.stock"),
        (("consecutive_passes",), 3, InvalidStateError, "R20"),
        (("must_meld",), "Ah", InvalidStateError, "R14"),
    ],
)
def test_from_json_says_what_is_wrong_and_where(
    path: tuple[object, ...], value: object, error: type[Exception], where: str
) -> None:
    data = json.loads(new_game(1).to_json())
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(error, match=where):
        GameState.from_json(json.dumps(data))


def test_json_size_is_small() -> None:
    # Not a timing test: the JSON of a fresh deal stays well under a kilobyte.
    assert len(new_game(1).to_json()) < 1000 and len(new_game(1).position()) < 250


def test_card_text_values() -> None:
    assert [Card.parse(str(card)) for card in CARDS] == list(CARDS)


def test_r18_r20_r21_a_round_is_over_only_if_something_ended_it() -> None:
    # Regression: validate() accepted a finished round that nobody went out of, with no
    # passes and no idle turns, so such positions parsed from JSON and position strings.
    import attrs

    state = new_game(1)
    with pytest.raises(InvalidStateError, match="R18, R20, R21"):
        attrs.evolve(state, phase=state.phase.ROUND_OVER).validate()
    tallied = tuple(score.total for score in tally(state.melds, state.hands, went_out=None, rules=state.rules))
    attrs.evolve(state, phase=state.phase.ROUND_OVER, idle_turns=8, scores=tallied).validate()  # R21 ended it
    over = attrs.evolve(state.view(0), phase=state.phase.ROUND_OVER, revealed_hands=state.hands, scores=tallied)
    with pytest.raises(InvalidStateError, match="R18, R20, R21"):
        over.validate()
    attrs.evolve(over, idle_turns=8).validate()


def test_positions_keep_scores_of_any_size() -> None:
    # Regression: the position parser capped numbers at six digits, so a valid state with a
    # score of a million (a large going_out_bonus, or many deals) did not parse back.
    import attrs

    # Scores are bounded by what the deals played so far can give (limits.SCORE_LIMIT): the
    # largest come late in a long game with a large bonus.
    rules = Rules(deals=1000, going_out_bonus=1000)
    state = attrs.evolve(new_game(1, rules=rules), deal_number=1000, scores=(1_234_567, -200_000))
    state.validate()
    _round_trip_state(state)
    _round_trip_view(state.view(2))


def test_numbers_past_pythons_digit_limit_are_notation_errors() -> None:
    # Regression: "take" followed by thousands of digits raised a bare ValueError from int().
    with pytest.raises(NotationError):
        Action.parse("take " + "9" * 5000)
    with pytest.raises(NotationError):
        GameState.parse(new_game(1).position().replace("scores=0,0", "scores=" + "9" * 5000 + ",0"))
