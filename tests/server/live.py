"""Real servers for the server's tests and its load benchmark, on 127.0.0.1 only: uvicorn in a
thread (:class:`LiveServer`) or ``persian-rummy serve`` as a separate process
(:func:`start_serve`), the table API over HTTP (:func:`create_table`), and a clock for the
message rates that the tests move themselves (:class:`PacedClock`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import anyio
import uvicorn
from starlette.testclient import WebSocketTestSession
from starlette.types import Message
from waiting import DEFAULT_LIMIT, WaitTimeout, join

from persian_rummy.server import create_app

ROOT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    """A port of 127.0.0.1 free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# serve() with other limits than the command line's (those this version of it knows), and
# other options (those it knows: workers, bot_delay).
_SERVE_WITH_LIMITS = (
    "import attrs, inspect, json, sys; from persian_rummy.server import Limits, serve; "
    "known = attrs.fields_dict(Limits); wanted = json.loads(sys.argv[3]); "
    "limits = Limits(**{name: value for name, value in wanted.items() if name in known}); "
    "parameters = inspect.signature(serve).parameters; "
    "options = {'limits': limits} if 'limits' in parameters else {}; "
    "options.update((name, value) for name, value in json.loads(sys.argv[4]).items() if name in parameters); "
    "serve('127.0.0.1', int(sys.argv[1]), sys.argv[2], **options)"
)


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` and that are not yet ended (Linux's ``/proc``;
    none elsewhere): a server's workers."""
    found = []
    for entry in Path("/proc").iterdir() if Path("/proc/self/stat").exists() else ():
        state = _state(entry.name) if entry.name.isdigit() else None
        if state is not None and state[1] == pid and state[0] not in "ZX":
            found.append(int(entry.name))
    return found


def is_running(pid: int) -> bool:
    """Whether process ``pid`` runs (not ended, and not a zombie waiting to be reaped)."""
    state = _state(str(pid))
    return state is not None and state[0] not in "ZX"


def _state(pid: str) -> tuple[str, int] | None:
    # A process's state letter and parent, from /proc/PID/stat (after the command's parenthesis).
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return fields[0], int(fields[1])


def stop_serve(process: subprocess.Popen[bytes], *, limit: float = DEFAULT_LIMIT) -> None:
    """Stop a server :func:`start_serve` started, its workers with it: Ctrl-C (uvicorn's
    orderly stop, its workers first), then SIGKILL past ``limit`` seconds, to the workers too
    (found before the supervisor is gone, while they are still its children)."""
    workers = children_of(process.pid)
    process.send_signal(signal.SIGINT)
    try:
        process.wait(limit)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(limit)
    for worker in workers:
        with contextlib.suppress(OSError):
            if is_running(worker):
                os.kill(worker, signal.SIGKILL)


def start_serve(
    db: str | Path, port: int, limits: dict[str, Any] | None = None, **options: Any
) -> subprocess.Popen[bytes]:
    """``persian-rummy serve`` on 127.0.0.1:``port`` as a separate process, once it answers;
    with ``limits`` (fields of :class:`~persian_rummy.server.Limits`) or ``options`` (others
    of ``serve()``: ``workers``, ``bot_delay``), ``serve()`` with them."""
    # A file, not a pipe: a server that writes much must not block on it; it lives as long as the server.
    errors = tempfile.TemporaryFile()  # noqa: SIM115
    command = (
        [sys.executable, "-m", "persian_rummy", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)]
        if limits is None and not options
        else [
            sys.executable,
            "-c",
            _SERVE_WITH_LIMITS,
            str(port),
            str(db),
            json.dumps(limits or {}),
            json.dumps(options),
        ]
    )
    process = subprocess.Popen(
        command,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.DEVNULL,
        stderr=errors,
    )
    deadline = time.monotonic() + DEFAULT_LIMIT
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return process
        except OSError:
            if process.poll() is not None:
                errors.seek(0)
                raise RuntimeError(f"the server exited: {errors.read().decode(errors='replace')}") from None
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"the server did not answer within {DEFAULT_LIMIT:g} s")


def create_table(url: str, seats: list[str], rules: str = "default") -> dict[str, Any]:
    """Create a table through ``POST /api/tables`` of the server at ``url``; its JSON answer."""
    request = urllib.request.Request(
        url + "/api/tables", json.dumps({"seats": seats, "rules": rules}).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return dict(json.loads(response.read()))


class PacedClock:
    """Seconds for the message rates that pass only when a client waits for its pace: give it
    to a server in this process (``LiveServer(db, clock=clock)``) and to its clients
    (``SeatClient(..., clock=clock, sleep=clock.sleep)``). A client's wait moves it at once by
    the time waited, and nothing else moves it, so what the server refuses for the rate depends
    on the messages alone, never on how fast the machine plays them."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


class LiveServer:
    """uvicorn serving :func:`~persian_rummy.server.create_app` in a thread; ``url`` is its address."""

    def __init__(self, db: str, **options: Any) -> None:
        self.app = create_app(db, **options)
        self.port = free_port()
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
            server_header=False,
            proxy_headers=False,
        )
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.server.serve(),), daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws/"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + DEFAULT_LIMIT
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError(f"uvicorn did not start within {DEFAULT_LIMIT:g} s")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        join(self.thread, "uvicorn to shut down")
        self.loop.close()

    def call(self, work: Any) -> Any:
        """Await the coroutine ``work`` on the server's event loop; its result."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(RECEIVE_LIMIT)


# Seconds a test waits for the server's next WebSocket message: far beyond any frame's time on
# a loaded machine, far below pytest-timeout's limit.
RECEIVE_LIMIT = 30.0


async def _receive_within(stream: Any, limit: float) -> Message:
    with anyio.fail_after(limit):
        return await stream.receive()  # type: ignore[no-any-return]


def bounded_receive(session: WebSocketTestSession) -> Message:
    """``WebSocketTestSession.receive`` with a limit: Starlette's waits for a message for ever,
    so a server that sends nothing would hold the test until pytest-timeout's limit."""
    try:
        return session.portal.call(_receive_within, session._send_rx, RECEIVE_LIMIT)
    except TimeoutError:
        raise WaitTimeout(f"waited {RECEIVE_LIMIT:g} s for a WebSocket message from the server") from None


def unfinished_in(db: str) -> list[Any]:
    """The unfinished tables stored in ``db`` (a SQLite path or a PostgreSQL URL), replayed."""
    from persian_rummy.server.app import open_storage
    from persian_rummy.server.tables import Table

    async def read() -> list[Any]:
        storage = open_storage(db)
        await storage.start()
        try:
            return [Table.from_stored(stored) for stored in await storage.unfinished()]
        finally:
            await storage.close()

    return asyncio.run(read())


def execute(db: str, query: str) -> None:
    """Run one statement (SQL both databases read alike) on the database ``db``."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True, connect_timeout=30) as connection:
            connection.execute(query.encode())
        return
    import sqlite3

    with sqlite3.connect(db) as connection:
        connection.execute(query)
