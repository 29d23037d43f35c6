"""Random reachable games for the notation, view, record, worlds and beliefs tests (a helper
module, no tests).

Each game is dealt from a seed with a random dealer and one of several rule sets, then played
by uniformly random legal actions; finished deals are followed by the next deal (R7).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import strategies as st

from persian_rummy import GameState, InfoState, Phase, Rules, info_after, legal_actions, new_game, next_deal, play
from persian_rummy.actions import Action, DrawDiscard
from persian_rummy.strategies import decks, rules

#: Every value of each knob that takes a choice (R10, R14, R19, R20, R24).
KNOB_VALUES: dict[str, tuple[object, ...]] = {
    "ace_in_runs": ("high", "high_or_low"),
    "top_card_must_meld": (True, False),
    "pickup_use": ("meld_or_lay_off", "new_meld_only"),
    "last_card_discard": ("stays_in", "goes_out", "forbidden"),
    "stock_out_end": ("all_pass", "first_pass"),
    "double_four_jokers": (True, False),
}

#: Rule sets covering every knob value at least once.
RULE_SETS = (
    Rules(),
    Rules(ace_in_runs="high_or_low", last_card_discard="goes_out", stock_out_end="first_pass"),
    Rules(top_card_must_meld=False, pickup_use="new_meld_only", double_four_jokers=False),
    Rules(last_card_discard="forbidden", deals=1, going_out_bonus=0),
    Rules(deals=3, going_out_bonus=50),
)


def playout(seed: int, rules: Rules = RULE_SETS[0], dealer: int = 0) -> Iterator[tuple[GameState, Action | None]]:
    """Every state of a whole random game with the action that led to it (``None`` for the
    first state of each deal)."""
    rng = random.Random(seed)
    state = new_game(seed, dealer=dealer, rules=rules)
    yield state, None
    while True:
        if state.phase is Phase.GAME_OVER:
            return
        if state.phase is Phase.ROUND_OVER:
            state = next_deal(state, rng.randrange(2**32))
            yield state, None
            continue
        action = rng.choice(legal_actions(state))
        state = play(state, action)
        yield state, action


@st.composite
def reachable_states(draw: st.DrawFn, *, live: bool = False) -> GameState:
    """A state reached by random play: a live one, or (``live=False``) possibly a finished
    round or game."""
    seed = draw(st.integers(0, 2**32 - 1))
    rules = draw(st.sampled_from(RULE_SETS))
    steps = draw(st.integers(0, 400))
    chosen = None
    for index, (state, _) in enumerate(playout(seed, rules, draw(st.integers(0, 3)))):
        if not live or state.phase.is_live:
            chosen = state
        if index >= steps and chosen is not None:
            break
    assert chosen is not None
    return chosen


@st.composite
def information(draw: st.DrawFn) -> tuple[GameState, InfoState]:
    """A position reached by random play within one deal (half the takes from the pile that
    are legal are taken, so there is history to read) and one seat's information of it."""
    start = GameState.from_deck(draw(decks()), rules=draw(rules(max_deals=1)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    state = start
    actions = []
    for _ in range(draw(st.integers(0, 150))):
        options = legal_actions(state)
        takes = [action for action in options if isinstance(action, DrawDiscard)]
        action = rng.choice(takes) if takes and rng.random() < 0.5 else rng.choice(options)
        after = play(state, action)
        if not after.phase.is_live:
            break
        state = after
        actions.append(action)
    return state, info_after(start, actions, seat=draw(st.integers(0, 3)))
