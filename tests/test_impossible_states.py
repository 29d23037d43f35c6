"""A state is accepted only if it could arise in play under its rules, and a live accepted
state always has a legal action (R1-R27): the regressions of each impossible state once
accepted, and a property over valid states perturbed at random."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playouts import reachable_states

from persian_rummy import (
    Card,
    GameState,
    InvalidStateError,
    Meld,
    NotationError,
    Phase,
    PlayerView,
    Rules,
    draw_discard,
    legal_actions,
    new_game,
    observe,
    play,
)
from persian_rummy.scoring import tally


def test_r14_a_card_to_meld_that_nothing_can_use_is_refused() -> None:
    state = GameState.from_position(["", "5s 6s Kd", "", ""], "4s Qh")
    taken = draw_discard(state, 0)  # the 4s melds with 5s 6s
    bad = attrs.evolve(taken, must_meld=Card.parse("Qh"))  # the Qh melds with nothing
    assert legal_actions(bad) == ()
    with pytest.raises(InvalidStateError, match="R14: the Qh taken"):
        bad.validate()
    with pytest.raises(InvalidStateError, match="R14"):
        GameState.parse(bad.position())
    with pytest.raises(InvalidStateError, match="R14"):
        GameState.from_json(bad.to_json())
    with pytest.raises(InvalidStateError, match="R14"):
        PlayerView.parse(observe(bad, 1).position())
    observe(bad, 2).validate()  # another seat cannot know that the mover's hand misses it (R27)


def test_r19_a_forbidden_last_card_that_cannot_be_laid_off_is_refused() -> None:
    rules = Rules(last_card_discard="forbidden")
    state = GameState.from_position(["2c", "9h", "2d", "2h"], "3d", rules=rules, melds=["4c@3 5c@3 6c@3"])
    stuck = attrs.evolve(state, phase=Phase.MELD, turn_progress=True)
    assert legal_actions(stuck) == ()
    with pytest.raises(InvalidStateError, match="R19"):
        stuck.validate()


def test_r12_r14_a_meld_phase_needs_a_draw_or_a_card_to_meld() -> None:
    state = attrs.evolve(new_game(1), phase=Phase.MELD)
    with pytest.raises(InvalidStateError, match="R12-R14"):
        state.validate()
    attrs.evolve(state, turn_progress=True).validate()
    free = attrs.evolve(new_game(1, rules=Rules(top_card_must_meld=False)), phase=Phase.MELD)
    free.validate()  # the top card taken freely (R14 knob)


def test_r23_deal_1_in_play_has_no_scores() -> None:
    with pytest.raises(InvalidStateError, match="R23-R25"):
        attrs.evolve(new_game(1), scores=(5, 0)).validate()
    attrs.evolve(new_game(1), deal_number=2, scores=(5, 0)).validate()
    with pytest.raises(InvalidStateError, match="R23-R25"):
        attrs.evolve(new_game(1), deal_number=2, scores=(5000, 0)).validate()


def test_r23_a_finished_deal_scores_its_tally() -> None:
    state = new_game(4)
    while state.phase.is_live:
        state = play(state, legal_actions(state)[0])
    state.validate()
    first, second = state.scores
    with pytest.raises(InvalidStateError, match="R23: the scores of the finished deal 1 are its tally"):
        attrs.evolve(state, scores=(first + 1, second)).validate()
    with pytest.raises(InvalidStateError, match="R23"):
        attrs.evolve(state.view(0), scores=(first, second - 1)).validate()
    totals = tally(state.melds, state.hands, went_out=state.went_out, rules=state.rules)
    assert (totals[0].total, totals[1].total) == state.scores


def test_r18_a_finished_round_was_ended_by_the_seat_that_went_out() -> None:
    state = GameState.from_position(["", "5s 6s 7s", "", ""], "4s")
    state = play(play(state, "take 0"), "meld 4s 5s 6s 7s")
    assert state.went_out == 1 and state.current_player == 1
    state.validate()
    with pytest.raises(InvalidStateError, match="R18: the round ended with the action of the player who went out"):
        attrs.evolve(state, current_player=2).validate()


def test_r10_a_run_first_melded_ace_low_needs_high_or_low() -> None:
    whole = "As@1 2s@1 3s@1 4s+1 5s+1 6s+1 7s+1 8s+1 9s+1 Ts+1 Js+1 Qs+1 Ks+1"
    hands = ["", "2h", "", ""]
    low = GameState.from_position(hands, "3h", melds=[whole], rules=Rules(ace_in_runs="high_or_low"))
    low.validate()
    with pytest.raises(InvalidStateError, match="R10"):
        GameState.from_position(hands, "3h", melds=[whole])
    # The same thirteen cards melded at once are the run 2-A, fine under "high".
    GameState.from_position(hands, "3h", melds=[Meld.parse("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks", seat=1)])


def test_r23_scores_too_long_to_format_are_refused() -> None:
    with pytest.raises(InvalidStateError):
        attrs.evolve(new_game(1), deal_number=2, scores=(10**5000, 0)).validate()
    text = new_game(1).position().replace("scores=0,0", "scores=" + "9" * 5000 + ",0")
    with pytest.raises(NotationError):
        GameState.parse(text)


def _perturb(state: GameState, rng: random.Random) -> GameState:
    """One semantic change to a valid state: a counter, the phase, the card to meld, a card moved
    between the zones, the scores, the seat to act, who went out."""
    fields: dict[str, object] = {}
    choice = rng.randrange(9)
    if choice == 0:
        fields["phase"] = rng.choice(list(Phase))
    elif choice == 1:
        fields["must_meld"] = rng.choice([None, *state.hands[state.current_player], *state.discard_pile[-2:]])
    elif choice == 2:
        fields["turn_progress"] = not state.turn_progress
    elif choice == 3:
        name = rng.choice(["consecutive_passes", "idle_turns"])
        fields[name] = max(0, getattr(state, name) + rng.choice([-1, 1, 3]))
    elif choice == 4:
        fields["scores"] = (state.scores[0] + rng.choice([-30, -1, 1, 25]), state.scores[1])
    elif choice == 5:
        fields["current_player"] = rng.randrange(4)
    elif choice == 6:
        fields["went_out"] = rng.choice([None, 0, 1, 2, 3])
    elif choice == 7 and state.stock:
        # The stock's top card into the mover's hand (a draw without its phase change).
        seat = state.current_player
        hands = list(state.hands)
        hands[seat] = hands[seat] + type(hands[seat])([state.stock[-1]])
        fields["hands"], fields["stock"] = tuple(hands), state.stock[:-1]
    elif state.discard_pile:
        seat = rng.randrange(4)
        hands = list(state.hands)
        hands[seat] = hands[seat] + type(hands[seat])([state.discard_pile[-1]])
        fields["hands"], fields["discard_pile"] = tuple(hands), state.discard_pile[:-1]
    return attrs.evolve(state, **fields)


@settings(max_examples=150, deadline=None)
@given(state=reachable_states(), seed=st.integers(0, 2**32 - 1))
def test_r12_r20_every_accepted_perturbation_of_a_valid_state_could_be_played(state: GameState, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3):
        try:
            candidate = _perturb(state, rng)
            candidate.validate()
        except InvalidStateError:
            continue
        # Accepted: a live state has a legal action, and every action in the list plays (R12-R20).
        actions = legal_actions(candidate)
        if candidate.phase.is_live:
            assert actions, f"no legal action in the accepted {candidate!r}"
            play(candidate, rng.choice(actions)).validate()
        # ... and it reads back from its texts, as do its views (R27).
        assert GameState.parse(candidate.position()) == candidate
        assert GameState.from_json(candidate.to_json()) == candidate
        for seat in range(4):
            view = observe(candidate, seat)
            assert PlayerView.parse(view.position()) == view
        state = candidate
