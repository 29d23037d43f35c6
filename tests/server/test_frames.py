"""The frames a table writes together for all its connections (each piece of the pictures
encoded once for them all) are each connection's own frame, field by field: the picture its
view draws, its view, its legal actions (R27: a spectator's picture shows no hand)."""

from __future__ import annotations

import json
import random

import pytest

from persian_rummy import legal_actions
from persian_rummy.server.tables import Table
from persian_rummy.svg import cards_in, table

SEATS = (0, 1, 2, 3, None)


def expected(table_: Table, seat: int | None, last: dict[str, object]) -> dict[str, object]:
    """A frame built field by field from the rules and the picture, as a client reads it."""
    state = table_.state
    view = state.view(0 if seat is None else seat)
    return {
        "type": "state",
        "seq": table_.seq,
        "seat": seat,
        "deal": state.deal_number,
        "deals": state.rules.deals,
        "phase": state.phase.value,
        "turn": state.current_player,
        "scores": list(state.scores),
        "names": list(table_.names),
        "seats": list(table_.seats),
        "last": last,
        "svg": table(view, spectator=seat is None),
        "legal": [str(action) for action in legal_actions(view)] if seat is not None and view.is_to_move else [],
        "view": None if seat is None else json.loads(view.to_json()),
    }


@pytest.mark.parametrize("game", range(3))
def test_frames_written_together_are_each_connections_own_frame(game: int) -> None:
    table_ = Table.new(seats=("human",) * 4, seed=game, dealer=game, names=("Ann", "Bé", "Cy", "Dee"))
    rng = random.Random(game)
    positions = 0
    while not table_.finished:
        seat = table_.state.current_player
        action = rng.choice(list(legal_actions(table_.state)))
        table_.apply(seat, action)
        last = {"seat": seat, "action": str(action), "seq": table_.seq}
        texts = table_.frame_texts(SEATS, last=last)
        assert texts == [table_.frame_text(seat, last=last) for seat in SEATS]
        for seat, text in zip(SEATS, texts, strict=True):
            frame = json.loads(text)
            sheet = frame.pop("sheet")
            assert frame == expected(table_, seat, last)
            assert (sheet is None) == table_.state.phase.is_live
        # R27: the spectator's picture shows the pile and the melds, and a hand only once the
        # round is over (R23).
        shown = {str(card) for card in table_.state.discard_pile} | {
            str(card) for meld in table_.state.melds for card in meld.cards
        }
        if table_.state.phase.is_live:
            assert set(cards_in(json.loads(texts[-1])["svg"])) <= shown
        positions += 1
    assert positions > 50
