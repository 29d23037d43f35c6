"""Shared test configuration: Hypothesis profiles.

``HYPOTHESIS_PROFILE=dev`` (the default) is fast for local runs; ``HYPOTHESIS_PROFILE=ci``
(set by ``.ci/run``) is thorough, has no deadline (game playouts vary in length) and is
derandomized, so CI runs are reproducible.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=30, stateful_step_count=60, deadline=None)
settings.register_profile(
    "ci",
    max_examples=150,
    stateful_step_count=120,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
