"""A Hypothesis state machine that plays games action by action under every ``Rules`` knob and
checks the engine's invariants after every step (R1, R12-R27).

The steps: play one legal action (drawn from ``legal_actions``), try an illegal one (it must
raise an ``IllegalActionError`` subclass and leave the state as it was), play the rest of the
round, deal the next deal. After every step, ``conformance.check_state`` checks that the 56
cards are all there exactly once, that exactly the seat to move has legal actions and only in
the live phases, that a live state is never a dead end, the R14 obligation, hashing and
equality; ``conformance.check_transition`` checks that each action did what it says and
mutated nothing, and ``conformance.check_scores`` recomputes every finished round's score.
The number of actions per round is bounded by ``conformance.MAX_ACTIONS_PER_ROUND`` (R21,
derived in ``conformance``).
"""

from __future__ import annotations

import attrs
import pytest
from conformance import (
    MAX_ACTIONS_PER_ROUND,
    check_illegal,
    check_scores,
    check_state,
    check_transition,
    snapshot,
)
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from persian_rummy import Card, GameState, Phase, Rules, legal_actions, next_deal, play, score_round
from persian_rummy.strategies import decks, illegal_actions_for, rules, seats


class GameMachine(RuleBasedStateMachine):
    """Plays one game under random rules; see the module docstring."""

    state: GameState
    round_actions: int
    game_actions: int

    @initialize(rule_set=rules(max_deals=2), deck=decks(), dealer=seats())
    def deal(self, rule_set: Rules, deck: tuple[Card, ...], dealer: int) -> None:
        self.state = GameState.from_deck(deck, dealer=dealer, rules=rule_set)
        self.round_actions = 0
        self.game_actions = 0
        self.deals_seen = 1

    def _play(self, index: int) -> None:
        before = self.state
        actions = legal_actions(before)
        action = actions[index]
        taken = snapshot(before)
        after = play(before, action)
        check_transition(before, action, after, taken)
        if not after.phase.is_live:
            how = "went out" if after.went_out is not None else "passes" if after.consecutive_passes else "idle turns"
            event(f"a deal ended ({how}) after {self.round_actions + 1 >> 5 << 5}+ actions")
            event(f"{after.phase.name} reached under last_card_discard={after.rules.last_card_discard}")
        self.state = after
        self.round_actions += 1
        self.game_actions += 1

    def _advance(self, data: st.DataObject) -> None:
        state = self.state
        if state.phase.is_live:
            count = len(legal_actions(state))
            self._play(data.draw(st.integers(0, count - 1), label="action index"))
        elif state.phase is Phase.ROUND_OVER:
            # R7: after a deal that is not the last, the next seat deals the next one.
            after = next_deal(state, data.draw(st.integers(0, 2**32 - 1), label="seed"))
            assert after.deal_number == state.deal_number + 1
            assert after.dealer == (state.dealer + 1) % 4
            assert after.current_player == (after.dealer + 1) % 4 and after.phase is Phase.DRAW
            assert after.scores == state.scores
            self.state = after
            self.round_actions = 0
            self.deals_seen += 1
        else:
            # The game is over: start another one, under other rules.
            self.deal(data.draw(rules(max_deals=2)), data.draw(decks()), data.draw(seats()))

    @rule(data=st.data())
    def play_a_legal_action(self, data: st.DataObject) -> None:
        """Any legal action applies and does what it says (R12-R20); a finished deal is
        followed by the next (R7), a finished game by a new one."""
        self._advance(data)

    @rule(data=st.data())
    def try_an_illegal_action(self, data: st.DataObject) -> None:
        """An action outside the legal set raises an ``IllegalActionError`` subclass and
        changes nothing (once the round is over, every action is outside it)."""
        action = data.draw(illegal_actions_for(self.state), label="illegal action")
        check_illegal(self.state, action, legal_actions(self.state))

    @rule(data=st.data())
    def play_out_the_round(self, data: st.DataObject) -> None:
        """Play to the end of the round, checking every state on the way: the rules'
        invariants at each state, the representation's (``validate``, the mover's view, a
        pickle round trip) at the step's end, by ``invariants_hold``. Those three are
        functions of the state's value alone, checked over random positions of their own
        (``test_properties``); repeated at every state of a round they cost two thirds of
        this machine's time and would find nothing the step's end does not."""
        if not self.state.phase.is_live:
            self._advance(data)
        while self.state.phase.is_live:
            check_state(self.state, thorough=False)
            assert self.round_actions < MAX_ACTIONS_PER_ROUND, f"R21: {self.round_actions} actions in one round"
            self._advance(data)

    @rule()
    def look_through_every_seat(self) -> None:
        """R27: a view shows its own hand and the hand sizes, never another hand."""
        for seat in range(4):
            view = self.state.view(seat)
            assert view.hand == self.state.hands[seat]
            assert view.hand_sizes == tuple(len(hand) for hand in self.state.hands)
            assert view.stock_size == len(self.state.stock)
            assert not any(
                value == other for value in attrs_values(view) for other in self.state.hands if other != view.hand
            ), "R27: a view holds another player's hand"

    @invariant()
    def invariants_hold(self) -> None:
        state = self.state
        actions = check_state(state)
        # Every legal action applies (and does what it says); the one played was chosen among them.
        taken = snapshot(state)
        for action in actions:
            check_transition(state, action, play(state, action), taken)
        assert self.round_actions <= MAX_ACTIONS_PER_ROUND, "R21: a round ends within the bound"
        assert self.game_actions <= MAX_ACTIONS_PER_ROUND * state.rules.deals, "R21: a game ends within the bound"
        assert self.deals_seen == state.deal_number <= state.rules.deals
        if state.phase is Phase.GAME_OVER:
            assert state.deal_number == state.rules.deals, "R7: the game ends after its last deal"

    def teardown(self) -> None:
        # Re-score a finished round from scratch one more time (its scores before the round are
        # the running scores less this round's totals).
        state = getattr(self, "state", None)
        if state is not None and not state.phase.is_live:
            first, second = score_round(state)
            check_scores((state.scores[0] - first.total, state.scores[1] - second.total), state)


def attrs_values(value: object) -> list[object]:
    return [getattr(value, field.name) for field in attrs.fields(type(value))]


# A step can play out a whole round (a hundred actions or more, each checked, and every legal
# action tried from the state after each step), so fewer steps than Hypothesis' default still
# reach the end of most games; 150 examples, about 125,000 states checked in 40 s on an idle
# core (how many depends on the draws, which change with this file's text). The thorough
# profile's (CI's) run.
# Untraced by coverage (docs/testing.rst): it repeats the short walk's paths many times over,
# and the tracer made it 2.7 times as slow (38 s to 102 s).
TestGameMachine = pytest.mark.no_cover(pytest.mark.thorough(GameMachine.TestCase))
TestGameMachine.settings = settings(stateful_step_count=40, max_examples=150)


# The default run's short walk through the same machine: a few games, every rule still
# exercised once, so a contributor who breaks an invariant hears of it without CI.
def test_state_machine_briefly() -> None:
    run_state_machine_as_test(GameMachine, settings=settings(max_examples=3, stateful_step_count=25))
