"""The environments' whole games (the episode both play through) deal and score as before."""

from __future__ import annotations

from golden import expected, rl_outputs


def test_r7_the_environments_observe_and_reward_as_the_stored_outputs_say() -> None:
    # Gymnasium's and PettingZoo's observations (digests), rewards and lengths over seeded
    # episodes, the learner playing seeded random legal actions (tests/golden.py).
    assert rl_outputs() == expected("rl")
