"""The game in words (persian_rummy.presentation): the style of cards, the narration of an
action, the end of a deal and of a game, and the score sheet."""

from __future__ import annotations

import io
import re

import attrs
import pytest
from playouts import RULE_SETS, playout

from persian_rummy import (
    JOKER,
    Action,
    Card,
    DrawDiscard,
    DrawStock,
    GameState,
    LayOff,
    Observation,
    Phase,
    RoundNotOverError,
    Rules,
    play,
)
from persian_rummy.presentation import (
    Style,
    describe,
    narrate,
    result_text,
    round_end_text,
    score_sheet,
)
from persian_rummy.state import SEAT_NAMES
from persian_rummy.svg import table


def test_style_falls_back_to_letters_and_colours_each_suit(monkeypatch: pytest.MonkeyPatch) -> None:
    ascii_stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert not Style.for_stream(ascii_stream).symbols
    assert Style(symbols=False).cards([Card.parse("Th"), JOKER]) == "Th Jk"

    class Unknown(io.StringIO):
        encoding = "no-such-encoding"  # type: ignore[assignment]

    assert not Style.for_stream(Unknown()).symbols
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert not Style.for_stream(io.StringIO(), "never").colour
    colour = Style(colour=True)
    assert colour.card(JOKER) == "\x1b[35mJk\x1b[0m"
    assert colour.card(Card.parse("As")) == "A♠"  # black suits keep the terminal's colour
    assert colour.card(Card.parse("Ah")) == "\x1b[31mA♥\x1b[0m"


def test_r14_describe_a_free_top_card() -> None:
    state = GameState.from_position(["", "2s 9d", "", ""], "4c 7s", rules=Rules(top_card_must_meld=False))
    after = play(state, "take 1")
    assert describe(state, DrawDiscard(1), after, Style()) == "takes 7♠ from the discard pile"


def test_r20_r21_r26_endings_and_a_drawn_game() -> None:
    state = GameState.from_position(["9d", "5s", "Qh", "2d"], "2c")
    idle = attrs.evolve(state, phase=Phase.ROUND_OVER, idle_turns=8)
    assert "(R21)" in round_end_text(idle)
    passed = attrs.evolve(state, phase=Phase.ROUND_OVER, consecutive_passes=4)
    assert "(R20)" in round_end_text(passed)
    drawn = attrs.evolve(passed, phase=Phase.GAME_OVER, deal_number=2, scores=(5, 5))
    assert result_text(drawn) == result_text(drawn, rule=True) == "The game is a draw, 5 all (R26)"
    with pytest.raises(RoundNotOverError):
        score_sheet(state.view(0), Style())


def _moved(before: GameState, action: Action, after: GameState) -> tuple[Card, ...]:
    """The cards ``action`` put in its player's hand (a draw's, in the pile's order), else none."""
    if isinstance(action, DrawDiscard):
        return before.discard_pile[action.index :]
    if isinstance(action, DrawStock):
        return tuple(after.hands[before.current_player] - before.hands[before.current_player])
    return ()


def test_r12_r17_the_terminal_and_the_picture_tell_an_action_in_the_same_words() -> None:
    # Every action of whole games under every rule set: the command line's sentence opens with
    # the narration (then what the rules make of it), and the picture says the same narration
    # in the past tense after the seat's name.
    def symbol(card: Card) -> str:
        return "joker" if card.is_joker else card.symbol

    style = Style()
    kinds: set[type[Action]] = set()
    for seed, rules in enumerate(RULE_SETS[:3]):
        before = None
        for state, action in playout(seed, rules):
            if action is not None and before is not None:
                kinds.add(type(action))
                seat = before.current_player
                moved = _moved(before, action, state)
                target = before.melds[action.meld] if isinstance(action, LayOff) else None
                said = describe(before, action, state, style)
                assert said.startswith(narrate(action, moved, card=style.card, target=target)), said
                if len(kinds) < 6 or isinstance(action, DrawDiscard):  # one picture per kind, and every take
                    past = narrate(action, moved, card=symbol, form="past")
                    assert f"Last: {SEAT_NAMES[seat]} {past}<" in table(state, last=Observation(seat, action, moved))
            before = state
    assert len(kinds) == 6


def test_a_hidden_draw_and_an_unknown_take_are_told_without_their_cards() -> None:
    assert narrate(DrawStock(), form="you") == "draw from the stock"
    assert narrate(DrawDiscard(3)) == "takes the card at index 3 and all above it from the discard pile"


def test_r15_r16_r17_a_refusal_is_addressed_to_the_player_and_names_the_card() -> None:
    from persian_rummy import GameState, PersianRummyError, play
    from persian_rummy.presentation import addressed

    state = play(
        GameState.from_position(["4s 9d", "5s 6s Kd", "Qh Qd", "2c 2d"], "4c 7s 9c 2h", melds=["Js@0 Jh@0 Jd@0"]),
        "draw",
    )
    said = {}
    for action in ("layoff 4s 0", "layoff Kd 0", "discard Qh", "meld 5s 6s 7s"):
        with pytest.raises(PersianRummyError) as refused:
            play(state, action, seat=1)
        said[action] = (refused.value.reason, addressed(refused.value, 1))
    assert said["discard Qh"][1] == "R17: you do not hold Q♥" and "seat 1" in said["discard Qh"][0]
    assert said["meld 5s 6s 7s"][1] == "R15: you do not hold 7♠"
    assert said["layoff 4s 0"][1].startswith("R16: you do not hold 4♠")
    assert said["layoff Kd 0"][1] == "R16: K♦ does not extend meld 0 (J♠ J♥ J♦)"


def test_a_count_of_one_is_said_in_the_singular_everywhere() -> None:
    """Issue 50 item 12: "(1 cards" and its kin: every message and screen that counts cards,
    melds, deals, actions or games says "1 card", "1 meld", ... (errors.counted), in the
    rules' refusals, a state's summary, a game's text and the command line."""
    import ast
    from collections import Counter
    from pathlib import Path

    from persian_rummy import DECK, Game, GameState, IllegalActionError, Pass, parse_cards, play
    from persian_rummy.errors import counted

    rest = " ".join(map(str, (Counter(DECK) - Counter(parse_cards("5s 6s 7s 8s 9h 2c Kd Qd Jd"))).elements()))
    state = GameState.from_position(["", "5s 6s 7s 8s", "", rest], "9h", stock="2c", melds=["Kd@0 Qd@0 Jd@0"])
    assert state.summary().endswith(", stock 1, 1 meld")
    with pytest.raises(IllegalActionError, match=r"\(1 card left\)"):
        play(state, Pass())
    with pytest.raises(IllegalActionError, match=r"\(1 card, 0 at the bottom\)"):
        play(state, "take 3")
    drawn = play(state, "draw")
    with pytest.raises(IllegalActionError, match=r"on the table \(1 meld\)"):
        play(drawn, "lay off 8s on #4")
    assert "1 action played" in str(Game.new(1).play("draw"))
    # No f-string of the package counts with a bare plural after a len(...): each says counted(...).
    root = Path(__file__).resolve().parent.parent / "persian_rummy"
    bare = re.compile(r"\{len\([^{}]*\)\} (cards|melds|deals|actions|games|seats|flags)\b")
    found = [
        f"{path.relative_to(root)}:{node.lineno}"
        for path in root.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.JoinedStr) and bare.search(ast.unparse(node))
    ]
    assert not found, found
    assert counted(1, "card") == "1 card" and counted(3, "meld") == "3 melds"


def test_r23_the_table_line_shows_the_points_melded_in_a_deal_beside_the_scores() -> None:
    """Issue 50 item 12: after melds the table's line said "North-South 0, East-West 0" (the
    deal is scored when it ends, R23); while a deal is played it says each team's points on the
    table beside the game's scores, laid-off cards (R16) and doubles (R24) counted as the
    deal's score will count them, in a state's text and a view's alike."""
    from persian_rummy import GameState, Hand
    from persian_rummy.scoring import tally

    state = GameState.from_position(
        ["", "5s 6s 7s 8s", "", ""],
        "2c 8c 8h",
        melds=["Kd@0 Qd@0 Jd@0", "4h@1 4d@1 4c@1 4s+3"],
        scores=(40, 5),
        deal_number=2,
    )
    line = "North-South 40 (+30 melded), East-West 5 (+16 melded) · stock"
    assert line in str(state).splitlines()[0] and line in str(state.view(0)).splitlines()[0]
    assert "melded)" not in str(GameState.from_position(["", "5s", "", ""], "2c"))  # no melds: the scores alone

    checked = 0
    for state, _ in playout(5):  # the points shown are those the deal's score counts
        if state.phase.is_live and state.melds:
            shown = [int(points) for points in re.findall(r"\(\+(\d+) melded\)", str(state).splitlines()[0])]
            teams = tally(state.melds, [Hand()] * 4, went_out=None, rules=state.rules)
            assert shown == [team.total for team in teams]
            checked += 1
    assert checked > 10
