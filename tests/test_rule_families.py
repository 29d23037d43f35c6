"""One check per family of actions (R3, R6, R8-R20): each check's verdict is what the engine
does with the action and what the legal list says of it.

For every state of random games under several rules and a broad universe of candidate
actions, the family's check allows exactly the actions :func:`legal_actions` lists, and for
each one it refuses, :func:`play` raises the refusal's error with its rule and reason. The
scoring rules have a public home (R22-R25), and the view is defined below the state, which
re-exports it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import persian_rummy
from persian_rummy import (
    DECK,
    Action,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    Hand,
    IllegalActionError,
    LayOff,
    MeldCards,
    Pass,
    Rules,
    is_legal,
    legal_actions,
    new_game,
    observe,
    play,
    score_round,
)
from persian_rummy import _moves as moves
from persian_rummy._moves import (
    Refusal,
    discard_verdict,
    draw_verdict,
    lay_off_verdict,
    meld_verdict,
    pass_verdict,
    seat_verdict,
    take_verdict,
)
from persian_rummy.actions import MELD_ACTIONS, draw_discard_action, lay_off_action
from persian_rummy.cards import CARDS

RULES = (
    Rules(),
    Rules(ace_in_runs="high_or_low", last_card_discard="forbidden", pickup_use="new_meld_only"),
    Rules(top_card_must_meld=False, last_card_discard="goes_out", stock_out_end="first_pass"),
)


def verdict(state: GameState, action: Action) -> object:
    """The verdict of the family ``action`` belongs to, for the player to move."""
    hand = state.hands[state.current_player]
    if isinstance(action, DrawStock):
        return draw_verdict(state, len(state.stock))
    if isinstance(action, Pass):
        return pass_verdict(state, len(state.stock))
    if isinstance(action, DrawDiscard):
        return take_verdict(state, hand, action.index, draw_discard_action(action.index))
    if isinstance(action, MeldCards):
        return meld_verdict(state, hand, action.cards, action)
    if isinstance(action, LayOff):
        return lay_off_verdict(state, hand, action.card, action.meld, lay_off_action(action.card.index, action.meld))
    assert isinstance(action, Discard)
    return discard_verdict(state, hand, action.card)


def candidates(state: GameState) -> Iterator[Action]:
    """Every draw, the pass, a take of each pile index, every meld of the deck (and two that
    are no meld), a lay-off of every card on every table meld (and one past it), every discard."""
    yield DrawStock()
    yield Pass()
    for index in range(len(state.discard_pile) + 1):
        yield DrawDiscard(index)
    yield from MELD_ACTIONS.values()
    yield MeldCards("2s 3h 4d")
    yield MeldCards("Jk 2s 3s")
    for card in CARDS:
        for meld in range(len(state.melds) + 1):
            yield LayOff(card, meld)
        yield Discard(card)


def positions(games: int, every: int) -> Iterator[GameState]:
    """Every ``every``-th state of ``games`` random games, each under one of RULES."""
    for game in range(games):
        rng = random.Random(game)
        state = new_game(100 + game, rules=RULES[game % len(RULES)])
        step = 0
        while state.phase.is_live:
            if step % every == 0:
                yield state
            state = play(state, rng.choice(legal_actions(state)))
            step += 1
        yield state  # the round is over: every check refuses


def cards_of(action: Action) -> tuple[Card, ...]:
    """The cards ``action`` plays from the hand (none for a draw, a take or a pass)."""
    if isinstance(action, MeldCards):
        return action.cards
    if isinstance(action, LayOff | Discard):
        return (action.card,)
    return ()


def holds(hand: Hand, cards: tuple[Card, ...]) -> bool:
    jokers = sum(card.is_joker for card in cards)
    return jokers <= hand.jokers and all(card.is_joker or card in hand for card in cards)


def check_families(state: GameState, *, share: int = 1, turn: int = 0) -> None:
    """Check every candidate of ``state`` (see the module docstring). With ``share`` above
    one, a candidate that plays a card the mover does not hold is checked only when its number
    in the universe is ``turn`` modulo ``share``. Such a candidate is never legal, and each
    family refuses it by a check that reads no more than the phase (R12), the card waiting to
    be used (R14), the meld's number (R16), a card named twice (R1) or the card's presence
    (R15-R17): every one of them runs at every position on the candidates the mover holds and on
    that slice, and over ``share`` consecutive positions, numbered by ``turn``, each such
    candidate is still checked. Every candidate the mover could play is checked everywhere."""
    legal = set(legal_actions(state))
    mover = observe(state, state.current_player)
    other = observe(state, (state.current_player + 1) % 4)
    hand = state.hands[state.current_player]
    for number, action in enumerate(candidates(state)):
        if number % share != turn % share and not holds(hand, cards_of(action)):
            continue
        found = verdict(state, action)
        # The one dispatcher play and is_legal ask gives each family's own verdict, and
        # is_legal answers it for the state and for the mover's view (never for another seat's).
        assert moves.verdict(state, state.hands[state.current_player], len(state.stock), action) == found
        assert is_legal(state, action) is is_legal(mover, action) is (action in legal)
        assert not is_legal(other, action)
        if not isinstance(found, Refusal):
            assert action in legal, (action, state)
            play(state, action)  # it plays
            continue
        assert action not in legal, (action, found, state)
        with pytest.raises(found.error) as caught:
            play(state, action)
        assert caught.value.rule == found.rule
        assert str(caught.value).startswith(f"{found.rule}: {found.message}")
        if found.reason is not None:
            assert caught.value.reason == found.reason


def test_r8_r20_each_familys_check_allows_exactly_the_legal_actions_and_play_raises_its_refusal() -> None:
    for state in positions(games=3, every=7):
        check_families(state)


@pytest.mark.thorough
@pytest.mark.no_cover  # the test above's paths, many times over (docs/testing.rst)
def test_r8_r20_each_familys_check_agrees_with_the_engine_over_many_games() -> None:
    # Every position of twelve games; of the candidates that play a card the mover does not
    # hold (never legal, each refused by one of the early checks check_families lists), a
    # rotating eighth at each position: a fifth of the time of checking every one everywhere.
    for turn, state in enumerate(positions(games=12, every=1)):
        check_families(state, share=8, turn=turn)


def test_r3_r6_the_seat_check_names_the_rule() -> None:
    state = new_game(1)
    assert seat_verdict(state, state.current_player) is None
    wrong = seat_verdict(state, 2)
    assert wrong is not None and wrong.rule == "R6"
    never = seat_verdict(state, 4)
    assert never is not None and never.rule == "R3"
    with pytest.raises(wrong.error, match="R6: it is seat 1's turn, not seat 2's"):
        play(state, "draw", seat=2)


def test_r12_a_refusal_names_no_card_in_its_reason_when_the_message_does() -> None:
    state = play(new_game(1), "draw")
    missing = next(card for card in DECK if card not in state.hand)
    refusal = discard_verdict(state, state.hand, missing)
    assert isinstance(refusal, Refusal) and refusal.rule == "R17"
    assert str(missing) in refusal.message and refusal.reason is not None and str(missing) not in refusal.reason


def test_r23_round_score_has_a_public_home() -> None:
    from persian_rummy import scoring

    assert persian_rummy.RoundScore is scoring.RoundScore
    assert scoring.RoundScore.__module__ == "persian_rummy.scoring"
    assert "RoundScore" in scoring.__all__ and "RoundScore" in persian_rummy.__all__


def test_r23_a_finished_state_and_its_views_reveal_the_same_hands() -> None:
    state = new_game(3)
    while state.phase.is_live:
        assert state.revealed_hands is None
        state = play(state, legal_actions(state)[0])
    assert state.revealed_hands == state.hands
    for seat in range(4):
        assert observe(state, seat).revealed_hands == state.revealed_hands
        assert score_round(observe(state, seat)) == score_round(state)


def test_r27_the_view_is_defined_below_the_state_which_re_exports_it() -> None:
    from persian_rummy import state as state_module
    from persian_rummy import view as view_module

    assert state_module.PlayerView is view_module.PlayerView is persian_rummy.PlayerView
    assert state_module.observe is view_module.observe is persian_rummy.observe
    assert view_module.PlayerView.__module__ == "persian_rummy.view"


def test_r12_an_illegal_action_leaves_the_state_as_it_was() -> None:
    state = new_game(1)
    before = state.position()
    with pytest.raises(IllegalActionError):
        play(state, Pass())
    assert state.position() == before
