"""Every name a module kept when it moved still gives its new value, with a deprecation
warning that names the new one (one helper answers each module's ``__getattr__``), and any
other missing name is the module's AttributeError."""

from __future__ import annotations

import importlib

import pytest

#: (module, old name, where the value is now, its name there)
MOVED = [
    ("persian_rummy.server", "Store", "persian_rummy.server", "SqliteStore"),
    ("persian_rummy.server.store", "Store", "persian_rummy.server.store", "SqliteStore"),
    ("persian_rummy.server.store", "SQLiteStorage", "persian_rummy.server.store", "SqliteStore"),
    ("persian_rummy.server.storage", "Storage", "persian_rummy.server.storage", "Database"),
    ("persian_rummy.server.hub", "BadMessage", "persian_rummy.server.protocol", "BadMessage"),
    ("persian_rummy.server.hub", "ClientMessage", "persian_rummy.server.protocol", "ClientMessage"),
    ("persian_rummy.server.hub", "parse_message", "persian_rummy.server.protocol", "parse_message"),
    ("persian_rummy.vector", "Position", "persian_rummy.vector", "GameArrays"),
]


@pytest.mark.parametrize(("module", "old", "home", "new"), MOVED)
def test_a_moved_name_gives_its_new_value_with_a_warning_naming_it(module: str, old: str, home: str, new: str) -> None:
    found = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"^{module}\.{old} is now {home}\.{new}\b.*later release$") as caught:
        value = getattr(found, old)
    assert caught[0].filename == __file__  # the warning points at the code that used the old name
    assert value is getattr(importlib.import_module(home), new)
    with pytest.raises(AttributeError, match=rf"module '{module}' has no attribute 'Nothing'"):
        _ = found.Nothing


def test_the_old_frame_builders_warn_and_still_build_their_frames() -> None:
    from persian_rummy.server import connections

    for old, new in (("ack_frame", "Ack"), ("error_frame", "ErrorFrame")):
        with pytest.warns(
            DeprecationWarning, match=rf"connections\.{old} is now persian_rummy\.server\.protocol\.{new}"
        ):
            assert callable(getattr(connections, old))
