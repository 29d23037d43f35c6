"""The frames a table writes together for all its connections (each piece of the pictures
encoded once for them all) are each connection's own frame, field by field: the picture its
view draws, its view, its legal actions (R27: a spectator's picture shows no hand). A frame
after a connection's first sends the pieces of its picture that the connection holds as
their indices in its last picture, and a client rebuilds every picture exactly."""

from __future__ import annotations

import json
import random

import pytest

from persian_rummy import legal_actions
from persian_rummy.errors import InvalidArgumentError
from persian_rummy.server.client import Pictures
from persian_rummy.server.tables import Table
from persian_rummy.svg import cards_in, table, table_parts

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
        "picture": list(table_parts(view, spectator=seat is None)),
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
            assert set(cards_in("".join(json.loads(texts[-1])["picture"]))) <= shown
        positions += 1
    assert positions > 50


@pytest.mark.parametrize("game", range(3))
def test_a_connections_frames_rebuild_each_picture_from_the_pieces_it_holds(game: int) -> None:
    table_ = Table.new(seats=("human",) * 4, seed=game, dealer=game)
    rng = random.Random(game)
    # Each connection's last picture sent (its index) and its client's rebuilt pictures.
    sent: dict[int | None, tuple[str, ...] | None] = dict.fromkeys(SEATS)
    clients = {seat: Pictures() for seat in SEATS}
    before: dict[int | None, list[str]] = {seat: [] for seat in SEATS}
    whole = written = 0
    while not table_.finished:
        seat = table_.state.current_player
        action = rng.choice(list(legal_actions(table_.state)))
        table_.apply(seat, action)
        last = {"seat": seat, "action": str(action), "seq": table_.seq}
        for viewer, frame in zip(SEATS, table_.frames(SEATS, last=last), strict=True):
            text = frame.text(sent[viewer])
            sent[viewer] = frame.pieces
            received = json.loads(text)
            view = table_.state.view(0 if viewer is None else viewer)
            # The client's picture is exactly the one the view draws ...
            assert clients[viewer].read(received) == table(view, spectator=viewer is None)
            # ... every other field is the whole frame's ...
            full = json.loads(frame.text())
            assert {key: value for key, value in received.items() if key != "picture"} == {
                key: value for key, value in full.items() if key != "picture"
            }
            # ... and a piece is written out only when the last picture had none like it.
            pieces = list(table_parts(view, spectator=viewer is None))
            assert [piece for piece in received["picture"] if isinstance(piece, str)] == [
                piece for piece in pieces if piece not in before[viewer]
            ]
            before[viewer] = pieces
            whole += len(frame.text())
            written += len(text)
    assert written < whole / 3  # most of a picture stays as it was from one action to the next


def test_a_picture_that_refers_to_a_piece_it_was_not_sent_is_refused_and_changes_nothing() -> None:
    pictures = Pictures()
    assert pictures.read({"picture": ["<svg>", "</svg>"]}) == "<svg></svg>"
    for bad in ([2], [-1], [True], [1.0], [None], "<svg>", None):
        with pytest.raises(InvalidArgumentError, match="picture"):
            pictures.read({"picture": bad})
        assert pictures.pieces == ("<svg>", "</svg>")
    for frame in ({}, [], "state", None):  # not a state frame at all
        with pytest.raises(InvalidArgumentError, match="picture"):
            pictures.read(frame)  # type: ignore[arg-type]
    assert pictures.pieces == ("<svg>", "</svg>")
