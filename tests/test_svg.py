"""Pictures of the table (persian_rummy.svg): structure, and no hidden card in a view (R27)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from persian_rummy import (
    DECK,
    ArgumentTypeError,
    GameState,
    InvalidArgumentError,
    InvalidStateError,
    PlayerView,
    Rules,
    draw_discard,
    legal_actions,
    new_game,
    next_deal,
    play,
)
from persian_rummy.scoring import score_round
from persian_rummy.state import TEAM_NAMES, Phase
from persian_rummy.strategies import game_states
from persian_rummy.svg import card, cards_in, seat_tables, table, table_parts

SVG = "{http://www.w3.org/2000/svg}"


def _playout(seed: int, steps: int) -> GameState:
    """A state reached by random legal play from a seeded deal (across deals, too)."""
    rng = random.Random(seed)
    state = new_game(seed, rules=Rules(deals=2))
    for _ in range(steps):
        if state.phase is Phase.ROUND_OVER:
            state = next_deal(state, seed + 1)
        if state.phase is Phase.GAME_OVER:
            break
        state = play(state, rng.choice(legal_actions(state)))
    return state


def _groups(picture: str, css_class: str) -> list[ET.Element]:
    root = ET.fromstring(picture)
    return [element for element in root.iter(f"{SVG}g") if css_class in element.attrib.get("class", "").split()]


def _hand_cards(picture: str, seat: int) -> tuple[list[str], int]:
    """The face-up cards and the number of card backs drawn in ``seat``'s hand."""
    (hand,) = [group for group in _groups(picture, "hand") if group.attrib["data-seat"] == str(seat)]
    faces = [element.attrib["data-card"] for element in hand.iter(f"{SVG}g") if "data-card" in element.attrib]
    backs = sum("back" in element.attrib.get("class", "").split() for element in hand.iter(f"{SVG}g"))
    return faces, backs


def _public_cards(state: GameState | PlayerView) -> Counter[str]:
    public: Counter[str] = Counter(map(str, state.discard_pile))
    for meld in state.melds:
        public.update(map(str, meld.cards))
    return public


# Reachable states two ways: random play across deals, and the library's own strategy (every
# rules knob, games shrinking towards short ones).
states = st.one_of(st.builds(_playout, st.integers(0, 10_000), st.integers(0, 160)), game_states(finished=True))


@settings(max_examples=60, deadline=None)
@given(states, st.integers(0, 3))
def test_r27_view_picture_never_shows_a_hidden_card(state: GameState, seat: int) -> None:
    view = state.view(seat)
    picture = table(view)
    expected = _public_cards(view)
    # After the round every hand is public (R23): a view then holds them as revealed_hands.
    revealed = view.revealed_hands
    shown = [view.hand if other == seat else (revealed[other] if revealed else None) for other in range(4)]
    for hand in shown:
        expected.update(map(str, hand or ()))
    assert Counter(cards_in(picture)) == expected
    for other, hand in enumerate(shown):
        faces, backs = _hand_cards(picture, other)
        if hand is not None:
            assert faces == [str(c) for c in hand] and backs == 0
        else:
            assert view.phase.is_live
            assert faces == [] and backs == view.hand_sizes[other]


@settings(max_examples=40, deadline=None)
@given(states, st.integers(0, 3))
def test_r27_spectator_picture_shows_no_hand_while_the_round_is_played(state: GameState, seat: int) -> None:
    view = state.view(seat)
    picture = table(view, spectator=True)
    expected = _public_cards(view)
    for hand in view.revealed_hands or ():  # after the round every hand is public (R23)
        expected.update(map(str, hand))
    assert Counter(cards_in(picture)) == expected
    if view.phase.is_live:
        assert all(_hand_cards(picture, other) == ([], view.hand_sizes[other]) for other in range(4))
    assert "public table" in picture and "seen by" not in picture


@settings(max_examples=40, deadline=None)
@given(states)
def test_r27_state_picture_shows_every_card_but_the_stock_once(state: GameState) -> None:
    picture = table(state)
    expected = _public_cards(state)
    for hand in state.hands:
        expected.update(map(str, hand))
    assert Counter(cards_in(picture)) == expected
    assert sum(expected.values()) == 56 - len(state.stock)
    (stock,) = _groups(picture, "stock")
    assert stock.attrib["data-count"] == str(len(state.stock))
    for seat, hand in enumerate(state.hands):
        assert _hand_cards(picture, seat) == ([str(c) for c in hand], 0)


@settings(max_examples=30, deadline=None)
@given(states)
def test_r16_every_meld_card_carries_its_credit(state: GameState) -> None:
    picture = table(state)
    melds = _groups(picture, "meld")
    assert [int(group.attrib["data-meld"]) for group in melds] == list(range(len(state.melds)))
    for group, meld in zip(melds, state.melds, strict=True):
        cards = [element for element in group.iter(f"{SVG}g") if "data-card" in element.attrib]
        assert [element.attrib["data-card"] for element in cards] == [str(c) for c in meld.cards]
        credits = [
            int(badge.attrib["data-seat"])
            for element in cards
            for badge in element.iter(f"{SVG}g")
            if badge.attrib.get("class") == "credit"
        ]
        assert credits == list(meld.seats)


def test_r13_discard_pile_is_spread_in_order_with_indices() -> None:
    state = GameState.from_position(["4s 9d", "5s 6s Kd", "Qh Qd", "2c 2d"], "4c 7s 9c 2h")
    picture = table(state)
    (pile,) = _groups(picture, "discard-pile")
    assert [e.attrib["data-card"] for e in pile.iter(f"{SVG}g") if "data-card" in e.attrib] == ["4c", "7s", "9c", "2h"]
    indices = [e.text for e in pile.iter(f"{SVG}text") if e.attrib.get("class") == "pile-index"]
    assert indices == ["0", "1", "2", "3"]


def test_r14_the_card_to_meld_is_highlighted() -> None:
    state = GameState.from_position(["4s 9d", "5s 6s Kd", "Qh Qd", "2c 2d"], "4c 7s 9c 2h")
    state = draw_discard(state, 1)
    picture = table(state)
    highlighted = [group.attrib["data-card"] for group in _groups(picture, "must-meld")]
    assert highlighted == ["7s"]
    assert "must meld" in picture
    # Only the player to move sees the card to meld marked in their hand; others see backs.
    assert [group.attrib["data-card"] for group in _groups(table(state.view(1)), "must-meld")] == ["7s"]
    assert _groups(table(state.view(0)), "must-meld") == []


def test_r3_whose_turn_and_scores_are_shown() -> None:
    state = new_game(1)
    picture = table(state)
    seats = {group.attrib["data-seat"]: group.attrib["data-to-move"] for group in _groups(picture, "seat")}
    assert seats == {"0": "false", "1": "true", "2": "false", "3": "false"}
    scores = {group.attrib["data-team"]: "".join(group.itertext()) for group in _groups(picture, "score")}
    assert scores == {"0": "North-South 0", "1": "East-West 0"}
    assert "East to draw" in picture


def test_r18_finished_round_says_who_went_out() -> None:
    state = GameState.from_position(["9d", "5s 6s", "Qh", "2d"], "2c 7s")
    state = play(play(state, "take 1"), "meld 5s 6s 7s")
    assert state.went_out == 1
    picture = table(state)
    assert "Deal over: East went out" in picture
    (east,) = [group for group in _groups(picture, "seat") if group.attrib["data-seat"] == "1"]
    assert "went out" in "".join(east.itertext())


def test_svg_is_self_contained() -> None:
    picture = table(_playout(5, 80))
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    for element in root.iter():
        for name, value in element.attrib.items():
            if name.endswith("href"):
                assert value.startswith("#"), value
    assert "http://" not in picture.replace("http://www.w3.org/2000/svg", "")
    assert "@import" not in picture and "url(http" not in picture


def test_repr_svg_delegates_to_table() -> None:
    state = _playout(2, 30)
    assert state._repr_svg_() == table(state)
    assert state.view(3)._repr_svg_() == table(state.view(3))


def test_card_element_per_card_and_jokers() -> None:
    joker = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{card("Jk")}</svg>')
    (group,) = joker.iter(f"{SVG}g")
    assert group.attrib == {"class": "card", "data-card": "Jk", "transform": "translate(0,0)"}
    assert "JK" in "".join(group.itertext())


def test_r23_view_of_a_finished_round_shows_every_hand() -> None:
    state = GameState.from_position(["9d 4s", "5s 6s", "Qh", "2d Kc"], "2c 7s")
    state = play(play(state, "take 1"), "meld 5s 6s 7s")  # East goes out (R18)
    picture = table(state.view(0))
    for seat, hand in enumerate(state.hands):
        assert _hand_cards(picture, seat) == ([str(c) for c in hand], 0)


def test_bad_arguments_raise_specific_errors_not_assertion_or_index_errors() -> None:
    with pytest.raises(InvalidStateError, match="R3: a card is credited to a seat 0-3, not 9"):
        card("7c", credit=9)
    with pytest.raises(TypeError, match="GameState or a PlayerView, not int"):
        table(42)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="takes an Observation, not str"):
        table(new_game(1), last="E draw")  # type: ignore[arg-type]


# --- Layout: where the hands are drawn.

CARD_W, CARD_H = 46, 66


def _boxes(picture: str, seat: int) -> list[tuple[float, float]]:
    """The top-left corners of the cards (faces and backs) of ``seat``'s hand."""
    (hand,) = [group for group in _groups(picture, "hand") if group.attrib["data-seat"] == str(seat)]
    corners = []
    for element in hand.iter(f"{SVG}g"):
        if "card" in element.attrib.get("class", "").split():
            x, y = element.attrib["transform"].removeprefix("translate(").removesuffix(")").split(",")
            corners.append((float(x), float(y)))
    return corners


def _big_hands() -> GameState:
    # West holds 20 cards, East 14, South 12 and North none, after a long game of takes.
    deck = [str(card) for card in DECK if not card.is_joker]
    hands = ["", " ".join(deck[20:34]), " ".join(deck[34:46]), " ".join(deck[:20])]
    return GameState.from_position(hands, " ".join(deck[46:52]), current_player=3)


@pytest.mark.parametrize("seat", [1, 3])
def test_side_hands_show_every_card_index_and_stay_clear_of_south(seat: int) -> None:
    for state in (_big_hands(), new_game(1), _playout(3, 120)):
        picture = table(state)
        corners = _boxes(picture, seat)
        south_top = min((y for _, y in _boxes(picture, 2)), default=float("inf"))
        assert all(y + CARD_H < south_top for _, y in corners)
        # Each card's corner (rank and suit) is not covered by a later card of the hand.
        for position, (x, y) in enumerate(corners):
            for later_x, later_y in corners[position + 1 :]:
                covers = later_x < x + 24 and later_y < y + 30 and later_x + CARD_W > x and later_y + CARD_H > y
                assert not covers, (state, position)
        # And the hand stays at its edge of the table, clear of the centre (which starts at
        # the "Stock" heading and ends with the right edge of the discard pile's heading row).
        root = ET.fromstring(picture)
        (stock_x,) = [float(t.attrib["x"]) for t in root.iter(f"{SVG}text") if t.text == "Stock"]
        pile_right = max(x for x, _ in _pile_corners(picture)) + CARD_W
        if seat == 3:
            assert all(x + CARD_W < stock_x for x, _ in corners)
        else:
            assert all(x > pile_right for x, _ in corners)


def _pile_corners(picture: str) -> list[tuple[float, float]]:
    (pile,) = _groups(picture, "discard-pile")
    return [
        tuple(map(float, g.attrib["transform"].removeprefix("translate(").removesuffix(")").split(",")))  # type: ignore[misc]
        for g in pile.iter(f"{SVG}g")
        if "data-card" in g.attrib
    ]


def test_an_empty_hand_leaves_no_blank_band() -> None:
    both = GameState.from_position(["4s", "5s 6s", "Qh", "2c 2d"], "4c")
    no_north = GameState.from_position(["", "5s 6s", "Qh 4s", "2c 2d"], "4c")
    no_south = GameState.from_position(["4s Qh", "5s 6s", "", "2c 2d"], "4c")

    def height(state: GameState) -> float:
        return float(ET.fromstring(table(state)).attrib["height"])

    # The band a hand of cards takes is gone (North's label keeps a line of its own above the
    # side labels).
    assert height(no_north) <= height(both) - CARD_H + 30
    assert height(no_south) <= height(both) - CARD_H + 30

    # Without North's cards the side labels move up, next to North's label.
    def west_label_top(state: GameState) -> float:
        (label,) = [g for g in _groups(table(state), "seat") if g.attrib["data-seat"] == "3"]
        return float(label.find(f"{SVG}rect").attrib["y"])  # type: ignore[union-attr]

    assert west_label_top(no_north) <= west_label_top(both) - CARD_H + 30


def test_the_last_action_is_said_and_its_cards_marked() -> None:
    from persian_rummy import Observation

    state = GameState.from_position(["4s 9d", "5s 6s Kd", "Ks Kh", "2c 2d"], "4c 7s 9c 2h")
    taken = play(state, "take 1")
    picture = table(taken, last=Observation.parse("E take 1 = 7s 9c 2h"))
    assert "Last: East took 7♠ 9♣ 2♥ from the discard pile" in picture
    assert sorted(g.attrib["data-card"] for g in _groups(picture, "marked")) == ["2h", "7s", "9c"]
    # A view marks only what its seat sees: North sees East's cards as backs.
    assert _groups(table(taken.view(0), last=Observation.parse("E take 1 = 7s 9c 2h")), "marked") == []

    melded = play(taken, "meld 5s 6s 7s")
    picture = table(melded, last=Observation.parse("E meld 5s 6s 7s"))
    assert "Last: East melded 5♠ 6♠ 7♠" in picture
    assert [g.attrib["data-card"] for g in _groups(picture, "marked")] == ["5s", "6s", "7s"]

    discarded = play(melded, "discard Kd")
    picture = table(discarded, last=Observation.parse("E discard Kd"))
    assert "Last: East discarded K♦" in picture
    assert [g.attrib["data-card"] for g in _groups(picture, "marked")] == ["Kd"]
    assert "Last: South passed" in table(discarded, last=Observation.parse("S pass"))
    assert "Last: South drew from the stock" in table(discarded, last=Observation.parse("S draw"))


def test_r16_a_lay_off_marks_the_card_laid_off() -> None:
    from persian_rummy import Observation

    state = GameState.from_position(["4s 8h", "5s", "Ks", "2c"], "4c", melds=["5h@0 6h@0 7h@0"], current_player=0)
    after = play(play(state, "draw"), "layoff 8h 0")
    assert "marked" not in table(after)
    picture = table(after, last=Observation.parse("N layoff 8h 0"))
    assert "Last: North laid off 8♥ on meld #0" in picture
    assert [g.attrib["data-card"] for g in _groups(picture, "marked")] == ["8h"]


def test_r22_r26_a_finished_deal_shows_its_score_sheet_and_the_game_its_result() -> None:
    state = GameState.from_position(["9d", "5s 6s", "Qh", "2d"], "2c 7s", melds=["Js@0 Jh@0 Jd@0 Jc@0"])
    over = play(play(state, "take 1"), "meld 5s 6s 7s")
    (sheet,) = _groups(table(over), "score-sheet")
    rows = {g.attrib["data-team"]: [t.text for t in g.iter(f"{SVG}text")] for g in _groups(table(over), "score-row")}
    assert "Score sheet, deal 1" in "".join(sheet.itertext())
    for score in score_round(over):
        items = (score.melded, score.laid_off, score.doubles, -score.in_hand, score.going_out, score.total)
        assert rows[str(score.team)] == [TEAM_NAMES[score.team], *map(str, items), str(over.scores[score.team])]
    assert _groups(table(state), "score-sheet") == []
    assert _groups(table(over.view(2)), "score-sheet")  # a finished deal's view shows every hand (R23)
    game = _playout(11, 2_000)
    assert game.phase is Phase.GAME_OVER
    assert " win, " in table(game) or "The game is a draw" in table(game)


def test_r14_the_gold_must_meld_outline_is_drawn_above_the_cyan_taken_outline() -> None:
    # The 7♠ just taken is both marked (the last action moved it) and the card to meld: both
    # outlines show, the gold one around the cyan one and drawn after it (on top).
    from persian_rummy import Observation

    state = GameState.from_position(["4s 9d", "5s 6s Kd", "Ks Kh", "2c 2d"], "4c 7s 9c 2h")
    picture = table(play(state, "take 1"), last=Observation.parse("E take 1 = 7s 9c 2h"))
    (seven,) = [group for group in _groups(picture, "must-meld") if "marked" in group.attrib["class"]]
    rings = [rect for rect in seven if rect.tag.endswith("rect") and rect.attrib.get("fill") == "none"]
    assert [rect.attrib["stroke"] for rect in rings] == ["#00e5ff", "#ffb300"]  # cyan, then gold above it
    cyan, gold = rings
    # Each ring's band (x - width/2 .. x + width/2 of its stroke) lies apart: the gold one outside.
    cyan_outer = float(cyan.attrib["x"]) - float(cyan.attrib["stroke-width"]) / 2
    gold_inner = float(gold.attrib["x"]) + float(gold.attrib["stroke-width"]) / 2
    assert gold_inner <= cyan_outer


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400))
def test_r27_the_pictures_drawn_together_are_each_seats_own(seed: int, steps: int) -> None:
    """The server draws every viewer's picture of a position at once; each is the picture of
    that seat's view (and the spectator's, of the public table), piece by piece."""
    state = _playout(seed, steps)
    seats = [0, 1, 2, 3, None]
    drawn = seat_tables(state, seats)
    for seat, pieces in zip(seats, drawn, strict=True):
        assert pieces == table_parts(state.view(0 if seat is None else seat), spectator=seat is None)
        assert "".join(pieces) == table(state.view(0 if seat is None else seat), spectator=seat is None)
    # What the pictures share is the same strings, drawn once.
    assert drawn[0][-2] is drawn[4][-2]


def test_seat_tables_refuses_what_is_not_a_state_or_a_seat() -> None:
    state = new_game(1)
    with pytest.raises(ArgumentTypeError, match="GameState"):
        seat_tables(state.view(0), [0])  # type: ignore[arg-type]
    for seat in (4, -1, True, "0", 1.0):
        with pytest.raises(InvalidStateError, match="R3"):
            seat_tables(state, [seat])  # type: ignore[list-item]


def test_a_theme_recolours_every_piece_of_its_roles_and_nothing_else() -> None:
    # As python-chess's colors=: the default theme draws the library's pictures exactly, and
    # another theme changes the colours of the roles it names, never the layout.
    import re

    from persian_rummy.svg import Theme

    state = new_game(3)
    plain = table(state.view(1))
    assert table(state.view(1), colors=Theme()) == plain == table(state.view(1), colors={})
    themed = table(state.view(1), colors={"felt": "#102030", "red": "crimson", "north_south": "#abc"})
    assert "#2e7d4f" not in themed and 'fill="#102030"' in themed and "#c62828" not in themed
    assert re.sub(r'"(#102030|crimson|#abc)"', "", themed) == re.sub(r'"(#2e7d4f|#c62828|#1565c0)"', "", plain)
    parts = seat_tables(state, [0, None], colors=Theme(felt="#102030"))
    assert "".join(parts[0]) == table(state.view(0), colors={"felt": "#102030"})
    assert 'fill="#102030"' in card("Qd", colors={"paper": "#102030"})


@pytest.mark.parametrize(
    ("colors", "error"),
    [
        ({"felt": 'red" onload="x'}, InvalidArgumentError),
        ({"felt": "url(#x)"}, InvalidArgumentError),
        ({"grass": "#000"}, InvalidArgumentError),
        (["felt"], ArgumentTypeError),
    ],
)
def test_a_theme_takes_colours_only(colors: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        table(new_game(1), colors=colors)  # type: ignore[arg-type]


def test_r23_the_pictures_header_shows_the_points_melded_in_a_deal() -> None:
    """Issue 50 item 12's class: the picture's score pills said 0-0 after melds, as the text's
    line did; while a deal with melds is played each pill shows its team's points on the table."""
    from persian_rummy import GameState
    from persian_rummy.svg import table

    melded = GameState.from_position(
        ["", "5s 6s 7s 8s", "", ""], "2c 8c 8h", melds=["Kd@0 Qd@0 Jd@0", "4h@1 4d@1 4c@1 4s+3"]
    )
    picture = table(melded)
    assert ">North-South 0 +30</text>" in picture and ">East-West 0 +16</text>" in picture
    plain = table(GameState.from_position(["", "5s", "", ""], "2c"))
    assert ">North-South 0</text>" in plain and ">East-West 0</text>" in plain
