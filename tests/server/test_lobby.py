"""The lobby's form, as a newcomer reads it: each level is offered once, by its name and what
it is like (issues 37 and 40), from the library's one list of levels."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from persian_rummy import PersianRummyError, Rules
from persian_rummy.bots import DEFAULT_LEVEL, LEVELS, make_bot
from persian_rummy.server import create_app, pages
from persian_rummy.server.levels import Level, level_of, levels
from persian_rummy.server.tables import Table


def test_the_lobby_offers_each_level_once_by_its_name_and_description() -> None:
    page = pages.lobby()
    options = re.findall(r'<select name="seat0" aria-describedby="levels">(.*?)</select>', page)[0]
    offered = [
        (value, html.unescape(label))
        for value, label in re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', options)
    ]
    # By name (a list that fits a phone's screen, issue 50); what each is like is in the list
    # of levels that describes the choice.
    assert offered == [("human", "a person")] + [(level.bot, level.name.capitalize()) for level in levels()]
    assert [label for _, label in offered[1:]] == ["Easy", "Medium", "Hard", "Expert"]
    described = re.findall(r'<dl id="levels">(.*?)</dl>', page)[0]
    terms = [html.unescape(term) for term in re.findall(r"<dt>(.*?)</dt><dd>", described)]
    assert terms == ["Easy (greedy bot)", "Medium (mc bot)", "Hard (neural bot)", "Expert"]
    assert [html.unescape(text) for text in re.findall(r"<dd>(.*?)</dd>", described)] == [
        level.description for level in levels()
    ]
    # The library's levels, the ones the command line offers, the default level selected.
    assert [value for value, _ in offered[1:]] == [level.spec for level in LEVELS.values()]
    assert re.search(f'<option value="{LEVELS[DEFAULT_LEVEL].spec}" selected>', options)


def test_no_label_says_a_name_twice_or_runs_two_headings_together() -> None:
    # Issue 50: "the expert bot (expert)", "Easy: Gentle: ...", "Expert (expert bot)", and a
    # seat's name as "South: Tess: the link".
    table = Table.new(seats=("expert", "random", "human", "mc"), names=("North", "Ann", "Tess", "West"))
    page = html.unescape(pages.created(table, {"seats": [(2, "tok")], "spectator": "watch"}, "http://x"))
    items = re.findall(r"<li>([^<]*)", page)
    assert items == [
        "South (Tess): ",
        "North: the expert bot",
        "East (Ann): the random bot",
        "West: the medium bot (mc)",
    ]
    lobby = html.unescape(pages.lobby())
    labels = items + re.findall(r">([^<>]+)</(?:option|dt)>", lobby) + re.findall(r'id="open-seat"[^>]*>([^<]+)<', page)
    assert "Open my seat: South (Tess)" in labels and "Medium (mc bot)" in labels
    for label in labels:
        words = re.findall(r"[a-z]+", label.lower())
        assert label.count(":") <= 1 and len(words) == len(set(words)), label


def test_every_level_is_a_bot_the_library_makes_and_says_what_it_is_like() -> None:
    for level in levels():
        assert isinstance(level, Level) and make_bot(level.bot) is not None
        assert level.description and "\n" not in level.description and len(level.description) <= 60
        assert level_of(level.bot) == level
    assert level_of("montecarlo") == level_of("mc") and level_of("mc:samples=8") is None and level_of("human") is None


def test_the_lobbys_form_makes_a_table_of_the_levels_chosen(tmp_path: Any) -> None:
    with TestClient(create_app(str(tmp_path / "games.sqlite3"))) as client:
        expert = next(level for level in levels() if level.name == "expert")
        form = "seat0=" + expert.bot + "&seat1=random&seat2=human&seat3=mc&preset=default"
        created = client.post("/tables", content=form.encode())
        assert created.status_code == 201
        assert "North: the expert bot</li>" in created.text and "West: the medium bot (mc)" in created.text
        (table,) = client.app.state.server.tables.values()  # type: ignore[attr-defined]
        assert table.seats == ("expert", "random", "human", "mc")


def test_a_table_refuses_the_neural_bot_for_rules_it_was_not_trained_for() -> None:
    # The shipped policy plays the default rules: a table of other rules is refused when it is
    # made, not at the bot's first move.
    other = Rules.parse("deals=1")
    with pytest.raises(PersianRummyError, match="trained for"):
        Table.new(seats=("human", "neural", "greedy", "greedy"), rules=other)
    assert Table.new(seats=("human", "neural", "greedy", "greedy")).bots[1] is not None
