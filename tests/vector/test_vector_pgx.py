"""pgx's protocol, as pgx's documentation writes its loops (not pgx's code, and without pgx):
``jit(vmap(env.init))``, ``jit(vmap(env.step))`` with and without keys, random play until every
game is over, finished games reset, and the state's ``observation``, ``legal_action_mask``,
``rewards``, ``terminated`` and ``truncated``; then where we differ from pgx on purpose (the
illegal-action rewards by team, R3)."""

from __future__ import annotations

import importlib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Literal, get_args

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from persian_rummy import (
    ArgumentTypeError,
    GameState,
    InvalidArgumentError,
    InvalidStateError,
    Phase,
    Rules,
    legal_actions,
    new_game,
    next_deal,
    play,
)
from persian_rummy.cards import CARDS
from persian_rummy.encoding import NUM_ACTIONS, action_to_int
from persian_rummy.observation import OBSERVATION_SHAPE, observation_tensor
from persian_rummy.svg import table
from persian_rummy.vector import Env, State, sample_legal, sample_policy

BATCH = 32  # the batch of test_vector.py, so that the programs compiled for it serve here too
ENV = Env()
INIT = jax.jit(jax.vmap(ENV.init))
STEP = jax.jit(jax.vmap(ENV.step))  # pgx's form: no key
DECK = jax.jit(ENV.deck)


def act_randomly(key: jax.Array, mask: jax.Array) -> jax.Array:
    """pgx's documented random policy: categorical over the log of the mask's probabilities."""
    probs = mask / mask.sum(axis=-1, keepdims=True)
    logits = jnp.maximum(jnp.log(probs), jnp.finfo(probs.dtype).min)
    return jax.random.categorical(key, logits=logits, axis=-1)


def test_the_env_answers_pgx_s_attributes() -> None:
    assert (ENV.id, ENV.version, ENV.num_players, ENV.num_actions) == ("persian_rummy", "v1", 4, NUM_ACTIONS)
    assert ENV.observation_shape == OBSERVATION_SHAPE
    state = INIT(jax.random.split(jax.random.PRNGKey(0), BATCH))
    assert state.env_id == ENV.id
    assert state.observation.shape == (BATCH, *ENV.observation_shape) and state.observation.dtype == jnp.float32
    assert state.legal_action_mask.shape == (BATCH, ENV.num_actions)
    assert state.rewards.shape == (BATCH, ENV.num_players) and state._step_count.tolist() == [0] * BATCH
    assert not state.truncated.any() and not state.terminated.any()


@pytest.mark.thorough
def test_pgx_s_random_play_loop_runs_unchanged_to_the_end_of_every_game_r7() -> None:
    """The loop of pgx's "API usage" page: step until every game is terminated or truncated;
    at every step the shapes hold, the rewards of a step sum to 0 by team (R23), a finished
    game's mask is all True and it stays finished with zero rewards, and the observation is
    the mover's (R27)."""
    act = jax.jit(act_randomly)
    key = jax.random.PRNGKey(42)
    key, subkey = jax.random.split(key)
    state = INIT(jax.random.split(subkey, BATCH))
    totals = np.zeros((BATCH, 4), np.float32)
    steps = 0
    while not bool((state.terminated | state.truncated).all()):
        assert steps < 3000, "random games of two deals end long before this (R21 bounds every deal)"
        key, subkey = jax.random.split(key)
        was_over = np.asarray(state.terminated)
        action = act(subkey, state.legal_action_mask)
        state = STEP(state, action)
        rewards = np.asarray(state.rewards)
        assert np.array_equal(rewards[:, 0], rewards[:, 2]) and np.array_equal(rewards[:, 0], -rewards[:, 1])
        assert not rewards[was_over].any()
        assert np.asarray(state.legal_action_mask)[np.asarray(state.terminated)].all()
        totals += rewards
        steps += 1
    games = ENV.to_states(state)
    assert all(game.phase is Phase.GAME_OVER for game in games)
    for row, game in enumerate(games):  # the rewards add up to the final margin (R23)
        margin = (game.scores[0] - game.scores[1]) / ENV.reward_scale
        assert totals[row, 0] == pytest.approx(margin, abs=1e-4)
        assert np.array_equal(np.asarray(state.observation[row]), observation_tensor(game.view(game.current_player)))


def test_without_a_key_a_game_is_reproducible_and_deals_from_its_own_key_r6() -> None:
    """Without a key the next deal comes from the game's own key: the same init keys and
    actions give the same games, and deal 2 is the scalar engine's ``from_deck`` of
    ``deck(fold_in(own, 2))``."""
    finished = new_game(3)
    while finished.phase.is_live:
        finished = play(finished, legal_actions(finished)[-1])
    assert finished.phase is Phase.ROUND_OVER
    key = jax.random.PRNGKey(5)
    batch = ENV.from_states([finished] * BATCH, key=key)
    after = STEP(batch, jnp.zeros(BATCH, jnp.int32))
    again = STEP(ENV.from_states([finished] * BATCH, key=key), jnp.zeros(BATCH, jnp.int32))
    assert all(
        bool((a == b).all())
        for a, b in zip(jax.tree_util.tree_leaves(after), jax.tree_util.tree_leaves(again), strict=True)
    )
    games = ENV.to_states(after)
    for row, own in enumerate(jax.random.split(key, BATCH)):
        deck = np.asarray(DECK(jax.random.fold_in(own, 2)))
        want = GameState.from_deck([CARDS[int(card)] for card in deck], dealer=1, deal_number=2, scores=finished.scores)
        assert games[row] == want
    assert len({str(game) for game in games}) == BATCH  # each row its own deal
    assert next_deal(finished, 1).deal_number == games[0].deal_number


@pytest.mark.thorough
def test_with_keys_the_deal_comes_from_the_step_s_key_and_auto_reset_keeps_games_going() -> None:
    """``step(state, action, key)`` as pgx's optional key, and the auto-reset of finished games
    that pgx's training loops do: a finished row starts again from ``init``."""

    @jax.jit
    def advance(state: State, key: jax.Array) -> State:
        choose, deal, fresh = jax.random.split(key, 3)
        actions = jax.vmap(sample_legal)(jax.random.split(choose, BATCH), state.legal_action_mask)
        state = jax.vmap(ENV.step)(state, actions, jax.random.split(deal, BATCH))
        restarted = jax.vmap(ENV.init)(jax.random.split(fresh, BATCH))
        over = state.terminated
        result: State = jax.tree_util.tree_map(
            lambda new, old: jnp.where(jnp.reshape(over, (-1,) + (1,) * (new.ndim - 1)), new, old), restarted, state
        )
        return result

    key = jax.random.PRNGKey(7)
    state = INIT(jax.random.split(key, BATCH))
    resets = 0
    for number in range(700):
        key, sub = jax.random.split(key)
        before = np.asarray(state._step_count)
        state = advance(state, sub)
        assert not bool(state.terminated.any())
        resets += int((np.asarray(state._step_count) == 0).sum())
        assert np.all((np.asarray(state._step_count) == before + 1) | (np.asarray(state._step_count) == 0))
        if number % 100 == 0:
            assert ENV.to_states(state)  # every row a valid position
    assert resets > 0


def test_an_illegal_action_costs_the_offender_s_team_not_only_the_offender() -> None:
    """Where we differ from pgx on purpose: pgx gives the offender -1 and the others their
    share; in a partnership game the offender's partner shares the blame (R3): its team -1,
    the other team +1. The position is kept; the game is over."""
    state = ENV.from_states([new_game(1)] * BATCH)
    action = jnp.full(BATCH, action_to_int("pass"), jnp.int32)  # a pass with cards in the stock (R20)
    after = STEP(state, action)
    assert after.rewards[0].tolist() == [1.0, -1.0, 1.0, -1.0]  # seat 1 (team 1) moved
    assert bool(after.terminated.all()) and ENV.to_states(after)[0] == new_game(1)
    again = STEP(after, action)  # pgx: a terminated game is returned as it is, with zero rewards
    assert not bool(again.rewards.any()) and again._step_count.tolist() == after._step_count.tolist()


def test_observe_defaults_to_the_mover_and_matches_the_state_s_observation_r27() -> None:
    state = INIT(jax.random.split(jax.random.PRNGKey(3), BATCH))
    one = jax.tree_util.tree_map(lambda leaf: leaf[0], state)
    assert ENV.observe(one) is one.observation
    seat = jax.jit(ENV.observe)(one, one.current_player)
    assert bool((seat == one.observation).all())


def test_the_samplers_draw_only_legal_actions_with_the_right_frequencies() -> None:
    """sample_legal is uniform over the mask and sample_policy follows the softmax of the
    logits over it (chi-square-sized tolerances on 20,000 draws)."""
    mask = jnp.zeros(NUM_ACTIONS, bool).at[jnp.array([0, 31, 32, 700, 1435])].set(True)
    keys = jax.random.split(jax.random.PRNGKey(11), 20_000)
    drawn = np.asarray(jax.jit(jax.vmap(sample_legal, in_axes=(0, None)))(keys, mask))
    values, counts = np.unique(drawn, return_counts=True)
    assert values.tolist() == [0, 31, 32, 700, 1435]
    assert np.all(np.abs(counts - 4000) < 300)
    assert int(jax.jit(sample_legal)(keys[0], jnp.zeros(NUM_ACTIONS, bool))) == 0  # as documented
    logits = jnp.zeros(NUM_ACTIONS).at[700].set(np.log(3.0)).at[5].set(100.0)  # 5 is not legal
    drawn = np.asarray(jax.jit(jax.vmap(sample_policy, in_axes=(0, None, None)))(keys, logits, mask))
    values, counts = np.unique(drawn, return_counts=True)
    assert values.tolist() == [0, 31, 32, 700, 1435]
    want = np.array([1, 1, 1, 3, 1]) / 7 * 20_000
    assert np.all(np.abs(counts - want) < 5 * np.sqrt(want))


def test_a_state_is_pgx_s_pytree() -> None:
    state = INIT(jax.random.split(jax.random.PRNGKey(0), BATCH))
    assert isinstance(state, State)
    assert {"current_player", "observation", "legal_action_mask", "rewards", "terminated", "truncated"} <= set(
        State.__dataclass_fields__
    )
    assert all(name.startswith("_") for name in State.__dataclass_fields__ if name not in pgx_public_fields())
    assert Rules() == ENV.rules


def pgx_public_fields() -> set[str]:
    return {"current_player", "observation", "legal_action_mask", "rewards", "terminated", "truncated"}


# --- pgx's pictures: to_svg, save_svg, _repr_html_ ------------------------------------------


SVG = "http://www.w3.org/2000/svg"


def _is_face_up(element: ET.Element) -> bool:
    classes = element.get("class", "").split()
    return "card" in classes and "back" not in classes


def _face_up(svg: str) -> list[list[str]]:
    """The face-up cards of each table in a picture (one game's, or each row's of a batch's
    grid), as their data-card names, sorted."""
    root = ET.fromstring(svg)
    tables = [root] if root.get("class") == "persian-rummy-table" else list(root)
    return [
        sorted(element.get("data-card", "") for element in table.iter(f"{{{SVG}}}g") if _is_face_up(element))
        for table in tables
    ]


def _visible(game: GameState, seat: int) -> list[str]:
    """The cards that seat may see (R27): its hand, the discard pile and the melds, and every
    hand once the deal is over (R23)."""
    hands = game.hands if not game.phase.is_live else [game.hands[seat]]
    cards = [card for hand in hands for card in hand] + list(game.discard_pile)
    cards += [card for meld in game.melds for card in meld.cards]
    return sorted(str(card) for card in cards)


def _positions() -> list[GameState]:
    """A fresh deal, a meld phase with melds and a card to meld, a finished deal, a finished game."""
    melding = GameState.parse(
        "6s8s9sTsQs9d6c8c/2d8dJdQdTcJkJk/Ks4dKc/4h6h8hTh5d7dTd 5s7h9hKd5cJkAcKhQc2c5h4c9c2hQhJk4s7s6d 2s7c "
        "0:3s3h3d+23c/2:JsJhJc/3:AsAhAd turn=0 phase=meld must=8s dealer=0 deal=1 scores=0,0 passes=0 idle=0 "
        "progress=0 out=- rules=default"
    )
    over = new_game(3)
    while over.phase.is_live:
        over = play(over, legal_actions(over)[-1])
    finished = next_deal(over, 5)
    while finished.phase.is_live:
        finished = play(finished, legal_actions(finished)[-1])
    return [new_game(4), melding, over, finished]


def test_a_state_s_picture_never_shows_a_hidden_hand_r27() -> None:
    """to_svg draws the table as one seat sees it (the seat to act by default): exactly the
    cards that seat may see are face up, every card of the other hands face down while the deal
    is played; in a batch's grid, each row as its own seat to act sees it."""
    games = _positions()
    batch = ENV.from_states(games)
    rows = _face_up(batch.to_svg())
    assert rows == [_visible(game, game.current_player) for game in games]
    for seat in range(4):
        assert _face_up(batch.to_svg(seat=seat)) == [_visible(game, seat) for game in games]
        for row, game in enumerate(games):
            one = jax.tree_util.tree_map(lambda leaf, row=row: leaf[row], batch)
            (cards,) = _face_up(one.to_svg(seat=seat))
            assert cards == _visible(game, seat)
            if game.phase.is_live:  # none of another hand's natural cards, anywhere in the picture
                hidden = {str(card) for other in range(4) if other != seat for card in game.hands[other]}
                hidden -= {str(card) for card in game.hands[seat]} | {"Jk"}
                assert not any(f'data-card="{card}"' in one.to_svg(seat=seat) for card in hidden)


def test_save_svg_and_repr_html_are_to_svg_s_picture(tmp_path: Path) -> None:
    games = _positions()
    batch = ENV.from_states(games)
    one = jax.tree_util.tree_map(lambda leaf: leaf[1], batch)
    assert one.to_svg() == table(games[1].view(games[1].current_player))
    assert one._repr_html_() == one.to_svg()
    one.save_svg(tmp_path / "one.svg", seat=2)
    assert (tmp_path / "one.svg").read_text(encoding="utf-8") == one.to_svg(seat=2)
    batch.save_svg(str(tmp_path / "batch.svg"))
    assert (tmp_path / "batch.svg").read_text(encoding="utf-8") == batch.to_svg()
    full, half = ET.fromstring(batch.to_svg()), ET.fromstring(batch.to_svg(scale=0.5))
    assert [float(half.get(name, "")) for name in ("width", "height")] == [
        float(full.get(name, "")) / 2 for name in ("width", "height")
    ]
    assert half.get("viewBox") == full.get("viewBox")
    assert 'fill="#203040"' in one.to_svg(colors={"felt": "#203040"})


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"seat": 4}, InvalidArgumentError, "R3: to_svg: seat must be a seat 0-3"),
        ({"seat": -1}, InvalidArgumentError, "seat must be a seat 0-3"),
        ({"seat": True}, ArgumentTypeError, "seat must be a seat 0-3 or None"),
        ({"seat": 1.0}, ArgumentTypeError, "seat must be a seat 0-3 or None"),
        ({"scale": 0}, InvalidArgumentError, "scale must be above 0"),
        ({"scale": float("inf")}, InvalidArgumentError, "scale must be a finite number"),
        ({"scale": "2"}, ArgumentTypeError, "scale must be a finite number"),
    ],
)
def test_to_svg_refuses_a_seat_or_scale_it_cannot_draw(
    kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    state = ENV.from_states([new_game(1)])
    with pytest.raises(error, match=match):
        state.to_svg(**kwargs)
    with pytest.raises(ArgumentTypeError, match="save_svg: filename must be a path"):
        state.save_svg(None)  # type: ignore[arg-type]


def test_a_picture_reads_the_state_as_to_states_does() -> None:
    """A state that to_states refuses is not drawn either (a hand of another seat's card would
    otherwise be drawn), under the rules the state carries; a traced state is refused."""
    state = ENV.from_states([new_game(1)])
    hands = np.array(state._x.hands)
    hands[0, 1, :52] = 1  # seat 1 holding every card
    with pytest.raises(InvalidStateError, match="row 0"):
        state.replace(_x=state._x.replace(hands=jnp.asarray(hands))).to_svg()
    forbidden = Env(Rules(last_card_discard="forbidden"))
    assert "persian-rummy-table" in forbidden.from_states([new_game(1, rules=forbidden.rules)]).to_svg()
    integer = Env(observation_dtype="int16")
    assert integer.from_states([new_game(1)]).to_svg() == state.to_svg()
    with pytest.raises(ArgumentTypeError, match="to_states reads the values"):
        jax.jit(lambda state: len(state.to_svg()))(state)


# --- pgx's own API test (needs pgx: the [jax-test] extra) -----------------------------------


def patched_api_test(monkeypatch: pytest.MonkeyPatch) -> Any:
    """pgx's ``api_test`` module with the two patches docs/vector.rst documents, and no other:
    its fixed list of pgx's own game ids (``EnvId``, which ``_validate_state`` checks
    ``state.env_id`` against) widened by ``"persian_rummy"``; and its ``act_randomly``, which
    draws with ``axis=1`` and so fails on one game's mask under JAX 0.10 (pgx's own
    tic_tac_toe too), drawing with ``axis=-1``."""
    pgx = pytest.importorskip("pgx", reason='pgx is not installed: pip install ".[jax-test]" in a clone')
    api = importlib.import_module("pgx._src.api_test")
    monkeypatch.setattr(api, "EnvId", Literal[(*get_args(pgx.EnvId), ENV.id)])

    def act_randomly(key: jax.Array, legal_action_mask: jax.Array) -> jax.Array:
        logits = jnp.log(legal_action_mask.astype(jnp.float32))
        return jax.random.categorical(key, logits=logits, axis=-1)

    monkeypatch.setattr(api, "act_randomly", jax.jit(act_randomly))
    return api


def test_pgx_s_state_checks_pass_on_every_state_of_a_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """pgx's checks of one state (its dtypes and public fields, the first rewards, the seat to
    act, a finished game's mask all True) on each row of a batch as it is dealt and stepped,
    and its picture as pgx's test saves it."""
    api = patched_api_test(monkeypatch)
    state = INIT(jax.random.split(jax.random.PRNGKey(2), BATCH))
    for number in range(3):
        for row in range(0, BATCH, 8):
            one = jax.tree_util.tree_map(lambda leaf, row=row: leaf[row], state)
            api._validate_state(one)
            api._validate_current_player(one)
            api._validate_legal_actions(one)
            if number == 0:
                api._validate_init_reward(one)
        state = STEP(
            state, jax.vmap(sample_legal)(jax.random.split(jax.random.PRNGKey(number), BATCH), state.legal_action_mask)
        )
    ended = STEP(state, jnp.full(BATCH, action_to_int("pass"), jnp.int32))  # illegal here: every game ends
    api._validate_legal_actions(jax.tree_util.tree_map(lambda leaf: leaf[0], ended))
    assert ET.fromstring(ended.to_svg()).tag == f"{{{SVG}}}svg"


@pytest.mark.thorough
@pytest.mark.parametrize("use_key", [True, False], ids=["keys", "no keys"])
def test_pgx_s_own_api_test_passes_with_its_two_documented_patches(
    monkeypatch: pytest.MonkeyPatch, use_key: bool
) -> None:
    """``pgx.api_test`` as pgx runs it on its games: random games to their end under
    ``jit(step)`` and ``jit(vmap(step))`` (with and without the step's key), every state
    checked, and the last state's picture saved (``state.save_svg``)."""
    patched_api_test(monkeypatch).api_test(ENV, num=1, use_key=use_key)
