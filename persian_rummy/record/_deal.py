"""One deal of a game record: its actions and how it starts (internal; see
:mod:`persian_rummy.record`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

import attrs

from persian_rummy.actions import Action
from persian_rummy.cards import DECK, DECK_COUNTS, Card
from persian_rummy.dealing import Seed, following_deal, shuffled_deck
from persian_rummy.engine import play
from persian_rummy.errors import (
    ArgumentTypeError,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    ReplayError,
    excerpt,
)
from persian_rummy.hand import Hand
from persian_rummy.limits import check_text
from persian_rummy.rules import Rules
from persian_rummy.state import HAND_SIZE, PLAYERS, SEAT_LETTERS, SEAT_NAMES, TEAM_NAMES, GameState, Phase, check_seat

#: The default player and team names.
DEFAULT_PLAYERS: Final = SEAT_NAMES
DEFAULT_TEAMS: Final = TEAM_NAMES
#: Deck positions 0-27 are dealt, 28 is turned up, 29-55 the stock.
DEALT: Final = HAND_SIZE * PLAYERS


def check_comment(comment: object) -> None:
    # A line break would start a new action line in the text (an injected action), and
    # surrounding spaces would not read back: the text form keeps neither.
    if not isinstance(comment, str) or "\n" in comment or "\r" in comment or comment != comment.strip():
        raise InvalidArgumentError(f"a comment is one line of text with no surrounding spaces, not {excerpt(comment)}")
    check_text(comment, "a comment")


@attrs.frozen
class RecordedAction:
    """One action of a record: the seat that played it, the action and an optional comment.

    Its text is one line of a ``.prr`` file: the seat letter (``N E S W``), the action and,
    if there is a comment, `` ; `` and the comment.

    >>> RecordedAction.parse("W layoff 3c 0 ; on East's run")
    RecordedAction(seat=3, action=LayOff(card=Card.parse('3c'), meld=0), comment="on East's run")
    >>> from persian_rummy import DrawStock
    >>> str(RecordedAction(1, DrawStock()))
    'E draw'
    """

    #: The seat that played the action.
    seat: int = attrs.field(validator=check_seat)
    #: The action.
    action: Action
    #: A comment, or ``""``.
    comment: str = attrs.field(default="", validator=lambda _, __, value: check_comment(value))

    @classmethod
    def parse(cls, line: str) -> RecordedAction:
        """Parse one action line (see the module documentation); raises
        :class:`~persian_rummy.NotationError` for anything else.

        >>> RecordedAction.parse("S take 3").action
        DrawDiscard(index=3)
        """
        if not isinstance(line, str):
            raise NotationError(f"expected the text of an action line, not {excerpt(line)}")
        body, _, comment = line.partition(";")
        words = body.split(maxsplit=1)
        if not words or len(words[0]) != 1 or words[0] not in SEAT_LETTERS:
            raise NotationError(
                f"{excerpt(line.strip())} is not an action line (expected a seat N, E, S or W, then an action)"
            )
        if len(words) < 2:
            raise NotationError(f"{excerpt(line.strip())} has a seat but no action")
        return cls(SEAT_LETTERS.index(words[0]), Action.parse(words[1]), comment.strip())

    def __str__(self) -> str:
        text = f"{SEAT_LETTERS[self.seat]} {self.action}"
        return f"{text} ; {self.comment}" if self.comment else text


@attrs.frozen
class DealRecord:
    """One deal of a record.

    >>> deal = DealRecord(number=1, dealer=0, deck=shuffled_deck(1), seed=1)
    >>> deal.initial_state().hands[1]
    Hand.parse('Js 2d Jd Qd Tc Jk Jk')
    """

    #: The deal number (1 for the first deal, R7).
    number: int
    #: The seat that dealt.
    dealer: int
    #: The 56 cards in dealing order (see :meth:`~persian_rummy.GameState.from_deck`); ``None`` for
    #: a card hidden from the viewer of a redacted record.
    deck: tuple[Card | None, ...]
    #: The seed the deck was shuffled with, if known (then ``deck`` is ``shuffled_deck(seed)``).
    seed: Seed | None = None
    #: The :class:`RecordedAction`\\ s in order.
    actions: tuple[RecordedAction, ...] = ()
    #: The cumulative totals at the end of the deal, or ``None`` if it did not end.
    scores: tuple[int, int] | None = None
    #: In a redacted record, the four hands at the end of the deal (public then, R23), else
    #: ``None``.
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


def check_names(names: tuple[str, ...], count: int, what: str) -> tuple[str, ...]:
    if not isinstance(names, tuple) or len(names) != count or not all(isinstance(name, str) for name in names):
        raise InvalidArgumentError(f"a record has {count} {what}, each named by a string, not {excerpt(names)}")
    for name in names:
        check_text(name, f"a name of the {what}")
    return names


def parse_deck(deck: Sequence[Card | str | None] | str, number: int) -> tuple[Card | None, ...]:
    if not isinstance(deck, str | Sequence):
        raise NotationError(f"deal {number}: a deck is its 56 cards in dealing order, not {excerpt(deck)}")
    words = deck.split() if isinstance(deck, str) else list(deck)
    if len(words) != len(DECK):
        raise NotationError(f"deal {number}: a deck has 56 cards, not {len(words)}")
    cards = tuple(None if word is None or word == "??" else Card.parse(word) for word in words)
    counts = Counter(card for card in cards if card is not None)
    if counts - DECK_COUNTS:
        extra = " ".join(str(card) for card in sorted((counts - DECK_COUNTS).elements()))
        raise InvalidStateError(f"R1: deal {number}: the deck holds too many of {extra}")
    return cards


def start_deal(
    previous: GameState | None,
    rules: Rules,
    seed: Seed | None,
    deck: Sequence[Card | str] | str | None,
    dealer: int | None,
) -> tuple[DealRecord, GameState]:
    """The record and the first state of the deal after ``previous`` (the last state of the
    deal before, or ``None`` for the first deal), from ``seed`` or ``deck``; see
    :meth:`Recorder.deal <persian_rummy.record.Recorder.deal>`."""
    start = None if previous is None else following_deal(previous)
    number = 1 if start is None else start.number
    if (seed is None) == (deck is None):
        raise ReplayError("deal from a seed or from a deck (one of the two)", deal=number)
    if previous is not None and start is not None:
        if previous.phase is not Phase.ROUND_OVER:
            raise ReplayError(f"R7: deal {previous.deal_number} is not over, or was the last", deal=number)
        expected = start.dealer
        if dealer is not None and dealer != expected:
            raise ReplayError(f"R7: the deal passes clockwise: seat {expected} deals, not seat {dealer}", deal=number)
        dealer = expected
    cards = shuffled_deck(seed) if seed is not None else parse_deck(deck, number)  # type: ignore[arg-type]
    record = DealRecord(number=number, dealer=0 if dealer is None else dealer, deck=cards, seed=seed)
    return record, record.initial_state((0, 0) if start is None else start.scores, rules)


def play_recorded(state: GameState, action: Action | str, comment: str) -> tuple[RecordedAction, GameState]:
    """Play ``action`` (or its text) on ``state``, returning it as recorded with ``comment``
    and the state after it; see :meth:`Recorder.play <persian_rummy.record.Recorder.play>`."""
    if isinstance(action, str):
        action = Action.parse(action)
    if not isinstance(comment, str):
        raise ArgumentTypeError(f"a comment is one line of text, not {excerpt(comment)}")
    item = RecordedAction(state.current_player, action, comment.strip())  # checks the comment first
    return item, play(state, action)


def finish_deal(deal: DealRecord, actions: Sequence[RecordedAction], state: GameState | None) -> DealRecord:
    """``deal`` with its ``actions`` and, if ``state`` (its last state) is over, its scores."""
    scores = state.scores if state is not None and state.is_deal_over else None
    return attrs.evolve(deal, actions=tuple(actions), scores=scores)


def final_scores(state: GameState | None) -> tuple[int, int] | None:
    """The scores of a game whose last state is ``state``, once it is over, else ``None``."""
    return state.scores if state is not None and state.phase is Phase.GAME_OVER else None
