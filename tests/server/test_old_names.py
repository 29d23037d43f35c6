"""The server's names from before its parts met at values still work, each with a warning that
names its replacement: the SQLite store (``Store``, ``SQLiteStorage``), the interface
(``Storage``), the frames built outside the protocol (``ack_frame``, ``error_frame``, with
the same values as before) and the decoder once in the hub."""

from __future__ import annotations

import importlib

import pytest

from persian_rummy.server import protocol, storage, store
from persian_rummy.server.protocol import Ack, ErrorFrame, encode_frame


@pytest.mark.parametrize(
    ("module", "name", "new"),
    [
        ("persian_rummy.server", "Store", store.SqliteStore),
        ("persian_rummy.server.store", "Store", store.SqliteStore),
        ("persian_rummy.server.store", "SQLiteStorage", store.SqliteStore),
        ("persian_rummy.server.storage", "Storage", storage.Database),
        ("persian_rummy.server.hub", "parse_message", protocol.parse_message),
        ("persian_rummy.server.hub", "BadMessage", protocol.BadMessage),
    ],
)
def test_an_old_name_gives_the_new_one_with_a_warning(module: str, name: str, new: object) -> None:
    with pytest.warns(DeprecationWarning, match=name):
        assert getattr(importlib.import_module(module), name) is new


def test_the_old_frame_builders_give_what_they_gave() -> None:
    connections = importlib.import_module("persian_rummy.server.connections")
    with pytest.warns(DeprecationWarning, match="ErrorFrame"):
        error_frame = connections.error_frame
    with pytest.warns(DeprecationWarning, match="Ack"):
        ack_frame = connections.ack_frame
    assert error_frame("refused", "R12: draw first", id=2) == {
        "type": "error", "code": "refused", "reason": "R12: draw first", "id": 2,
    }  # fmt: skip
    assert error_frame("bad_frame", "no") == ErrorFrame("bad_frame", "no").value()
    assert ack_frame(3, "draw", 7) == encode_frame(Ack(3, "draw", 7)) == '{"type":"ack","seq":3,"action":"draw","id":7}'


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="nothing_here"):
        importlib.import_module("persian_rummy.server.hub").nothing_here  # noqa: B018
