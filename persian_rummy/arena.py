"""Tournaments: many seeded games between two bot line-ups, serially or in parallel.

A line-up is one bot spec for both partners or a pair of specs (for seats 0 and 2 of team 0,
1 and 3 of team 1, R3). A bot spec is what it is, never guessed from annotations:

- a name for :func:`~persian_rummy.bots.make_bot` (``"greedy"``, ``"mc:samples=4"``), made
  for each seat of each game from the seat's seed, or, as the command line's ``--bot`` spells
  it, a bot spec in a module of your own (``"mybots:my_bot"``, ``"mybots.py:my_bot"``),
  imported from the current folder first;
- a :class:`BotFactory` (``BotFactory(GreedyBot)``, ``BotFactory(my_make)``): its
  ``build(seed)`` makes a bot for each seat of each game from the seat's seed;
- a class, made for each seat of each game: from the seat's seed (``GreedyBot(seed)``) when
  its ``made_from_seed`` class attribute is true, as every bundled bot class's is, or when
  its constructor takes a ``seed`` (``class Clever: def __init__(self, seed=0)`` is made as
  ``Clever(seed=seed)``), else without arguments (``MyBot()``);
- a function whose first parameter is named ``seed`` (``def make(seed): return
  GreedyBot(seed)``), which makes a bot for each seat of each game from the seat's seed;
- a bot itself, played as it is (with its own seed) at every seat it is given: anything
  called with a view, such as a plain function ``def my_bot(view)``, a bound method, or an
  object with ``__call__`` (``GreedyBot(3)``, a :class:`~persian_rummy.policy.NeuralBot`).

A spec of any other shape (a class that needs arguments, a function that takes no view, a
value that cannot be called) is refused before any game, by a message that names it and says
what is expected. A function that makes bots from a seed under another name
(``def make(s)``), given as a bot, is called with the view, and the game stops at its first
move with a message that says to write ``BotFactory(make)``.
Every game's decks, dealer and bot seeds derive from the match seed and the game's number
alone, so a match gives the same results whatever runs it: serially, on a process pool, or on
a Dask cluster through ``client.get_executor()`` (any :class:`concurrent.futures.Executor`).

>>> result = run_match("greedy", "random", games=4, seed=1, workers=1)
>>> result.wins
(3, 1)
>>> print(result.table())
side  bot     games  wins  draws  win rate  95% CI          mean score  sd score
0     greedy      4     3      0     0.750  [0.301, 0.954]       329.2     128.1
1     random      4     1      0     0.250  [0.046, 0.699]       145.5     165.0
margin of side 0: +183.8 ± 192.1 per game; game length: 148.2 actions (sd 40.0)
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import math
import os
import pickle
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeAlias, TypeVar

import attrs

from persian_rummy._bot_specs import BotFactory, BotSpec, build_bot, check_bot_spec, is_bot, name_of
from persian_rummy.actions import Action
from persian_rummy.bots import Bot, Player
from persian_rummy.dealing import deal_seed
from persian_rummy.errors import (
    ArgumentTypeError,
    IllegalActionError,
    InvalidArgumentError,
    NotationError,
    PersianRummyError,
    excerpt,
)
from persian_rummy.game import Game
from persian_rummy.rules import Rules
from persian_rummy.standings import Z95, Standings, wilson_interval
from persian_rummy.state import PLAYERS, SEAT_NAMES, GameState
from persian_rummy.view import InfoState, PlayerView

__all__ = [
    "BotFactory",
    "BotSpec",
    "GameResult",
    "Lineup",
    "MatchResult",
    "PlayedGame",
    "ask_bot",
    "build_bot",
    "check_bot_spec",
    "deal_seed",
    "derived_seed",
    "is_bot",
    "misplayed",
    "play_bot",
    "play_game",
    "round_robin",
    "run_match",
    "wilson_interval",
]

#: One spec for both partners, or one per partner (seats 0 and 2, or 1 and 3).
Lineup: TypeAlias = "BotSpec | tuple[BotSpec, BotSpec]"


def derived_seed(*parts: object) -> int:
    """A 63-bit seed from text parts, the same on every platform and in every process.

    >>> derived_seed("match", 1, 2) == derived_seed("match", 1, 2) != derived_seed("match", 1, 3)
    True
    """
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@attrs.frozen
class PlayedGame:
    """A whole game played by :func:`play_game`.

    >>> from persian_rummy.bots import GreedyBot
    >>> game = play_game([GreedyBot()] * 4, 3)
    >>> game.final.phase, game.final.scores, game.action_count
    (<Phase.GAME_OVER: 'game_over'>, (413, 222), 141)
    >>> [len(actions) for actions in game.deals], game.deals[0][:2]
    ([74, 67], (DrawStock(), Discard(card=Card.parse('Tc'))))
    >>> game.game.record().scores == game.final.scores
    True
    """

    #: The final state (``GAME_OVER``, R7), with the game's scores (R23-R26).
    final: GameState
    #: The game's seed; deal ``n`` was shuffled with :func:`~persian_rummy.deal_seed` of it.
    seed: int | str
    #: Every deal's actions, in order.
    deals: tuple[tuple[Action, ...], ...]
    #: The whole game as a value (:class:`~persian_rummy.Game`), for its record:
    #: ``game.record()``.
    game: Game = attrs.field(eq=False, repr=False)  # follows from the rest

    @property
    def action_count(self) -> int:
        """How many actions the game took, over every deal.

        >>> from persian_rummy.bots import GreedyBot
        >>> play_game([GreedyBot()] * 4, 1, rules=Rules(deals=1)).action_count
        56
        """
        return sum(len(actions) for actions in self.deals)

    @property
    def deal_seeds(self) -> tuple[int | str, ...]:
        """The seed of each deal (:func:`~persian_rummy.deal_seed`), beside ``deals``, as a game record wants them.

        >>> from persian_rummy.bots import GreedyBot
        >>> play_game([GreedyBot()] * 4, 1).deal_seeds
        (1, '1/2')
        """
        return self.game.deal_seeds


def play_game(
    bots: Sequence[Bot | Player],
    seed: int | str,
    *,
    dealer: int = 0,
    rules: Rules = Rules(),
    on_deal: Callable[[GameState], None] | None = None,
    on_action: Callable[[GameState, Action, GameState], None] | None = None,
    names: Sequence[str] | None = None,
) -> PlayedGame:
    """Play a whole game (every deal, R7) with ``bots[seat]`` choosing for each seat from its
    own view (R27); a bot that reads the public history (:class:`~persian_rummy.bots.HistoryBot`,
    as its :class:`~persian_rummy.bots.Player` says) is given its seat's
    :class:`~persian_rummy.InfoState` instead (the view and the deal's public history). The
    game is a :class:`~persian_rummy.Game` of ``seed``: deal ``n`` is shuffled with
    :func:`~persian_rummy.deal_seed`. Returns a :class:`PlayedGame`: the final state
    (``GAME_OVER``), every deal's actions and the game itself. ``on_deal`` sees each fresh
    deal and each finished one; ``on_action`` sees every action with the states before and
    after it. A bot that answers what cannot be played (``None``, an illegal action) stops the
    game with what :func:`~persian_rummy.play` raises, its message naming the bot and its seat
    (:func:`misplayed`): by ``names[seat]`` when given (the spec it was made from), else by
    what it is.

    >>> from persian_rummy.bots import GreedyBot
    >>> game = play_game([GreedyBot()] * 4, 3)
    >>> game.final.phase, game.final.deal_number, game.action_count
    (<Phase.GAME_OVER: 'game_over'>, 2, 141)
    """
    if len(bots) != PLAYERS:
        raise InvalidArgumentError(f"R3: a game needs 4 bots, one per seat, not {len(bots)}")
    game = Game.new(seed, dealer=dealer, rules=rules)
    # Bots that read the public history get their seat's InfoState instead of the view.
    players = [Player.of(bot) for bot in bots]
    history = [seat for seat, player in enumerate(players) if player.reads_history]
    while True:
        state = game.state
        if on_deal is not None:
            on_deal(state)
        infos = {seat: InfoState.start(state, seat) for seat in history}
        while state.phase.is_live:
            seat = state.current_player
            info = infos.get(seat)
            seen = state.view(seat) if info is None else info
            action, game = play_bot(game, players[seat], seen, None if names is None else names[seat])
            after = game.after  # the deal's last state, if the action ended it
            if on_action is not None:
                on_action(state, action, after)
            for other, known in infos.items():
                infos[other] = known.update(action, after)
            state = after
        if on_deal is not None:
            on_deal(state)
        if game.is_over:
            return PlayedGame(state, seed, game.deals, game)


#: What play() refuses a bot's answer with.
_Refusal = TypeVar("_Refusal", bound=PersianRummyError)


def misplayed(error: _Refusal, seat: int, bot: Bot | Player, answer: object, name: str | None = None) -> _Refusal:
    """``error``, which refused the ``answer`` ``bot`` gave at ``seat``, its message naming
    the bot (by ``name``, the spec it was made from, when given, else by what it is), the seat
    and the answer: the same exception, so that what catches :func:`~persian_rummy.play`'s
    refusals catches it.

    >>> from persian_rummy import new_game, play
    >>> def lazy(view):
    ...     return None
    >>> try:
    ...     play(new_game(1), None)
    ... except ArgumentTypeError as error:
    ...     print(misplayed(error, 1, lazy, None, "mybots:lazy"))
    the bot mybots:lazy at seat 1 (East) answered None: expected an Action or its text, not None
    """
    label = name if name is not None else name_of(Player.of(bot).bot)
    shown = str(answer) if isinstance(answer, Action) else excerpt(answer)
    text = error.args[0] if error.args and isinstance(error.args[0], str) else str(error)
    error.args = (f"the bot {label} at seat {seat} ({SEAT_NAMES[seat]}) answered {shown}: {text}", *error.args[1:])
    return error


def play_bot(
    game: Game, bot: Bot | Player, seen: PlayerView | InfoState, name: str | None = None
) -> tuple[Action, Game]:
    """The action ``bot`` chooses for the player to move of ``game`` from what that seat has
    ``seen`` (:func:`ask_bot`), and the game after it. An answer the game refuses raises the
    game's error with a message naming the bot (by ``name`` when given), the seat and the
    answer (:func:`misplayed`). The arena's games and the play command move their bots so.

    >>> from persian_rummy import Game
    >>> from persian_rummy.bots import GreedyBot
    >>> game = Game.new(1)
    >>> action, after = play_bot(game, GreedyBot(), game.view(1))
    >>> action, after.actions
    (DrawStock(), (DrawStock(),))
    >>> play_bot(game, lambda view: "pass", game.view(1), "mybots:lazy")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.PassNotAllowedError: the bot mybots:lazy at seat 1 (East) answered 'pass': R20: seat 1 may pass only when the stock is empty (27 cards left) [deal 1 of 2, seat 1 to act, phase DRAW, hand Js 2d Jd Qd Tc Jk Jk, discard pile 2s, stock 27, 0 melds]
    """
    seat = game.state.current_player
    action = ask_bot(bot, seen)
    try:
        return action, game.play(action)
    except (IllegalActionError, ArgumentTypeError, NotationError) as error:
        raise misplayed(error, seat, bot, action, name) from None


def ask_bot(bot: Bot | Player, seen: PlayerView | InfoState) -> Action:
    """The action ``bot`` chooses from what its seat has ``seen``, asked through its
    :class:`~persian_rummy.bots.Player` (the :class:`~persian_rummy.InfoState` for a bot that
    reads the public history, else the view), as every game of the arena asks it. A bot that returns a bot instead (a function that makes bots, given
    where a bot was asked for) raises :class:`~persian_rummy.ArgumentTypeError` saying to
    give it as a :class:`BotFactory`; anything else it returns is judged by the game.

    >>> from persian_rummy import DrawStock, new_game
    >>> from persian_rummy.bots import GreedyBot
    >>> ask_bot(GreedyBot(), new_game(1).view(1))
    DrawStock()
    >>> def make(seed):
    ...     return lambda view: DrawStock()
    >>> ask_bot(make, new_game(1).view(1))
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ArgumentTypeError: the bot of seat 1 (make) returned a function, a bot, not an action: a function that makes bots was played as a bot (called with the view); give it as BotFactory(make) (persian_rummy.arena.BotFactory) to make a bot from each seat's seed
    """
    player = Player.of(bot)
    action = player.choose(seen)
    if callable(action) and not isinstance(action, Action):
        # A function that makes bots, played as a bot, made one from the view instead of choosing.
        made_by = player.bot
        name = made_by.__name__ if isinstance(made_by, types.FunctionType | types.MethodType) else ""
        name = name if name.isidentifier() else "function"
        made = "a function" if isinstance(action, types.FunctionType) else excerpt(action)
        raise ArgumentTypeError(
            f"the bot of seat {seen.seat} ({name}) returned {made}, a bot, not an action: a function "
            f"that makes bots was played as a bot (called with the view); give it as BotFactory({name}) "
            "(persian_rummy.arena.BotFactory) to make a bot from each seat's seed"
        )
    return action


@attrs.frozen
class GameResult:
    """The result of one game of a match.

    >>> record = GameResult(game=1, swapped=True, scores=(40, 95), actions=180)
    >>> record.side_scores, record.winner
    ((95, 40), 0)
    """

    #: Its number in the match (0, 1, ...).
    game: int
    #: Whether side 0 played as team 1 (seats 1 and 3) in this game.
    swapped: bool
    #: The final totals of team 0 and team 1 (R23-R26).
    scores: tuple[int, int]
    #: How many actions the game took.
    actions: int

    @property
    def side_scores(self) -> tuple[int, int]:
        """The scores of side 0 and side 1, whichever teams they played as.

        >>> GameResult(game=0, swapped=False, scores=(10, 5), actions=90).side_scores
        (10, 5)
        """
        return (self.scores[1], self.scores[0]) if self.swapped else self.scores

    @property
    def winner(self) -> int | None:
        """The winning side (0 or 1), or ``None`` for a draw (R26).

        >>> GameResult(game=0, swapped=False, scores=(5, 5), actions=90).winner is None
        True
        """
        first, second = self.side_scores
        return None if first == second else 0 if first > second else 1


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((value - mean) ** 2 for value in values) / (len(values) - 1))


@attrs.frozen
class MatchResult:
    """The games of a match between side 0 and side 1, with their statistics.

    >>> result = MatchResult(("a", "b"), (GameResult(0, False, (50, 10), 100), GameResult(1, True, (30, 20), 120)))
    >>> result.wins, result.draws, result.mean_actions
    ((1, 1), 0, 110.0)
    """

    #: The names of side 0 and side 1.
    sides: tuple[str, str]
    #: Every game's result, in order.
    games: tuple[GameResult, ...]

    @property
    def wins(self) -> tuple[int, int]:
        """Games won by side 0 and by side 1.

        >>> MatchResult(("a", "b"), (GameResult(0, False, (50, 10), 100),)).wins
        (1, 0)
        """
        winners = [record.winner for record in self.games]
        return winners.count(0), winners.count(1)

    @property
    def draws(self) -> int:
        """Games drawn (equal totals, R26).

        >>> MatchResult(("a", "b"), (GameResult(0, False, (5, 5), 100),)).draws
        1
        """
        return sum(record.winner is None for record in self.games)

    def win_rate(self, side: int) -> tuple[float, float, float]:
        """Side ``side``'s share of games won and its 95% Wilson interval.

        >>> MatchResult(("a", "b"), (GameResult(0, False, (50, 10), 100),)).win_rate(0)[0]
        1.0
        """
        wins = self.wins[side]
        total = len(self.games)
        low, high = wilson_interval(wins, total)
        return (wins / total if total else 0.0), low, high

    def scores(self, side: int) -> tuple[float, float]:
        """The mean and standard deviation of side ``side``'s final totals.

        >>> MatchResult(("a", "b"), (GameResult(0, False, (50, 10), 100),)).scores(1)
        (10.0, 0.0)
        """
        return _mean_sd([record.side_scores[side] for record in self.games])

    @property
    def margin(self) -> tuple[float, float]:
        """Side 0's mean margin per game and the half-width of its 95% interval.

        >>> MatchResult(("a", "b"), (GameResult(0, False, (50, 10), 100),)).margin
        (40.0, 0.0)
        """
        margins = [record.side_scores[0] - record.side_scores[1] for record in self.games]
        mean, sd = _mean_sd(margins)
        return mean, (Z95 * sd / math.sqrt(len(margins)) if margins else 0.0)

    @property
    def mean_actions(self) -> float:
        """The mean number of actions per game.

        >>> MatchResult(("a", "b"), (GameResult(0, False, (5, 5), 90),)).mean_actions
        90.0
        """
        return _mean_sd([record.actions for record in self.games])[0]

    def table(self) -> str:
        """The results as a text table: per side the games, wins, draws, win rate with its 95%
        Wilson interval and the mean and spread of final totals; then side 0's mean margin and
        the game length.

        >>> print(MatchResult(("a", "b"), (GameResult(0, False, (50, 10), 100),)).table())
        side  bot   games  wins  draws  win rate  95% CI          mean score  sd score
        0     a         1     1      0     1.000  [0.207, 1.000]        50.0       0.0
        1     b         1     0      0     0.000  [0.000, 0.793]        10.0       0.0
        margin of side 0: +40.0 ± 0.0 per game; game length: 100.0 actions (sd 0.0)
        """
        width = max(4, *(len(name) for name in self.sides))
        lines = [
            f"{'side':<4}  {'bot':<{width}}  games  wins  draws  win rate  95% CI          mean score  sd score",
        ]
        for side, name in enumerate(self.sides):
            rate, low, high = self.win_rate(side)
            mean, sd = self.scores(side)
            lines.append(
                f"{side:<4}  {name:<{width}}  {len(self.games):>5}  {self.wins[side]:>4}  {self.draws:>5}  "
                f"{rate:>8.3f}  [{low:.3f}, {high:.3f}]  {mean:>10.1f}  {sd:>8.1f}"
            )
        margin, half = self.margin
        length, length_sd = _mean_sd([record.actions for record in self.games])
        lines.append(
            f"margin of side 0: {margin:+.1f} ± {half:.1f} per game; "
            f"game length: {length:.1f} actions (sd {length_sd:.1f})"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def _spec_name(spec: BotSpec) -> str:
    if isinstance(spec, str):
        return spec
    if isinstance(spec, BotFactory):
        return spec.name
    return name_of(spec)


def _label(lineup: Lineup) -> str:
    specs = lineup if isinstance(lineup, tuple) else (lineup,)
    names = [_spec_name(spec) for spec in specs]
    return names[0] if len(set(names)) == 1 else "+".join(names)


@attrs.frozen
class _Task:
    """A chunk of games to play in one worker (picklable)."""

    sides: tuple[Lineup, Lineup]
    seed: int | str
    rules: Rules
    swap_seats: bool
    games: tuple[int, ...]


def _build(spec: BotSpec, seed: int, rules: Rules) -> Bot:
    # The sides were checked (check_bot_spec) before any game: a name, a factory, a class or a bot.
    return build_bot(spec, seed, rules=rules)


def _seat_specs(sides: tuple[Lineup, Lineup], swapped: bool) -> list[BotSpec]:
    first, second = ((side if isinstance(side, tuple) else (side, side)) for side in sides)
    if swapped:
        first, second = second, first
    return [first[0], second[0], first[1], second[1]]


def _play_one(task: _Task, game: int) -> GameResult:
    pair, swapped = (game // 2, game % 2 == 1) if task.swap_seats else (game, False)
    specs = _seat_specs(task.sides, swapped)
    bots = [_build(spec, derived_seed(task.seed, game, seat), task.rules) for seat, spec in enumerate(specs)]
    names = [_spec_name(spec) for spec in specs]
    played = play_game(bots, f"{task.seed}/{pair}", dealer=pair % PLAYERS, rules=task.rules, names=names)
    return GameResult(game, swapped, played.final.scores, played.action_count)


def _play_task(task: _Task) -> list[GameResult]:
    return [_play_one(task, game) for game in task.games]


def _progress(total: int, enabled: bool) -> Callable[[int], None]:
    """An update function for a progress bar: tqdm when installed, else a plain line on
    standard error every tenth of the way."""
    if not enabled:
        return lambda done: None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        marks = {math.ceil(total * step / 10) for step in range(1, 11)}

        def plain(done: int, count: list[int] = [0]) -> None:  # noqa: B006 - a private counter
            count[0] += done
            if count[0] in marks:
                print(f"{count[0]}/{total} games", file=sys.stderr, flush=True)

        return plain
    bar = tqdm(total=total, unit="game", file=sys.stderr)

    def update(done: int) -> None:
        bar.update(done)
        if bar.n >= total:
            bar.close()

    return update


def _chunks(games: int, size: int) -> Iterator[tuple[int, ...]]:
    for start in range(0, games, size):
        yield tuple(range(start, min(games, start + size)))


def _require_picklable(sides: tuple[Lineup, Lineup]) -> None:
    """Fail at once, naming the factory, when a game cannot be sent to another process (a
    pool would otherwise fail in the background, or hang as it shuts down)."""
    for side in sides:
        for spec in side if isinstance(side, tuple) else (side,):
            try:
                pickle.dumps(spec)
            except Exception:  # pickle raises several kinds (PicklingError, AttributeError, TypeError)
                inner = spec.build if isinstance(spec, BotFactory) else spec
                name = name_of(inner, qualified=True)
                kind = "bot factory" if isinstance(spec, BotFactory) else "bot"
                raise InvalidArgumentError(
                    f"the {kind} {name[-100:]} cannot be pickled, so its games cannot run in other "
                    "processes: use a function or a class defined at the top of a module, or workers=1"
                ) from None


def _check_counts(games: object, workers: object, chunk_size: object) -> None:
    # run_match's numbers, checked before anything is made.
    if type(games) is not int or games < 0:
        raise InvalidArgumentError(f"the number of games must be a whole number of at least 0, not {excerpt(games)}")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise InvalidArgumentError(f"workers must be a whole number of at least 1, not {excerpt(workers)}")
    if chunk_size is not None and (type(chunk_size) is not int or chunk_size < 1):
        raise InvalidArgumentError(f"chunk_size must be a whole number of at least 1, not {excerpt(chunk_size)}")


def _check_sides(sides: tuple[Lineup, Lineup], rules: Rules) -> tuple[Lineup, Lineup]:
    # Every bot spec of both line-ups, before any game: a bad name or knob, a spec of the wrong
    # shape, or a bot that cannot play the rules fails here, at once. The sides come back as
    # they are played (a class made from each seat's seed wrapped in a BotFactory).
    checked: list[Lineup] = []
    for side in sides:
        if isinstance(side, tuple) and len(side) != 2:
            raise InvalidArgumentError(
                f"R3: a line-up is one bot spec or a pair for the two partners, not {excerpt(side)}"
            )
        if isinstance(side, tuple):
            checked.append((check_bot_spec(side[0], rules=rules), check_bot_spec(side[1], rules=rules)))
        else:
            checked.append(check_bot_spec(side, rules=rules))
    return checked[0], checked[1]


def run_match(
    side0: Lineup,
    side1: Lineup,
    games: int = 100,
    *,
    seed: int | str = 0,
    rules: Rules = Rules(),
    swap_seats: bool = True,
    executor: concurrent.futures.Executor | Any | None = None,
    workers: int | None = None,
    chunk_size: int | None = None,
    progress: bool | None = None,
) -> MatchResult:
    """Play ``games`` games between ``side0`` and ``side1`` and gather the results.

    With ``swap_seats`` (the default) games come in pairs dealt the same cards by the same
    dealer, the sides trading teams (seats) in the second game, which removes the advantage of
    a seat or a deal from the comparison. Without it side 0 is always team 0 (seats 0 and 2).
    Game ``g`` of a pair ``p = g // 2`` is dealt from the seed ``f"{seed}/{p}"`` by dealer
    ``p % 4``; the bot of each seat gets a seed derived from ``seed``, ``g`` and the seat.

    Where the games run: ``executor`` (any :class:`concurrent.futures.Executor`, e.g. a
    :class:`~concurrent.futures.ProcessPoolExecutor` or Dask's ``client.get_executor()``; a
    Dask ``Client`` itself is accepted too); else on a new process pool of ``workers``
    processes when ``workers`` is more than 1; else (the default) serially, in this process.
    The results are the same in every case. Games sent to other processes need bot specs
    that can be pickled (functions and classes defined at the top of a module, not lambdas):
    one that cannot raises :class:`~persian_rummy.errors.InvalidArgumentError` naming it at
    once, before any game is played. Every spec is checked before the first game
    (:func:`check_bot_spec`). The new pool starts its processes the way ``multiprocessing``
    is set to: on Linux before Python 3.14, by forking this one. A program that runs threads
    (JAX's among them) should set another start method first
    (``multiprocessing.set_start_method("forkserver")``) or pass its own executor, since a lock
    a thread holds at the fork stays held in the copy. ``progress`` shows a progress bar (tqdm,
    if installed); by default it does for matches of 500 games or more played on a terminal.

    >>> serial = run_match("greedy", "random", games=4, seed="doc", workers=1)
    >>> serial.wins
    (4, 0)
    """
    _check_counts(games, workers, chunk_size)
    sides = _check_sides((side0, side1), rules)
    show = games >= 500 and sys.stderr.isatty() if progress is None else progress
    update = _progress(games, show)
    own_pool = None
    pooled = executor is None and (workers or 1) > 1 and games > 1
    if (pooled or executor is not None) and not isinstance(executor, concurrent.futures.ThreadPoolExecutor):
        _require_picklable(sides)
    if pooled:
        executor = own_pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers)
    get_executor = getattr(executor, "get_executor", None)
    if get_executor is not None:
        executor = get_executor()  # a Dask Client: use its concurrent.futures interface
    records: list[GameResult] = []
    futures: list[concurrent.futures.Future[list[GameResult]]] = []
    try:
        if executor is None:
            task = _Task(sides, seed, rules, swap_seats, ())
            for game in range(games):
                records.append(_play_one(task, game))
                update(1)
        else:
            parallel = workers or os.cpu_count() or 1  # an executor's size is not known: guess
            size = chunk_size or max(1, min(50, games // (parallel * 8)))
            tasks = [_Task(sides, seed, rules, swap_seats, chunk) for chunk in _chunks(games, size)]
            futures = [executor.submit(_play_task, task) for task in tasks]
            for future in concurrent.futures.as_completed(futures):
                done = future.result()
                records.extend(done)
                update(len(done))
    finally:
        # After a failure (a bot raising, Ctrl-C) the games not yet started are not played.
        for future in futures:
            future.cancel()
        if own_pool is not None:
            own_pool.shutdown(cancel_futures=True)
    records.sort(key=lambda record: record.game)
    return MatchResult((_label(side0), _label(side1)), tuple(records))


def round_robin(specs: Iterable[BotSpec], games: int, **options: Any) -> Standings:
    """Every pair of ``specs`` against each other, ``games`` games each (see :func:`run_match`),
    and the standings: every bot's results and rating (:class:`~persian_rummy.standings.Standings`;
    iterating over them gives the matches).

    >>> standings = round_robin(["random", "greedy"], 2, workers=1)
    >>> [result.sides for result in standings]
    [('random', 'greedy')]
    >>> sorted((row.name, row.games) for row in standings.rows)
    [('greedy', 2), ('random', 2)]
    """
    entries = list(specs)
    matches = [
        run_match(entries[i], entries[j], games, **options)
        for i in range(len(entries))
        for j in range(i + 1, len(entries))
    ]
    return Standings(tuple(matches))
