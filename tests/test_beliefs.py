"""Beliefs (R13, R27): the learned card-location model gives every card the seat has not seen a
distribution over the places it can lie (the other hands, the stock), zero where the history
rules a place out; the worlds dealt from it are as consistent with the history as the
uniform ones; its file is read without pickle and refused when malformed; its self-play
examples are the same for the same seed."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from playouts import information

from persian_rummy import DECK, Card, GameState, InfoState, InvalidArgumentError, PolicyFileError, info_after
from persian_rummy.beliefs import (
    FEATURES,
    STOCK,
    BeliefModel,
    belief_examples,
    belief_positions,
    card_features,
    shipped_beliefs,
    uniform_locations,
)
from persian_rummy.worlds import determinize, known_cards, unseen_cards

#: A deal where seat 1 discards the K♦ and seat 2 takes it back with the 4♣ (R13): seat 0
#: has seen the K♦ thrown, and knows both in seat 2's hand.
START = GameState.from_position(["4s 9d 2h", "5s 6s Kd", "Qh Qd 3c", "2c 2d 7h"], "Qs 4c 7s")
MOVES = ["take 2", "meld 5s 6s 7s", "discard Kd", "take 0", "meld Qs Qh Qd"]


def _models() -> list[BeliefModel]:
    wild = np.random.default_rng(5).normal(0, 3, len(FEATURES))
    return [shipped_beliefs(), BeliefModel(wild), BeliefModel(np.zeros(len(FEATURES)))]


MODELS = _models()


def _rooms(info: InfoState) -> list[int]:
    known = known_cards(info)
    view = info.view
    return [0 if seat == view.seat else view.hand_sizes[seat] - len(known[seat]) for seat in range(4)] + [
        view.stock_size
    ]


@given(information(), st.sampled_from(MODELS))
def test_r13_r27_every_unseen_card_has_a_distribution_over_the_places_it_can_lie(
    position: tuple[GameState, InfoState], model: BeliefModel
) -> None:
    state, info = position
    view = info.view
    cards, probabilities = model.locations(info)
    seen = [*view.hand, *view.discard_pile, *(card for meld in view.melds for card in meld.cards)]
    assert list(cards) == unseen_cards(seen)  # a card seen in the pile or on the table is not among them
    assert probabilities.shape == (len(cards), 5)
    assert (probabilities >= 0).all()
    np.testing.assert_allclose(probabilities.sum(axis=1), 1, atol=1e-9)
    assert not probabilities[:, view.seat].any()  # never in the seat's own hand
    rooms = _rooms(info)
    known = known_cards(info)
    for row, card in enumerate(cards):
        places = probabilities[row]
        holders = [seat for seat in range(4) if card in known[seat]]
        if card != Card.parse("Jk") and holders:  # placed by the history (R13): certainly there
            assert places.tolist() == [float(seat == holders[0]) for seat in range(5)]
        for place in range(5):
            if rooms[place] == 0 and place not in holders:  # no hidden room: no free card there
                assert places[place] == 0
    for row, card in enumerate(cards):  # where it truly lies has a chance
        where = [seat for seat in range(4) if seat != view.seat and card in state.hands[seat]]
        where += [STOCK] if card in state.stock else []
        assert where and max(probabilities[row, place] for place in where) > 0


def test_r13_r17_a_card_seen_discarded_lies_in_no_hand_unless_retaken() -> None:
    info = info_after(START, MOVES[:3], seat=0)  # the K♦ is on the pile: not unseen
    cards, _ = shipped_beliefs().locations(info)
    assert Card.parse("Kd") not in cards
    info = info_after(START, MOVES, seat=0)  # seat 2 took it back with the 4♣: certainly there
    for model in MODELS:
        cards, probabilities = model.locations(info)
        for name in ("Kd", "4c"):
            assert probabilities[cards.index(Card.parse(name))].tolist() == [0, 0, 1, 0, 0]


def test_the_uniform_marginals_are_each_places_share_of_the_hidden_places() -> None:
    info = info_after(START, MOVES, seat=0)
    cards, probabilities = uniform_locations(info)
    free = [row for row, card in enumerate(cards) if card not in (Card.parse("Kd"), Card.parse("4c"))]
    rooms = np.array(_rooms(info), dtype=float)
    np.testing.assert_allclose(probabilities[free], np.broadcast_to(rooms / rooms.sum(), (len(free), 5)))
    zero = BeliefModel(np.zeros(len(FEATURES)))
    np.testing.assert_allclose(zero.locations(info)[1], probabilities)


def test_the_features_read_the_history_of_each_other_seat() -> None:
    info = info_after(START, MOVES, seat=0)
    features = card_features(info)
    column = FEATURES.index
    king = Card.parse("Kd").index
    assert features[king, 1, column("discard_rank")] == 1  # seat 1 threw the K♦
    assert features[Card.parse("Kh").index, 1, column("discard_rank")] == 1  # a card of its rank
    assert features[Card.parse("Qd").index, 1, column("discard_suit_1")] == 1
    assert features[king, 2, column("took_rank")] == 1  # seat 2 took it
    assert features[Card.parse("8s").index, 1, column("melded_run")] == 1  # it extends seat 1's run
    assert not features[:, 0].any()  # the viewer's own seat


@given(information(), st.sampled_from(MODELS), st.integers(0, 2**32 - 1))
def test_r1_r13_r27_a_world_dealt_from_the_beliefs_is_as_consistent_as_a_uniform_one(
    position: tuple[GameState, InfoState], model: BeliefModel, sample: int
) -> None:
    state, info = position
    world = determinize(info, random.Random(sample), odds=model.odds(info))
    world.validate()
    assert world.view(info.seat) == info.view
    every = Counter(world.stock) + Counter(world.discard_pile)
    for hand in world.hands:
        every.update(hand)
    for meld in world.melds:
        every.update(meld.cards)
    assert every == Counter(DECK)
    assert [len(hand) for hand in world.hands] == [len(hand) for hand in state.hands] and len(world.stock) == len(
        state.stock
    )
    for seat, cards in enumerate(known_cards(info)):
        assert not Counter(cards) - Counter(world.hands[seat])  # the history's cards stay (R13)


def test_r27_a_card_weighed_to_one_place_is_dealt_there() -> None:
    info = info_after(START, MOVES[:3], seat=0)
    target = Card.parse("Ah")
    odds = {card: (1.0, 1.0, 1.0, 1.0, 0.0) for card in unseen_cards([*info.view.hand, *info.view.discard_pile])}
    odds[target] = (0.0, 0.0, 0.0, 0.0, 1.0)
    for sample in range(20):
        world = determinize(info, random.Random(sample), odds=odds)
        assert target in world.stock
    odds = {card: (1.0, 1.0, 1.0, 0.0, 1.0) for card in odds}
    odds[target] = (0.0, 0.0, 0.0, 5.0, 0.0)
    assert all(target in determinize(info, random.Random(sample), odds=odds).hands[3] for sample in range(20))


@pytest.mark.parametrize(
    "row", [(1.0, 1.0, 1.0, 1.0), (1.0, 1.0, -1.0, 1.0, 1.0), (1.0, 1.0, float("inf"), 1.0, 1.0), None]
)
def test_r27_odds_that_do_not_weigh_every_unseen_card_are_refused(row: tuple[float, ...] | None) -> None:
    view = START.view(0)
    odds = {card: (1.0,) * 5 for card in DECK}
    if row is None:
        del odds[Card.parse("Ah")]
    else:
        odds[Card.parse("Ah")] = row
    with pytest.raises(InvalidArgumentError, match="five finite weights"):
        determinize(view, random.Random(0), odds=odds)


def test_the_uniform_deal_is_unchanged_without_odds() -> None:
    info = info_after(START, MOVES[:3], seat=0)
    assert determinize(info, random.Random(3)) == determinize(info, random.Random(3), odds=None)


def _save(path: Path, **arrays: object) -> Path:
    np.savez(path, **arrays)  # type: ignore[arg-type]
    return path


def test_a_model_round_trips_through_its_file(tmp_path: Path) -> None:
    model = BeliefModel(np.arange(len(FEATURES), dtype=float) / 10)
    model.save(tmp_path / "beliefs.npz")
    assert (BeliefModel.load(tmp_path / "beliefs.npz").weights == model.weights).all()


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ({"version": np.array(1), "features": np.array(FEATURES)}, "lacks the arrays weights"),
        (
            {"version": np.array(2), "features": np.array(FEATURES), "weights": np.zeros(len(FEATURES))},
            "of version 2, not 1",
        ),
        (
            {"version": np.array(1), "features": np.array(FEATURES[::-1]), "weights": np.zeros(len(FEATURES))},
            "other features",
        ),
        ({"version": np.array(1), "features": np.array(FEATURES), "weights": np.zeros(3)}, "has 24 weights"),
        (
            {"version": np.array(1), "features": np.array(FEATURES), "weights": np.full(len(FEATURES), np.nan)},
            "must be finite",
        ),
        (
            {"version": np.array(1), "features": np.array(FEATURES), "weights": np.array([{}] * len(FEATURES))},
            r"not an \.npz archive of arrays",  # an object array needs pickle: refused, never unpickled
        ),
    ],
)
def test_a_malformed_belief_file_is_refused(tmp_path: Path, arrays: dict[str, object], message: str) -> None:
    path = _save(tmp_path / "beliefs.npz", **arrays)
    with pytest.raises(PolicyFileError, match=message):
        BeliefModel.load(path)


def test_a_file_that_is_no_archive_or_no_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "text.npz").write_text("weights")
    with pytest.raises(PolicyFileError, match=r"not an \.npz archive"):
        BeliefModel.load(tmp_path / "text.npz")
    with pytest.raises(PolicyFileError, match="not a regular file"):
        BeliefModel.load(tmp_path)
    with pytest.raises(PolicyFileError, match="cannot be read"):
        BeliefModel.load(tmp_path / "missing.npz")
    (tmp_path / "big.npz").write_bytes(b"\0" * ((1 << 20) + 1))
    with pytest.raises(PolicyFileError, match="at most"):
        BeliefModel.load(tmp_path / "big.npz")


def test_the_self_play_examples_are_the_same_for_the_same_seed() -> None:
    first = list(belief_examples("test", 2, every=5))
    again = list(belief_examples("test", 2, every=5))
    other = list(belief_examples("other", 2, every=5))
    assert len(first) == len(again) > 5
    for (features, room, truth), (features_again, room_again, truth_again) in zip(first, again, strict=True):
        assert (features == features_again).all() and (room == room_again).all() and (truth == truth_again).all()
    assert len(other) != len(first) or any(not np.array_equal(a[2], b[2]) for a, b in zip(first, other, strict=True))


def test_the_examples_label_where_each_card_truly_lies() -> None:
    for (info, state), (features, room, truth) in zip(
        belief_positions("label", 1), belief_examples("label", 1), strict=True
    ):
        assert info.seat == state.current_player
        assert Counter(truth.tolist()) == {place: int(count) for place, count in enumerate(room) if count}
        assert len(features) == len(truth)


def test_the_examples_knobs_are_checked() -> None:
    with pytest.raises(InvalidArgumentError, match="games must be"):
        next(belief_positions("x", -1))
    with pytest.raises(InvalidArgumentError, match="every must be"):
        next(belief_examples("x", 1, every=0))


def test_the_benchmark_fits_a_model_and_prints_the_held_out_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``benchmarks/beliefs.py`` at a tiny size: the fit writes a file the loader reads, and
    the held-out figure names the Python version and both log-likelihoods."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import beliefs as benchmark

    out = tmp_path / "fitted.npz"
    argv = ["--fit", str(out), "--train-games", "2", "--games", "2", "--every", "4", "--worlds", "2"]
    assert benchmark.main([*argv, "--worlds-games", "1", "--worlds-every", "20"]) == 0
    printed = capsys.readouterr().out
    assert "Python 3." in printed and "model -" in printed and "uniform -" in printed
    assert "worlds dealt with the odds" in printed
    assert BeliefModel.load(out).weights.any()
