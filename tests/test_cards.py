"""Cards, the deck and the card notation (R1, R2, R22)."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

import persian_rummy
from persian_rummy import DECK, JOKER, Card, NotationError, PersianRummyError, Rank, Suit, parse_cards


def test_r1_deck_has_56_cards_52_naturals_and_4_equal_jokers() -> None:
    assert len(DECK) == 56
    counts = Counter(DECK)
    assert counts[JOKER] == 4
    naturals = [card for card in DECK if not card.is_joker]
    assert len(naturals) == len(set(naturals)) == 52
    assert {(card.rank, card.suit) for card in naturals} == {(rank, suit) for rank in Rank for suit in Suit}


def test_r1_jokers_are_interchangeable() -> None:
    jokers = [card for card in DECK if card.is_joker]
    assert all(joker == JOKER and hash(joker) == hash(JOKER) for joker in jokers)
    assert Card.parse("Jk") is Card.parse("joker") is Card.parse("🃏") is JOKER
    assert Card() == JOKER


def test_r2_ranks_order_two_low_ace_high() -> None:
    assert [rank.letter for rank in sorted(Rank)] == list("23456789TJQKA")
    assert Rank.ACE > Rank.KING > Rank.TWO
    assert int(Rank.TWO) == 2 and int(Rank.ACE) == 14


def test_r2_a_joker_has_no_rank_or_suit() -> None:
    assert JOKER.rank is None and JOKER.suit is None
    assert JOKER.is_joker and not Card.parse("As").is_joker


@pytest.mark.parametrize(
    ("text", "points"),
    [("Jk", 20), ("As", 15), ("Kh", 10), ("Qd", 10), ("Jc", 10), ("Ts", 10), ("10h", 10)]
    + [(f"{value}d", value) for value in range(2, 10)],
)
def test_r22_card_points(text: str, points: int) -> None:
    assert Card.parse(text).points == points


def test_r22_the_whole_deck_is_worth_its_sum() -> None:
    # 4 suits x (2+...+9 + 10*4 + 15) + 4 jokers x 20
    assert sum(card.points for card in DECK) == 4 * (44 + 40 + 15) + 80


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Ts", "Ts"),
        ("10s", "Ts"),
        ("10♠", "Ts"),
        ("t♠", "Ts"),
        ("qh", "Qh"),
        ("QH", "Qh"),
        ("q♥", "Qh"),
        ("4♦", "4d"),
        ("4D", "4d"),
        ("a♣", "Ac"),
        ("Ac", "Ac"),
        ("2S", "2s"),
        (" 7d ", "7d"),
        ("Jk", "Jk"),
        ("JK", "Jk"),
        ("jk", "Jk"),
        ("joker", "Jk"),
        ("JOKER", "Jk"),
        ("Joker", "Jk"),
        ("🃏", "Jk"),
        ("J♠", "Js"),
        ("jS", "Js"),
    ],
)
def test_card_text_forms_parse_case_insensitively_to_canonical_ascii(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert str(card).isascii()


def test_every_card_round_trips_through_text_and_symbol_and_repr() -> None:
    namespace = {"Card": Card}
    for card in set(DECK):
        assert Card.parse(str(card)) is card
        assert Card.parse(card.symbol) is card
        assert Card.parse(str(card).lower()) is card
        assert Card.parse(str(card).upper()) is card
        pasted = eval(repr(card), namespace)
        assert pasted == card and pasted is card
        assert pickle.loads(pickle.dumps(card)) is card


def test_repr_pastes_back_from_the_package_namespace() -> None:
    assert eval(repr(parse_cards("Ts Jk")), vars(persian_rummy)) == parse_cards("Ts Jk")


@pytest.mark.parametrize(
    "text",
    ["", " ", "1s", "11s", "Xs", "4x", "4", "s", "Jkk", "jokers", "4ss", "T♠♠", "0s", "A", "♠", "10", "J k"],
)
def test_bad_card_text_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="R1") as caught:
        Card.parse(text)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, PersianRummyError)


@pytest.mark.parametrize("value", [None, 4, 4.0, b"4s", ("4", "s")])
def test_card_parse_rejects_non_text(value: object) -> None:
    with pytest.raises(NotationError):
        Card.parse(value)  # type: ignore[arg-type]


def test_r1_card_needs_both_rank_and_suit_or_neither() -> None:
    with pytest.raises(NotationError):
        Card(Rank.ACE, None)
    with pytest.raises(NotationError):
        Card(None, Suit.SPADES)
    with pytest.raises(NotationError):
        Card(14, 0)  # type: ignore[arg-type]


def test_suits_and_ranks_parse_both_notations() -> None:
    assert [Suit.parse(text) for text in "shdc"] == list(Suit)
    assert [Suit.parse(text) for text in "♠♥♦♣"] == list(Suit)
    assert [Suit.parse(text) for text in "SHDC"] == list(Suit)
    assert Rank.parse("10") is Rank.parse("t") is Rank.TEN
    with pytest.raises(NotationError):
        Suit.parse("x")
    with pytest.raises(NotationError):
        Rank.parse("1")


@pytest.mark.parametrize(
    "text",
    ["4♠-4♦-4♥", "4s 4d 4h", "4s,4d,4h", "4s, 4d, 4h", "  4S -4D,  4H  ", "4♠ - 4♦ - 4♥", "4s\t4d\n4h"],
)
def test_parse_cards_separators(text: str) -> None:
    assert parse_cards(text) == (Card.parse("4s"), Card.parse("4d"), Card.parse("4h"))


def test_parse_cards_keeps_order_and_duplicates_and_accepts_iterables() -> None:
    assert [str(card) for card in parse_cards("Jk 2c As Jk")] == ["Jk", "2c", "As", "Jk"]
    assert parse_cards(["10♥", Card.parse("2c"), "joker"]) == parse_cards("Th 2c Jk")
    assert parse_cards("") == () == parse_cards([])
    assert isinstance(parse_cards(iter(["4s"])), tuple)


def test_parse_cards_rejects_bad_tokens_and_non_iterables() -> None:
    with pytest.raises(NotationError, match="'4x'"):
        parse_cards("4s 4x 4h")
    with pytest.raises(NotationError):
        parse_cards(7)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        parse_cards([4])  # type: ignore[list-item]


def test_card_order_is_canonical_suit_then_rank_jokers_last() -> None:
    assert sorted(parse_cards("Jk 2c As 2s Ah")) == list(parse_cards("2s As Ah 2c Jk"))
    assert list(DECK[:13]) == [Card(rank, Suit.SPADES) for rank in Rank]
    assert DECK[52:] == (JOKER,) * 4
    assert all(card.index == DECK.index(card) for card in DECK)


def test_cards_are_frozen() -> None:
    card = Card.parse("4s")
    with pytest.raises(AttributeError):
        card.rank = Rank.FIVE  # type: ignore[misc]
