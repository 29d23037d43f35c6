"""Game records: whole games as text (``.prr`` files), saved, loaded and replayed exactly.

A record holds the rules, the players and teams, and for each deal the dealer, the seed or the
full deck order, every action in order (each with an optional comment) and the scores at the
end of the deal. :func:`load`, :func:`loads`, :func:`dump` and :func:`dumps` work like
:mod:`json`'s. Make records while playing with a :class:`Recorder`, or afterwards with
:meth:`GameRecord.from_actions`; iterate a record (or call :meth:`GameRecord.states`) for
every intermediate state. :func:`loads` checks what it reads by replaying it, so a record that
loads is a legal game with the scores it states.

The text format is PGN-like: tags in square brackets, then one action per line::

    [Format "persian-rummy record 1"]
    [Rules "default"]
    [Seat0 "North"]
    ...
    [Scores [82, 130]]

    [Deal 1]
    [Dealer 0]
    [Seed 1]
    [Scores [-17, 32]]
    E draw
    E discard Jk ; a joker, thrown away
    S take 0
    ...

Grammar (EBNF; ``json`` is one JSON value on the line, ``action`` is the text form of
:class:`~persian_rummy.Action`, ``text`` runs to the end of the line)::

    record      = { blank } header { blank } { deal } ;
    header      = { tag } ;                          (* Format first *)
    deal        = deal-tag { tag } { action-line | blank } ;
    deal-tag    = "[Deal " integer "]" NL ;
    tag         = "[" name " " json "]" NL ;
    action-line = seat " " action [ " ;" [ " " text ] ] NL ;
    seat        = "N" | "E" | "S" | "W" ;            (* seats 0, 1, 2, 3 *)
    blank       = { " " } NL ;

Game tags: ``Format`` (``"persian-rummy record 1"``, required, first), ``Rules`` (the text
of :class:`~persian_rummy.Rules`), ``Seat0``-``Seat3`` (player names), ``Team0``/``Team1``
(team names; team 0 is seats 0 and 2, R3), ``Viewer`` (only in a redacted record: the seat
it was redacted for) and ``Scores`` (the final totals, once the game is over). Deal tags:
``Dealer`` (a seat), ``Seed`` (a whole number or a string, see
:func:`~persian_rummy.shuffled_deck`) and/or ``Deck`` (the 56 cards in dealing order, see
:meth:`~persian_rummy.GameState.from_deck`; ``??`` for a card hidden from the viewer),
``Scores`` (the cumulative totals once the deal is over) and, in redacted records only,
``Hands`` (the four hands at the end of the deal, public then: R23).

A redacted record (:meth:`GameRecord.redact`) is what one seat saw: every card it did not
see is written ``??``, the seed is dropped, and it replays as that seat's views
(:meth:`GameRecord.views`).

>>> from persian_rummy import legal_actions
>>> recorder = Recorder()
>>> state = recorder.deal(seed=1)
>>> while not state.is_over:
...     state = recorder.play(legal_actions(state)[0])
>>> record = recorder.record()
>>> text = dumps(record)
>>> print(text[:text.index("[Deal")])
[Format "persian-rummy record 1"]
[Rules "default"]
[Seat0 "North"]
[Seat1 "East"]
[Seat2 "South"]
[Seat3 "West"]
[Team0 "North-South"]
[Team1 "East-West"]
<BLANKLINE>
>>> loads(text) == record, list(loads(text))[-1] == state
(True, True)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Final

import attrs

from persian_rummy.actions import Action, Discard, DrawDiscard, DrawStock, LayOff, MeldCards
from persian_rummy.cards import CARDS, DECK, DECK_COUNTS, Card
from persian_rummy.dealing import Seed, shuffled_deck
from persian_rummy.engine import play
from persian_rummy.errors import (
    IllegalActionError,
    InvalidRulesError,
    InvalidStateError,
    NotationError,
    ReplayError,
)
from persian_rummy.hand import Hand
from persian_rummy.rules import Rules
from persian_rummy.state import HAND_SIZE, PLAYERS, SEAT_NAMES, TEAM_NAMES, GameState, Phase
from persian_rummy.view import SEAT_LETTERS, PlayerView, _check_seat, observe

__all__ = [
    "FORMAT",
    "DealRecord",
    "GameRecord",
    "RecordedAction",
    "Recorder",
    "Replay",
    "dump",
    "dumps",
    "load",
    "loads",
]

#: The value of the ``Format`` tag this version writes and reads.
FORMAT: Final = "persian-rummy record 1"
#: The default player and team names.
DEFAULT_PLAYERS: Final = SEAT_NAMES
DEFAULT_TEAMS: Final = TEAM_NAMES
_DEALT: Final = HAND_SIZE * PLAYERS  # deck positions 0-27 are dealt, 28 is turned up, 29-55 the stock


def _check_comment(comment: object) -> None:
    # A line break would start a new action line in the text (an injected action), and
    # surrounding spaces would not read back: the text form keeps neither.
    if not isinstance(comment, str) or "\n" in comment or "\r" in comment or comment != comment.strip():
        raise NotationError(f"a comment is one line of text with no surrounding spaces, not {comment!r}")


@attrs.frozen
class RecordedAction:
    """One action of a record: the seat that played it, the action and an optional comment.

    Its text is one line of a ``.prr`` file: the seat letter (``N E S W``), the action and,
    if there is a comment, `` ; `` and the comment.

    >>> RecordedAction.parse("W layoff 3c 0 ; on East's run")
    RecordedAction(seat=3, action=LayOff(card=Card.parse('3c'), meld=0), comment="on East's run")
    >>> str(RecordedAction(1, DrawStock()))
    'E draw'
    """

    seat: int = attrs.field(validator=_check_seat)
    action: Action
    comment: str = attrs.field(default="", validator=lambda _, __, value: _check_comment(value))

    @classmethod
    def parse(cls, line: str) -> RecordedAction:
        """Parse one action line (see the module documentation); raises
        :class:`~persian_rummy.NotationError` for anything else.

        >>> RecordedAction.parse("S take 3").action
        DrawDiscard(index=3)
        """
        if not isinstance(line, str):
            raise NotationError(f"expected the text of an action line, not {line!r}")
        body, _, comment = line.partition(";")
        words = body.split(maxsplit=1)
        if not words or len(words[0]) != 1 or words[0] not in SEAT_LETTERS:
            raise NotationError(
                f"{line.strip()!r} is not an action line (expected a seat N, E, S or W, then an action)"
            )
        if len(words) < 2:
            raise NotationError(f"{line.strip()!r} has a seat but no action")
        return cls(SEAT_LETTERS.index(words[0]), Action.parse(words[1]), comment.strip())

    def __str__(self) -> str:
        text = f"{SEAT_LETTERS[self.seat]} {self.action}"
        return f"{text} ; {self.comment}" if self.comment else text


@attrs.frozen
class DealRecord:
    """One deal of a record.

    - ``number``: the deal number (1 for the first deal, R7).
    - ``dealer``: the seat that dealt.
    - ``deck``: the 56 cards in dealing order (see :meth:`~persian_rummy.GameState.from_deck`);
      ``None`` for a card hidden from the viewer of a redacted record.
    - ``seed``: the seed the deck was shuffled with, if known (then ``deck`` is
      ``shuffled_deck(seed)``).
    - ``actions``: the :class:`RecordedAction`\\ s in order.
    - ``scores``: the cumulative totals at the end of the deal, or ``None`` if it did not end.
    - ``final_hands``: in a redacted record, the four hands at the end of the deal (public then,
      R23), else ``None``.

    >>> deal = DealRecord(number=1, dealer=0, deck=shuffled_deck(1), seed=1)
    >>> deal.initial_state().hands[1]
    Hand.parse('Js 2d Jd Qd Tc Jk Jk')
    """

    number: int
    dealer: int
    deck: tuple[Card | None, ...]
    seed: Seed | None = None
    actions: tuple[RecordedAction, ...] = ()
    scores: tuple[int, int] | None = None
    final_hands: tuple[Hand, ...] | None = None

    @property
    def is_redacted(self) -> bool:
        """Whether some card of the deck is hidden (``None``).

        >>> DealRecord(number=1, dealer=0, deck=DECK).is_redacted
        False
        """
        return None in self.deck

    def initial_state(self, scores: tuple[int, int] = (0, 0), rules: Rules = Rules()) -> GameState:
        """The state at the start of the deal, given the scores carried over and the rules.

        Raises :class:`~persian_rummy.ReplayError` for a redacted deal (its deck is not known)
        or a deck that is not the 56-card deck.

        >>> DealRecord(number=1, dealer=3, deck=DECK).initial_state().current_player
        0
        """
        if self.is_redacted:
            raise ReplayError("the deck of a redacted deal is not known; replay it with views()", deal=self.number)
        try:
            return GameState.from_deck(
                [card for card in self.deck if card is not None],
                dealer=self.dealer,
                deal_number=self.number,
                scores=scores,
                rules=rules,
            )
        except InvalidStateError as error:
            raise ReplayError(str(error), deal=self.number, cause=error) from None


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

    states: tuple[GameState, ...]
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

    deals: tuple[DealRecord, ...]
    rules: Rules = Rules()
    players: tuple[str, ...] = DEFAULT_PLAYERS
    teams: tuple[str, ...] = DEFAULT_TEAMS
    scores: tuple[int, int] | None = None
    viewer: int | None = None

    def __attrs_post_init__(self) -> None:
        # Four player names and two team names, or the text would not load back equal.
        _check_names(self.players, PLAYERS, "players")
        _check_names(self.teams, 2, "teams")

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
        recorder = Recorder(rules=rules, players=players, teams=teams)
        for number, (source, actions) in enumerate(deals, start=1):
            is_deck = not isinstance(source, int | str) or (isinstance(source, str) and len(source.split()) == 56)
            if is_deck:
                recorder.deal(deck=source, dealer=dealer if number == 1 else None)  # type: ignore[arg-type]
            else:
                recorder.deal(seed=source, dealer=dealer if number == 1 else None)  # type: ignore[arg-type]
            for index, action in enumerate(actions):
                comment = ""
                if isinstance(action, str):
                    action, _, comment = action.partition(";")
                try:
                    recorder.play(action, comment=comment.strip())
                except (IllegalActionError, NotationError) as error:
                    raise ReplayError(str(error), deal=number, index=index, cause=error) from None
        return recorder.record()

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
        >>> bad.replay()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        persian_rummy.errors.ReplayError: deal 1, action 0: R12: seat 1 must draw first ...
        >>> result = bad.replay(strict=False)
        >>> len(result.states), [(error.deal, error.index) for error in result.errors]
        (1, [(1, 0)])
        """
        states: list[GameState] = []
        errors: list[ReplayError] = []

        def report(error: ReplayError) -> None:
            if strict:
                raise error
            errors.append(error)

        if self.viewer is not None:
            raise ReplayError(f"this record was redacted for seat {self.viewer}; replay it with views()", deal=1)
        previous: GameState | None = None
        for deal in self.deals:
            problem = _deal_problem(deal, previous)
            if problem is not None:
                report(ReplayError(problem, deal=deal.number))
                return Replay(tuple(states), tuple(errors))
            try:
                state = deal.initial_state(previous.scores if previous else (0, 0), self.rules)
            except ReplayError as error:
                report(error)
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
                    report(ReplayError(str(error), deal=deal.number, index=index, cause=error))
                    return Replay(tuple(states), tuple(errors))
                except ReplayError as error:
                    report(error)
                    return Replay(tuple(states), tuple(errors))
                states.append(state)
            if deal.scores is not None and (state.phase.is_live or state.scores != deal.scores):
                found = "the deal is not over" if state.phase.is_live else f"the replay gives {list(state.scores)}"
                report(
                    ReplayError(
                        f"R23: the record says the scores are {list(deal.scores)}, but {found}", deal=deal.number
                    )
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
                report(
                    ReplayError(
                        f"R26: the record says the final scores are {list(self.scores)}, but {found}",
                        deal=self.deals[-1].number if self.deals else 1,
                    )
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
            raise ReplayError(f"R3: a view is for a seat 0-3, not {seat!r}", deal=1)
        if self.viewer is not None and seat != self.viewer:
            raise ReplayError(f"this record was redacted for seat {self.viewer}, not seat {seat}", deal=1)
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
                    attrs.evolve(deal, deck=_fill_deck(deal, seat, oldest_first), final_hands=None)
                    for deal in self.deals
                ),
            )
            try:
                states = full.replay().states
            except ReplayError as error:
                errors.append(error)
                continue
            _check_final_hands(self.deals, states)
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
            raise ReplayError(f"R3: a record is redacted for a seat 0-3, not {seat!r}", deal=1)
        states = self.replay().states
        deals = []
        position = 0
        for deal in self.deals:
            start = states[position]
            seen = [((p + deal.dealer + 1) % PLAYERS == seat) for p in range(_DEALT)] + [True] + [False] * 27
            state = start
            drawn = 0
            for item in deal.actions:
                if type(item.action) is DrawStock:
                    if item.seat == seat:
                        seen[_DEALT + 1 + drawn] = True
                    drawn += 1
                position += 1
                state = states[position]
            position += 1
            deck = tuple(card if visible else None for card, visible in zip(deal.deck, seen, strict=True))
            final = state.hands if state.is_over else None
            actions = tuple(
                item if item.seat == seat or not item.comment else attrs.evolve(item, comment="")
                for item in deal.actions
            )
            deals.append(attrs.evolve(deal, deck=deck, seed=None, final_hands=final, actions=actions))
        return attrs.evolve(self, deals=tuple(deals), viewer=seat)


def _check_final_hands(deals: Sequence[DealRecord], states: Sequence[GameState]) -> None:
    """The Hands tags of a redacted record are the hands its replay ends each deal with (R23):
    a card missing from a tag, or a finished deal with no tag, would otherwise show hands made
    up from the unseen cards."""
    end = -1
    for deal in deals:
        end += 1 + len(deal.actions)  # a strict replay has the first state and one per action
        if deal.final_hands is None:
            if states[end].is_over:
                raise ReplayError(
                    "R23: a finished deal of a redacted record shows the hands (tag Hands)", deal=deal.number
                )
            continue
        if not states[end].is_over or states[end].hands != deal.final_hands:
            raise ReplayError(
                "R23: the tag Hands is not the four hands at the end of the deal (the deal is not over, "
                "or the hands shown do not add up with the actions)",
                deal=deal.number,
            )


def _check_names(names: tuple[str, ...], count: int, what: str) -> tuple[str, ...]:
    if not isinstance(names, tuple) or len(names) != count or not all(isinstance(name, str) for name in names):
        raise NotationError(f"a record has {count} {what}, each named by a string, not {names!r}")
    return names


def _deal_problem(deal: DealRecord, previous: GameState | None) -> str | None:
    if previous is None:
        if deal.number != 1:
            return f"R7: the first deal is deal 1, not deal {deal.number}"
        return None
    if previous.phase is not Phase.ROUND_OVER:
        return f"R7: deal {deal.number} follows deal {previous.deal_number}, which is not over (or was the last)"
    if deal.number != previous.deal_number + 1:
        return f"R7: deal {previous.deal_number} is followed by deal {previous.deal_number + 1}, not {deal.number}"
    if deal.dealer != (previous.dealer + 1) % PLAYERS:
        return f"R7: the deal passes clockwise: seat {(previous.dealer + 1) % PLAYERS} deals deal {deal.number}, not seat {deal.dealer}"
    return None


def _fill_deck(deal: DealRecord, viewer: int, oldest_first: bool = True) -> tuple[Card, ...]:
    """A full deck for a redacted deal, consistent with everything public: each card another
    seat played (or held at the end) is placed at one of the deck positions that seat had
    received by then; the cards nobody saw fill the rest."""
    deck = list(deal.deck)
    # Deck positions each seat has received and not yet matched with a card, oldest first.
    open_slots: list[list[int]] = [[] for _ in range(PLAYERS)]
    from_pile: list[Counter[Card]] = [Counter() for _ in range(PLAYERS)]
    for position in range(_DEALT):
        seat = (position + deal.dealer + 1) % PLAYERS
        if seat != viewer:
            open_slots[seat].append(position)
    if deck[_DEALT] is None:
        raise ReplayError("the card turned up to start the discard pile is public, but it is hidden", deal=deal.number)
    pile: list[Card] = [deck[_DEALT]]  # type: ignore[list-item]
    taken: list[Card] = pile[:1]
    drawn = 0

    def place(seat: int, card: Card, index: int | None) -> None:
        if seat == viewer:
            return
        if from_pile[seat][card] > 0:
            from_pile[seat][card] -= 1
            return
        if not open_slots[seat]:
            raise ReplayError(f"seat {seat} plays {card}, which it cannot hold", deal=deal.number, index=index)
        deck[open_slots[seat].pop(0 if oldest_first else -1)] = card

    for index, item in enumerate(deal.actions):
        action, seat = item.action, item.seat
        if type(action) is DrawStock:
            position = _DEALT + 1 + drawn
            drawn += 1
            if position >= len(deck):
                raise ReplayError("the stock has only 27 cards", deal=deal.number, index=index)
            if seat != viewer:
                open_slots[seat].append(position)
        elif type(action) is DrawDiscard:
            taken = pile[action.index :] or taken
            del pile[action.index :]
            from_pile[seat].update(taken)
        elif type(action) is MeldCards:
            for card in action.cards:
                place(seat, card, index)
        elif type(action) is LayOff:
            place(seat, action.card, index)
        elif type(action) is Discard:
            place(seat, action.card, index)
            pile.append(action.card)
    if deal.final_hands is not None:
        for seat, hand in enumerate(deal.final_hands):
            for card in hand:
                place(seat, card, None)
    known: Counter[Card] = Counter(card for card in deck if card is not None)
    unseen = DECK_COUNTS - known
    if known - DECK_COUNTS:
        raise ReplayError("the record names more cards than the deck holds", deal=deal.number)
    last = deal.actions[-1] if deal.actions else None
    if last is not None and type(last.action) is DrawDiscard and last.seat != viewer and deal.final_hands is None:
        # The record stops right after another seat took from the pile: that take was legal
        # (R14), so the seat held cards that meld the target; place some unseen ones that do.
        slots = open_slots[last.seat]
        taken_cards = Counter(from_pile[last.seat])
        taken_cards[taken[0]] -= 1  # the target itself is not its own partner
        for pair in _meld_partners(taken[0]):
            need = list((Counter(pair) - taken_cards).elements())
            if len(need) <= len(slots) and not Counter(need) - unseen:
                for card in need:
                    deck[slots.pop(0)] = card
                unseen -= Counter(need)
                break
    rest = iter(sorted(unseen.elements()))
    return tuple(card if card is not None else next(rest) for card in deck)


def _meld_partners(target: Card) -> Iterator[tuple[Card, ...]]:
    """The pairs of cards that make a three-card meld with ``target`` (R8-R11): sets first,
    then runs with the ace high, then with the ace low (R10)."""
    if target.is_joker:
        yield (target, target)
        return
    rank, suit = target.index % 13, target.index // 13  # rank 0 is the two, 12 the ace
    others = [other for other in range(4) if other != suit]
    for first in range(3):
        for second in range(first + 1, 3):
            yield (CARDS[others[first] * 13 + rank], CARDS[others[second] * 13 + rank])
    for low in (rank - 2, rank - 1, rank):
        ranks = [r for r in (low, low + 1, low + 2) if r != rank]
        if low >= 0 and low + 2 <= 12:
            yield (CARDS[suit * 13 + ranks[0]], CARDS[suit * 13 + ranks[1]])
    ace_low = {12: (0, 1), 0: (12, 1), 1: (12, 0)}.get(rank)  # A-2-3 with the ace low
    if ace_low is not None:
        yield (CARDS[suit * 13 + ace_low[0]], CARDS[suit * 13 + ace_low[1]])


class Recorder:
    """Records a game while it is played: deal, then play each action through the recorder.

    >>> recorder = Recorder(players=["Ann", "Bo", "Cy", "Di"])
    >>> state = recorder.deal(seed=3)
    >>> state = recorder.play("draw")
    >>> state = recorder.play("discard 2d", comment="safe")
    >>> str(recorder.record().deals[0].actions[-1])
    'E discard 2d ; safe'
    """

    def __init__(
        self,
        *,
        rules: Rules = Rules(),
        players: Sequence[str] = DEFAULT_PLAYERS,
        teams: Sequence[str] = DEFAULT_TEAMS,
    ) -> None:
        self.rules = rules
        self.players = _check_names(tuple(players), PLAYERS, "players")
        self.teams = _check_names(tuple(teams), 2, "teams")
        self._deals: list[DealRecord] = []
        self._actions: list[RecordedAction] = []
        self._state: GameState | None = None

    @property
    def state(self) -> GameState:
        """The current state (after :meth:`deal`).

        >>> recorder = Recorder()
        >>> recorder.deal(seed=1) == recorder.state
        True
        """
        if self._state is None:
            raise ReplayError("nothing has been dealt yet", deal=1)
        return self._state

    def deal(
        self,
        seed: Seed | None = None,
        *,
        deck: Sequence[Card | str] | str | None = None,
        dealer: int | None = None,
    ) -> GameState:
        """Deal the next deal from ``seed`` or from ``deck`` (in dealing order) and return its
        first state. The first dealer is ``dealer`` (0 by default); later deals pass clockwise
        (R7), so ``dealer`` must then be omitted or match.

        >>> Recorder().deal(seed=1, dealer=3).current_player
        0
        """
        if (seed is None) == (deck is None):
            raise ReplayError("deal from a seed or from a deck (one of the two)", deal=len(self._deals) + 1)
        previous = self._state
        number = 1 if previous is None else previous.deal_number + 1
        if previous is not None:
            if previous.phase is not Phase.ROUND_OVER:
                raise ReplayError(f"R7: deal {previous.deal_number} is not over, or was the last", deal=number)
            expected = (previous.dealer + 1) % PLAYERS
            if dealer is not None and dealer != expected:
                raise ReplayError(
                    f"R7: the deal passes clockwise: seat {expected} deals, not seat {dealer}", deal=number
                )
            dealer = expected
        cards = shuffled_deck(seed) if seed is not None else _parse_deck(deck, number)  # type: ignore[arg-type]
        record = DealRecord(number=number, dealer=0 if dealer is None else dealer, deck=cards, seed=seed)
        state = record.initial_state(previous.scores if previous else (0, 0), self.rules)
        # Close the current deal only now: a deal that raises above must not drop its actions.
        self._close()
        self._deals.append(record)
        self._state = state
        return state

    def play(self, action: Action | str, *, comment: str = "") -> GameState:
        """Play ``action`` (or its text) and record it with ``comment``; returns the new state.
        Raises what :func:`~persian_rummy.play` raises, recording nothing.

        >>> recorder = Recorder()
        >>> _ = recorder.deal(seed=1)
        >>> recorder.play("draw").phase
        <Phase.MELD: 'meld'>
        """
        state = self.state
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(comment, str):
            raise NotationError(f"a comment is one line of text, not {comment!r}")
        item = RecordedAction(state.current_player, action, comment.strip())  # checks the comment first
        after = play(state, action)
        self._actions.append(item)
        self._state = after
        return after

    def _close(self) -> None:
        if self._deals:
            last = self._deals[-1]
            state = self._state
            scores = state.scores if state is not None and state.is_over else None
            self._deals[-1] = attrs.evolve(last, actions=tuple(self._actions), scores=scores)
            self._actions = []

    def record(self) -> GameRecord:
        """The record of everything played so far (the recorder can go on).

        >>> Recorder().record().deals
        ()
        """
        deals = list(self._deals)
        if deals:
            state = self._state
            scores = state.scores if state is not None and state.is_over else None
            deals[-1] = attrs.evolve(deals[-1], actions=tuple(self._actions), scores=scores)
        final = self._state.scores if self._state is not None and self._state.phase is Phase.GAME_OVER else None
        return GameRecord(tuple(deals), self.rules, self.players, self.teams, final)


# --- Text -------------------------------------------------------------------------------------


def _parse_deck(deck: Sequence[Card | str | None] | str, number: int) -> tuple[Card | None, ...]:
    if not isinstance(deck, str | Sequence):
        raise NotationError(f"deal {number}: a deck is its 56 cards in dealing order, not {deck!r}")
    words = deck.split() if isinstance(deck, str) else list(deck)
    if len(words) != len(DECK):
        raise NotationError(f"deal {number}: a deck has 56 cards, not {len(words)}")
    cards = tuple(None if word is None or word == "??" else Card.parse(word) for word in words)
    counts = Counter(card for card in cards if card is not None)
    if counts - DECK_COUNTS:
        extra = " ".join(str(card) for card in sorted((counts - DECK_COUNTS).elements()))
        raise InvalidStateError(f"R1: deal {number}: the deck holds too many of {extra}")
    return cards


def _tag(name: str, value: object) -> str:
    return f"[{name} {json.dumps(value, ensure_ascii=False)}]"


def dumps(record: GameRecord) -> str:
    """The ``.prr`` text of a record (see the module documentation for the format).

    >>> print(dumps(GameRecord.from_actions([(5, ["draw", "discard 2c ; why not"])])))  # doctest: +ELLIPSIS
    [Format "persian-rummy record 1"]
    ...
    [Deal 1]
    [Dealer 0]
    [Seed 5]
    E draw
    E discard 2c ; why not
    <BLANKLINE>
    """
    lines = [_tag("Format", FORMAT), _tag("Rules", str(record.rules))]
    lines += [_tag(f"Seat{seat}", name) for seat, name in enumerate(record.players)]
    lines += [_tag(f"Team{team}", name) for team, name in enumerate(record.teams)]
    if record.viewer is not None:
        lines.append(_tag("Viewer", record.viewer))
    if record.scores is not None:
        lines.append(_tag("Scores", list(record.scores)))
    for deal in record.deals:
        lines += ["", _tag("Deal", deal.number), _tag("Dealer", deal.dealer)]
        if deal.seed is not None:
            lines.append(_tag("Seed", deal.seed))
        if deal.seed is None or shuffled_deck(deal.seed) != deal.deck:
            lines.append(_tag("Deck", " ".join("??" if card is None else str(card) for card in deal.deck)))
        if deal.final_hands is not None:
            lines.append(_tag("Hands", " / ".join(str(hand) for hand in deal.final_hands)))
        if deal.scores is not None:
            lines.append(_tag("Scores", list(deal.scores)))
        lines += [str(item) for item in deal.actions]
    return "\n".join(lines) + "\n"


def dump(record: GameRecord, fp: IO[str]) -> None:
    """Write the ``.prr`` text of ``record`` to the text file ``fp``.

    >>> import io
    >>> out = io.StringIO()
    >>> dump(GameRecord.from_actions([(1, [])]), out)
    >>> out.getvalue().splitlines()[0]
    '[Format "persian-rummy record 1"]'
    """
    fp.write(dumps(record))


def load(fp: IO[str], *, check: bool = True) -> GameRecord:
    """Read a record from the text file ``fp`` (see :func:`loads`).

    >>> import io
    >>> load(io.StringIO(dumps(GameRecord.from_actions([(1, ["draw"])])))).deals[0].actions[0].action
    DrawStock()
    """
    return loads(fp.read(), check=check)


_GAME_TAGS: Final = frozenset(
    {"Format", "Rules", "Seat0", "Seat1", "Seat2", "Seat3", "Team0", "Team1", "Viewer", "Scores"}
)
_DEAL_TAGS: Final = frozenset({"Dealer", "Seed", "Deck", "Hands", "Scores"})


def loads(text: str | bytes, *, check: bool = True) -> GameRecord:
    """Parse the ``.prr`` text of a record. Raises :class:`~persian_rummy.NotationError` for
    text that is not a record (naming the line) and :class:`~persian_rummy.InvalidStateError`
    for a deck that is not the 56-card deck. With ``check`` (the default) the record is also
    replayed in strict mode (a redacted one as its viewer's views), so a record that loads is
    a legal game with the scores it states, else :class:`~persian_rummy.ReplayError` names the
    deal and the action; ``check=False`` only parses, for a lenient
    :meth:`GameRecord.replay` of a damaged record.

    >>> record = loads('[Format "persian-rummy record 1"]\\n[Deal 1]\\n[Dealer 0]\\n[Seed 1]\\nE draw ; first!\\n')
    >>> record.deals[0].actions
    (RecordedAction(seat=1, action=DrawStock(), comment='first!'),)
    >>> loads("[Deal 1]")
    Traceback (most recent call last):
    ...
    persian_rummy.errors.NotationError: line 1: a record starts with [Format "persian-rummy record 1"]
    >>> loads('[Format "persian-rummy record 1"]\\n[Deal 1]\\n[Dealer 0]\\n[Seed 1]\\nE pass\\n')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    persian_rummy.errors.ReplayError: deal 1, action 0: R20: seat 1 may pass only when the stock is empty ...
    >>> len(loads('[Format "persian-rummy record 1"]\\n[Deal 1]\\n[Dealer 0]\\n[Seed 1]\\nE pass\\n', check=False).deals)
    1
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise NotationError(f"a record is UTF-8 text: {error}") from None
    if not isinstance(text, str):
        raise NotationError(f"expected the text of a record, not {type(text).__name__}")
    game: dict[str, object] = {}
    deals: list[tuple[dict[str, object], list[RecordedAction]]] = []
    saw_format = False
    # Only "\n" ends a line: names and comments may hold other line separators (like U+2028).
    for number, line in enumerate(text.split("\n"), start=1):
        try:
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith("["):
                name, value = _parse_tag(stripped)
                if not saw_format:
                    if name != "Format":
                        raise NotationError(f'a record starts with [Format "{FORMAT}"]')
                    if value != FORMAT:
                        raise NotationError(f"this library reads the format {FORMAT!r}, not {value!r}")
                    saw_format = True
                    continue
                if name == "Deal":
                    deals.append(({"Deal": value}, []))
                    continue
                target = deals[-1][0] if deals else game
                allowed = _DEAL_TAGS if deals else _GAME_TAGS - {"Format"}
                if name not in allowed:
                    where = "a deal's" if deals else "the game's"
                    raise NotationError(f"{name!r} is not one of {where} tags ({', '.join(sorted(allowed))})")
                if name in target:
                    raise NotationError(f"the tag {name} is given twice")
                if deals and deals[-1][1]:
                    raise NotationError("a deal's tags come before its actions")
                target[name] = value
                continue
            if not saw_format:
                raise NotationError(f'a record starts with [Format "{FORMAT}"]')
            if not deals:
                raise NotationError("an action comes before the first [Deal ...] tag")
            deals[-1][1].append(RecordedAction.parse(line))
        except NotationError as error:
            raise NotationError(f"line {number}: {error}") from None
        except InvalidStateError as error:
            raise InvalidStateError(f"line {number}: {error}") from None
    if not saw_format:
        raise NotationError(f'line 1: a record starts with [Format "{FORMAT}"]')
    record = _build(game, deals)
    if check:
        if record.viewer is None:
            record.replay()
        else:
            for _ in record.views():
                pass
    return record


def _parse_tag(line: str) -> tuple[str, object]:
    if not line.endswith("]"):
        raise NotationError(f"{line!r} is not a tag (expected [Name value])")
    name, _, value = line[1:-1].partition(" ")
    if not name.isascii() or not name.isalnum():
        raise NotationError(f"{line!r} is not a tag (expected [Name value])")
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):
        raise NotationError(f"the value of the tag {name} is not a JSON value: {value!r}") from None
    return name, parsed


def _string(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise NotationError(f"the tag {name} takes a string, not {value!r}")
    return value


def _integer(value: object, name: str, low: int, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        bound = f"{low}-{high}" if high is not None else f"at least {low}"
        raise NotationError(f"the tag {name} takes a whole number {bound}, not {value!r}")
    return value


def _scores(value: object, name: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2 or not all(type(score) is int for score in value):
        raise NotationError(f"the tag {name} takes two whole numbers like [82, 130], not {value!r}")
    return (value[0], value[1])


def _build(game: dict[str, object], deals: list[tuple[dict[str, object], list[RecordedAction]]]) -> GameRecord:
    try:
        rules = Rules.parse(_string(game.get("Rules", "default"), "Rules"))
    except InvalidRulesError as error:
        raise NotationError(f"the tag Rules: {error}") from None
    players = tuple(_string(game.get(f"Seat{seat}", DEFAULT_PLAYERS[seat]), f"Seat{seat}") for seat in range(PLAYERS))
    teams = tuple(_string(game.get(f"Team{team}", DEFAULT_TEAMS[team]), f"Team{team}") for team in range(2))
    viewer = _integer(game["Viewer"], "Viewer", 0, PLAYERS - 1) if "Viewer" in game else None
    scores = _scores(game["Scores"], "Scores") if "Scores" in game else None
    built = []
    for tags, actions in deals:
        number = _integer(tags["Deal"], "Deal", 1, rules.deals)
        try:
            dealer = _integer(tags.get("Dealer"), "Dealer", 0, PLAYERS - 1)
            raw_seed = tags.get("Seed")
            if raw_seed is not None and (isinstance(raw_seed, bool) or not isinstance(raw_seed, int | str)):
                raise NotationError(f"the tag Seed takes a whole number or a string, not {raw_seed!r}")
            seed: Seed | None = raw_seed if isinstance(raw_seed, int | str) else None
            if "Deck" in tags:
                deck = _parse_deck(_string(tags["Deck"], "Deck"), number)
                if seed is not None and shuffled_deck(seed) != deck:
                    raise NotationError(f"the tags Seed and Deck disagree: seed {seed!r} does not shuffle to that deck")
            elif seed is not None:
                deck = shuffled_deck(seed)
            else:
                raise NotationError("a deal needs a Seed or a Deck tag")
            if (None in deck) != (viewer is not None):
                raise NotationError("hidden cards (??) belong to redacted records (with a Viewer tag) only")
            if viewer is not None and seed is not None:
                raise NotationError("a redacted record has no seeds: a seed reveals every card")
            final = None
            if "Hands" in tags:
                if viewer is None:
                    raise NotationError("the tag Hands belongs to redacted records only")
                parts = _string(tags["Hands"], "Hands").split("/")
                if len(parts) != PLAYERS:
                    raise NotationError(f"R3: the tag Hands lists 4 hands separated by '/', not {len(parts)}")
                final = tuple(Hand(part) for part in parts)
            deal_scores = _scores(tags["Scores"], "Scores") if "Scores" in tags else None
            built.append(
                DealRecord(
                    number=number,
                    dealer=dealer,
                    deck=deck,
                    seed=seed,
                    actions=tuple(actions),
                    scores=deal_scores,
                    final_hands=final,
                )
            )
        except NotationError as error:
            raise NotationError(f"deal {number}: {error}") from None
    return GameRecord(tuple(built), rules, players, teams, scores, viewer)
