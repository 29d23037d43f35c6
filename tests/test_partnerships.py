"""The partnership draw (R3, R4): aces low, jokers high, redraws of ties that matter only."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from persian_rummy import Card, InvalidArgumentError, draw_partnerships, new_game
from persian_rummy.partnerships import draw_value


def drawn(seed: int) -> list[list[str]]:
    return [[f"{player} {card}" for player, card in round_] for round_ in draw_partnerships("NESW", seed).draws]


def test_r4_draw_values_ace_low_joker_high_suits_equal() -> None:
    values = {text: draw_value(Card.parse(text)) for text in ("As", "Ah", "2c", "Ts", "Jd", "Qh", "Kc", "Jk")}
    assert values == {"As": 1, "Ah": 1, "2c": 2, "Ts": 10, "Jd": 11, "Qh": 12, "Kc": 13, "Jk": 14}


def test_r3_r4_no_tie_two_lowest_partner_the_lowest_deals_at_seat_0() -> None:
    draw = draw_partnerships("NESW", seed=42)
    assert drawn(42) == [["N 5s", "E Jk", "S 2d", "W As"]]
    # The ace is low (1): West deals; South (2) is the partner; the joker is the highest.
    assert draw.seats == ("W", "N", "S", "E")
    assert draw.dealer == 0 and draw.seats[draw.dealer] == "W"
    assert draw.teams == (("W", "S"), ("N", "E"))


def test_r4_a_tie_between_the_two_highest_does_not_matter_and_is_not_redrawn() -> None:
    draw = draw_partnerships("NESW", seed=18)
    assert drawn(18) == [["N Jc", "E Jk", "S Jk", "W Qh"]]
    assert draw.teams == (("N", "W"), ("E", "S"))
    assert draw.seats[0] == "N"


def test_r4_a_tie_for_lowest_is_redrawn_between_the_tied_players_only() -> None:
    draw = draw_partnerships("NESW", seed=20)
    # East and South both drew aces (low: 1, tied for lowest). The two aces are the two
    # lowest, so the teams are settled; the tie still matters for who deals, and only the
    # two tied players redraw.
    assert drawn(20) == [["N 2d", "E Ac", "S Ah", "W 5c"], ["E Td", "S Qd"]]
    assert draw.seats == ("E", "N", "S", "W")
    assert draw.teams == (("E", "S"), ("N", "W"))


def test_r4_a_tie_for_second_lowest_is_redrawn_between_the_tied_players_only() -> None:
    draw = draw_partnerships("NESW", seed=1)
    assert drawn(1) == [["N 4d", "E Jk", "S 5d", "W 5s"], ["S Jk", "W Qd"]]
    assert draw.teams == (("N", "W"), ("E", "S"))
    assert draw.seats[0] == "N"


def test_r4_a_three_way_tie_for_lowest_redraws_the_three() -> None:
    draw = draw_partnerships("NESW", seed=292)
    assert drawn(292) == [["N Jd", "E 8c", "S 8s", "W 8h"], ["E Qd", "S 5d", "W 7h"]]
    assert draw.seats == ("S", "N", "W", "E")


def test_r4_a_four_way_tie_redraws_everyone() -> None:
    draw = draw_partnerships("NESW", seed=493)
    assert drawn(493) == [["N Kh", "E Kd", "S Ks", "W Kc"], ["N 2d", "E 3s", "S 5d", "W 6c"]]
    assert draw.teams == (("N", "E"), ("S", "W"))


def resolve(players: Sequence[str], rounds: Iterator[dict[str, int]], cuts: set[int]) -> list[str]:
    """An independent reading of R4: order ``players`` low to high from their draw, redrawing
    exactly the tied groups that straddle a cut that matters."""
    values = next(rounds)
    assert set(values) == set(players), "a redraw must be among exactly the tied players"
    ranked = sorted(players, key=lambda player: values[player])
    out: list[str] = []
    start = 0
    while start < len(ranked):
        end = start
        while end < len(ranked) and values[ranked[end]] == values[ranked[start]]:
            end += 1
        inner = {cut - start for cut in cuts if start < cut < end}
        out.extend(resolve(ranked[start:end], rounds, inner) if inner else ranked[start:end])
        start = end
    return out


def test_r4_every_draw_follows_the_rule() -> None:
    redraws = 0
    for seed in range(400):
        draw = draw_partnerships(["Ann", "Bob", "Cy", "Di"], seed)
        rounds = iter([{player: draw_value(card) for player, card in round_} for round_ in draw.draws])
        order = resolve(["Ann", "Bob", "Cy", "Di"], rounds, {1, 2})
        assert next(rounds, None) is None, f"seed {seed}: a redraw beyond the ties that matter"
        assert draw.seats[0] == order[0] and draw.seats[2] == order[1], seed
        assert {draw.seats[1], draw.seats[3]} == set(order[2:]), seed
        assert draw.dealer == 0
        cards = [card for round_ in draw.draws for _, card in round_]
        naturals = [card for card in cards if not card.is_joker]
        assert len(naturals) == len(set(naturals)), f"seed {seed}: a card drawn twice"
        redraws += len(draw.draws) > 1
    assert 0 < redraws < 400  # both cases are exercised


def test_r4_the_draw_is_reproducible_and_feeds_new_game() -> None:
    assert draw_partnerships("NESW", 5) == draw_partnerships("NESW", 5)
    draw = draw_partnerships("NESW", 5)
    assert new_game(5, dealer=draw.dealer).dealer == 0


@pytest.mark.parametrize("players", [["A", "B", "C"], ["A", "B", "C", "D", "E"], ["A", "A", "B", "C"]])
def test_r3_the_draw_needs_four_distinct_players(players: list[str]) -> None:
    with pytest.raises(InvalidArgumentError, match="R3"):
        draw_partnerships(players, 1)
