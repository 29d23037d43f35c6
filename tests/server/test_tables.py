"""A server table plays a whole game: what it stores and sends, dealing as before (R7)."""

from __future__ import annotations

from golden import expected, server_outputs


def test_r7_a_tables_stored_actions_frames_and_records_are_as_the_stored_outputs_say() -> None:
    # The actions a bots' game stores (seq, seat, text, game over), every frame, the log and
    # the records, for fixed seeds and dealers (tests/golden.py).
    assert server_outputs() == expected("server")


def test_r27_a_tables_bots_choose_the_same_whatever_seed_shuffles_its_deck() -> None:
    # The table's seed shuffles the deck; its bots' randomness must not come from it (R27):
    # tables dealt from other seeds give each seat's bot the same answer to the same view.
    from persian_rummy import play
    from persian_rummy.bots import GreedyBot
    from persian_rummy.server.tables import Table

    seats = ("random", "mc", "random", "mc")
    tables = [Table.new(seats=seats, seed=seed, dealer=0) for seed in (1, 2, 3)]
    state = tables[0].state
    for _ in range(40):
        seat = state.current_player
        view = state.view(seat)
        answers = {str(table.bots[seat](view)) for table in tables}  # type: ignore[misc]
        assert len(answers) == 1, (seat, answers)
        state = play(state, GreedyBot()(view))
