"""The arena: seeded matches that give the same results serially and on a process pool (on
Dask: ``test_arena_dask``); seat swapping; statistics and the results table (R3, R7, R26). The
standings and ratings of a round robin are tested in ``test_standings``."""

from __future__ import annotations

import concurrent.futures
import functools
import math
import os
import subprocess
import sys
import threading
import types
import warnings

import pytest
from waiting import DEFAULT_LIMIT

from persian_rummy import (
    Action,
    ArgumentTypeError,
    InvalidArgumentError,
    NotationError,
    Phase,
    PlayerView,
    PolicyFileError,
    Rules,
    legal_actions,
    new_game,
    next_deal,
    play,
)
from persian_rummy.arena import (
    BotFactory,
    GameResult,
    MatchResult,
    build_bot,
    derived_seed,
    is_bot,
    play_game,
    round_robin,
    run_match,
    wilson_interval,
)
from persian_rummy.bots import Bot, GreedyBot, MonteCarloBot, RandomBot, make_bot
from persian_rummy.search import ExpertBot

# A tiny Monte-Carlo budget keeps the identity checks quick while exercising its sampling.
LINEUPS = [
    ("greedy", "random"),
    (("mc:samples=1,horizon=2,candidates=2", "random"), "greedy"),
    (BotFactory(functools.partial(MonteCarloBot, samples=1, horizon=1, candidates=2)), BotFactory(RandomBot)),
]


def test_match_results_are_reproducible_and_depend_on_the_seed() -> None:
    first = run_match("random", "random", games=8, seed=5, workers=1)
    assert first == run_match("random", "random", games=8, seed=5, workers=1)
    assert first != run_match("random", "random", games=8, seed=6, workers=1)


@pytest.mark.parametrize("sides", LINEUPS)
def test_process_pool_gives_the_serial_results(sides: tuple[object, object]) -> None:
    serial = run_match(*sides, games=6, seed="pool", rules=Rules(deals=1), workers=1)  # type: ignore[arg-type]
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        pooled = run_match(*sides, games=6, seed="pool", rules=Rules(deals=1), executor=pool, chunk_size=1)  # type: ignore[arg-type]
    assert pooled == serial
    assert [record.game for record in pooled.games] == list(range(6))


def test_default_process_pool_gives_the_serial_results() -> None:
    serial = run_match("greedy", "random", games=6, seed=2, workers=1)
    assert run_match("greedy", "random", games=6, seed=2) == serial
    assert run_match("greedy", "random", games=6, seed=2, workers=2, chunk_size=4) == serial


ONLY_HERE = "persian_rummy_test_only_in_the_test_process"


def make_greedy_unforked(seed: int) -> GreedyBot:
    """A factory that refuses to run in a copy of the test process (which holds ONLY_HERE)."""
    if ONLY_HERE in sys.modules:
        raise RuntimeError("this worker was forked from the test process")
    return GreedyBot(seed)


def test_the_tests_pools_start_their_workers_without_forking_the_test_process() -> None:
    # The batched engine's tests load JAX, whose threads make forking the process unsafe (a
    # lock held by a thread at the fork stays held in the child): the root conftest has the
    # pools start their workers from a fork server, or by spawning where there is none. A
    # worker forked from this process would hold the module only this process holds.
    sys.modules[ONLY_HERE] = types.ModuleType(ONLY_HERE)
    try:
        pooled = run_match(BotFactory(make_greedy_unforked), "random", games=4, seed=3, workers=2)
        with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
            given = run_match(BotFactory(make_greedy_unforked), "random", games=4, seed=3, executor=pool)
    finally:
        del sys.modules[ONLY_HERE]
    assert pooled == given
    assert pooled.games == run_match("greedy", "random", games=4, seed=3, workers=1).games


def test_r3_swapped_games_deal_the_same_cards_with_the_sides_trading_seats() -> None:
    # Deterministic, identical bots play each pair of games identically, so the teams' scores
    # repeat and the sides' scores swap.
    result = run_match("greedy", "greedy", games=6, seed=9, workers=1)
    for even, odd in zip(result.games[::2], result.games[1::2], strict=True):
        assert (even.swapped, odd.swapped) == (False, True)
        assert even.scores == odd.scores
        assert even.side_scores == odd.side_scores[::-1]
    assert result.wins[0] == result.wins[1]


def test_r3_without_swapping_side_0_is_always_team_0() -> None:
    result = run_match("greedy", "random", games=4, seed=9, swap_seats=False, workers=1)
    assert not any(record.swapped for record in result.games)
    assert all(record.side_scores == record.scores for record in result.games)


def test_r7_play_game_plays_every_deal() -> None:
    game = play_game([GreedyBot(), RandomBot(1), GreedyBot(), RandomBot(2)], "x", rules=Rules(deals=3))
    state = game.final
    assert state.phase is Phase.GAME_OVER and state.deal_number == 3
    assert len(game.deals) == 3 and all(len(actions) >= 4 for actions in game.deals)
    assert game.action_count == sum(map(len, game.deals)) and game.deal_seeds == ("x", "x/2", "x/3")
    # The actions replay the game exactly.
    replayed = new_game("x", rules=Rules(deals=3))
    for number, actions in enumerate(game.deals, 1):
        if number > 1:
            replayed = next_deal(replayed, game.deal_seeds[number - 1])
        for action in actions:
            replayed = play(replayed, action)
    assert replayed == state
    with pytest.raises(InvalidArgumentError, match="R3: a game needs 4 bots"):
        play_game([GreedyBot()] * 3, 1)


def test_derived_seeds_are_stable() -> None:
    # Fixed values: any change would silently change every published match result.
    assert derived_seed(1, 2, 3) == 5689346328975807818
    assert len({derived_seed("m", game, seat) for game in range(50) for seat in range(4)}) == 200


def test_results_table_lists_both_sides_with_intervals() -> None:
    records = (
        GameResult(0, False, (100, 50), 150),
        GameResult(1, True, (60, 80), 170),
        GameResult(2, False, (70, 70), 160),
        GameResult(3, True, (90, 40), 140),
    )
    result = MatchResult(("greedy", "random"), records)
    assert result.wins == (2, 1) and result.draws == 1
    low, high = wilson_interval(2, 4)
    lines = result.table().splitlines()
    assert lines[0].split() == [
        "side",
        "bot",
        "games",
        "wins",
        "draws",
        "win",
        "rate",
        "95%",
        "CI",
        "mean",
        "score",
        "sd",
        "score",
    ]
    assert lines[1].split() == [
        "0",
        "greedy",
        "4",
        "2",
        "1",
        "0.500",
        f"[{low:.3f},",
        f"{high:.3f}]",
        "72.5",
        "25.0",
    ]  # side 0 scored 100, 80, 70, 40
    assert lines[2].split()[:6] == ["1", "random", "4", "1", "1", "0.250"]
    mean_margin = (50 + 20 + 0 - 50) / 4
    half = 1.959963984540054 * math.sqrt(sum((m - mean_margin) ** 2 for m in (50, 20, 0, -50)) / 3) / 2
    assert (
        lines[3] == f"margin of side 0: {mean_margin:+.1f} ± {half:.1f} per game; game length: 155.0 actions (sd 12.9)"
    )
    assert str(result) == result.table()


def test_round_robin_plays_every_pair() -> None:
    results = round_robin(["random", "greedy", "mc:samples=1,horizon=1"], 2, workers=1)
    assert [result.sides for result in results] == [
        ("random", "greedy"),
        ("random", "mc:samples=1,horizon=1"),
        ("greedy", "mc:samples=1,horizon=1"),
    ]


def test_progress_bar_with_tqdm(capsys: pytest.CaptureFixture[str]) -> None:
    import tqdm  # noqa: F401 - part of the [test] extra: never skipped

    run_match("greedy", "random", games=4, seed=1, workers=1, progress=True)
    assert "4/4" in capsys.readouterr().err


def test_progress_without_tqdm_degrades_to_plain_lines(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # makes "import tqdm" fail
    run_match("greedy", "random", games=10, seed=1, workers=1, progress=True)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "1/10 games" and err[-1] == "10/10 games"


def test_bad_arguments_raise_notation_errors() -> None:
    with pytest.raises(InvalidArgumentError, match="number of games"):
        run_match("greedy", "random", games=-1)
    with pytest.raises(InvalidArgumentError, match="workers"):
        run_match("greedy", "random", games=1, workers=0)
    with pytest.raises(NotationError, match="'nobody' is not a bot"):
        run_match("greedy", "nobody", games=1)
    with pytest.raises(ArgumentTypeError, match="a bot spec is"):
        run_match("greedy", 3, games=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="R3: a line-up"):
        run_match(("greedy", "random", "random"), "random", games=1)  # type: ignore[arg-type]


def test_zero_games_is_an_empty_result() -> None:
    result = run_match("greedy", "random", games=0, workers=1)
    assert result.games == () and result.wins == (0, 0)
    assert result.win_rate(0) == (0.0, 0.0, 1.0)
    assert result.scores(1) == (0.0, 0.0) and result.margin == (0.0, 0.0)
    assert result.table().splitlines()[1].split()[:6] == ["0", "greedy", "0", "0", "0", "0.000"]


def test_bad_chunk_size_raises_instead_of_playing_no_games() -> None:
    # A negative chunk size once made range() empty: a match of 6 games returned 0 games.
    for chunk_size in (-1, 0.5):
        with pytest.raises(InvalidArgumentError, match="chunk_size must be a whole number"):
            run_match("random", "random", games=6, workers=2, chunk_size=chunk_size)  # type: ignore[arg-type]


def test_a_failing_game_cancels_the_games_not_yet_started() -> None:
    # The first bot built raises; every later game waits until the match has failed. Without
    # cancelling, the executor would still play all 20 games before it shut down.
    built: list[int] = []
    release = threading.Event()

    def factory(seed: int) -> RandomBot:
        built.append(seed)
        if len(built) == 1:
            raise RuntimeError("bot failed")
        release.wait(DEFAULT_LIMIT)  # set as soon as the match has failed
        return RandomBot(seed)

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        with pytest.raises(RuntimeError, match="bot failed"):
            run_match(BotFactory(factory), "random", games=20, seed=1, executor=pool, chunk_size=1)
        release.set()
    # The failed game, and at most the next one (two partners) if the worker took it already.
    assert len(built) <= 3


@pytest.mark.thorough  # a fresh interpreter: CI runs it (docs/testing.rst)
def test_results_do_not_depend_on_the_hash_seed() -> None:
    # The Dask tests above share this interpreter's hash seed (threads), and the pools'
    # workers take their fork server's, a random one; interpreters with seeds chosen to differ
    # must play the same games too (no set or dict order of str-hashed values may steer a bot
    # or a deal).
    script = (
        "from persian_rummy.arena import run_match\n"
        "r = run_match(('mc:samples=2,horizon=2', 'random'), 'greedy', games=4, seed='h', workers=1)\n"
        "print([(g.scores, g.actions) for g in r.games])\n"
    )
    expected = run_match(("mc:samples=2,horizon=2", "random"), "greedy", games=4, seed="h", workers=1)
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert done.stdout.strip() == str([(g.scores, g.actions) for g in expected.games])


def test_a_factory_that_cannot_be_pickled_fails_at_once_naming_it() -> None:
    # Regression: a lambda with the default workers hung forever in the pool's shutdown.
    from persian_rummy.bots import GreedyBot

    def factory(seed: int) -> GreedyBot:
        return GreedyBot(seed)

    def local_bot(view: PlayerView) -> Action:
        return legal_actions(view)[0]

    with pytest.raises(InvalidArgumentError, match=r"the bot factory .*factory cannot be pickled"):
        run_match(BotFactory(factory), "random", games=4, workers=2)
    with pytest.raises(InvalidArgumentError, match="lambda"):
        run_match(BotFactory(lambda seed: GreedyBot(seed)), "random", games=4, workers=2)
    with pytest.raises(InvalidArgumentError, match=r"the bot .*local_bot cannot be pickled"):
        run_match(local_bot, "random", games=4, workers=2)


def test_a_plain_call_plays_in_this_process() -> None:
    # Without workers or an executor, no pool is started: a lambda works.
    from persian_rummy.bots import GreedyBot

    plain = run_match(BotFactory(lambda seed: GreedyBot(seed)), "random", games=2, seed=5)
    assert plain.games == run_match("greedy", "random", games=2, seed=5, workers=1).games


def my_first_bot(view: PlayerView) -> Action:
    """A bot written as a plain function, as a bot writer's first one is."""
    return legal_actions(view)[0]


def test_run_match_takes_bots_as_well_as_factories_and_names() -> None:
    """run_match(my_bot, "greedy") plays my_bot itself (it was called with a seed and failed)."""
    for bot in (my_first_bot, GreedyBot(1), functools.partial(GreedyBot.__call__, GreedyBot(2))):
        result = run_match(bot, "greedy", games=2, seed=3, workers=1)
        assert len(result.games) == 2
    assert run_match(GreedyBot(1), "random", games=2, seed=3, workers=1).sides == ("GreedyBot", "random")
    assert run_match(my_first_bot, "random", games=2, seed=3, workers=1).sides == ("my_first_bot", "random")
    # The same bot as a factory plays the same games as the bot made from each game's seed.
    factory = run_match(BotFactory(GreedyBot), "random", games=2, seed=3, workers=1)
    assert [game.scores for game in factory.games] == [
        game.scores for game in run_match("greedy", "random", games=2, seed=3, workers=1).games
    ]


def test_is_bot_tells_bots_by_what_they_are_not_by_annotations() -> None:
    """A bot is anything called with a view; names, factories and classes make bots."""

    def unannotated(view):  # type: ignore[no-untyped-def]
        return legal_actions(view)[0]

    class Unannotated:
        def __call__(self, view):  # type: ignore[no-untyped-def]
            return legal_actions(view)[0]

    for bot in (my_first_bot, unannotated, Unannotated(), RandomBot(1), GreedyBot(1).__call__, print):
        assert is_bot(bot), bot
    for spec in ("random", BotFactory(RandomBot), RandomBot, Unannotated, 3, None, lambda: None):
        assert not is_bot(spec), spec


def test_a_bot_for_other_rules_is_refused_before_any_game() -> None:
    """The shipped neural policy plays the default rules only: another rule set is refused at
    once, saying how to train one (R7: deals=1 is another game)."""
    with pytest.raises(PolicyFileError, match="persian-rummy train"):
        run_match("neural", "greedy", games=2, rules=Rules(deals=1), workers=1)
    with pytest.raises(PolicyFileError, match="persian-rummy train"):
        run_match(make_bot("neural"), "greedy", games=2, rules=Rules(deals=1), workers=1)


# --- What stands for a bot: a name, a BotFactory, a class, or a bot (issue 38) ---------------


def plain_bot(view):  # type: ignore[no-untyped-def]
    """A newcomer's first bot: a plain function, no annotations."""
    return legal_actions(view)[0]


class FirstLegal:
    """A bot class made without arguments (as ``--bot mybots.tiny2:FirstLegal`` names one)."""

    def __call__(self, view: PlayerView) -> Action:
        return legal_actions(view)[0]


def make_greedy(number):  # type: ignore[no-untyped-def]
    """A factory by its body only (a function of one argument): explicit as BotFactory(make_greedy)."""
    return GreedyBot(number)


def test_a_plain_function_without_annotations_is_a_bot() -> None:
    """It was taken for a factory and called with a seed: "expected a GameState or a
    PlayerView, not 3917325207537043500"."""
    result = run_match(plain_bot, "greedy", games=2, seed=3, workers=1)
    assert result.sides == ("plain_bot", "greedy")
    assert result.games == run_match(my_first_bot, "greedy", games=2, seed=3, workers=1).games


def test_a_class_is_made_without_arguments_for_each_seat_of_each_game() -> None:
    made: list[object] = []

    class Counted(FirstLegal):
        def __init__(self) -> None:
            made.append(self)

    result = run_match(Counted, "random", games=2, seed=1, workers=1)
    assert len(made) == 4 and len(set(map(id, made))) == 4  # two seats, two games, each its own
    assert result.sides == ("Counted", "random")
    assert result.games == run_match(FirstLegal(), "random", games=2, seed=1, workers=1).games
    # A class defined at the top of a module travels to other processes.
    assert run_match(FirstLegal, "random", games=4, seed=1, workers=2) == run_match(
        FirstLegal, "random", games=4, seed=1, workers=1
    )


def test_a_class_whose_constructor_needs_arguments_is_refused_naming_it() -> None:
    class NeedsADepth(FirstLegal):
        def __init__(self, depth):  # type: ignore[no-untyped-def]
            self.depth = depth

    with pytest.raises(
        ArgumentTypeError, match=r"NeedsADepth cannot be made without arguments.*BotFactory\(NeedsADepth\)"
    ):
        run_match(NeedsADepth, "random", games=2, workers=1)


def two_arguments(view, extra):  # type: ignore[no-untyped-def]
    return legal_actions(view)[0]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (3, "not 3"),
        (None, "not None"),
        (lambda: None, "lambda.* cannot be called with a view alone"),
        (two_arguments, "the function test_arena.two_arguments cannot be called with a view alone"),
    ],
)
def test_every_wrong_shape_is_refused_before_any_game_saying_what_a_bot_is(spec: object, message: str) -> None:
    with pytest.raises(ArgumentTypeError, match=message) as caught:
        run_match(spec, "random", games=2, workers=1)  # type: ignore[arg-type]
    assert "a bot" in str(caught.value)
    with pytest.raises(ArgumentTypeError, match=message):
        round_robin(["random", spec], 2, workers=1)  # type: ignore[list-item]


def test_a_bot_factory_makes_each_seat_a_bot_from_its_seed() -> None:
    by_name = run_match("greedy", "random", games=4, seed=2, workers=1)
    made = run_match(BotFactory(GreedyBot), "random", games=4, seed=2, workers=1)
    assert made.games == by_name.games and made.sides == ("GreedyBot", "random")
    named = run_match(BotFactory(make_greedy, name="mine"), "random", games=4, seed=2, workers=1)
    assert named.games == by_name.games and named.sides == ("mine", "random")
    assert run_match(BotFactory(make_greedy), "random", games=4, seed=2, workers=2) == run_match(
        BotFactory(make_greedy), "random", games=4, seed=2, workers=1
    )
    standings = round_robin([BotFactory(GreedyBot), FirstLegal, "random"], 2, workers=1)
    assert sorted(row.name for row in standings.rows) == ["FirstLegal", "GreedyBot", "random"]


def test_a_bot_factory_refuses_what_cannot_make_bots() -> None:
    for build in ("greedy", 3, lambda: GreedyBot(), BotFactory(GreedyBot)):
        with pytest.raises(ArgumentTypeError, match="BotFactory"):
            BotFactory(build)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="made 'not a bot', not a bot"):
        run_match(BotFactory(lambda seed: "not a bot"), "random", games=2, workers=1)  # type: ignore[arg-type,return-value]


def test_a_function_of_a_seed_makes_a_bot_for_each_seat() -> None:
    """Issue 50 item 1: a function whose first parameter is named seed (annotated or not, a
    lambda too) makes a bot for each seat from the seat's seed, as BotFactory of it does; no
    annotation is read. A bundled bot class says it is made from a seed (made_from_seed) and
    plays the games of BotFactory(GreedyBot)."""

    def factory(seed: int) -> Bot:
        return GreedyBot(seed)

    def unannotated(seed):  # type: ignore[no-untyped-def]
        return GreedyBot(seed)

    made: list[int] = []

    def counted(seed: int) -> Bot:
        made.append(seed)
        return GreedyBot(seed)

    expected = run_match(BotFactory(GreedyBot), "random", games=2, seed=4, workers=1)
    for maker in (factory, unannotated, counted, lambda seed: GreedyBot(seed)):
        assert not is_bot(maker)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert run_match(maker, "random", games=2, seed=4, workers=1).games == expected.games
    assert len(made) == 4 and len(set(made)) == 4  # one bot per seat of its side, each from its seat's seed
    assert GreedyBot.made_from_seed and not is_bot(GreedyBot)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert run_match(GreedyBot, "random", games=2, seed=4, workers=1) == expected
    for cls in (RandomBot, GreedyBot, MonteCarloBot, ExpertBot):
        assert cls.made_from_seed is True, cls


class Clever:
    """Issue 50 item 5's class, as a person writes it: a constructor that takes a seed."""

    def __init__(self, seed: int = 0) -> None:
        self.bot = GreedyBot(seed)
        self.seed = seed

    def __call__(self, view: PlayerView) -> Action:
        return self.bot(view)


def test_a_class_whose_constructor_takes_a_seed_is_made_for_each_seat_from_its_seed() -> None:
    """Issue 50 item 5: class Clever: def __init__(self, seed=0) is one bot per seat, made as
    Clever(seed=seed) from the seat's seed (in other processes too); a class that says
    made_from_seed = False is made without arguments; one that cannot be made from a seed
    alone is refused before any game, saying how to write it."""
    expected = run_match(BotFactory(GreedyBot), "random", games=2, seed=4, workers=1)
    assert run_match(Clever, "random", games=2, seed=4, workers=1).games == expected.games
    assert run_match(Clever, "random", games=2, seed=4, workers=2).games == expected.games
    assert run_match(Clever, "random", games=2, workers=1).sides[0] == "Clever"
    assert {build_bot(Clever, seed).seed for seed in range(4)} == {0, 1, 2, 3}  # type: ignore[attr-defined]

    class Unseeded(Clever):
        made_from_seed = False

    assert build_bot(Unseeded, 5).seed == 0  # type: ignore[attr-defined]

    class NeedsADepth:
        def __init__(self, depth: int, seed: int = 0) -> None: ...

        def __call__(self, view: PlayerView) -> Action: ...

    with pytest.raises(ArgumentTypeError, match=r"takes a seed.*NeedsADepth\(seed=seed\).*BotFactory\(make\)"):
        run_match(NeedsADepth, "random", games=2, workers=1)


def test_a_factory_played_as_a_bot_says_to_give_it_as_a_bot_factory() -> None:
    """A function of one argument not named seed is a bot: the library's bots, handed a view
    for a seed, say what happened and what to write."""
    for factory in (make_greedy, lambda s: RandomBot(s), lambda number: MonteCarloBot(number)):
        with pytest.raises(ArgumentTypeError, match=r"was played as a bot .*BotFactory\(function\)"):
            run_match(factory, "random", games=2, workers=1)
