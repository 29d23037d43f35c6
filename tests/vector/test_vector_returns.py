"""team_gae, the advantages of a two-team game where a seat moves several times in a row (R3:
the two seats of a team share every score), against a slow pure-Python reference written from
its definition: each decision looks ahead to its own team's next decision in the same game."""

from __future__ import annotations

import numpy as np
import pytest

from persian_rummy import InvalidArgumentError
from persian_rummy.vector import team_gae


def reference(rewards, values, teams, valid, dones, last_values, gamma, lam):  # type: ignore[no-untyped-def]
    """The advantages by the definition, one row and one decision at a time (no scan)."""
    steps, rows = values.shape
    out = np.zeros((steps, rows))
    for b in range(rows):
        for t in range(steps):
            if not valid[t, b]:
                continue
            team = teams[t, b]

            def ahead(t: int, team: int = team, b: int = b) -> float:
                # delta_t, and the advantage of the next decision of the team (or 0).
                total = 0.0
                for u in range(t, steps):
                    if u > t and valid[u, b] and teams[u, b] == team:
                        delta = total + gamma * values[u, b] - values[t, b]
                        return delta + gamma * lam * ahead(u)
                    total += rewards[u, b, team]
                    if dones[u, b]:
                        return total - values[t, b]
                return total + gamma * last_values[b, team] - values[t, b]

            out[t, b] = ahead(t)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_team_gae_is_the_reference_r3(seed: int) -> None:
    rng = np.random.default_rng(seed)
    steps, rows = 14, 6
    # Turns of several moves by one seat, the seats in turn: team runs of 1-4 steps.
    teams = np.zeros((steps, rows), np.int32)
    for b in range(rows):
        team, t = int(rng.integers(0, 2)), 0
        while t < steps:
            run = int(rng.integers(1, 5))
            teams[t : t + run, b] = team
            team, t = 1 - team, t + run
    valid = rng.random((steps, rows)) < 0.9
    dones = valid & (rng.random((steps, rows)) < 0.1)
    paid = rng.random((steps, rows)) < 0.3
    margin = rng.normal(size=(steps, rows)) * paid
    rewards = np.stack([margin, -margin], axis=2).astype(np.float32)  # zero-sum between the teams
    values = rng.normal(size=(steps, rows)).astype(np.float32)
    last_values = rng.normal(size=(rows, 2)).astype(np.float32)
    for gamma, lam in ((1.0, 0.95), (0.99, 0.9), (1.0, 1.0)):
        got = np.asarray(team_gae(rewards, values, teams, valid, dones, last_values, gamma=gamma, gae_lambda=lam))
        want = reference(rewards, values, teams, valid, dones, last_values, gamma, lam)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        assert (got[~valid] == 0).all()


def test_team_gae_refuses_shapes_that_do_not_fit() -> None:
    rewards = np.zeros((3, 2, 2), np.float32)
    ok = np.zeros((3, 2))
    with pytest.raises(InvalidArgumentError, match="rewards must be"):
        team_gae(np.zeros((3, 2)), ok, ok, ok, ok, np.zeros((2, 2)))
    with pytest.raises(InvalidArgumentError, match="teams must be"):
        team_gae(rewards, ok, np.zeros((2, 3)), ok, ok, np.zeros((2, 2)))
    with pytest.raises(InvalidArgumentError, match="last_values must be"):
        team_gae(rewards, ok, ok, ok, ok, np.zeros(2))
