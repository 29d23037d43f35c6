"""Hidden information (R27): no form of a view reveals a card its seat has not seen, and the
information state records exactly the public history of the deal."""

from __future__ import annotations

import pickle
import re
from collections import Counter
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from playouts import RULE_SETS, playout, reachable_states

from persian_rummy import (
    Card,
    DrawStock,
    GameState,
    Hand,
    InfoState,
    InvalidArgumentError,
    InvalidStateError,
    Meld,
    NotationError,
    Observation,
    PlayerView,
    info_after,
    new_game,
    observe,
    play,
)

# Jokers too: a leaked joker must be caught in the text forms as well.
_CARD_TOKEN = re.compile(r"[2-9TJQKA][shdc]|Jk")


def visible_cards(state: GameState, seat: int) -> Counter[Card]:
    """What ``seat`` may see, computed from the state (not from the view): its own hand, the
    discard pile, the melds, the card just taken from the pile that must be melded (everyone
    saw it there, R13-R14) and, once the round is over, every hand (R23, R27)."""
    seen: Counter[Card] = Counter(state.hands[seat])
    seen.update(state.discard_pile)
    if state.must_meld is not None and seat != state.current_player:
        seen[state.must_meld] += 1
    for meld in state.melds:
        seen.update(meld.cards)
    if state.is_deal_over:
        for other, hand in enumerate(state.hands):
            if other != seat:
                seen.update(hand)
    return seen


def cards_inside(value: object) -> Iterator[Card]:
    """Every card reachable from a value: what its pickle can hold."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, Hand | tuple | list):
        for item in value:
            yield from cards_inside(item)
    elif isinstance(value, Meld):
        yield from value.cards
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            yield from cards_inside(getattr(value, field.name))


def assert_text_hides(text: str, state: GameState, seat: int, form: str) -> None:
    seen = visible_cards(state, seat)
    for token in _CARD_TOKEN.findall(text):
        card = Card.parse(token)
        assert seen[card], f"the {form} of seat {seat}'s view shows {card}, which it has not seen: {text}"


def assert_view_hides(view: PlayerView, state: GameState) -> None:
    seat = view.seat
    seen = visible_cards(state, seat)
    inside = Counter(cards_inside(view))
    revealed = view.revealed_hands or ()
    # Some cards are named twice: a finished round's view has the hand in revealed_hands too,
    # and the card to meld (R14) is also in the hand.
    allowed = seen + Counter(view.hand) if revealed else Counter(seen)
    if view.must_meld is not None:
        allowed[view.must_meld] += 1
    assert not inside - allowed, f"seat {seat}'s view holds {inside - allowed}, unseen"
    data = pickle.dumps(view)
    assert b"GameState" not in data and b"stock\x94" not in data
    assert Counter(cards_inside(pickle.loads(data))) == inside
    for form, text in (
        ("repr", repr(view)),
        ("str", str(view)),
        ("JSON", view.to_json()),
        ("position", view.position()),
    ):
        assert_text_hides(text, state, seat, form)


@given(reachable_states())
def test_r27_no_form_of_a_view_reveals_an_unseen_card(state: GameState) -> None:
    for seat in range(4):
        assert_view_hides(state.view(seat), state)


def test_r27_the_leak_check_catches_a_leak() -> None:
    # The property above must be able to fail: a view that carries another hand is caught.
    state = new_game(1)
    leaky = attrs.evolve(state.view(0), hand=state.hands[1])
    with pytest.raises(AssertionError):
        assert_view_hides(leaky, state)
    with pytest.raises(AssertionError):
        assert_text_hides(state.position(), state, 0, "position")
    # Seat 0 holds no joker in this deal, so a joker in its text is a leak.
    assert not visible_cards(state, 0)[Card.parse("Jk")]
    with pytest.raises(AssertionError):
        assert_text_hides("3s Jk", state, 0, "text")


def test_r23_r27_decision_hands_are_revealed_exactly_when_the_round_is_over() -> None:
    for state, _ in playout(5, RULE_SETS[0]):
        for seat in range(4):
            view = state.view(seat)
            if state.phase.is_live:
                assert view.revealed_hands is None
            else:
                assert view.revealed_hands == state.hands
    assert state.is_deal_over


@given(st.integers(0, 2**32 - 1), st.sampled_from(RULE_SETS), st.integers(0, 3), st.integers(1, 250))
def test_r27_information_state_records_the_public_history(seed: int, rules: object, seat: int, steps: int) -> None:
    info: InfoState | None = None
    seen: Counter[Card] = Counter()
    actions: list[object] = []
    first: GameState | None = None
    for step, (state, action) in enumerate(playout(seed, rules, dealer=seed % 4)):  # type: ignore[arg-type]
        if step > steps:
            break
        if action is None:
            info, first, actions, seen = InfoState.start(state, seat), state, [], Counter()
        else:
            assert info is not None
            before = info.view
            info = info.update(action, state)
            actions.append(action)
            observation = info.history[-1]
            assert observation.seat == before.current_player and observation.action == action
            if isinstance(action, DrawStock):
                # R12, R27: only the player who draws sees the card.
                assert len(observation.cards) == (observation.seat == seat)
            assert Observation.parse(str(observation)) == observation
        seen |= visible_cards(state, seat)
        assert info.view == observe(state, seat)
        # Only the newest observation and the view are new: every card in them was seen.
        # (The history repeats cards, a discard is in the action and in the pile: compare sets.)
        newest = info.history[-1:] if action is not None else ()
        unseen = set(cards_inside(info.view)) | set(cards_inside(newest)) - set(seen)
        unseen -= set(seen)
        assert not unseen, f"the information state holds {unseen}, never seen by seat {seat}"
    assert first is not None and info is not None
    if first.deal_number == info.view.deal_number:
        assert info_after(first, actions, seat=seat) == info  # type: ignore[arg-type]


def test_r27_information_state_update_checks_its_input() -> None:
    state = new_game(1)
    info = InfoState.start(state, 0)
    with pytest.raises(InvalidStateError):
        info.update("draw", state.view(1))
    with pytest.raises(InvalidStateError):
        InfoState.start(state)
    with pytest.raises(NotationError):
        Observation.parse("X draw")
    with pytest.raises(NotationError):
        Observation.parse("N discard 4s = 4s")


def _tamper(view: PlayerView, **changes: object) -> PlayerView:
    return attrs.evolve(view, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "changes",
    [
        {"hand_sizes": (7, 7, 7, 6)},
        {"hand_sizes": (7, 7, 7)},
        {"stock_size": 28},
        {"seat": 4},
        {"deal_number": 3},
        {"revealed_hands": (Hand(), Hand(), Hand(), Hand())},
        {"consecutive_passes": 2},
        {"must_meld": Card.parse("2s")},
        {"went_out": 1},
        {"scores": (1, "2")},
    ],
)
def test_r27_view_validation_rejects_impossible_views(changes: dict[str, object]) -> None:
    view = new_game(1).view(0)
    view.validate()
    with pytest.raises(InvalidStateError):
        _tamper(view, **changes).validate()


def test_r1_view_validation_rejects_duplicated_cards() -> None:
    view = new_game(1).view(1)
    with pytest.raises(InvalidStateError, match="R1"):
        _tamper(view, discard_pile=(Card.parse("Js"),)).validate()


def test_r27_information_states_paste_back_and_pickle() -> None:
    import pickle

    from persian_rummy import Action, Discard, DrawDiscard, LayOff, MeldCards, Pass  # noqa: F401

    info = info_after(new_game(1), ["draw", "discard Jk", "draw", "discard 9s"], seat=1)
    assert eval(repr(info)) == info
    assert pickle.loads(pickle.dumps(info)) == info
    assert str(info).splitlines()[1:] == ["E draw = Ad", "E discard Jk", "S draw", "S discard 9s"]


def test_r1_r14_r27_a_view_counts_the_card_to_meld_in_the_movers_hidden_hand() -> None:
    # Regression: validate() accepted a view whose card to meld (held by another seat) is a
    # card the viewer itself holds, so an impossible view parsed from text.
    state = play(new_game(1), "draw")  # seat 1 drew and is to meld
    view = state.view(0)
    held = next(iter(view.hand))
    with pytest.raises(InvalidStateError, match="R1"):
        _tamper(view, must_meld=held).validate()
    with pytest.raises(InvalidStateError, match="R1"):
        PlayerView.parse(view.position().replace("must=-", f"must={held}"))


def test_r3_observations_reject_a_seat_that_is_not_0_to_3() -> None:
    # Regression: Observation(7, ...) was built and then str() raised a bare IndexError;
    # Observation(-1, ...) printed as West.
    for seat in (-1, 4, "1", True):
        with pytest.raises(InvalidArgumentError, match="R3"):
            Observation(seat, DrawStock())  # type: ignore[arg-type]


def test_r27_information_state_update_rejects_what_is_not_an_action() -> None:
    # Regression: update(5, ...) recorded an observation of the action 5.
    state = new_game(1)
    with pytest.raises(TypeError, match="expected an Action"):
        InfoState.start(state, 1).update(5, play(state, "draw"))  # type: ignore[arg-type]


def test_r27_information_state_errors_do_not_name_another_seats_cards() -> None:
    # Regression: handing an information state another seat's view put that view's repr, and
    # so its hand, in the error message.
    state = new_game(1)
    other = state.view(1)
    for call in (lambda: InfoState.start(state, 0).update("draw", other), lambda: InfoState.start(other, 0)):
        with pytest.raises(InvalidStateError) as caught:
            call()
        assert "a view of seat 1" in str(caught.value)
        assert not any(str(card) in str(caught.value) for card in other.hand)


def _stochastic_bots() -> list[tuple[str, object]]:
    # Every bundled bot that draws random numbers, at small knobs: a factory of a seed.
    from persian_rummy.bots import MonteCarloBot, RandomBot
    from persian_rummy.policy import NeuralBot, shipped_policy
    from persian_rummy.search import ExpertBot

    return [
        ("random", RandomBot),
        ("mc", lambda seed: MonteCarloBot(seed, samples=2, horizon=2)),
        ("mc history", lambda seed: MonteCarloBot(seed, samples=2, horizon=2, history=1)),
        ("neural warm", lambda seed: NeuralBot(shipped_policy(), seed, temperature=1.0)),
        ("expert", lambda seed: ExpertBot(seed, samples=2, horizon=3)),
        ("expert beliefs", lambda seed: ExpertBot(seed, samples=2, horizon=3, beliefs=1)),
        ("expert critic", lambda seed: ExpertBot(seed, samples=2, horizon=3, critic=1)),
    ]


@pytest.mark.parametrize(("name", "make"), _stochastic_bots(), ids=[name for name, _ in _stochastic_bots()])
def test_r27_a_bots_move_depends_on_its_seed_and_what_its_seat_saw_only(name: str, make: object) -> None:
    # One bot plays every seat of a deal; then, for each of its decisions, a fresh bot of the
    # same seed is asked the same information state in a world whose hidden cards (the other
    # hands, the stock) were dealt again from another seed, after it was asked by another
    # seat of another deal: it answers the same move (R27). Before, a bot's random stream ran
    # on from its earlier choices, so a bot shared by the seats answered one seat according to
    # the others' hands.
    import random

    from persian_rummy.worlds import determinize

    assert callable(make)
    shared = make(5)
    takes_info = getattr(shared, "takes_info_state", False)
    state = new_game(11)
    infos = [InfoState.start(state, seat) for seat in range(4)]
    asked: list[tuple[InfoState, object]] = []
    for _ in range(60):
        if not state.phase.is_live:
            break
        seat = state.current_player
        given = infos[seat] if takes_info else infos[seat].view
        action = shared(given)
        asked.append((infos[seat], action))
        state = play(state, action)
        infos = [info.update(action, state) for info in infos]
    other_deal = new_game(12)
    changed = 0
    for number, (info, action) in enumerate(asked):
        world = determinize(info, random.Random(number))
        changed += world.hands != state.hands
        assert world.view(info.seat) == info.view  # the same information, other hidden cards
        fresh = make(5)
        mover = other_deal.current_player
        fresh(InfoState.start(other_deal, mover) if takes_info else other_deal.view(mover))
        again = InfoState(world.view(info.seat), info.history)
        assert fresh(again if takes_info else again.view) == action, (name, number)
    assert changed
