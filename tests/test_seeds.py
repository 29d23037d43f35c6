"""One seed limit that every deal respects (R5, R7): whatever seed a game accepts, every deal
of the game can be dealt, in every part of the library that derives the later deals' seeds
(:func:`deal_seed`: the arena, the recorder, the environments)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from persian_rummy import (
    ArgumentTypeError,
    GameState,
    InvalidArgumentError,
    Phase,
    Rules,
    deal_seed,
    legal_actions,
    new_game,
    next_deal,
    play,
    shuffled_deck,
)
from persian_rummy.arena import play_game
from persian_rummy.bots import GreedyBot
from persian_rummy.limits import DEALS_LIMIT, SEED_BITS, TEXT_LIMIT
from persian_rummy.record import Recorder, dumps, loads

# The longest seeds of each kind: whole numbers of exactly SEED_BITS bits (either sign), and
# texts of exactly TEXT_LIMIT characters that UTF-8 can write (no lone surrogates).
LONGEST_INTS = st.integers(0, 2 ** (SEED_BITS - 1) - 1).map(lambda low: 2 ** (SEED_BITS - 1) + low)
LONGEST_SEEDS = st.one_of(
    LONGEST_INTS,
    LONGEST_INTS.map(lambda seed: -seed),
    st.text(st.characters(exclude_categories=("Cs",)), min_size=TEXT_LIMIT, max_size=TEXT_LIMIT),
    st.text(st.characters(min_codepoint=0x10000, exclude_categories=("Cs",)), min_size=TEXT_LIMIT, max_size=TEXT_LIMIT),
)


def _finish(state: GameState) -> GameState:
    while state.phase.is_live:
        state = play(state, legal_actions(state)[0])
    return state


@given(LONGEST_SEEDS, st.integers(2, DEALS_LIMIT))
def test_r5_r7_every_deal_seed_of_an_accepted_seed_is_accepted(seed: int | str, number: int) -> None:
    derived = deal_seed(seed, number)
    assert isinstance(derived, str) and len(derived) <= TEXT_LIMIT
    assert sorted(shuffled_deck(derived)) == sorted(shuffled_deck(seed))  # a valid seed: it deals
    assert derived != deal_seed(seed, number - 1 if number > 2 else 3)


@settings(max_examples=10, deadline=None)
@given(LONGEST_SEEDS)
def test_r5_r7_the_longest_seeds_play_every_deal(seed: int | str) -> None:
    # Regression: a seed of more than about 198 characters played deal 1, then the next deal's
    # seed text passed the limit, in new_game/next_deal, play_game and Recorder.deal alike.
    rules = Rules(deals=3)
    state = new_game(deal_seed(seed, 1), rules=rules)
    while state.phase is not Phase.GAME_OVER:
        state = _finish(state)
        if state.phase is Phase.ROUND_OVER:
            state = next_deal(state, deal_seed(seed, state.deal_number + 1))
    assert state.deal_number == 3
    game = play_game([GreedyBot()] * 4, seed, rules=rules)
    assert game.final.phase is Phase.GAME_OVER and len(game.deals) == 3 and len(game.deal_seeds) == 3
    recorder = Recorder(rules=rules)
    recorder.deal(seed=seed)
    for _ in range(3):
        while recorder.state.phase.is_live:
            recorder.play(legal_actions(recorder.state)[0])
        if recorder.state.phase is Phase.ROUND_OVER:
            recorder.deal()
    record = recorder.record()
    assert [deal.seed for deal in record.deals] == [deal_seed(seed, number) for number in (1, 2, 3)]
    assert loads(dumps(record)) == record


def test_r7_seeds_that_fit_are_derived_as_before() -> None:
    # Behaviour stays: "seed/deal" wherever it fits the text limit.
    assert deal_seed(7, 2) == "7/2" and deal_seed("x" * 198, 2) == "x" * 198 + "/2"
    assert deal_seed("x" * 199, 2).startswith("sha256:") and deal_seed(10**195, 1000).startswith("sha256:")
    assert deal_seed(10**194, 1000) == f"{10**194}/1000"
    assert deal_seed(5, 1) == 5 and deal_seed("a", 1) == "a"


@pytest.mark.parametrize(
    ("seed", "number", "error"),
    [
        (2**SEED_BITS, 2, InvalidArgumentError),
        ("x" * (TEXT_LIMIT + 1), 2, InvalidArgumentError),
        ("\ud800", 2, InvalidArgumentError),
        (1.5, 2, ArgumentTypeError),
        (True, 2, ArgumentTypeError),
        (1, 0, InvalidArgumentError),
        (1, DEALS_LIMIT + 1, InvalidArgumentError),
        (1, 10**5000, InvalidArgumentError),
        (1, True, ArgumentTypeError),
        (1, "2", ArgumentTypeError),
    ],
    ids=lambda value: type(value).__name__,
)
def test_r5_r7_deal_seed_refuses_what_is_not_a_seed_or_a_deal_number(seed: object, number: object, error: type) -> None:
    with pytest.raises(error):
        deal_seed(seed, number)  # type: ignore[arg-type]
