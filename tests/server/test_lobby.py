"""The lobby's form, as a newcomer reads it (issue 22): each bot is offered once, by one name."""

from __future__ import annotations

import re

from persian_rummy.server import pages


def test_the_lobby_offers_each_bot_once() -> None:
    options = re.findall(r'<select name="seat0">(.*?)</select>', pages.lobby())[0]
    labels = re.findall(r">([^<]+)</option>", options)
    assert labels == ["a person", "random bot", "greedy bot", "montecarlo bot", "neural bot"]
