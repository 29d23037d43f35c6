"""The serving page's picture of the table (docs/_static/serving-seat.svg) is what the server
sends a seat's page: the picture of :meth:`Table.frame` for that seat and position."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from persian_rummy.server.tables import Table

DOCS = Path(__file__).resolve().parent.parent.parent / "docs"


def test_the_serving_pages_picture_is_the_frame_a_seat_is_sent() -> None:
    spec = importlib.util.spec_from_file_location("make_pictures", DOCS / "make_pictures.py")
    assert spec is not None and spec.loader is not None
    pictures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pictures)
    state = pictures.serving_position()
    table = Table.new(seats=("greedy", "greedy", "human", "greedy"), seed=7)
    frame = table.frame(2, state)
    committed = (DOCS / "_static" / "serving-seat.svg").read_text(encoding="utf-8")
    assert committed == "".join(frame["picture"]) + "\n"
    assert frame["legal"]  # South is to act: the page offers these actions
