"""Bots: always a legal action from the view alone, seeded determinism, and the greedy
baseline's documented habits (R13-R14, R17-R19, R22, R24, R27)."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from persian_rummy import (
    DECK,
    ArgumentTypeError,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    Hand,
    InvalidArgumentError,
    InvalidStateError,
    LayOff,
    MeldCards,
    NotationError,
    Pass,
    Phase,
    Rules,
    legal_actions,
    new_game,
    next_deal,
    play,
)
from persian_rummy.bots import BOTS, Bot, GreedyBot, MonteCarloBot, RandomBot, determinize, make_bot

KNOBS = st.builds(
    Rules,
    deals=st.integers(1, 2),
    ace_in_runs=st.sampled_from(("high", "high_or_low")),
    top_card_must_meld=st.booleans(),
    pickup_use=st.sampled_from(("meld_or_lay_off", "new_meld_only")),
    last_card_discard=st.sampled_from(("stays_in", "goes_out", "forbidden")),
    stock_out_end=st.sampled_from(("all_pass", "first_pass")),
    double_four_jokers=st.booleans(),
    going_out_bonus=st.sampled_from((0, 25, 100)),
)


def random_state(seed: int, rules: Rules, steps: int) -> GameState:
    """A live state reached by ``steps`` random legal actions from a seeded deal."""
    rng = random.Random(seed)
    state = new_game(seed, dealer=seed % 4, rules=rules)
    live = state
    for _ in range(steps):
        if state.phase is Phase.GAME_OVER:
            break
        if state.phase is Phase.ROUND_OVER:
            state = next_deal(state, rng.randrange(1 << 30))
        else:
            state = play(state, rng.choice(legal_actions(state)))
        if state.phase.is_live:
            live = state
    return live


ALL_BOTS = [
    "random",
    "greedy",
    "mc:samples=1,horizon=1,candidates=1",
    "mc:samples=2,horizon=3,candidates=2",
    "montecarlo:samples=1,horizon=8,candidates=6",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rules=KNOBS, steps=st.integers(0, 250), bot=st.sampled_from(ALL_BOTS))
def test_r27_every_bot_returns_a_legal_action_from_its_view(seed: int, rules: Rules, steps: int, bot: str) -> None:
    state = random_state(seed, rules, steps)
    player = make_bot(bot, seed)
    action = player(state.view(state.current_player))
    assert action in legal_actions(state)


@pytest.mark.parametrize("bot", ["random", "greedy", "mc:samples=2,horizon=2,candidates=3"])
@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules.parse("500_rum"),
        Rules(last_card_discard="forbidden", pickup_use="new_meld_only", top_card_must_meld=False),
    ],
)
def test_r7_r14_bots_play_whole_games_with_legal_actions_only(bot: str, rules: Rules) -> None:
    for seed in range(2):
        bots = [make_bot(bot, seed * 4 + seat) for seat in range(4)]
        state = new_game(seed, rules=rules)
        while True:
            while state.phase.is_live:
                before = state
                action = bots[state.current_player](state.view(state.current_player))
                assert action in legal_actions(state)
                state = play(state, action)
                if before.must_meld is not None:  # R14: the target was used by this action
                    assert isinstance(action, MeldCards | LayOff)
                    assert before.must_meld in (action.cards if isinstance(action, MeldCards) else (action.card,))
            if state.phase is Phase.GAME_OVER:
                break
            state = next_deal(state, seed + 100)


@pytest.mark.parametrize("bot", ["random", "greedy", "mc:samples=3,horizon=4"])
def test_bots_are_deterministic_for_a_seed(bot: str) -> None:
    def actions(seed: int) -> list[str]:
        players = [make_bot(bot, seed + seat) for seat in range(4)]
        state = new_game(11)
        out = []
        while state.phase.is_live:
            action = players[state.current_player](state.view(state.current_player))
            out.append(str(action))
            state = play(state, action)
        return out

    assert actions(1) == actions(1)


def test_random_bots_differ_between_seeds() -> None:
    state = random_state(3, Rules(), 40)
    while len(legal_actions(state)) < 4:
        state = play(state, legal_actions(state)[-1])
    view = state.view(state.current_player)
    choices = {RandomBot(seed)(view) for seed in range(30)}
    assert len(choices) > 1


def test_bot_protocol_accepts_functions_and_the_bots() -> None:
    def first(view: object) -> object:
        return legal_actions(view)[0]  # type: ignore[arg-type]

    assert isinstance(first, Bot)
    for factory in BOTS.values():
        assert isinstance(factory(0), Bot)


def test_r27_a_bot_asked_out_of_turn_raises() -> None:
    # Every bundled bot says the same (the learned player raised a value error naming no rule).
    state = new_game(1)
    for bot in (RandomBot(0), GreedyBot(), MonteCarloBot(0), make_bot("neural")):
        with pytest.raises(InvalidStateError, match="R27: seat 2 was asked to act, but seat 1 is to move"):
            bot(state.view(2))


def test_make_bot_names_and_knobs() -> None:
    assert repr(make_bot("greedy", 3)) == "GreedyBot(seed=3)"
    bot = make_bot("montecarlo: samples=5, horizon=2, candidates=3", 9)
    assert isinstance(bot, MonteCarloBot)
    assert (bot.seed, bot.samples, bot.horizon, bot.candidates) == (9, 5, 2, 3)
    with pytest.raises(NotationError, match="'nobody' is not a bot"):
        make_bot("nobody")
    with pytest.raises(NotationError, match="has no knob"):
        make_bot("random:samples=3")
    with pytest.raises(NotationError, match="knob=whole-number"):
        make_bot("mc:samples=many")
    with pytest.raises(InvalidArgumentError, match="samples must be a whole number of at least 1"):
        make_bot("mc:samples=0")
    with pytest.raises(ArgumentTypeError, match="by text"):
        make_bot(3)  # type: ignore[arg-type]


# --- Determinization ------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), rules=KNOBS, steps=st.integers(0, 250), sample=st.integers(0, 1000))
def test_r27_determinize_is_consistent_with_the_view(seed: int, rules: Rules, steps: int, sample: int) -> None:
    state = random_state(seed, rules, steps)
    for seat in range(4):
        view = state.view(seat)
        world = determinize(view, random.Random(sample))
        world.validate()  # R1: exactly the 56 cards, every field in range
        assert world.view(seat) == view  # same hand, same public information, same hand sizes
        if seat == state.current_player:
            assert legal_actions(world) == legal_actions(state)


def test_r27_determinize_deals_only_unseen_cards() -> None:
    state = GameState.from_position(["4s 5s", "Qs Ks As 2h", "Jk 3c", "7h 8h 9h"], "2c 9c", melds=["7s@0 7d@0 7c@0"])
    view = state.view(0)
    seen_elsewhere = {Card.parse(text) for text in ("4s", "5s", "2c", "9c", "7s", "7d", "7c")}
    for sample in range(20):
        world = determinize(view, random.Random(sample))
        for seat in (1, 2, 3):
            assert not seen_elsewhere & set(world.hands[seat])
            assert len(world.hands[seat]) == len(state.hands[seat])
        assert len(world.stock) == len(state.stock)


def test_r1_determinize_rejects_a_view_whose_counts_do_not_add_up() -> None:
    view = attrs.evolve(new_game(1).view(1), stock_size=3)  # 27 unseen stock cards, not 3
    with pytest.raises(InvalidStateError, match="R1: the view of seat 1 leaves 48 unseen cards"):
        determinize(view, random.Random(0))


# --- The greedy baseline ----------------------------------------------------------------


def at_meld_phase(hands: list[str], pile: str, **options: object) -> GameState:
    """Seat 1 to move, having drawn: the meld phase of ``from_position``'s position."""
    state = attrs.evolve(GameState.from_position(hands, pile, **options), phase=Phase.MELD, turn_progress=True)  # type: ignore[arg-type]
    state.validate()
    return state


def test_r13_r14_greedy_takes_a_deep_pile_draw_that_scores() -> None:
    state = GameState.from_position(["", "9s Ts 4d Kc", "", ""], "Js Qh 3c 2h")
    assert GreedyBot()(state.view(1)) == DrawDiscard(0)


def test_r12_greedy_draws_from_the_stock_when_the_pile_does_not_score() -> None:
    # Taking the 9c would meld three nines (27) but drag eight loose cards (77) into the hand.
    state = GameState.from_position(["", "9s 9h Kd", "", ""], "9c As Kh Qd Jc Ah 8d 2h 7s")
    assert DrawDiscard(0) in legal_actions(state)
    assert GreedyBot()(state.view(1)) == DrawStock()


def test_r20_greedy_passes_with_an_empty_stock_and_no_useful_draw() -> None:
    # Taking the 5s melds 3s 4s 5s (12) but drags four costly loose cards (50) into the hand.
    hands: list[Hand | str] = [Hand(DECK) - Hand("3s 4s Kd 5s As Ah Kc Qc"), "3s 4s Kd", "", ""]
    state = GameState.from_position(hands, "5s As Ah Kc Qc", stock=())
    assert legal_actions(state) == (DrawDiscard(0), Pass())
    assert GreedyBot()(state.view(1)) == Pass()


def test_r24_greedy_melds_a_set_of_four_at_once() -> None:
    state = at_meld_phase(["", "Js Jh Jd Jc 2s", "", ""], "3c")
    assert GreedyBot()(state.view(1)) == MeldCards("Js Jh Jd Jc")


def test_r14_greedy_uses_the_target_after_a_pile_draw() -> None:
    state = GameState.from_position(["", "5h 6h 7h Qs Qd", "", ""], "Qc 2s", melds=["8d@0 9d@0 Td@0"])
    state = play(state, DrawDiscard(0))
    assert state.must_meld == Card.parse("Qc")
    action = GreedyBot()(state.view(1))
    assert action == MeldCards("Qs Qd Qc")


def test_r18_greedy_goes_out_when_it_can() -> None:
    # Laying off the 4s and then melding the three kings empties the hand: out, +25.
    state = at_meld_phase(["", "4s Kh Kd Kc", "", ""], "2c", melds=["5s@0 6s@0 7s@0"])
    bot = GreedyBot()
    while state.phase.is_live and state.current_player == 1:
        state = play(state, bot(state.view(1)))
    assert state.went_out == 1


def test_r17_r22_greedy_discards_its_costliest_loose_card() -> None:
    # The pair of fives and the 8-9 of hearts are close to melds; the king is the costliest loose card.
    state = at_meld_phase(["", "5s 5d 8h 9h Kc 3d", "", ""], "2c")
    assert GreedyBot()(state.view(1)) == Discard("Kc")


def test_r22_greedy_keeps_a_pair_whose_other_cards_are_live_over_a_dead_pair() -> None:
    # The other two queens are on the table, so the queens cannot become a set: throw one.
    state = at_meld_phase(["", "Qs Qh 4d 4c 2s", "", ""], "3c", melds=["Jd@0 Qd@0 Kd@0", "Jc@0 Qc@0 Kc@0"])
    assert GreedyBot()(state.view(1)) in (Discard("Qs"), Discard("Qh"))


def test_greedy_beats_random() -> None:
    from persian_rummy.arena import run_match

    result = run_match("greedy", "random", games=20, seed="strength", workers=1)
    assert result.wins[0] >= 17


# --- Monte-Carlo ------------------------------------------------------------------------


def test_montecarlo_follows_greedy_for_melds_and_lay_offs() -> None:
    state = at_meld_phase(["", "Js Jh Jd Jc 2s", "", ""], "3c")
    assert MonteCarloBot(0, samples=2)(state.view(1)) == MeldCards("Js Jh Jd Jc")


def test_montecarlo_only_searches_real_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    # One legal draw: no sampling needed, the answer is immediate (no world is dealt).
    import persian_rummy.bots

    dealt: list[object] = []
    monkeypatch.setattr(persian_rummy.bots, "determinize", lambda *given: dealt.append(given))
    bot = MonteCarloBot(0)
    assert bot(new_game(1).view(1)) == DrawStock()
    assert dealt == []


@pytest.mark.parametrize("knob", ["samples", "horizon", "candidates"])
def test_montecarlo_knobs_must_be_positive_whole_numbers(knob: str) -> None:
    with pytest.raises(InvalidArgumentError, match=knob):
        MonteCarloBot(0, **{knob: 0})
    with pytest.raises(InvalidArgumentError, match=knob):
        MonteCarloBot(0, **{knob: 1.5})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "spec", ["mc:samples=" + "9" * 50, "mc:horizon=1000001", "mc:samples=1000,horizon=1000,candidates=2"]
)
def test_a_montecarlo_budget_past_the_limit_is_refused(spec: str) -> None:
    # Regression: "mc:samples=" and fifty nines was accepted, and its first move never ended.
    with pytest.raises(InvalidArgumentError, match="bounded work"):
        make_bot(spec)
    assert make_bot("mc:samples=1000,horizon=1000,candidates=1").samples == 1000  # type: ignore[attr-defined]  # at the limit


def test_make_bot_rejects_digits_that_are_not_decimal() -> None:
    # "²" is a digit to str.isdigit but not to int(): it was a bare ValueError, not a NotationError.
    with pytest.raises(NotationError, match="knob=whole-number"):
        make_bot("mc:samples=²")
    with pytest.raises(NotationError, match="knob=whole-number"):
        make_bot("mc:samples=" + "9" * 5000)  # past int()'s limit on digits: was a bare ValueError


@pytest.mark.parametrize(("double_four_jokers", "expected"), [(True, DrawDiscard(0)), (False, DrawDiscard(5))])
def test_r24_greedy_values_four_jokers_as_the_rules_score_them(double_four_jokers: bool, expected: DrawDiscard) -> None:
    # Taking the whole pile makes four jokers (160 doubled, 80 not) and the fives, but drags four
    # loose cards (50 points, counted at half) into the hand; the top five alone makes the fives.
    # The fourth joker is worth 100 more with the doubling and 20 more without it.
    rules = Rules(double_four_jokers=double_four_jokers)
    state = GameState.from_position(["", "Jk Jk Jk 5h 5d", "", ""], "Jk Ac Ad Kh Qs 5s", rules=rules)
    assert {DrawDiscard(0), DrawDiscard(5)} <= set(legal_actions(state))
    assert GreedyBot()(state.view(1)) == expected
