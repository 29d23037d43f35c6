"""A whole game as one immutable value: :class:`Game` (R4-R7).

A :class:`~persian_rummy.GameState` is one position of one deal; a :class:`Game` is the whole
game: its seed, rules and first dealer, every deal's actions so far and the current state.
:meth:`Game.play` returns the next game, and when an action ends a deal that is not the last,
the next deal is dealt at once, shuffled by :func:`~persian_rummy.deal_seed` of the game's seed
(R7). This is the one place the library deals a whole game from one seed: the arena, the
command line, the environments and the table server all play through it.

>>> from persian_rummy import Game, legal_actions
>>> game = Game.new(42)
>>> while not game.is_over:
...     game = game.play(legal_actions(game.state)[0])    # a bot or a person chooses here
>>> game.deal_number, game.state.scores, [len(actions) for actions in game.deals]
(2, (-1, 69), [78, 69])
>>> Game.from_record(game.record()) == game
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

import attrs

from persian_rummy._bits import check_dealer
from persian_rummy.actions import Action
from persian_rummy.dealing import Seed, check_seed, deal_seed, new_game, next_deal, shuffled_deck
from persian_rummy.engine import play as _play
from persian_rummy.errors import ArgumentTypeError, IllegalActionError, NotationError, ReplayError, counted, excerpt
from persian_rummy.rules import Rules
from persian_rummy.state import SEAT_NAMES, TEAM_NAMES, GameState, Phase
from persian_rummy.view import InfoState, PlayerView

if TYPE_CHECKING:  # the records are imported where a game is recorded or read, not on import
    from persian_rummy.record import GameRecord

__all__ = ["Game"]

#: What the replay of a game's actions reports as a :class:`~persian_rummy.ReplayError`.
_REFUSED: Final = (IllegalActionError, NotationError, ArgumentTypeError)

# A deal's actions as a linked list, newest first: (action, older) or None (see Game._moves).
_Moves = tuple[Action, "_Moves"] | None


def _unlinked(moves: _Moves) -> tuple[Action, ...]:
    """The actions of a linked list (see ``Game._moves``), oldest first."""
    actions = []
    while moves is not None:
        action, moves = moves
        actions.append(action)
    actions.reverse()
    return tuple(actions)


@attrs.frozen
class _Head:
    """What a game keeps from deal to deal: its seed, rules and first dealer, and each finished
    deal's actions and last state (the current deal's actions and state are the game's own)."""

    seed: Seed
    rules: Rules
    dealer: int
    finished: tuple[tuple[Action, ...], ...] = ()
    ends: tuple[GameState, ...] = attrs.field(default=(), eq=False)  # follows from the rest


@attrs.frozen(init=False, repr=False)
class Game:
    """A whole game: the seed, the rules and the first dealer, every deal's actions so far and
    the current :attr:`state`. Immutable: :meth:`play` returns the next game.

    Start one with :meth:`new`, replay one from a record with :meth:`from_record`, or from its
    seed and actions with ``Game(seed, rules=..., dealer=..., deals=...)``, which replays
    ``deals`` (each deal's actions or their texts) and raises
    :class:`~persian_rummy.ReplayError` for an action the rules do not allow, naming the deal
    and the action's index. Two games are equal when their seeds, rules, first dealers and
    actions are; ``repr`` is that call and pastes back.

    >>> game = Game.new(1).play("draw").play("discard Jk")
    >>> game
    Game(1, deals=(('draw', 'discard Jk'),))
    >>> game == Game(1, deals=[["draw", "discard Jk"]]), game.state.current_player
    (True, 2)
    >>> print(game)
    game of seed 1: deal 1 of 2, 2 actions played, South to act; North-South 0, East-West 0
    """

    # The seed, rules, first dealer and finished deals, shared by every game of one deal.
    _head: _Head
    # The current deal's actions, newest first, as pairs (action, the older ones) ending in
    # None: play adds one without copying the others. Compared as the tuple of the actions.
    _moves: _Moves = attrs.field(eq=_unlinked)
    #: The current state: the deal being played, or the last deal's end once the game is over.
    state: GameState = attrs.field(eq=False)  # follows from the rest

    def __init__(
        self,
        seed: Seed,
        *,
        rules: Rules = Rules(),
        dealer: int = 0,
        deals: Iterable[Iterable[Action | str]] = ((),),
    ) -> None:
        game = _replayed(Game.new(seed, rules=rules, dealer=dealer), deals)
        for field in attrs.fields(Game):
            object.__setattr__(self, field.name, getattr(game, field.name))

    @property
    def seed(self) -> Seed:
        """The game's seed: deal ``n`` is shuffled with :func:`~persian_rummy.deal_seed`\\ ``(seed, n)``.

        >>> Game.new("friday").seed
        'friday'
        """
        return self._head.seed

    @property
    def rules(self) -> Rules:
        """The :class:`~persian_rummy.Rules` of the game.

        >>> Game.new(1, rules=Rules(deals=3)).rules.deals
        3
        """
        return self._head.rules

    @property
    def dealer(self) -> int:
        """The seat that dealt the first deal (R4); the deal passes clockwise (R7).

        >>> Game.new(1, dealer=2).dealer
        2
        """
        return self._head.dealer

    @property
    def actions(self) -> tuple[Action, ...]:
        """The current deal's actions so far (empty just after it was dealt).

        >>> Game.new(1).play("draw").play("discard Jk").actions
        (DrawStock(), Discard(card=Card.parse('Jk')))
        """
        return _unlinked(self._moves)

    @property
    def deals(self) -> tuple[tuple[Action, ...], ...]:
        """Every deal's actions so far, in order; the last is the current deal's
        (:attr:`actions`).

        >>> Game.new(1).play("draw").deals
        ((DrawStock(),),)
        """
        return self._head.finished + (self.actions,)

    @property
    def deal_ends(self) -> tuple[GameState, ...]:
        """The last state of each finished deal, in order (``ROUND_OVER``, or ``GAME_OVER`` for
        the last deal): every hand is public then (R23).

        >>> Game.new(1).deal_ends
        ()
        """
        return self._head.ends

    @classmethod
    def new(cls, seed: Seed, *, rules: Rules = Rules(), dealer: int = 0) -> Game:
        """A fresh game: the first deal shuffled by ``seed`` (a whole number or a text, see
        :func:`~persian_rummy.shuffled_deck`) and dealt by ``dealer`` (R4-R6). Raises
        :class:`~persian_rummy.ArgumentTypeError` or :class:`~persian_rummy.InvalidArgumentError`
        for a seed that is not one, ``rules`` that are not :class:`~persian_rummy.Rules`, and
        :class:`~persian_rummy.InvalidStateError` for a dealer that is not a seat 0-3.

        >>> game = Game.new("friday", rules=Rules(deals=3), dealer=3)
        >>> game.deal_number, game.state.current_player, game.deals
        (1, 0, ((),))
        >>> Game.new(1, dealer=4)
        Traceback (most recent call last):
        ...
        persian_rummy.errors.InvalidStateError: R3: the dealer is a seat 0-3, not 4
        """
        check_seed(seed)
        if not isinstance(rules, Rules):
            raise ArgumentTypeError(f"rules are a persian_rummy.Rules, not {excerpt(rules)}")
        check_dealer(dealer)
        return _game(_Head(seed, rules, dealer), None, new_game(seed, dealer=dealer, rules=rules))

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """The game a full game record (:mod:`persian_rummy.record`) holds, every action
        replayed and checked by the rules (:meth:`GameRecord.replay
        <persian_rummy.record.GameRecord.replay>`: the seats, the dealers, the scores). A game
        deals every deal from its seed, so each deal's seed must be
        :func:`~persian_rummy.deal_seed` of the first deal's, as :meth:`record` writes them.
        If the record ends with a deal that is over but not the last, the game deals the next
        one, as :meth:`play` does. Raises :class:`~persian_rummy.ReplayError` for a record
        that does not replay, a redacted one, or one whose deals are not dealt from one seed.

        >>> from persian_rummy.record import GameRecord
        >>> game = Game.from_record(GameRecord.from_actions([(7, ["draw", "discard 4s"])]))
        >>> game.seed, game.deals, game.state.current_player
        (7, ((DrawStock(), Discard(card=Card.parse('4s'))),), 2)
        >>> from persian_rummy import DECK
        >>> Game.from_record(GameRecord.from_actions([(DECK, ["draw"])]))
        Traceback (most recent call last):
        ...
        persian_rummy.errors.ReplayError: deal 1: deal 1 was dealt from a deck, not a seed: a game deals every deal from its seed
        """
        from persian_rummy.record import GameRecord

        if not isinstance(record, GameRecord):
            raise ArgumentTypeError(f"expected a persian_rummy.record.GameRecord, not {excerpt(record)}")
        if record.viewer is not None:
            raise ReplayError(
                f"a game replays from a full record, not one redacted for seat {record.viewer} (see its views())",
                deal=1,
            )
        # every action, seat, dealer and score checked, or the first problem raised; the game is
        # made from the states this one replay gives, not played again
        replay = record.replay()
        if not record.deals:
            raise ReplayError("the record has no deal: a game has its first deal at least", deal=1)
        seed = record.deals[0].seed
        if seed is None:
            raise ReplayError("deal 1 was dealt from a deck, not a seed: a game deals every deal from its seed", deal=1)
        for deal in record.deals:
            expected = deal_seed(seed, deal.number)
            if deal.seed != expected:
                raise ReplayError(
                    f"R7: deal {deal.number} of a game of seed {excerpt(seed)} is shuffled with "
                    f"{excerpt(expected)}, not {excerpt(deal.seed)}",
                    deal=deal.number,
                )
            if deal.deck != shuffled_deck(expected):
                raise ReplayError(f"the deck of deal {deal.number} is not the one its seed shuffles", deal=deal.number)
        actions = [tuple(item.action for item in deal.actions) for deal in record.deals]
        return _from_states(_Head(seed, record.rules, record.deals[0].dealer), actions, replay.states)

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the player to move in the current deal (``()`` once the game
        is over): :func:`~persian_rummy.legal_actions` of :attr:`state`, as a state's and a
        view's own ``legal_actions()`` give them.

        >>> game = Game.new(1)
        >>> game.legal_actions(), game.play("draw").legal_actions()[:2]
        ((DrawStock(),), (Discard(card=Card.parse('Js')), Discard(card=Card.parse('2d'))))
        """
        return self.state.legal_actions()

    def play(self, action: Action | str, *, seat: int | None = None) -> Game:
        """The game after ``action`` (an :class:`~persian_rummy.Action` or its text), played
        for the player to move, or for ``seat`` if given, as :func:`~persian_rummy.play` plays
        it. When the action ends a deal that is not the last, the next deal is dealt at once,
        shuffled by :func:`~persian_rummy.deal_seed`\\ ``(seed, n + 1)`` and dealt by the next
        seat clockwise, the scores carried over (R7); :attr:`after` is then the finished
        deal's last state. Raises what :func:`~persian_rummy.play` raises, and the game does
        not change (it never does: it is a value).

        >>> from persian_rummy import NotYourTurnError
        >>> game = Game.new(1).play("draw")
        >>> game.deals, game.state.phase
        (((DrawStock(),),), <Phase.MELD: 'meld'>)
        >>> game.play("discard Jk", seat=3)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        persian_rummy.errors.NotYourTurnError: R6: it is seat 1's turn, not seat 3's [...]
        """
        # The engine raises before anything is made; a call without seat= is the hot path.
        after = _play(self.state, action) if seat is None else _play(self.state, action, seat=seat)
        if isinstance(action, str):
            action = Action.parse(action)
        phase = after.phase
        if phase is _DRAW or phase is _MELD:  # the deal goes on: _game, inlined
            game: Game = _new(Game)
            _set_head(game, self._head)
            _set_moves(game, (action, self._moves))
            _set_state(game, after)
            return game
        head = self._head
        ends = head.ends + (after,)
        moves = (action, self._moves)
        if phase is Phase.GAME_OVER:
            return _game(_Head(head.seed, head.rules, head.dealer, head.finished, ends), moves, after)
        finished = head.finished + (_unlinked(moves),)
        dealt = next_deal(after, game_seed=head.seed)
        return _game(_Head(head.seed, head.rules, head.dealer, finished, ends), None, dealt)

    @property
    def after(self) -> GameState:
        """The state the last action led to: :attr:`state`, unless that action ended a deal
        and the next one was dealt, then the finished deal's last state (``ROUND_OVER``,
        every hand public, R23), which a score sheet shows.

        >>> from persian_rummy import legal_actions
        >>> game = Game.new(1)
        >>> while game.deal_number == 1:
        ...     game = game.play(legal_actions(game.state)[0])
        >>> game.after.phase, game.after is game.deal_ends[0], game.state.deal_number
        (<Phase.ROUND_OVER: 'round_over'>, True, 2)
        """
        if self._moves is None and self._head.ends:
            return self._head.ends[-1]
        return self.state

    @property
    def is_over(self) -> bool:
        """Whether the game is over: its last deal has ended (R7, R26).

        >>> Game.new(1).is_over
        False
        """
        return self.state.phase is Phase.GAME_OVER

    @property
    def deal_number(self) -> int:
        """The number of the current deal (1 for the first, R7).

        >>> Game.new(1).deal_number
        1
        """
        return self.state.deal_number

    @property
    def deal_seeds(self) -> tuple[Seed, ...]:
        """The seed of each deal so far (:func:`~persian_rummy.deal_seed` of the game's seed),
        beside :attr:`deals`, as the game's record names them.

        >>> Game.new(7, rules=Rules(deals=3)).deal_seeds
        (7,)
        """
        return tuple(deal_seed(self.seed, number) for number in range(1, len(self.deals) + 1))

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see of the current state (R27): see :meth:`GameState.view
        <persian_rummy.GameState.view>`.

        >>> Game.new(1).view(2).hand_sizes
        (7, 7, 7, 7)
        """
        return self.state.view(seat)

    def info_state(self, seat: int) -> InfoState:
        """What ``seat`` knows of the current deal (R27): its view and the deal's public
        history, as an :class:`~persian_rummy.InfoState`, replayed from the deal's first state;
        what a bot that reads the history (``takes_info_state``) is handed. Once the game is
        over, that of its last deal. Raises :class:`~persian_rummy.InvalidStateError` for a
        seat that is not 0-3.

        >>> game = Game.new(1).play("draw").play("discard Jk")
        >>> info = game.info_state(0)
        >>> [str(seen.action) for seen in info.history], info.view == game.view(0)
        (['draw', 'discard Jk'], True)
        """
        view = self.state.view(seat)  # refuses a seat that is not one, as view() does
        head, number = self._head, self.state.deal_number
        if number == 1:
            state = new_game(head.seed, dealer=head.dealer, rules=head.rules)
        else:
            state = next_deal(head.ends[number - 2], game_seed=head.seed)
        known = InfoState.start(state, view.seat)
        for action in _unlinked(self._moves):
            state = _play(state, action)
            known = known.update(action, state)
        return known

    def record(self, *, players: Sequence[str] = SEAT_NAMES, teams: Sequence[str] = TEAM_NAMES) -> GameRecord:
        """The game's record (:mod:`persian_rummy.record`): each deal's seed, dealer and
        actions, its scores once it is over and the final scores once the game is, with the
        players' and teams' names given.

        >>> from persian_rummy.record import dumps
        >>> print(dumps(Game.new(3).play("draw").record(players=["Ann", "Bo", "Cy", "Di"])))
        [Format "persian-rummy record 1"]
        [Rules "default"]
        [Seat0 "Ann"]
        [Seat1 "Bo"]
        [Seat2 "Cy"]
        [Seat3 "Di"]
        [Team0 "North-South"]
        [Team1 "East-West"]
        <BLANKLINE>
        [Deal 1]
        [Dealer 0]
        [Seed 3]
        E draw
        <BLANKLINE>
        """
        from persian_rummy.record import GameRecord

        return GameRecord.from_actions(
            zip(self.deal_seeds, self.deals, strict=True),
            dealer=self.dealer,
            rules=self.rules,
            players=players,
            teams=teams,
        )

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled and copied with the deal's actions as a flat tuple: the linked list of a long
        # deal is deeper than pickle and deepcopy may recurse.
        return _restored, (self._head, self.actions, self.state)

    def __repr__(self) -> str:
        options = "" if self.rules == Rules() else f", rules=Rules.parse({str(self.rules)!r})"
        options += f", dealer={self.dealer}" if self.dealer else ""
        deals = tuple(tuple(str(action) for action in actions) for actions in self.deals)
        return f"Game({self.seed!r}{options}, deals={deals!r})"

    def __str__(self) -> str:
        state = self.state
        played = sum(len(actions) for actions in self.deals)
        if state.phase is Phase.GAME_OVER:
            where = f"over after {counted(len(self.deals), 'deal')} and {counted(played, 'action')}"
        else:
            where = f"deal {state.deal_number} of {self.rules.deals}, {counted(played, 'action')} played, "
            where += f"{SEAT_NAMES[state.current_player]} to act"
        scores = f"{TEAM_NAMES[0]} {state.scores[0]}, {TEAM_NAMES[1]} {state.scores[1]}"
        return f"game of seed {self.seed!r}: {where}; {scores}"


# The slots' setters: play makes the next game by setting its three slots, without the checks
# of __init__ (what it sets is already checked: the engine's hot path).
_new: Final = object.__new__
_set_head, _set_moves, _set_state = (vars(Game)[field.name].__set__ for field in attrs.fields(Game))
# The phases of a live deal, looked up once (an enum's member is slower to reach).
_DRAW: Final = Phase.DRAW
_MELD: Final = Phase.MELD


def _game(head: _Head, moves: _Moves, state: GameState) -> Game:
    game: Game = _new(Game)
    _set_head(game, head)
    _set_moves(game, moves)
    _set_state(game, state)
    return game


def _restored(head: _Head, actions: tuple[Action, ...], state: GameState) -> Game:
    """The game :meth:`Game.__reduce__` took apart."""
    moves: _Moves = None
    for action in actions:
        moves = (action, moves)
    return _game(head, moves, state)


def _from_states(head: _Head, deals: Sequence[tuple[Action, ...]], states: Sequence[GameState]) -> Game:
    """The game of ``head`` whose deals' actions are ``deals``, made from the states one replay
    of them gave (each deal's first state, then one per action, as a record's replay lists
    them): the game :meth:`Game.play` would reach, without playing the actions again."""
    finished: list[tuple[Action, ...]] = []
    ends: list[GameState] = []
    position = -1
    for actions in deals:
        position += len(actions) + 1
        ends.append(states[position])  # the deal's last state
        finished.append(actions)
    last = ends[-1]
    if last.phase is Phase.ROUND_OVER:  # a finished deal that is not the last: the next is dealt
        finished_head = attrs.evolve(head, finished=tuple(finished), ends=tuple(ends))
        return _game(finished_head, None, next_deal(last, game_seed=head.seed))
    if last.phase.is_live:
        ends.pop()  # the current deal's last state is the game's state, not a deal's end
    # the current deal's actions (or the last deal's, once the game is over) are the game's own
    current = attrs.evolve(head, finished=tuple(finished[:-1]), ends=tuple(ends))
    return _restored(current, deals[-1], last)


def _replayed(game: Game, deals: Iterable[Iterable[Action | str]]) -> Game:
    """``game`` (fresh) after every deal's actions in ``deals``; each deal after the first
    must follow a deal its actions ended (R7)."""
    if isinstance(deals, str | bytes) or not isinstance(deals, Iterable):
        raise ArgumentTypeError(f"deals are each deal's actions (a list of lists), not {excerpt(deals)}")
    for number, actions in enumerate(deals, start=1):
        if isinstance(actions, str | bytes) or not isinstance(actions, Iterable):
            raise ArgumentTypeError(f"deal {number}'s actions are a list of actions, not {excerpt(actions)}")
        if game.deal_number != number:
            before = (
                f"the game is over after {counted(number - 1, 'deal')}"
                if game.is_over
                else f"deal {number - 1} is not over"
            )
            raise ReplayError(f"R7: {before}, so there is no deal {number}", deal=number)
        for index, action in enumerate(actions):
            if game.deal_number != number:
                raise ReplayError(
                    f"R7: deal {number} ended with its action {index - 1}; the actions after it are not this deal's",
                    deal=number,
                    index=index,
                )
            try:
                game = game.play(action)
            except _REFUSED as error:
                raise ReplayError(str(error), deal=number, index=index, cause=error) from None
    return game
