"""Hands: immutable multisets of cards, jokers equal (R1, R22, R23)."""

from __future__ import annotations

import pytest

from persian_rummy import DECK, JOKER, Card, Hand, InvalidArgumentError, parse_cards


def test_r1_hand_is_a_multiset_order_given_does_not_matter() -> None:
    assert Hand("Qs 2c Jk") == Hand(["Jk", "2c", "Qs"]) == Hand.parse("2C, jk, q♠")
    assert hash(Hand("Qs 2c")) == hash(Hand("2c Qs"))


def test_hand_iterates_in_canonical_order_with_jokers_last() -> None:
    hand = Hand("Jk 2c Ah Jk As")
    assert list(hand) == list(parse_cards("As Ah 2c Jk Jk"))
    assert str(hand) == "As Ah 2c Jk Jk"


def test_r1_four_jokers_allowed_five_rejected() -> None:
    assert Hand("Jk Jk Jk Jk").count(JOKER) == 4
    with pytest.raises(InvalidArgumentError, match="R1"):
        Hand("Jk Jk Jk Jk Jk")


def test_r1_a_natural_card_cannot_appear_twice() -> None:
    with pytest.raises(InvalidArgumentError, match="R1"):
        Hand("4s 4S")


def test_hand_len_contains_count_bool() -> None:
    hand = Hand("4s Jk Jk")
    assert len(hand) == 3
    assert "4s" in hand and Card.parse("Jk") in hand and "5s" not in hand and 4 not in hand
    assert hand.count("Jk") == 2 and hand.count("4s") == 1 and hand.count("5s") == 0
    assert bool(hand) and not Hand() and len(Hand()) == 0


def test_r22_r23_hand_points_count_against_the_holder() -> None:
    assert Hand("Kd 4d").points == 14
    assert Hand("Jk Ad").points == 35
    assert Hand("Qh 2d 9s").points == 21
    assert Hand().points == 0
    assert Hand(DECK).points == sum(card.points for card in DECK)


def test_r1_hand_add_and_subtract() -> None:
    assert Hand("4s") + Hand("Jk") == Hand("4s Jk")
    assert Hand("4s 5s Jk Jk") - Hand("Jk 5s") == Hand("4s Jk")
    with pytest.raises(InvalidArgumentError):
        Hand("4s") + Hand("4s")
    with pytest.raises(InvalidArgumentError):
        Hand("4s") - Hand("5s")
    with pytest.raises(InvalidArgumentError):
        Hand("Jk Jk Jk") + Hand("Jk Jk")


def test_r1_hand_issuperset_counts_jokers() -> None:
    assert Hand("4s Jk Jk").issuperset(Hand("Jk Jk"))
    assert not Hand("4s Jk").issuperset(Hand("Jk Jk"))


def test_hand_repr_pastes_back_and_mask_round_trips() -> None:
    for hand in (Hand(), Hand("Jk"), Hand("As Kd 2c Jk Jk"), Hand(DECK)):
        assert eval(repr(hand), {"Hand": Hand}) == hand
        assert Hand.from_mask(hand.mask, hand.jokers) == hand
        assert Hand.parse(str(hand)) == hand


def test_r1_hand_from_mask_rejects_impossible_hands() -> None:
    with pytest.raises(InvalidArgumentError):
        Hand.from_mask(1 << 52)
    with pytest.raises(InvalidArgumentError):
        Hand.from_mask(0, 5)
    with pytest.raises(InvalidArgumentError):
        Hand.from_mask(-1)


def test_hand_is_immutable() -> None:
    hand = Hand("4s")
    with pytest.raises(AttributeError):
        hand.mask = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        hand.jokers = 1  # type: ignore[misc]
