"""Computer players: a small :class:`Bot` protocol and three baseline bots.

A bot is any callable that takes a :class:`~persian_rummy.PlayerView` of the seat to move and
returns one of :func:`legal_actions(view) <persian_rummy.legal_actions>`. Bots see only what
their seat may see (R27) and draw every random choice from a generator seeded by their own
seed and what their seat has seen (:func:`~persian_rummy.worlds.seat_seed`), never by the
deck's seed: a bot built with the same seed plays the same game again, and one bot asked for
several seats answers each as a fresh bot for that seat would. A bot may say more, each in a typed
protocol: that it reads the public history (:class:`HistoryBot`), which rules it plays
(:class:`RulesBot`), that its class is made from each seat's seed (:class:`SeededBotClass`);
:meth:`Player.of` reads what it says once, and the arena, the table server and the command
line ask the :class:`Player`.

- :class:`RandomBot` picks uniformly among the legal actions.
- :class:`GreedyBot` melds and lays off all it can, takes deep discard-pile draws when they
  score, keeps cards close to melds and throws its costliest deadwood.
- :class:`MonteCarloBot` samples the hidden cards consistently with its view (perfect
  information Monte-Carlo) and plays greedy rollouts from each candidate draw and discard.

Two more are made by name: ``"neural"``, the learned player
(:class:`~persian_rummy.policy.NeuralBot`), and ``"expert"``, a search on top of it
(:class:`~persian_rummy.search.ExpertBot`).

:func:`make_bot` builds any of them by name, with knobs: ``"random"``, ``"greedy"``,
``"montecarlo"`` (alias ``"mc"``), ``"montecarlo:samples=16,horizon=8"``, ``"neural"``,
``"expert"``; or by a level a person chooses (:data:`LEVELS`): ``"easy"``, ``"medium"``,
``"hard"``, ``"expert"``.

>>> from persian_rummy import new_game, play
>>> from persian_rummy.bots import make_bot
>>> state = new_game(1)
>>> bots = [make_bot("greedy", seed) for seed in range(4)]
>>> while not state.is_deal_over:
...     seat = state.current_player
...     state = play(state, bots[seat](state.view(seat)))
>>> state.phase
<Phase.ROUND_OVER: 'round_over'>
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

import attrs

from persian_rummy._bot_protocol import (
    Bot,
    HistoryBot,
    Player,
    RulesBot,
    SeededBotClass,
    bot_knob,
    bot_seed,
    out_of_turn,
)
from persian_rummy._greedy import discard_order, draw_gains, greedy_choice, greedy_draw, greedy_rollout, greedy_turn
from persian_rummy.actions import Action, Discard, DrawDiscard, LayOff, MeldCards
from persian_rummy.engine import legal_actions, play
from persian_rummy.errors import (
    ArgumentTypeError,
    InvalidArgumentError,
    NotationError,
    PolicyFileError,
    excerpt,
)
from persian_rummy.rules import Rules
from persian_rummy.state import Phase, team_of
from persian_rummy.view import InfoState, PlayerView
from persian_rummy.worlds import determinize, seat_seed

# determinize belongs to persian_rummy.worlds; it is exported here too, for code that imports it with the bots.
__all__ = [
    "BOTS",
    "BUDGET_LIMIT",
    "DEFAULT_LEVEL",
    "LEVELS",
    "Bot",
    "GreedyBot",
    "HistoryBot",
    "Level",
    "MonteCarloBot",
    "Player",
    "RandomBot",
    "RulesBot",
    "SeededBotClass",
    "default_level",
    "determinize",
    "expert_bot",
    "make_bot",
    "neural_bot",
]


def _legal(view: PlayerView) -> tuple[Action, ...]:
    actions = legal_actions(view)
    if not actions:
        raise out_of_turn(view)
    return actions


class RandomBot:
    """Plays a uniformly random legal action, drawn from its seed and the view
    (:func:`~persian_rummy.worlds.seat_seed`).

    >>> from persian_rummy import new_game
    >>> bot = RandomBot(7)
    >>> bot(new_game(1).view(1))
    DrawStock()
    >>> RandomBot(7)
    RandomBot(seed=7)
    """

    __slots__ = ("seed",)

    #: The arena makes this class for each seat from the seat's seed when the class itself is
    #: given as a bot spec (``run_match(GreedyBot, ...)``), as :class:`~persian_rummy.arena.BotFactory` would.
    made_from_seed: Final = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = bot_seed("RandomBot", seed)

    def __call__(self, view: PlayerView) -> Action:
        actions = _legal(view)
        return actions[0] if len(actions) == 1 else random.Random(seat_seed(self.seed, view)).choice(actions)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


class GreedyBot:
    """A simple strong-ish baseline with no lookahead and no randomness.

    - Draw: takes the discard-pile draw (R13-R14) whose cards add the most to what the hand
      can lay down, if that beats drawing from the stock; with an empty stock it passes
      unless a pile draw scores (R20).
    - After the draw: lays down melds and lays off cards while it can, most valuable first
      (a set of four at once scores double, R24), so it goes out whenever it can (R18); after
      a pile draw its next action uses the target card, as it must (R14).
    - Discard: keeps cards close to a meld (pairs, neighbours in a suit, two jokers) whose
      missing cards are still in play and throws the costliest loose card (R17, R22).

    ``seed`` is accepted for a uniform signature and unused: the bot is deterministic.

    >>> from persian_rummy import GameState, draw_stock
    >>> state = GameState.from_position(["", "5s 6s 7s 8h 2c Kd", "", ""], "8s Qh", dealer=0)
    >>> bot = GreedyBot()
    >>> bot(state.view(1))  # the 8s fits the run 5s 6s 7s: take the pile from it
    DrawDiscard(index=0)
    >>> state = play(state, DrawDiscard(0))
    >>> bot(state.view(1))
    MeldCards(cards=(Card.parse('5s'), Card.parse('6s'), Card.parse('7s'), Card.parse('8s')))
    """

    __slots__ = ("seed",)

    #: The arena makes this class for each seat from the seat's seed when the class itself is
    #: given as a bot spec (``run_match(GreedyBot, ...)``), as :class:`~persian_rummy.arena.BotFactory` would.
    made_from_seed: Final = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed = bot_seed("GreedyBot", seed)

    def __call__(self, view: PlayerView) -> Action:
        return greedy_choice(view, _legal(view))

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed})"


# --- Monte-Carlo ---------------------------------------------------------------------------


#: The most greedy turns one choice of :class:`MonteCarloBot` may cost: the largest
#: ``samples * horizon * candidates``.
BUDGET_LIMIT: Final = 1_000_000


class MonteCarloBot:
    """Determinized Monte-Carlo (perfect-information sampling) over the two choices that
    greedy play gets wrong most: which draw to make and which card to discard.

    At each such choice the bot keeps the ``candidates`` best options by the greedy measure
    (every legal draw is a candidate), deals ``samples`` random completions of the hidden cards
    consistent with its view (:func:`~persian_rummy.worlds.determinize`), plays each candidate in each of them, lets
    greedy play continue for every seat for ``horizon`` turns (or to the end of the round) and
    picks the candidate with the best mean score margin for its team (R23-R25). The same
    completions serve every candidate, so they are compared on equal cards. Melds and lay-offs
    are played as :class:`GreedyBot` plays them.

    The cost of a choice is about ``samples * candidates * horizon`` greedy turns: the knobs
    are the budget, at most :data:`BUDGET_LIMIT` (a million turns, about a minute), so that
    one move is bounded work whatever a spec asks (``mc:samples=`` and fifty nines raises
    :class:`~persian_rummy.InvalidArgumentError`). The defaults (4, 4, 3) take a few milliseconds per choice, so a
    2,000-game match against it runs in minutes on two cores; more samples and a longer
    horizon play better and cost proportionally more. Each choice's sampling comes from
    ``random.Random(seat_seed(seed, seen))``: its seed and what its seat has seen
    (:func:`~persian_rummy.worlds.seat_seed`).

    With ``history=1`` (``make_bot("mc:history=1")``) the bot reads the public history too: it
    sets ``takes_info_state``, so :func:`~persian_rummy.arena.play_game` hands it the seat's
    :class:`~persian_rummy.InfoState`, and its sampled worlds keep in each hand the cards that
    seat took from the discard pile and still holds (:func:`~persian_rummy.worlds.determinize`, R13, R27).

    >>> from persian_rummy import new_game
    >>> bot = MonteCarloBot(3, samples=8, horizon=6)
    >>> bot
    MonteCarloBot(seed=3, samples=8, horizon=6, candidates=3)
    >>> bot(new_game(1).view(1))
    DrawStock()
    """

    __slots__ = ("candidates", "history", "horizon", "samples", "seed", "takes_info_state")

    #: The arena makes this class for each seat from the seat's seed when the class itself is
    #: given as a bot spec (``run_match(GreedyBot, ...)``), as :class:`~persian_rummy.arena.BotFactory` would.
    made_from_seed: Final = True

    def __init__(
        self, seed: int = 0, *, samples: int = 4, horizon: int = 4, candidates: int = 3, history: int = 0
    ) -> None:
        seed = bot_seed("MonteCarloBot", seed)
        for name, value in (("samples", samples), ("horizon", horizon), ("candidates", candidates)):
            bot_knob("MonteCarloBot", name, value, 1)
        if samples * horizon * candidates > BUDGET_LIMIT:
            raise InvalidArgumentError(
                f"MonteCarloBot samples * horizon * candidates (the greedy turns of one choice) is at most "
                f"{BUDGET_LIMIT:,}, so that one move is bounded work, not {excerpt(samples * horizon * candidates)}"
            )
        if history not in (0, 1):
            raise InvalidArgumentError(f"MonteCarloBot history is 0 or 1, not {excerpt(history)}")
        self.seed = seed
        self.samples = samples
        self.horizon = horizon
        self.candidates = candidates
        self.history = history
        #: With ``history=1`` the arena hands the bot its InfoState (see arena.play_game).
        self.takes_info_state = bool(history)

    def __call__(self, view: PlayerView | InfoState) -> Action:
        if isinstance(view, InfoState):
            return self._choose(view.view, view)
        return self._choose(view, None)

    def _choose(self, view: PlayerView, info: InfoState | None) -> Action:
        actions = _legal(view)
        if len(actions) == 1:
            return actions[0]
        if view.phase is Phase.DRAW:
            gains = sorted(draw_gains(view, actions), key=lambda item: -item[0])
            options = [action for action in actions if not isinstance(action, DrawDiscard)]
            options += [action for _, action in gains[: self.candidates]]
            # The greedy choice first, so that ties keep it.
            preferred = greedy_draw(view, actions)
            options.sort(key=lambda action: action != preferred)
        else:
            if view.must_meld is not None or any(
                type(action) is MeldCards or type(action) is LayOff for action in actions
            ):
                return greedy_turn(view, actions)
            discards = [action for action in actions if isinstance(action, Discard)]
            options = list(discard_order(view, discards)[: self.candidates])
        if len(options) == 1:
            return options[0]
        return self._search(view if info is None or not self.history else info, options)

    def _search(self, view: PlayerView | InfoState, options: Sequence[Action]) -> Action:
        team = team_of(view.seat)
        totals = [0.0] * len(options)
        rng = random.Random(seat_seed(self.seed, view))
        for _ in range(self.samples):
            world = determinize(view, rng)
            for position, action in enumerate(options):
                totals[position] += greedy_rollout(play(world, action), self.horizon, team)
        best = max(range(len(options)), key=lambda position: (totals[position], -position))
        return options[best]

    def __repr__(self) -> str:
        history = ", history=1" if self.history else ""
        return (
            f"MonteCarloBot(seed={self.seed}, samples={self.samples}, horizon={self.horizon}, "
            f"candidates={self.candidates}{history})"
        )


# --- Registry -----------------------------------------------------------------------------


def neural_bot(seed: int = 0) -> Bot:
    """The learned player shipped with the package (:class:`~persian_rummy.policy.NeuralBot`
    playing :func:`~persian_rummy.policy.shipped_policy`, trained for the default rules);
    numpy is imported only here, when one is made.

    >>> neural_bot(2)
    NeuralBot(seed=2, temperature=0.0)
    """
    from persian_rummy.policy import NeuralBot, shipped_policy

    return NeuralBot(shipped_policy(), seed)


def expert_bot(seed: int = 0, **knobs: Any) -> Bot:
    """The search player on top of the shipped learned player
    (:class:`~persian_rummy.search.ExpertBot`), with its knobs; numpy is imported only here,
    when one is made.

    >>> expert_bot(2, samples=4)
    ExpertBot(seed=2, samples=4, horizon=16, candidates=2)
    """
    from persian_rummy.search import ExpertBot

    return ExpertBot(seed, **knobs)


#: The bots by name: each entry builds a bot from a seed and keyword knobs.
BOTS: Final[dict[str, Callable[..., Bot]]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "montecarlo": MonteCarloBot,
    "mc": MonteCarloBot,
    "neural": neural_bot,
    "expert": expert_bot,
}


@attrs.frozen
class Level:
    """A level of play a person can choose: its ``name``, the bot it plays (``spec``, a name
    :func:`make_bot` takes) and a line that says what it is like (``description``).

    >>> LEVELS["easy"]
    Level(name='easy', spec='greedy', description='Gentle: melds at once, throws its costliest loose card.')
    """

    #: The level's name, as a person picks it (``"easy"``).
    name: str
    #: The bot it plays: a name :func:`make_bot` takes (``"greedy"``).
    spec: str
    #: One line that says what playing against it is like.
    description: str


#: The levels, easiest first, each winning more than half its games against the one before it
#: on paired deals (the docs' "Playing strength" page gives each figure with its interval, and
#: says where it does not settle the order): ``make_bot(name)`` builds each.
LEVELS: Final[Mapping[str, Level]] = MappingProxyType(
    {
        level.name: level
        for level in (
            Level("easy", "greedy", "Gentle: melds at once, throws its costliest loose card."),
            Level("medium", "mc", "Looks a few turns ahead on guessed hands."),
            Level("hard", "neural", "The learned player: plays what many games taught it."),
            Level("expert", "expert", "The learned player searching ahead: the strongest."),
        )
    }
)
#: The level a person plays against when they choose none (the command line's opponent), for
#: the rules its bot plays (:func:`default_level` names the level for other rules).
DEFAULT_LEVEL: Final = "expert"


def default_level(rules: Rules | None = None) -> str:
    """The level a person plays against when they choose none, under ``rules`` (the default
    rules when not given): :data:`DEFAULT_LEVEL`, or, where its bot does not play those rules
    (the learned player is trained for the default rules only), the strongest level below it
    whose bot does.

    >>> default_level(), default_level(Rules(deals=1))
    ('expert', 'medium')
    """
    names = list(LEVELS)
    for name in reversed(names[1 : names.index(DEFAULT_LEVEL) + 1]):
        try:
            make_bot(LEVELS[name].spec, rules=rules)
        except PolicyFileError:  # a learned player trained for other rules
            continue
        return name
    return names[0]  # the easiest level's bot, a rule-based one, plays every rule set


def make_bot(spec: str, seed: int = 0, *, rules: Rules | None = None) -> Bot:
    """Build a bot from its name in :data:`BOTS`, optionally with whole-number knobs:
    ``"name"`` or ``"name:knob=value,knob=value"``, from the name of a level of
    :data:`LEVELS` (without knobs), or from the path of a policy file (a spec ending in
    ``.npz``, as ``persian-rummy train`` writes one): the learned player of that file
    (:meth:`NeuralBot.load <persian_rummy.policy.NeuralBot.load>`, which raises
    :class:`~persian_rummy.PolicyFileError` for a file that is missing or not a policy). Raises
    :class:`~persian_rummy.NotationError` for an unknown name or knob, and what the bot
    raises for a knob's value it does not take (:class:`~persian_rummy.InvalidArgumentError`:
    a budget past :data:`BUDGET_LIMIT`, say).

    >>> make_bot("random", 5)
    RandomBot(seed=5)
    >>> make_bot("mc:samples=2,horizon=3", 1)
    MonteCarloBot(seed=1, samples=2, horizon=3, candidates=3)
    >>> make_bot("clever")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NotationError: 'clever' is not a bot (expected one of random, greedy, montecarlo, mc, neural, expert, or a level: easy, medium, hard, expert)
    >>> make_bot("easy", 3)
    GreedyBot(seed=3)
    >>> from persian_rummy.policy import shipped_policy_path
    >>> make_bot(str(shipped_policy_path()), 4)    # doctest: +ELLIPSIS
    NeuralBot.load('...default.npz', seed=4, temperature=0.0)
    >>> make_bot("neural", 4)                       # the same weights, shipped
    NeuralBot(seed=4, temperature=0.0)

    Given ``rules``, a bot that plays for some rules only (``"neural"``, trained for the
    default rules) refuses others at once, saying how to make one for them
    (:class:`~persian_rummy.PolicyFileError`).
    """
    if not isinstance(spec, str):
        raise ArgumentTypeError(f"a bot is named by text, not {excerpt(spec)}")
    if spec.strip().endswith(".npz"):  # a trained player's file, its path whole (it may hold a colon)
        from persian_rummy.policy import NeuralBot

        return NeuralBot.load(spec.strip(), seed, rules=rules)
    name, colon, knobs_text = spec.partition(":")
    factory = BOTS.get(name.strip())
    level = LEVELS.get(name.strip())
    if factory is None and level is not None:
        if colon:
            raise NotationError(
                f"the level {excerpt(name.strip())} takes no knobs (it plays {level.spec!r}), not {excerpt(spec[:80])}"
            )
        return make_bot(level.spec, seed, rules=rules)
    if factory is None:
        raise NotationError(
            f"{excerpt(name.strip())} is not a bot (expected one of {', '.join(BOTS)}, or a level: {', '.join(LEVELS)})"
        )
    knobs: dict[str, int] = {}
    for token in knobs_text.replace(",", " ").split():
        key, equals, value = token.partition("=")
        # isdecimal, not isdigit: int() rejects digits such as "²" that isdigit accepts, and
        # more digits than Python's limit for int().
        if not equals or not value.strip().isdecimal() or len(value.strip()) > 100:
            raise NotationError(
                f"{excerpt(token[:80])} in the bot {excerpt(spec[:80])} is not a knob=whole-number pair"
            )
        knobs[key.strip()] = int(value)
    try:
        bot = factory(seed, **knobs)
    except TypeError:
        raise NotationError(f"the bot {excerpt(name.strip())} has no knob among {', '.join(knobs)}") from None
    if rules is not None:
        Player.of(bot).require_rules(rules)
    return bot
