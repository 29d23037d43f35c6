"""A table server: people and bots play Persian Rummy in the browser, each seeing only their
own view (needs the ``[server]`` extra: Starlette, uvicorn, websockets).

``persian-rummy serve`` runs it (see :func:`serve`); :func:`create_app` gives the ASGI
application for any ASGI server. The pieces: :mod:`~persian_rummy.server.protocol` (the
protocol's version, names and codes, and the encoder of frames),
:mod:`~persian_rummy.server.tables` (a game and what each seat is sent),
:mod:`~persian_rummy.server.store` (SQLite persistence), :mod:`~persian_rummy.server.limits`
(what strangers may do), :mod:`~persian_rummy.server.connections` (the WebSockets and sending
under a time limit), :mod:`~persian_rummy.server.live` (a table in play: its game, lock,
connections and rematch), :mod:`~persian_rummy.server.hub` (the tables in play, the bots,
the messages), :mod:`~persian_rummy.server.app` (the HTTP endpoints) and
:mod:`~persian_rummy.server.pages` (HTML). The "Serving games" page of the docs describes the
protocol and the security model.

>>> from persian_rummy.server import create_app
>>> create_app(":memory:").state.server.limits.message_bytes
4096
"""

from __future__ import annotations

from persian_rummy._extras import needs_extra

with needs_extra("server", __name__):  # checked here, at once: the server runs on all three
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
    import websockets  # noqa: F401

from persian_rummy.server.app import create_app
from persian_rummy.server.hub import Server
from persian_rummy.server.limits import Limits
from persian_rummy.server.store import Store
from persian_rummy.server.tables import Table

__all__ = ["Limits", "Server", "Store", "Table", "create_app", "serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "persian-rummy.sqlite3",
    *,
    bot_delay: float = 0.4,
    limits: Limits | None = None,
) -> None:
    """Serve tables on ``host:port`` with uvicorn until interrupted, storing games in ``db``
    and resuming the unfinished ones found there, within ``limits`` (default:
    :class:`~persian_rummy.server.limits.Limits`). WebSocket messages over 64 KiB close the
    connection (the application's own limit, 4 KiB, answers with an error frame first).
    Responses name no server software, frames are not compressed, and the client address the
    limits count by is the connection's own: no ``X-Forwarded-For`` header is believed."""
    import uvicorn

    app = create_app(db, bot_delay=bot_delay, limits=Limits() if limits is None else limits)
    print(f"persian-rummy: serving on http://{host}:{port}/ (games stored in {db}; Ctrl-C stops)", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=65536,
        log_level="warning",
        ws="websockets-sansio",
        server_header=False,
        proxy_headers=False,
        ws_per_message_deflate=False,
    )
