"""A server table plays a whole game: what it stores and sends, dealing as before (R7)."""

from __future__ import annotations

from golden import expected, server_outputs


def test_r7_a_tables_stored_actions_frames_and_records_are_as_the_stored_outputs_say() -> None:
    # The actions a bots' game stores (seq, seat, text, game over), every frame, the log and
    # the records, for fixed seeds and dealers (tests/golden.py).
    assert server_outputs() == expected("server")
