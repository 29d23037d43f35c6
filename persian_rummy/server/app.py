"""The ASGI application of the table server: the HTTP pages, the table API and one WebSocket
per seat or spectator, as module-level endpoints around the
:class:`~persian_rummy.server.hub.Server` in ``app.state.server``. A request the library or
the limits refuse is answered in one place, Starlette's ``exception_handlers``: JSON under
``/api/``, a page elsewhere.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(":memory:")) as client:
...     created = client.post("/api/tables", json={"seats": ["human", "greedy", "greedy", "greedy"]}).json()
...     with client.websocket_connect(f"/ws/{created['seats'][0]['token']}") as ws:
...         welcome, first = ws.receive_json(), ws.receive_json()
>>> sorted(created), [seat["bot"] for seat in created["seats"]]
(['id', 'seats', 'spectator'], [None, 'greedy', 'greedy', 'greedy'])
>>> welcome["type"], welcome["protocol"], first["type"], first["seat"], first["view"]["seat"]
('welcome', 2, 'state', 0, 0)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Mapping
from importlib import resources
from typing import Any, Final
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from persian_rummy.errors import ArgumentTypeError, NotationError, PersianRummyError, excerpt
from persian_rummy.rules import Rules
from persian_rummy.server.hints import hints_off
from persian_rummy.server.hub import Server
from persian_rummy.server.pages import created, lobby, problem, table_page
from persian_rummy.server.protocol import HUMAN
from persian_rummy.server.quotas import DEFAULT_LIMITS, CapacityError, Limits, client_address
from persian_rummy.server.seats import check_seats
from persian_rummy.server.storage import Database, StoreUnavailable
from persian_rummy.server.store import SqliteStore
from persian_rummy.state import PLAYERS, SEAT_NAMES

__all__ = ["create_app", "open_storage"]

#: The server's icon (also its ``/favicon.ico``, which browsers ask for).
_ICON: Final = str(resources.files("persian_rummy.server").joinpath("static").joinpath("favicon.svg"))
# No inline script, no other origin, no framing, and no token in a Referer header: on every
# HTTP response, the server's errors (404, 405, 413) included (:class:`_SecurityHeaders`).
_HEADERS: Final = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}
# Pages hold secret links: never cached. The script, the style sheet and the icon: for 5 minutes.
_NO_STORE: Final = "no-store"
_CACHED: Final = "max-age=300"


class _Refused(PersianRummyError):
    """A request refused for where it came from or what it is, with its HTTP ``status``."""

    message_is_public = True

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status


class _SecurityHeaders:
    """ASGI middleware: every HTTP response gets the security headers and a cache policy
    (the ones the application itself answers, 404 and 405 included), unless it set them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        cache = _CACHED if path.startswith("/static/") or path == "/favicon.ico" else _NO_STORE

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _HEADERS.items():
                    headers.setdefault(name, value)
                headers.setdefault("cache-control", cache)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _BodyLimit:
    """ASGI middleware: an HTTP request whose body is over ``limit`` bytes is answered 413
    before the application sees it (the body is read once, bounded, then handed on)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "0")
        too_large = not declared.isdigit() or int(declared) > self.limit
        chunks: list[bytes] = []
        size, more = 0, not too_large
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            chunks.append(chunk)
            more = message.get("more_body", False)
            too_large = size > self.limit
            more = more and not too_large
        if too_large:
            reason = f"a request's body is at most {self.limit} bytes"
            response: Response = (
                JSONResponse({"error": reason}, 413)
                if scope["path"].startswith("/api/")
                else _html(problem(f"The form is too large: {reason}."), 413)
            )
            await response(scope, receive, send)
            return
        body, handed = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal handed
            if handed:
                return await receive()
            handed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status)


def _server(request: Request | WebSocket) -> Server:
    server: Server = request.app.state.server
    return server


async def _refused(request: Request, error: Exception) -> Response:
    """The one answer to a refused request: JSON ``{"error": reason}`` under ``/api/``, else a
    page that says it; the status is the limit's (429, 503), the refusal's or 400."""
    reason = error.reason if isinstance(error, PersianRummyError) else "the request was refused"
    status = error.status if isinstance(error, CapacityError | StoreUnavailable | _Refused) else 400
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": reason}, status)
    return _html(problem(reason), status)


def _cross_site(request: Request) -> bool:
    """Whether a browser says a request came from a page of another site: a table is created
    from this server's own pages or by a program, never by a page elsewhere through its
    visitors' browsers. A browser's ``Sec-Fetch-Site`` decides where it is sent; else an
    ``Origin`` must be this server's (``null``, as from a sandboxed frame, is not)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = request.headers.get("origin")
    return origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}"


def _table_spec(data: Mapping[str, Any]) -> tuple[list[str], Rules, list[str] | None]:
    """Seats, rules and names from a creation request (JSON, or the lobby form's fields)."""
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != PLAYERS or not all(isinstance(kind, str) for kind in seats):
        raise NotationError('"seats" is a list of 4 seat kinds: "human" or a bot\'s name')
    rules = data.get("rules", "default")
    if not isinstance(rules, str) or len(rules) > 400:
        raise NotationError('"rules" is a preset\'s name or knobs such as "deals=1 going_out_bonus=50"')
    names = data.get("names")
    if names is not None and (not isinstance(names, list) or not all(isinstance(name, str) for name in names)):
        raise NotationError('"names" is a list of 4 player names')
    return [kind.strip() for kind in seats], Rules.parse(rules or "default"), names


def _checked_seats(server: Server, seats: list[str], client: str) -> list[str]:
    """The seat kinds of a new table as strangers may ask for them (:func:`~persian_rummy.server.seats.check_seats`:
    people, the lobby's levels and bots' names, never a file), within the bots' work per decision and
    per client (counted over the client's tables in play in this process's memory)."""
    held = [table.seats for table in server.tables.values() if table.owner == client and not table.finished]
    return check_seats(seats, server.limits, held)


def _form(body: bytes, limit: int) -> dict[str, list[str]]:
    """The lobby form's fields; raises :class:`~persian_rummy.NotationError` past ``limit`` fields."""
    try:
        return parse_qs(body.decode("utf-8", "replace"), max_num_fields=limit)
    except ValueError:
        message = f"the form has at most {limit} fields"
        raise NotationError(message, reason=message) from None


async def _lobby_page(request: Request) -> Response:
    # The lobby holds no secret: its form is sent with its true Origin (under no-referrer a
    # browser sends "null"), which the check on creating a table reads.
    return HTMLResponse(lobby(), headers={"referrer-policy": "same-origin"})


async def _create_form(request: Request) -> Response:
    if _cross_site(request):
        raise _Refused("A table is created from this server's own lobby, not from another site.", status=403)
    server = _server(request)
    fields = _form(await request.body(), server.limits.form_fields)
    knobs = fields.get("knobs", [""])[0].strip()
    data = {
        "seats": [fields.get(f"seat{seat}", [HUMAN])[0] for seat in range(PLAYERS)],
        "rules": knobs or fields.get("preset", ["default"])[0],
        "names": [fields.get(f"name{seat}", [""])[0].strip() or SEAT_NAMES[seat] for seat in range(PLAYERS)],
    }
    seats, rules, names = _table_spec(data)
    seats = _checked_seats(server, seats, client_address(request))
    table, tokens = await server.create_table_async(seats, rules=rules, names=names, client=client_address(request))
    return _html(created(table, tokens, str(request.base_url).rstrip("/")), 201)


async def _create_json(request: Request) -> Response:
    if _cross_site(request):
        raise _Refused("a table is not created from another site's page", status=403)
    try:
        data = json.loads(await request.body())
        if not isinstance(data, dict):
            raise ValueError
    except (ValueError, RecursionError):
        raise _Refused("the request is one JSON object", status=400) from None
    seats, rules, names = _table_spec(data)
    server = _server(request)
    seats = _checked_seats(server, seats, client_address(request))
    table, tokens = await server.create_table_async(seats, rules=rules, names=names, client=client_address(request))
    people = dict(tokens["seats"])
    return JSONResponse(
        {
            "id": table.id,
            "seats": [
                {
                    "seat": seat,
                    "bot": None if seat in people else table.seats[seat],
                    "token": people.get(seat),
                    "url": f"/play/{people[seat]}" if seat in people else None,
                }
                for seat in range(PLAYERS)
            ],
            "spectator": {"token": tokens["spectator"], "url": f"/watch/{tokens['spectator']}"},
        },
        201,
    )


async def _rematch(request: Request) -> Response:
    if _cross_site(request):
        raise _Refused("a rematch is not asked for from another site's page", status=403)
    token = await _server(request).rematch(request.path_params["token"], client_address(request))
    return JSONResponse({"url": f"/play/{token}"}, 201)


async def _seat_page(request: Request) -> Response:
    opened = await _server(request).open(request.path_params["token"])
    if opened is None:
        return _html(problem("This link opens no table."), 404)
    live, seat = opened
    # The page says whether the seat may ask for hints, which loads the learned player the
    # first time: on a thread, not on the event loop.
    await asyncio.to_thread(hints_off, live.table)
    return _html(table_page(live.table, seat))


async def _record(request: Request) -> Response:
    opened = await _server(request).open(request.path_params["token"])
    live, seat = opened if opened is not None else (None, None)
    if live is None or seat is None:
        return PlainTextResponse("This link has no record to download.", 404)
    text = await live.record_text(seat)
    disposition = f'attachment; filename="persian-rummy-{live.id}-{SEAT_NAMES[seat].lower()}.prr"'
    return PlainTextResponse(text, headers={"Content-Disposition": disposition})


async def _favicon(request: Request) -> Response:
    return FileResponse(_ICON, media_type="image/svg+xml")


async def _websocket(websocket: WebSocket) -> None:
    await _server(websocket).connect(websocket, websocket.path_params["token"])


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    server: Server = app.state.server
    await server.start()
    yield
    await server.close()


_ROUTES: Final = [
    Route("/", _lobby_page),
    Route("/tables", _create_form, methods=["POST"]),
    Route("/api/tables", _create_json, methods=["POST"]),
    Route("/api/rematch/{token}", _rematch, methods=["POST"]),
    Route("/play/{token}", _seat_page),
    Route("/watch/{token}", _seat_page),
    Route("/record/{token}", _record),
    Route("/favicon.ico", _favicon),
    Mount("/static", StaticFiles(packages=[("persian_rummy.server", "static")]), name="static"),
    WebSocketRoute("/ws/{token}", _websocket),
]


def open_storage(db: str | Database) -> Database:
    """The database ``db`` names: a PostgreSQL URL (``postgresql://USER@HOST/DB``, for one
    worker or several), else the path of a SQLite file (one process); or the
    :class:`~persian_rummy.server.storage.Database` given.

    >>> type(open_storage(":memory:")).__name__
    'SqliteStore'
    """
    if isinstance(db, Database):
        return db
    if db.startswith(("postgresql://", "postgres://")):
        from persian_rummy.server.postgres import PostgresStore

        return PostgresStore(db)
    try:
        return SqliteStore(db)
    except (sqlite3.Error, ValueError, OSError) as error:  # no such folder, not a database, a null byte
        raise StoreUnavailable(f"the SQLite database {excerpt(db)} cannot be opened: {error}") from None


def create_app(
    db: str | Database = "persian-rummy.sqlite3",
    *,
    bot_delay: float = 0.0,
    limits: Limits = DEFAULT_LIMITS,
    clock: Callable[[], float] = time.monotonic,
) -> Starlette:
    """The Starlette application of a table server storing its games in ``db``
    (:func:`~persian_rummy.server.app.open_storage`: a SQLite file, or a PostgreSQL database several workers may
    share); on start it replays every unfinished game found there. ``app.state.server`` is
    the :class:`~persian_rummy.server.hub.Server` (``bot_delay``, ``limits`` and ``clock`` are
    its own).

    >>> create_app(":memory:").state.server.tables
    {}
    """
    app = Starlette(
        routes=_ROUTES,
        middleware=[Middleware(_SecurityHeaders), Middleware(_BodyLimit, limit=limits.body_bytes)],
        exception_handlers={PersianRummyError: _refused},
        lifespan=_lifespan,
    )
    if not callable(clock):  # before the database is opened
        raise ArgumentTypeError(f"a clock is a function that returns seconds, not {excerpt(clock)}")
    app.state.server = Server(open_storage(db), bot_delay=bot_delay, limits=limits, clock=clock)
    return app
