"""The differential test's engine: random legal play of a batch of games in lockstep, the
vectorized engine (``jit(vmap(step))``) against the scalar one, every row compared at every
step (mask, position, rewards, termination, observations), with a count of what the play went
through: each kind of action, each way a deal ends, the game's end and the next deal dealt
from a step's key and from the game's own (:data:`REACHED`), so that a short run can show it
reached every case a long one does."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from playouts import KNOB_VALUES

from persian_rummy import GameState, Phase, Rules, play
from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards, Pass
from persian_rummy.cards import CARDS
from persian_rummy.encoding import ACTIONS, NUM_ACTIONS, legal_flags
from persian_rummy.observation import observation_tensor
from persian_rummy.state import team_of
from persian_rummy.vector import Env, State

# Up to 9 deals a game draws its decks when it starts; 12 draws each as it deals.
KNOBS: dict[str, tuple[Any, ...]] = {"deals": (1, 2, 3, 12), **KNOB_VALUES, "going_out_bonus": (0, 25, 50)}


# What a run can go through, as lockstep counts it: every kind of action (R12-R20), every way a
# deal ends (going out by a meld or a lay-off, R18, or by discarding the last card under
# last_card_discard="goes_out", R19; four passes or the first, R20; eight idle turns, R21), the
# end of a game (R7), and a next deal dealt from a step's key and from the game's own (R6).
KINDS: dict[type[Action], str] = {
    DrawStock: "draw",
    DrawDiscard: "take",
    Pass: "pass",
    MeldCards: "meld",
    LayOff: "layoff",
    Discard: "discard",
}
ENDINGS = ("out by meld", "out by layoff", "out by discard", "all pass", "first pass", "eight idle turns")
REACHED = (
    *(f"action {kind}" for kind in KINDS.values()),
    *(f"deal ends: {ending}" for ending in ENDINGS),
    "game over",
    "next deal from the step's key",
    "next deal from the game's key",
)


def ending(action: Action, after: GameState) -> str:
    """How the deal that ``action`` ended ended (one of :data:`ENDINGS`)."""
    if after.went_out is not None:
        return f"out by {KINDS[type(action)]}"
    if after.idle_turns >= after.rules.idle_limit:
        return "eight idle turns"
    assert isinstance(action, Pass), (action, after)
    return after.rules.stock_out_end.replace("_", " ")


def random_rules(rng: random.Random) -> Rules:
    """A random combination of every knob of :class:`Rules`."""
    return Rules(**{name: rng.choice(values) for name, values in KNOBS.items()})


class Programs:
    """The compiled batched functions of one Env (compiled once, reused for every batch)."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.init = jax.jit(jax.vmap(env.init))
        self.step = jax.jit(jax.vmap(env.step))  # with keys, or without (a program each)
        self.observe = jax.jit(jax.vmap(env.observe))
        self.deck = jax.jit(jax.vmap(env.deck))
        self.reset_finished = jax.jit(env.reset_finished)
        # The deck of deal n that a step without a key deals: the game's own key folded with n.
        self.own_deck = jax.jit(jax.vmap(lambda own, n: env.deck(jax.random.fold_in(own, n))))


def dealt(env: Env, deck: np.ndarray, state: GameState) -> GameState:
    """The scalar engine's next deal of a finished deal, from the deck the key dealt (R6-R7)."""
    return GameState.from_deck(
        [CARDS[int(card)] for card in deck],
        dealer=(state.dealer + 1) % 4,
        deal_number=state.deal_number + 1,
        scores=state.scores,
        rules=env.rules,
    )


def expected_rewards(before: GameState, after: GameState, scale: float) -> np.ndarray:
    """The PettingZoo environment's rewards of a step from ``before`` to ``after`` (scalar)."""
    if after.phase.is_live and after.deal_number == before.deal_number:
        return np.zeros(4, np.float32)
    margin = ((after.scores[0] - before.scores[0]) - (after.scores[1] - before.scores[1])) / scale
    return np.array([margin if team_of(seat) == 0 else -margin for seat in range(4)], np.float32)


def check_rows(env: Env, state: State, games: list[GameState], where: str, *, validate: bool = True) -> None:
    """Every row's position, termination and mask are the scalar engine's (a finished game's
    mask is all True). ``validate=False`` leaves out to_states' scalar validator, which a row
    equal to a scalar engine's state passes anyway (the differential runs it every few steps)."""
    rows = env.to_states(state, validate=validate)
    for row, (got, want) in enumerate(zip(rows, games, strict=True)):
        assert got == want, f"{where}, row {row}: position\n got {got!r}\nwant {want!r}"
    terminated = np.asarray(state.terminated)
    over = np.array([game.phase is Phase.GAME_OVER for game in games])
    assert np.array_equal(terminated, over), f"{where}: terminated differs in rows {np.nonzero(terminated != over)[0]}"
    live = [game.phase.is_live for game in games]
    flags = b"".join(legal_flags(game) if alive else _ALL for game, alive in zip(games, live, strict=True))
    want_masks = np.frombuffer(flags, np.int8).reshape(len(games), NUM_ACTIONS).astype(bool)
    masks = np.asarray(state.legal_action_mask)
    if not np.array_equal(masks, want_masks):
        row = int(np.nonzero((masks != want_masks).any(axis=1))[0][0])
        diff = np.nonzero(masks[row] != want_masks[row])[0].tolist()
        raise AssertionError(
            f"{where}, row {row}: mask differs at {[(i, str(ACTIONS[i]), bool(want_masks[row, i])) for i in diff]} "
            f"in {games[row]!r}"
        )


_ALL = bytes([1]) * NUM_ACTIONS


def count(seen: dict[str, int], what: str) -> None:
    seen[what] = seen.get(what, 0) + 1


def check_observations(programs: Programs, state: State, games: list[GameState], seats: np.ndarray) -> None:
    """Each row's observation of ``seats[row]`` is the scalar tensor of that seat's view, bit for bit."""
    check_tensors(np.asarray(programs.observe(state, jnp.asarray(seats, jnp.int32))), games, seats)


def check_tensors(got: np.ndarray, games: list[GameState], seats: np.ndarray) -> None:
    """Each row of ``got`` is the scalar tensor of ``seats[row]``'s view, bit for bit."""
    for row, game in enumerate(games):
        want = observation_tensor(game.view(int(seats[row])))
        if not np.array_equal(got[row].view(np.uint32), want.view(np.uint32)):
            planes = sorted({int(p) for p in np.nonzero(got[row] != want)[0]})
            raise AssertionError(f"row {row}: observation of seat {seats[row]} differs in planes {planes}: {game!r}")


def lockstep(
    programs: Programs,
    games: int,
    steps: int,
    seed: int,
    *,
    observe_every: int = 1,
    start: Callable[[int], list[GameState]] | None = None,
) -> dict[str, int]:
    """Play ``games`` random games ``steps`` steps in lockstep, comparing every row at every
    step; finished games are dealt afresh. Steps alternate: with keys (a deal from the step's
    key), then without (from the game's own key, through the decks drawn when it started, or
    drawn as it deals). Returns counts of what was seen: ``rows``, ``deal_ends`` and
    ``game_ends``, and each of :data:`REACHED` that occurred."""
    env = programs.env
    rng = np.random.default_rng(seed)
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    keys = jax.random.split(sub, games)
    if start is None:
        state = programs.init(keys)
        decks = np.asarray(programs.deck(keys))
        scalar = [GameState.from_deck([CARDS[int(c)] for c in deck], rules=env.rules) for deck in decks]
    else:
        scalar = start(games)
        state = env.from_states(scalar)
    check_rows(env, state, scalar, "start")
    seen = dict.fromkeys(("rows", "deal_ends", "game_ends"), 0)
    for number in range(steps):
        masks = np.asarray(state.legal_action_mask)
        # A random legal action in each row (uniform over the mask, which is all True when over).
        noise = rng.random((games, NUM_ACTIONS))
        actions = np.argmax(np.where(masks, noise, -1.0), axis=1).astype(np.int32)
        if number % 2:
            numbers = jnp.asarray(state._x.deal_number + 1, jnp.uint32)
            decks = np.asarray(programs.own_deck(state._x.key, numbers))
            state = programs.step(state, jnp.asarray(actions))
        else:
            key, sub = jax.random.split(key)
            keys = jax.random.split(sub, games)
            decks = np.asarray(programs.deck(keys))
            state = programs.step(state, jnp.asarray(actions), keys)
        rewards = np.asarray(state.rewards)
        want = np.zeros((games, 4), np.float32)
        want_ended = np.zeros(games, np.int32)
        following = []
        for row, game in enumerate(scalar):
            if game.phase is Phase.GAME_OVER:
                after = game
                want_rewards = np.zeros(4, np.float32)
            elif game.phase is Phase.ROUND_OVER:
                after = dealt(env, decks[row], game)
                want_rewards = np.zeros(4, np.float32)
            else:
                action = ACTIONS[int(actions[row])]
                after = play(game, action)
                want_rewards = expected_rewards(game, after, env.reward_scale)
                count(seen, f"action {KINDS[type(action)]}")
                if not after.phase.is_live:
                    count(seen, f"deal ends: {ending(action, after)}")
                    want_ended[row] = game.deal_number
                if after.phase is Phase.ROUND_OVER:
                    seen["deal_ends"] += 1
                    count(seen, "next deal from the game's key" if number % 2 else "next deal from the step's key")
                    after = dealt(env, decks[row], after)
                elif after.phase is Phase.GAME_OVER:
                    seen["game_ends"] += 1
                    count(seen, "game over")
            want[row] = want_rewards
            following.append(after)
        if not np.array_equal(rewards, want):
            row = int(np.nonzero((rewards != want).any(axis=1))[0][0])
            raise AssertionError(f"step {number}, row {row}: rewards {rewards[row]}, not {want[row]}: {scalar[row]!r}")
        ended = np.asarray(state.ended_deal)
        if not np.array_equal(ended, want_ended):
            row = int(np.nonzero(ended != want_ended)[0][0])
            raise AssertionError(f"step {number}, row {row}: ended_deal {ended[row]}, not {want_ended[row]}")
        scalar = following
        full = not observe_every or number % observe_every == 0
        check_rows(env, state, scalar, f"step {number}", validate=full)
        if observe_every and number % observe_every == 0:
            check_observations(programs, state, scalar, rng.integers(0, 4, games))
            movers = np.array([game.current_player for game in scalar])
            check_observations(programs, state, scalar, movers)
            check_tensors(np.asarray(state.observation), scalar, movers)  # pgx's: the mover's, in the state
        seen["rows"] += games
        # Finished games start again: a fresh first deal in their rows, by Env.reset_finished,
        # each row reset exactly init of its key and every other row as it was, field by field.
        over = np.asarray(state.terminated)
        key, sub = jax.random.split(key)
        fresh_keys = jax.random.split(sub, games)
        before = state
        state = programs.reset_finished(state, fresh_keys)
        capacity = max(1, games // 16)
        count(seen, "reset none" if not over.any() else "reset few" if over.sum() <= capacity else "reset all")
        if over.any():
            check_reset(before, state, programs.init(fresh_keys), over)
            fresh_decks = np.asarray(programs.deck(fresh_keys))
            for row in np.nonzero(over)[0]:
                scalar[row] = GameState.from_deck([CARDS[int(c)] for c in fresh_decks[row]], rules=env.rules)
    return seen


def check_reset(before: State, after: State, fresh: State, over: np.ndarray) -> None:
    """Every field of each row reset (``over``) is ``fresh``'s (init of the row's key), and of
    every other row ``before``'s, bit for bit."""
    paths = jax.tree_util.tree_leaves_with_path(after)
    for (path, got), was, new in zip(
        paths, jax.tree_util.tree_leaves(before), jax.tree_util.tree_leaves(fresh), strict=True
    ):
        got, was, new = np.asarray(got), np.asarray(was), np.asarray(new)
        for row in range(len(over)):
            want = new[row] if over[row] else was[row]
            if not np.array_equal(got[row], want):
                raise AssertionError(f"reset_finished, row {row} ({'reset' if over[row] else 'kept'}): field {path}")
