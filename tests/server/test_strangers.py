"""What a stranger can do to the table server, and what it must not: fill it with tables (one
client, or another site's page through its visitors' browsers), play from a window that was
replaced, crash it with a form, stall it through a token lookup, cost it a frame per
spectator, or hold unlimited connections; and what every response carries (R27: no secret
leaves through a header or a cache)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from clients import server_of
from live import execute, free_port, start_serve, stop_serve
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from waiting import DEFAULT_LIMIT, join, wait_until

from persian_rummy import ArgumentTypeError, InvalidArgumentError, PlayerView
from persian_rummy.bots import RandomBot
from persian_rummy.server import Limits, create_app
from persian_rummy.server.hub import Server
from persian_rummy.server.quotas import CapacityError
from persian_rummy.server.storage import Database

HUMANS = ["human"] * 4
SEATS = {"seats": HUMANS}
STRANGER = "198.51.100.7"  # another client address than the test client's


def new_table(client: TestClient, seats: list[str] = HUMANS, *, owner: str = "") -> tuple[str, dict[int, str], str]:
    assert client.portal is not None
    options = {"client": owner} if owner else {}
    table, tokens = client.portal.call(lambda: server_of(client).create_table(seats, seed=1, dealer=0, **options))
    return table.id, dict(tokens["seats"]), tokens["spectator"]


@contextlib.contextmanager
def serving(path: str, **limits: Any) -> Iterator[TestClient]:
    with TestClient(create_app(path, limits=Limits(**limits))) as client:
        yield client


@contextlib.contextmanager
def joined(client: TestClient, token: str) -> Iterator[Any]:
    with client.websocket_connect(f"/ws/{token}") as ws:
        assert ws.receive_json()["type"] == "welcome"
        assert ws.receive_json()["type"] == "state"
        yield ws


# --- 1. one client cannot lock everyone out ---------------------------------------------------


def test_one_client_has_a_bounded_number_of_tables_and_others_still_get_theirs(client_path: str) -> None:
    with serving(client_path) as client:  # the default limits
        for _ in range(20):
            assert client.post("/api/tables", json=SEATS).status_code == 201
        refused = client.post("/api/tables", json=SEATS)
        assert refused.status_code == 429 and "20 tables" in refused.json()["error"]
        form = client.post("/tables", content=b"seat0=human&seat1=greedy&seat2=greedy&seat3=greedy")
        assert form.status_code == 429 and "20 tables" in form.text
        assert len(server_of(client).tables) == 20  # a refused request changes nothing
        new_table(client, owner=STRANGER)  # another client is not held up
        assert len(server_of(client).tables) == 21


def test_an_ipv6_client_is_counted_by_its_64_network(client_path: str) -> None:
    app = create_app(client_path, limits=Limits(tables_per_client=2))
    with TestClient(app):  # started once; the clients below are of other addresses
        for host, expected in [("2001:db8:1:2::1", 201), ("2001:db8:1:2:ffff::9", 201), ("2001:db8:1:2::77", 429)]:
            assert TestClient(app, client=(host, 50000)).post("/api/tables", json=SEATS).status_code == expected
        assert TestClient(app, client=("2001:db8:1:3::1", 50000)).post("/api/tables", json=SEATS).status_code == 201
        assert sorted({table.owner for table in server_of(app).tables.values()}) == [
            "2001:db8:1:2::/64",
            "2001:db8:1:3::/64",
        ]


def test_tables_nobody_plays_expire_and_stay_expired_after_a_restart(client_path: str) -> None:
    path = client_path
    with serving(path, tables=3) as client:
        links = [client.post("/api/tables", json=SEATS).json() for _ in range(3)]
        played = links[2]
        mover = server_of(client).tables[played["id"]].state.current_player  # the dealer is random
        with joined(client, played["seats"][mover]["token"]) as ws:
            ws.send_json({"type": "action", "action": "draw"})
            assert ws.receive_json()["type"] == "ack"
        assert client.post("/api/tables", json=SEATS).status_code == 503  # full, as in the report
    # an hour and more later: the two tables nobody played on expire, the played one stays
    execute(path, "UPDATE tables SET created = '2001-01-01 00:00:00'")
    with serving(path, tables=3) as client:
        assert set(server_of(client).tables) == {played["id"]}
        assert client.post("/api/tables", json=SEATS).status_code == 201
        for gone in links[:2]:
            assert client.get(gone["seats"][0]["url"]).status_code == 404
            with client.websocket_connect(f"/ws/{gone['spectator']['token']}") as ws:
                assert ws.receive_json()["code"] == "unknown_token"
        assert client.get(played["seats"][0]["url"]).status_code == 200
    with serving(path, tables=3) as client:  # and after one more restart
        assert len(server_of(client).tables) == 2


def test_a_table_in_memory_expires_and_its_connections_are_told(client_path: str) -> None:
    with serving(client_path, unplayed_seconds=60) as client:
        table_id, tokens, spectator = new_table(client, ["greedy", "greedy", "greedy", "human"])
        server = server_of(client)
        with joined(client, spectator) as ws:
            assert client.portal is not None
            # A minute later: the bots may have played; no person has.
            assert client.portal.call(server.expire, time.time() + 61) == [table_id]
            while (frame := ws.receive_json())["type"] == "state":
                pass
            assert frame["code"] == "expired"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4410
        assert table_id not in server.tables and client.get(f"/play/{tokens[3]}").status_code == 404


def test_a_finished_game_leaves_memory_and_opens_again_from_the_database(client_path: str) -> None:
    # No rate limit here: West answers every frame at once, faster than a person (a refused
    # message would leave it waiting for a frame that never comes).
    with serving(client_path, rate=1e6, burst=1e6) as client:
        table_id, tokens, spectator = new_table(client, ["random"] * 3 + ["human"])
        server = server_of(client)
        table = server.tables[table_id]
        # West plays from its first frame on: the bots may have played up to its turn before it
        # joined, and then no other frame comes until it acts.
        with client.websocket_connect(f"/ws/{tokens[3]}") as west:
            assert west.receive_json()["type"] == "welcome"
            bot = RandomBot(3)
            while not table.finished:
                frame = west.receive_json()
                if frame["type"] == "state" and frame["legal"]:
                    view = PlayerView.from_json(json.dumps(frame["view"]))
                    west.send_json({"type": "action", "action": str(bot(view))})
        record = client.get(f"/record/{tokens[3]}").text
        assert client.portal is not None
        client.portal.call(server.expire)
        assert table_id in server.tables  # finished a moment ago
        table.touched -= 601
        with joined(client, spectator):
            client.portal.call(server.expire)
            assert table_id in server.tables  # someone is watching
        live = server.live_table(table_id)
        assert live is not None
        wait_until(lambda: not live.is_watched, "the server to see the spectator go")
        client.portal.call(server.expire)
        assert table_id not in server.tables and server.live_table(table_id) is None and live.ended
        assert client.get(f"/record/{tokens[3]}").text == record  # loaded again, not expired
        assert server.tables[table_id].finished


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "https://elsewhere.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}],
)
def test_a_table_is_not_created_from_another_sites_page(client_path: str, headers: dict[str, str]) -> None:
    with serving(client_path) as client:
        form = client.post("/tables", content=b"seat0=human&seat1=greedy&seat2=greedy&seat3=greedy", headers=headers)
        assert form.status_code == 403 and "another site" in form.text
        assert client.post("/api/tables", json=SEATS, headers=headers).status_code == 403
        assert server_of(client).tables == {}
        own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
        assert client.post("/tables", content=b"seat0=human", headers=own).status_code == 201


@pytest.fixture
def client_path(db: str) -> str:
    """Where the server stores its games: a SQLite file or a PostgreSQL database (``db``)."""
    return db


@pytest.fixture
def sqlite_path(tmp_path: Any) -> str:
    """A SQLite file, for what is SQLite's alone (its first schema, its writing connection)."""
    return str(tmp_path / "games.sqlite3")


# --- 2. a replaced window cannot play -----------------------------------------------------------


def test_a_window_replaced_while_its_action_waits_does_not_play_it(client_path: str) -> None:
    with serving(client_path) as client:
        table_id, tokens, _ = new_table(client)
        server = server_of(client)
        live = server.live_table(table_id)
        assert live is not None
        table, lock = live.table, live.lock
        assert client.portal is not None
        with joined(client, tokens[1]) as old:
            client.portal.call(lock.acquire)  # the table is busy (as while a frame goes out)
            with client.websocket_connect(f"/ws/{tokens[1]}") as new:

                def waiting_for_the_lock() -> int:
                    assert client.portal is not None
                    return client.portal.call(lambda: len(lock._waiters or ()))  # type: ignore[attr-defined]

                wait_until(lambda: waiting_for_the_lock() >= 1, "the new window to wait for the table")
                old.send_json({"type": "action", "action": "draw", "id": 1})  # R6: East may draw
                wait_until(lambda: waiting_for_the_lock() >= 2, "the old window's action to wait for the table")
                client.portal.call(lock.release)  # the new window takes the seat, then the old action is asked
                assert new.receive_json()["type"] == "welcome" and new.receive_json()["seq"] == 0
                assert old.receive_json()["code"] == "superseded"
                with pytest.raises(WebSocketDisconnect) as closed:
                    old.receive_json()
                assert closed.value.code == 4409
                new.send_json({"type": "ping", "id": "after"})
                assert new.receive_json() == {"type": "pong", "id": "after"}  # no state frame came first
                assert table.seq == 0
                new.send_json({"type": "action", "action": "draw", "id": 2})
                assert new.receive_json()["type"] == "ack" and table.seq == 1


# --- 3. a form of many fields ------------------------------------------------------------------


@pytest.mark.parametrize("fields", [21, 200])
def test_a_form_of_too_many_fields_is_refused_not_a_crash(client_path: str, fields: int) -> None:
    with serving(client_path) as client:
        body = "&".join(f"f{number}=x" for number in range(fields)).encode()
        refused = client.post("/tables", content=body)
        assert refused.status_code == 400 and "at most 20 fields" in refused.text
        assert server_of(client).tables == {}


# --- 4. the icon -------------------------------------------------------------------------------


def test_every_page_has_an_icon_that_is_served(client_path: str) -> None:
    with serving(client_path) as client:
        _, tokens, spectator = new_table(client)
        for path in ("/", f"/play/{tokens[0]}", f"/watch/{spectator}"):
            page = client.get(path).text
            assert '<link rel="icon" href="/static/favicon.svg"' in page
        for path in ("/static/favicon.svg", "/favicon.ico"):
            icon = client.get(path)
            assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
            assert icon.text.startswith("<svg")


# --- lesser points -----------------------------------------------------------------------------


def test_a_table_seed_has_128_random_bits_and_is_stored_whole(client_path: str) -> None:
    with serving(client_path) as client:
        ids = [client.post("/api/tables", json=SEATS).json()["id"] for _ in range(8)]
        tables = server_of(client).tables
        seeds = {table_id: tables[table_id].seed for table_id in ids}
        states = {table_id: tables[table_id].state for table_id in ids}
        assert max(seed.bit_length() for seed in seeds.values()) > 64  # all eight under 2**64: p = 2**-512
    with serving(client_path) as client:
        tables = server_of(client).tables
        assert {table_id: tables[table_id].seed for table_id in ids} == seeds
        assert {table_id: tables[table_id].state for table_id in ids} == states


def test_a_database_of_the_first_schema_opens_and_its_tables_resume(sqlite_path: str) -> None:
    client_path = sqlite_path
    with sqlite3.connect(client_path) as db:
        db.executescript(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, created TEXT NOT NULL DEFAULT (datetime('now')), "
            "rules TEXT NOT NULL, seed INTEGER NOT NULL, dealer INTEGER NOT NULL, seats TEXT NOT NULL, "
            "names TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0);"
            "CREATE TABLE tokens (digest TEXT PRIMARY KEY, table_id TEXT NOT NULL, seat INTEGER);"
            "CREATE TABLE actions (table_id TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, "
            "action TEXT NOT NULL, PRIMARY KEY (table_id, seq));"
            """INSERT INTO tables (id, rules, seed, dealer, seats, names) VALUES ('old', 'default', 7, 0,
            '["human", "human", "human", "human"]', '["North", "East", "South", "West"]');"""
            "INSERT INTO actions VALUES ('old', 1, 1, 'draw');"
        )
    with serving(client_path) as client:
        table = server_of(client).tables["old"]
        assert table.seed == 7 and table.seq == 1 and table.played
        assert client.post("/api/tables", json=SEATS).status_code == 201  # a 128-bit seed in the old column
    with serving(client_path) as client:
        assert len(server_of(client).tables) == 2


def test_every_response_carries_the_security_headers(client_path: str) -> None:
    with serving(client_path) as client:
        _, tokens, _ = new_table(client)
        responses = {
            "page": client.get(f"/play/{tokens[0]}"),
            "not found": client.get("/no/such/page"),
            "wrong method": client.get("/tables"),
            "too large": client.post("/api/tables", content=b" " * 5000),
            "bad request": client.post("/api/tables", content=b"{"),
            "static": client.get("/static/table.js"),
            "static missing": client.get("/static/nothing.js"),
        }
        assert [response.status_code for response in responses.values()] == [200, 404, 405, 413, 400, 200, 404]
        for name, response in responses.items():
            headers = response.headers
            assert "frame-ancestors 'none'" in headers.get("content-security-policy", ""), name
            assert headers.get("x-content-type-options") == "nosniff", name
            assert headers.get("referrer-policy") == "no-referrer", name
            expected = "max-age=300" if name.startswith("static") else "no-store"
            assert headers.get("cache-control") == expected, name
        # the lobby, which holds no secret, lets its form carry this server's Origin
        lobby = client.get("/").headers
        assert lobby["referrer-policy"] == "same-origin" and lobby["cache-control"] == "no-store"


async def handshake_headers(url: str) -> dict[str, str]:
    import websockets

    async with websockets.connect(url, open_timeout=60) as socket:
        assert socket.response is not None
        return {name.lower(): value for name, value in socket.response.headers.raw_items()}


def test_the_served_server_does_not_name_itself_nor_compress_frames(client_path: str) -> None:
    port = free_port()
    # On PostgreSQL, as two workers: uvicorn's workers are given the same options.
    shared = client_path.startswith("postgresql://")
    process = start_serve(client_path, port, workers=2) if shared else start_serve(client_path, port)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as response:
            assert "server" not in {name.lower() for name in response.headers}
            assert response.headers["content-security-policy"]
        # the client offers permessage-deflate; the server declines: compressing every frame
        # cost more processor time than drawing it
        headers = asyncio.run(handshake_headers(f"ws://127.0.0.1:{port}/ws/no-such-token-here"))
        assert "server" not in headers and "sec-websocket-extensions" not in headers
    finally:
        stop_serve(process)  # its workers too


def test_a_frame_is_written_once_for_all_the_spectators(client_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = json.dumps
    written: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> str:
        written.append(1)
        return real(*args, **kwargs)

    def encodings_of_one_action(spectators: int) -> int:
        with serving(client_path) as client, contextlib.ExitStack() as stack:
            _, tokens, spectator = new_table(client)
            east = stack.enter_context(joined(client, tokens[1]))
            watchers = [stack.enter_context(joined(client, spectator)) for _ in range(spectators)]
            monkeypatch.setattr(json, "dumps", counting)
            written.clear()
            east.send_json({"type": "action", "action": "draw"})
            assert east.receive_json()["type"] == "ack" and east.receive_json()["seq"] == 1
            frames = [watcher.receive_text() for watcher in watchers]
            count = len(written)
            monkeypatch.setattr(json, "dumps", real)
            assert len(set(frames)) == 1 and json.loads(frames[0])["view"]["hand"] is None
            return count

    assert encodings_of_one_action(1) == encodings_of_one_action(20)


def test_connections_are_capped_per_table_and_per_client(client_path: str) -> None:
    with serving(client_path, spectators=2, connections_per_client=5) as client, contextlib.ExitStack() as stack:
        _, tokens, spectator = new_table(client)
        _, others, _ = new_table(client)
        for _ in range(2):
            stack.enter_context(joined(client, spectator))
        with client.websocket_connect(f"/ws/{spectator}") as ws:
            assert ws.receive_json()["code"] == "too_many_connections"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
        for seat in (0, 1, 2):  # the seats still open: 5 connections from this address
            stack.enter_context(joined(client, tokens[seat]))
        with client.websocket_connect(f"/ws/{others[0]}") as ws:
            error = ws.receive_json()
            assert error["code"] == "too_many_connections" and "5 connections" in error["reason"]
        assert server_of(client).clients["testclient"] == 5


# --- reads do not wait for the writer ---------------------------------------------------------


class SlowCommit:
    """The store's writing connection, its action inserts held until ``release`` is set (an
    fsync that takes long)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.entered, self.release, self.done = threading.Event(), threading.Event(), threading.Event()

    def execute(self, sql: str, *args: Any) -> Any:
        return self._held(self.db.execute, sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        return self._held(self.db.executemany, sql, *args)

    def _held(self, run: Any, sql: str, *args: Any) -> Any:
        if sql.startswith("INSERT INTO actions"):
            self.entered.set()
            assert self.release.wait(DEFAULT_LIMIT)  # the test always sets it; this only ends a hang
            result = run(sql, *args)
            self.done.set()
            return result
        return run(sql, *args)

    def __enter__(self) -> Any:
        return self.db.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self.db.__exit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


@contextlib.contextmanager
def commit_held(path: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, dict[int, str], SlowCommit]]:
    """A server whose writer is in the middle of committing East's draw (held until
    ``release`` is set); after the block, East has its acknowledgement."""
    with serving(path) as client:
        _, tokens, _ = new_table(client)
        store = server_of(client).store
        assert store is not None
        slow = SlowCommit(store._db)
        monkeypatch.setattr(store, "_db", slow)
        with joined(client, tokens[1]) as east:
            east.send_json({"type": "action", "action": "draw"})
            assert slow.entered.wait(DEFAULT_LIMIT)
            try:
                yield client, tokens, slow
            finally:
                slow.release.set()
            assert east.receive_json()["type"] == "ack"


def test_opening_a_seat_does_not_wait_for_a_commit_in_progress(
    sqlite_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with commit_held(sqlite_path, monkeypatch) as (client, tokens, slow):
        page = client.get(f"/play/{tokens[0]}")  # a token looked up while the writer commits
        answered_during_the_commit = not slow.done.is_set()
        slow.release.set()
        assert page.status_code == 200 and answered_during_the_commit


def test_creating_a_table_does_not_stall_the_event_loop_during_a_commit(
    sqlite_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    client_path = sqlite_path
    # The table's row is stored on the store's thread, behind the commit in progress: the event
    # loop answers everyone else meanwhile, and the new table opens once it is stored.
    with commit_held(client_path, monkeypatch) as (client, _, slow):
        storage = server_of(client).storage
        add_table, storing = storage.add_table, threading.Event()

        async def add_table_noted(*args: Any, **options: Any) -> Any:
            storing.set()
            return await add_table(*args, **options)

        monkeypatch.setattr(storage, "add_table", add_table_noted)
        created: dict[str, Any] = {}
        creator = threading.Thread(
            target=lambda: created.update(response=client.post("/api/tables", json={"seats": ["human"] * 4})),
            daemon=True,
        )
        creator.start()
        # Until the new table is handed to the storage, whose thread is busy with the commit.
        assert storing.wait(DEFAULT_LIMIT)
        lobby = client.get("/")  # the event loop answers while the new table waits for the commit
        answered_during_the_commit = not slow.done.is_set() and "response" not in created
        slow.release.set()
        join(creator, "the table's creation")
        assert lobby.status_code == 200 and answered_during_the_commit
        response = created["response"]
        assert response.status_code == 201
        with joined(client, response.json()["seats"][0]["token"]):
            pass


def test_tables_created_together_on_two_servers_sharing_the_database_cannot_pass_a_limit(
    storage: Callable[[], Database],
) -> None:
    # Creations that wait for the database together, on one server or on two sharing the
    # database, are counted and stored one transaction at a time: of eight creations under
    # a limit of three, three tables are made and five refused.
    first = Server(storage(), limits=Limits(tables_per_client=3))
    shared = first.storage.shared
    second = Server(storage(), limits=Limits(tables_per_client=3)) if shared else first

    async def together() -> tuple[list[Any], int]:
        await first.start()
        if shared:
            await second.start()
        made = await asyncio.gather(
            *((first if number % 2 else second).create_table(["human"] * 4, client="192.0.2.7") for number in range(8)),
            return_exceptions=True,
        )
        in_play = len({*first.tables, *second.tables})
        await first.close()
        if shared:
            await second.close()
        return made, in_play

    made, in_play = asyncio.run(together())
    refused = [outcome for outcome in made if isinstance(outcome, CapacityError)]
    assert len(refused) == 5 and all("already has 3 tables" in error.reason for error in refused)
    assert len(made) - len(refused) == 3 == in_play


@pytest.mark.parametrize(
    ("text", "spectator", "code", "has_id"),
    [
        (None, False, "bad_frame", False),
        ("x" * 5000, False, "too_large", False),
        ("{", False, "bad_frame", False),
        ('{"type": "hello"}', False, "bad_frame", False),
        ('{"type": "ping", "id": [1]}', False, "bad_frame", False),
        ('{"type": "action", "action": "draw", "id": 4}', True, "spectator", True),
        ('{"type": "action", "action": 7, "id": 4}', False, "bad_frame", True),
        ('{"type": "action", "action": "fly away", "id": 4}', False, "bad_action", True),
    ],
)
def test_a_bad_message_is_refused_by_the_pure_parser_with_its_reason(
    text: str | None, spectator: bool, code: str, has_id: bool
) -> None:
    from persian_rummy.server.protocol import BadMessage, parse_message

    with pytest.raises(BadMessage) as refused:
        parse_message(text, 4096, spectator=spectator)
    frame = refused.value.frame().value()
    assert frame["code"] == code and frame["reason"] and ("id" in frame) == has_id
    assert parse_message('{"type": "action", "action": "take 2", "id": "a"}', 4096, spectator=False).id == "a"


_BAD_LIMITS = [
    *[(name, 0, InvalidArgumentError) for name in ("message_bytes", "body_bytes", "form_fields", "tables")],
    ("tables_per_client", 0, InvalidArgumentError),
    ("connections_per_client", 0, InvalidArgumentError),
    ("strikes", -1, InvalidArgumentError),
    ("spectators", -1, InvalidArgumentError),
    ("rate", 0, InvalidArgumentError),
    ("rate", -5.0, InvalidArgumentError),
    ("rate", float("nan"), InvalidArgumentError),
    ("rate", float("inf"), InvalidArgumentError),
    ("burst", 0.5, InvalidArgumentError),
    ("unplayed_seconds", 0.0, InvalidArgumentError),
    ("idle_seconds", -1, InvalidArgumentError),
    ("message_bytes", 4096.0, ArgumentTypeError),
    ("tables", True, ArgumentTypeError),
    ("rate", "20", ArgumentTypeError),
    ("idle_seconds", None, ArgumentTypeError),
]


@pytest.mark.parametrize(("name", "value", "error"), _BAD_LIMITS)
def test_limits_refuse_a_value_no_server_could_keep_where_it_enters(
    name: str, value: object, error: type[Exception]
) -> None:
    """A rate of 0 refuses every message, a count of 0 every table, and a client paced by such
    limits would never send: each is refused when the Limits value is made, naming the field,
    with the library's errors."""
    with pytest.raises(error, match=f"Limits.{name} must be"):
        Limits(**{name: value})


def test_limits_take_the_edges_that_make_sense() -> None:
    limits = Limits(strikes=0, spectators=0, burst=1, rate=0.01, tables=np.int64(3))
    assert (limits.burst, limits.tables) == (1, 3)


def test_the_quotas_old_module_name_still_imports_with_a_warning_naming_the_new() -> None:
    import importlib
    import sys

    from persian_rummy.server import quotas

    sys.modules.pop("persian_rummy.server.limits", None)
    with pytest.warns(DeprecationWarning, match=r"server.limits is now persian_rummy.server.quotas"):
        old = importlib.import_module("persian_rummy.server.limits")
    assert (old.Limits, old.CapacityError, old.TokenBucket) == (quotas.Limits, quotas.CapacityError, quotas.TokenBucket)
