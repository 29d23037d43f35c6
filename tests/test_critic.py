"""The full-state critic (persian_rummy.critic): its features read the whole state for the
team to move, its values are deterministic, its file is read without pickle and refused when
malformed, and its benchmark fits a file the loader reads."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from persian_rummy import GameState, InvalidArgumentError, PolicyFileError, legal_actions, new_game, play
from persian_rummy.critic import CRITIC_FEATURES, Critic, critic_features, shipped_critic
from persian_rummy.state import team_of

K = len(CRITIC_FEATURES)


def _position(seed: int, steps: int) -> GameState:
    state = new_game(seed)
    for _ in range(steps):
        state = play(state, legal_actions(state)[-1])
    return state


def _arrays(width: int = 3) -> dict[str, np.ndarray]:
    return {
        "version": np.array(1),
        "features": np.array(CRITIC_FEATURES),
        "mean": np.zeros(K),
        "scale": np.ones(K),
        "hidden": np.zeros((K, width)),
        "hidden_bias": np.zeros(width),
        "out": np.zeros(width),
        "out_bias": np.array(0.5),
    }


def test_the_shipped_critic_loads_and_values_states_the_same_every_time() -> None:
    critic = shipped_critic()
    states = [_position(seed, steps) for seed in range(3) for steps in (0, 7, 19)]
    heads = [0.1 * number for number in range(len(states))]
    first = critic.values(states, heads)
    assert first.shape == (9,) and np.isfinite(first).all()
    assert np.array_equal(first, shipped_critic().values(states, heads))
    rows = np.stack([critic_features(state, head) for state, head in zip(states, heads, strict=True)])
    assert np.array_equal(first, critic.evaluate(rows))
    assert critic.values([], []).shape == (0,)
    with pytest.raises(InvalidArgumentError, match="as many states as it is given heads"):
        critic.values(states, heads[:2])


def test_r22_r23_the_features_read_every_hand_for_the_team_to_move() -> None:
    """R22/R23: the points in hand are each seat's cards' values, counted from the mover; the
    deal's margin if it ended now is the tally's; a fresh deal has a full stock."""
    state = _position(4, 9)
    features = dict(zip(CRITIC_FEATURES, critic_features(state, 0.5), strict=True))
    mover = state.current_player
    for offset, name in enumerate(("mover", "next", "partner", "last")):
        hand = state.hands[(mover + offset) % 4]
        assert features[f"{name}_points"] == pytest.approx(hand.points / 100)
        assert features[f"{name}_cards"] == pytest.approx(len(hand) / 14)
    from persian_rummy.scoring import tally

    scores = tally(state.melds, state.hands, went_out=None, rules=state.rules)
    team = team_of(mover)
    assert features["deal_margin"] == pytest.approx((scores[team].total - scores[1 - team].total) / 100)
    assert features["stock"] == pytest.approx(len(state.stock) / 27)
    assert features["head"] == 0.5


def test_a_critic_round_trips_through_its_file(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    critic = Critic(
        rng.normal(size=K), rng.uniform(1, 2, K), rng.normal(size=(K, 4)), rng.normal(size=4), rng.normal(size=4), 0.1
    )
    critic.save(tmp_path / "critic.npz")
    again = Critic.load(tmp_path / "critic.npz")
    state = _position(2, 5)
    assert np.array_equal(again.values([state], [0.3]), critic.values([state], [0.3]))


def _save(path: Path, **arrays: object) -> Path:
    np.savez(path, **arrays)  # type: ignore[arg-type]
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"out": None}, "lacks the arrays out"),
        ({"version": np.array(2)}, "of version 2, not 1"),
        ({"features": np.array(CRITIC_FEATURES[::-1])}, "other features"),
        ({"hidden": np.zeros((K - 1, 3))}, "one hidden layer, not arrays of shapes"),
        ({"out": np.zeros(4)}, "one hidden layer, not arrays of shapes"),
        ({"scale": np.zeros(K)}, "scales above 0"),
        ({"out_bias": np.array(np.nan)}, "must be finite"),
        ({"mean": np.zeros(K, dtype=np.int64)}, "not of floats"),
        ({"out": np.array([{}] * 3)}, r"not an \.npz archive of arrays"),  # needs pickle: refused
    ],
)
def test_a_malformed_critic_file_is_refused(tmp_path: Path, change: dict[str, object], message: str) -> None:
    arrays: dict[str, object] = {**_arrays(), **change}
    path = _save(tmp_path / "critic.npz", **{name: value for name, value in arrays.items() if value is not None})
    with pytest.raises(PolicyFileError, match=message):
        Critic.load(path)


def test_a_file_that_is_no_archive_or_no_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "text.npz").write_text("weights")
    with pytest.raises(PolicyFileError, match=r"not an \.npz archive"):
        Critic.load(tmp_path / "text.npz")
    with pytest.raises(PolicyFileError, match="not a regular file"):
        Critic.load(tmp_path)
    with pytest.raises(PolicyFileError, match="cannot be read"):
        Critic.load(tmp_path / "missing.npz")
    (tmp_path / "big.npz").write_bytes(b"\0" * ((1 << 20) + 1))
    with pytest.raises(PolicyFileError, match="at most"):
        Critic.load(tmp_path / "big.npz")


def test_the_benchmark_fits_a_critic_and_prints_the_held_out_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``benchmarks/critic.py`` at a tiny size: the fit writes a file the loader reads, and the
    held-out figures name the Python version and both critics; its self-play is the same for a
    seed."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import critic as benchmark

    out = tmp_path / "fitted.npz"
    argv = ["--fit", str(out), "--train-games", "2", "--games", "2", "--every", "4", "--epochs", "2", "--width", "3"]
    argv += ["--ceiling", "2", "--ceiling-games", "1", "--ceiling-every", "20"]
    assert benchmark.main(argv) == 0
    printed = capsys.readouterr().out
    assert "Python 3." in printed and "value head" in printed and "full-state critic" in printed
    assert "ceiling" in printed
    assert Critic.load(out).hidden.shape == (K, 3)
    first = benchmark.self_play("same", 1, 3)
    again = benchmark.self_play("same", 1, 3)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
