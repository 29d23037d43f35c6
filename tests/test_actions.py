"""Actions: frozen values with a text form (R12-R17, R20)."""

from __future__ import annotations

import pytest

from persian_rummy import (
    Action,
    ArgumentTypeError,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    InvalidArgumentError,
    LayOff,
    MeldCards,
    NotationError,
    Pass,
    parse_cards,
)

ACTIONS: list[Action] = [
    DrawStock(),
    DrawDiscard(0),
    DrawDiscard(17),
    MeldCards("7s 7h 7d"),
    MeldCards("Jk Jk Jk Jk"),
    MeldCards("As 2s 3s"),
    LayOff("3c", 0),
    LayOff("Jk", 12),
    Discard("Kd"),
    Discard("Jk"),
    Pass(),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_r12_r20_action_text_and_repr_round_trip(action: Action) -> None:
    assert Action.parse(str(action)) == action
    namespace = {cls.__name__: cls for cls in (Card, DrawStock, DrawDiscard, MeldCards, LayOff, Discard, Pass)}
    assert eval(repr(action), namespace) == action
    assert hash(Action.parse(str(action))) == hash(action)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", DrawStock()),
        ("DRAW", DrawStock()),
        ("take 3", DrawDiscard(3)),
        ("  take   0 ", DrawDiscard(0)),
        ("meld 7h 7d 7s", MeldCards("7s 7h 7d")),
        ("meld 7♥ 7♦ 7♠", MeldCards("7s 7h 7d")),
        ("meld 7h,7d,7s", MeldCards("7s 7h 7d")),
        ("meld 8♥-9♥-10♥", MeldCards("8h 9h Th")),
        ("layoff 3♣ 0", LayOff("3c", 0)),
        ("discard K♦", Discard("Kd")),
        ("discard joker", Discard("Jk")),
        ("pass", Pass()),
        ("Pass", Pass()),
    ],
)
def test_r12_r20_action_text_forms(text: str, action: Action) -> None:
    assert Action.parse(text) == action


def test_r15_meld_cards_are_canonical_whatever_the_order() -> None:
    assert MeldCards("7s 7h 7d") == MeldCards(["7d", "7s", "7h"]) == MeldCards("7H 7D 7S")
    assert MeldCards("Ks As Qs").cards == parse_cards("Qs Ks As")
    assert str(MeldCards("Jk 4s Jk")) == "meld 4s Jk Jk"
    # Ace-low runs are canonical by card order too (the engine decides legality, R10).
    assert MeldCards("3s As 2s") == MeldCards("As 2s 3s")
    assert str(MeldCards("3s As 2s")) == "meld 2s 3s As"


def test_r13_r16_action_fields() -> None:
    assert DrawDiscard(4).index == 4
    lay = LayOff("10♣", 2)
    assert lay.card == Card.parse("Tc") and lay.meld == 2
    assert Discard("q♥").card == Card.parse("Qh")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "jump",
        "draw 1",
        "take",
        "take x",
        "take -1",
        "take 1 2",
        "take ٣",
        "meld",
        "meld 7s 7x",
        "layoff 3c",
        "layoff 3c x",
        "layoff 3c 0 1",
        "discard",
        "discard 7s 7h",
        "discard 1s",
        "pass now",
    ],
)
def test_r12_r20_bad_action_text_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


@pytest.mark.parametrize("value", [None, 3, ["draw"]])
def test_r12_action_parse_rejects_non_text(value: object) -> None:
    with pytest.raises(NotationError):
        Action.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("index", "error"),
    [(-1, InvalidArgumentError), (True, ArgumentTypeError), (1.0, ArgumentTypeError), ("1", ArgumentTypeError)],
)
def test_r13_r16_indices_are_whole_numbers(index: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        DrawDiscard(index)  # type: ignore[arg-type]
    with pytest.raises(error):
        LayOff("3c", index)  # type: ignore[arg-type]


@pytest.mark.parametrize("index", [56, 100_000_000_000, 10**5000], ids=["56", "1e11", "5000 digits"])
def test_r1_r13_a_pile_index_past_the_deck_is_refused_at_once(index: int) -> None:
    # R1: no pile holds more than 56 cards; R8/R9: no table more than 18 melds.
    for make in (DrawDiscard, lambda value: LayOff("3c", value // 3 + 1)):
        with pytest.raises(InvalidArgumentError) as caught:
            make(index)
        assert len(str(caught.value)) < 300
    assert DrawDiscard(55).index == 55 and LayOff("3c", 17).meld == 17
    with pytest.raises(InvalidArgumentError):
        LayOff("3c", 18)


@pytest.mark.parametrize("text", ["take 56", "take 100000000000", "layoff 3c 18", "layoff 3c 100000000000"])
def test_r13_r16_a_number_past_any_game_in_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


def test_r12_actions_are_frozen_and_carry_no_seat() -> None:
    action = Discard("Kd")
    with pytest.raises(AttributeError):
        action.card = Card.parse("Qd")  # type: ignore[misc]
    assert not hasattr(action, "seat")
