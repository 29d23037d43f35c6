"""Conformance checks shared by the state machine, the soak, perft and their benchmarks.

Each check raises ``AssertionError`` saying what is wrong and where. The checks recompute what
they verify from the rules (RULES.md) rather than from the engine's own bookkeeping.

The bound on a round's length (R21)
-----------------------------------
A turn is a draw or a pass, then any number of melds and lay-offs, then a discard (or going
out ends the round). Call a turn *productive* when it draws from the stock or adds a card to
the table, and *idle* otherwise (passes are idle). Then:

- the stock starts with 27 cards (R5) and never grows (R20), so at most 27 turns draw from it;
- the table starts empty, never loses a card and holds at most 56, and every meld or lay-off
  adds at least one card, so at most 56 turns add to it, and at most 56 actions are melds or
  lay-offs;
- hence at most P = 27 + 56 = 83 turns are productive;
- eight idle turns in a row end the round (R21), so at most 7 idle turns come before each
  productive turn and at most 8 after the last one: at most 8P + 8 = 672 turns;
- each turn has one draw or pass and at most one discard, plus its melds and lay-offs: at
  most 2 x 672 + 56 = 1400 actions in a round, whatever the knobs.

So a game of ``rules.deals`` deals ends within ``1400 * rules.deals`` actions.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from persian_rummy import (
    DECK,
    Action,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    IllegalActionError,
    LayOff,
    MeldCards,
    Pass,
    Phase,
    Rules,
    is_legal,
    legal_actions,
    new_game,
    next_deal,
    play,
    score_round,
)
from persian_rummy.limits import MELD_LIMIT, PILE_LIMIT

#: Stock cards at the start of a deal (R5).
STOCK_SIZE = 27
#: At most this many turns draw from the stock or add to the table (see the module docstring).
MAX_PRODUCTIVE_TURNS = STOCK_SIZE + len(DECK)
#: Idle turns in a row that end a round (R21).
IDLE_LIMIT = 8
#: At most this many turns in a round (R21).
MAX_TURNS_PER_ROUND = IDLE_LIMIT * MAX_PRODUCTIVE_TURNS + IDLE_LIMIT
#: At most this many actions in a round (R21): one draw or pass and one discard per turn, plus
#: at most one meld or lay-off per card of the deck.
MAX_ACTIONS_PER_ROUND = 2 * MAX_TURNS_PER_ROUND + len(DECK)

assert MAX_ACTIONS_PER_ROUND == 1400


#: Every combination of the knobs that change play (R10, R14, R19, R20, R24, R25), with one deal
#: or two.
KNOB_GRID: tuple[Rules, ...] = tuple(
    Rules(
        deals=1 + (number % 2),
        ace_in_runs=ace,
        top_card_must_meld=top,
        pickup_use=pickup,
        last_card_discard=last,
        stock_out_end=stock_out,
        double_four_jokers=bool(number % 3),
        going_out_bonus=(25, 0, 40)[number % 3],
    )
    for number, (ace, top, pickup, last, stock_out) in enumerate(
        (ace, top, pickup, last, stock_out)
        for ace in ("high", "high_or_low")
        for top in (True, False)
        for pickup in ("meld_or_lay_off", "new_meld_only")
        for last in ("stays_in", "goes_out", "forbidden")
        for stock_out in ("all_pass", "first_pass")
    )
)


def check_cards(state: GameState) -> None:
    """R1: the 56 cards are all present exactly once across the hands, the stock, the discard
    pile and the table (bit masks: fast enough to run after every action of the soak)."""
    mask = 0
    jokers = 0
    for card in state.stock + state.discard_pile + tuple(card for meld in state.melds for card in meld.cards):
        if card.is_joker:
            jokers += 1
        else:
            assert not mask >> card.index & 1, f"R1: {card} appears twice [{state.summary()}]"
            mask |= 1 << card.index
    for hand in state.hands:
        assert not mask & hand.mask, f"R1: {hand} shares cards with the rest [{state.summary()}]"
        mask |= hand.mask
        jokers += hand.jokers
    assert mask == (1 << 52) - 1 and jokers == 4, f"R1: cards are missing [{state.summary()}]"


_FIELDS = tuple(field.name for field in attrs.fields(GameState))


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything a state holds, down to the hands' and melds' contents, to compare after an
    action: equal snapshots before and after mean the action mutated nothing."""
    return (
        tuple(getattr(state, name) for name in _FIELDS),
        tuple((hand.mask, hand.jokers) for hand in state.hands),
        tuple((meld.cards, meld.seats, meld.laid_off) for meld in state.melds),
    )


def check_state(state: GameState, *, thorough: bool = True) -> tuple[Action, ...]:
    """Check the invariants of one state and return its legal actions.

    - the 56 cards are all present exactly once (R1);
    - someone is to act exactly in the live phases, and only that seat has legal actions
      (through the seats' views, R27); a live state has at least one legal action under every
      knob (no dead ends); the legal actions are unique;
    - after a discard-pile draw, every legal action uses the target (R14);
    - the state is hashable, and equal to a copy of itself with the same hash.

    ``thorough`` adds :meth:`GameState.validate`, the mover's view (its legal actions equal the
    state's, R27) and a pickle round trip that keeps equality and the hash.
    """
    check_cards(state)
    actions = legal_actions(state)
    assert len(set(actions)) == len(actions), f"duplicate legal actions {actions} [{state.summary()}]"
    mover = state.current_player
    assert 0 <= mover < 4
    if state.phase.is_live:
        assert actions, f"dead end: no legal action [{state.summary()}]"
    else:
        assert not actions, f"a finished round lists actions {actions}"
    for seat in range(4):
        if seat != mover:
            assert not legal_actions(state.view(seat)), f"seat {seat} is not to act [{state.summary()}]"
    if state.must_meld is not None:
        for action in actions:
            assert uses_target(state, action), f"R14: {action} does not use {state.must_meld} [{state.summary()}]"
    copy = attrs.evolve(state)
    assert copy == state and hash(copy) == hash(state)
    if thorough:
        state.validate()
        assert legal_actions(state.view(mover)) == actions, f"R27: the mover's view differs [{state.summary()}]"
        restored = pickle.loads(pickle.dumps(state))
        assert restored == state and hash(restored) == hash(state), "equal states hash equal"
    return actions


def uses_target(state: GameState, action: Action) -> bool:
    """Whether ``action`` melds or lays off the card taken from the discard pile (R14)."""
    target = state.must_meld
    if isinstance(action, MeldCards):
        return target in action.cards
    if isinstance(action, LayOff):
        return action.card == target and state.rules.pickup_use == "meld_or_lay_off"
    return False


def check_transition(before: GameState, action: Action, after: GameState, taken: tuple[Any, ...]) -> None:
    """Check one legal action's effect: ``before`` is unchanged (its :func:`snapshot` is still
    ``taken``), the cards moved as the action says, and the turn passed as the rules say
    (R12-R20)."""
    assert snapshot(before) == taken, f"{action} mutated the state it was played on"
    seat = before.current_player
    if before.must_meld is not None:
        assert uses_target(before, action), f"R14: {action} played without using {before.must_meld}"
    if isinstance(action, DrawStock):
        assert after.stock == before.stock[:-1]
        assert list(after.hands[seat]) == sorted([*before.hands[seat], before.stock[-1]])
        assert after.phase is Phase.MELD and after.current_player == seat and after.must_meld is None
    elif isinstance(action, DrawDiscard):
        taken = before.discard_pile[action.index :]
        assert after.discard_pile == before.discard_pile[: action.index]
        assert list(after.hands[seat]) == sorted([*before.hands[seat], *taken])
        free = action.index == len(before.discard_pile) - 1 and not before.rules.top_card_must_meld
        assert after.must_meld == (None if free else taken[0]), "R14: the target must be melded next"
        assert after.phase is Phase.MELD and after.current_player == seat
    elif isinstance(action, MeldCards | LayOff):
        added = list(action.cards) if isinstance(action, MeldCards) else [action.card]
        assert Counter(before.hands[seat]) - Counter(added) == Counter(after.hands[seat])
        assert sum(len(meld) for meld in after.melds) == sum(len(meld) for meld in before.melds) + len(added)
        if after.phase.is_live:
            assert after.phase is Phase.MELD and after.current_player == seat and after.must_meld is None
        else:
            assert not after.hands[seat] and after.went_out == seat, "R18: only emptying the hand ends the round here"
    elif isinstance(action, Discard):
        assert after.discard_pile == before.discard_pile + (action.card,)
        assert Counter(before.hands[seat]) - Counter([action.card]) == Counter(after.hands[seat])
        if after.phase.is_live:
            assert after.phase is Phase.DRAW and after.current_player == (seat + 1) % 4
    else:
        assert isinstance(action, Pass) and not before.stock, "R20: a pass only with an empty stock"
        assert after.hands == before.hands and after.discard_pile == before.discard_pile
        if after.phase.is_live:
            assert after.current_player == (seat + 1) % 4 and after.consecutive_passes == before.consecutive_passes + 1
    if not after.phase.is_live:
        check_scores(before.scores, after)


def check_scores(scores_before: tuple[int, int], state: GameState) -> None:
    """For a finished round: the itemised :class:`RoundScore` adds up, the totals equal the
    table cards credited to each team (with the doubles of sets of four melded at once) minus
    the cards in hand plus the going-out bonus, and the running scores grew by them
    (R22-R25). Recomputed from the melds' text form, not from the engine's tally."""
    credited = [0, 0]
    doubles = [0, 0]
    for meld in state.melds:
        tokens = str(meld).split()
        originals = [token for token in tokens if "@" in token]
        for token in tokens:
            card_text, mark, seat_text = token[:2], token[2], token[3:]
            assert mark in "@+"
            credited[int(seat_text) % 2] += _points(card_text)
        four_at_once = len(tokens) == 4 == len(originals) and len({token[0] for token in tokens}) == 1
        if four_at_once and (tokens[0][:2] != "Jk" or state.rules.double_four_jokers):
            doubles[int(originals[0][3:]) % 2] += sum(_points(token[:2]) for token in tokens)
    in_hand = [sum(card.points for seat in (team, team + 2) for card in state.hands[seat]) for team in (0, 1)]
    bonus = [0, 0]
    if state.went_out is not None:
        bonus[state.went_out % 2] = state.rules.going_out_bonus
    totals = []
    for team, score in enumerate(score_round(state)):
        assert score.team == team
        assert score.total == score.melded + score.laid_off + score.doubles - score.in_hand + score.going_out
        assert score.melded + score.laid_off == credited[team], f"R23: team {team} table cards"
        assert score.doubles == doubles[team], f"R24: team {team} doubles"
        assert score.in_hand == in_hand[team], f"R23: team {team} cards in hand"
        assert score.going_out == bonus[team], f"R25: team {team} bonus"
        assert score.total == credited[team] + doubles[team] - in_hand[team] + bonus[team]
        totals.append(score.total)
    assert state.scores == (scores_before[0] + totals[0], scores_before[1] + totals[1])


def _points(card_text: str) -> int:
    # R22, by the card's text: joker 20, ace 15, T/J/Q/K 10, 2-9 face value.
    rank = card_text[0]
    if card_text == "Jk":
        return 20
    return {"A": 15, "K": 10, "Q": 10, "J": 10, "T": 10}.get(rank) or int(rank)


def check_illegal(state: GameState, action: Action, legal: Iterable[Action]) -> None:
    """An action not in the legal set raises an :class:`IllegalActionError` subclass, leaves
    the state equal to before, and :func:`is_legal` agrees."""
    assert action not in set(legal)
    taken = snapshot(state)
    try:
        play(state, action)
    except IllegalActionError as error:
        assert type(error) is not IllegalActionError, "each rule broken has its own subclass"
        assert error.rule.startswith("R"), error
    else:
        raise AssertionError(f"{action} is not listed as legal, yet it was played [{state.summary()}]")
    assert snapshot(state) == taken
    assert not is_legal(state, action)


def play_round(
    state: GameState,
    choose: Callable[[tuple[Action, ...]], Action],
    *,
    check_all: bool = False,
    thorough: bool = False,
    probe: random.Random | None = None,
) -> tuple[GameState, int]:
    """Play a live round to its end with ``choose`` picking among the legal actions, checking
    every invariant on the way; return the final state and the number of actions played.
    With ``check_all`` every legal action is also played from every state; with ``probe`` a
    random action (:func:`random_action`) is tried from every state and, if it is not legal,
    must raise (:func:`check_illegal`)."""
    played = 0
    turns = 0
    while True:
        actions = check_state(state, thorough=thorough)
        if not state.phase.is_live:
            return state, played
        assert played < MAX_ACTIONS_PER_ROUND, f"R21: the round has gone on for {played} actions"
        taken = snapshot(state)
        if check_all:
            for action in actions:
                check_transition(state, action, play(state, action), taken)
        if probe is not None:
            candidate = random_action(probe, state)
            if candidate not in actions:
                check_illegal(state, candidate, actions)
        action = choose(actions)
        after = play(state, action)
        check_transition(state, action, after, taken)
        if isinstance(action, Discard | Pass) or not after.phase.is_live:
            turns += 1
            assert turns <= MAX_TURNS_PER_ROUND, f"R21: the round has gone on for {turns} turns"
        state = after
        played += 1


def play_game(
    seed: int, rules: Rules, *, check_all: bool = False, thorough: bool = False
) -> tuple[GameState, list[tuple[int, bool]]]:
    """Play a whole game of uniformly random legal actions from ``seed``, checking the
    invariants after every action and trying a random illegal action from every state; return
    the final state and, for each deal, its number of actions and whether someone went out."""
    rng = random.Random(seed)
    state = new_game(seed, dealer=seed % 4, rules=rules)
    deals = []
    while True:
        state, played = play_round(state, rng.choice, check_all=check_all, thorough=thorough, probe=rng)
        deals.append((played, state.went_out is not None))
        if state.phase is Phase.GAME_OVER:
            assert len(deals) == rules.deals, "R7: a game is exactly rules.deals deals"
            return state, deals
        state = next_deal(state, rng.randrange(2**32))


def perft(state: GameState, depth: int) -> int:
    """The number of sequences of exactly ``depth`` legal actions from ``state`` (a finished
    round has none of length 1 or more)."""
    if depth == 0:
        return 1
    actions = legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(perft(play(state, action), depth - 1) for action in actions)


def position_from_json(entry: dict[str, Any]) -> GameState:
    """Build a perft position from its entry in ``tests/data/perft.json``: an opening deal
    (``seed``, optional ``dealer``) or a position (``hands``, ``discard_pile``, optional
    ``stock``, ``melds``, ``current_player``, ``dealer``), under ``rules`` (the text form of
    :class:`Rules`), then the ``actions`` listed played in order."""
    rules = Rules.parse(entry.get("rules", "default"))
    if "seed" in entry:
        state = new_game(entry["seed"], dealer=entry.get("dealer", 0), rules=rules)
    else:
        state = GameState.from_position(
            entry["hands"],
            entry["discard_pile"],
            stock=entry.get("stock"),
            melds=entry.get("melds", ()),
            dealer=entry.get("dealer", 0),
            current_player=entry.get("current_player"),
            rules=rules,
        )
    for text in entry.get("actions", ()):
        state = play(state, text)
    return state


def random_action(rng: random.Random, state: GameState) -> Action:
    """A random well-formed action for ``state``, legal or not: any kind, cards mostly from the
    hand of the player to move, indices around the real ones."""
    held = list(state.hands[state.current_player])

    def card() -> Any:
        return rng.choice(held) if held and rng.random() < 0.7 else rng.choice(DECK)

    kind = rng.randrange(6)
    if kind == 0:
        return DrawStock()
    if kind == 1:
        return Pass()
    if kind == 2:
        return DrawDiscard(rng.randrange(min(len(state.discard_pile) + 2, PILE_LIMIT)))
    if kind == 3:
        return Discard(card())
    if kind == 4:
        return LayOff(card(), rng.randrange(min(len(state.melds) + 2, MELD_LIMIT)))
    return MeldCards([card() for _ in range(rng.randint(1, 5))])


@attrs.frozen
class SoakReport:
    """What a soak played: games, deals, actions, the longest deal, how many deals ended by
    going out (R18) and how many by the stock running out or idle turns (R20, R21)."""

    games: int = 0
    deals: int = 0
    actions: int = 0
    longest_round: int = 0
    went_out: int = 0
    exhausted: int = 0
    knob_sets: frozenset[Rules] = frozenset()

    def __add__(self, other: SoakReport) -> SoakReport:
        return SoakReport(
            self.games + other.games,
            self.deals + other.deals,
            self.actions + other.actions,
            max(self.longest_round, other.longest_round),
            self.went_out + other.went_out,
            self.exhausted + other.exhausted,
            self.knob_sets | other.knob_sets,
        )


def soak_rules(seed: int) -> Rules:
    """The rules of soak game ``seed``: the knob grid in turn."""
    return KNOB_GRID[seed % len(KNOB_GRID)]


def soak_range(seeds: range) -> SoakReport:
    """Play the games of ``seeds`` (see :func:`play_game`), checking everything; a failure
    names the seed and the rules, so ``play_game(seed, soak_rules(seed))`` replays it."""
    report = SoakReport()
    for seed in seeds:
        rules = soak_rules(seed)
        try:
            _, deals = play_game(seed, rules, thorough=True)
        except AssertionError as error:
            raise AssertionError(f"soak game {seed} under rules {rules!s}: {error}") from error
        went_out = sum(out for _, out in deals)
        report += SoakReport(
            1,
            len(deals),
            sum(length for length, _ in deals),
            max(length for length, _ in deals),
            went_out,
            len(deals) - went_out,
            frozenset({rules}),
        )
    return report


def soak(games: int, *, start: int = 0, workers: int = 2) -> SoakReport:
    """Play ``games`` games (seeds ``start`` on) in ``workers`` fresh processes."""
    if workers <= 1:
        return soak_range(range(start, start + games))
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    chunk = max(1, min(250, games // (workers * 4) or 1))
    ranges = [range(first, min(first + chunk, start + games)) for first in range(start, start + games, chunk)]
    # "spawn": clean interpreters, without the parent's tracers (coverage) or state.
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        total = SoakReport()
        for report in pool.map(soak_range, ranges):
            total += report
    return total
