"""Test profiles for the whole repository (tests, the package's doctests, README and docs).

Two switches, both read from the environment so that ``pytest`` alone is the command in the
README and in ``.ci/run``:

* ``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) is the *thorough* profile. Tests marked
  ``@pytest.mark.thorough`` (soaks, long state machines, whole-game browser runs, the slowest
  checks that start a fresh interpreter to test the process itself) run only
  under it; a contributor's default run deselects them, so it stays short. The
  Hypothesis profiles are registered here, for every test and doctest however few are run:
  ``dev`` (the default) is fast; ``ci`` is thorough and derandomized, so CI runs are
  reproducible. Neither times anything: a busy machine must not fail an example for its time.
* ``PERSIAN_RUMMY_LONG=1`` runs the tests marked ``@pytest.mark.long`` as well: the long runs
  kept as evidence (the million-row differential of the batched engine), which a shorter test
  in CI shows reaching every case they reach. No profile runs them unless asked.
* Optional extras: modules that need an extra (``[rl]``, ``[rl-train]``, ``[server]``) are
  listed in ``OPTIONAL`` below. When an extra is not installed, its tests and modules are not
  collected and the header says so (an extra that only some tests of a collected module need,
  ``[jax-test]``, lists no paths: those tests skip themselves, saying which install brings it);
  ``PERSIAN_RUMMY_REQUIRE_EXTRAS=1`` (set by ``.ci/run``) turns a missing extra into a
  failure, so CI can never pass by leaving them out.

* JAX's programs are compiled once per run: the session sets ``JAX_COMPILATION_CACHE_DIR``
  (unless it is set already) to a fresh private folder that every worker and every process
  the tests start shares, and removes it at the end. The tests build the same engines and
  trainers many times over; their results do not depend on where a program was compiled
  (about a fifth of the batched engine's and the trainer's test time, on two cores).
* Process pools start their workers from a fork server (``multiprocessing``'s start method,
  set for the run; Python 3.14's default on Linux), never by forking the test process: the
  batched engine's tests load JAX, and forking a process in which its threads run can leave a
  lock held in the copy for ever. The server has the package imported once for them all.

Every test is bounded: pytest-timeout's per-test limit (``[tool.pytest.ini_options]``), a
longer one for thorough tests, and a hard backstop behind it (``tests/backstop.py``).
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ["backstop"]  # tests/backstop.py (the folder is on the path: pyproject.toml)

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE", "dev") == "ci"
LONG = os.environ.get("PERSIAN_RUMMY_LONG") == "1"

# No timing check in either: the deadline and the health check for slow data generation
# measure wall-clock time, which a busy machine stretches.
settings.register_profile(
    "dev", max_examples=30, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci",
    max_examples=150,
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# extra -> (modules it provides, paths (globs, from the repository root) that need it)
OPTIONAL: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "dask": (("dask", "distributed"), ("tests/test_arena_dask.py",)),
    "server-test": (
        ("starlette", "uvicorn", "websockets", "httpx2", "playwright", "axe_playwright_python"),
        # test_moved_names.py: the server's and the engine's old names (it needs [jax] too).
        ("tests/server", "persian_rummy/server", "tests/test_moved_names.py"),
    ),
    "rl": (
        ("numpy", "pettingzoo", "gymnasium", "pyspiel"),
        (
            "tests/rl",
            "persian_rummy/observation.py",
            "persian_rummy/pettingzoo.py",
            "persian_rummy/gymnasium.py",
            "persian_rummy/openspiel",
            "examples/rl_*.py",
            "benchmarks/rl_step.py",
            "benchmarks/vector_step.py",  # with [jax] too: OpenSpiel's gin rummy beside the engine
            "tests/vector/test_vector_benchmark.py",
            "benchmarks/ismcts_strength.py",
            "docs/ai.rst",
            "docs/api/openspiel.rst",
        ),
    ),
    "rl-train": (
        ("sb3_contrib", "torch"),
        ("tests/rl/test_rl_train_example.py", "examples/rl_maskable_ppo.py", "docs/tutorials/training.rst"),
    ),
    "train": (
        ("jax", "optax", "numpy"),
        (
            "tests/learning",
            "persian_rummy/learning",
            "docs/tutorials/train_your_own.rst",
            "examples/ppo_jax.py",  # a PPO of one's own, in JAX and optax
            "docs/tutorials/ppo_jax.rst",
            "docs/api/learning.rst",
        ),
    ),
    # pgx's API test on the vectorized engine (tests/vector/test_vector_pgx.py skips it without pgx).
    "jax-test": (("pgx",), ()),
    "jax": (
        ("jax", "numpy"),
        (
            "tests/vector",
            "persian_rummy/vector",
            "examples/vector_*.py",
            "benchmarks/vector_step.py",
            "docs/vector.rst",
            "tests/test_moved_names.py",
        ),
    ),
}


def _missing(extra: str) -> list[str]:
    modules, _ = OPTIONAL[extra]
    return [name for name in modules if importlib.util.find_spec(name) is None]


MISSING = {extra: missing for extra in OPTIONAL if (missing := _missing(extra))}
if MISSING and os.environ.get("PERSIAN_RUMMY_REQUIRE_EXTRAS") == "1":
    raise RuntimeError(f"extras required but not installed: {MISSING}")

collect_ignore_glob = [path for extra in MISSING for path in OPTIONAL[extra][1]]


_COMPILATION_CACHE = "JAX_COMPILATION_CACHE_DIR"
_made_cache: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    # Before any test imports JAX (it reads the variable then), and in the process that starts
    # the workers, so that they inherit it; a folder of the run's own (mkdtemp: mode 0700),
    # since whoever can write to the cache can make JAX run their code.
    global _made_cache
    if _COMPILATION_CACHE not in os.environ:
        _made_cache = os.environ[_COMPILATION_CACHE] = tempfile.mkdtemp(prefix="persian-rummy-jax-")
    # Before any pool starts: JAX's threads make forking the test process unsafe (see above).
    # The server imports what the workers unpickle (the package, and pytest for the tests'
    # own bots), once.
    if "forkserver" in multiprocessing.get_all_start_methods():
        multiprocessing.set_forkserver_preload(["persian_rummy.arena", "persian_rummy.search", "pytest"])
        multiprocessing.set_start_method("forkserver", force=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _made_cache is not None:
        shutil.rmtree(_made_cache, ignore_errors=True)
        os.environ.pop(_COMPILATION_CACHE, None)


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [f"persian-rummy profile: {'thorough' if THOROUGH else 'quick (thorough tests deselected)'}"]
    lines += [] if LONG else ["persian-rummy: long runs deselected (PERSIAN_RUMMY_LONG=1 runs them)"]
    lines += [
        f"persian-rummy: [{extra}] extra not installed ({', '.join(names)}): its tests are "
        + ("not collected" if OPTIONAL[extra][1] else "skipped")
        for extra, names in MISSING.items()
    ]
    return lines


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    left_out = [] if THOROUGH else ["thorough"]
    left_out += [] if LONG else ["long"]
    kept = [item for item in items if not any(item.get_closest_marker(name) for name in left_out)]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept
