"""Property tests over random games under random rules (R1, R5, R12-R26).

A biased random player (it prefers melds, lay-offs and discard-pile draws, so rounds end by
going out as well as by the stock running out) plays whole games under rules drawn from every
combination of knobs, and every step is checked:

- the legal set is authoritative: every legal action applies, and for a broad universe of
  candidate actions ``is_legal`` agrees with membership, while each illegal one raises an
  ``IllegalActionError`` subclass and leaves the state as it was;
- no card is created or lost (R1), every live state has a legal action, every round ends
  within the bound that R21 implies, and the scores add up (R22-R26).
"""

from __future__ import annotations

import itertools
import pickle
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
from hypothesis import given
from hypothesis import strategies as st
from playouts import KNOB_VALUES

from persian_rummy import (
    DECK,
    JOKER,
    Action,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    Hand,
    IllegalActionError,
    LayOff,
    Meld,
    MeldCards,
    NotationError,
    Pass,
    PersianRummyError,
    Phase,
    Rank,
    Rules,
    Suit,
    is_legal,
    legal_actions,
    new_game,
    next_deal,
    parse_cards,
    play,
    score_round,
    winner,
)
from persian_rummy.cards import CARDS

#: An upper bound on the actions of one round under any knobs (R21): at most 27 stock draws
#: and 56 cards added to the table make 83 productive turns; at most 7 idle turns before each
#: and 8 after the last: 8 * 83 + 8 turns of at most a draw and a discard, plus 56 melds and
#: lay-offs.
MAX_ACTIONS_PER_ROUND = 2 * (8 * 83 + 8) + 56

RULES = st.builds(
    Rules,
    deals=st.integers(1, 2),
    going_out_bonus=st.sampled_from((0, 25, 50)),
    **{name: st.sampled_from(values) for name, values in KNOB_VALUES.items()},
)
SEEDS = st.integers(0, 2**32)


def choose(rng: random.Random, actions: tuple[Action, ...], eagerness: float) -> Action:
    useful = [action for action in actions if isinstance(action, MeldCards | LayOff | DrawDiscard)]
    if useful and rng.random() < eagerness:
        return rng.choice(useful)
    return rng.choice(actions)


def all_cards(state: GameState) -> Counter[object]:
    counts: Counter[object] = Counter(state.stock)
    counts.update(state.discard_pile)
    for hand in state.hands:
        counts.update(hand)
    for meld in state.melds:
        counts.update(meld.cards)
    return counts


def expected_round_totals(state: GameState) -> tuple[int, int]:
    """The round's team totals recomputed from the table and the hands (R22-R25)."""
    totals = [0, 0]
    for meld in state.melds:
        for card, seat in zip(meld.cards, meld.seats, strict=True):
            totals[seat % 2] += card.points
        doubled = len(meld.cards) == 4 and not any(meld.laid_off) and len({card.rank for card in meld.cards}) == 1
        if doubled and (state.rules.double_four_jokers or not meld.cards[0].is_joker):
            totals[meld.owner % 2] += meld.points
    for seat, hand in enumerate(state.hands):
        totals[seat % 2] -= sum(card.points for card in hand)
    if state.went_out is not None:
        totals[state.went_out % 2] += state.rules.going_out_bonus
    return totals[0], totals[1]


def candidates(state: GameState, rng: random.Random) -> list[Action]:
    """A broad universe of actions to try: legal or not."""
    hand = list(state.hands[state.current_player])
    distinct = sorted(set(hand))
    out: list[Action] = [DrawStock(), Pass()]
    out += [DrawDiscard(index) for index in range(len(state.discard_pile) + 1)]
    out += [Discard(card) for card in CARDS]
    strangers = rng.sample(CARDS, 3)
    out += [LayOff(card, index) for card in distinct + strangers for index in range(len(state.melds) + 1)]
    for size in (2, 3, 3, 4, 5):
        if len(hand) >= size:
            out.append(MeldCards(rng.sample(hand, size)))
        out.append(MeldCards(rng.sample(list(DECK), size)))
    if hand:
        out.append(MeldCards([hand[0]] * 3))  # the same card thrice
    out += list(legal_actions(state))
    return out


def check_universe(state: GameState, rng: random.Random) -> None:
    legal = legal_actions(state)
    legal_set = set(legal)
    assert len(legal_set) == len(legal), "legal actions are unique"
    assert legal == legal_actions(state), "legal actions are deterministic"
    frozen = pickle.dumps(state)
    for action in candidates(state, rng):
        in_set = action in legal_set
        assert is_legal(state, action) == in_set, (action, state.summary())
        if in_set:
            play(state, action).validate()
        else:
            try:
                play(state, action)
            except IllegalActionError as error:
                assert type(error) is not IllegalActionError, "a subclass names the rule broken"
                assert str(error).startswith(error.rule + ": ")
                assert error.state is state
            else:
                raise AssertionError(f"{action} is not legal but played: {state.summary()}")
        assert pickle.dumps(state) == frozen, "the state passed in is unchanged"


def play_game(rules: Rules, seed: int, *, universe_rate: float = 0.0) -> GameState:
    """Play a whole game with every per-step check; return the final state."""
    rng = random.Random(seed)
    eagerness = rng.choice((0.0, 0.6, 0.95))
    state = new_game(seed, dealer=rng.randrange(4), rules=rules)
    scores = (0, 0)
    while True:
        assert state.scores == scores
        for _ in range(MAX_ACTIONS_PER_ROUND):
            if not state.phase.is_live:
                break
            assert all_cards(state) == Counter(DECK)
            assert state.idle_turns < 8 and state.went_out is None
            actions = legal_actions(state)
            assert actions, f"dead end: {state.summary()}"
            if rng.random() < universe_rate:
                check_universe(state, rng)
            before = state
            state = play(state, choose(rng, actions, eagerness))
            state.validate()
            assert before.deal_number == state.deal_number
        else:
            raise AssertionError(f"the round did not end within {MAX_ACTIONS_PER_ROUND} actions")
        # The round is over: R18-R26.
        assert all_cards(state) == Counter(DECK)
        assert legal_actions(state) == ()
        if state.went_out is not None:
            assert not state.hands[state.went_out]
        else:
            assert state.idle_turns == 8 or state.consecutive_passes == (
                1 if rules.stock_out_end == "first_pass" else 4
            )
        ns, ew = score_round(state)
        assert (ns.total, ew.total) == expected_round_totals(state)
        assert state.scores == (scores[0] + ns.total, scores[1] + ew.total)
        scores = state.scores
        if state.deal_number == rules.deals:
            assert state.phase is Phase.GAME_OVER
            top = max(scores)
            assert winner(state) == (None if scores[0] == scores[1] else scores.index(top))
            return state
        assert state.phase is Phase.ROUND_OVER
        dealer = state.dealer
        state = next_deal(state, rng.randrange(2**32))
        assert state.dealer == (dealer + 1) % 4


@given(rules=RULES, seed=SEEDS)
def test_r12_r21_legal_set_is_authoritative(rules: Rules, seed: int) -> None:
    play_game(attrs.evolve(rules, deals=1), seed, universe_rate=0.06)


@given(rules=RULES, seed=SEEDS)
def test_r1_r18_r26_random_games_conserve_cards_terminate_and_score_consistently(rules: Rules, seed: int) -> None:
    play_game(rules, seed)


def test_r19_r21_every_knob_value_plays_whole_games_without_dead_ends() -> None:
    # Every combination of the knobs, one short game each: no dead end anywhere (issue 2).
    names = list(KNOB_VALUES)
    outcomes: Counter[str] = Counter()
    for number, values in enumerate(itertools.product(*KNOB_VALUES.values())):
        knobs: dict[str, Any] = dict(zip(names, values, strict=True))
        rules = Rules(deals=1, **knobs)
        final = play_game(rules, number)
        outcomes["out" if final.went_out is not None else "passes" if final.idle_turns < 8 else "idle"] += 1
    assert outcomes["out"] > 0 and outcomes["passes"] > 0 and outcomes["idle"] > 0


@given(rules=RULES, seed=SEEDS, steps=st.integers(0, 120))
def test_state_text_of_actions_round_trips_along_a_game(rules: Rules, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state = new_game(seed, rules=rules)
    for _ in range(steps):
        if not state.phase.is_live:
            break
        for action in legal_actions(state):
            assert Action.parse(str(action)) == action
        state = play(state, choose(rng, legal_actions(state), 0.8))
    assert pickle.loads(pickle.dumps(state)) == state


@given(text=st.text(max_size=12))
def test_action_parse_never_raises_anything_but_notation_error(text: str) -> None:
    try:
        action = Action.parse(text)
    except NotationError:
        return
    assert Action.parse(str(action)) == action


# --- An independent oracle of the legal set ------------------------------------------------


def oracle_meld_phase(
    hand: list[Card], table: tuple[Meld, ...], must: Card | None, rules: Rules, seat: int
) -> set[Action]:
    """The legal actions after the draw, written from RULES.md alone (R8-R11, R14-R19)."""
    ace = rules.ace_in_runs
    forbidden = rules.last_card_discard == "forbidden"

    def leftover_ok(left: list[Card], new_table: tuple[Meld, ...]) -> bool:
        # R19 "forbidden": a single card left must be one that can be laid off at once.
        return not forbidden or len(left) != 1 or any(meld.accepts(left[0], ace) for meld in new_table)

    found: set[frozenset[Card] | tuple[Card, ...]] = set()
    naturals = [card for card in hand if not card.is_joker]
    for rank in Rank:
        same = [card for card in naturals if card.rank is rank]
        for size in (3, 4):
            found.update(frozenset(combo) for combo in itertools.combinations(same, size))
    for suit in Suit:
        ranks = {int(card.rank) for card in naturals if card.suit is suit and card.rank is not None}
        if Rank.ACE in ranks and ace == "high_or_low":
            ranks.add(1)
        for low in range(1, 13):
            for high in range(low + 2, 15):
                if (low, high) != (1, 14) and all(value in ranks for value in range(low, high + 1)):
                    run = {Card(Rank(14 if value == 1 else value), suit) for value in range(low, high + 1)}
                    if len(run) == high - low + 1:
                        found.add(frozenset(run))
    jokers = hand.count(JOKER)
    found.update((JOKER,) * size for size in (3, 4) if jokers >= size)
    out: set[Action] = set()
    for cards in found:
        chosen = list(cards)
        if must is not None and must not in chosen:
            continue
        left = list(hand)
        for card in chosen:
            left.remove(card)
        if leftover_ok(left, (*table, Meld(chosen, seats=seat))):
            out.add(MeldCards(chosen))
    if must is None or rules.pickup_use == "meld_or_lay_off":
        for index, meld in enumerate(table):
            for card in set(hand):
                if (must is None or card == must) and meld.accepts(card, ace):
                    left = list(hand)
                    left.remove(card)
                    new_table = (*table[:index], meld.lay_off(card, seat, ace_in_runs=ace), *table[index + 1 :])
                    if leftover_ok(left, new_table):
                        out.add(LayOff(card, index))
    if must is None and not (forbidden and len(hand) == 1):
        out.update(Discard(card) for card in set(hand))
    return out


def oracle(state: GameState) -> set[Action]:
    """The legal actions of ``state`` written from RULES.md alone (R12-R20)."""
    seat = state.current_player
    hand = list(state.hands[seat])
    if state.phase is Phase.MELD:
        return oracle_meld_phase(hand, state.melds, state.must_meld, state.rules, seat)
    if state.phase is not Phase.DRAW:
        return set()
    out: set[Action] = {DrawStock()} if state.stock else {Pass()}
    pile = state.discard_pile
    for index, target in enumerate(pile):
        if (index == len(pile) - 1 and not state.rules.top_card_must_meld) or oracle_meld_phase(
            hand + list(pile[index:]), state.melds, target, state.rules, seat
        ):
            out.add(DrawDiscard(index))
    return out


@given(rules=RULES, seed=SEEDS)
def test_r8_r20_legal_actions_match_an_oracle_written_from_the_rules(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    eagerness = rng.choice((0.6, 0.95))
    state = new_game(seed, rules=attrs.evolve(rules, deals=1))
    while state.phase.is_live:
        actions = legal_actions(state)
        assert set(actions) == oracle(state), state.summary()
        state = play(state, choose(rng, actions, eagerness))


TOKENS = st.sampled_from(
    [*"0123456789TJQKAshdcSHDCjkoer@+ ,-=_♠♥♦♣🃏x\t", "10", "Jk", "joker", "meld ", "take ", "deals"]
)
PARSERS: dict[str, Callable[[str], object]] = {
    "card": Card.parse,
    "cards": parse_cards,
    "hand": Hand,
    "meld": Meld.parse,
    "rules": Rules.parse,
    "action": Action.parse,
    "position": lambda text: GameState.from_position([text, "", "", ""], ""),
    "deck": GameState.from_deck,
}


@given(text=st.lists(TOKENS, max_size=20).map("".join), parser=st.sampled_from(sorted(PARSERS)))
def test_parsers_raise_only_the_librarys_errors(text: str, parser: str) -> None:
    # Bad text is a NotationError (or, for a position, an InvalidStateError; for a meld that
    # parses but is no meld, an IllegalActionError): never a bare KeyError or IndexError.
    try:
        PARSERS[parser](text)
    except PersianRummyError as error:
        assert isinstance(error, ValueError)
