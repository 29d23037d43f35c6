"""The seat client (persian_rummy.server.client): what it takes for a bot. Its games against a
live server are in test_client_rate, test_crash and test_leaks."""

from __future__ import annotations

import pytest

from persian_rummy import Action, ArgumentTypeError, PlayerView, legal_actions
from persian_rummy.arena import BotFactory
from persian_rummy.bots import GreedyBot
from persian_rummy.server.client import SeatClient

URL = "ws://127.0.0.1:8000/ws/TOKEN"


class FirstLegal:
    def __call__(self, view: PlayerView) -> Action:
        return legal_actions(view)[0]


def test_a_seat_client_takes_any_bot_spec_the_arena_takes() -> None:
    """A name, a BotFactory (made with the client's seed), a class (made without arguments)
    or a bot (played as it is); it took only a name or a bot."""
    mine = FirstLegal()
    assert repr(SeatClient(URL, "greedy", seed=3).bot) == "GreedyBot(seed=3)"
    assert repr(SeatClient(URL, BotFactory(GreedyBot), seed=3).bot) == "GreedyBot(seed=3)"
    assert isinstance(SeatClient(URL, FirstLegal).bot, FirstLegal)
    assert SeatClient(URL, mine).bot is mine


@pytest.mark.parametrize("spec", [3, lambda: None, BotFactory(lambda seed: "not a bot")])  # type: ignore[arg-type,return-value]
def test_a_seat_client_refuses_what_is_not_a_bot_when_it_is_made(spec: object) -> None:
    with pytest.raises(ArgumentTypeError, match="a bot"):
        SeatClient(URL, spec)  # type: ignore[arg-type]
