"""The card-location beliefs against the uniform sampler, on held-out self-play positions:
the mean log-likelihood (natural log, per unseen card the history does not place) of where
each card truly lies, under the shipped :class:`~persian_rummy.beliefs.BeliefModel` and under
the uniform sampler's marginals (each place's share of the hidden places), with a 95%
interval of the paired difference over positions. The held-out games are dealt from a seed
the model was never fitted on. Run it with::

    OMP_NUM_THREADS=1 python benchmarks/beliefs.py --games 300 --worlds 300

``--worlds N`` also deals N worlds at each of a few held-out positions with the model's odds
(:func:`~persian_rummy.worlds.determinize`) and N without, and scores the true places under
each set's frequencies: what the search's worlds realize of the beliefs.

``--fit OUT`` first fits a model on ``--train-games`` games of another seed (Newton's method
on the per-card softmax, a small ridge) and writes it to ``OUT`` (the shipped file is
``persian_rummy/policies/beliefs.npz``); the figure is then of the new model.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time

import numpy as np
import numpy.typing as npt

from persian_rummy.beliefs import (
    FEATURES,
    STOCK,
    BeliefModel,
    belief_examples,
    belief_positions,
    shipped_beliefs,
    uniform_locations,
)
from persian_rummy.worlds import determinize, known_cards

#: The seeds: the model is fitted on the first, measured on the second (never fitted on).
TRAIN_SEED = "beliefs-train"
HELD_OUT_SEED = "beliefs-held-out"

Array = npt.NDArray[np.float64]


def fit(games: int, every: int, ridge: float) -> BeliefModel:
    """A model fitted on every ``every``-th position of ``games`` self-play games."""
    features, offsets, truths = [], [], []
    for feature, room, truth in belief_examples(TRAIN_SEED, games, every=every):
        if not len(truth):
            continue
        rows = np.zeros((len(truth), 5, len(FEATURES)), np.float32)
        rows[:, :4] = feature
        features.append(rows)
        with np.errstate(divide="ignore"):
            offsets.append(np.broadcast_to(np.log(room), (len(truth), 5)))
        truths.append(truth)
    x = np.concatenate(features)
    offset = np.concatenate(offsets)
    y = np.zeros(offset.shape)
    y[np.arange(len(y)), np.concatenate(truths)] = 1
    print(f"fitting on {len(y):,} cards of {len(features):,} positions", file=sys.stderr)
    weights = np.zeros(len(FEATURES))
    for step in range(30):
        logits = np.einsum("nlk,k->nl", x, weights) + offset
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        loss = -np.log(np.maximum((p * y).sum(axis=1), 1e-300)).mean() + ridge * weights @ weights / 2
        mean = np.einsum("nl,nlk->nk", p, x)
        gradient = np.einsum("nl,nlk->k", p - y, x) / len(y) + ridge * weights
        hessian = (np.einsum("nl,nlk,nlj->kj", p, x, x) - mean.T @ mean) / len(y) + ridge * np.eye(len(FEATURES))
        step_ = np.linalg.solve(hessian, gradient)
        weights -= step_
        print(f"step {step}: loss {loss:.5f}, |step| {np.abs(step_).max():.2e}", file=sys.stderr)
        if np.abs(step_).max() < 1e-6:
            break
    return BeliefModel(weights)


def likelihoods(model: BeliefModel, games: int, every: int) -> list[tuple[float, float, int, int]]:
    """Per held-out position: the summed log-likelihood of the free unseen cards' true places
    under the model and under the uniform sampler, the number of such cards, and the stock's
    size."""
    found = []
    for number, (info, state) in enumerate(belief_positions(HELD_OUT_SEED, games)):
        if number % every:
            continue
        unseen, learned = model.locations(info)
        _, uniform = uniform_locations(info)
        known = known_cards(info)
        left = [[] if seat == info.seat else list(state.hands[seat]) for seat in range(4)]
        for seat in range(4):
            for card in known[seat]:
                left[seat].remove(card)
        total_model = total_uniform = 0.0
        cards = 0
        for row, card in enumerate(unseen):
            if uniform[row].max() == 1:  # placed by the history: certain under both
                continue
            place = next((seat for seat in range(4) if card in left[seat]), STOCK)
            if place != STOCK:
                left[place].remove(card)
            total_model += math.log(learned[row, place])
            total_uniform += math.log(uniform[row, place])
            cards += 1
        found.append((total_model, total_uniform, cards, info.view.stock_size))
    return found


def sampled(model: BeliefModel, games: int, every: int, worlds: int) -> tuple[float, float, float, float, int]:
    """On every ``every``-th held-out position of ``games`` games: the mean log-likelihood a
    card of the true places under the model's marginals, under the uniform ones, and under the
    frequencies of ``worlds`` worlds dealt by :func:`~persian_rummy.worlds.determinize` with the
    model's odds and without (a place never dealt counts as half a world), and the cards."""
    sums = [0.0, 0.0, 0.0, 0.0]
    cards = 0
    for number, (info, state) in enumerate(belief_positions(HELD_OUT_SEED, games)):
        if number % every:
            continue
        unseen, learned = model.locations(info)
        _, uniform = uniform_locations(info)
        odds = model.odds(info)
        rng = random.Random(number)
        rows: dict[object, list[int]] = {}
        for row, card in enumerate(unseen):
            rows.setdefault(card, []).append(row)
        dealt = [np.zeros_like(learned), np.zeros_like(learned)]
        for _ in range(worlds):
            for counts, weights in zip(dealt, (odds, None), strict=True):
                world = determinize(info, rng, odds=weights)
                places = [(seat, world.hands[seat]) for seat in range(4) if seat != info.seat]
                for place, held in [*places, (STOCK, world.stock)]:
                    for card in held:
                        for row in rows.get(card, ()):
                            counts[row, place] += 1 / len(rows[card])
        frequencies = [np.maximum(counts / worlds, 0.5 / worlds) for counts in dealt]
        left = [[] if seat == info.seat else list(state.hands[seat]) for seat in range(4)]
        for seat, held in enumerate(known_cards(info)):
            for card in held:
                left[seat].remove(card)
        for row, card in enumerate(unseen):
            if uniform[row].max() == 1:
                continue
            place = next((seat for seat in range(4) if card in left[seat]), STOCK)
            if place != STOCK:
                left[place].remove(card)
            for which, table in enumerate((learned, uniform, *frequencies)):
                sums[which] += math.log(table[row, place])
            cards += 1
    return sums[0] / cards, sums[1] / cards, sums[2] / cards, sums[3] / cards, cards


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="held-out games measured (default 300)")
    parser.add_argument("--every", type=int, default=3, help="measure every n-th position (default 3)")
    parser.add_argument("--fit", metavar="OUT", help="fit a model first and write it here")
    parser.add_argument("--train-games", type=int, default=1200, help="games fitted on with --fit (default 1200)")
    parser.add_argument("--train-every", type=int, default=6, help="fit on every n-th position (default 6)")
    parser.add_argument(
        "--worlds",
        type=int,
        default=0,
        help="also deal this many worlds a position, with the odds and without (default 0)",
    )
    parser.add_argument("--worlds-games", type=int, default=40, help="games whose positions get worlds (default 40)")
    parser.add_argument("--worlds-every", type=int, default=25, help="every n-th position gets worlds (default 25)")
    parser.add_argument("--ridge", type=float, default=1e-3, help="the fit's ridge (default 0.001)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.fit:
        model = fit(args.train_games, args.train_every, args.ridge)
        model.save(args.fit)
        for name, weight in zip(FEATURES, model.weights, strict=True):
            print(f"  {name:20} {weight:+.3f}", file=sys.stderr)
    else:
        model = shipped_beliefs()
    found = likelihoods(model, args.games, args.every)
    model_sums = [row[0] for row in found]
    uniform_sums = [row[1] for row in found]
    cards = sum(row[2] for row in found)
    differences = [a - b for a, b in zip(model_sums, uniform_sums, strict=True)]
    half = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences))
    per_card = (sum(model_sums) / cards, sum(uniform_sums) / cards)
    print(
        f"Python {sys.version.split()[0]}; {len(differences):,} held-out positions of {args.games} games "
        f"(seed {HELD_OUT_SEED!r}, every {args.every}), {cards:,} unseen cards the history does not place"
    )
    print(
        f"mean log-likelihood a card:     model {per_card[0]:.4f}, uniform {per_card[1]:.4f}, "
        f"gain {per_card[0] - per_card[1]:+.4f} nats ({math.exp(per_card[0] - per_card[1]):.3f} times the probability)"
    )
    print(
        f"mean log-likelihood a position: model {statistics.fmean(model_sums):.3f}, "
        f"uniform {statistics.fmean(uniform_sums):.3f}, gain {statistics.fmean(differences):+.3f} ± {half:.3f} nats"
    )
    for low, high in ((18, 27), (9, 17), (0, 8)):
        part = [row for row in found if low <= row[3] <= high]
        counted = sum(row[2] for row in part)
        gain = sum(row[0] - row[1] for row in part) / max(counted, 1)
        print(f"  stock {low:2}-{high:2}: {len(part):,} positions, {counted:,} cards, gain {gain:+.4f} nats a card")
    if args.worlds:
        learned, uniform, weighted, even, counted = sampled(model, args.worlds_games, args.worlds_every, args.worlds)
        print(
            f"{counted:,} cards of every {args.worlds_every}th position of {args.worlds_games} games, "
            f"{args.worlds} worlds each: a card's mean log-likelihood under the model {learned:.4f}, "
            f"the uniform {uniform:.4f}; under the worlds dealt with the odds {weighted:.4f}, "
            f"without {even:.4f} (gain {weighted - even:+.4f})"
        )
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
