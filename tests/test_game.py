"""A whole game as one value (:class:`~persian_rummy.Game`), and every part of the library that
plays whole games dealing them as before (R5-R7)."""

from __future__ import annotations

import copy
import pickle
import random

import attrs
import pytest
from golden import arena_outputs, cli_outputs, expected, recorder_outputs
from hypothesis import given, settings
from hypothesis import strategies as st

from persian_rummy import (
    DECK,
    Action,
    ArgumentTypeError,
    DrawStock,
    Game,
    GameState,
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    NotYourTurnError,
    Phase,
    ReplayError,
    Rules,
    WrongPhaseError,
    deal_seed,
    legal_actions,
    new_game,
    next_deal,
    play,
)
from persian_rummy.record import GameRecord, Recorder, dumps, loads
from persian_rummy.strategies import illegal_actions_for, rules, seats

SEEDS = st.one_of(st.integers(-(2**70), 2**70), st.text(max_size=12))


@pytest.mark.parametrize(
    ("section", "make"), [("cli", cli_outputs), ("arena", arena_outputs), ("recorder", recorder_outputs)]
)
def test_r7_whole_games_play_as_the_stored_outputs_say(section: str, make: object) -> None:
    # The command line's output and records, the arena's results and a recorder's record for
    # fixed seeds, byte for byte (tests/golden.py).
    assert make() == expected(section)  # type: ignore[operator]


def _hand_written(
    seed: int | str, rules: Rules, dealer: int, choose: random.Random, stop: int
) -> tuple[list[GameState], list[list[Action]]]:
    """The deal loop as the library wrote it out before Game: every state reached (the deal's
    last state before the next deal's first) and every deal's actions."""
    state = new_game(deal_seed(seed, 1), dealer=dealer, rules=rules)
    states, deals = [state], [[]]
    for _ in range(stop):
        if state.phase is Phase.GAME_OVER:
            break
        action = choose.choice(legal_actions(state))
        state = play(state, action)
        deals[-1].append(action)
        states.append(state)
        if state.phase is Phase.ROUND_OVER:
            state = next_deal(state, deal_seed(seed, state.deal_number + 1))
            states.append(state)
            deals.append([])
    return states, deals


@settings(max_examples=25, deadline=None)
@given(SEEDS, rules(), seats(), st.integers(0, 2**32 - 1), st.integers(0, 700))
def test_r5_r7_a_game_plays_as_the_hand_written_deal_loop(
    seed: int | str, rules: Rules, dealer: int, choices: int, stop: int
) -> None:
    expected_states, expected_deals = _hand_written(seed, rules, dealer, random.Random(choices), stop)
    choose = random.Random(choices)
    game = Game.new(seed, rules=rules, dealer=dealer)
    states = [game.state]
    for _ in range(stop):
        if game.is_over:
            break
        action = choose.choice(legal_actions(game.state))
        game = game.play(action)
        states.append(game.after)
        if game.after is not game.state:  # a deal ended and the next was dealt
            assert game.after.phase is Phase.ROUND_OVER and game.actions == ()
            states.append(game.state)
    assert states == expected_states
    assert game.deals == tuple(map(tuple, expected_deals))
    assert game.deal_ends == tuple(state for state in states if state.phase.is_live is False)
    assert game.deal_seeds == tuple(deal_seed(seed, number) for number in range(1, len(game.deals) + 1))
    assert game.is_over == (game.state.phase is Phase.GAME_OVER) and game.deal_number == game.state.deal_number
    # The same game from its record, from its actions, and from its repr.
    record = game.record()
    assert Game.from_record(record) == game and Game.from_record(loads(dumps(record))).state == game.state
    assert Game(seed, rules=rules, dealer=dealer, deals=game.deals) == game
    assert eval(repr(game), {"Game": Game, "Rules": Rules}) == game
    assert hash(Game(seed, rules=rules, dealer=dealer, deals=game.deals)) == hash(game)


@settings(max_examples=25, deadline=None)
@given(st.data(), st.integers(0, 2**32 - 1), st.integers(0, 300))
def test_r12_r20_an_illegal_action_raises_and_leaves_the_game_as_it_was(
    data: st.DataObject, choices: int, stop: int
) -> None:
    choose = random.Random(choices)
    game = Game.new(choices, rules=Rules(deals=3))
    for _ in range(stop):
        if game.is_over:
            break
        game = game.play(choose.choice(legal_actions(game.state)))
    before = (game.state, game.deals, game.deal_ends, repr(game))
    action = data.draw(illegal_actions_for(game.state))
    with pytest.raises(IllegalActionError):
        game.play(action)
    with pytest.raises(IllegalActionError):
        game.play(str(action))
    assert (game.state, game.deals, game.deal_ends, repr(game)) == before


def test_r4_r6_a_new_game_is_the_first_deal_of_its_seed() -> None:
    game = Game.new("friday", rules=Rules(deals=3), dealer=2)
    assert game.state == new_game("friday", dealer=2, rules=Rules(deals=3))
    assert (game.seed, game.rules, game.dealer, game.deals, game.actions, game.deal_ends) == (
        "friday",
        Rules(deals=3),
        2,
        ((),),
        (),
        (),
    )
    assert game.after is game.state and not game.is_over and game.deal_number == 1
    assert game.view(0) == game.state.view(0)
    assert Game("friday", rules=Rules(deals=3), dealer=2) == game == Game.new("friday", rules=Rules(deals=3), dealer=2)


def test_r7_a_deal_that_ends_is_followed_by_the_next_at_once() -> None:
    game = Game.new(1)
    while game.deal_number == 1:
        game = game.play(legal_actions(game.state)[0])
    end = game.deal_ends[0]
    assert game.after is end and end.phase is Phase.ROUND_OVER
    assert game.state == next_deal(end, deal_seed(1, 2)) and game.state.dealer == 1
    assert game.deals[1] == () and len(game.deals[0]) > 0 and game.deal_seeds == (1, "1/2")
    while not game.is_over:
        game = game.play(legal_actions(game.state)[0])
    assert game.after is game.state is game.deal_ends[-1] and game.state.phase is Phase.GAME_OVER
    with pytest.raises(WrongPhaseError):
        game.play("draw")


def test_r6_play_takes_what_the_engine_takes_and_records_actions() -> None:
    game = Game.new(1).play("draw")  # text is parsed and kept as the action
    assert game.deals == ((DrawStock(),),) and game.play("discard Jk", seat=1).state.current_player == 2
    with pytest.raises(NotYourTurnError):
        game.play("discard Jk", seat=2)
    with pytest.raises(NotationError):
        game.play("discard")
    with pytest.raises(ArgumentTypeError):
        game.play(3)  # type: ignore[arg-type]
    assert game.deals == ((DrawStock(),),)


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"seed": 1.5}, ArgumentTypeError),
        ({"seed": True}, ArgumentTypeError),
        ({"seed": "x" * 201}, InvalidArgumentError),
        ({"seed": 1, "rules": "deals=3"}, ArgumentTypeError),
        ({"seed": 1, "dealer": 4}, InvalidStateError),
        ({"seed": 1, "dealer": "0"}, InvalidStateError),
    ],
)
def test_a_bad_seed_rules_or_dealer_is_refused(arguments: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        Game.new(**arguments)  # type: ignore[arg-type]
    with pytest.raises(error):
        Game(**arguments)  # type: ignore[arg-type]


def _first_deal(seed: int) -> tuple[Action, ...]:
    game = Game.new(seed)
    while game.deal_number == 1:
        game = game.play(legal_actions(game.state)[0])
    return game.deals[0]


def test_r7_replaying_deals_checks_each_action_and_where_each_deal_ends() -> None:
    first = _first_deal(1)
    assert Game(1, deals=[first]) == Game(1, deals=[first, []])  # the next deal is dealt either way
    with pytest.raises(ReplayError, match=r"deal 1, action 1: R12") as caught:
        Game(1, deals=[["draw", "draw"]])
    assert (caught.value.deal, caught.value.index) == (1, 1) and isinstance(caught.value.cause, IllegalActionError)
    with pytest.raises(ReplayError, match="R7: deal 1 is not over, so there is no deal 2"):
        Game(1, deals=[["draw"], []])
    with pytest.raises(ReplayError, match="the actions after it are not this deal's") as caught:
        Game(1, deals=[(*first, "draw")])
    assert (caught.value.deal, caught.value.index) == (1, len(first))
    with pytest.raises(ReplayError, match="R7: the game is over after 1 deal, so there is no deal 2"):
        Game(1, rules=Rules(deals=1), deals=[first, []])
    with pytest.raises(ReplayError, match="deal 1, action 0"):
        Game(1, deals=[["not an action"]])
    for deals in ("draw", 5, [5], ["draw"]):
        with pytest.raises(ArgumentTypeError):
            Game(1, deals=deals)  # type: ignore[arg-type]


def test_from_record_refuses_records_a_game_cannot_replay() -> None:
    with pytest.raises(ArgumentTypeError):
        Game.from_record("[Format ...]")  # type: ignore[arg-type]
    record = Game.new(3).play("draw").record()
    with pytest.raises(ReplayError, match="redacted for seat 2"):
        Game.from_record(record.redact(2))
    with pytest.raises(ReplayError, match="has no deal"):
        Game.from_record(GameRecord(()))
    with pytest.raises(ReplayError, match="dealt from a deck"):
        Game.from_record(GameRecord.from_actions([(DECK, ["draw"])]))
    # Scores that the replay does not give: the record's own check.
    bad = attrs.evolve(record, deals=(attrs.evolve(record.deals[0], scores=(1, 2)),))
    with pytest.raises(ReplayError, match="R23"):
        Game.from_record(bad)
    # A deck that is not its seed's.
    with pytest.raises(ReplayError, match="not the one its seed shuffles"):
        Game.from_record(attrs.evolve(record, deals=(attrs.evolve(record.deals[0], deck=DECK),)))
    # A later deal shuffled by a seed of its own, not the game's.
    recorder = Recorder()
    recorder.deal(seed=1)
    for action in _first_deal(1):
        recorder.play(action)
    recorder.deal(seed=99)
    with pytest.raises(ReplayError, match=r"R7: deal 2 of a game of seed 1 is shuffled with '1/2', not 99"):
        Game.from_record(recorder.record())


def test_r7_a_recorder_dealing_from_one_seed_records_what_the_game_records() -> None:
    # The recorder derives a later deal's seed from the first deal's (deal_seed), as a game
    # deals: the two records are the same, and a record the recorder ends at a finished deal
    # replays as a game that has dealt the next.
    game, recorder = Game.new(5, rules=Rules(deals=3), dealer=1), Recorder(rules=Rules(deals=3))
    recorder.deal(seed=5, dealer=1)
    while not game.is_over:
        if recorder.state.is_deal_over:
            assert Game.from_record(recorder.record()) == game
            recorder.deal()
        action = legal_actions(game.state)[-1]
        game, _ = game.play(action), recorder.play(action)
    assert recorder.record() == game.record() and dumps(recorder.record()) == dumps(game.record())


@pytest.mark.parametrize("stop", [0, 1, 30, "deal over", "game over"])
def test_r7_from_record_replays_each_action_once_and_makes_the_game_play_makes(
    stop: int | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A game stopped mid-deal, at a finished deal (the next one dealt) and over: the game from
    # its record is the one play made, state, last deal's end and all, and the engine plays
    # each recorded action once (the record's replay; the game is made from its states).
    game = Game.new(8, rules=Rules(deals=2), dealer=2)
    while not game.is_over and (
        (stop == "deal over" and game.deal_number == 1)
        or stop == "game over"
        or (isinstance(stop, int) and len(game.actions) < stop)
    ):
        game = game.play(legal_actions(game.state)[-1])
    assert stop != "deal over" or (game.actions == () and game.after.phase is Phase.ROUND_OVER)
    record = game.record()
    import persian_rummy.game as game_module
    import persian_rummy.record._game as record_module

    played: list[Action] = []

    def counted(state: GameState, action: Action | str, **seat: int) -> GameState:
        played.append(action)  # type: ignore[arg-type]
        return play(state, action, **seat)

    monkeypatch.setattr(game_module, "_play", counted)
    monkeypatch.setattr(record_module, "play", counted)
    again = Game.from_record(record)
    assert len(played) == sum(len(deal) for deal in game.deals)
    assert again == game and again.state == game.state and again.after == game.after
    assert again.deal_ends == game.deal_ends and again.actions == game.actions and again.is_over == game.is_over


def test_repr_pastes_back_and_str_says_where_the_game_is() -> None:
    game = Game.new("a b", rules=Rules(deals=1, going_out_bonus=0), dealer=3).play("draw")
    assert repr(game) == "Game('a b', rules=Rules.parse('deals=1 going_out_bonus=0'), dealer=3, deals=(('draw',),))"
    assert eval(repr(game), {"Game": Game, "Rules": Rules}) == game
    assert str(game) == ("game of seed 'a b': deal 1 of 1, 1 action played, North to act; North-South 0, East-West 0")
    while not game.is_over:
        game = game.play(legal_actions(game.state)[0])
    assert str(game).startswith("game of seed 'a b': over after 1 deal and ")
    assert {game, Game.from_record(game.record())} == {game}


def test_game_is_an_immutable_value() -> None:
    game = Game.new(1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        game.state = new_game(2)  # type: ignore[misc]
    assert not hasattr(game, "__dict__")


def test_a_game_pickles_and_copies_with_its_deals_flat() -> None:
    game = Game.new(3, rules=Rules(deals=3))
    while game.deal_number < 2 or len(game.actions) < 40:
        game = game.play(legal_actions(game.state)[0])
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game), copy.copy(game)):
        assert again == game and again.state == game.state and again.deal_ends == game.deal_ends
        assert again.deals == game.deals and repr(again) == repr(game)
    # The current deal's actions travel as one flat tuple, whatever the deal's length.
    assert game.__reduce__()[1][1] == game.actions and len(game.actions) >= 40


def test_r7_a_games_legal_actions_are_its_states() -> None:
    """Issue 50 item 8, its class: a Game has legal_actions() as a state and a view do, the
    same tuple as the function's for the deal in play, and none once the game is over."""
    from persian_rummy import legal_actions

    game = Game.new(4, rules=Rules(deals=1))
    while not game.is_over:
        assert game.legal_actions() == legal_actions(game.state) == game.state.legal_actions()
        game = game.play(game.legal_actions()[-1])
    assert game.legal_actions() == ()
