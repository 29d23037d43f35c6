"""Bounded waits for the tests: every wait a test makes ends, and one that runs out fails the
test saying what it waited for (with the stacks of the threads still running), instead of
holding a CI job until its time limit.

* :func:`run_threads` starts threads together at a barrier and joins them, all within a limit;
  a thread that fails anywhere, before its target too (an exception in its start-up, as a
  tracer's), breaks the barrier at once, so the others never wait for it.
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

    def work(index: int) -> None:
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

    threading.excepthook = hook
    try:
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + limit
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
    finally:
        threading.excepthook = previous
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
