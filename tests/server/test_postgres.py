"""The PostgreSQL store: its schema's migrations (from an empty database, from the previous
version, together on two workers, a later version refused), and a database that goes away
and comes back: the server answers "unavailable", acknowledges nothing it did not store,
keeps serving, and connects again by itself."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from pgcluster import Cluster, binaries
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from persian_rummy import InvalidArgumentError, legal_actions
from persian_rummy.server import create_app
from persian_rummy.server.hub import Server
from persian_rummy.server.postgres import MIGRATIONS, PostgresStore, migrate, schema_version
from persian_rummy.server.protocol import CLOSE_CODES
from persian_rummy.server.storage import ActionRow, Conflict, StoreUnavailable, TokenRow, token_digest
from persian_rummy.server.tables import Table


def version_of(url: str) -> list[int]:
    with psycopg.connect(url, autocommit=True) as connection:
        return [row[0] for row in connection.execute("SELECT version FROM schema_version ORDER BY version")]


async def started(url: str) -> PostgresStore:
    store = PostgresStore(url)
    await store.start()
    return store


def test_an_empty_database_gets_every_version_once_even_from_two_workers_starting_together(
    pg_cluster: Cluster,
) -> None:
    url = pg_cluster.database()

    async def run() -> None:
        stores = await asyncio.gather(started(url), started(url))
        table = Table.new(seats=("human",) * 4, seed=3, dealer=0)
        await stores[0].add_table(table.row(), {"token-of-north": 0})
        assert await stores[1].find_token("token-of-north") == TokenRow(table.id, 0)
        # One key signs the notices of every worker, made once however many start together.
        assert len({store._key for store in stores}) == 1 and len(stores[0]._key) == 32
        for store in stores:
            await store.close()

    asyncio.run(run())
    assert version_of(url) == list(range(1, len(MIGRATIONS) + 1))


@pytest.mark.parametrize("previous", range(1, len(MIGRATIONS)))
def test_a_database_of_an_earlier_version_is_brought_up_and_its_games_resume(
    pg_cluster: Cluster, previous: int
) -> None:
    url = pg_cluster.database()

    async def first_version() -> None:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
            assert await migrate(connection, previous) == 0
            assert await schema_version(connection) == previous

    asyncio.run(first_version())
    table = Table.new(seats=("human", "greedy", "human", "greedy"), seed=11, dealer=0, table_id="old")
    with psycopg.connect(url, autocommit=True) as connection:  # as the previous version stored it
        connection.execute(
            "INSERT INTO tables (id, rules, seed, dealer, seats, names, owner) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            ("old", str(table.rules), f"{table.seed:#x}", 0, json.dumps(table.seats), json.dumps(table.names), "x"),
        )
        connection.execute("INSERT INTO tokens VALUES (%s, 'old', 0)", (token_digest("old-token-of-north"),))
        connection.execute("INSERT INTO actions VALUES ('old', 1, 1, 'draw')")
    table.apply(1, "draw")

    async def now() -> None:
        store = await started(url)
        (stored,) = await store.unfinished()
        resumed = Table.from_stored(stored)
        assert resumed.id == "old" and resumed.state == table.state and resumed.owner == "x"
        assert await store.find_token("old-token-of-north") == TokenRow("old", 0)
        # What the new version keeps works on the old rows: expiry reads them, a rematch is made.
        assert await store.expire(time.time(), Server(store).limits) == []
        assert await store.rematch_of("old") is None
        await store.close()

    asyncio.run(now())
    assert version_of(url) == list(range(1, len(MIGRATIONS) + 1))
    with psycopg.connect(url, autocommit=True) as connection:
        # Version 2 marks the tables of version 1 played where an action was stored.
        assert connection.execute("SELECT played, touched = created FROM tables").fetchall() == [(previous < 2, True)]


def test_a_database_of_a_later_version_is_refused_and_left_alone(pg_cluster: Cluster) -> None:
    url = pg_cluster.database()
    asyncio.run(started(url)).__class__  # noqa: B018 - made and brought up to date
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("INSERT INTO schema_version (version) VALUES (%s)", (len(MIGRATIONS) + 1,))

    async def refused() -> str:
        with pytest.raises(StoreUnavailable) as error:
            await started(url)
        return str(error.value)

    assert "upgrade persian-rummy" in asyncio.run(refused())
    assert version_of(url) == list(range(1, len(MIGRATIONS) + 2))

    async def bad_target() -> None:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
            with pytest.raises(InvalidArgumentError, match=f"versions are 0-{len(MIGRATIONS)}"):
                await migrate(connection, 7)

    asyncio.run(bad_target())


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A cluster of the test's own, to stop and start again."""
    folder, why = binaries()
    if folder is None:
        pytest.skip(why)
    with Cluster() as cluster:
        yield cluster


def receive_until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] == kind or frame.get("code") == kind:
            return frame


def test_a_database_that_goes_away_makes_the_server_answer_unavailable_and_come_back(own_cluster: Cluster) -> None:
    url = own_cluster.database()
    app = create_app(url)
    with TestClient(app) as client:
        server: Server = app.state.server
        assert client.portal is not None
        table, links = client.portal.call(lambda: server.create_table(["human"] * 4, seed=1, dealer=0))
        east = dict(links["seats"])[1]
        with client.websocket_connect(f"/ws/{east}") as ws:
            receive_until(ws, "state")
            ws.send_json({"type": "action", "action": "draw", "id": 1})
            assert receive_until(ws, "ack")["seq"] == 1
            own_cluster.stop("immediate")  # as a crash of the database
            discard = str(legal_actions(table.state)[-1])
            ws.send_json({"type": "action", "action": discard, "id": 2})
            refused = receive_until(ws, "error")
            assert refused["code"] == "unavailable" and refused["id"] == 2 and table.seq == 1
            # Meanwhile the worker serves on: a page answers 503, a new connection is told to
            # come back later, a ping is answered.
            assert client.post("/api/tables", json={"seats": ["human"] * 4}).status_code == 503
            with client.websocket_connect(f"/ws/{links['spectator']}") as other:
                assert other.receive_json()["code"] == "unavailable"
                with pytest.raises(WebSocketDisconnect) as closed:
                    other.receive_json()
                assert closed.value.code == CLOSE_CODES["unavailable"]
            ws.send_json({"type": "ping", "id": 3})
            assert receive_until(ws, "pong")["id"] == 3
            own_cluster.start()
            # The pool connects again by itself (with growing pauses): the client sends again
            # while it is told "unavailable", as the page and SeatClient do.
            deadline = time.monotonic() + 90
            while True:
                ws.send_json({"type": "action", "action": discard, "id": 4})
                answer = ws.receive_json()
                if answer["type"] == "ack":
                    break
                assert answer["code"] == "unavailable" and time.monotonic() < deadline, answer
                time.sleep(0.5)
            assert answer["seq"] == 2 and receive_until(ws, "state")["seq"] == 2
        # The worker listens again (with growing pauses while it could not).
        deadline = time.monotonic() + 60
        while not own_cluster.sql(url, "SELECT 1 FROM pg_stat_activity WHERE query LIKE 'LISTEN %%'"):
            assert time.monotonic() < deadline, "the worker did not listen again"
            time.sleep(0.1)
    stored = own_cluster.sql(url, "SELECT seq, action FROM actions ORDER BY seq")
    assert stored == [(1, "draw"), (2, discard)]


def test_actions_arriving_together_are_committed_together_and_a_taken_number_fails_alone(pg_cluster: Cluster) -> None:
    url = pg_cluster.database()

    async def run() -> list[Any]:
        store = await started(url)
        for name in ("a", "b", "c"):
            await store.add_table(Table.new(seats=("human",) * 4, seed=1, dealer=0, table_id=name).row(), {})
        await store.add_action(ActionRow("a", 1, 1, "draw", person=True))
        # Three actions in one turn of the event loop: one commit, in which a's number 1 is
        # taken; the batch is committed again one by one, so only that one fails.
        outcomes = await asyncio.gather(
            store.add_action(ActionRow("a", 1, 1, "draw")),
            store.add_action(ActionRow("b", 1, 1, "draw", person=True)),
            store.add_action(ActionRow("c", 1, 1, "draw", finished=True)),
            return_exceptions=True,
        )
        await store.close()
        return outcomes

    outcomes = asyncio.run(run())
    assert isinstance(outcomes[0], Conflict) and outcomes[1:] == [None, None]
    rows = pg_cluster.sql(url, "SELECT id, played, finished FROM tables ORDER BY id")
    assert rows == [("a", True, False), ("b", True, False), ("c", False, True)]
    assert pg_cluster.sql(url, "SELECT count(*) FROM actions") == [(3,)]
