"""Bounded waits for the tests: every wait a test makes ends, and one that runs out fails the
test saying what it waited for (with the stacks of the threads still running), instead of
holding a CI job until its time limit.

* :func:`run_threads` starts threads one at a time, then lets them go together from a barrier,
  and joins them, all within a limit; a thread that fails anywhere, before its target too,
  breaks the barrier at once, so the others never wait for it.

The hang it ends: a test started eight threads at once with a one-microsecond switch interval
under coverage's tracer. Each new thread installs the tracer (``sys.settrace`` in
``Thread._bootstrap_inner``, before its target runs), and ``sys.settrace`` runs the process's
audit hooks (any that a library of the process installs), Python code during which another
thread can take the interpreter and call ``sys.settrace`` in turn: CPython refuses it with
``RuntimeError: Cannot install a trace function while another trace function is being
installed``. That error is raised before the thread's ``try``, reported to
``sys.unraisablehook`` (not ``threading.excepthook``), and the thread ends without reaching the
barrier, where the seven others waited for ever. Threads started one at a time never install
their tracers at once; and one that dies so is seen through both hooks.
* :func:`wait_until` polls a condition until a deadline.
* :func:`join` joins a thread within a limit.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

# Long enough for a slow test on a loaded two-core machine, short beside pytest-timeout's limit.
DEFAULT_LIMIT = 120.0


class WaitTimeout(AssertionError):
    """A bounded wait in a test ran out; the message says what it waited for."""


def stacks(threads: list[threading.Thread]) -> str:
    """The current stack of each of ``threads`` that is still running, as text."""
    frames = sys._current_frames()
    parts = []
    for thread in threads:
        frame = frames.get(thread.ident or -1)
        if thread.is_alive() and frame is not None:
            parts.append(f"--- {thread.name} ---\n" + "".join(traceback.format_stack(frame)))
    return "\n".join(parts)


def wait_until(condition: Callable[[], object], what: str, *, limit: float = DEFAULT_LIMIT, step: float = 0.01) -> None:
    """Poll ``condition`` until it is true; raise :class:`WaitTimeout` naming ``what`` after
    ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise WaitTimeout(f"waited {limit:g} s for {what}")
        time.sleep(step)


def join(thread: threading.Thread, what: str, *, limit: float = DEFAULT_LIMIT) -> None:
    """Join ``thread``; raise :class:`WaitTimeout` with its stack if it is still running after
    ``limit`` seconds."""
    thread.join(limit)
    if thread.is_alive():
        raise WaitTimeout(f"waited {limit:g} s for {what} ({thread.name}) to end:\n{stacks([thread])}")


def run_threads(target: Callable[[int], object], count: int, *, name: str, limit: float = DEFAULT_LIMIT) -> None:
    """Run ``target(index)`` in ``count`` daemon threads that start together at a barrier, and
    wait for all of them, ``limit`` seconds at most for the whole.

    Raises :class:`WaitTimeout` if a thread is still running at the limit, and re-raises the
    first failure of any thread, with the thread named. A thread that fails before it reaches
    the barrier, even outside ``target`` (an exception raised by a tracer as the thread starts,
    which ``threading.excepthook`` sees), aborts the barrier, so the others stop waiting at once.
    """
    barrier = threading.Barrier(count, timeout=limit)
    failures: list[tuple[str, BaseException]] = []
    lock = threading.Lock()

    def fail(thread_name: str, error: BaseException) -> None:
        with lock:
            failures.append((thread_name, error))
        barrier.abort()

    running = [threading.Event() for _ in range(count)]

    def work(index: int) -> None:
        running[index].set()  # past its start-up (its tracer installed): the next may start
        try:
            barrier.wait()
            target(index)
        except threading.BrokenBarrierError:
            pass  # another thread failed (reported) or the limit ran out (the join reports it)
        except BaseException as error:  # reported by the caller
            fail(threading.current_thread().name, error)

    previous = threading.excepthook
    threads = [
        threading.Thread(target=work, args=(index,), name=f"{name}-{index}", daemon=True) for index in range(count)
    ]
    ours = {id(thread) for thread in threads}

    def hook(args: Any) -> None:
        if id(args.thread) in ours:
            fail(args.thread.name, args.exc_value)
        previous(args)  # pytest's hook reports it as well

    previous_unraisable = sys.unraisablehook

    def unraisable_hook(unraisable: Any) -> None:
        # An error in a thread's start-up, before its run(): "Exception ignored in thread
        # started by <bound method Thread._bootstrap of <Thread(...)>>".
        thread = getattr(unraisable.object, "__self__", None)
        if id(thread) in ours and unraisable.exc_value is not None:
            fail(thread.name, unraisable.exc_value)  # type: ignore[union-attr]
        previous_unraisable(unraisable)

    threading.excepthook = hook
    sys.unraisablehook = unraisable_hook
    deadline = time.monotonic() + limit
    started: list[threading.Thread] = []
    try:
        for index, thread in enumerate(threads):
            thread.start()
            started.append(thread)
            # One at a time: two threads never install their tracers at once.
            while not running[index].wait(0.05) and thread.is_alive() and time.monotonic() < deadline:
                pass
            if not running[index].is_set():
                barrier.abort()  # it died as it started (reported below) or never got going
                break
        for thread in started:
            thread.join(max(0.0, deadline - time.monotonic()))
    finally:
        threading.excepthook = previous
        sys.unraisablehook = previous_unraisable
    if failures:
        thread_name, error = failures[0]
        raise AssertionError(f"{thread_name} failed: {error!r}") from error
    running = [thread for thread in threads if thread.is_alive()]
    if running:
        barrier.abort()
        raise WaitTimeout(
            f"waited {limit:g} s for the {name} threads; still running: "
            f"{', '.join(thread.name for thread in running)}\n{stacks(running)}"
        )
    if barrier.broken:
        raise WaitTimeout(f"the {name} threads did not all reach their start within {limit:g} s")
