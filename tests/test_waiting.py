"""The tests' bounded waits (``tests/waiting.py``) and the suite's backstop: a thread that dies
as it starts, a thread that never ends and a test that waits for nothing each fail within their
limit, saying what was waited for, instead of hanging the run."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from waiting import WaitTimeout, join, run_threads, wait_until

# A limit no test may wait out: past the test's own (pytest-timeout's, 300 s), which would fail
# it. A run_threads given it returns only because a failure broke its barrier at once.
NEVER = 3600.0


@pytest.fixture
def quiet_excepthook() -> Iterator[list[str]]:
    """Thread exceptions go to a list for the test to read, not to pytest's report."""
    seen: list[str] = []
    previous = threading.excepthook
    threading.excepthook = lambda args: seen.append(f"{args.thread.name if args.thread else '?'}: {args.exc_value!r}")
    yield seen
    threading.excepthook = previous


def test_a_thread_that_dies_as_it_starts_fails_the_run_at_once(quiet_excepthook: list[str]) -> None:
    # The hang that held a CI run: seven threads at a barrier, the eighth ended before it reached
    # it (an exception raised outside its target, as a tracer's when the thread starts), and the
    # test joined forever. Here a trace function raises at the eighth thread's first call.
    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        if threading.current_thread().name == "engine-7":
            raise RuntimeError("the tracer failed as the thread started")
        return None

    threading.settrace(tracer)
    try:
        with pytest.raises(AssertionError, match=r"engine-7 failed: RuntimeError\('the tracer failed") as failed:
            run_threads(lambda index: None, 8, name="engine", limit=NEVER)  # the barrier was broken, not waited out
    finally:
        threading.settrace(None)  # type: ignore[arg-type]
    assert isinstance(failed.value.__cause__, RuntimeError)
    assert quiet_excepthook == ["engine-7: RuntimeError('the tracer failed as the thread started')"]


@pytest.fixture
def quiet_unraisablehook() -> Iterator[list[str]]:
    """Unraisable exceptions go to a list for the test to read, not to pytest's report."""
    seen: list[str] = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: seen.append(repr(unraisable.exc_value))
    yield seen
    sys.unraisablehook = previous


def test_a_thread_whose_tracer_cannot_be_installed_fails_the_run_at_once(
    monkeypatch: pytest.MonkeyPatch, quiet_unraisablehook: list[str]
) -> None:
    # The hang's cause, as CI met it: installing the new thread's tracer raised in
    # Thread._bootstrap_inner, before run(), which reports to sys.unraisablehook alone.
    class RefusingSys:
        def __getattr__(self, name: str) -> Any:
            return getattr(sys, name)

        def settrace(self, function: Any) -> None:
            if threading.current_thread().name == "engine-7":
                raise RuntimeError("Cannot install a trace function while another trace function is being installed")
            sys.settrace(function)

    monkeypatch.setattr(threading, "_sys", RefusingSys())
    threading.settrace(lambda frame, event, arg: None)
    try:
        with pytest.raises(AssertionError, match=r"engine-7 failed: RuntimeError\('Cannot install a trace"):
            run_threads(lambda index: None, 8, name="engine", limit=NEVER)
    finally:
        threading.settrace(None)  # type: ignore[arg-type]
    assert len(quiet_unraisablehook) == 1


RACE = """
import sys, threading
sys.path.insert(0, sys.argv[1])
from waiting import run_threads

def audit(event, args):
    if event == "sys.settrace":
        sum(range(200))  # Python code inside sys.settrace: another thread may run here

sys.addaudithook(audit)
threading.settrace(lambda frame, event, arg: None)  # as coverage does
sys.setswitchinterval(1e-6)
for _ in range(40):
    run_threads(lambda index: None, 8, name="engine", limit=60)
print("ok")
"""


def test_threads_started_one_at_a_time_never_race_to_install_their_tracers() -> None:
    # The race itself, in a process of its own (an audit hook cannot be removed): with an audit
    # hook, a tracer for new threads and a one-microsecond switch interval, eight threads
    # started at once lose one now and then; started by run_threads, none.
    done = subprocess.run(
        [sys.executable, "-c", RACE, str(ROOT / "tests")], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout + done.stderr


def test_a_target_that_fails_is_reported_with_its_thread() -> None:
    def work(index: int) -> None:
        if index == 2:
            raise ValueError("bad seed")

    with pytest.raises(AssertionError, match=r"worker-2 failed: ValueError\('bad seed'\)"):
        run_threads(work, 4, name="worker", limit=60)


def test_a_thread_that_never_ends_fails_at_the_limit_with_its_stack() -> None:
    release = threading.Event()

    def work(index: int) -> None:
        if index == 0:
            release.wait(60)  # stuck until the test lets it go

    try:
        # The limit covers starting the three threads too: generous for that on a busy machine.
        with pytest.raises(WaitTimeout, match=r"(?s)still running: stuck-0\n--- stuck-0 ---.*release\.wait"):
            run_threads(work, 3, name="stuck", limit=2.0)
    finally:
        release.set()


def test_join_and_wait_until_say_what_they_waited_for() -> None:
    release = threading.Event()
    thread = threading.Thread(target=release.wait, args=(60,), name="sleeper", daemon=True)
    thread.start()
    try:
        with pytest.raises(WaitTimeout, match=r"(?s)waited 0.2 s for the sleeper \(sleeper\) to end:.*wait"):
            join(thread, "the sleeper", limit=0.2)
        with pytest.raises(WaitTimeout, match=r"waited 0\.1 s for a flag nobody sets"):
            wait_until(lambda: False, "a flag nobody sets", limit=0.1)
    finally:
        release.set()
    join(thread, "the sleeper")
    wait_until(lambda: not thread.is_alive(), "the sleeper to be gone")


ROOT = Path(__file__).resolve().parent.parent

PLANTED = """
import threading

def test_waits_for_an_event_nobody_sets():
    threading.Event().wait()

def test_swallows_the_timeout_and_waits_again():
    while True:
        try:
            threading.Event().wait()
        except BaseException:
            pass
"""


def run_planted(tmp_path: Path, test: str) -> subprocess.CompletedProcess[str]:
    """pytest with the project's configuration and backstop on a planted hang, with a limit of
    3 s and a hard margin of 2 s. What ended it is read from its output, not timed; the run's
    own limit only ends a backstop that failed."""
    (tmp_path / "test_planted.py").write_text(PLANTED)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "backstop"]
    command += ["-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), "-n", "0", "-q"]
    command += ["-o", "timeout=3", "-o", "timeout_hard_margin=2", f"{tmp_path / 'test_planted.py'}::{test}"]
    # The backstop by its own name, from the tests' folder (as pyproject.toml's pythonpath).
    paths = [str(ROOT / "tests"), *filter(None, [os.environ.get("PYTHONPATH")])]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.thorough  # a fresh interpreter: CI runs it (docs/testing.rst)
def test_a_test_waiting_for_nothing_fails_at_its_limit_where_it_waits(tmp_path: Path) -> None:
    done = run_planted(tmp_path, "test_waits_for_an_event_nobody_sets")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed: Timeout (>3.0s) from pytest-timeout" in done.stdout
    assert "threading.Event().wait()" in done.stdout  # the test's own line, in its traceback
    assert "1 failed" in done.stdout


@pytest.mark.thorough
def test_a_test_that_swallows_its_timeout_is_ended_by_the_backstop(tmp_path: Path) -> None:
    done = run_planted(tmp_path, "test_swallows_the_timeout_and_waits_again")
    assert done.returncode != 0
    assert "Timeout (0:00:05)!" in done.stderr  # faulthandler: the limit and the margin
    assert "most recent call first" in done.stderr and "test_swallows_the_timeout" in done.stderr
