"""The game record and its replay (internal; see :mod:`persian_rummy.record`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import attrs

from persian_rummy.actions import Action
from persian_rummy.cards import Card
from persian_rummy.dealing import Seed, following_deal
from persian_rummy.engine import play
from persian_rummy.errors import (
    ArgumentTypeError,
    IllegalActionError,
    InvalidArgumentError,
    NotationError,
    ReplayError,
    excerpt,
)
from persian_rummy.record._deal import (
    DEFAULT_PLAYERS,
    DEFAULT_TEAMS,
    DealRecord,
    check_names,
    final_scores,
    finish_deal,
    play_recorded,
    start_deal,
)
from persian_rummy.record._redaction import check_final_hands, fill_deck, redacted_deals
from persian_rummy.rules import Rules
from persian_rummy.state import PLAYERS, GameState, Phase
from persian_rummy.view import PlayerView, observe


@attrs.frozen
class Replay:
    """The result of :meth:`GameRecord.replay`: every state in order and the errors found
    (always empty in strict mode, which raises the first instead).

    ``states`` starts with the initial state of each deal, followed by the state after each of
    its actions; replay stops at the first action that cannot be played, keeping the valid
    prefix.

    >>> record = GameRecord.from_actions([(1, ["draw", "discard Jk"])])
    >>> replay = record.replay()
    >>> len(replay.states), replay.errors, replay.final.current_player
    (3, (), 2)
    """

    #: Every state replayed, in order: each deal's first state, then one per action.
    states: tuple[GameState, ...]
    #: The errors found (a replay that stops at the first has at most one).
    errors: tuple[ReplayError, ...] = ()

    @property
    def final(self) -> GameState:
        """The last state replayed; raises :class:`~persian_rummy.ReplayError` if there is
        none (a record with no deals, or whose first deal could not be dealt).

        >>> GameRecord.from_actions([(1, [])]).replay().final.deal_number
        1
        """
        if not self.states:
            raise ReplayError("nothing was replayed: the record has no deal that could be dealt", deal=1)
        return self.states[-1]


@attrs.frozen
class GameRecord:
    """A whole (or partly played) game: rules, players, teams and its deals.

    ``scores`` is the final totals once the game is over, else ``None``; ``viewer`` is the
    seat a redacted record was made for (see :meth:`redact`), else ``None``. Iterating a full
    record yields every state of the game in order (see :meth:`replay`).

    >>> record = GameRecord.from_actions([(7, ["draw", "discard 4s ; why not"])])
    >>> record.deals[0].actions[1]
    RecordedAction(seat=1, action=Discard(card=Card.parse('4s')), comment='why not')
    >>> [state.phase.name for state in record]
    ['DRAW', 'MELD', 'DRAW']
    """

    #: Every deal, in order.
    deals: tuple[DealRecord, ...]
    #: The rules the game was played under.
    rules: Rules = Rules()
    #: The players' names, by seat.
    players: tuple[str, ...] = DEFAULT_PLAYERS
    #: The teams' names, by team.
    teams: tuple[str, ...] = DEFAULT_TEAMS
    #: The final totals of the two teams, or ``None`` if the game did not end.
    scores: tuple[int, int] | None = None
    #: In a record redacted for one seat, that seat; ``None`` in a full record.
    viewer: int | None = None

    def __attrs_post_init__(self) -> None:
        # Four player names and two team names, or the text would not load back equal.
        check_names(self.players, PLAYERS, "players")
        check_names(self.teams, 2, "teams")

    @classmethod
    def from_actions(
        cls,
        deals: Iterable[tuple[Seed | Sequence[Card | str] | str, Iterable[Action | str]]],
        *,
        dealer: int = 0,
        rules: Rules = Rules(),
        players: Sequence[str] = DEFAULT_PLAYERS,
        teams: Sequence[str] = DEFAULT_TEAMS,
    ) -> GameRecord:
        """Record a game from, for each deal, a seed (or a deck in dealing order) and its
        actions; an action's text may end with `` ; comment``. ``dealer`` deals first and the
        deal passes clockwise (R7). The actions are played, so an illegal one raises
        :class:`~persian_rummy.ReplayError`; the scores are filled in from the play.

        >>> record = GameRecord.from_actions([(1, ["draw", "discard Jk"])], dealer=2)
        >>> record.deals[0].dealer, [str(item) for item in record.deals[0].actions]
        (2, ['W draw', 'W discard Jk'])
        """
        names = check_names(tuple(players), PLAYERS, "players"), check_names(tuple(teams), 2, "teams")
        records: list[DealRecord] = []
        state: GameState | None = None
        for number, (source, actions) in enumerate(deals, start=1):
            is_deck = not isinstance(source, int | str) or (isinstance(source, str) and len(source.split()) == 56)
            first_dealer = dealer if number == 1 else None
            if is_deck:
                record, state = start_deal(state, rules, None, source, first_dealer)  # type: ignore[arg-type]
            else:
                record, state = start_deal(state, rules, source, None, first_dealer)  # type: ignore[arg-type]
            items = []
            for index, action in enumerate(actions):
                comment = ""
                if isinstance(action, str):
                    action, _, comment = action.partition(";")
                try:
                    item, state = play_recorded(state, action, comment.strip())
                except (IllegalActionError, NotationError, InvalidArgumentError, ArgumentTypeError) as error:
                    raise ReplayError(str(error), deal=number, index=index, cause=error) from None
                items.append(item)
            records.append(finish_deal(record, items, state))
        return cls(tuple(records), rules, *names, final_scores(state))

    @property
    def is_redacted(self) -> bool:
        """Whether this record was redacted for one seat (see :meth:`redact`).

        >>> GameRecord.from_actions([(1, [])]).redact(2).is_redacted
        True
        """
        return self.viewer is not None

    def replay(self, *, strict: bool = True) -> Replay:
        """Replay the record exactly, checking every action, the seat each is marked with, the
        dealers (R7) and the stored scores.

        In strict mode the first problem raises :class:`~persian_rummy.ReplayError`, naming
        the deal and the index of the action. In lenient mode (``strict=False``) the errors
        are collected: replay stops at the first action that cannot be played and keeps the
        valid prefix; a score that differs is reported and replay goes on.

        >>> record = GameRecord.from_actions([(1, ["draw", "discard Jk"])])
        >>> bad = attrs.evolve(record, deals=(attrs.evolve(record.deals[0], actions=record.deals[0].actions[::-1]),))
        >>> bad.replay()
        Traceback (most recent call last):
        ...
        persian_rummy.errors.ReplayError: deal 1, action 0: R12: seat 1 must draw first (or pass with an empty stock) [deal 1 of 2, seat 1 to act, phase DRAW, hand Js 2d Jd Qd Tc Jk Jk, discard pile 2s, stock 27, 0 melds]
        >>> result = bad.replay(strict=False)
        >>> len(result.states), [(error.deal, error.index) for error in result.errors]
        (1, [(1, 0)])
        """
        states: list[GameState] = []
        errors: list[ReplayError] = []
        if self.viewer is not None:
            raise ReplayError(f"this record was redacted for seat {self.viewer}; replay it with views()", deal=1)
        previous: GameState | None = None
        for deal in self.deals:
            problem = deal_problem(deal, previous)
            if problem is not None:
                _report(strict, errors, ReplayError(problem, deal=deal.number))
                return Replay(tuple(states), tuple(errors))
            try:
                state = deal.initial_state((0, 0) if previous is None else following_deal(previous).scores, self.rules)
            except ReplayError as error:
                _report(strict, errors, error)
                return Replay(tuple(states), tuple(errors))
            states.append(state)
            for index, item in enumerate(deal.actions):
                try:
                    if state.phase.is_live and item.seat != state.current_player:
                        raise ReplayError(
                            f"the action {item} is marked for seat {item.seat}, but seat {state.current_player} "
                            f"is to act [{state.summary()}]",
                            deal=deal.number,
                            index=index,
                        )
                    state = play(state, item.action)
                except IllegalActionError as error:
                    _report(strict, errors, ReplayError(str(error), deal=deal.number, index=index, cause=error))
                    return Replay(tuple(states), tuple(errors))
                except ReplayError as error:
                    _report(strict, errors, error)
                    return Replay(tuple(states), tuple(errors))
                states.append(state)
            if deal.scores is not None and (state.phase.is_live or state.scores != deal.scores):
                found = "the deal is not over" if state.phase.is_live else f"the replay gives {list(state.scores)}"
                _report(
                    strict,
                    errors,
                    ReplayError(
                        f"R23: the record says the scores are {list(deal.scores)}, but {found}", deal=deal.number
                    ),
                )
            previous = state
        if self.scores is not None:
            last = states[-1] if states else None
            if last is None or last.phase is not Phase.GAME_OVER or last.scores != self.scores:
                found = (
                    "the game is not over"
                    if last is None or last.phase is not Phase.GAME_OVER
                    else f"the replay gives {list(last.scores)}"
                )
                _report(
                    strict,
                    errors,
                    ReplayError(
                        f"R26: the record says the final scores are {list(self.scores)}, but {found}",
                        deal=self.deals[-1].number if self.deals else 1,
                    ),
                )
        return Replay(tuple(states), tuple(errors))

    def states(self, *, strict: bool = True) -> Iterator[GameState]:
        """Every state of the game in order: the first state of each deal, then the state
        after each action (see :meth:`replay`; iterating the record does the same).

        >>> [state.current_player for state in GameRecord.from_actions([(1, ["draw", "discard Jk"])]).states()]
        [1, 1, 2]
        """
        return iter(self.replay(strict=strict).states)

    def __iter__(self) -> Iterator[GameState]:
        return self.states()

    def views(self, seat: int | None = None) -> Iterator[PlayerView]:
        """Every state of the game as ``seat`` saw it, in order (for a redacted record, its
        viewer's seat; ``seat`` may be omitted).

        A redacted record does not say where the cards the viewer never saw were; the replay
        places them consistently with everything public (the action list, the cards played and
        the hands shown at the end of each deal), so every view is exactly the viewer's. Each
        card another seat plays is placed at the oldest deck position that seat still holds,
        or failing that at the newest. Under ``last_card_discard="forbidden"`` the legality of
        a meld can depend on which card a player kept (R19); if neither placement replays, a
        :class:`~persian_rummy.ReplayError` says so (random play has not produced such a game
        in our tests).

        >>> record = GameRecord.from_actions([(1, ["draw", "discard Jk"])])
        >>> [view.hand_sizes[1] for view in record.redact(0).views()]
        [7, 8, 7]
        >>> list(record.redact(0).views()) == list(record.views(0))
        True
        """
        if seat is None:
            if self.viewer is None:
                raise ReplayError("views() of a full record needs a seat (0-3)", deal=1)
            seat = self.viewer
        if type(seat) is not int or not 0 <= seat < PLAYERS:
            raise ReplayError(f"R3: a view is for a seat 0-3, not {excerpt(seat)}", deal=1)
        if self.viewer is not None and seat != self.viewer:
            raise ReplayError(f"this record was redacted for seat {self.viewer}, not seat {seat}", deal=1)
        return self._views(seat)

    def _views(self, seat: int) -> Iterator[PlayerView]:
        if self.viewer is None:
            for state in self.replay().states:
                yield observe(state, seat)
            return
        errors: list[ReplayError] = []
        for oldest_first in (True, False):
            full = attrs.evolve(
                self,
                viewer=None,
                deals=tuple(
                    attrs.evolve(deal, deck=fill_deck(deal, seat, oldest_first), final_hands=None)
                    for deal in self.deals
                ),
            )
            try:
                states = full.replay().states
            except ReplayError as error:
                errors.append(error)
                continue
            check_final_hands(self.deals, states)
            for state in states:
                yield observe(state, seat)
            return
        raise ReplayError(
            f"the hidden cards cannot be placed so that the record replays: {errors[0]}",
            deal=errors[0].deal,
            index=errors[0].index,
            cause=errors[0],
        )

    def redact(self, seat: int) -> GameRecord:
        """What ``seat`` saw of this game: every card of each deck it did not see is hidden
        (``None``, written ``??``), the seeds are dropped, the comments on the other seats'
        actions are dropped (a comment may name hidden cards, R27), and the hands at the end
        of each deal (public then, R23) are kept. Replay it with :meth:`views`.

        The seat sees its own dealt cards, the card turned up (R5) and the cards it draws
        from the stock; everything else in the deck it sees only as it is played.

        >>> record = GameRecord.from_actions([(1, ["draw", "discard Jk"])])
        >>> deck = record.redact(1).deals[0].deck
        >>> sum(card is not None for card in deck), deck[28], deck[29]
        (9, Card.parse('2s'), Card.parse('Ad'))
        """
        if self.viewer is not None:
            if seat == self.viewer:
                return self
            raise ReplayError(f"this record was already redacted for seat {self.viewer}", deal=1)
        if type(seat) is not int or not 0 <= seat < PLAYERS:
            raise ReplayError(f"R3: a record is redacted for a seat 0-3, not {excerpt(seat)}", deal=1)
        deals = redacted_deals(self.deals, self.replay().states, seat)
        return attrs.evolve(self, deals=tuple(deals), viewer=seat)


def _report(strict: bool, errors: list[ReplayError], error: ReplayError) -> None:
    """A replay's problem: raised in strict mode, else added to ``errors``."""
    if strict:
        raise error
    errors.append(error)


def deal_problem(deal: DealRecord, previous: GameState | None) -> str | None:
    if previous is None:
        if deal.number != 1:
            return f"R7: the first deal is deal 1, not deal {deal.number}"
        return None
    if previous.phase is not Phase.ROUND_OVER:
        return f"R7: deal {deal.number} follows deal {previous.deal_number}, which is not over (or was the last)"
    start = following_deal(previous)
    if deal.number != start.number:
        return f"R7: deal {previous.deal_number} is followed by deal {start.number}, not {deal.number}"
    if deal.dealer != start.dealer:
        return f"R7: the deal passes clockwise: seat {start.dealer} deals deal {deal.number}, not seat {deal.dealer}"
    return None
