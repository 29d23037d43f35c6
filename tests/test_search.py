"""The search player (ExpertBot) and the levels: legal actions only, nothing but its seat's
information read (R27), the same decisions for the same seed, knobs refused with the
library's errors, a value head used when the policy has one."""

from __future__ import annotations

import random
import types

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from persian_rummy import (
    ArgumentTypeError,
    GameState,
    InfoState,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    PolicyFileError,
    Rules,
    info_after,
    legal_actions,
    new_game,
    play,
)
from persian_rummy.arena import play_game
from persian_rummy.bots import BOTS, DEFAULT_LEVEL, LEVELS, GreedyBot, Level, MonteCarloBot, make_bot
from persian_rummy.encoding import action_to_int
from persian_rummy.policy import NeuralBot, Policy, shipped_policy
from persian_rummy.search import ExpertBot

#: A small search, so that the tests are quick; the defaults are measured in the benchmarks.
SMALL = {"samples": 2, "horizon": 2, "candidates": 2}


def greedy_position(seed: int, steps: int) -> GameState:
    """A live position of a game greedy bots play from ``seed``, ``steps`` actions in."""
    state = new_game(seed)
    bot = GreedyBot()
    for _ in range(steps):
        after = play(state, bot(state.view(state.current_player)))
        if not after.phase.is_live:
            break
        state = after
    return state


def choice_position(seed: int, steps: int) -> GameState:
    """The first position from ``greedy_position`` on where the mover has a real choice."""
    state = greedy_position(seed, steps)
    bot = GreedyBot()
    while len(legal_actions(state)) < 3:
        state = play(state, bot(state.view(state.current_player)))
        assert state.phase.is_live
    return state


def valued_policy(seed: int = 0) -> Policy:
    """The shipped policy with a made-up value head (the search must read it when present)."""
    policy = shipped_policy()
    width = policy.widths[-2]
    generator = np.random.default_rng(seed)
    value = (generator.normal(0, 0.1, (width, 1)).astype(np.float32), np.zeros(1, np.float32))
    return Policy(policy.rules, policy.layers, policy.training, value)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120), history=st.booleans())
def test_r27_the_expert_plays_a_legal_action_from_its_view_or_its_information_state(
    seed: int, steps: int, history: bool
) -> None:
    start = new_game(seed)
    state, actions = start, []
    greedy = GreedyBot()
    for _ in range(steps):
        action = greedy(state.view(state.current_player))
        after = play(state, action)
        if not after.phase.is_live:
            break
        actions.append(action)
        state = after
    seat = state.current_player
    given = info_after(start, actions, seat=seat) if history else state.view(seat)
    assert ExpertBot(seed, **SMALL)(given) in legal_actions(state)


def test_r7_r14_the_expert_plays_whole_games_with_legal_actions_only() -> None:
    """Four experts and two against greedy bots finish their games (both deals); the engine
    checks every action, and the arena hands them their information states."""
    experts = [ExpertBot(seat, **SMALL) for seat in range(4)]
    assert play_game(experts, 3).final.is_over
    mixed = [ExpertBot(0, **SMALL), GreedyBot(), ExpertBot(2, **SMALL), GreedyBot()]
    assert play_game(mixed, 4).final.is_over


def test_r27_the_expert_decides_the_same_when_only_hidden_cards_differ() -> None:
    """Two states a seat cannot tell apart (the other hands and the stock dealt differently,
    R27) give the same decision for the same seed: the bot reads its view alone."""
    for seed in range(6):
        state = choice_position(seed, 8 + 5 * seed)
        seat = state.current_player
        other = _same_view_other_cards(state, seat, random.Random(seed))
        assert other.hands != state.hands or other.stock != state.stock
        assert other.view(seat) == state.view(seat)
        assert ExpertBot(seed, **SMALL)(state.view(seat)) == ExpertBot(seed, **SMALL)(other.view(seat))


def _same_view_other_cards(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A state ``seat`` cannot tell from ``state``: its hidden cards dealt again."""
    from persian_rummy.worlds import determinize

    for _ in range(20):
        other = determinize(state.view(seat), rng)
        if other.hands != state.hands:
            return other
    raise AssertionError("no other deal of the hidden cards was found")


def test_r27_the_expert_is_given_only_a_view_or_an_information_state() -> None:
    bot = ExpertBot(0, **SMALL)
    with pytest.raises(ArgumentTypeError, match="PlayerView or an InfoState"):
        bot(new_game(1))  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="R27: seat 2 was asked to act, but seat 1 is to move"):
        bot(new_game(1).view(2))
    with pytest.raises(PolicyFileError, match="trained for the rules 'default', not 'deals=1'"):
        bot(new_game(1, rules=Rules(deals=1)).view(1))
    with pytest.raises(PolicyFileError, match="train one for them"):
        make_bot("expert", rules=Rules(deals=1))


def test_the_expert_is_deterministic_for_a_seed() -> None:
    def actions(seed: int) -> list[str]:
        bots = [ExpertBot(seed + seat, **SMALL) for seat in range(4)]
        return [str(action) for deal in play_game(bots, 11).deals for action in deal]

    assert actions(1) == actions(1)


def test_one_candidate_plays_as_the_learned_player() -> None:
    """With one candidate there is nothing to search: the policy's own choice, as NeuralBot's."""
    expert = ExpertBot(0, candidates=1)
    neural = NeuralBot(shipped_policy())
    state = new_game(7)
    for _ in range(60):
        view = state.view(state.current_player)
        action = neural(view)
        assert expert(view) == action
        state = play(state, action)
        if not state.phase.is_live:
            break


def test_the_expert_reads_the_history_from_an_information_state() -> None:
    bot = ExpertBot(0, **SMALL)
    assert bot.takes_info_state
    start = new_game(5)
    game = play_game([GreedyBot()] * 4, 5)
    actions = list(game.deals[0][:30])
    state = start
    for action in actions:
        state = play(state, action)
    info = info_after(start, actions, seat=state.current_player)
    assert isinstance(info, InfoState)
    assert bot(info) in legal_actions(state)


def test_the_expert_uses_a_value_head_when_the_policy_has_one() -> None:
    """A policy with a value head: its rollouts are cut short and the leaves are valued by the
    head; it still plays whole games legally, and differently from the same search without it."""
    valued = valued_policy()
    bots = [ExpertBot(seat, policy=valued, **SMALL) for seat in range(4)]
    game = play_game(bots, 6)
    assert game.final.is_over
    plain = [ExpertBot(seat, **SMALL) for seat in range(4)]
    assert play_game(plain, 6).deals != game.deals


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"samples": 0}, "samples must be a whole number of at least 1, not 0"),
        ({"candidates": 0}, "candidates must be a whole number of at least 1, not 0"),
        ({"horizon": -1}, "horizon must be a whole number of at least 0, not -1"),
        ({"samples": 2.5}, "samples must be a whole number of at least 1, not 2.5"),
        ({"samples": True}, "samples must be a whole number of at least 1, not True"),
        ({"samples": 10**6, "horizon": 10**6}, "at most 1,000,000"),
        ({"think_ms": 0}, "think_ms must be a whole number of at least 1, not 0"),
        ({"think_ms": 2.5}, "think_ms must be a whole number of at least 1, not 2.5"),
        ({"think_ms": True}, "think_ms must be a whole number of at least 1, not True"),
        ({"think_ms": 60_001}, "think_ms is at most 60,000"),
        ({"beliefs": 2}, "beliefs is 0 \\(uniform worlds\\) or 1 \\(learned\\), not 2"),
        ({"beliefs": -1}, "beliefs must be a whole number of at least 0, not -1"),
        ({"beliefs": True}, "beliefs must be a whole number of at least 0, not True"),
        ({"critic": 2}, "critic is 0 \\(the value head\\) or 1 \\(the full-state critic\\), not 2"),
        ({"critic": -1}, "critic must be a whole number of at least 0, not -1"),
        ({"critic": 1.0}, "critic must be a whole number of at least 0, not 1.0"),
    ],
)
def test_the_experts_knobs_are_checked(knobs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        ExpertBot(0, **knobs)  # type: ignore[arg-type]


def test_the_expert_is_made_by_name_with_its_knobs() -> None:
    bot = make_bot("expert:samples=3,horizon=1,candidates=2", 4)
    assert isinstance(bot, ExpertBot)
    assert (bot.seed, bot.samples, bot.horizon, bot.candidates) == (4, 3, 1, 2)
    assert repr(bot) == "ExpertBot(seed=4, samples=3, horizon=1, candidates=2)"
    with pytest.raises(NotationError, match="has no knob"):
        make_bot("expert:depth=3")
    with pytest.raises(InvalidArgumentError, match="samples must be"):
        make_bot("expert:samples=0")
    timed = make_bot("expert:samples=64,think_ms=20", 1)
    assert repr(timed) == "ExpertBot(seed=1, samples=64, horizon=16, candidates=2, think_ms=20)"
    with pytest.raises(InvalidArgumentError, match="think_ms must be"):
        make_bot("expert:think_ms=0")
    believing = make_bot("expert:beliefs=1", 2)
    assert repr(believing) == "ExpertBot(seed=2, samples=5, horizon=16, candidates=2, beliefs=1)"
    judging = make_bot("expert:critic=1,horizon=8", 2)
    assert repr(judging) == "ExpertBot(seed=2, samples=5, horizon=8, candidates=2, critic=1)"
    with pytest.raises(InvalidArgumentError, match="critic is 0"):
        make_bot("expert:critic=3")
    with pytest.raises(ArgumentTypeError, match="plays a Policy"):
        ExpertBot(0, policy="default.npz")  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="seed is a whole number"):
        ExpertBot(1.5)  # type: ignore[arg-type]
    assert "expert" in BOTS


def test_the_levels_resolve_to_their_bots() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    assert DEFAULT_LEVEL in LEVELS
    for name, level in LEVELS.items():
        assert isinstance(level, Level) and level.name == name and level.description
        bot = make_bot(name, 3)
        assert type(bot) is type(make_bot(level.spec, 3))
        assert repr(bot) == repr(make_bot(level.spec, 3))
    assert isinstance(make_bot("medium"), MonteCarloBot | NeuralBot | ExpertBot | GreedyBot)
    with pytest.raises(NotationError, match="the level 'easy' takes no knobs"):
        make_bot("easy:samples=2")
    with pytest.raises(NotationError, match="or a level: easy, medium, hard, expert"):
        make_bot("grandmaster")


def test_the_observations_the_search_batches_are_the_views() -> None:
    """The rollouts read each mover's observation of the sampled world: the same array the
    mover's view gives (R27), so the policy in a rollout knows what that seat knows."""
    from persian_rummy.observation import observation_tensor, seat_tensor

    state = choice_position(2, 20)
    for seat in range(4):
        assert np.array_equal(seat_tensor(state, seat), observation_tensor(state.view(seat)))


def _rollout_values(monkeypatch: pytest.MonkeyPatch, bot: ExpertBot) -> list[np.ndarray]:
    # Every batch of rollout values a decision computes, as it computed them.
    found: list[np.ndarray] = []
    rollouts = ExpertBot._rollouts

    def recording(self: ExpertBot, *given: object) -> np.ndarray:
        values = rollouts(self, *given)  # type: ignore[arg-type]
        found.append(values)
        return values

    monkeypatch.setattr(ExpertBot, "_rollouts", recording)
    return found


def test_r7_r27_the_candidates_meet_the_same_worlds_and_the_same_next_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Common random numbers: two candidates that are the same action get the same value in
    every world, though each rollout plays past the end of the round into a next deal (R7)
    that is shuffled at random (before, each rollout met its own next deal)."""
    state = new_game(3)
    while len(state.stock) > 15:  # near the end of the round: the rollouts pass it
        state = play(state, GreedyBot()(state.view(state.current_player)))
    assert state.phase.is_live
    bot = ExpertBot(2, samples=6, horizon=40, candidates=2)
    found = _rollout_values(monkeypatch, bot)
    action = legal_actions(state)[0]
    index = action_to_int(action, state)
    assert bot._decide(state.view(state.current_player), state.current_player, [index, index]) == 0
    values = np.concatenate(found).reshape(6, 2)
    assert np.array_equal(values[:, 0], values[:, 1])


def at_meld_and_discard_choice() -> GameState:
    """The first position of greedy games where the mover may meld or discard."""
    for seed in range(50):
        state = new_game(seed)
        bot = GreedyBot()
        while state.phase.is_live:
            kinds = {type(action).__name__ for action in legal_actions(state)}
            if {"MeldCards", "Discard"} <= kinds:
                return state
            state = play(state, bot(state.view(state.current_player)))
    raise AssertionError("no greedy game reached a choice of a meld or a discard")


def test_every_candidates_leaf_is_the_same_number_of_turns_after_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """A candidate that ends the seat's turn (a discard) and one that does not (a meld) are
    valued the same number of turns after the decision: the leaf is the searching team's
    first turn after ``horizon`` turns, counted from the decision for both."""
    import persian_rummy.search as search

    state = at_meld_and_discard_choice()
    seat = state.current_player
    meld = next(action for action in legal_actions(state) if type(action).__name__ == "MeldCards")
    discard = next(action for action in legal_actions(state) if type(action).__name__ == "Discard")
    bot = ExpertBot(0, horizon=6)
    turns: dict[int, int] = {}
    kept: list[GameState] = []
    moves = search.play

    def counting(before: GameState, action: object) -> GameState:
        after = moves(before, action)  # type: ignore[arg-type]
        kept.append(after)  # alive, so that no id is reused
        turns[id(after)] = turns.get(id(before), 0) + (after.current_player != before.current_player)
        return after

    leaves: list[int] = []
    tensor = search.seat_tensor

    def reading(position: GameState, viewer: int) -> np.ndarray:
        leaves.append(turns.get(id(position), 0))
        return tensor(position, viewer)

    monkeypatch.setattr(search, "play", counting)
    monkeypatch.setattr(search, "seat_tensor", reading)
    depths = []
    for action in (meld, discard):
        leaves.clear()
        start = counting(state, action)
        bot._rollouts([start], seat, [1])
        depths.append(leaves[-1])  # the leaf is read last
    assert depths[0] == depths[1] >= 6


def test_a_time_bounded_search_stops_when_its_time_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``think_ms`` the worlds are searched a few at a time until the time is spent (here
    a clock that jumps a second a look), then the decision is made from those searched."""
    import persian_rummy.search as search

    state = choice_position(5, 40)
    seconds = iter(range(1000))
    clock = types.SimpleNamespace(perf_counter=lambda: float(next(seconds)))
    monkeypatch.setattr(search, "time", clock)  # the search's clock only
    bot = ExpertBot(1, samples=50, think_ms=2500, horizon=2)
    found = _rollout_values(monkeypatch, bot)
    candidates = [action_to_int(action, state) for action in legal_actions(state)[:2]]
    bot._decide(state.view(state.current_player), state.current_player, candidates)
    # Looks at 1 s and 2 s (before the 2.5 s deadline) each search two worlds; at 3 s it stops.
    assert [len(values) for values in found] == [4, 4]
    timed = np.concatenate(found)
    found.clear()
    ExpertBot(1, samples=4, horizon=2)._decide(state.view(state.current_player), state.current_player, candidates)
    assert [len(values) for values in found] == [8]  # all four worlds at once, without a clock
    assert np.array_equal(timed, found[0])  # the same worlds, in the same order


@pytest.mark.parametrize("beliefs", [0, 1])
def test_r27_the_expert_deals_its_worlds_from_the_beliefs_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, beliefs: int
) -> None:
    """Off by default: the worlds are dealt uniformly (no odds), as before the knob; with
    ``beliefs=1`` every world of a decision given an information state is dealt from the
    shipped model's odds (R27: still from what the seat has seen only)."""
    import persian_rummy.search as search

    asked: list[object] = []
    dealt = search.determinize

    def recording(view: object, rng: random.Random, *, odds: object = None) -> GameState:
        asked.append(odds)
        return dealt(view, rng, odds=odds)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "determinize", recording)
    state = choice_position(4, 20)
    bot = ExpertBot(1, beliefs=beliefs, **SMALL)
    seat = state.current_player
    candidates = [action_to_int(action, state) for action in legal_actions(state)[:2]]
    history = InfoState.start(state, seat)
    assert bot._decide(history, seat, candidates) in (0, 1)
    assert len(asked) == SMALL["samples"]
    assert all((odds is None) == (beliefs == 0) for odds in asked)
    asked.clear()
    bot._decide(state.view(seat), seat, candidates)  # a view alone has no history to read
    assert asked == [None] * SMALL["samples"]


def test_the_expert_with_beliefs_plays_whole_games_with_legal_actions_the_same_for_a_seed() -> None:
    games = [
        play_game(
            [
                ExpertBot(5, beliefs=1, **SMALL),
                make_bot("neural"),
                ExpertBot(5, beliefs=1, **SMALL),
                make_bot("neural"),
            ],
            seed=11,
        )
        for _ in range(2)
    ]
    assert games[0] == games[1]
    assert games[0].final.is_over


@pytest.mark.parametrize("critic", [0, 1])
def test_the_expert_values_its_leaves_with_the_critic_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, critic: int
) -> None:
    """Off by default: the value head alone values the leaves, as before the knob; with
    ``critic=1`` the full-state critic values every leaf (a world the search dealt, whose
    hands it owns) from the head's estimate and the whole world."""
    from persian_rummy.critic import Critic
    from persian_rummy.search import _Network

    judged: list[int] = []
    headed: list[int] = []
    original_values, original_head = Critic.values, _Network.values

    def critic_values(self: Critic, states: list[GameState], heads: list[float]) -> np.ndarray:
        judged.append(len(states))
        return original_values(self, states, heads)

    def head_values(self: _Network, observations: np.ndarray) -> np.ndarray:
        headed.append(len(observations))
        return original_head(self, observations)

    monkeypatch.setattr(Critic, "values", critic_values)
    monkeypatch.setattr(_Network, "values", head_values)
    state = choice_position(4, 20)
    seat = state.current_player
    candidates = [action_to_int(action, state) for action in legal_actions(state)[:2]]
    assert ExpertBot(1, critic=critic, **SMALL)._decide(state.view(seat), seat, candidates) in (0, 1)
    assert (judged, headed) == (([], [4]) if critic == 0 else ([4], [4]))


@pytest.mark.thorough  # two whole games of searches: seconds
def test_the_expert_with_the_critic_plays_whole_games_with_legal_actions_the_same_for_a_seed() -> None:
    games = [
        play_game(
            [ExpertBot(5, critic=1, **SMALL), make_bot("neural"), ExpertBot(5, critic=1, **SMALL), make_bot("neural")],
            seed=12,
        )
        for _ in range(2)
    ]
    assert games[0] == games[1]
    assert games[0].final.is_over
