"""No hidden card crosses the wire (R27): bot-only games played by real WebSocket clients
against uvicorn on 127.0.0.1; every byte each seat (and a spectator) receives is checked
against the cards that seat has seen by then."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable

import pytest
import websockets
from live import LiveServer, create_table

from persian_rummy import DECK, GameState
from persian_rummy.server.client import SeatClient
from persian_rummy.server.tables import Table
from persian_rummy.svg import table as picture

# Every way a message may name a card: the library's notation (JSON, action texts, data-card
# attributes), a picture's text (rank and suit symbol, "10" for tens) and a joker by name.
SPELLINGS = {
    spelling: str(card)
    for card in DECK
    for spelling in (str(card), card.symbol, card.symbol.replace("T", "10"), *(("joker",) if card.is_joker else ()))
}
WORDS = re.compile(r"[^0-9A-Za-z♠♥♦♣🃏]+")


def cards_named(message: str) -> set[str]:
    """Every card a message names, in any string of its JSON (decoded, so no escape hides one)."""
    decoded = json.dumps(json.loads(message), ensure_ascii=False)
    words = set(WORDS.split(decoded))
    words |= {word.lower() for word in words if word.lower() == "joker"}
    return {SPELLINGS[word] for word in words & SPELLINGS.keys()}


def visible(state: GameState, seat: int | None) -> set[str]:
    """What ``seat`` (``None``: a spectator) sees in ``state``: its hand, the pile, the melds,
    and every hand once the round is over (R23, R27)."""
    cards = set(map(str, state.discard_pile)) | {str(card) for meld in state.melds for card in meld.cards}
    if seat is not None:
        cards |= set(map(str, state.hands[seat]))
    if not state.phase.is_live:
        cards |= {str(card) for hand in state.hands for card in hand}
    return cards


def seen_by_seq(table: Table, seat: int | None) -> list[set[str]]:
    """``seen[k]``: every card ``seat`` has seen once ``k`` actions of the game were played."""
    states = iter(table.record().replay().states)
    seen: list[set[str]] = []
    for deal in table.deals:
        first = visible(next(states), seat)
        if seen:  # a deal's first state comes at the seq of the action that ended the last one
            seen[-1] |= first
        else:
            seen.append(first)
        for _ in deal:
            seen.append(seen[-1] | visible(next(states), seat))
    return seen


def check_messages(messages: Iterable[str], seen: list[set[str]]) -> int:
    """Assert that each message names only cards seen by the seq of the latest state frame."""
    seq, checked = 0, 0
    for message in messages:
        frame = json.loads(message)
        seq = frame.get("seq", seq) if frame.get("type") in ("state", "ack") else seq
        leaked = cards_named(message) - seen[seq]
        assert not leaked, f"seq {seq}: {sorted(leaked)} named in {message[:300]}"
        checked += 1
    return checked


async def watch(url: str, messages: list[str]) -> None:
    async with websockets.connect(url) as socket:
        async for message in socket:
            messages.append(str(message))
            if json.loads(message).get("phase") == "game_over":
                return


async def play_games(
    server: LiveServer, games: int, bots: tuple[str, ...]
) -> list[tuple[str, list[SeatClient], list[str]]]:
    """``games`` tables of four bot clients and a spectator each, all played at once."""
    loop = asyncio.get_running_loop()
    tables, runs = [], []
    for game in range(games):
        created = await loop.run_in_executor(None, create_table, server.url, ["human"] * 4)
        clients = [
            SeatClient(
                server.ws + seat["token"],
                bots[(game + seat["seat"]) % len(bots)],
                seed=game * 4 + seat["seat"],
                keep=True,
            )
            for seat in created["seats"]
        ]
        spectator: list[str] = []
        tables.append((created["id"], clients, spectator))
        runs += [client.run() for client in clients] + [watch(server.ws + created["spectator"]["token"], spectator)]
    # Only a guard against a hang: sixteen games on a busy machine take minutes, and the test's
    # own limit (pytest-timeout's) stands behind it.
    await asyncio.wait_for(asyncio.gather(*runs), timeout=900)
    return tables


def run_leak_check(server: LiveServer, games: int, bots: tuple[str, ...]) -> int:
    checked = 0
    tables = asyncio.run(play_games(server, games, bots))
    live = server.app.state.server
    for table_id, clients, spectator_messages in tables:
        table = live.tables[table_id]
        assert table.finished
        for seat, client in enumerate(clients):
            assert client.finished and not client.errors
            assert sorted(client.acks) == sorted(set(client.acks)) and client.acks
            checked += check_messages(client.messages, seen_by_seq(table, seat))
        checked += check_messages(spectator_messages, seen_by_seq(table, None))
        assert json.loads(spectator_messages[-1])["phase"] == "game_over"
    return checked


def test_the_checker_sees_a_hidden_card() -> None:
    table = Table.new(seats=("human",) * 4, seed=1, dealer=0)
    seen = seen_by_seq(table, 0)
    honest = table.frames([0])[0]
    assert check_messages([honest], seen) == 1
    leaky = json.dumps({"type": "state", "seq": 0, "svg": picture(table.state)})  # every hand face up
    with pytest.raises(AssertionError, match="named in"):
        check_messages([leaky], seen)
    with pytest.raises(AssertionError, match="named in"):
        check_messages([json.dumps({"type": "state", "seq": 0, "note": "East holds 10♦"})], seen_by_seq(table, 2))


def test_r27_no_card_a_seat_has_not_seen_crosses_the_wire(live_server: LiveServer) -> None:
    assert run_leak_check(live_server, games=1, bots=("random", "greedy")) > 250


@pytest.mark.thorough
def test_r27_no_card_a_seat_has_not_seen_crosses_the_wire_in_many_games(live_server: LiveServer) -> None:
    assert run_leak_check(live_server, games=16, bots=("random", "greedy", "greedy", "random")) > 10_000
