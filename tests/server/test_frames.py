"""The frames a table writes together for all its connections are each connection's own frame,
field by field: its view, its legal actions, the table's log as it may read it, each team's
points on the table (R27: a spectator's view holds no hand, and only a card's drawer reads it
named in the log). The frames speak protocol 2 and carry no picture."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from starlette.websockets import WebSocketState

from persian_rummy import legal_actions
from persian_rummy.actions import DrawDiscard, DrawStock, LayOff
from persian_rummy.melds import credits
from persian_rummy.presentation import narrate
from persian_rummy.server.connections import Connection
from persian_rummy.server.live import LiveTable
from persian_rummy.server.protocol import encode_value
from persian_rummy.server.quotas import Limits
from persian_rummy.server.tables import PROTOCOL, WEB_STYLE, Table

SEATS = (0, 1, 2, 3, None)


def expected(table_: Table, seat: int | None) -> dict[str, object]:
    """A frame built field by field from the rules, as a client reads it (without its log)."""
    state = table_.state
    view = state.view(0 if seat is None else seat)
    public_view = json.loads(view.to_json())
    if seat is None:
        public_view.update(seat=None, hand=None)
    return {
        "type": "state",
        "protocol": PROTOCOL,
        "seq": table_.seq,
        "seat": seat,
        "deal": state.deal_number,
        "deals": state.rules.deals,
        "phase": state.phase.value,
        "turn": state.current_player,
        "scores": list(state.scores),
        "on_table": [sum(credits(meld)[team] + credits(meld)[team + 2] for meld in state.melds) for team in (0, 1)],
        "names": list(table_.names),
        "seats": list(table_.seats),
        "legal": [str(action) for action in legal_actions(view)] if seat is not None and view.is_to_move else [],
        "legal_text": [
            narrate(
                action,
                form="you",
                card=WEB_STYLE.card,
                target=view.melds[action.meld] if isinstance(action, LayOff) else None,
                cards=view.discard_pile[action.index :] if isinstance(action, DrawDiscard) else (),
            )
            for action in legal_actions(view)
        ]
        if seat is not None and view.is_to_move
        else [],
        "view": public_view,
    }


@pytest.mark.parametrize("game", range(3))
def test_r27_frames_written_together_are_each_connections_own_frame(game: int) -> None:
    table_ = Table.new(seats=("human",) * 4, seed=game, dealer=game, names=("Ann", "Bé", "Cy", "Dee"))
    rng = random.Random(game)
    logs: dict[int | None, list[dict[str, object]]] = {seat: [] for seat in SEATS}
    while not table_.finished:
        seat = table_.state.current_player
        action = rng.choice(list(legal_actions(table_.state)))
        before = len(table_.log)
        hand = table_.state.hands[seat]
        table_.apply(seat, action)
        texts = table_.frames(SEATS, log=(before, len(table_.log)))
        assert texts == [table_.frames([viewer], log=(before, len(table_.log)))[0] for viewer in SEATS]
        for viewer, text in zip(SEATS, texts, strict=True):
            frame = json.loads(text)
            frame.pop("sheet")
            logs[viewer] += frame.pop("log")
            assert frame == expected(table_, viewer)
        entry = next(json.loads(public) for mover, public, _ in table_.log[before:] if mover is not None)
        assert entry["seat"] == seat and entry["action"] == ("draw" if isinstance(action, DrawStock) else str(action))
        if isinstance(action, DrawStock):
            (drawn,) = table_.state.hands[seat] - hand
            # R27: the drawer alone reads the card named.
            (own,) = [item for item in logs[seat] if item.get("seq") == table_.seq and item["kind"] == "action"]
            others = [logs[viewer][-1] for viewer in SEATS if viewer != seat]
            assert own["text"].startswith("You draw") and own["cards"] == [str(drawn)]
            assert all(item["cards"] == [] and item["text"].endswith("draws from the stock") for item in others)
    # Every connection read the whole log, one entry per action, a heading per deal, a score per deal.
    for entries in logs.values():
        kinds = [entry["kind"] for entry in entries]
        assert kinds.count("action") == table_.seq and kinds.count("score") == len(table_.deals)
        assert kinds.count("deal") == len(table_.deals) - 1  # the first deal's heading came before
    whole = json.loads(table_.frames([None])[0])["log"]
    assert [entry["kind"] for entry in whole].count("deal") == table_.state.rules.deals


def ordered(text: str) -> Any:
    """JSON text read with every object as its list of (key, value) pairs, in order."""
    return json.loads(text, object_pairs_hook=list)


@pytest.mark.parametrize("game", range(2))
def test_a_frame_is_one_value_written_at_once_its_view_as_the_library_writes_it(game: int) -> None:
    # Written by one encoder from one value, a frame is its own canonical text: a frame spliced
    # from texts written apart (the view with other separators than the frame) is not.
    table_ = Table.new(seats=("human",) * 4, seed=game, dealer=game)
    rng = random.Random(game)
    while not table_.finished:
        before = len(table_.entries)
        table_.apply(table_.state.current_player, rng.choice(list(legal_actions(table_.state))))
        values = table_.frame_values(SEATS, log=(before, len(table_.entries)))
        texts = table_.frames(SEATS, log=(before, len(table_.entries)))
        for seat, value, text in zip(SEATS, values, texts, strict=True):
            assert text == encode_value(json.loads(text)) == encode_value(value)
            # The view's keys and values in the library's order (R27: a spectator's has no hand).
            view = table_.state.view(0 if seat is None else seat)
            expected_view = ordered(view.to_json())
            if seat is None:
                expected_view = [(key, None if key in ("seat", "hand") else item) for key, item in expected_view]
            assert ordered(text)[-1] == ("view", expected_view)
    # The log, read as text, is each entry's value written once.
    assert [json.loads(public) for _, public, _ in table_.log] == [entry.value(None) for entry in table_.entries]


def test_every_spectator_is_sent_the_same_text_and_each_seat_its_own() -> None:
    live = LiveTable(Table.new(seats=("human",) * 4, seed=4, dealer=0))
    joining = [(seat, Socket()) for seat in (0, 1, 2, 3, None, None, None)]
    connections = [Connection(socket, live.table, seat, Limits()) for seat, socket in joining]  # type: ignore[arg-type]

    async def join() -> None:
        for connection in connections:
            assert await live.admit(connection)

    asyncio.run(join())
    logged = len(live.table.entries)
    sends = live.commit(*live.table.check(1, "draw"))
    # Each seat's connection in turn, then the spectators'.
    assert [connection for connection, _ in sends[:4]] == connections[:4]
    assert {connection for connection, _ in sends[4:]} == set(connections[4:])
    texts = [text for _, text in sends]
    assert texts[:4] == live.table.frames([0, 1, 2, 3], log=(logged, len(live.table.entries)))
    # The spectators' frame is written once: the very same text goes to each of them.
    assert len(sends) == 7 and texts[4] is texts[5] is texts[6]
    assert texts[4] == live.table.frames([None], log=(logged, len(live.table.entries)))[0]


class Socket:
    """A WebSocket whose client reads everything at once."""

    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        self.texts.append(text)
