"""The greedy player in JAX (:func:`persian_rummy.vector.greedy_action`) against the scalar
:class:`~persian_rummy.bots.GreedyBot`, row by row: on positions of random and greedy play of
every phase (deep discard-pile draws, melds, lay-offs, discards, passes on an empty stock,
R12-R20) under several rule sets (the ace low, R10; four jokers not doubled, R24; the going-out
bonus, R25), the JAX action is the scalar bot's on :meth:`Env.to_states` of that row, exactly;
and whole games played by greedy in JAX are the scalar greedy games action by action.

A difference is a bug, never a tolerance. The sample is checked to hold rows whose choice
turns on a tie-break (two candidates of equal greatest value: the first in the legal order is
the bot's), so a wrong tie-break fails the comparison."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from playouts import RULE_SETS

from persian_rummy import GameState, Phase, Rules, legal_actions, new_game, next_deal, play
from persian_rummy._greedy import _table_action_value, draw_gains
from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards, Pass
from persian_rummy.bots import GreedyBot
from persian_rummy.encoding import ACTIONS, action_to_int
from persian_rummy.melds import candidate_melds
from persian_rummy.vector import Env, State, greedy_action
from persian_rummy.vector._greedy import PRIORITY
from persian_rummy.vector._tables import MELD_NUMBER_BY_KEY

#: One batch size for every call, so that one compiled program per rules serves the module.
_BATCH = 64
#: The quick profile's rules: the ace low (R10), four jokers not doubled (R24), a bonus of 50
#: (R25) and a one-deal game (R7), all knobs the greedy measures read.
QUICK_RULES = Rules(ace_in_runs="high_or_low", double_four_jokers=False, going_out_bonus=50, deals=1)
_PROGRAMS: dict[Rules, tuple[Env, jax.stages.Wrapped, jax.stages.Wrapped]] = {}
_BOT = GreedyBot()


def programs(rules: Rules) -> tuple[Env, jax.stages.Wrapped, jax.stages.Wrapped]:
    """The environment, ``jit(vmap(greedy_action))`` and ``jit(vmap(step))`` of the rules."""
    if rules not in _PROGRAMS:
        env = Env(rules)
        _PROGRAMS[rules] = (env, jax.jit(jax.vmap(greedy_action)), jax.jit(jax.vmap(env.step)))
    return _PROGRAMS[rules]


def scalar_choice(state: GameState) -> int:
    """The scalar bot's action id, on the view of the seat to move (as the arena asks it)."""
    return action_to_int(_BOT(state.view(state.current_player)))


def positions(rules: Rules, seeds: range, greedy_share: float) -> Iterator[GameState]:
    """Every live position of whole games where each action is the greedy bot's with
    probability ``greedy_share``, else a random legal one (random play keeps deep piles to
    draw from, greedy play fills the table with melds to lay off on)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(seed, rules=rules)
        while state.phase is not Phase.GAME_OVER:
            if state.phase is Phase.ROUND_OVER:
                state = next_deal(state, rng.randrange(2**32))
                continue
            yield state
            actions = legal_actions(state)
            chosen = _BOT(state.view(state.current_player)) if rng.random() < greedy_share else rng.choice(actions)
            state = play(state, chosen)


def jax_choices(rules: Rules, states: list[GameState]) -> list[int]:
    """``greedy_action`` of every state, in batches of one size (the last padded)."""
    env, choose, _ = programs(rules)
    out: list[int] = []
    for start in range(0, len(states), _BATCH):
        chunk = states[start : start + _BATCH]
        padded = chunk + [chunk[-1]] * (_BATCH - len(chunk))
        out += np.asarray(choose(env.from_states(padded))).tolist()[: len(chunk)]
    return out


def tie_turns_on_order(state: GameState) -> bool:
    """Whether the bot's choice here is a tie-break: two weighed actions share the greatest
    value, so the first and the last of them differ (a draw counts only if it is taken)."""
    view = state.view(state.current_player)
    actions = legal_actions(view)
    if len(actions) == 1:
        return False
    if state.phase is Phase.DRAW:
        values = [gain for gain, _ in draw_gains(view, actions)]
        if not values or max(values) <= 0:
            return False
    else:
        table = [action for action in actions if isinstance(action, MeldCards | LayOff)]
        values = [_table_action_value(view, action) for action in table]
    return values.count(max(values, default=0.0)) > 1


def kind(action: Action, state: GameState) -> str:
    if isinstance(action, DrawDiscard):
        return "deep take" if action.index < len(state.discard_pile) - 1 else "top take"
    return {DrawStock: "draw", Pass: "pass", MeldCards: "meld", LayOff: "layoff", Discard: "discard"}[type(action)]


def compare(rules: Rules, states: list[GameState]) -> Counter[str]:
    """Every row's JAX choice is the scalar bot's; returns what the rows went through."""
    seen: Counter[str] = Counter()
    got = jax_choices(rules, states)
    for state, action in zip(states, got, strict=True):
        want = scalar_choice(state)
        assert action == want, (str(rules), state.to_json(), ACTIONS[want], ACTIONS[action])
        seen[kind(ACTIONS[want], state)] += 1
        if tie_turns_on_order(state):
            seen[f"tie {'draw' if state.phase is Phase.DRAW else 'turn'}"] += 1
    return seen


def test_candidate_order_is_the_scalar_enumeration_r8_r11() -> None:
    """The fixed meld order is candidate_melds' order for any hand: the melds a random hand
    holds, in its enumeration, are those of the numbering it holds, sorted by PRIORITY."""
    rng = random.Random(3)
    for _ in range(400):
        mask = 0
        for index in rng.sample(range(52), rng.randrange(3, 40)):
            mask |= 1 << index
        jokers = rng.randrange(5)
        for ace_low in (False, True):
            listed = [
                MELD_NUMBER_BY_KEY[meld_mask | meld_jokers << 52]
                for meld_mask, meld_jokers, _ in candidate_melds(mask, jokers, ace_low)
            ]
            assert listed == sorted(listed, key=lambda number: PRIORITY[number])
            assert len(set(listed)) == len(listed)


#: A draw that ties (R13-R14): the pile from index 1 and from index 7 add as much, so the
#: bot takes from index 1, the first in the legal order (a tie that random play reaches a few
#: times in forty games).
TIED_DRAW = GameState.from_position(
    ["", "2s 3s 6s 7s As 4h Jh Qh Ah 6d Kd 2c 6c 9c", "", ""],
    "7d 3c 5s Qc 3d Jk Kc Ac 3h",
    melds=["Ts@2 Th+3 Td@2 Tc@2", "5h+1 6h+0 7h@3 8h@3 9h@3", "8s@2 8d@2 8c@2", "4s@2 4d@2 4c@2"],
    dealer=0,
    rules=QUICK_RULES,
)

#: A meld that ties (R8-R11, R24): the run 9s-Ks and the four jokers drawn to the three held
#: are worth as much, so the bot melds the run, the first in candidate order (where the
#: numbering of the actions lists the joker sets before the runs).
TIED_MELD = play(
    GameState.from_position(["", "Jk Jk Jk 9s Ts Js Qs Ks 2d", "", ""], "4c", dealer=0, rules=QUICK_RULES), DrawStock()
)


def test_greedy_action_is_the_scalar_bot_r12_r25() -> None:
    """A few thousand rows of random and greedy play under the quick rules: every action the
    JAX greedy chooses is the scalar GreedyBot's, and the rows reach every kind of action and
    both kinds of tie-break."""
    assert scalar_choice(TIED_DRAW) == action_to_int("take 1")
    assert scalar_choice(TIED_MELD) == action_to_int("meld 9s Ts Js Qs Ks")
    assert tie_turns_on_order(TIED_DRAW) and tie_turns_on_order(TIED_MELD)
    states = [TIED_DRAW, TIED_MELD, *positions(QUICK_RULES, range(2), 0.0), *positions(QUICK_RULES, range(2, 6), 0.7)]
    seen = compare(QUICK_RULES, states)
    for what in ("draw", "deep take", "top take", "pass", "meld", "layoff", "discard", "tie draw", "tie turn"):
        assert seen[what] > 0, (what, seen)


def play_in_jax(rules: Rules, seeds: range, steps: int) -> Counter[str]:
    """Games where every seat plays ``greedy_action`` inside JAX, each action checked to be the
    scalar bot's on the scalar game played alongside, and each position after it the scalar
    engine's (a deal that ends deals the next from the game's key: the scalar game takes the
    row's new deal and plays on)."""
    env, choose, step = programs(rules)
    games = [new_game(seed, rules=rules) for seed in seeds]
    games += [games[-1]] * (_BATCH - len(games))
    state: State = env.from_states(games)
    seen: Counter[str] = Counter()
    for _ in range(steps):
        chosen = np.asarray(choose(state)).tolist()
        over = np.asarray(state.terminated).tolist()
        state = step(state, jnp.asarray(chosen, jnp.int32))
        after = env.to_states(jax.tree_util.tree_map(lambda array: array[: len(seeds)], state))
        ended = np.asarray(state.ended_deal).tolist()
        for row, game in enumerate(games[: len(seeds)]):
            if over[row]:
                continue
            assert chosen[row] == scalar_choice(game), (row, game.to_json())
            seen[kind(ACTIONS[chosen[row]], game)] += 1
            played = play(game, ACTIONS[chosen[row]])
            if ended[row] and played.phase is Phase.ROUND_OVER:
                seen["deal ends"] += 1
                games[row] = after[row]
            else:
                assert after[row] == played, (row, game.to_json(), ACTIONS[chosen[row]])
                games[row] = played
        done = np.asarray(state.terminated)[: len(seeds)].tolist()
        seen["game over"] += sum(done) - sum(over[: len(seeds)])
        if all(done):
            break
    return seen


@pytest.mark.thorough  # a compiled step of its own
def test_whole_greedy_games_in_jax_are_the_scalar_games_r12_r25() -> None:
    """Greedy against greedy inside JAX, action by action the scalar bots' game (one-deal
    games of the quick rules, to their end)."""
    seen = play_in_jax(QUICK_RULES, range(4), 400)
    assert seen["game over"] == 4 and seen["meld"] > 0 and seen["discard"] > 0


@pytest.mark.thorough
@pytest.mark.parametrize("rules", RULE_SETS, ids=[str(rules) for rules in RULE_SETS])
def test_greedy_action_every_rule_set_r12_r25(rules: Rules) -> None:
    """The big sweep: every rule set of the scalar tests, random and greedy play from many seeds."""
    states = [*positions(rules, range(10, 16), 0.0), *positions(rules, range(16, 40), 0.7)]
    seen = compare(rules, states)
    for what in ("draw", "deep take", "top take", "meld", "discard", "tie turn"):
        assert seen[what] > 0, (what, seen)


@pytest.mark.thorough
@pytest.mark.parametrize("rules", [Rules(), RULE_SETS[1], RULE_SETS[3]], ids=["default", "ace low", "forbidden"])
def test_whole_greedy_games_every_deal_r5_r25(rules: Rules) -> None:
    """Whole games of several deals (the next deal dealt from the game's key), greedy in JAX
    against the scalar bot action by action."""
    seen = play_in_jax(rules, range(20, 52), 3000)
    assert seen["game over"] == 32
    assert seen["deal ends"] > 0 or rules.deals == 1


def test_greedy_action_leaks_no_tracer() -> None:
    """A trace of greedy_action keeps nothing of itself (JAX's leak check): the rules' device
    tables are made in each trace (a table kept from the first trace leaked its tracer, and a
    later call under the same rules, at another batch size, failed)."""
    env = programs(QUICK_RULES)[0]
    batch = env.from_states([new_game(seed, rules=QUICK_RULES) for seed in range(2)])
    with jax.checking_leaks():
        jax.jit(jax.vmap(greedy_action)).lower(batch)  # lowered, not compiled: the trace is what leaked
