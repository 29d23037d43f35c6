"""A whole game as one value (:class:`~persian_rummy.Game`), and every part of the library that
plays whole games dealing them as before (R5-R7)."""

from __future__ import annotations

import pytest
from golden import arena_outputs, cli_outputs, expected, recorder_outputs


@pytest.mark.parametrize(
    ("section", "make"), [("cli", cli_outputs), ("arena", arena_outputs), ("recorder", recorder_outputs)]
)
def test_r7_whole_games_play_as_the_stored_outputs_say(section: str, make: object) -> None:
    # The command line's output and records, the arena's results and a recorder's record for
    # fixed seeds, byte for byte (tests/golden.py).
    assert make() == expected(section)  # type: ignore[operator]
