"""The engine's own API (:mod:`persian_rummy.engine`): the functions named after each kind of
action play what :func:`play` plays, :func:`is_legal` is a predicate that makes no state, and
:func:`info_after` plays a list of actions into a seat's information state (R27). The rules
the engine enforces are tested by rule (``test_draw``, ``test_melding``, ``test_turns``, ...)."""

from __future__ import annotations

import pytest
from playouts import RULE_SETS, playout

import persian_rummy.engine
from persian_rummy import (
    DECK,
    Action,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    IllegalActionError,
    LayOff,
    MeldCards,
    Pass,
    discard,
    draw_discard,
    draw_stock,
    is_legal,
    lay_off,
    legal_actions,
    meld,
    new_game,
    pass_turn,
    play,
)


def by_name(state: GameState, action: Action) -> GameState:
    """Play ``action`` by the engine's function named after its kind."""
    if isinstance(action, DrawStock):
        return draw_stock(state)
    if isinstance(action, DrawDiscard):
        return draw_discard(state, action.index)
    if isinstance(action, MeldCards):
        return meld(state, action.cards)
    if isinstance(action, LayOff):
        return lay_off(state, action.card, action.meld)
    if isinstance(action, Discard):
        return discard(state, action.card)
    assert isinstance(action, Pass)
    return pass_turn(state)


def test_r12_r20_each_action_played_by_its_named_function_gives_the_state_play_gives() -> None:
    # Every legal action of every live state of two random games, and three illegal ones a
    # state: the named function and play() give equal states, or raise the same refusal.
    met = set()
    for index in range(2):
        for state, _ in playout(index, RULE_SETS[index]):
            if not state.phase.is_live:
                continue
            absent = next(card for card in DECK if card not in state.hands[state.current_player])
            legal = legal_actions(state)
            for action in (*legal, Discard(absent), DrawDiscard(len(state.discard_pile)), LayOff(absent, 0)):
                if action in legal:
                    met.add(type(action))
                    assert by_name(state, action) == play(state, action), (action, state)
                    continue
                with pytest.raises(IllegalActionError) as named:
                    by_name(state, action)
                with pytest.raises(IllegalActionError) as played:
                    play(state, action)
                assert (type(named.value), str(named.value)) == (type(played.value), str(played.value)), action
    assert met == {DrawStock, DrawDiscard, MeldCards, LayOff, Discard, Pass}


def test_is_legal_answers_without_making_a_state(monkeypatch: pytest.MonkeyPatch) -> None:
    # python-chess's is_legal is a predicate: so is ours (the next state is never made).
    def made(*args: object, **kwargs: object) -> GameState:
        raise AssertionError("is_legal made a state")

    monkeypatch.setattr(persian_rummy.engine, "evolve", made)
    state = new_game(1)
    assert is_legal(state, DrawStock()) and not is_legal(state, Pass())
    with pytest.raises(AssertionError, match="made a state"):
        play(state, DrawStock())


@pytest.mark.parametrize("actions", ["draw", 5, None])
def test_r27_info_after_refuses_what_is_not_a_sequence_of_actions(actions: object) -> None:
    from persian_rummy import ArgumentTypeError, info_after

    with pytest.raises(ArgumentTypeError, match="expected actions or their texts"):
        info_after(new_game(1), actions, seat=1)  # type: ignore[arg-type]


def test_r27_info_after_plays_the_actions_and_records_what_the_seat_saw() -> None:
    from persian_rummy import info_after

    info = info_after(new_game(1), ["draw", "discard Jk", "draw"], seat=1)
    assert [str(observation) for observation in info.history] == ["E draw = Ad", "E discard Jk", "S draw"]
    assert info.view == play(play(play(new_game(1), "draw"), "discard Jk"), "draw").view(1)
