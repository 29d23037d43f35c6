"""A table server: people and bots play Persian Rummy in the browser, each seeing only their
own view (needs the ``[server]`` extra: Starlette, uvicorn, websockets).

``persian-rummy serve`` runs it (see :func:`serve`); :func:`create_app` gives the ASGI
application for any ASGI server. The pieces: :mod:`~persian_rummy.server.protocol` (the
protocol's version, names and codes, and the encoder of frames),
:mod:`~persian_rummy.server.tables` (a game and what each seat is sent),
:mod:`~persian_rummy.server.storage` (what the hub asks of a database, in rows),
:mod:`~persian_rummy.server.store` (SQLite, for one process), :mod:`~persian_rummy.server.postgres`
(PostgreSQL, for several workers), :mod:`~persian_rummy.server.quotas` (what strangers may do),
:mod:`~persian_rummy.server.connections` (the WebSockets and sending under a time limit),
:mod:`~persian_rummy.server.live` (a table in play: its game, lock and connections),
:mod:`~persian_rummy.server.keeper` (the tables in play, made, opened, expired),
:mod:`~persian_rummy.server.commits` (the commit protocol and the workers' notices),
:mod:`~persian_rummy.server.turns` (the bots' moves), :mod:`~persian_rummy.server.sockets`
(the WebSockets' messages), :mod:`~persian_rummy.server.hub` (the server, wiring them),
:mod:`~persian_rummy.server.app` (the HTTP endpoints) and
:mod:`~persian_rummy.server.pages` (HTML). The "Serving games" page of the docs describes the
protocol and the security model.

>>> from persian_rummy.server import create_app
>>> create_app(":memory:").state.server.limits.message_bytes
4096
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import signal
import sys
import threading
import time
from typing import Any, Final

import attrs

from persian_rummy._extras import needs_extra
from persian_rummy._moved import moved_names
from persian_rummy.errors import InvalidArgumentError, excerpt

with needs_extra("server", __name__):  # checked here, at once: the server runs on all three
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
    import websockets  # noqa: F401

from persian_rummy.server.app import create_app
from persian_rummy.server.hub import Server
from persian_rummy.server.quotas import Limits
from persian_rummy.server.storage import StoreUnavailable
from persian_rummy.server.store import SqliteStore
from persian_rummy.server.tables import Table

__all__ = ["Limits", "Server", "SqliteStore", "Table", "create_app", "serve", "worker_app"]

#: The most worker processes ``serve`` runs.
MAX_WORKERS: Final = 64
# How serve() hands its settings to the worker processes it starts (they import the app anew).
_SETTINGS: Final = "PERSIAN_RUMMY_SERVE"
# ... and the process id of the supervisor they die with.
_SUPERVISOR: Final = "PERSIAN_RUMMY_SUPERVISOR"
#: Seconds a worker whose supervisor is gone gives its orderly stop before it ends at once.
ORPHAN_SECONDS: Final = 10.0


def _shown(db: str) -> str:
    """``db`` as it is printed: a password in a URL is not.

    >>> _shown("postgresql://ann:secret@db.example/games"), _shown("games.sqlite3")
    ('postgresql://ann:***@db.example/games', 'games.sqlite3')
    """
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", db)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "persian-rummy.sqlite3",
    *,
    bot_delay: float = 0.15,
    limits: Limits | None = None,
    workers: int = 1,
) -> None:
    """Serve tables on ``host:port`` with uvicorn until interrupted, storing games in ``db``
    (a SQLite file, or a PostgreSQL URL ``postgresql://USER@HOST/DB``) and resuming the
    unfinished ones found there, within ``limits`` (default:
    :class:`~persian_rummy.server.quotas.Limits`). ``workers`` processes share the port
    (uvicorn's workers, which it starts again when one dies); more than one needs PostgreSQL,
    which they share as several ``serve`` on several machines may. ``bot_delay`` is the pause
    (seconds) before each bot move: shorter than the time the table's page takes to show a
    move at its default pace (:data:`~persian_rummy.server.pages.PACES`), so the page sets
    the pace people see, and the server's pause only keeps a table of bots from racing.
    WebSocket messages over 64 KiB close the connection (the application's own limit, 4 KiB,
    answers with an error frame first). Responses name no server software, frames are not
    compressed, and the client address the limits count by is the connection's own: no
    ``X-Forwarded-For`` header is believed. Raises :class:`~persian_rummy.InvalidArgumentError`
    for a port past 0-65535, a number of workers out of range, or several on SQLite, and
    :class:`~persian_rummy.server.storage.StoreUnavailable` for a SQLite file that cannot be
    opened or a PostgreSQL database that cannot be reached (one connection tried, for at most
    10 seconds), before any server starts. Each worker of several stops once the process that
    started them is gone.

    >>> serve(db="tables.sqlite3", workers=2)
    Traceback (most recent call last):
    ...
    persian_rummy.errors.InvalidArgumentError: 2 workers share their tables through a PostgreSQL database (--db postgresql://USER@HOST/DB); a SQLite file (tables.sqlite3) serves one process
    """
    import uvicorn

    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise InvalidArgumentError(f"workers is a whole number 1-{MAX_WORKERS}, not {excerpt(workers)}")
    shared = db.startswith(("postgresql://", "postgres://"))
    if workers > 1 and not shared:
        raise InvalidArgumentError(
            f"{workers} workers share their tables through a PostgreSQL database (--db postgresql://USER@HOST/DB); "
            f"a SQLite file ({db}) serves one process"
        )
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise InvalidArgumentError(f"a port is a whole number 0-65535, not {excerpt(port)}")
    if shared:
        _reach(db)
    limits = Limits() if limits is None else limits
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "ws_max_size": 65536,
        "log_level": "warning",
        "ws": "websockets-sansio",
        "server_header": False,
        "proxy_headers": False,
        "ws_per_message_deflate": False,
    }
    # One worker opens its database here, so a file that cannot be opened is said before "serving".
    app = create_app(db, bot_delay=bot_delay, limits=limits) if workers == 1 else None
    processes = f", {workers} workers" if workers > 1 else ""
    print(
        f"persian-rummy: serving on http://{host}:{port}/ (games stored in {_shown(db)}{processes}; Ctrl-C stops)",
        flush=True,
    )
    if app is not None:
        uvicorn.run(app, **options)
        return
    # The workers inherit these; the calling program's environment is left as it was.
    handed = {
        _SETTINGS: json.dumps({"db": db, "bot_delay": bot_delay, "limits": attrs.asdict(limits)}),
        _SUPERVISOR: str(os.getpid()),
    }
    before = {name: os.environ.get(name) for name in handed}
    os.environ.update(handed)
    try:
        uvicorn.run("persian_rummy.server:worker_app", factory=True, workers=workers, **options)
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _reach(db: str, seconds: int = 10) -> None:
    """Connect to the PostgreSQL database ``db`` once, waiting at most ``seconds``: one that
    cannot be reached raises :class:`~persian_rummy.server.storage.StoreUnavailable`, saying
    why in one line, before any worker starts."""
    import psycopg

    try:
        psycopg.connect(db, connect_timeout=seconds, autocommit=True).close()
    except psycopg.Error as error:
        why = " ".join(str(error).split())[:300]
        raise StoreUnavailable(f"the database {_shown(db)} cannot be reached: {why}") from None


def worker_app() -> Any:
    """The application of one worker that :func:`serve` started (uvicorn calls it in each
    worker process), with the settings ``serve`` left in the environment.

    >>> os.environ[_SETTINGS] = '{"db": ":memory:", "bot_delay": 0.1, "limits": {"tables": 5}}'
    >>> worker_app().state.server.limits.tables
    5
    >>> del os.environ[_SETTINGS]
    """
    settings = json.loads(os.environ[_SETTINGS])
    supervisor = os.environ.get(_SUPERVISOR, "")
    # Only a worker follows its supervisor: a process never follows itself (it would stop at once).
    if supervisor.isdigit() and int(supervisor) != os.getpid():
        _follow_supervisor(int(supervisor))
    return create_app(settings["db"], bot_delay=settings["bot_delay"], limits=Limits(**settings["limits"]))


def _follow_supervisor(supervisor: int) -> None:
    """Stop this worker once its supervisor (process ``supervisor``) is gone, killed as it may
    be (``kill -9``, the out-of-memory killer): an orphaned worker would keep the port and its
    tables, and a server started again could not listen. On Linux the kernel sends the worker
    SIGTERM as its parent dies (``PR_SET_PDEATHSIG``); everywhere, a thread looks twice a
    second whether the worker's parent is still ``supervisor`` (it may have died before the
    kernel was asked), sends SIGTERM then (uvicorn's orderly stop), and ends the process
    :data:`ORPHAN_SECONDS` later if it is still running."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    threading.Thread(target=_watch, args=(supervisor,), name="persian-rummy supervisor", daemon=True).start()


_PR_SET_PDEATHSIG: Final = 1


def _watch(supervisor: int) -> None:
    while os.getppid() == supervisor:
        time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(ORPHAN_SECONDS)
    os._exit(1)


_MOVED = moved_names(
    __name__,
    {
        "Store": (
            SqliteStore,
            "persian_rummy.server.SqliteStore (the SQLite database as the hub uses it, every read and write a "
            "coroutine)",
        )
    },
)


def __getattr__(name: str) -> object:
    # Deprecated names, each still given with a warning that names its new one.
    return _MOVED(name)
