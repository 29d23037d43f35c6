"""The lobby's form, as a newcomer reads it (issue 22): each bot is offered once, by one name."""

from __future__ import annotations

import re

import pytest

from persian_rummy import PersianRummyError, Rules
from persian_rummy.server import pages
from persian_rummy.server.tables import Table


def test_the_lobby_offers_each_bot_once() -> None:
    options = re.findall(r'<select name="seat0">(.*?)</select>', pages.lobby())[0]
    labels = re.findall(r">([^<]+)</option>", options)
    assert labels == ["a person", "random bot", "greedy bot", "montecarlo bot", "neural bot", "expert bot"]


def test_a_table_refuses_the_neural_bot_for_rules_it_was_not_trained_for() -> None:
    # The shipped policy plays the default rules: a table of other rules is refused when it is
    # made, not at the bot's first move.
    other = Rules.parse("deals=1")
    with pytest.raises(PersianRummyError, match="trained for"):
        Table.new(seats=("human", "neural", "greedy", "greedy"), rules=other)
    assert Table.new(seats=("human", "neural", "greedy", "greedy")).bots[1] is not None
