"""Hints (issue 40): a seat to move asks ``{"type": "hint"}`` and is shown what the strongest
level's bot (the learned player) would play, worked out from that seat's own view alone (R27),
once per action number; everyone's log says a hint was taken. A spectator, a seat not to move
and a table of rules the learned player does not play are refused, and hint messages count
against the message rate like any other."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from clients import server_of
from starlette.testclient import TestClient

from persian_rummy import Action, PlayerView, Rules, legal_actions
from persian_rummy.bots import make_bot
from persian_rummy.server import Limits, create_app, hints
from persian_rummy.server.protocol import BadMessage, parse_message
from persian_rummy.server.tables import Table, offer_text

HUMANS = ["human"] * 4
UNRATED = Limits(rate=1e6, burst=1e6)
DEFAULT = Rules()


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "games.sqlite3"), limits=UNRATED)) as client:
        yield client


def new_table(client: TestClient, rules: Rules = DEFAULT) -> tuple[Table, dict[int, str], str]:
    # Seed 1, North dealing: East (seat 1) is first to play (R6).
    assert client.portal is not None
    table, tokens = client.portal.call(lambda: server_of(client).create_table(HUMANS, seed=1, dealer=0, rules=rules))
    return table, dict(tokens["seats"]), tokens["spectator"]


@contextlib.contextmanager
def joined(client: TestClient, token: str) -> Iterator[Any]:
    with client.websocket_connect(f"/ws/{token}") as ws:
        assert ws.receive_json()["type"] == "welcome" and ws.receive_json()["type"] == "state"
        yield ws


def test_a_hint_is_the_learned_players_move_for_the_seats_view_and_everyone_reads_it_was_taken(
    client: TestClient,
) -> None:
    table, tokens, spectator = new_table(client)
    with joined(client, tokens[1]) as east, joined(client, tokens[3]) as west, joined(client, spectator) as watcher:
        east.send_json({"type": "action", "action": "draw", "id": 1})
        assert east.receive_json()["type"] == "ack"
        for ws in (east, west, watcher):
            assert ws.receive_json()["type"] == "state"
        view = table.state.view(1)
        expected = make_bot("neural")(view)
        east.send_json({"type": "hint", "id": "h"})
        logged = east.receive_json()  # the log's new entry first, then the answer
        assert logged["type"] == "state" and logged["seq"] == table.seq
        assert [entry["text"] for entry in logged["log"]] == [f"You ask for a hint: {offer_text(view, expected)}"]
        answer = east.receive_json()
        assert answer == {"type": "hint", "id": "h", "seq": 1, "action": str(expected),
                          "text": offer_text(view, expected)}  # fmt: skip
        assert Action.parse(answer["action"]) in legal_actions(view)
        for ws in (west, watcher):  # the others read that a hint was taken, not what it said
            (entry,) = ws.receive_json()["log"]
            assert entry["kind"] == "hint" and entry["text"] == "East asks for a hint" and entry["cards"] == []
        # Asked again at the same action: the same answer from memory, nothing more logged.
        east.send_json({"type": "hint", "id": "again"})
        assert east.receive_json() == {**answer, "id": "again"}
        east.send_json({"type": "ping", "id": "p"})
        assert east.receive_json() == {"type": "pong", "id": "p"}
        west.send_json({"type": "ping", "id": "p"})
        assert west.receive_json() == {"type": "pong", "id": "p"}  # no second entry came before it
    assert [entry.kind for entry in table.entries].count("hint") == 1


def test_the_hint_bot_is_shown_the_seats_own_view_only(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table, tokens, _ = new_table(client)
    shown: list[object] = []

    def spy(view: object) -> Action:
        shown.append(view)
        assert isinstance(view, PlayerView)
        return legal_actions(view)[0]

    monkeypatch.setattr(hints, "hint_bot", lambda rules: spy)
    with joined(client, tokens[1]) as east:
        east.send_json({"type": "hint", "id": 1})
        assert east.receive_json()["type"] == "state"
        assert east.receive_json()["action"] == "draw"
    # R27: the view of the seat that asked, which holds no other hand and not the stock.
    assert shown == [table.state.view(1)]
    (view,) = shown
    assert isinstance(view, PlayerView) and view.seat == 1 and not hasattr(view, "hands") and not hasattr(view, "stock")


@pytest.mark.parametrize(
    ("who", "rules", "code"),
    [(3, Rules(), "not_your_turn"), (1, Rules(deals=1), "hints_off")],
)
def test_a_hint_is_refused_out_of_turn_and_where_the_learned_player_does_not_play(
    client: TestClient, who: int, rules: Rules, code: str
) -> None:
    table, tokens, _ = new_table(client, rules)
    with joined(client, tokens[who]) as ws:
        ws.send_json({"type": "hint", "id": 9})
        refusal = ws.receive_json()
    assert refusal["type"] == "error" and refusal["code"] == code and refusal["id"] == 9
    assert not [entry for entry in table.entries if entry.kind == "hint"]
    if code == "hints_off":
        assert refusal["reason"] == hints.hints_off(table)


def test_a_spectator_cannot_ask_for_a_hint() -> None:
    with pytest.raises(BadMessage, match="a spectator link cannot play") as refused:
        parse_message('{"type": "hint", "id": 1}', 4096, spectator=True)
    assert refused.value.frame().id == 1


def answer_to(ws: Any, request: object) -> dict[str, Any]:
    """The answer to request ``request`` (a state frame with a hint's log entry may come first;
    a refusal for the rate names no request)."""
    for _ in range(10):
        message = ws.receive_json()
        if message.get("id") == request or message.get("code") == "rate_limited":
            return dict(message)
    raise AssertionError(f"no answer to {request!r}")


def test_hint_messages_count_against_the_message_rate(tmp_path: Any) -> None:
    # Two messages in a burst, and next to none a second after: the third is refused.
    with TestClient(create_app(str(tmp_path / "games.sqlite3"), limits=Limits(rate=0.001, burst=2))) as client:
        _, tokens, _ = new_table(client)
        with joined(client, tokens[1]) as east:
            answers = []
            for request in range(3):
                east.send_json({"type": "hint", "id": request})
                answers.append(answer_to(east, request))
    assert [answer["type"] for answer in answers] == ["hint", "hint", "error"]
    assert answers[2]["code"] == "rate_limited"


def test_the_answers_kept_are_bounded(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hints, "HINTS_KEPT", 2)
    _, tokens, _ = new_table(client)
    with joined(client, tokens[1]) as east, joined(client, tokens[2]) as south:
        east.send_json({"type": "hint", "id": 1})  # action 0
        answer_to(east, 1)
        east.send_json({"type": "action", "action": "draw", "id": 2})
        answer_to(east, 2)
        east.send_json({"type": "hint", "id": 3})  # action 1
        discard = answer_to(east, 3)["action"]
        if not discard.startswith("discard "):
            discard = "discard " + str(table_hand_card(client, 1))
        east.send_json({"type": "action", "action": discard, "id": 4})
        answer_to(east, 4)
        south.send_json({"type": "hint", "id": 5})  # South, action 2
        assert answer_to(south, 5)["type"] == "hint"
    assert server_of(client).hints.kept == 2


def table_hand_card(client: TestClient, seat: int) -> object:
    (table,) = server_of(client).tables.values()
    return sorted(table.state.hands[seat])[0]
