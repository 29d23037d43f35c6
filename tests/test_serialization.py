"""JSON for states, views and rules (:mod:`persian_rummy.serialization`): what ``to_json`` and
``from_json`` take, the views of one position written together (R27), and the converter a
user embeds our values with. The round trips of every form are in ``test_notation``, the
hostile inputs in ``test_malformed_input`` and ``test_limits``."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from playouts import reachable_states
from positions import after_draw

from persian_rummy import Card, GameState, Hand, NotationError, Rules, new_game
from persian_rummy.serialization import from_json, make_converter, to_json, views_to_json


@pytest.mark.parametrize("value", [Hand("4s"), Card.parse("4s"), "text", 3])
def test_to_json_writes_only_states_views_and_rules(value: object) -> None:
    with pytest.raises(NotationError, match="to_json writes a GameState, a PlayerView or Rules"):
        to_json(value)  # type: ignore[arg-type]


def test_from_json_reads_only_states_views_and_rules() -> None:
    with pytest.raises(NotationError, match="from_json reads a GameState, a PlayerView or Rules"):
        from_json(to_json(Rules()), Hand)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [b"\xff\xfe", 42, None])
def test_from_json_rejects_what_is_not_json_text(text: object) -> None:
    with pytest.raises(NotationError):
        from_json(text, Rules)  # type: ignore[arg-type]


def test_from_json_reads_utf8_bytes() -> None:
    assert from_json(to_json(Rules(deals=3)).encode(), Rules) == Rules(deals=3)


@given(reachable_states(), st.lists(st.sampled_from(range(4)), max_size=6))
def test_r27_the_views_of_a_position_are_written_as_each_alone(state: GameState, seats: list[int]) -> None:
    # views_to_json writes what the views share once; each text is still the view's own.
    views = [state.view(seat) for seat in seats]
    assert views_to_json(views) == [view.to_json() for view in views]
    mixed = [new_game(seed).view(seat) for seed, seat in ((1, 0), (2, 0), (1, 3))]  # of several positions
    assert views_to_json(mixed) == [view.to_json() for view in mixed]


def test_views_to_json_writes_views_only() -> None:
    with pytest.raises(NotationError, match="views_to_json writes PlayerViews, not GameState"):
        views_to_json([new_game(1).view(0), new_game(1)])


@attrs.frozen
class Saved:
    """A user's own value that holds one of ours."""

    name: str
    state: GameState


def test_make_converter_embeds_a_state_in_a_users_class_as_text_and_leaves_the_library_as_it_was() -> None:
    # North laid the sevens down and East laid off the fourth (R16): the meld keeps the credits.
    state = after_draw(["", "4s 5s", "", ""], "2c", pile="9h", melds=["7s@0 7h@0 7d@0 7c+1"])
    before = to_json(state)
    converter = make_converter()
    fields = converter.unstructure(Saved("puzzle", state))
    assert fields["name"] == "puzzle" and fields["state"]["hands"][1] == "4s 5s 2c"
    assert fields["state"]["melds"] == ["7s@0 7h@0 7d@0 7c+1"] and fields["state"]["discard_pile"] == "9h"
    assert converter.structure(json.loads(json.dumps(fields)), Saved) == Saved("puzzle", state)
    # A hook registered on the copy changes the copy only.
    converter.register_unstructure_hook(Hand, lambda hand: "hidden")
    assert converter.unstructure(state)["hands"] == ["hidden"] * 4
    assert to_json(state) == before and make_converter().unstructure(state)["hands"][1] == "4s 5s 2c"
    assert from_json(before, GameState) == state
