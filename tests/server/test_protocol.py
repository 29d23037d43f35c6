"""The table server's protocol, through Starlette's test client: creating and joining tables,
every kind of action, refused actions, wrong tokens, a second window for a seat, bad frames,
the rate limit, the record download and resuming from the database (R3, R6, R12-R20, R27)."""

from __future__ import annotations

import contextlib
import html
import json
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from clients import server_of
from live import unfinished_in
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from persian_rummy import DECK, JOKER, Action, Card, Meld, PlayerView, Rank, Suit
from persian_rummy.actions import DrawStock
from persian_rummy.bots import RandomBot
from persian_rummy.record import loads
from persian_rummy.server import Limits, create_app
from persian_rummy.server.client import PROTOCOL as CLIENT_PROTOCOL
from persian_rummy.server.levels import levels
from persian_rummy.server.protocol import HUMAN, PROTOCOL, WEB_STYLE, has_lone_surrogate, page_protocol
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES

HUMANS = ["human"] * 4


# The default limits but the message rate: these tests play whole games as fast as the server
# answers, faster than any person, and a message refused for the rate is not played, so the
# player would wait for a frame that never comes (the rate limit has its own test below).
UNRATED = Limits(rate=1e6, burst=1e6)


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, limits=UNRATED)) as client:
        yield client


def new_table(
    client: TestClient, seats: list[str] = HUMANS, seed: int = 1, dealer: int = 0
) -> tuple[str, dict[int, str], str]:
    """A table with a known seed (through the server, so its bots start in the app's loop)."""
    assert client.portal is not None
    table, tokens = client.portal.call(lambda: server_of(client).create_table(seats, seed=seed, dealer=dealer))
    return table.id, dict(tokens["seats"]), tokens["spectator"]


@contextlib.contextmanager
def joined(client: TestClient, token: str) -> Iterator[tuple[Any, dict[str, Any], dict[str, Any]]]:
    with client.websocket_connect(f"/ws/{token}") as ws:
        welcome = ws.receive_json()
        first = ws.receive_json()
        yield ws, welcome, first


def receive_state(ws: Any) -> dict[str, Any]:
    """The next state frame; a finished deal's frame is followed by the next deal's (R7)."""
    frame = ws.receive_json()
    assert frame["type"] == "state", frame
    if frame["phase"] == "round_over":
        frame = ws.receive_json()
        assert frame["type"] == "state" and frame["phase"] == "draw", frame
    return frame


def test_create_a_table_through_the_api_and_the_form(client: TestClient) -> None:
    created = client.post("/api/tables", json={"seats": ["human", "greedy", "human", "random"], "rules": "deals=1"})
    assert created.status_code == 201
    body = created.json()
    assert [seat["bot"] for seat in body["seats"]] == [None, "greedy", None, "random"]
    assert [seat["token"] is None for seat in body["seats"]] == [False, True, False, True]
    tokens = {seat["token"] for seat in body["seats"] if seat["token"]} | {body["spectator"]["token"]}
    assert len(tokens) == 3 and all(len(token) >= 22 for token in tokens)
    assert server_of(client).tables[body["id"]].rules.deals == 1
    page = client.get(body["seats"][0]["url"])
    assert page.status_code == 200 and 'data-seat="0"' in page.text
    assert (
        page.headers["referrer-policy"] == "no-referrer"
        and "script-src 'self'" in page.headers["content-security-policy"]
    )
    form = client.post(
        "/tables", content=b"seat0=human&seat1=greedy&seat2=greedy&seat3=greedy&preset=500_rum&name0=Ann"
    )
    assert form.status_code == 201 and "/play/" in form.text and "/watch/" in form.text and "Ann" in form.text
    assert "<form" in client.get("/").text


@pytest.mark.parametrize(
    "body",
    [
        {"seats": ["human", "clever", "human", "human"]},
        {"seats": ["human"] * 3},
        {"seats": HUMANS, "rules": "deals=zero"},
        {"seats": HUMANS, "names": ["a", "b", "c", "d" * 41]},
        {"seats": ["human", "mc:samples=100000", "human", "human"]},
        {"seats": HUMANS, "rules": 5},
        {"seats": HUMANS, "names": "Ann"},
        {"seats": HUMANS, "names": ["Ann", "Bo"]},
        {"seats": ["human", 7, "human", "human"]},
        [1, 2],
    ],
)
def test_a_bad_table_request_is_refused_with_a_reason(client: TestClient, body: Any) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400 and response.json()["error"]
    assert client.post("/api/tables", content=b"{").status_code == 400
    assert client.post("/api/tables", content=b" " * 5000).status_code == 413


def test_r27_joining_a_seat_sends_its_own_view_and_a_spectator_the_public_table(client: TestClient) -> None:
    table_id, tokens, spectator = new_table(client)
    state = server_of(client).tables[table_id].state
    with joined(client, tokens[1]) as (_, welcome, frame):
        assert welcome == {
            "type": "welcome",
            "protocol": 2,
            "table": table_id,
            "seat": 1,
            "role": "player",
            "names": ["North", "East", "South", "West"],
        }
        assert PlayerView.from_json(json.dumps(frame["view"])) == state.view(1)
        assert frame["legal"] == ["draw"] and frame["turn"] == 1
        # A connection's first frame holds the whole log: the first deal's heading.
        assert [entry["kind"] for entry in frame["log"]] == ["deal"] and "picture" not in frame
    with joined(client, tokens[0]) as (_, _, frame):
        assert frame["legal"] == []  # R6: seat 1 plays first
    with joined(client, spectator) as (_, welcome, frame):
        assert welcome["role"] == "spectator" and frame["legal"] == []
        view = frame["view"]  # R27: the public table, no hand at all
        assert view["seat"] is None and view["hand"] is None and view["discard_pile"] == str(state.discard_pile[0])


def play_out(client: TestClient, tokens: dict[int, str], seed: int) -> tuple[Counter[str], list[dict[str, Any]]]:
    """Four people's sockets play a whole game with random bots choosing from their frames."""
    bots = {seat: RandomBot(seed + seat) for seat in range(4)}
    kinds: Counter[str] = Counter()
    with contextlib.ExitStack() as stack:
        sockets, latest = {}, {}
        for seat in range(4):
            ws, _, frame = stack.enter_context(joined(client, tokens[seat]))
            sockets[seat], latest[seat] = ws, frame
        while latest[0]["phase"] != "game_over":
            (seat,) = [seat for seat in range(4) if latest[seat]["legal"]]
            action = bots[seat](PlayerView.from_json(json.dumps(latest[seat]["view"])))
            assert str(action) in latest[seat]["legal"]
            sockets[seat].send_json({"type": "action", "action": str(action), "id": kinds.total()})
            ack = sockets[seat].receive_json()
            assert ack == {"type": "ack", "seq": kinds.total() + 1, "action": str(action), "id": kinds.total()}
            kinds[type(action).__name__] += 1
            for other in range(4):
                latest[other] = receive_state(sockets[other])
                assert latest[other]["seq"] == kinds.total()
                (entry,) = [entry for entry in latest[other]["log"] if entry["kind"] == "action"] or [None]
                if entry is not None:  # the action, in words (a next deal's frame has its heading only)
                    public = "draw" if isinstance(action, DrawStock) else str(action)
                    assert (entry["seat"], entry["action"], entry["seq"]) == (seat, public, kinds.total())
        return kinds, list(latest.values())


def test_r12_r20_every_kind_of_action_over_the_socket_to_the_end_of_the_game(client: TestClient) -> None:
    table_id, tokens, _ = new_table(client, seed=1)
    kinds, finals = play_out(client, tokens, seed=1)
    assert set(kinds) == {"DrawStock", "DrawDiscard", "MeldCards", "LayOff", "Discard", "Pass"}
    table = server_of(client).tables[table_id]
    assert table.finished and table.seq == kinds.total()
    assert all(frame["phase"] == "game_over" and frame["sheet"] for frame in finals)
    assert [team["total"] for team in finals[0]["sheet"]] != [] and finals[0]["scores"] == list(table.state.scores)
    # the game record as each seat saw it: redacted, and it replays to the same final view
    for seat in range(4):
        text = client.get(f"/record/{tokens[seat]}")
        assert text.status_code == 200 and "attachment" in text.headers["content-disposition"]
        record = loads(text.text)
        assert record.viewer == seat and list(record.views())[-1] == table.state.view(seat)


def test_r6_refused_actions_say_why_and_change_nothing(client: TestClient) -> None:
    table_id, tokens, _ = new_table(client)
    table = server_of(client).tables[table_id]
    before = table.state
    with joined(client, tokens[0]) as (north, _, _), joined(client, tokens[1]) as (east, _, _):
        north.send_json({"type": "action", "action": "draw", "id": 1})
        refused = north.receive_json()
        assert refused["type"] == "error" and refused["code"] == "not_your_turn" and refused["id"] == 1
        assert refused["reason"] == "R6: it is East's turn, not yours"  # in words for the player who tried
        east.send_json({"type": "action", "action": "discard 4s"})  # R12: draw first
        refused = east.receive_json()
        assert refused["code"] == "refused" and refused["reason"] and refused["action"] == "discard 4s"
        east.send_json({"type": "action", "action": "take 7"})  # R13: no such card in the pile
        assert east.receive_json()["code"] == "refused"
        assert table.state is before and table.seq == 0
        # what a refusal says names no card of another hand
        hidden = {str(card) for seat in (0, 2, 3) for card in before.hands[seat]} - {
            str(card) for card in before.hands[1]
        }
        assert not any(card in json.dumps(refused) for card in hidden)


def test_a_wrong_token_opens_nothing(client: TestClient) -> None:
    new_table(client)
    with client.websocket_connect("/ws/not-a-real-token-at-all") as ws:
        assert ws.receive_json()["code"] == "unknown_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    assert client.get("/play/not-a-real-token-at-all").status_code == 404
    assert client.get("/record/not-a-real-token-at-all").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_a_second_window_for_a_seat_takes_it_over(client: TestClient) -> None:
    _, tokens, spectator = new_table(client)
    with joined(client, tokens[1]) as (first, _, _), joined(client, tokens[1]) as (second, _, frame):
        notice = first.receive_json()
        assert notice["code"] == "superseded"
        with pytest.raises(WebSocketDisconnect) as closed:
            first.receive_json()
        assert closed.value.code == 4409
        assert frame["legal"] == ["draw"]
        second.send_json({"type": "action", "action": "draw"})
        assert second.receive_json()["type"] == "ack"
    assert client.get(f"/record/{spectator}").status_code == 404  # a spectator has no hand to show a record of


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("not json", "bad_frame"),
        ("[1, 2]", "bad_frame"),
        ('{"type": "shout"}', "bad_frame"),
        ('{"type": "action"}', "bad_frame"),
        ('{"type": "action", "action": 7}', "bad_frame"),
        ('{"type": "action", "action": "draw", "id": [1]}', "bad_frame"),
        ('{"type": "action", "action": "fly away"}', "bad_action"),
        ('{"type": "action", "action": "meld 4s 4s 4s"}', "refused"),
        ("[" * 100_000, "too_large"),
        ("[" * 3000 + "]" * 3000, "too_large"),
        ("[" * 2000 + "]" * 2000, "bad_frame"),  # deep but small: parsed, then refused
        (b"\x00\x01", "bad_frame"),
        # Issue 53 item 3: valid JSON whose text is no Unicode (a lone surrogate) was echoed, the
        # encoder raised and the socket dropped without a close frame. Refused, wherever it is.
        ('{"type": "ping", "id": "\\ud800"}', "bad_frame"),
        ('{"type": "hint", "id": "\\udfff"}', "bad_frame"),
        ('{"type": "action", "action": "draw", "id": "a\\ud800b"}', "bad_frame"),
        ('{"type": "action", "action": "discard \\ud800"}', "bad_frame"),
        ('{"type": "ping", "\\ud800": 1}', "bad_frame"),
    ],
)
def test_a_bad_message_gets_an_error_frame_and_the_connection_goes_on(
    client: TestClient, message: str | bytes, code: str
) -> None:
    _, tokens, _ = new_table(client)
    with joined(client, tokens[1]) as (ws, _, _):
        if isinstance(message, bytes):
            ws.send_bytes(message)
        else:
            ws.send_text(message)
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == code and isinstance(error["reason"], str)
        ws.send_json({"type": "ping", "id": "still there?"})
        assert ws.receive_json() == {"type": "pong", "id": "still there?"}


def test_a_spectator_cannot_play(client: TestClient) -> None:
    _, _, spectator = new_table(client)
    with joined(client, spectator) as (ws, _, _):
        ws.send_json({"type": "action", "action": "draw"})
        assert ws.receive_json()["code"] == "spectator"


def test_too_many_messages_are_refused_then_the_connection_is_closed(db: str) -> None:
    limits = Limits(rate=1.0, burst=3.0, strikes=5)
    # A clock that stands still: the bucket refills only with time, so on any machine, however
    # long the twenty messages take, exactly the burst gets through.
    with TestClient(create_app(db, limits=limits, clock=lambda: 0.0)) as client:
        _, tokens, _ = new_table(client)
        with joined(client, tokens[1]) as (ws, _, _):
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                for number in range(20):
                    ws.send_json({"type": "ping", "id": number})
                    codes.append(ws.receive_json().get("code", "pong"))
            assert codes[:3] == ["pong"] * 3 and codes[3:9] == ["rate_limited"] * 6
            assert closed.value.code == 1008


def test_bots_play_their_seats_and_a_restarted_server_resumes_every_table(db: str) -> None:
    path = db
    with TestClient(create_app(path)) as client:
        table_id, tokens, _ = new_table(client, ["greedy", "human", "greedy", "greedy"], seed=3, dealer=3)
        with joined(client, tokens[1]) as (east, _, frame):
            while not frame["legal"]:  # R6: North (a bot) plays first; its moves arrive as frames
                frame = receive_state(east)
            assert frame["seq"] >= 2 and frame["turn"] == 1
            bot = RandomBot(1)
            while frame["turn"] == 1:
                east.send_json({"type": "action", "action": str(bot(PlayerView.from_json(json.dumps(frame["view"]))))})
                assert east.receive_json()["type"] == "ack"
                frame = receive_state(east)
        table = server_of(client).tables[table_id]
        seq, state = table.seq, table.state
        assert seq >= 4
    # the same database: the table comes back at its last stored action, and its bots play on
    with TestClient(create_app(path)) as client:
        again = server_of(client).tables[table_id]
        assert (
            again.seq >= seq
            and [str(a) for deal in again.deals for a in deal][:seq]
            == [str(a) for deal in table.deals for a in deal][:seq]
        )
        with joined(client, tokens[1]) as (_, _, frame):
            assert frame["seq"] >= seq
    assert state.deal_number == 1
    stored = unfinished_in(path)
    assert [resumed.id for resumed in stored] == [table_id]


def test_the_record_of_a_game_in_play_hides_what_the_seat_has_not_seen(client: TestClient) -> None:
    table_id, tokens, _ = new_table(client)
    with joined(client, tokens[1]) as (east, _, _):
        east.send_json({"type": "action", "action": "draw"})
        east.receive_json(), east.receive_json()
    text = client.get(f"/record/{tokens[1]}").text
    record = loads(text)
    table = server_of(client).tables[table_id]
    assert "[Seed" not in text and record.viewer == 1
    assert list(record.views())[-1] == table.state.view(1)
    assert Action.parse("draw") == record.deals[0].actions[0].action


def test_the_lobby_form_refuses_a_bad_table_and_a_large_body(client: TestClient) -> None:
    bad = client.post("/tables", content=b"seat0=human&seat1=clever&seat2=human&seat3=human")
    assert bad.status_code == 400 and 'role="alert"' in bad.text
    assert client.post("/tables", content=b"x" * 5000).status_code == 413
    assert client.get("/static/app.py").status_code == 404
    assert client.get("/static/table.js").headers["content-type"].startswith("text/javascript")


def test_the_server_holds_a_bounded_number_of_tables(db: str) -> None:
    with TestClient(create_app(db, limits=Limits(tables=1))) as client:
        assert client.post("/api/tables", json={"seats": HUMANS}).status_code == 201
        refused = client.post("/api/tables", json={"seats": HUMANS})
        assert refused.status_code == 503 and "full" in refused.json()["error"]
        assert client.post("/tables", content=b"seat0=human").status_code == 503


def test_a_finished_game_opens_again_after_a_restart(db: str) -> None:
    path = db
    with TestClient(create_app(path, bot_delay=0.001, limits=UNRATED)) as client:
        table_id, tokens, _ = new_table(client, ["random", "random", "human", "random"], seed=2)
        with joined(client, tokens[2]) as (south, _, frame):
            bot = RandomBot(2)
            while frame["phase"] != "game_over":
                if frame["legal"]:
                    south.send_json(
                        {"type": "action", "action": str(bot(PlayerView.from_json(json.dumps(frame["view"]))))}
                    )
                    assert south.receive_json()["type"] == "ack"
                frame = receive_state(south)
        text = client.get(f"/record/{tokens[2]}").text
    with TestClient(create_app(path)) as client:
        assert server_of(client).tables == {}  # only unfinished games are replayed on start ...
        assert client.get(f"/record/{tokens[2]}").text == text  # ... a finished one opens on demand
        assert server_of(client).tables[table_id].finished


def test_an_action_that_cannot_be_stored_is_not_played(
    client: TestClient, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, tokens, _ = new_table(client)
    store = server_of(client).store
    with joined(client, tokens[1]) as (east, _, _):
        if store is not None:  # SQLite: its disk is full once
            real = store._store_actions

            def full_disk(*args: Any, **kwargs: Any) -> None:
                monkeypatch.setattr(store, "_store_actions", real)  # once
                raise sqlite3.OperationalError("database or disk is full")

            monkeypatch.setattr(store, "_store_actions", full_disk)
        else:  # PostgreSQL: the database turns read-only for a while (its sessions start again)
            read_only(db, True)
        east.send_json({"type": "action", "action": "draw", "id": 1})
        assert east.receive_json() == {
            "type": "error",
            "code": "unavailable",
            "reason": "the action could not be stored: try again",
            "id": 1,
        }
        assert server_of(client).tables[table_id].seq == 0
        if store is None:
            read_only(db, False)
        east.send_json({"type": "action", "action": "draw", "id": 2})
        assert east.receive_json()["type"] == "ack" and server_of(client).tables[table_id].seq == 1


def read_only(url: str, on: bool) -> None:
    """Make the PostgreSQL database at ``url`` refuse every write (or accept them again), for
    the sessions that start after: the server's sessions are ended, so its pool starts new ones."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        name = connection.info.dbname
        connection.execute("SET default_transaction_read_only = off")
        setting = "SET default_transaction_read_only = on" if on else "RESET default_transaction_read_only"
        connection.execute(f"ALTER DATABASE {name} {setting}")
        connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


# --- the protocol's names and numbers: the server's, read by the page ----------------------------

SCRIPT = resources.files("persian_rummy.server").joinpath("static").joinpath("table.js").read_text(encoding="utf-8")


def served_names(client: TestClient, token: str) -> dict[str, Any]:
    """The names and numbers a table's page carries for its script (its ``data-protocol``)."""
    page = client.get(f"/play/{token}").text
    found = re.search(r'<main id="table"[^>]* data-protocol="([^"]*)"', page)
    assert found is not None
    names: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return names


def test_the_page_is_served_the_protocols_names_and_they_are_the_librarys(client: TestClient) -> None:
    _, tokens, spectator = new_table(client)
    names = served_names(client, tokens[0])
    assert names == served_names(client, spectator) == page_protocol()
    assert names["protocol"] == PROTOCOL == CLIENT_PROTOCOL
    assert names["seats"] == list(SEAT_NAMES) and names["teams"] == list(TEAM_NAMES) and names["human"] == HUMAN
    # Every card as the page writes it from these names is the card as the server's log writes it.
    suits = {suit["letter"]: suit for suit in names["suits"]}
    ranks = {rank["letter"]: rank for rank in names["ranks"]}
    assert list(suits) == [suit.letter for suit in Suit] and list(ranks) == [rank.letter for rank in Rank]
    for card in DECK:
        text = str(card)
        face = (
            names["joker"]["face"]
            if text == names["joker"]["text"]
            else ranks[text[0]]["face"] + suits[text[1]]["symbol"]
        )
        assert face == WEB_STYLE.card(card)
        if not card.is_joker:
            suit = card.natural_suit
            assert (suits[text[1]]["symbol"], suits[text[1]]["name"]) == (suit.symbol, suit.name.lower())
    assert Card.parse(names["joker"]["text"]) == JOKER
    # The close codes the page tells apart are the ones the server closes with.
    with client.websocket_connect("/ws/not-a-real-token-at-all") as ws:
        assert ws.receive_json()["code"] == "unknown_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == names["close_codes"]["unknown_token"]
    with joined(client, tokens[1]) as (first, _, _), joined(client, tokens[1]):
        assert first.receive_json()["code"] == "superseded"
        with pytest.raises(WebSocketDisconnect) as closed:
            first.receive_json()
        assert closed.value.code == names["close_codes"]["superseded"]
    # A browser keeping the script of another protocol, or an older script, fetches this one.
    assert f'src="/static/table.js?protocol={PROTOCOL}&amp;v=' in client.get(f"/play/{tokens[0]}").text
    # A meld's marks are the library's: a card melded, a card laid off and credited (R16).
    meld = Meld.parse("Tc@0 Jc@0 Qc@0 Kc+1")
    marks = names["meld_marks"]
    assert str(meld).split() == [f"Tc{marks['melded']}0", f"Jc{marks['melded']}0", f"Qc{marks['melded']}0",
                                 f"Kc{marks['laid_off']}1"]  # fmt: skip
    assert names["levels"] == [level.value() for level in levels()]


def test_the_pages_script_keeps_no_copy_of_the_protocols_names_or_numbers() -> None:
    names = page_protocol()
    words = {*names["seats"], *names["teams"], names["human"], *names["joker"].values(), *names["meld_marks"].values()}
    words |= {level[key] for level in names["levels"] for key in ("name", "bot")}
    words |= {suit[key] for suit in names["suits"] for key in ("symbol", "name")}
    words |= {rank["name"] for rank in names["ranks"] if not rank["name"].isdigit()}
    words |= {"".join(rank["letter"] for rank in names["ranks"]), "".join(suit["letter"] for suit in names["suits"])}
    literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`([^`]*)`', SCRIPT)
    texts = [part for literal in literals for part in literal if part]
    assert texts, "no string literal found in the script"
    copies = sorted({word for word in words for text in texts if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)})
    assert copies == []
    numbers = {names["protocol"], *names["close_codes"].values()}
    assert not [number for number in numbers if re.search(rf"(?<![\w.]){number}(?![\w.])", SCRIPT) and number > 9]
    assert not re.search(r"\bPROTOCOL\s*=\s*\d", SCRIPT)


def test_a_lone_surrogate_is_refused_with_its_reason_and_nothing_is_played_or_logged(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    # Issue 53 item 3, on SQLite and PostgreSQL: the pong echoed the id, its encoding raised,
    # the socket dropped without a close frame and a traceback was logged.
    table_id, tokens, _ = new_table(client)
    with joined(client, tokens[1]) as (ws, _, _):
        for text in ('{"type":"ping","id":"\\ud800"}', '{"type":"action","action":"draw","id":"\\ud800"}'):
            ws.send_text(text)
            assert ws.receive_json() == {
                "type": "error",
                "code": "bad_frame",
                "reason": "a message's texts are Unicode text (no lone surrogate)",
            }
        ws.send_json({"type": "action", "action": "draw", "id": 1})
        assert ws.receive_json()["type"] == "ack"
    assert server_of(client).tables[table_id].seq == 1
    assert not [record for record in caplog.records if record.exc_info]


def test_a_request_with_a_lone_surrogate_is_refused_without_echoing_it(client: TestClient) -> None:
    # Over HTTP the texts a table stores are checked already (a name is printable text, a seat
    # kind one the lobby offers, the rules a preset or knobs): a lone surrogate is refused
    # there, and the answer (which names it escaped, if at all) is sent whole.
    for field, value in (("names", ["\ud800", "b", "c", "d"]), ("rules", "\ud800"), ("seats", ["\ud800"] * 4)):
        text = json.dumps({"seats": ["human"] * 4, field: value})  # the surrogate as its escape
        answer = client.post("/api/tables", content=text, headers={"content-type": "application/json"})
        assert answer.status_code == 400 and answer.json()["error"] and not has_lone_surrogate(answer.json())
    assert server_of(client).tables == {}


def test_the_encoder_writes_a_lone_surrogate_as_its_escape_and_everything_else_as_it_is() -> None:
    from persian_rummy.server.protocol import ErrorFrame, Pong, encode_frame

    assert encode_frame(Pong("\ud800")) == '{"type":"pong","id":"\\ud800"}'
    assert encode_frame(Pong("10♣")) == '{"type":"pong","id":"10♣"}'
    assert encode_frame(ErrorFrame("refused", "x\udfff", id=1)).encode("utf-8").isascii()
