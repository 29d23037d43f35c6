"""The ASGI application: HTTP pages, the table API and one WebSocket per seat or spectator.

:func:`~persian_rummy.server.create_app` builds a Starlette application around a :class:`Server`, which owns the
tables in memory, their SQLite :class:`~persian_rummy.server.store.Store`, the open
connections and the bots. Every message from a client goes through :meth:`Server.receive`:
it is size- and rate-limited, parsed, and answered with an error frame when it is bad, never
with a crash. An action is applied by the table for the seat its token opens
(``play(..., seat=...)``), written to SQLite, acknowledged to its sender and then sent to
every connection of the table as that seat's (or the spectators') frame.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(":memory:")) as client:
...     created = client.post("/api/tables", json={"seats": ["human", "greedy", "greedy", "greedy"]}).json()
...     with client.websocket_connect(f"/ws/{created['seats'][0]['token']}") as ws:
...         welcome, first = ws.receive_json(), ws.receive_json()
>>> sorted(created), [seat["bot"] for seat in created["seats"]]
(['id', 'seats', 'spectator'], [None, 'greedy', 'greedy', 'greedy'])
>>> welcome["type"], first["type"], first["seat"], first["view"]["seat"]
('welcome', 'state', 0, 0)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Mapping
from importlib import resources
from typing import Any, Final
from urllib.parse import parse_qs

import attrs
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from persian_rummy.actions import Action
from persian_rummy.errors import NotationError, NotYourTurnError, PersianRummyError
from persian_rummy.rules import Rules
from persian_rummy.server.pages import created, lobby, problem, table_page
from persian_rummy.server.store import Store
from persian_rummy.server.tables import HUMAN, Table, new_token
from persian_rummy.state import PLAYERS, SEAT_NAMES, Phase

__all__ = ["Connection", "Limits", "Server", "create_app"]

#: Seconds a frame may wait for a client that does not read before the client is dropped.
SEND_TIMEOUT: Final = 10.0
_STATIC: Final = {"table.js": "text/javascript", "table.css": "text/css"}
# No inline script, no other origin, no framing, and no token in a Referer header.
_HEADERS: Final = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


@attrs.frozen
class Limits:
    """What one client may send: ``message_bytes`` per WebSocket message, ``rate`` messages a
    second on average with bursts of ``burst`` (a token bucket per connection), and
    ``strikes`` refused-for-rate messages before the connection is closed; ``body_bytes`` per
    HTTP request body and ``tables`` live tables in all.

    >>> Limits().message_bytes, Limits().rate
    (4096, 20.0)
    """

    message_bytes: int = 4096
    rate: float = 20.0
    burst: float = 40.0
    strikes: int = 50
    body_bytes: int = 4096
    tables: int = 10_000


class _Bucket:
    """A token bucket: :meth:`take` says whether one more message fits the rate."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class Connection:
    """One open WebSocket of a table: for a seat (0-3) or a spectator (``seat`` is ``None``),
    with its own rate limit. :meth:`send` never raises: a connection that went away is
    marked ``closed``."""

    def __init__(self, websocket: WebSocket, table: Table, seat: int | None, limits: Limits) -> None:
        self.websocket = websocket
        self.table = table
        self.seat = seat
        self.bucket = _Bucket(limits.rate, limits.burst)
        self.strikes = 0
        self.closed = False

    async def send(self, frame: Mapping[str, Any]) -> None:
        """Send one frame as JSON text, unless the connection is closed. A client that does
        not read for ``SEND_TIMEOUT`` seconds is dropped, so it cannot hold up its table."""
        if self.closed or self.websocket.application_state is not WebSocketState.CONNECTED:
            return
        try:
            await asyncio.wait_for(self.websocket.send_text(json.dumps(frame, separators=(",", ":"))), SEND_TIMEOUT)
        except (WebSocketDisconnect, RuntimeError, OSError, asyncio.TimeoutError):
            self.closed = True


def _error(code: str, reason: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "reason": reason, **extra}


class Server:
    """The tables of one server, their database and their connections.

    ``bot_delay`` is the pause (seconds) before each bot move, so people can follow the
    game; tests use 0.

    >>> server = Server(Store(":memory:"))
    >>> table, links = server.create_table(["human", "random", "human", "random"])
    >>> [seat for seat, _ in links["seats"]], links["spectator"] != links["seats"][0][1]
    ([0, 2], True)
    """

    def __init__(self, store: Store, *, bot_delay: float = 0.0, limits: Limits = Limits()) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.players: dict[tuple[str, int], Connection] = {}
        self.spectators: dict[str, set[Connection]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._writer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="persian-rummy-store")

    # --- tables ----------------------------------------------------------------------------

    def create_table(
        self,
        seats: list[str],
        *,
        rules: Rules = Rules(),
        names: list[str] | None = None,
        seed: int | None = None,
        dealer: int | None = None,
    ) -> tuple[Table, dict[str, Any]]:
        """Create, store and start a table; returns it and its secret tokens
        (``{"seats": [(seat, token), ...], "spectator": token}``, people's seats only). The
        seed and first dealer are random unless given (tests give them). Raises
        :class:`~persian_rummy.NotationError` for a bad seat kind or name."""
        if self.is_full:
            raise NotationError(f"the server already has {self.limits.tables} tables in play")
        table = Table.new(
            seats=seats, rules=rules, names=SEAT_NAMES if names is None else names, seed=seed, dealer=dealer
        )
        tokens: dict[str, int | None] = {new_token(): seat for seat in range(PLAYERS) if seats[seat] == HUMAN}
        spectator = new_token()
        tokens[spectator] = None
        self.store.add_table(table, tokens)
        self._adopt(table)
        return table, {
            "seats": [(seat, token) for token, seat in tokens.items() if seat is not None],
            "spectator": spectator,
        }

    @property
    def is_full(self) -> bool:
        """Whether the server has as many tables in play as :class:`Limits` allows."""
        return sum(not table.finished for table in self.tables.values()) >= self.limits.tables

    def _adopt(self, table: Table) -> None:
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.spectators[table.id] = set()
        self._start_bots(table)

    def resume_all(self) -> int:
        """Replay every unfinished table from the database (on start); returns how many."""
        tables = self.store.unfinished()
        for table in tables:
            self._adopt(table)
        return len(tables)

    def open(self, token: str) -> tuple[Table, int | None] | None:
        """The table (loaded from the database if need be) and seat a token opens, or ``None``."""
        found = self.store.find_token(token) if 8 <= len(token) <= 64 else None
        if found is None:
            return None
        table_id, seat = found
        if table_id not in self.tables:
            table = self.store.load(table_id)
            if table is None:
                return None
            self._adopt(table)
        return self.tables[table_id], seat

    # --- actions ---------------------------------------------------------------------------

    async def accept(self, table: Table, seat: int, action: Action, sender: Connection | None = None,
                     request_id: object = None) -> None:  # fmt: skip
        """Apply ``action`` for ``seat`` (under the table's lock), store it, acknowledge it to
        ``sender`` and send every connection its new frame. Raises what the table raises."""
        before = table.state
        action, after = table.check(seat, action)
        # The commit (an fsync) runs on the store's own thread: the event loop serves the other
        # tables meanwhile, and this table's lock keeps its actions in order.
        store = functools.partial(self.store.add_action, finished=after.phase is Phase.GAME_OVER)
        await asyncio.get_running_loop().run_in_executor(
            self._writer, store, table.id, table.seq + 1, seat, str(action)
        )
        table.commit(action, after)
        if sender is not None:
            await sender.send({"type": "ack", "seq": table.seq, "action": str(action), "id": request_id})
        last = {"seat": seat, "action": str(action), "seq": table.seq}
        if table.state.deal_number != before.deal_number and table.ended is not None:
            await self._broadcast(table, last, table.ended)
            last = {"seat": None, "action": "deal", "seq": table.seq}
        await self._broadcast(table, last)
        self._start_bots(table)

    async def _broadcast(self, table: Table, last: dict[str, Any], state: Any = None) -> None:
        for seat in range(PLAYERS):
            connection = self.players.get((table.id, seat))
            if connection is not None:
                await connection.send(table.frame(seat, state, last))
        watchers = self.spectators.get(table.id, set())
        if watchers:
            frame = table.frame(None, state, last)
            for connection in list(watchers):
                await connection.send(frame)

    def _start_bots(self, table: Table) -> None:
        state = table.state
        if state.phase.is_live and table.bots[state.current_player] is not None:
            task = asyncio.get_running_loop().create_task(self._drive_bots(table)) if _loop_running() else None
            if task is not None:
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _drive_bots(self, table: Table) -> None:
        """Play the bots' moves while a bot is to act (one driver per move: each accepted move
        starts the next)."""
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        async with self.locks[table.id]:
            state = table.state
            seat = state.current_player
            bot = table.bots[seat]
            if bot is None or not state.phase.is_live:
                return
            action = await asyncio.to_thread(bot, state.view(seat))
            if table.state is state:
                await self.accept(table, seat, action)

    async def close(self) -> None:
        """Stop the bots and close the database."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._writer.shutdown()
        self.store.close()

    # --- connections ------------------------------------------------------------------------

    async def connect(self, websocket: WebSocket, token: str) -> None:
        """Serve one WebSocket until it closes."""
        await websocket.accept()
        opened = self.open(token)
        if opened is None:
            await websocket.send_text(json.dumps(_error("unknown_token", "this link opens no table")))
            await websocket.close(code=4404)
            return
        table, seat = opened
        connection = Connection(websocket, table, seat, self.limits)
        try:
            # Under the table's lock: the welcome and the current frame go out before any
            # broadcast can reach the new connection, so frames never arrive out of order.
            async with self.locks[table.id]:
                await connection.send(
                    {
                        "type": "welcome",
                        "table": table.id,
                        "seat": seat,
                        "role": "spectator" if seat is None else "player",
                        "names": list(table.names),
                    }
                )
                await connection.send(table.frame(seat))
                if seat is None:
                    self.spectators[table.id].add(connection)
                else:
                    previous = self.players.get((table.id, seat))
                    self.players[(table.id, seat)] = connection
                    if previous is not None:
                        await previous.send(_error("superseded", "this seat was opened in another window"))
                        previous.closed = True
                        with contextlib.suppress(RuntimeError, OSError):
                            await previous.websocket.close(code=4409)
            while not connection.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not await self.receive(connection, message):
                    break
        except WebSocketDisconnect:
            pass
        finally:
            connection.closed = True
            if seat is None:
                self.spectators[table.id].discard(connection)
            elif self.players.get((table.id, seat)) is connection:
                del self.players[(table.id, seat)]

    async def receive(self, connection: Connection, message: Mapping[str, Any]) -> bool:
        """Handle one message from a client; returns ``False`` when the connection must close."""
        text = message.get("text")
        if not connection.bucket.take():
            connection.strikes += 1
            if connection.strikes > self.limits.strikes:
                await connection.send(_error("rate_limited", "too many messages: closing"))
                await connection.websocket.close(code=1008)
                return False
            await connection.send(_error("rate_limited", f"at most {self.limits.rate:g} messages a second"))
            return True
        if text is None:
            await connection.send(_error("bad_frame", "messages are JSON text, not binary"))
            return True
        if (
            len(text) > self.limits.message_bytes
            or len(text.encode("utf-8", "surrogatepass")) > self.limits.message_bytes
        ):
            await connection.send(_error("too_large", f"a message is at most {self.limits.message_bytes} bytes"))
            return True
        try:
            frame = json.loads(text)
        except (ValueError, RecursionError):
            await connection.send(_error("bad_frame", "a message is one JSON object"))
            return True
        if not isinstance(frame, dict) or frame.get("type") not in ("action", "ping"):
            await connection.send(
                _error("bad_frame", 'a message is {"type": "action", "action": "..."} or {"type": "ping"}')
            )
            return True
        request_id = frame.get("id")
        if not (request_id is None or (isinstance(request_id, int | str) and len(str(request_id)) <= 40)):
            await connection.send(_error("bad_frame", "an id is a number or a short text"))
            return True
        if frame["type"] == "ping":
            await connection.send({"type": "pong", "id": request_id})
            return True
        if connection.seat is None:
            await connection.send(_error("spectator", "a spectator link cannot play", id=request_id))
            return True
        text_action = frame.get("action")
        if not isinstance(text_action, str):
            await connection.send(_error("bad_frame", 'an action is its text, such as "draw"', id=request_id))
            return True
        try:
            action = Action.parse(text_action)
        except NotationError as error:
            await connection.send(_error("bad_action", error.reason, id=request_id))
            return True
        async with self.locks[connection.table.id]:
            try:
                await self.accept(connection.table, connection.seat, action, connection, request_id)
            except sqlite3.Error:
                # Not stored, so not played: the table is unchanged and the client may retry.
                await connection.send(_error("unavailable", "the action could not be stored: try again", id=request_id))
            except NotYourTurnError as error:
                await connection.send(_error("not_your_turn", error.reason, id=request_id, action=str(action)))
            except PersianRummyError as error:
                await connection.send(_error("refused", error.reason, id=request_id, action=str(action)))
        return True


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


# --- HTTP --------------------------------------------------------------------------------------


def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status, headers=_HEADERS)


async def _body(request: Request, limit: int) -> bytes | None:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


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


def create_app(
    db: str | Store = "persian-rummy.sqlite3", *, bot_delay: float = 0.0, limits: Limits = Limits()
) -> Starlette:
    """The Starlette application of a table server storing its games in the SQLite file
    ``db`` (or a :class:`~persian_rummy.server.store.Store`); on start it replays every
    unfinished game found there. ``app.state.server`` is the :class:`~persian_rummy.server.app.Server`.

    >>> create_app(":memory:").state.server.tables
    {}
    """
    server = Server(db if isinstance(db, Store) else Store(db), bot_delay=bot_delay, limits=limits)

    async def lobby_page(request: Request) -> Response:
        return _html(lobby())

    async def create_form(request: Request) -> Response:
        body = await _body(request, limits.body_bytes)
        if body is None:
            return _html(problem("The form is too large."), 413)
        if server.is_full:
            return _html(problem("The server is full: try again later."), 503)
        fields = parse_qs(body.decode("utf-8", "replace"), max_num_fields=20)
        knobs = fields.get("knobs", [""])[0].strip()
        data = {
            "seats": [fields.get(f"seat{seat}", [HUMAN])[0] for seat in range(PLAYERS)],
            "rules": knobs or fields.get("preset", ["default"])[0],
            "names": [fields.get(f"name{seat}", [""])[0].strip() or SEAT_NAMES[seat] for seat in range(PLAYERS)],
        }
        try:
            seats, rules, names = _table_spec(data)
            table, tokens = server.create_table(seats, rules=rules, names=names)
        except PersianRummyError as error:
            return _html(problem(error.reason), 400)
        return _html(created(table, tokens, str(request.base_url).rstrip("/")), 201)

    async def create_json(request: Request) -> Response:
        body = await _body(request, limits.body_bytes)
        if body is None:
            return JSONResponse({"error": "the request is too large"}, 413, headers=_HEADERS)
        if server.is_full:
            return JSONResponse({"error": "the server is full: try again later"}, 503, headers=_HEADERS)
        try:
            data = json.loads(body)
            if not isinstance(data, dict):
                raise ValueError
        except (ValueError, RecursionError):
            return JSONResponse({"error": "the request is one JSON object"}, 400, headers=_HEADERS)
        try:
            seats, rules, names = _table_spec(data)
            table, tokens = server.create_table(seats, rules=rules, names=names)
        except PersianRummyError as error:
            return JSONResponse({"error": error.reason}, 400, headers=_HEADERS)
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
            headers=_HEADERS,
        )

    async def seat_page(request: Request) -> Response:
        opened = server.open(request.path_params["token"])
        if opened is None:
            return _html(problem("This link opens no table."), 404)
        table, seat = opened
        return _html(table_page(table, seat))

    async def record(request: Request) -> Response:
        opened = server.open(request.path_params["token"])
        table, seat = opened if opened is not None else (None, None)
        if table is None or seat is None:
            return PlainTextResponse("This link has no record to download.", 404, headers=_HEADERS)
        async with server.locks[table.id]:
            text = table.record_text(seat)
        headers = dict(_HEADERS)
        headers["Content-Disposition"] = (
            f'attachment; filename="persian-rummy-{table.id}-{SEAT_NAMES[seat].lower()}.prr"'
        )
        return PlainTextResponse(text, headers=headers)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return PlainTextResponse("not found", 404, headers=_HEADERS)
        text = resources.files("persian_rummy.server").joinpath("static").joinpath(name).read_text(encoding="utf-8")
        return Response(text, media_type=_STATIC[name], headers={**_HEADERS, "Cache-Control": "max-age=300"})

    async def websocket(websocket: WebSocket) -> None:
        await server.connect(websocket, websocket.path_params["token"])

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.resume_all()
        yield
        await server.close()

    app = Starlette(
        routes=[
            Route("/", lobby_page),
            Route("/tables", create_form, methods=["POST"]),
            Route("/api/tables", create_json, methods=["POST"]),
            Route("/play/{token}", seat_page),
            Route("/watch/{token}", seat_page),
            Route("/record/{token}", record),
            Route("/static/{name}", static),
            WebSocketRoute("/ws/{token}", websocket),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app
