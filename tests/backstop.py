"""The suite's backstop against hangs, a pytest plugin that the root ``conftest.py`` loads.

Two limits stand behind every test, so that a hang costs minutes and names its place instead
of holding a CI job until its time limit:

1. pytest-timeout (the ``timeout`` of ``[tool.pytest.ini_options]``, ``signal`` method): a test
   that runs past its limit fails where it waits, its report holding the stack of every thread.
   Tests marked ``thorough`` are given :data:`THOROUGH_LIMIT` unless they carry their own
   ``timeout`` mark.
2. Should the test not come back to the interpreter then (a wait in C that ignores the signal,
   or a handler that swallows pytest-timeout's failure), the process writes every thread's
   traceback to the standard error it started with and exits ``timeout_hard_margin`` seconds
   (an ini option, :data:`HARD_MARGIN` by default) after the limit (``faulthandler``);
   pytest-xdist reports the test as crashed and goes on.
"""

from __future__ import annotations

import faulthandler
import os
from collections.abc import Generator

import pytest

# The thorough tests take up to seven minutes beside a CPU-bound process on two cores; the
# longest (the vector engine's million-row differential) carries a limit of its own.
THOROUGH_LIMIT = 1200.0
HARD_MARGIN = 120.0

_STDERR = pytest.StashKey[int]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "timeout_hard_margin",
        "seconds after a test's timeout at which its process dumps every thread and exits",
        default=str(HARD_MARGIN),
    )


def limit_of(item: pytest.Item) -> float:
    """The pytest-timeout limit of ``item`` in seconds (0: none, or pytest-timeout missing)."""
    if not item.config.pluginmanager.hasplugin("timeout"):
        return 0.0
    marker = item.get_closest_marker("timeout")
    if marker is not None and marker.args:
        return float(marker.args[0])
    if marker is not None and "timeout" in marker.kwargs:
        return float(marker.kwargs["timeout"])
    return float(item.config.getini("timeout") or 0)


def pytest_configure(config: pytest.Config) -> None:
    # The standard error the process started with (the terminal, or CI's log), kept before
    # any test's output is captured.
    config.stash[_STDERR] = os.dup(2)


def pytest_unconfigure(config: pytest.Config) -> None:
    os.close(config.stash[_STDERR])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("thorough") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(THOROUGH_LIMIT))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    limit = limit_of(item)
    if limit > 0:
        margin = float(item.config.getini("timeout_hard_margin"))
        faulthandler.dump_traceback_later(limit + margin, exit=True, file=item.config.stash[_STDERR])
    try:
        return (yield)
    finally:
        if limit > 0:
            faulthandler.cancel_dump_traceback_later()
