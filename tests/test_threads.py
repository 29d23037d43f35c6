"""The engine from many threads at once gives what it gives alone (R12-R21 under threads): its
shared tables are built at import and never change, but for two that fill as they are asked
(each suit's discards, and what the melds of a table accept), where two threads that race
store the same value, so no interleaving can be seen."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

from waiting import run_threads

from persian_rummy import (
    DECK,
    Discard,
    DrawDiscard,
    IllegalActionError,
    LayOff,
    Rules,
    legal_actions,
    legal_draws,
    new_game,
    next_deal,
    observe,
    play,
)

GAMES = 6
RULES = (Rules(), Rules(ace_in_runs="high_or_low", last_card_discard="forbidden"), Rules(top_card_must_meld=False))


def transcript(seed: int) -> Iterator[str]:
    """A whole game from ``seed``: every legal list, the draws of the mover's view, and the
    errors (message and reason) of a few illegal tries, as text."""
    rng = random.Random(seed)
    state = new_game(seed, rules=RULES[seed % len(RULES)])
    while True:
        if state.phase.is_live:
            actions = legal_actions(state)
            yield " ".join(map(str, actions))
            yield " ".join(map(str, legal_draws(observe(state, state.current_player))))
            for action in (Discard(rng.choice(DECK)), DrawDiscard(rng.randrange(56)), LayOff(rng.choice(DECK), 17)):
                try:
                    play(state, action)
                except IllegalActionError as error:
                    yield f"{error}|{error.reason}"
            state = play(state, rng.choice(actions))
        elif state.deal_number < state.rules.deals:
            state = next_deal(state, rng.randrange(2**32))
        else:
            yield repr(state)
            return


def test_r12_r21_eight_threads_with_a_tiny_switch_interval_match_the_serial_games() -> None:
    serial = {seed: list(transcript(seed)) for seed in range(GAMES)}
    results: dict[tuple[int, int], list[str]] = {}

    def work(worker: int) -> None:
        for seed in range(GAMES):
            seed = (seed + worker) % GAMES  # each thread in another order
            results[(worker, seed)] = list(transcript(seed))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        # Bounded: a thread that dies anywhere, even as it starts, fails the test at once.
        run_threads(work, 8, name="engine", limit=240)
    finally:
        sys.setswitchinterval(interval)
    assert len(results) == 8 * GAMES
    for (_, seed), lines in results.items():
        assert lines == serial[seed]
